// How Go sees and prints JSON values that the schema engine reports: kube decodes integral JSON
// literals as int64 and everything else as float64, and the two print differently (%v).
// Parsed JSON keeps integer literals beyond ±(2^53 - 1) within int64 as bigints (util/json-int64.ts),
// so an integral number beyond that came from a float literal (or one beyond int64): a float64.
// Within the safe range the distinction is gone; we read every integral number there as an int64
// (what an integral literal would have been), and the rest as float64.
import { GO_VALUE } from '../api/field-error.js';

/** Whether kube would hold this JSON number as an int64 (see the file comment for the limitation); bigints always are. */
export const isGoInt = (v: number): boolean => Number.isSafeInteger(v);

/** Go's %v for a float64: strconv 'g' with the shortest digits, exponent form below 1e-4 and from 1e6 on. */
export function goFloat(v: number): string {
  if (v === 0 || !Number.isFinite(v)) return String(v);
  const e = v.toExponential(); // shortest round-trip digits, e.g. "1.5e+6"
  const i = e.indexOf('e');
  const exp = Number(e.slice(i + 1));
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${e.slice(0, i)}e${sign}${digits}`;
  }
  return String(v);
}

/** Go's %v of a JSON number as kube decoded it (int64 or float64). */
export const goNumber = (v: number): string => (isGoInt(v) ? String(v) : goFloat(v));

/**
 * A number as a FieldError bad value: plain when JavaScript prints it as Go would, else carrying
 * its Go rendering (field-error.ts prints GO_VALUE) and serializing as the number.
 */
function goNumberValue(v: number): unknown {
  const text = goNumber(v);
  if (text === String(v)) return v;
  const box = {};
  Object.defineProperty(box, GO_VALUE, { value: text, enumerable: false });
  Object.defineProperty(box, 'toJSON', { value: () => v, enumerable: false });
  return box;
}

/** A JSON value as a FieldError bad value (numbers as Go prints them). */
export const goBadValue = (v: unknown): unknown => (typeof v === 'number' ? goNumberValue(v) : v);

const MAX_JSON_FLOAT = 9007199254740991; // swag: float64(1<<53 - 1)

/** swag.IsFloat64AJSONInteger: integral, or within a relative 1e-9 of one, and within ±2^53. */
export function isFloat64AJSONInteger(f: number): boolean {
  if (Number.isNaN(f) || !Number.isFinite(f) || f < -MAX_JSON_FLOAT || f > MAX_JSON_FLOAT) return false;
  if (Number.isInteger(f)) return true;
  // float64(uint64(f)) truncates positive values; negative non-integers land far away (no match).
  if (f < 0) return false;
  const g = Math.trunc(f);
  const diff = Math.abs(f - g);
  if (g === 0) return diff < 1e-9 * Number.MIN_VALUE;
  return diff / Math.min(f + g, Number.MAX_VALUE) < 1e-9;
}

/** Go's json.Marshal of a JSON value: object keys sorted, as map[string]interface{} encodes. */
export function goJSON(v: unknown): string {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number') return goJSONNumber(v);
    if (typeof v === 'bigint') return String(v);
    return JSON.stringify(v) ?? 'null';
  }
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${goJSON(o[k])}`)
    .join(',')}}`;
}

/** encoding/json float formatting: plain between 1e-6 and 1e21, else exponent with two digits. */
function goJSONNumber(v: number): string {
  const abs = Math.abs(v);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    return v.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(v);
}

/** Go's %v of a []interface{} / map[string]interface{} (only used in kube-openapi messages). */
export function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return goNumber(v);
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${Object.keys(o)
    .sort()
    .map((k) => `${k}:${goV(o[k])}`)
    .join(' ')}]`;
}

/** Deep equality of JSON values (reflect.DeepEqual on decoded JSON, blind to int64 vs float64). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let n = 0;
  for (const k in ao) {
    if (!Object.hasOwn(bo, k) || !jsonEqual(ao[k], bo[k])) return false;
    n++;
  }
  for (const _ in bo) n--;
  return n === 0;
}


/** utf8.RuneCountInString for a JavaScript string (lone surrogates count one each, as U+FFFD would). */
export function runeCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
