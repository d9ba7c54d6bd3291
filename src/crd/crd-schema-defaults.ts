// Defaults in CRD schemas (pkg/apiserver/schema/defaulting ValidateDefaults and PruneDefaults):
// every default must already be pruned and must validate against the schema it sits in, and
// defaults of TypeMeta/ObjectMeta fields must produce valid metadata for the surrounding object.
// Value validation and pruning are injected: they belong to the custom-resource schema engine.
import { type FieldError, aggregate, fieldErrorString, invalid } from '../api/field-error.js';
import type { JSONSchemaProps } from './types.js';
import { asResourceRoot, coerceEmbedded, validateEmbedded } from '../schema/crd-schema-embedded.js';
import { child, key } from '../schema/structural-path.js';
import { type Structural, isObj, newStructural } from '../schema/structural-model.js';
import { validateStructural } from './structural-validate.js';
import { deepCopyJSON } from '../util/json.js';

/** The custom-resource engine functions the CRD schema checks need. */
export interface SchemaValueChecks {
  /**
   * OpenAPI value validation of `value` against `schema` (kube's ValidateCustomResource), errors
   * rendered under `path`, e.g. `...properties[spec].default.replicas: Invalid value: ...`.
   */
  validateValue(schema: JSONSchemaProps, value: unknown, path: string): FieldError[];
  /**
   * pruning.Prune: a copy of `value` without the fields `schema` does not specify (the input is
   * not modified). With isResourceRoot, apiVersion/kind/metadata at the top are kept.
   */
  pruneValue(schema: JSONSchemaProps, value: unknown, isResourceRoot: boolean): unknown;
  /** pruneValue for many values of one schema, prepared once (e.g. compiled); without it, pruneValue each time. */
  valuePruner?(schema: JSONSchemaProps, isResourceRoot: boolean): (value: unknown) => unknown;
  /** x-kubernetes-validations of `schema` evaluated on a default value (CEL); optional. */
  validateRulesOnValue?(schema: JSONSchemaProps, value: unknown, path: string, isResourceRoot: boolean): FieldError[];
}

/** How the default sits inside the object that surrounds it (SurroundingObjectFunc's steps). */
type Step = { child: string } | 'index';
const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * ValidateDefaults for the schema at a resource root; `path` is the openAPIV3Schema path. `requirePrunedDefaults` may
 * be a question asked only when a default is found unpruned (an update's ratchet, whose answer walks every default
 * of the old CRD).
 */
export function validateDefaults(path: string, root: Structural, requirePrunedDefaults: boolean | (() => boolean), deps: SchemaValueChecks): FieldError[] {
  const r = asResourceRoot(root);
  const errs: FieldError[] = [];
  const required = typeof requirePrunedDefaults === 'function' ? requirePrunedDefaults : () => requirePrunedDefaults;
  walk(path, r, r, undefined, false, required, deps, errs);
  return errs;
}

/**
 * Whether a default is changed by pruning where pruned defaults are required. The pruning comes first, so that the
 * requirement is asked only about a default pruning changes; a pruning that throws throws only where pruned
 * defaults are required, as when it ran only then.
 */
function unprunedWhereRequired(s: Structural, dflt: unknown, required: () => boolean, deps: SchemaValueChecks): boolean {
  let pruned: unknown;
  try {
    // pruneValue leaves its input as it is (a copy is pruned).
    pruned = deps.pruneValue(s.raw, dflt, s.extensions.embeddedResource);
  } catch (e) {
    if (required()) throw e;
    return false;
  }
  return !jsonEqual(pruned, dflt) && required();
}

/** The steps from the surrounding object down to a node, innermost last, kept as links: most nodes never need them. */
interface StepLink {
  up: StepLink | undefined;
  step: Step;
}

function stepsOf(link: StepLink | undefined): Step[] {
  const out: Step[] = [];
  for (let l = link; l; l = l.up) out.push(l.step);
  return out.reverse();
}

/** One node and below; errors appended to errs in walk order. */
function walk(
  path: string,
  s: Structural,
  rootSchema: Structural,
  steps: StepLink | undefined,
  insideMeta: boolean,
  requirePruned: () => boolean,
  deps: SchemaValueChecks,
  errs: FieldError[],
): void {
  if (s.extensions.embeddedResource) {
    // Each embedded resource is its own root for metadata purposes.
    insideMeta = false;
    steps = undefined;
    rootSchema = s;
  }
  const isResourceRoot = s === rootSchema;
  const dflt = s.generic.default;
  if (dflt !== undefined) {
    const dPath = child(path, 'default');
    if (insideMeta) {
      const obj = surround(deepCopyJSON(dflt), stepsOf(steps), true) as Record<string, unknown>;
      const coerceErr = coerceEmbedded('', obj, rootSchema, true, false);
      const metaErrs = coerceErr ? [] : validateEmbedded('', obj, rootSchema, true);
      if (coerceErr) errs.push(invalid(dPath, dflt, `must result in valid metadata: ${fieldErrorString(coerceErr)}`));
      else if (metaErrs.length > 0) errs.push(invalid(dPath, dflt, `must result in valid metadata: ${aggregate(metaErrs)}`));
      else errs.push(...valueAndRules(s, dflt, dPath, isResourceRoot, deps));
    } else {
      if (unprunedWhereRequired(s, dflt, requirePruned, deps)) errs.push(invalid(dPath, dflt, 'must not have unknown fields'));
      // kube coerces the default itself; later checks see the normalized metadata.
      const value = deepCopyJSON(dflt);
      const coerceErr = coerceEmbedded(dPath, value, s, s.extensions.embeddedResource, false);
      const metaErrs = coerceErr ? [] : validateEmbedded(dPath, value, s, s.extensions.embeddedResource);
      if (coerceErr) errs.push(coerceErr);
      else if (metaErrs.length > 0) errs.push(...metaErrs);
      else errs.push(...valueAndRules(s, value, dPath, isResourceRoot, deps));
    }
  }
  // additionalProperties is not followed: defaults are pointless (and forbidden in metadata) there.
  if (s.items) walk(child(path, 'items'), s.items, rootSchema, { up: steps, step: 'index' }, insideMeta, requirePruned, deps, errs);
  for (const [k, p] of s.properties ?? []) {
    const subInsideMeta = insideMeta || (s.extensions.embeddedResource && META_FIELDS.has(k));
    walk(key(child(path, 'properties'), k), p, rootSchema, { up: steps, step: { child: k } }, subInsideMeta, requirePruned, deps, errs);
  }
}

function valueAndRules(s: Structural, value: unknown, path: string, isResourceRoot: boolean, deps: SchemaValueChecks): FieldError[] {
  const errs = deps.validateValue(s.raw, value, path);
  if (errs.length > 0 || !deps.validateRulesOnValue) return errs;
  return deps.validateRulesOnValue(s.raw, value, path, isResourceRoot);
}

/** The object the default would sit in: x wrapped per step, with TypeMeta filled in if asked. */
function surround(x: unknown, steps: Step[], withTypeMeta: boolean): unknown {
  let obj = x;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    obj = step === 'index' ? [obj] : { [step.child]: obj };
  }
  if (withTypeMeta && isObj(obj)) {
    if (!Object.hasOwn(obj, 'kind')) obj['kind'] = 'Validation';
    if (!Object.hasOwn(obj, 'apiVersion')) obj['apiVersion'] = 'validation/v1';
  }
  return obj;
}

/** The accessor of surround: the value at the steps' end, or undefined when it is gone. */
function access(obj: unknown, steps: Step[]): unknown {
  let x = obj;
  for (const step of steps) {
    if (step === 'index') {
      if (!Array.isArray(x) || x.length === 0) return undefined;
      x = x[0];
    } else {
      if (!isObj(x) || !Object.hasOwn(x, step.child)) return undefined;
      x = x[step.child];
    }
  }
  return x;
}

/** reflect.DeepEqual over decoded JSON. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObj(a)) {
    if (!isObj(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// ratcheting: did the old schema already carry unpruned defaults?

function hasDefault(s: unknown): boolean {
  if (!isObj(s)) return false;
  if (s['default'] !== undefined && s['default'] !== null) return true;
  const items = s['items'];
  if (Array.isArray(items) ? items.some(hasDefault) : hasDefault(items)) return true;
  for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k]) && (s[k] as unknown[]).some(hasDefault)) return true;
  for (const k of ['properties', 'patternProperties', 'definitions', 'dependencies']) {
    if (isObj(s[k]) && Object.values(s[k] as object).some(hasDefault)) return true;
  }
  return hasDefault(s['not']) || hasDefault(s['additionalProperties']) || hasDefault(s['additionalItems']);
}

/**
 * schemaHasUnprunedDefaults: some default changes when pruned inside its surrounding object with
 * the whole schema (PruneDefaults). Schemas that are not structural count as not having any.
 */
export function schemaHasUnprunedDefaults(schema: JSONSchemaProps | undefined, deps: SchemaValueChecks): boolean {
  if (!isObj(schema) || !hasDefault(schema)) return false;
  const r = newStructural(schema);
  if ('error' in r || validateStructural('', r.structural).length > 0) return false;
  const root = r.structural;
  // Every default is pruned with the whole schema: prepared once, not once per default (a CRD update ratchets on
  // this, and compiling the pruning of a large schema for each of its defaults was most of the update).
  const prune = deps.valuePruner?.(root.raw, true) ?? ((v: unknown) => deps.pruneValue(root.raw, v, true));
  let changed = false;
  const visit = (s: Structural, steps: Step[]): boolean => {
    const dflt = s.generic.default;
    if (dflt !== undefined) {
      const obj = surround(deepCopyJSON(dflt), steps, false);
      // A root default that is not an object fails PruneDefaults, which then counts as "no".
      if (!isObj(obj)) return false;
      coerceEmbedded('', obj, root, true, true);
      const pruned = prune(obj);
      if (!jsonEqual(dflt, access(pruned, steps))) changed = true;
    }
    if (s.additionalProperties?.structural && !visit(s.additionalProperties.structural, [...steps, { child: '*' }])) return false;
    if (s.items && !visit(s.items, [...steps, 'index'])) return false;
    for (const [k, p] of s.properties ?? []) if (!visit(p, [...steps, { child: k }])) return false;
    return true;
  };
  return visit(root, []) && changed;
}
