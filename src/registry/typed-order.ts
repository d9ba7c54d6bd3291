// Built-in (typed) objects print their fields in Go struct order, as kube-apiserver's typed encoder does:
// the order derives from the kind's declared Go struct.
import { TYPE_META_KEYS, type GoField, type GoStruct } from '../api/go-struct.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';

function orderKeys(obj: JSONObject, order: readonly string[]): JSONObject {
  const out: JSONObject = {};
  for (const k of order) if (obj[k] !== undefined) out[k] = obj[k];
  for (const k of Object.keys(obj)) if (!(k in out) && obj[k] !== undefined) out[k] = obj[k];
  return out;
}

const keysOf = (s: GoStruct): string[] => [...(s.typeMeta ? TYPE_META_KEYS : []), ...s.fields.map((f) => f.json)];

type Orderer = (obj: JSONObject) => JSONObject;

/** A struct's key order at every depth: its own keys, and each struct-typed member's (in lists and maps too). */
function deepOrder(s: GoStruct, memo: Map<GoStruct, Orderer>): Orderer {
  const known = memo.get(s);
  if (known) return known;
  const keys = keysOf(s);
  // Filled in below: a recursive struct's members find this orderer in the memo.
  let members: { json: string; order: Orderer; slice: boolean; map: boolean }[] = [];
  const order: Orderer = (obj) => {
    const out = orderKeys(obj, keys);
    for (const m of members) {
      const v = out[m.json];
      if (m.slice) {
        if (Array.isArray(v)) out[m.json] = v.map((x) => (isObject(x) ? m.order(x) : x));
      } else if (m.map) {
        if (isObject(v)) {
          const o: JSONObject = {};
          for (const [k, x] of Object.entries(v)) o[k] = isObject(x) ? m.order(x) : x;
          out[m.json] = o;
        }
      } else if (isObject(v)) out[m.json] = m.order(v);
    }
    return out;
  };
  memo.set(s, order);
  members = s.fields.flatMap((f) => (typeof f.type === 'object' ? [{ json: f.json, order: deepOrder(f.type, memo), slice: !!f.slice, map: !!f.map }] : []));
  return order;
}

/**
 * The key order of a kind: Go struct order at every depth, as kube-apiserver's typed encoder writes it
 * (and as the protobuf form stored on etcd decodes back). Keys the struct does not declare follow in the
 * order they were written. The kind's own omitempty maps are left out when empty, as encoding/json leaves
 * them (a ConfigMap's `data: {}`).
 */
export function typedOrder(kind: GoStruct): (obj: JSONObject) => JSONObject {
  const order = deepOrder(kind, new Map());
  const omittedWhenEmpty = kind.fields.filter((f) => f.map && f.omitempty).map((f) => f.json);
  return (obj) => {
    const out = order(obj);
    for (const key of omittedWhenEmpty) {
      const v = out[key];
      if (isObject(v) && Object.keys(v).length === 0) delete out[key];
    }
    return out;
  };
}

// ------------------------------------------------------------------ Go's JSON of the typed object

type Form = (obj: JSONObject) => JSONObject;

const isZeroScalar = (v: unknown): boolean => v === '' || v === 0 || v === 0n || v === false || v === null;
const ZERO: Record<string, unknown> = { string: '', bytes: '', int64: 0, int32: 0, float64: 0, bool: false };

/** encoding/json writes map keys sorted bytewise (UTF-16 order matches it below U+D800). */
function byteOrder(a: string, b: string): number {
  if (/[\ud800-\uffff]/.test(a + b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

const SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const RFC3339 = /^(\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/** metav1.Time in UTC to the second, metav1.MicroTime to the microsecond (as they marshal); other values as they are. */
function timeForm(v: unknown, micro: boolean): unknown {
  if (typeof v !== 'string' || (micro ? MICROS : SECONDS).test(v)) return v ?? null;
  const m = RFC3339.exec(v);
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(ms)) return v;
  const base = new Date(ms).toISOString().slice(0, 19);
  return micro ? `${base}.${(m[2] ?? '').slice(0, 6).padEnd(6, '0')}Z` : `${base}Z`;
}

function goForm(s: GoStruct, memo: Map<GoStruct, Form>): Form {
  const known = memo.get(s);
  if (known) return known;
  const fields = s.fields;
  const elem = (f: GoField, x: unknown): unknown => {
    if (typeof f.type === 'object') return goForm(f.type, memo)(isObject(x) ? x : {});
    if (f.type === 'time' || f.type === 'microTime') return timeForm(x, f.type === 'microTime');
    return x;
  };
  const form: Form = (obj) => {
    const out: JSONObject = {};
    if (s.typeMeta) for (const k of TYPE_META_KEYS) if (obj[k] !== undefined) out[k] = obj[k];
    for (const f of fields) {
      const v = obj[f.json];
      if (f.slice) {
        if (Array.isArray(v) && v.length > 0) out[f.json] = v.map((x) => elem(f, x));
        else if (!f.omitempty) out[f.json] = null;
      } else if (f.map) {
        if (isObject(v) && Object.keys(v).length > 0) {
          const m: JSONObject = {};
          for (const k of Object.keys(v).sort(byteOrder)) m[k] = elem(f, v[k]);
          out[f.json] = m;
        } else if (!f.omitempty) out[f.json] = null;
      } else if (f.pointer || f.type === 'bytes' || f.type === 'fieldsV1') {
        if (v !== undefined && v !== null) out[f.json] = elem(f, v);
        else if (!f.omitempty) out[f.json] = null;
      } else if (typeof f.type === 'object' || f.type === 'time' || f.type === 'microTime') {
        // A struct value: omitempty never leaves it out.
        out[f.json] = elem(f, v);
      } else if (f.json === 'resourceVersion' && v === '' && s.name === 'ObjectMeta') {
        // The registry's placeholder, where reads splice the revision in (the stored decode puts it back).
        out[f.json] = v;
      } else {
        const val = v ?? ZERO[f.type as string] ?? null;
        if (!(f.omitempty && isZeroScalar(val))) out[f.json] = val;
      }
    }
    return out;
  };
  memo.set(s, form);
  return form;
}

/**
 * What Go's encoding/json writes for the object decoded into its Go struct: fields in struct order at every
 * depth, undeclared keys dropped, omitempty fields left out when empty, nil slices and maps (and empty ones,
 * which protobuf cannot tell from nil) as null, absent structs and non-pointer scalars as their zero values,
 * map keys sorted, times in their marshalled precision. For the kinds stored as protobuf on etcd: their JSON
 * then decodes back from the protobuf byte for byte, as kube-apiserver's does.
 */
export function goJSONForm(kind: GoStruct): (obj: JSONObject) => JSONObject {
  return goForm(kind, new Map());
}
