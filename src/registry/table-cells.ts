// Table cell values as kube-apiserver computes them: the custom resource table convertor's
// cellForJSONValue, metav1.Time's RFC 3339 parsing, and ages through duration.HumanDuration.
import { humanDuration } from '../util/time.js';
import { GoNumber, isInt64 } from '../util/jsonpath-values.js';

/** A parsed timestamp: milliseconds since the epoch, and whether it is Go's zero time.Time. */
export interface GoTime {
  ms: number;
  zero: boolean;
}

// time.Parse(time.RFC3339, s) accepts a little more than RFC 3339: one-digit hours, a comma before the
// fraction, any number of fraction digits, offsets up to 24:60.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

const GO_ZERO_MS = -62135596800000; // 0001-01-01T00:00:00Z

/** metav1.Time.UnmarshalQueryParameter: "" and "null" are the zero time; undefined when Go fails to parse. */
export function parseGoTime(s: string): GoTime | undefined {
  if (s === '' || s === 'null') return { ms: GO_ZERO_MS, zero: true };
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [year, month, day, hour, min, sec] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  if (month! < 1 || month! > 12 || hour! > 23 || min! > 59 || sec! > 59) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(year!, month! - 1, day!); // Date.UTC would read years below 100 as 19xx
  if (d.getUTCMonth() !== month! - 1 || d.getUTCDate() !== day || day! < 1) return undefined;
  let offsetMin = 0;
  if (m[8]) {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 24 || om > 60) return undefined;
    offsetMin = (m[8] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const fraction = (m[7] ?? '').slice(0, 9);
  const wholeMs = d.getTime() + ((hour! * 60 + min! - offsetMin) * 60 + sec!) * 1000;
  const zero = wholeMs === GO_ZERO_MS && !/[1-9]/.test(fraction);
  return { ms: wholeMs + (fraction ? Number(`0.${fraction}`) * 1000 : 0), zero };
}

// time.Since saturates at the largest time.Duration (about 292 years).
const MAX_DURATION_MS = 9223372036854.775;

/** metatable.ConvertToHumanReadableDateType: <unknown> for the zero time, else the age. */
export function humanReadableAge(t: GoTime, now: number = Date.now()): string {
  if (t.zero) return '<unknown>';
  const ms = Math.max(-MAX_DURATION_MS, Math.min(MAX_DURATION_MS, now - t.ms));
  // Go truncates the duration to whole seconds toward zero.
  return humanDuration(Math.trunc(ms / 1000) * 1000);
}

/** The age of a metadata timestamp (printers' translateTimestampSince): <unknown> when unset. */
export function ageOf(ts: unknown, now: number = Date.now()): string {
  const t = typeof ts === 'string' ? parseGoTime(ts) : undefined;
  return humanReadableAge(t ?? { ms: GO_ZERO_MS, zero: true }, now);
}

/** CreationTimestamp.Time.UTC().Format(time.RFC3339), the default table's Created At. */
export function createdAt(ts: unknown): string {
  const t = typeof ts === 'string' ? parseGoTime(ts) : undefined;
  const d = new Date(Math.floor(t?.ms ?? GO_ZERO_MS));
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}Z`
  );
}

// int64(f) of a float64 outside int64's range is the most negative int64 on amd64.
// Beyond the safe integers the int64 is exact as a bigint (a float64 there is an integer).
const toInt64 = (f: number): number | bigint => {
  if (!(f >= -(2 ** 63) && f < 2 ** 63)) return -(2n ** 63n);
  const t = Math.trunc(f);
  return Number.isSafeInteger(t) ? t : BigInt(t);
};

/**
 * cellForJSONValue: the cell of an integer, number, boolean or date column, or null (an empty cell)
 * when the value's Go type does not fit the column. A template's int literal is a Go int, which no
 * column takes; strings go through JSONPath printing instead (see the table convertor).
 */
export function cellForJsonValue(columnType: string, value: unknown, now: number = Date.now()): unknown {
  if (value === null || value === undefined) return null;
  switch (columnType) {
    case 'integer':
      if (typeof value === 'number') return isInt64(value) ? value : toInt64(value);
      if (typeof value === 'bigint') return value; // an int64 beyond the safe integers
      if (value instanceof GoNumber && value.kind === 'float64') return toInt64(value.value);
      return null;
    case 'number':
      if (typeof value === 'number' || typeof value === 'bigint') return value;
      if (value instanceof GoNumber && value.kind === 'float64') return value.value;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = parseGoTime(value);
      return t ? humanReadableAge(t, now) : '<invalid>';
    }
    default:
      return null;
  }
}
