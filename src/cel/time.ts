// Timestamps and durations as cel-go handles them with Go's time package: RFC 3339 parsing
// (time.Parse), RFC3339Nano formatting, time.ParseDuration, calendar fields in UTC, fixed
// offsets or IANA zones, and checked arithmetic with cel-go's range errors.

import { CelError, Duration, Timestamp } from './values.js';

export const NANOS_PER_SECOND = 1_000_000_000n;
/** cel-go's timestamp range: 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z (in Unix seconds). */
export const MIN_UNIX_SECONDS = -62135596800n;
export const MAX_UNIX_SECONDS = 253402300799n;
const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;

export const TIMESTAMP_OVERFLOW = 'timestamp overflow';
export const INT_OVERFLOW = 'integer overflow';

/** A timestamp that remembers the UTC offset it was written with, so that string() prints it back
 * as Go does (time.Time keeps its location). Equality and ordering ignore the offset. */
class ZonedTimestamp extends Timestamp {
  constructor(nanos: bigint, readonly offsetSeconds: number) {
    super(nanos);
  }
}

/** The offset a timestamp is displayed in (0 for UTC). */
export const offsetOf = (t: Timestamp): number => (t instanceof ZonedTimestamp ? t.offsetSeconds : 0);

/** A timestamp in the same zone as `like`. */
function timestampLike(like: Timestamp, nanos: bigint): Timestamp {
  const off = offsetOf(like);
  return off === 0 ? new Timestamp(nanos) : new ZonedTimestamp(nanos, off);
}

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
};

/** time.Time.Unix(): whole seconds, rounded toward negative infinity. */
export const unixSeconds = (t: Timestamp): bigint => floorDiv(t.nanos, NANOS_PER_SECOND);

export function inTimestampRange(nanos: bigint): boolean {
  const s = floorDiv(nanos, NANOS_PER_SECOND);
  return s >= MIN_UNIX_SECONDS && s <= MAX_UNIX_SECONDS;
}

// ---------------------------------------------------------------------------------------------
// Civil calendar (proleptic Gregorian), after Howard Hinnant's days_from_civil.

function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): [year: number, month: number, day: number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS_IN = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (m: number, y: number): number => (m === 2 && isLeap(y) ? 29 : DAYS_IN[m - 1]!);

/** Wall-clock fields of an instant shifted by an offset. */
export interface CivilTime {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  weekday: number; // Sunday = 0
  yearDay: number; // 1..366
}

export function civilTime(nanos: bigint, offsetSeconds: number): CivilTime {
  const local = nanos + BigInt(offsetSeconds) * NANOS_PER_SECOND;
  const secs = floorDiv(local, NANOS_PER_SECOND);
  const ns = Number(local - secs * NANOS_PER_SECOND);
  const s = Number(secs);
  const days = Math.floor(s / 86400);
  const sod = s - days * 86400;
  const [year, month, day] = civilFromDays(days);
  return {
    year,
    month,
    day,
    hour: Math.floor(sod / 3600),
    minute: Math.floor((sod % 3600) / 60),
    second: sod % 60,
    nanos: ns,
    weekday: (((days + 4) % 7) + 7) % 7,
    yearDay: days - daysFromCivil(year, 1, 1) + 1,
  };
}

// ---------------------------------------------------------------------------------------------
// Parsing and formatting.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/** time.Parse(time.RFC3339, s): fractional seconds are accepted (up to nanoseconds; further
 * digits are ignored), the zone is `Z` or `±hh:mm`. Returns undefined when Go would fail.
 * The result is not range-checked (see {@link inTimestampRange}). */
export function parseRfc3339(s: string): Timestamp | undefined {
  const fast = parseRfc3339Common(s);
  if (fast !== null) return fast;
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  return fromFields(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, m[7], m[8] ? undefined : [m[9]!, m[10]!, m[11]!]);
}

/** The value of `len` ASCII digits at `at`, or -1. */
function digitsAt(s: string, at: number, len: number): number {
  let v = 0;
  for (let i = at; i < at + len; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** parseRfc3339 without a regex or bigint arithmetic for the common spelling
 * (`2024-01-02T03:04:05[.frac](Z|±hh:mm)`, two-digit hour, at most nine fraction digits); null for
 * anything else, which the general parser then reads. */
function parseRfc3339Common(s: string): Timestamp | undefined | null {
  const n = s.length;
  if (n < 20 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 ||
      s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return null;
  const year = digitsAt(s, 0, 4);
  const month = digitsAt(s, 5, 2);
  const day = digitsAt(s, 8, 2);
  const hour = digitsAt(s, 11, 2);
  const minute = digitsAt(s, 14, 2);
  const second = digitsAt(s, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null;
  let i = 19;
  let ns = 0;
  const sep = s.charCodeAt(i);
  if (sep === 46 || sep === 44) {
    const start = ++i;
    while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    if (i === start || i - start > 9) return null;
    ns = digitsAt(s, start, i - start) * 10 ** (9 - (i - start));
  }
  let offset = 0;
  const z = s.charCodeAt(i);
  if (z === 90 /* Z */) {
    if (i + 1 !== n) return null;
  } else if (z === 43 || z === 45) {
    if (i + 6 !== n || s.charCodeAt(i + 3) !== 58) return null;
    const zh = digitsAt(s, i + 1, 2);
    const zm = digitsAt(s, i + 4, 2);
    if (zh < 0 || zm < 0) return null;
    if (zh > 24 || zm > 60) return undefined;
    offset = (zh * 60 + zm) * 60 * (z === 45 ? -1 : 1);
  } else return null;
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  // Whole seconds of years 0001..9999 are exact doubles.
  const secs = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  let nanos = BigInt(secs) * NANOS_PER_SECOND;
  if (ns !== 0) nanos += BigInt(ns);
  return offset === 0 ? new Timestamp(nanos) : new ZonedTimestamp(nanos, offset);
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?$/;
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** strfmt.ParseDateTime (OpenAPI date-time): RFC 3339, or a local time without zone read as UTC;
 * the empty string is the Unix epoch. */
export function parseDateTime(s: string): Timestamp | undefined {
  if (s === '') return new Timestamp(0n);
  const t = parseRfc3339(s);
  if (t) return t;
  const m = LOCAL_DATE_TIME.exec(s);
  return m ? fromFields(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, m[7], undefined) : undefined;
}

/** time.Parse("2006-01-02", s): an OpenAPI date at UTC midnight. */
export function parseFullDate(s: string): Timestamp | undefined {
  const m = FULL_DATE.exec(s);
  return m ? fromFields(m[1]!, m[2]!, m[3]!, '0', '00', '00', undefined, undefined) : undefined;
}

function fromFields(
  ys: string, mos: string, ds: string, hs: string, mis: string, ss: string,
  frac: string | undefined, zone: [string, string, string] | undefined,
): Timestamp | undefined {
  const year = Number(ys);
  const month = Number(mos);
  const day = Number(ds);
  const hour = Number(hs);
  const minute = Number(mis);
  const second = Number(ss);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (zone) {
    const zh = Number(zone[1]);
    const zm = Number(zone[2]);
    if (zh > 24 || zm > 60) return undefined;
    offset = (zh * 60 + zm) * 60 * (zone[0] === '-' ? -1 : 1);
  }
  const ns = frac ? BigInt(frac.slice(0, 9).padEnd(9, '0')) : 0n;
  const secs = BigInt(daysFromCivil(year, month, day)) * 86400n + BigInt(hour * 3600 + minute * 60 + second) - BigInt(offset);
  const nanos = secs * NANOS_PER_SECOND + ns;
  return offset === 0 ? new Timestamp(nanos) : new ZonedTimestamp(nanos, offset);
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** t.Format(time.RFC3339Nano): trailing zeros of the fraction dropped, `Z` for a zero offset. */
export function formatTimestamp(t: Timestamp): string {
  const off = offsetOf(t);
  const c = civilTime(t.nanos, off);
  let out = `${pad(c.year, 4)}-${pad(c.month, 2)}-${pad(c.day, 2)}T${pad(c.hour, 2)}:${pad(c.minute, 2)}:${pad(c.second, 2)}`;
  if (c.nanos !== 0) out += '.' + pad(c.nanos, 9).replace(/0+$/, '');
  if (off === 0) return out + 'Z';
  const a = Math.abs(off);
  return `${out}${off < 0 ? '-' : '+'}${pad(Math.floor(a / 3600), 2)}:${pad(Math.floor((a % 3600) / 60), 2)}`;
}

// ---------------------------------------------------------------------------------------------
// Time zones.

const zoneFormats = new Map<string, Intl.DateTimeFormat | undefined>();

function zoneFormat(name: string): Intl.DateTimeFormat | undefined {
  if (zoneFormats.has(name)) return zoneFormats.get(name);
  let f: Intl.DateTimeFormat | undefined;
  try {
    f = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset', year: 'numeric' });
  } catch {
    f = undefined;
  }
  zoneFormats.set(name, f);
  return f;
}

/** The UTC offset (seconds east) of an IANA zone at an instant, or undefined for an unknown zone. */
function zoneOffsetAt(zone: string, nanos: bigint): number | undefined {
  const f = zoneFormat(zone);
  if (!f) return undefined;
  const ms = Number(floorDiv(nanos, 1_000_000n));
  const part = f.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?$/.exec(part);
  if (!m) return 0;
  const secs = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -secs : secs;
}

/** strconv.Atoi, with Go's error text. */
function atoi(s: string): number | CelError {
  if (!/^[+-]?\d+$/.test(s)) return new CelError(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) return new CelError(`strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

/** Offset (seconds east of UTC) for a timezone argument at an instant: an IANA name, `UTC`/empty,
 * or a fixed `±hh:mm` offset (cel-go's inTimeZone). */
export function timezoneOffset(tz: string, nanos: bigint): number | CelError {
  const colon = tz.indexOf(':');
  if (colon === -1) {
    if (tz === '' || tz === 'UTC') return 0;
    const off = tz === 'Local' ? 0 : zoneOffsetAt(tz, nanos);
    return off === undefined ? new CelError(`unknown time zone ${tz}`) : off;
  }
  const hr = atoi(tz.slice(0, colon));
  if (hr instanceof CelError) return hr;
  const min = atoi(tz.slice(colon + 1));
  if (min instanceof CelError) return min;
  const minutes = tz[0] === '-' ? hr * 60 - min : hr * 60 + min;
  return minutes * 60;
}

// ---------------------------------------------------------------------------------------------
// Durations.

const UNIT_NANOS = new Map<string, bigint>([
  ['ns', 1n],
  ['us', 1000n],
  ['µs', 1000n], // U+00B5 micro sign
  ['μs', 1000n], // U+03BC Greek mu
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);
const TWO_63 = 1n << 63n;

/** time.ParseDuration: a signed sequence of decimal numbers with units (`1h2m3.5s`, `-1.5h`,
 * `300ms`). Returns nanoseconds, or undefined where Go reports an error. */
export function parseGoDuration(s: string): bigint | undefined {
  const simple = parseWholeDuration(s);
  if (simple !== null) return simple;
  let neg = false;
  let rest = s;
  if (rest !== '' && (rest[0] === '-' || rest[0] === '+')) {
    neg = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let d = 0n;
  while (rest !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    const intPart = m[1]!;
    const fracPart = m[2];
    if (intPart === '' && (fracPart === undefined || fracPart === '')) return undefined;
    rest = rest.slice(m[0].length);
    let i = 0;
    while (i < rest.length && rest[i] !== '.' && !(rest[i]! >= '0' && rest[i]! <= '9')) i++;
    if (i === 0) return undefined;
    const unit = UNIT_NANOS.get(rest.slice(0, i));
    rest = rest.slice(i);
    if (unit === undefined) return undefined;
    let v = intPart === '' ? 0n : BigInt(intPart);
    if (v > TWO_63) return undefined;
    if (v > TWO_63 / unit) return undefined;
    v *= unit;
    if (fracPart) {
      // leadingFraction keeps digits while they fit; float64 math as Go does.
      let f = 0n;
      let scale = 1;
      for (const ch of fracPart) {
        const next = f * 10n + BigInt(ch.charCodeAt(0) - 48);
        if (f > (TWO_63 - 1n) / 10n || next > TWO_63) break;
        f = next;
        scale *= 10;
      }
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO_63) return undefined;
    }
    d += v;
    if (d > TWO_63) return undefined;
  }
  if (neg) return -d;
  if (d > TWO_63 - 1n) return undefined;
  return d;
}

const UNIT_NANOS_NUMBER = new Map([...UNIT_NANOS].map(([u, n]) => [u, Number(n)]));

/** parseGoDuration for whole numbers of units (`1h`, `90m`, `1h30m`) totalling less than 2^53 ns,
 * in doubles; null for anything else (fractions, errors, large values), which the general parser
 * then reads. */
function parseWholeDuration(s: string): bigint | null {
  const n = s.length;
  let i = 0;
  let neg = false;
  const sign = s.charCodeAt(0);
  if (sign === 45 || sign === 43) {
    neg = sign === 45;
    i = 1;
  }
  if (i >= n) return null;
  let total = 0;
  while (i < n) {
    const start = i;
    let v = 0;
    for (let c = s.charCodeAt(i); c >= 48 && c <= 57; c = s.charCodeAt(++i)) v = v * 10 + (c - 48);
    if (i === start || i - start > 15) return null;
    const unitStart = i;
    for (let c = s.charCodeAt(i); i < n && c !== 46 && !(c >= 48 && c <= 57); c = s.charCodeAt(++i));
    const unit = UNIT_NANOS_NUMBER.get(s.slice(unitStart, i));
    if (unit === undefined) return null;
    total += v * unit;
    if (!Number.isSafeInteger(total)) return null;
  }
  return BigInt(neg ? -total : total);
}

const K8S_UNITS: [string[], bigint][] = [
  [['ns', 'nano'], 1n],
  [['us', 'µs', 'micro'], 1000n],
  [['ms', 'milli'], 1_000_000n],
  [['s', 'sec'], 1_000_000_000n],
  [['m', 'min'], 60_000_000_000n],
  [['h', 'hr', 'hour'], 3_600_000_000_000n],
  [['d', 'day'], 86_400_000_000_000n],
  [['w', 'wk', 'week'], 604_800_000_000_000n],
];

/** strfmt.ParseDuration (OpenAPI format "duration"): Go syntax, or scala-like `3 days 4h`. */
export function parseK8sDuration(s: string): bigint | undefined {
  const go = parseGoDuration(s);
  if (go !== undefined) return go;
  let d = 0n;
  let ok = false;
  for (const m of s.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const factor = BigInt(m[1]!);
    const unit = m[2]!.trim().toLowerCase();
    for (const [variants, mult] of K8S_UNITS) {
      variants.forEach((variant, i) => {
        if ((i === variants.length - 1 && unit.startsWith(variant)) || variant === unit) {
          ok = true;
          d += factor * mult;
        }
      });
    }
  }
  return ok ? BigInt.asIntN(64, d) : undefined;
}

/** Duration.ConvertToType(string): seconds as strconv.FormatFloat(secs, 'f', -1, 64) + "s". */
export function formatDuration(d: Duration): string {
  const sec = d.nanos / NANOS_PER_SECOND;
  const nsec = d.nanos % NANOS_PER_SECOND;
  const secs = Number(sec) + Number(nsec) / 1e9;
  return formatFixedShortest(secs) + 's';
}

/** strconv.FormatFloat(f, 'f', -1, 64): the shortest digits that round-trip, without exponent. */
function formatFixedShortest(f: number): string {
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  if (!Number.isFinite(f)) return Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf';
  const [mant, expStr] = Math.abs(f).toExponential().split('e');
  const digits = mant!.replace('.', '');
  const dp = Number(expStr) + 1; // position of the decimal point relative to the digits
  let out: string;
  if (dp <= 0) out = '0.' + '0'.repeat(-dp) + digits;
  else if (dp >= digits.length) out = digits + '0'.repeat(dp - digits.length);
  else out = digits.slice(0, dp) + '.' + digits.slice(dp);
  return f < 0 ? '-' + out : out;
}

// ---------------------------------------------------------------------------------------------
// Checked arithmetic (common/types/overflow.go).

const inInt64 = (v: bigint): boolean => v >= MIN_INT64 && v <= MAX_INT64;

export function addTimestampDuration(t: Timestamp, d: bigint): Timestamp | CelError {
  const nanos = t.nanos + d;
  if (!inTimestampRange(nanos)) return new CelError(TIMESTAMP_OVERFLOW);
  return timestampLike(t, nanos);
}

export function subtractTimestampDuration(t: Timestamp, d: bigint): Timestamp | CelError {
  if (d === MIN_INT64) return new CelError(INT_OVERFLOW);
  return addTimestampDuration(t, -d);
}

/** subtractTimeChecked: seconds difference scaled to nanoseconds, each step int64-checked. */
export function subtractTimestamps(a: Timestamp, b: Timestamp): Duration | CelError {
  const sa = floorDiv(a.nanos, NANOS_PER_SECOND);
  const sb = floorDiv(b.nanos, NANOS_PER_SECOND);
  const tsec = (sa - sb) * NANOS_PER_SECOND;
  if (!inInt64(sa - sb) || !inInt64(tsec)) return new CelError(INT_OVERFLOW);
  const val = tsec + (a.nanos - sa * NANOS_PER_SECOND) - (b.nanos - sb * NANOS_PER_SECOND);
  if (!inInt64(val)) return new CelError(INT_OVERFLOW);
  return new Duration(val);
}

export function addDurations(a: bigint, b: bigint): Duration | CelError {
  const v = a + b;
  return inInt64(v) ? new Duration(v) : new CelError(INT_OVERFLOW);
}

export function subtractDurations(a: bigint, b: bigint): Duration | CelError {
  const v = a - b;
  return inInt64(v) ? new Duration(v) : new CelError(INT_OVERFLOW);
}

export function negateDuration(a: bigint): Duration | CelError {
  return a === MIN_INT64 ? new CelError(INT_OVERFLOW) : new Duration(-a);
}
