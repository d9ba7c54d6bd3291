// The structural schema model of k8s.io/apiextensions-apiserver pkg/apiserver/schema (NewStructural):
// a CRD's openAPIV3Schema split into the structure (type, properties, items, additionalProperties,
// generic fields, x-kubernetes-* extensions) and the value validations, with logical junctors
// (allOf/anyOf/oneOf/not) kept as NestedValueValidation whose structural fields are "forbidden".
//
// Input is the schema as JSON. Field presence follows what Go sees after decoding: JSON null is an
// absent pointer/slice, `required: []` is a non-nil empty slice, `enum: []` and `allOf: []` end up
// nil, unknown keys are dropped. Values of the wrong JSON type (which kube would fail to decode)
// read as absent.

export type Raw = Record<string, unknown>;

export const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
export const present = (v: unknown): boolean => v !== undefined && v !== null;

/** A string field (zero value ""). */
export const rawString = (r: Raw, k: string): string => (typeof r[k] === 'string' ? (r[k] as string) : '');
/** A bool field (zero value false). */
export const rawBool = (r: Raw, k: string): boolean => r[k] === true;
/** A *float64 / *int64 field. */
const rawNumber = (r: Raw, k: string): number | undefined =>
  typeof r[k] === 'number' ? (r[k] as number) : typeof r[k] === 'bigint' ? Number(r[k]) : undefined; // float64s in Go
/** A *string field: present even when "". */
export const rawStringPtr = (r: Raw, k: string): string | undefined => (typeof r[k] === 'string' ? (r[k] as string) : undefined);
/** A []string field converted by pointer cast: non-nil when present, even if empty. */
export const rawStringSlice = (r: Raw, k: string): string[] | undefined =>
  Array.isArray(r[k]) ? (r[k] as unknown[]).filter((x): x is string => typeof x === 'string') : undefined;
/** A []JSONSchemaProps field. */
export const rawSchemaSlice = (r: Raw, k: string): Raw[] => (Array.isArray(r[k]) ? (r[k] as unknown[]).filter(isObj) : []);
/** A map[string]JSONSchemaProps field, entries in Go string order (kube iterates maps randomly; we pick one order). */
export function rawSchemaMap(r: Raw, k: string): Array<[string, Raw]> | undefined {
  const m = r[k];
  if (!isObj(m)) return undefined;
  return Object.keys(m)
    .sort(compareGo)
    .filter((key) => isObj(m[key]))
    .map((key) => [key, m[key] as Raw]);
}
/** Length of a map field (0 when absent). */
export const rawMapLen = (r: Raw, k: string): number => (isObj(r[k]) ? Object.keys(r[k] as object).length : 0);

/** JSONSchemaPropsOrArray as Go decodes it. `items: []` is a non-nil value holding neither. */
export function rawItems(r: Raw): { schema?: Raw; array?: Raw[] } | undefined {
  const v = r['items'];
  if (isObj(v)) return { schema: v };
  if (Array.isArray(v)) return { array: v.filter(isObj) };
  return undefined;
}

/** JSONSchemaPropsOrBool as Go decodes it: `true`, `false` or a schema (which implies Allows). */
export function rawAdditionalProperties(r: Raw): { allows: boolean; schema?: Raw } | undefined {
  const v = r['additionalProperties'];
  if (typeof v === 'boolean') return { allows: v };
  if (isObj(v)) return { allows: true, schema: v };
  return undefined;
}

/** Go's string ordering (bytewise on UTF-8; UTF-16 order agrees outside surrogate pairs). */
export function compareGo(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Generic {
  description: string;
  type: string;
  title: string;
  /** The default value; undefined when not set (JSON null is "not set"). */
  default: unknown;
  nullable: boolean;
}

export interface Extensions {
  preserveUnknownFields: boolean;
  embeddedResource: boolean;
  intOrString: boolean;
  listMapKeys?: string[];
  listType?: string;
  mapType?: string;
}

export interface ValueValidation {
  format: string;
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  maxLength?: number;
  minLength?: number;
  pattern: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  allOf?: NestedValueValidation[];
  oneOf?: NestedValueValidation[];
  anyOf?: NestedValueValidation[];
  not?: NestedValueValidation;
}

export interface NestedValueValidation {
  valueValidation: ValueValidation;
  xValidations?: unknown[];
  items?: NestedValueValidation;
  /** Non-nil whenever the JSON has a properties object, even an empty one. */
  properties?: Map<string, NestedValueValidation>;
  additionalProperties?: NestedValueValidation;
  forbiddenGenerics: Generic;
  forbiddenExtensions: Extensions;
}

export interface Structural {
  /** The JSON schema node this was built from (for value validators that take JSON schemas). */
  raw: Raw;
  items?: Structural;
  /** Only set when there is at least one property. */
  properties?: Map<string, Structural>;
  additionalProperties?: { structural?: Structural; bool: boolean };
  generic: Generic;
  extensions: Extensions;
  xValidations?: unknown[];
  valueValidation: ValueValidation;
}

class StructuralError extends Error {}

/** NewStructural: the structural model, or the conversion error kube reports. */
export function newStructural(schema: Raw): { structural: Structural } | { error: string } {
  try {
    return { structural: toStructural(schema) };
  } catch (e) {
    if (e instanceof StructuralError) return { error: e.message };
    throw e;
  }
}

function toStructural(s: Raw): Structural {
  checkUnsupportedFields(s);
  const valueValidation = toValueValidation(s);
  const generic = toGeneric(s);
  const extensions = toExtensions(s);
  const out: Structural = { raw: s, generic, extensions, valueValidation };
  const xv = rawXValidations(s);
  if (xv) out.xValidations = xv;
  const items = rawItems(s);
  if (items) {
    if (items.array && items.array.length > 0) throw new StructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    if (items.schema) out.items = toStructural(items.schema);
  }
  const props = rawSchemaMap(s, 'properties');
  if (props && props.length > 0) out.properties = new Map(props.map(([k, v]) => [k, toStructural(v)]));
  const ap = rawAdditionalProperties(s);
  if (ap) out.additionalProperties = ap.schema ? { structural: toStructural(ap.schema), bool: true } : { bool: ap.allows };
  return out;
}

function toNested(s: Raw): NestedValueValidation {
  checkUnsupportedFields(s);
  const valueValidation = toValueValidation(s);
  const forbiddenGenerics = toGeneric(s);
  const forbiddenExtensions = toExtensions(s);
  const out: NestedValueValidation = { valueValidation, forbiddenGenerics, forbiddenExtensions };
  const xv = rawXValidations(s);
  if (xv) out.xValidations = xv;
  const items = rawItems(s);
  if (items) {
    if (items.array && items.array.length > 0) throw new StructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    if (items.schema) out.items = toNested(items.schema);
  }
  const props = rawSchemaMap(s, 'properties');
  if (props) out.properties = new Map(props.map(([k, v]) => [k, toNested(v)]));
  const ap = rawAdditionalProperties(s);
  if (ap?.schema) out.additionalProperties = toNested(ap.schema);
  else if (ap?.allows) out.additionalProperties = emptyNested();
  return out;
}

function toValueValidation(s: Raw): ValueValidation {
  const v: ValueValidation = {
    format: rawString(s, 'format'),
    exclusiveMaximum: rawBool(s, 'exclusiveMaximum'),
    exclusiveMinimum: rawBool(s, 'exclusiveMinimum'),
    pattern: rawString(s, 'pattern'),
    uniqueItems: rawBool(s, 'uniqueItems'),
  };
  // `not` is converted first, then allOf, anyOf, oneOf: that decides which error is reported.
  if (isObj(s['not'])) v.not = toNested(s['not']);
  const setNum = (key: keyof ValueValidation & string) => {
    const n = rawNumber(s, key);
    if (n !== undefined) (v as unknown as Record<string, unknown>)[key] = n;
  };
  for (const k of ['maximum', 'minimum', 'maxLength', 'minLength', 'maxItems', 'minItems', 'multipleOf', 'maxProperties', 'minProperties'] as const) setNum(k);
  if (Array.isArray(s['enum']) && s['enum'].length > 0) v.enum = s['enum'] as unknown[];
  const req = rawStringSlice(s, 'required');
  if (req) v.required = req;
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = rawSchemaSlice(s, key).map(toNested);
    if (list.length > 0) v[key] = list;
  }
  return v;
}

function toGeneric(s: Raw): Generic {
  return {
    description: rawString(s, 'description'),
    type: rawString(s, 'type'),
    title: rawString(s, 'title'),
    default: present(s['default']) ? s['default'] : undefined,
    nullable: rawBool(s, 'nullable'),
  };
}

function toExtensions(s: Raw): Extensions {
  const x: Extensions = {
    preserveUnknownFields: false,
    embeddedResource: rawBool(s, 'x-kubernetes-embedded-resource'),
    intOrString: rawBool(s, 'x-kubernetes-int-or-string'),
  };
  const puf = s['x-kubernetes-preserve-unknown-fields'];
  if (puf === false) throw new StructuralError("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
  if (puf === true) x.preserveUnknownFields = true;
  const keys = rawStringSlice(s, 'x-kubernetes-list-map-keys');
  if (keys) x.listMapKeys = keys;
  const lt = rawStringPtr(s, 'x-kubernetes-list-type');
  if (lt !== undefined) x.listType = lt;
  const mt = rawStringPtr(s, 'x-kubernetes-map-type');
  if (mt !== undefined) x.mapType = mt;
  return x;
}

function rawXValidations(s: Raw): unknown[] | undefined {
  const v = s['x-kubernetes-validations'];
  return Array.isArray(v) ? v : undefined;
}

/** validateUnsupportedFields: fields the validation rejects, checked again by the converter. */
function checkUnsupportedFields(s: Raw): void {
  if (rawString(s, 'id').length > 0) throw new StructuralError("OpenAPIV3Schema 'id' is not supported");
  if (rawString(s, '$schema').length > 0) throw new StructuralError("OpenAPIV3Schema 'schema' is not supported");
  if ((rawStringPtr(s, '$ref') ?? '').length > 0) throw new StructuralError("OpenAPIV3Schema '$ref' is not supported");
  if (rawMapLen(s, 'patternProperties') > 0) throw new StructuralError("OpenAPIV3Schema 'patternProperties' is not supported");
  if (rawMapLen(s, 'dependencies') > 0) throw new StructuralError("OpenAPIV3Schema 'dependencies' is not supported");
  if (typeof s['additionalItems'] === 'boolean' || isObj(s['additionalItems'])) {
    throw new StructuralError("OpenAPIV3Schema 'additionalItems' is not supported");
  }
  if (rawMapLen(s, 'definitions') > 0) throw new StructuralError("OpenAPIV3Schema 'definitions' is not supported");
}

function emptyNested(): NestedValueValidation {
  return {
    valueValidation: { format: '', exclusiveMaximum: false, exclusiveMinimum: false, pattern: '', uniqueItems: false },
    forbiddenGenerics: { description: '', type: '', title: '', default: undefined, nullable: false },
    forbiddenExtensions: { preserveUnknownFields: false, embeddedResource: false, intOrString: false },
  };
}

// ---------------------------------------------------------------------------------------------
// zero-value checks (reflect.DeepEqual against empty structs)

export function isZeroValueValidation(v: ValueValidation): boolean {
  return (
    v.format === '' &&
    v.maximum === undefined &&
    !v.exclusiveMaximum &&
    v.minimum === undefined &&
    !v.exclusiveMinimum &&
    v.maxLength === undefined &&
    v.minLength === undefined &&
    v.pattern === '' &&
    v.maxItems === undefined &&
    v.minItems === undefined &&
    !v.uniqueItems &&
    v.multipleOf === undefined &&
    v.enum === undefined &&
    v.maxProperties === undefined &&
    v.minProperties === undefined &&
    v.required === undefined &&
    v.allOf === undefined &&
    v.oneOf === undefined &&
    v.anyOf === undefined &&
    v.not === undefined
  );
}

export function isZeroExtensions(x: Extensions): boolean {
  return (
    !x.preserveUnknownFields &&
    !x.embeddedResource &&
    !x.intOrString &&
    x.listMapKeys === undefined &&
    x.listType === undefined &&
    x.mapType === undefined
  );
}

/** The nested value validation is exactly `{type: <t>}` (as the int-or-string patterns require). */
export function isBareType(n: NestedValueValidation, t: string): boolean {
  const g = n.forbiddenGenerics;
  return (
    g.type === t &&
    g.description === '' &&
    g.title === '' &&
    g.default === undefined &&
    !g.nullable &&
    isZeroExtensions(n.forbiddenExtensions) &&
    isZeroValueValidation(n.valueValidation) &&
    n.xValidations === undefined &&
    n.items === undefined &&
    n.properties === undefined &&
    n.additionalProperties === undefined
  );
}
