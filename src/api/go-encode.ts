// A decoded value as encoding/json writes it back from its Go struct: fields in declaration order, omitempty
// zero values left out, other absent fields written as their zero (nil pointers, slices and maps as null),
// struct members always present. What a kind's spec looks like after kube's decode-and-encode round trip.
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

function encodeElem(t: GoField['type'], v: unknown): unknown {
  return typeof t === 'object' && isObject(v) ? goEncode(t, v) : v;
}

function encodeField(f: GoField, v: unknown): unknown {
  const structMember = typeof f.type === 'object' && !f.pointer && !f.slice && !f.map;
  if (structMember) return goEncode(f.type as GoStruct, isObject(v) ? v : {});
  if (v === undefined || v === null) {
    if (f.pointer || f.slice || f.map) return null;
    // metav1.Time's zero marshals as null.
    if (f.type === 'time' || f.type === 'microTime') return null;
    return typeof f.type === 'string' && f.type in SCALAR_ZERO ? SCALAR_ZERO[f.type] : null;
  }
  if (f.slice && Array.isArray(v)) return v.map((x) => encodeElem(f.type, x));
  if (f.map && isObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, encodeElem(f.type, v[k])]));
  return encodeElem(f.type, v);
}

/** The Go encoding of `obj` as a value of struct `s` (fields s does not declare are dropped). */
export function goEncode(s: GoStruct, obj: Json): Json {
  const out: Json = {};
  for (const f of s.fields) {
    const v = obj[f.json];
    // Structs are never empty to omitempty, metav1.Time included (its zero is written as null).
    const struct = !f.pointer && !f.slice && !f.map && (typeof f.type === 'object' || f.type === 'time' || f.type === 'microTime');
    if (f.omitempty && !struct && isEmpty(f, v)) continue;
    out[f.json] = encodeField(f, v);
  }
  return out;
}
