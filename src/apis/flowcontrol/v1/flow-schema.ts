// flowcontrol.apiserver.k8s.io/v1 FlowSchema: the flowschema REST's strategy, status subresource, printer
// (rows in matching order) and field selectors.
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { metaOf } from '../../../registry/store.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../meta/v1/object-meta.js';
import type { KindDeclaration } from '../../kind.js';
import { FLOW_SCHEMA_SPEC_DOCS, FlowSchema, FlowSchemaList, FlowSchemaSpec, FlowSchemaStatus } from './types.js';
import { setFlowSchemaDefaults } from './defaults.js';
import { validateFlowSchema, validateFlowSchemaStatus } from './validation.js';
import { flowcontrolStrategy } from './strategy.js';
import { clusterScopedFields, FLOWCONTROL_GROUP_PRIORITY } from './shared.js';

const specOf = (obj: JSONObject): JSONObject => (isObject(obj['spec']) ? (obj['spec'] as JSONObject) : {});
const precedenceOf = (obj: JSONObject): number => (typeof specOf(obj)['matchingPrecedence'] === 'number' ? (specOf(obj)['matchingPrecedence'] as number) : 0);

/** printFlowSchema's MISSINGPL: the Dangling condition's status, "?" without one. */
function danglingStatus(obj: JSONObject): string {
  const status = isObject(obj['status']) ? (obj['status'] as JSONObject) : {};
  const conditions = Array.isArray(status['conditions']) ? status['conditions'] : [];
  const dangling = conditions.find((c) => isObject(c) && c['type'] === 'Dangling') as JSONObject | undefined;
  return dangling ? String(dangling['status'] ?? '') : '?';
}

/** FlowSchemaSequence: by matching precedence, then by name. */
export function flowSchemaOrder(a: JSONObject, b: JSONObject): number {
  const pa = precedenceOf(a);
  const pb = precedenceOf(b);
  if (pa !== pb) return pa - pb;
  const na = metaOf(a).name ?? '';
  const nb = metaOf(b).name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

export const flowSchemaKind: KindDeclaration = {
  served: {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1',
    resource: 'flowschemas',
    singularName: 'flowschema',
    kind: 'FlowSchema',
    listKind: 'FlowSchemaList',
    namespaced: false,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: [],
    categories: [],
    subresources: { status: true },
  },
  groupPriorityMinimum: FLOWCONTROL_GROUP_PRIORITY,
  storageVersion: 'v1',
  keyPrefix: '/registry/flowschemas/',
  object: FlowSchema,
  list: FlowSchemaList,
  protobuf: true,
  strategy: flowcontrolStrategy({
    kind: 'FlowSchema',
    spec: FlowSchemaSpec,
    status: FlowSchemaStatus,
    setDefaults: setFlowSchemaDefaults,
    validate: validateFlowSchema,
    validateStatus: validateFlowSchemaStatus,
  }),
  // kube's FlowSchema printer: NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL.
  table: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' },
    {
      name: 'PriorityLevel',
      type: 'string',
      format: '',
      description: '`name` is the name of the priority level configuration being referenced Required.',
      priority: 0,
      field: ['spec', 'priorityLevelConfiguration', 'name'],
      render: 'string',
    },
    { name: 'MatchingPrecedence', type: 'string', format: '', description: FLOW_SCHEMA_SPEC_DOCS.matchingPrecedence, priority: 0, cell: precedenceOf },
    {
      name: 'DistinguisherMethod',
      type: 'string',
      format: '',
      description: FLOW_SCHEMA_SPEC_DOCS.distinguisherMethod,
      priority: 0,
      cell: (obj) => {
        const dm = specOf(obj)['distinguisherMethod'];
        return isObject(dm) ? String(dm['type'] ?? '') : '<none>';
      },
    },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' },
    { name: 'MissingPL', type: 'string', format: '', description: 'references a broken or non-existent PriorityLevelConfiguration', priority: 0, cell: danglingStatus },
  ],
  tableOrder: flowSchemaOrder,
  selectableFields: clusterScopedFields,
  defaultFieldLabelConversion: true,
  subresources: ['status'],
};
