// What decoding needs to know of a declared Go type beyond the declaration: the Go names of its types as
// reflect prints them in errors (`v1.ObjectMeta`, `[]v1.CustomResourceDefinitionVersion`, `types.UID`),
// and JSONSchemaProps, which the apiextensions declarations name rather than hold.
import type { GoField, GoFieldType, GoStruct } from './go-struct.js';

export interface GoTypeContext {
  /** The package name of the decoded kind's own types: its version (v1, v1beta1). */
  pkg: string;
  /** apiextensions' JSONSchemaProps, for fields of type jsonSchemaProps and its unions. */
  jsonSchemaProps?: GoStruct;
}

export type JsonKind = 'string' | 'number' | 'bool' | 'object' | 'array' | 'null';

/** The JSON kind of a decoded value, as encoding/json's UnmarshalTypeError names it. */
export function jsonKindOf(v: unknown): JsonKind {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

const pkgOf = (s: GoStruct, ctx: GoTypeContext): string => s.pkg ?? ctx.pkg;

const qualify = (name: string, owner: GoStruct, ctx: GoTypeContext): string => (name.includes('.') ? name : `${pkgOf(owner, ctx)}.${name}`);

export const structTypeName = (s: GoStruct, ctx: GoTypeContext): string => `${pkgOf(s, ctx)}.${s.name}`;

/** The Go names of apiextensions' types, which the field type tokens stand for. */
export const UNION_NAMES: Partial<Record<Exclude<GoFieldType, GoStruct>, string>> = {
  jsonSchemaProps: 'JSONSchemaProps',
  jsonSchemaPropsOrArray: 'JSONSchemaPropsOrArray',
  jsonSchemaPropsOrBool: 'JSONSchemaPropsOrBool',
  jsonSchemaPropsOrStringArray: 'JSONSchemaPropsOrStringArray',
  json: 'JSON',
};

/** The Go name of a field's element type (what a []T holds, or the field's own type when it is no collection). */
export function elemTypeName(f: GoField, owner: GoStruct, ctx: GoTypeContext): string {
  const t = f.type;
  if (typeof t === 'object') return structTypeName(t, ctx);
  if (f.named) return qualify(f.named, owner, ctx);
  switch (t) {
    case 'bytes':
      return '[]uint8';
    case 'time':
      return 'v1.Time';
    case 'microTime':
      return 'v1.MicroTime';
    case 'fieldsV1':
      return 'v1.FieldsV1';
    case 'string':
    case 'int64':
    case 'int32':
    case 'float64':
    case 'bool':
      return t;
    default:
      return `${ctx.pkg}.${UNION_NAMES[t]!}`;
  }
}

/** The Go name of a field's type, pointers looked through (encoding/json names the pointed-to type). */
export function fieldTypeName(f: GoField, owner: GoStruct, ctx: GoTypeContext): string {
  if (f.collection) return qualify(f.collection, owner, ctx);
  const elem = elemTypeName(f, owner, ctx);
  if (f.slice) return `[]${elem}`;
  if (f.map) return `map[string]${elem}`;
  return elem;
}
