// A Go struct's zero value as runtime.DefaultUnstructuredConverter writes it: what `new(T)` looks like to code
// that works on JSON (the field manager compares a created object against it). Scalars, slices, maps and
// pointers with omitempty are left out (structs never are: omitempty does not apply to them); nil pointers,
// slices and maps and a zero metav1.Time are null; structs recurse.
import type { GoField, GoStruct } from './go-struct.js';

const SCALAR_ZERO: Record<string, unknown> = { string: '', int64: 0, int32: 0, float64: 0, bool: false, bytes: null };

function fieldZero(f: GoField): unknown {
  if (f.pointer || f.slice || f.map) return null;
  if (typeof f.type === 'object') return goZero(f.type);
  return f.type in SCALAR_ZERO ? SCALAR_ZERO[f.type] : null;
}

export function goZero(s: GoStruct): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of s.fields) {
    const struct = !f.pointer && !f.slice && !f.map && (typeof f.type === 'object' || f.type === 'time' || f.type === 'microTime');
    if (struct || !f.omitempty) out[f.json] = fieldZero(f);
  }
  return out;
}
