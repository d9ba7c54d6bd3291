// A decoded value as encoding/json writes it back from its Go struct: fields in declaration order, omitempty
// zero values left out, other absent fields written as their zero (nil pointers, slices and maps as null),
// struct members always present. What a kind's spec looks like after kube's decode-and-encode round trip.
// Maps are written with their keys sorted, as Go does, unless told to keep the order they have (a
// conversion whose other side must read back to the very same text).
import type { GoField, GoStruct } from './go-struct.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const SCALAR_ZERO: Record<string, unknown> = { string: '', int64: 0, int32: 0, float64: 0, bool: false };

/** Whether encoding/json's omitempty leaves a value out (structs never are). */
function isEmpty(f: GoField, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (f.pointer) return false;
  if (Array.isArray(v)) return v.length === 0;
  if (f.map) return isObject(v) && Object.keys(v).length === 0;
  if (typeof f.type === 'object') return false;
  return v === '' || v === 0 || v === false;
}

export interface GoEncodeOptions {
  /** Keep map keys in their order instead of sorting them. */
  keepMapOrder?: boolean;
}

function encodeElem(t: GoField['type'], v: unknown, opts: GoEncodeOptions): unknown {
  return typeof t === 'object' && isObject(v) ? goEncode(t, v, opts) : v;
}

function encodeField(f: GoField, v: unknown, opts: GoEncodeOptions): unknown {
  const structMember = typeof f.type === 'object' && !f.pointer && !f.slice && !f.map;
  if (structMember) return goEncode(f.type as GoStruct, isObject(v) ? v : {}, opts);
  if (v === undefined || v === null) {
    if (f.pointer || f.slice || f.map) return null;
    // metav1.Time's zero marshals as null.
    if (f.type === 'time' || f.type === 'microTime') return null;
    return typeof f.type === 'string' && f.type in SCALAR_ZERO ? SCALAR_ZERO[f.type] : null;
  }
  if (f.slice && Array.isArray(v)) return v.map((x) => encodeElem(f.type, x, opts));
  if (f.map && isObject(v)) {
    const keys = opts.keepMapOrder ? Object.keys(v) : Object.keys(v).sort();
    return Object.fromEntries(keys.map((k) => [k, encodeElem(f.type, v[k], opts)]));
  }
  return encodeElem(f.type, v, opts);
}

/** The Go encoding of `obj` as a value of struct `s` (fields s does not declare are dropped). */
export function goEncode(s: GoStruct, obj: Json, opts: GoEncodeOptions = {}): Json {
  const out: Json = {};
  for (const f of s.fields) {
    const v = obj[f.json];
    // Structs are never empty to omitempty, metav1.Time included (its zero is written as null).
    const struct = !f.pointer && !f.slice && !f.map && (typeof f.type === 'object' || f.type === 'time' || f.type === 'microTime');
    if (f.omitempty && !struct && isEmpty(f, v)) continue;
    out[f.json] = encodeField(f, v, opts);
  }
  return out;
}
