// Structural schemas as CEL types (k8s.io/apiserver pkg/cel/common SchemaDeclType, types.go): what
// `self` looks like to x-kubernetes-validations rules. Objects with properties become message
// types whose fields carry escaped names, maps and lists keep their element types, formats pick
// bytes/timestamp/duration, int-or-string is dyn, and schemas of unknown type are not exposed.
// Each type also records the size bounds kube's cost estimator uses (cost-estimator-k8s.ts): the
// declared maxItems, maxProperties and maxLength, or how many elements could fit into one request.
import {
  BOOL,
  BYTES,
  type CelType,
  DOUBLE,
  DURATION,
  DYN,
  INT,
  type ListType,
  type MapType,
  type ObjectType,
  STRING,
  TIMESTAMP,
} from '../cel/types.js';
import { type CostSchema, maxCardinalityFromMinSize, schemaSizeInfo } from '../cel/cost-estimator-k8s.js';
import { escapeCelName } from './cel-escaping.js';
import type { Structural } from '../schema/structural-model.js';

/**
 * A schema's CEL declaration before naming: object types are all called "object" until a rule
 * compiles against them and {@link celTypeOf} names them after the rule's scope.
 */
export type DeclType = ObjectDecl | MapDecl | ListDecl | ScalarDecl;

interface DeclBase {
  /** The smallest size the value can serialize to in JSON (for cardinality estimates). */
  minSerializedSize: number;
  /** Largest length (strings, bytes) or element count (lists, maps); 0 when not tracked. */
  maxElements: number;
}

interface DeclField {
  /** The property name in JSON (the map key of `fields` is the escaped CEL name). */
  jsonName: string;
  type: DeclType;
  required: boolean;
}

interface ObjectDecl extends DeclBase {
  kind: 'object';
  /** Escaped CEL name → field. Properties with unescapable names or unexposed types are absent. */
  fields: Map<string, DeclField>;
}

interface MapDecl extends DeclBase {
  kind: 'map';
  value: DeclType;
}

interface ListDecl extends DeclBase {
  kind: 'list';
  elem: DeclType;
  /** Set and map lists compare and concatenate by their semantics. */
  listType?: 'set' | 'map';
  mapKeys?: string[];
}

interface ScalarDecl extends DeclBase {
  kind: 'scalar';
  type: CelType;
}

const bare = (type: string): Structural => ({
  raw: { type },
  generic: { description: '', type, title: '', default: undefined, nullable: false },
  extensions: { preserveUnknownFields: false, embeddedResource: false, intOrString: false },
  valueValidation: { format: '', exclusiveMaximum: false, exclusiveMinimum: false, pattern: '', uniqueItems: false },
});

/**
 * WithTypeAndObjectMeta: the root of a resource (and of an embedded resource) always exposes
 * apiVersion, kind, metadata.name and metadata.generateName, and no other metadata.
 */
export function withTypeAndObjectMeta(s: Structural): Structural {
  const p = s.properties;
  const typeOf = (n: Structural | undefined): string => n?.generic.type ?? '';
  const meta = p?.get('metadata');
  if (
    p &&
    typeOf(p.get('kind')) === 'string' &&
    typeOf(p.get('apiVersion')) === 'string' &&
    typeOf(meta) === 'object' &&
    meta?.properties &&
    typeOf(meta.properties.get('name')) === 'string' &&
    typeOf(meta.properties.get('generateName')) === 'string'
  ) {
    return s;
  }
  const props = new Map(p ?? []);
  props.set('kind', bare('string'));
  props.set('apiVersion', bare('string'));
  const metaSchema = bare('object');
  metaSchema.properties = new Map([
    ['name', bare('string')],
    ['generateName', bare('string')],
  ]);
  props.set('metadata', metaSchema);
  // Like kube's copy, the result keeps everything but items.
  const { items: _items, properties: _props, ...rest } = s;
  return { ...rest, properties: props };
}

/** maxCardinality: how many times a value of this minimal size could repeat in one request. */
export const maxCardinality = maxCardinalityFromMinSize;

const scalar = (type: CelType, minSerializedSize: number, maxElements: number): ScalarDecl => ({ kind: 'scalar', type, minSerializedSize, maxElements });

// Conversions repeat for every rule scope of a CRD: each structural node converts once.
const memo = new WeakMap<Structural, DeclType | null>();
const memoRoot = new WeakMap<Structural, DeclType | null>();

/**
 * SchemaDeclType: the CEL declaration of a structural schema, or undefined when the schema is not
 * exposed to rules. isResourceRoot is true for a custom resource's root and embedded resources.
 */
export function schemaDeclType(s: Structural, isResourceRoot: boolean): DeclType | undefined {
  const cache = isResourceRoot ? memoRoot : memo;
  const hit = cache.get(s);
  if (hit !== undefined) return hit ?? undefined;
  const d = convert(s, isResourceRoot);
  cache.set(s, d ?? null);
  return d;
}

function convert(s: Structural, isResourceRoot: boolean): DeclType | undefined {
  // Sizes are the cost estimator's (the same SchemaDeclType bounds, from the JSON schema).
  const size = schemaSizeInfo(s.raw as CostSchema, isResourceRoot);
  if (!size) return undefined;
  const { minSerializedSize, maxElements } = size;
  // int-or-string: all type checks are deferred to runtime.
  if (s.extensions.intOrString) return scalar(DYN, minSerializedSize, maxElements);
  // Unknown fields kept by x-kubernetes-preserve-unknown-fields are never exposed.
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.generic.type) {
    case 'array': {
      const elem = s.items && schemaDeclType(s.items, s.items.extensions.embeddedResource);
      if (!elem) return undefined;
      const list: ListDecl = { kind: 'list', elem, maxElements, minSerializedSize };
      const lt = s.extensions.listType;
      if (lt === 'set' || lt === 'map') list.listType = lt;
      if (lt === 'map' && s.extensions.listMapKeys) list.mapKeys = s.extensions.listMapKeys;
      return list;
    }
    case 'object': {
      const ap = s.additionalProperties?.structural;
      if (ap) {
        const value = schemaDeclType(ap, ap.extensions.embeddedResource);
        return value && { kind: 'map', value, maxElements, minSerializedSize };
      }
      const required = new Set(s.valueValidation.required ?? []);
      const fields = new Map<string, DeclField>();
      for (const [name, prop] of s.properties ?? []) {
        const type = schemaDeclType(prop, prop.extensions.embeddedResource);
        const celName = escapeCelName(name);
        if (type && celName !== undefined) fields.set(celName, { jsonName: name, type, required: required.has(name) });
      }
      return { kind: 'object', fields, minSerializedSize, maxElements };
    }
    case 'string':
      switch (s.valueValidation.format) {
        case 'byte':
          return scalar(BYTES, minSerializedSize, maxElements);
        case 'duration':
          return scalar(DURATION, minSerializedSize, maxElements);
        case 'date':
        case 'date-time':
          return scalar(TIMESTAMP, minSerializedSize, maxElements);
      }
      return scalar(STRING, minSerializedSize, maxElements);
    case 'boolean':
      return scalar(BOOL, minSerializedSize, maxElements);
    case 'number':
      return scalar(DOUBLE, minSerializedSize, maxElements);
    case 'integer':
      return scalar(INT, minSerializedSize, maxElements);
  }
  return undefined;
}

/**
 * The CEL type of a declaration, with object types named as MaybeAssignTypeName names them:
 * `name` for the declaration itself, `name.field` for fields, `name.@elem` for map values and
 * `name.@idx` for list elements. Without a name, objects are called "object".
 */
export function celTypeOf(d: DeclType, name = 'object'): CelType {
  switch (d.kind) {
    case 'scalar':
      // Sized copies: the shared constants must not carry one schema's bounds.
      return d.maxElements > 0 ? ({ ...d.type, maxElements: d.maxElements } as CelType) : d.type;
    case 'list': {
      const t: ListType = { kind: 'list', elem: celTypeOf(d.elem, `${name}.@idx`), maxElements: d.maxElements };
      if (d.listType) t.listType = d.listType;
      if (d.mapKeys) t.mapKeys = d.mapKeys;
      return t;
    }
    case 'map': {
      const t: MapType = { kind: 'map', key: STRING, value: celTypeOf(d.value, `${name}.@elem`), maxElements: d.maxElements };
      return t;
    }
    case 'object': {
      const fields = new Map<string, { type: CelType; jsonName: string }>();
      for (const [celName, f] of d.fields) fields.set(celName, { type: celTypeOf(f.type, `${name}.${celName}`), jsonName: f.jsonName });
      const t: ObjectType = { kind: 'object', name, fields, maxElements: d.maxElements };
      return t;
    }
  }
}

/** The declaration of a field, map value or list element one step down, as kube's accessors find it. */
export function childDecl(d: DeclType | undefined, step: { property: string } | 'items' | 'additionalProperties'): DeclType | undefined {
  if (!d) return undefined;
  if (step === 'items') return d.kind === 'list' ? d.elem : undefined;
  if (step === 'additionalProperties') return d.kind === 'map' ? d.value : undefined;
  if (d.kind !== 'object') return undefined;
  const celName = escapeCelName(step.property);
  return celName === undefined ? undefined : d.fields.get(celName)?.type;
}

// ---------------------------------------------------------------------------------------------
// a declaration's content as text

const SCALAR_TAGS = new Map<CelType, string>([
  [DYN, 'dyn'],
  [BYTES, 'bytes'],
  [DURATION, 'duration'],
  [TIMESTAMP, 'timestamp'],
  [STRING, 'string'],
  [BOOL, 'bool'],
  [DOUBLE, 'double'],
  [INT, 'int'],
]);
const texts = new WeakMap<DeclType, string>();

/**
 * Everything in a declaration, as text: two declarations with the same text give the same CEL types (celTypeOf)
 * and cardinality. Each node's text is made once (a rule scope's text joins its children's), so the texts of
 * every rule scope of a schema cost about one pass over its declaration. Names are JSON strings: no ambiguity.
 */
export function declText(d: DeclType): string {
  let t = texts.get(d);
  if (t !== undefined) return t;
  const sizes = `${d.minSerializedSize},${d.maxElements}`;
  switch (d.kind) {
    case 'scalar':
      t = `s(${sizes},${SCALAR_TAGS.get(d.type) ?? JSON.stringify(d.type)})`;
      break;
    case 'list':
      t = `l(${sizes},${d.listType ?? ''},${d.mapKeys ? JSON.stringify(d.mapKeys) : ''},${declText(d.elem)})`;
      break;
    case 'map':
      t = `m(${sizes},${declText(d.value)})`;
      break;
    case 'object': {
      let fields = '';
      for (const [celName, f] of d.fields) fields += `${JSON.stringify(celName)}${JSON.stringify(f.jsonName)}${f.required ? '!' : ''}${declText(f.type)},`;
      t = `o(${sizes},${fields})`;
      break;
    }
  }
  texts.set(d, t);
  return t;
}
