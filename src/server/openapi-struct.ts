// OpenAPI v3 definitions derived from declared Go structs (src/apis), as kube-openapi generates them
// and builder3 publishes them: properties in Go order with their docs; TypeMeta's kind and apiVersion
// first; defaults for the zero values of non-pointer fields (a struct's {} always, a scalar's only when
// it is required); required for fields without omitempty or +optional; the list and patch markers as
// extensions; references with siblings wrapped in allOf, which comes last.
import type { GoField, GoFieldType, GoStruct } from '../api/go-struct.js';
import { UNION_NAMES } from '../api/go-type-names.js';

type Schema = Record<string, unknown>;

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const REFS = '#/components/schemas/';

/** The definition name of a declared struct, or undefined when kube's definition is not published from it. */
export const structDefinitionName = (s: GoStruct): string | undefined => (s.openapi ? `${s.openapi}.${s.name}` : undefined);

/**
 * Referenced definition of a type, if it is one: a struct; the meta/v1 types published as strings and
 * objects; apiextensions' JSON, JSONSchemaProps and unions, in the package of the struct holding them.
 */
function refName(t: GoFieldType, owner: GoStruct): string | undefined {
  if (typeof t === 'object') {
    const name = structDefinitionName(t);
    if (!name) throw new Error(`${t.name}: referenced from a published definition but not published itself`);
    return name;
  }
  if (t === 'time') return `${META}.Time`;
  if (t === 'microTime') return `${META}.MicroTime`;
  if (t === 'fieldsV1') return `${META}.FieldsV1`;
  const named = UNION_NAMES[t];
  return named && owner.openapi ? `${owner.openapi}.${named}` : undefined;
}

const SCALARS: Record<string, { schema: Schema; zero: unknown }> = {
  string: { schema: { type: 'string' }, zero: '' },
  int64: { schema: { type: 'integer', format: 'int64' }, zero: 0 },
  int32: { schema: { type: 'integer', format: 'int32' }, zero: 0 },
  float64: { schema: { type: 'number', format: 'double' }, zero: 0 },
  bool: { schema: { type: 'boolean' }, zero: false },
  // A []byte is a slice: nil is its zero, so kube-openapi gives it no default.
  bytes: { schema: { type: 'string', format: 'byte' }, zero: undefined },
};

function scalar(t: GoFieldType): { schema: Schema; zero: unknown } {
  const s = typeof t === 'string' ? SCALARS[t] : undefined;
  if (!s) throw new Error(`${String(t)}: no OpenAPI form declared`);
  return s;
}

/** A list's items or a map's values: non-pointer elements carry their zero value as default. */
function elemSchema(t: GoFieldType, owner: GoStruct): Schema {
  if (t === 'stringList') return { type: 'array', items: { default: '', type: 'string' } };
  const ref = refName(t, owner);
  if (ref) return typeof t === 'object' ? { default: {}, allOf: [{ $ref: REFS + ref }] } : { $ref: REFS + ref };
  const s = scalar(t);
  return s.zero === undefined ? { ...s.schema } : { default: s.zero, ...s.schema };
}

const required = (f: GoField): boolean => !f.omitempty && !f.optional;

function propertySchema(f: GoField, owner: GoStruct): Schema {
  const out: Schema = {};
  if (f.doc !== undefined) out['description'] = f.doc;
  const ref = f.slice || f.map ? undefined : refName(f.type, owner);
  if (f.slice) Object.assign(out, { type: 'array', items: elemSchema(f.type, owner) });
  else if (f.map) Object.assign(out, { type: 'object', additionalProperties: elemSchema(f.type, owner) });
  else if (ref) {
    if (typeof f.type === 'object' && !f.pointer) out['default'] = {};
  } else {
    const s = scalar(f.type);
    // A +default marker's value; else openapi-gen's mustEnforceDefault: the zero value for every scalar without
    // omitempty, +optional or not (byte slices have none).
    if (f.default !== undefined) out['default'] = f.default;
    else if (!f.omitempty && !f.pointer && s.zero !== undefined) out['default'] = s.zero;
    Object.assign(out, s.schema);
  }
  if (f.listMapKeys) out['x-kubernetes-list-map-keys'] = [...f.listMapKeys];
  if (f.listType) out['x-kubernetes-list-type'] = f.listType;
  if (f.patchMergeKey) out['x-kubernetes-patch-merge-key'] = f.patchMergeKey;
  if (f.patchStrategy) out['x-kubernetes-patch-strategy'] = f.patchStrategy;
  // A ref alone stays a ref; with siblings it is wrapped.
  if (ref && Object.keys(out).length === 0) return { $ref: REFS + ref };
  if (ref) out['allOf'] = [{ $ref: REFS + ref }];
  return out;
}

/** The definition of a struct; typeMeta gives kind and apiVersion's published properties. */
export function structDefinition(s: GoStruct, typeMeta: { kind: Schema; apiVersion: Schema }): Schema {
  const properties: Schema = {};
  if (s.typeMeta) Object.assign(properties, { kind: { ...typeMeta.kind }, apiVersion: { ...typeMeta.apiVersion } });
  for (const f of s.fields) properties[f.json] = propertySchema(f, s);
  const out: Schema = {};
  if (s.doc !== undefined) out['description'] = s.doc;
  out['type'] = 'object';
  if (Object.keys(properties).length > 0) out['properties'] = properties;
  const names = s.fields.filter(required).map((f) => f.json);
  if (names.length > 0) out['required'] = names;
  if (s.mapType) out['x-kubernetes-map-type'] = s.mapType;
  if (s.union) out['x-kubernetes-unions'] = [{ discriminator: s.union.discriminator, 'fields-to-discriminateBy': { ...s.union.fields } }];
  return out;
}

/** Whether every struct a kind reaches has a published definition (all other field types have OpenAPI forms). */
export function declaredInFull(kind: GoStruct): boolean {
  const seen = new Set<GoStruct>();
  const visit = (s: GoStruct): boolean => {
    if (seen.has(s)) return true;
    seen.add(s);
    return !!s.openapi && s.fields.every((f) => typeof f.type !== 'object' || visit(f.type));
  };
  return visit(kind);
}

/** The structs reachable from roots whose definitions kube publishes, each once. */
export function publishedStructs(roots: readonly GoStruct[]): GoStruct[] {
  const seen = new Set<GoStruct>();
  const visit = (s: GoStruct): void => {
    if (seen.has(s) || !s.openapi) return;
    seen.add(s);
    for (const f of s.fields) if (typeof f.type === 'object') visit(f.type);
  };
  roots.forEach(visit);
  return [...seen];
}
