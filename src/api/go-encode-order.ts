// The key order in which encoding/json writes a decoded built-in object: struct fields in declaration order
// (TypeMeta's kind and apiVersion first), map keys sorted, raw JSON (apiextensions JSON, FieldsV1) as it was
// given. The JSON of a patch's current object, as kube's jsonPatcher encodes it before patching.
import { TYPE_META_KEYS, type GoField, type GoStruct } from './go-struct.js';
import type { GoTypeContext } from './go-type-names.js';
import { goJsonMarshal } from '../util/go-json.js';

/** What a position of a value decodes into, as far as key order goes. */
export type GoOrderType =
  | { kind: 'struct'; struct: GoStruct }
  | { kind: 'map' | 'slice'; elem: GoOrderType }
  /** apiextensions' schema unions: an object is a JSONSchemaProps, an array holds them (or strings). */
  | { kind: 'union'; items: 'schemas' | 'strings' }
  | { kind: 'raw' };

const RAW: GoOrderType = { kind: 'raw' };

function elemOrderType(f: GoField, ctx: GoTypeContext): GoOrderType {
  const t = f.type;
  if (typeof t === 'object') return { kind: 'struct', struct: t };
  if (t === 'jsonSchemaProps') return ctx.jsonSchemaProps ? { kind: 'struct', struct: ctx.jsonSchemaProps } : RAW;
  if (t === 'jsonSchemaPropsOrArray' || t === 'jsonSchemaPropsOrBool') return { kind: 'union', items: 'schemas' };
  if (t === 'jsonSchemaPropsOrStringArray') return { kind: 'union', items: 'strings' };
  return RAW;
}

function fieldOrderType(f: GoField, ctx: GoTypeContext): GoOrderType {
  const elem = elemOrderType(f, ctx);
  return f.slice ? { kind: 'slice', elem } : f.map ? { kind: 'map', elem } : elem;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The type of a member of a value of type `t` (a struct field, a map value, a list item). */
export function memberOrderType(t: GoOrderType, key: string, ctx: GoTypeContext): GoOrderType {
  switch (t.kind) {
    case 'struct': {
      const f = t.struct.fields.find((x) => x.json === key);
      return f ? fieldOrderType(f, ctx) : RAW;
    }
    case 'map':
    case 'slice':
      return t.elem;
    case 'union':
      return ctx.jsonSchemaProps ? memberOrderType({ kind: 'struct', struct: ctx.jsonSchemaProps }, key, ctx) : RAW;
    case 'raw':
      return RAW;
  }
}

/** A copy of `v` with its keys in the order encoding/json writes them for type `t`. */
export function goEncodeOrder(v: unknown, t: GoOrderType, ctx: GoTypeContext): unknown {
  if (Array.isArray(v)) {
    const elem: GoOrderType =
      t.kind === 'slice' ? t.elem : t.kind === 'union' ? (t.items === 'schemas' && ctx.jsonSchemaProps ? { kind: 'struct', struct: ctx.jsonSchemaProps } : RAW) : RAW;
    return v.map((x) => goEncodeOrder(x, elem, ctx));
  }
  if (!isObject(v)) return v;
  switch (t.kind) {
    case 'struct': {
      const order = [...(t.struct.typeMeta ? TYPE_META_KEYS : []), ...t.struct.fields.map((f) => f.json)];
      const out: Record<string, unknown> = {};
      for (const k of order) if (v[k] !== undefined) out[k] = goEncodeOrder(v[k], memberOrderType(t, k, ctx), ctx);
      for (const k of Object.keys(v)) if (!(k in out)) out[k] = v[k];
      return out;
    }
    case 'map':
      return Object.fromEntries(
        Object.keys(v)
          .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
          .map((k) => [k, goEncodeOrder(v[k], t.elem, ctx)]),
      );
    case 'union':
      return ctx.jsonSchemaProps ? goEncodeOrder(v, { kind: 'struct', struct: ctx.jsonSchemaProps }, ctx) : v;
    default:
      return v;
  }
}

/** json.Marshal of a value whose keys are already in the order to write (goJsonMarshal sorts them). */
export function goJsonMarshalOrdered(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goJsonMarshalOrdered).join(',')}]`;
  if (isObject(v)) return `{${Object.keys(v).map((k) => `${goJsonMarshal(k)}:${goJsonMarshalOrdered(v[k])}`).join(',')}}`;
  return goJsonMarshal(v);
}
