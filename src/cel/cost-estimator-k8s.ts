// Kubernetes' use of the static cost estimate for CRD validation rules:
// - the size bounds of schema nodes (k8s.io/apiserver pkg/cel/common/schemas.go SchemaDeclType:
//   MaxElements and MinSerializedSize), which become `maxElements` on the declared CEL types;
// - how many times a rule can run (apiextensions validation/cel_validation.go CELSchemaContext
//   MaxCardinality, falling back to schema/cel/compilation.go maxCardinality);
// - the per-expression and per-CRD budgets and their errors (validation/validation.go).
// Inputs are plain JSON schemas (JSONSchemaProps as JSON): the server integration calls these.

import { forbidden, type FieldError } from '../api/field-error.js';
import { MAX_COST } from './cost-estimator-math.js';

/** celconfig.MaxRequestSizeBytes: every unbounded size is bounded by one request. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
/** celconfig.PerCallLimit: the runtime cost limit of one rule evaluation. */
export const PER_CALL_LIMIT = 1_000_000;
/** celconfig.RuntimeCELCostBudget: the runtime budget of all rules of one object. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** StaticEstimatedCostLimit: the largest estimated cost of one rule (× cardinality). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** StaticEstimatedCRDCostLimit: the largest estimated total of all rules of a CRD schema. */
const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

// Serialized sizes (k8s.io/apiserver pkg/cel/limits.go).
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

/** The parts of a JSON schema (apiextensions JSONSchemaProps) that bear on cost. */
export interface CostSchema {
  type?: string;
  format?: string;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  enum?: readonly unknown[];
  required?: readonly string[];
  properties?: { readonly [name: string]: CostSchema };
  items?: CostSchema | readonly CostSchema[];
  additionalProperties?: CostSchema | boolean;
  default?: unknown;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

/** What a schema node's CEL declaration says about sizes. */
interface SchemaSizeInfo {
  /** DeclType.MaxElements: longest string/bytes, most list items or map entries; 0 for others. */
  maxElements: number;
  /** DeclType.MinSerializedSize: the shortest JSON the value can serialize to. */
  minSerializedSize: number;
}

const zeroIfNegative = (n: number): number => (n < 0 ? 0 : n);
const isSchema = (v: unknown): v is CostSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
const itemsOf = (s: CostSchema): CostSchema | undefined => (isSchema(s.items) ? s.items : undefined);
const additionalSchemaOf = (s: CostSchema): CostSchema | undefined => (isSchema(s.additionalProperties) ? s.additionalProperties : undefined);
const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

/** estimateMaxStringLengthPerRequest: the longest string of the schema's format in one request. */
function estimateMaxStringLengthPerRequest(schema: CostSchema): number {
  if (schema['x-kubernetes-int-or-string']) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (schema.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2; // less the quotes
  }
}

/** estimateMaxArrayItemsFromMinSize: items of that size, comma-separated, between `[` and `]`. */
const estimateMaxArrayItemsFromMinSize = (minSize: number): number => Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 1));

/** estimateMaxAdditionalPropertiesFromMinSize: `"":` , a value and a comma per entry, between `{` and `}`. */
const estimateMaxAdditionalPropertiesFromMinSize = (minSize: number): number => Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 6));

/** compilation.go maxCardinality: how often a value of that minimal size fits in one request. */
export const maxCardinalityFromMinSize = (minSize: number): number => Math.floor(MAX_REQUEST_SIZE_BYTES / (minSize + 1));

/** WithTypeAndObjectMeta: resource roots always expose apiVersion, kind and metadata.name/generateName. */
function withTypeAndObjectMeta(s: CostSchema): CostSchema {
  const p = s.properties;
  const meta = p?.['metadata'];
  if (
    p &&
    p['kind']?.type === 'string' &&
    p['apiVersion']?.type === 'string' &&
    meta?.type === 'object' &&
    meta.properties &&
    meta.properties['name']?.type === 'string' &&
    meta.properties['generateName']?.type === 'string'
  ) {
    return s;
  }
  const str: CostSchema = { type: 'string' };
  return {
    ...s,
    properties: { ...p, kind: str, apiVersion: str, metadata: { type: 'object', properties: { name: str, generateName: str } } },
  };
}

// Converting a schema visits its whole subtree; every node converts once per root flag.
const memo = new WeakMap<CostSchema, SchemaSizeInfo | null>();
const memoRoot = new WeakMap<CostSchema, SchemaSizeInfo | null>();

/**
 * The size bounds of a schema node's CEL declaration (SchemaDeclType's MaxElements and
 * MinSerializedSize), or undefined when the node is not exposed to CEL (no type, or a list/map
 * of unexposed elements). `isResourceRoot`: the root of a custom resource or an embedded resource.
 */
export function schemaSizeInfo(schema: CostSchema, isResourceRoot = false): SchemaSizeInfo | undefined {
  const cache = isResourceRoot ? memoRoot : memo;
  const hit = cache.get(schema);
  if (hit !== undefined) return hit ?? undefined;
  const info = convert(schema, isResourceRoot);
  cache.set(schema, info ?? null);
  return info;
}

const childInfo = (s: CostSchema): SchemaSizeInfo | undefined => schemaSizeInfo(s, s['x-kubernetes-embedded-resource'] === true);

function convert(s: CostSchema, isResourceRoot: boolean): SchemaSizeInfo | undefined {
  if (s['x-kubernetes-int-or-string']) {
    // dyn: the smallest value is `0`, the largest the longest string of a request.
    return { maxElements: MAX_REQUEST_SIZE_BYTES - 2, minSerializedSize: 1 };
  }
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      const items = itemsOf(s);
      const elem = items && childInfo(items);
      if (!elem) return undefined;
      const maxItems = s.maxItems !== undefined ? zeroIfNegative(s.maxItems) : estimateMaxArrayItemsFromMinSize(elem.minSerializedSize);
      return { maxElements: maxItems, minSerializedSize: 2 };
    }
    case 'object': {
      const ap = additionalSchemaOf(s);
      if (ap) {
        const value = childInfo(ap);
        if (!value) return undefined;
        const maxProps = s.maxProperties !== undefined ? zeroIfNegative(s.maxProperties) : estimateMaxAdditionalPropertiesFromMinSize(value.minSerializedSize);
        return { maxElements: maxProps, minSerializedSize: 2 };
      }
      // `{}` plus every exposed required property without a default (defaults are filled in).
      const required = new Set(s.required ?? []);
      let minSize = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const info = childInfo(prop);
        if (info && required.has(name) && (prop.default === undefined || prop.default === null)) {
          minSize += utf8Length(name) + info.minSerializedSize + 4;
        }
      }
      return { maxElements: 0, minSerializedSize: minSize };
    }
    case 'string':
      switch (s.format) {
        case 'byte':
          return { maxElements: s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : estimateMaxStringLengthPerRequest(s), minSerializedSize: MIN_STRING_SIZE };
        // Formatted strings are bounded by their format, whatever maxLength says.
        case 'duration':
          return { maxElements: estimateMaxStringLengthPerRequest(s), minSerializedSize: MIN_DURATION_SIZE_JSON };
        case 'date':
          return { maxElements: estimateMaxStringLengthPerRequest(s), minSerializedSize: JSON_DATE_SIZE };
        case 'date-time':
          return { maxElements: estimateMaxStringLengthPerRequest(s), minSerializedSize: MIN_DATETIME_SIZE_JSON };
      }
      // maxLength counts code points but sizes are in bytes: up to 4 per code point.
      if (s.maxLength !== undefined) return { maxElements: zeroIfNegative(s.maxLength) * 4, minSerializedSize: MIN_STRING_SIZE };
      if (s.enum && s.enum.length > 0) {
        let longest = 0;
        for (const v of s.enum) if (typeof v === 'string') longest = Math.max(longest, utf8Length(v));
        return { maxElements: longest, minSerializedSize: MIN_STRING_SIZE };
      }
      return { maxElements: estimateMaxStringLengthPerRequest(s), minSerializedSize: MIN_STRING_SIZE };
    case 'boolean':
      return { maxElements: 0, minSerializedSize: MIN_BOOL_SIZE };
    case 'number':
    case 'integer':
      return { maxElements: 0, minSerializedSize: MIN_NUMBER_SIZE };
  }
  return undefined;
}

/**
 * The `maxElements` to put on a schema node's declared CEL type: maxLength (×4 for plain strings,
 * in bytes), maxItems or maxProperties when set, else what fits into one 3 MiB request given the
 * smallest serialization of the elements; formats bound strings (date-time 32, date 12,
 * duration 32), string enums by their longest value; int-or-string 3 MiB − 2.
 * 0 for numbers, booleans and objects with properties; undefined when the node is not exposed.
 */
export function maxElementsForSchema(schema: CostSchema, isResourceRoot = false): number | undefined {
  return schemaSizeInfo(schema, isResourceRoot)?.maxElements;
}

/** extractMaxElements: by how much a schema multiplies the occurrences of its children;
 * undefined when unbounded (a list without maxItems, a map without maxProperties). */
function cardinalityFactor(schema: CostSchema): number | undefined {
  switch (schema.type) {
    case 'object':
      if (schema.additionalProperties !== undefined) return schema.maxProperties !== undefined ? zeroIfNegative(schema.maxProperties) : undefined;
      return 1;
    case 'array':
      return schema.maxItems !== undefined ? zeroIfNegative(schema.maxItems) : undefined;
    default:
      return 1;
  }
}

/** multiplyWithOverflowGuard: a product saturating at math.MaxUint64, 0 for a 0 cost. */
function multiplyWithOverflowGuard(baseCost: number, cardinality: number): number {
  if (baseCost === 0) return 0;
  if (MAX_COST / baseCost < cardinality) return MAX_COST;
  const r = baseCost * cardinality;
  return r >= MAX_COST ? MAX_COST : r;
}

/** CELSchemaContext.MaxCardinality of a node under `ancestors` (root first, parent last): the
 * product of their factors, or undefined (unbounded) once one of them is unbounded. */
export function boundedCardinality(ancestors: readonly CostSchema[]): number | undefined {
  let card = 1;
  for (const a of ancestors) {
    const f = cardinalityFactor(a);
    if (f === undefined) return undefined;
    card = multiplyWithOverflowGuard(card, f);
  }
  return card;
}

/**
 * How many times a rule on `node` can run per request. `ancestors` are the schemas from the
 * CRD's openAPIV3Schema root down to node's parent (empty for a rule on the root). Bounded when
 * every list and map ancestor declares maxItems/maxProperties: the product of those. Otherwise
 * estimated from the request size and node's smallest serialization; undefined only then when
 * the node has no CEL type (its rules cannot compile anyway).
 */
export function maxCardinality(ancestors: readonly CostSchema[], node: CostSchema): number | undefined {
  const card = boundedCardinality(ancestors);
  if (card !== undefined) return card;
  const isRoot = ancestors.length === 0 || node['x-kubernetes-embedded-resource'] === true;
  const info = schemaSizeInfo(node, isRoot);
  return info ? maxCardinalityFromMinSize(info.minSerializedSize) : undefined;
}

/** getExpressionCost: the rule's estimate.max times how often it can run. */
export const ruleCost = (estimatedMax: number, cardinality: number): number => multiplyWithOverflowGuard(estimatedMax, cardinality);

/** Go's strconv 'f' formatting: exact decimal value, ties to even. */
function goFixed(x: number, prec: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let exp = -1074;
  if (expBits !== 0) {
    mant |= 1n << 52n;
    exp = expBits - 1075;
  }
  const scale = 10n ** BigInt(prec);
  let q: bigint;
  if (exp >= 0) {
    q = (mant << BigInt(exp)) * scale;
  } else {
    const num = mant * scale;
    const den = 1n << BigInt(-exp);
    q = num / den;
    const twice = (num % den) * 2n;
    if (twice > den || (twice === den && (q & 1n) === 1n)) q += 1n;
  }
  const digits = q.toString().padStart(prec + 1, '0');
  const int = digits.slice(0, digits.length - prec);
  const sign = x < 0 ? '-' : '';
  return prec > 0 ? `${sign}${int}.${digits.slice(digits.length - prec)}` : `${sign}${int}`;
}

/** getCostErrorMessage. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  let text: string;
  // Beyond two orders of magnitude the rule is likely O(n^2) or worse; the number adds nothing.
  if (factor > 100) text = 'more than 100x';
  else if (factor < 1.5) text = `${goFixed(factor, 6)}x`; // never "by a factor of 1.0x"
  else text = `${goFixed(factor, 1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

interface CostCheckOptions {
  /** Per-expression limits are not enforced for a version whose schema is unchanged by an update. */
  suppressPerExpressionCost?: boolean;
}

/**
 * The error for a rule whose cost (estimate.max × cardinality, see {@link ruleCost}) exceeds
 * {@link STATIC_ESTIMATED_COST_LIMIT}. `rulePath`: `<schema path>.x-kubernetes-validations[i].rule`.
 */
export function ruleCostError(rulePath: string, expressionCost: number, opts: CostCheckOptions = {}): FieldError | undefined {
  if (opts.suppressPerExpressionCost || expressionCost <= STATIC_ESTIMATED_COST_LIMIT) return undefined;
  return forbidden(rulePath, costErrorMessage('estimated rule cost', expressionCost, STATIC_ESTIMATED_COST_LIMIT));
}

/**
 * The error for a messageExpression whose estimate.max exceeds the limit; message expressions
 * are not multiplied by cardinality. `path`: `<schema path>.x-kubernetes-validations[i].messageExpression`.
 */
export function messageExpressionCostError(path: string, estimatedMax: number, opts: CostCheckOptions = {}): FieldError | undefined {
  if (opts.suppressPerExpressionCost || estimatedMax <= STATIC_ESTIMATED_COST_LIMIT) return undefined;
  return forbidden(path, costErrorMessage('estimated messageExpression cost', estimatedMax, STATIC_ESTIMATED_COST_LIMIT));
}

/**
 * TotalCost: the estimated cost of all rules and message expressions of one CRD version schema.
 * Observe every compiled rule (its {@link ruleCost}) and message expression (its estimate.max),
 * errors or not, in schema walk order; then {@link errors} says what to report.
 */
export class CrdCostTotal {
  total = 0;
  /** The four most expensive contributions of at least 1% of the limit, costliest first. */
  readonly mostExpensive: { path: string; cost: number }[] = [];

  observe(path: string, cost: number): void {
    this.total = this.total + cost >= MAX_COST ? MAX_COST : this.total + cost;
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    this.mostExpensive.push({ path, cost });
    // Stable, as Go's insertion sort on these few elements.
    this.mostExpensive.sort((a, b) => b.cost - a.cost);
    if (this.mostExpensive.length > 4) this.mostExpensive.length = 4;
  }

  /** When the total exceeds {@link STATIC_ESTIMATED_CRD_COST_LIMIT}: one error per most expensive
   * rule, then one at `schemaPath` (`spec.validation.openAPIV3Schema` or `spec.versions[i].schema.openAPIV3Schema`). */
  errors(schemaPath: string): FieldError[] {
    if (this.total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
    const errs = this.mostExpensive.map((e) =>
      forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'),
    );
    errs.push(
      forbidden(
        schemaPath,
        costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', this.total, STATIC_ESTIMATED_CRD_COST_LIMIT),
      ),
    );
    return errs;
  }
}
