// runtime.DefaultUnstructuredConverter.FromUnstructured into a built-in kind's Go struct: how kube turns a
// strategic-merge-patched object (a map, never JSON text) back into its Go type. Its errors are its own
// (`cannot convert int64 to v1.ResourceScope`, `unrecognized type: bool`, `cannot restore slice from map`);
// struct fields are visited in Go order and the first error ends the conversion. Types with their own
// UnmarshalJSON (metav1.Time, apiextensions' JSON and schema unions) get their value as JSON text, decoded
// with no outer context.
import type { GoField, GoFieldType, GoStruct } from './go-struct.js';
import { TYPE_META_KEYS } from './go-struct.js';
import { elemTypeName, type GoTypeContext } from './go-type-names.js';
import { goDecodeInto } from './go-decode.js';
import { goBase64Error } from '../util/go-base64.js';
import { deepCopyJSON } from '../util/json.js';

/** The Go type an unstructured value holds (kjson keeps integers as int64). */
function unstructuredType(v: unknown): { kind: string; type: string } {
  if (Array.isArray(v)) return { kind: 'slice', type: '[]interface {}' };
  switch (typeof v) {
    case 'string':
      return { kind: 'string', type: 'string' };
    case 'boolean':
      return { kind: 'bool', type: 'bool' };
    case 'number':
      return Number.isSafeInteger(v) ? { kind: 'int64', type: 'int64' } : { kind: 'float64', type: 'float64' }; // beyond, int64s are bigints
    case 'bigint':
      return { kind: 'int64', type: 'int64' };
    default:
      return { kind: 'map', type: 'map[string]interface {}' };
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Scalar = 'string' | 'bool' | 'int64' | 'int32' | 'float64';
const NUMERIC = new Set<string>(['int64', 'int32', 'float64']);

/** The simple-kind branch of fromUnstructured: assignable, or convertible within JSON's four groups. */
function scalarFrom(v: unknown, kind: Scalar, goType: string): string | undefined {
  const st = unstructuredType(v);
  if (st.kind === kind) return undefined; // assignable, or a string/bool converted to its named type
  if (st.kind === 'int64' && NUMERIC.has(kind)) return undefined;
  if (st.kind === 'float64' && NUMERIC.has(kind) && (kind === 'float64' || Number.isInteger(v))) return undefined;
  // reflect's ConvertibleTo holds between numbers and from an integer to a string: refused with this message.
  const convertible = (st.kind === 'int64' && kind === 'string') || (st.kind === 'float64' && NUMERIC.has(kind));
  if (convertible) return `cannot convert ${st.type} to ${goType}`;
  return `unrecognized type: ${kind}`;
}

/** A type with its own UnmarshalJSON: the value's JSON, decoded on its own. */
function viaJson(v: unknown, t: GoFieldType, ctx: GoTypeContext): string | undefined {
  const holder: GoStruct = { name: '', fields: [{ json: 'v', type: t }] };
  const err = goDecodeInto({ v: deepCopyJSON(v) }, holder, ctx);
  // The holder's own context is not kube's: the unmarshaler's error carries none.
  return err?.replace(/^json: cannot unmarshal (.*) into Go struct field \.v of type /, 'json: cannot unmarshal $1 into Go value of type ');
}

function elemFrom(v: unknown, t: GoFieldType, f: GoField, owner: GoStruct, ctx: GoTypeContext): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof t === 'object') return structFrom(v, t, ctx);
  switch (t) {
    case 'string':
    case 'bool':
    case 'int64':
    case 'int32':
    case 'float64':
      return scalarFrom(v, t, elemTypeName(f, owner, ctx));
    case 'bytes':
      if (typeof v === 'string') {
        const err = v === '' ? undefined : goBase64Error(v);
        return err === undefined ? undefined : `error decoding from json: ${err}`;
      }
      if (!Array.isArray(v)) return `cannot restore slice from ${unstructuredType(v).kind}`;
      for (const b of v) {
        const err = b === null ? undefined : scalarFrom(b, 'int64', 'uint8');
        if (err) return err.replace('unrecognized type: int64', 'unrecognized type: uint8');
      }
      return undefined;
    case 'json':
    case 'fieldsV1':
      return undefined;
    case 'jsonSchemaProps': {
      const props = ctx.jsonSchemaProps;
      return props ? structFrom(v, props, ctx) : undefined;
    }
    case 'time':
    case 'microTime':
    case 'jsonSchemaPropsOrArray':
    case 'jsonSchemaPropsOrBool':
    case 'jsonSchemaPropsOrStringArray':
      return viaJson(v, t, ctx);
  }
}

function fieldFrom(v: unknown, f: GoField, owner: GoStruct, ctx: GoTypeContext): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (f.slice) {
    if (!Array.isArray(v)) return `cannot restore slice from ${unstructuredType(v).kind}`;
    for (const x of v) {
      const err = elemFrom(x, f.type, f, owner, ctx);
      if (err) return err;
    }
    return undefined;
  }
  if (f.map) {
    if (!isPlainObject(v)) return `cannot restore map from ${unstructuredType(v).kind}`;
    for (const x of Object.values(v)) {
      const err = elemFrom(x, f.type, f, owner, ctx);
      if (err) return err;
    }
    return undefined;
  }
  return elemFrom(v, f.type, f, owner, ctx);
}

function structFrom(v: unknown, st: GoStruct, ctx: GoTypeContext): string | undefined {
  if (!isPlainObject(v)) return `cannot restore struct from: ${unstructuredType(v).kind}`;
  if (st.typeMeta) {
    for (const k of TYPE_META_KEYS) {
      const x = v[k];
      if (x !== null && x !== undefined) {
        const err = scalarFrom(x, 'string', 'string');
        if (err) return err;
      }
    }
  }
  for (const f of st.fields) {
    const err = fieldFrom(v[f.json], f, st, ctx);
    if (err) return err;
  }
  return undefined;
}

/** FromUnstructured's error converting `obj` into the Go struct `kind`, or undefined when it converts. */
export function goFromUnstructuredError(obj: Record<string, unknown>, kind: GoStruct, ctx: GoTypeContext): string | undefined {
  return structFrom(obj, kind, ctx);
}
