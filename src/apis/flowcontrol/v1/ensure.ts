// The flowcontrol side of the bootstrap ensurer (controllers/apf-bootstrap.ts): each kind's bootstrap
// objects and its SpecEqualish, as pkg/registry/flowcontrol/ensurer compares them.
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import type { GenericStore } from '../../../registry/store.js';
import type { BootstrapKind } from '../../../controllers/apf-bootstrap.js';
import { FlowSchemaSpec, PriorityLevelConfigurationSpec } from './types.js';
import { setFlowSchemaDefaults, setPriorityLevelDefaults } from './defaults.js';
import { semanticEqual } from './validation.js';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from './bootstrap.js';

const specOf = (o: JSONObject): JSONObject => (isObject(o['spec']) ? (o['spec'] as JSONObject) : {});

/** Bootstrap objects' defaulted specs: they are constants, compared on every start and every pass (once a minute). */
const defaultedSpecs = new WeakMap<JSONObject, JSONObject>();

/** The bootstrap object's spec defaulted, shared: read-only. */
function defaulted(o: JSONObject, setDefaults: (obj: JSONObject) => void): JSONObject {
  let spec = defaultedSpecs.get(o);
  if (!spec) {
    const copy = structuredClone(o);
    setDefaults(copy);
    defaultedSpecs.set(o, (spec = specOf(copy)));
  }
  return spec;
}

/** The bootstrap object's defaulted spec against the actual one; the exempt level's `exempt` values are the operator's. */
function priorityLevelSpecEqualish(bootstrap: JSONObject, actual: JSONObject): boolean {
  let want = defaulted(bootstrap, setPriorityLevelDefaults);
  const have = specOf(actual);
  if ((bootstrap['metadata'] as JSONObject)['name'] === 'exempt') {
    if (!isObject(have['exempt'])) return false;
    want = { ...want };
    want['exempt'] = { ...(want['exempt'] as JSONObject), nominalConcurrencyShares: have['exempt']['nominalConcurrencyShares'], lendablePercent: have['exempt']['lendablePercent'] };
  }
  return semanticEqual(PriorityLevelConfigurationSpec, want, have);
}

/** The two kinds the ensurer keeps, priority levels first. */
export function flowcontrolBootstrapKinds(priorityLevels: GenericStore, flowSchemas: GenericStore): BootstrapKind[] {
  return [
    {
      typeName: 'PriorityLevelConfiguration',
      store: priorityLevels,
      mandatory: MANDATORY_PRIORITY_LEVELS,
      suggested: SUGGESTED_PRIORITY_LEVELS,
      specEqualish: priorityLevelSpecEqualish,
    },
    {
      typeName: 'FlowSchema',
      store: flowSchemas,
      mandatory: MANDATORY_FLOW_SCHEMAS,
      suggested: SUGGESTED_FLOW_SCHEMAS,
      specEqualish: (bootstrap, actual) => semanticEqual(FlowSchemaSpec, defaulted(bootstrap, setFlowSchemaDefaults), specOf(actual)),
    },
  ];
}
