// Implementations behind the standard library's overloads. Like cel-go's singleton bindings they
// dispatch on the runtime types of their operands, so a call planned for one overload still
// behaves correctly (or fails with "no such overload") when dyn values arrive.

import { RE2JS } from 're2js';
import {
  addDurations,
  addTimestampDuration,
  formatDuration,
  formatTimestamp,
  inTimestampRange,
  INT_OVERFLOW,
  NANOS_PER_SECOND,
  negateDuration,
  parseGoDuration,
  parseRfc3339,
  subtractDurations,
  subtractTimestampDuration,
  subtractTimestamps,
  TIMESTAMP_OVERFLOW,
  unixSeconds,
  MIN_UNIX_SECONDS,
  MAX_UNIX_SECONDS,
} from './time.js';
import { nativeRegex } from './stdlib-regex.js';
import { formatGoG, parseGoBool, parseGoFloat, parseGoInt, parseGoUint } from './stdlib-numbers.js';
import {
  bigintOf,
  celCompare,
  concatLists,
  maybeNoSuchOverload,
  MAX_INT64,
  MAX_UINT64,
  MIN_INT64,
  sizeOf,
  typeName,
  typeOfValue,
} from './value-ops.js';
import { CelError, Duration, Timestamp, Uint } from './values.js';
import type { CelList, Val } from './values.js';

const INTEGER_OVERFLOW = new CelError(INT_OVERFLOW);
const UINT_OVERFLOW = new CelError('unsigned integer overflow');
const DIVIDE_BY_ZERO = new CelError('division by zero');
const MODULUS_BY_ZERO = new CelError('modulus by zero');

const int64 = (v: bigint): Val => (v > MAX_INT64 || v < MIN_INT64 ? INTEGER_OVERFLOW : v);
const uint64 = (v: bigint): Val => (v > MAX_UINT64 || v < 0n ? UINT_OVERFLOW : new Uint(v));

// ---------------------------------------------------------------------------------------------
// Arithmetic.

export function add(a: Val, b: Val): Val {
  switch (typeof a) {
    case 'bigint': return typeof b === 'bigint' ? int64(a + b) : maybeNoSuchOverload(b);
    case 'number': return typeof b === 'number' ? a + b : maybeNoSuchOverload(b);
    case 'string': return typeof b === 'string' ? a + b : maybeNoSuchOverload(b);
  }
  if (Array.isArray(a)) return Array.isArray(b) ? concatLists(a as CelList, b as CelList) : maybeNoSuchOverload(b);
  if (a instanceof Uint) return b instanceof Uint ? uint64(a.value + b.value) : maybeNoSuchOverload(b);
  if (a instanceof Uint8Array) {
    if (!(b instanceof Uint8Array)) return maybeNoSuchOverload(b);
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  }
  if (a instanceof Duration) {
    if (b instanceof Duration) return addDurations(a.nanos, b.nanos);
    if (b instanceof Timestamp) return addTimestampDuration(b, a.nanos);
    return maybeNoSuchOverload(b);
  }
  if (a instanceof Timestamp) return b instanceof Duration ? addTimestampDuration(a, b.nanos) : maybeNoSuchOverload(b);
  return maybeNoSuchOverload(a);
}

export function subtract(a: Val, b: Val): Val {
  switch (typeof a) {
    case 'bigint': return typeof b === 'bigint' ? int64(a - b) : maybeNoSuchOverload(b);
    case 'number': return typeof b === 'number' ? a - b : maybeNoSuchOverload(b);
  }
  if (a instanceof Uint) return b instanceof Uint ? uint64(a.value - b.value) : maybeNoSuchOverload(b);
  if (a instanceof Timestamp) {
    if (b instanceof Duration) return subtractTimestampDuration(a, b.nanos);
    if (b instanceof Timestamp) return subtractTimestamps(a, b);
    return maybeNoSuchOverload(b);
  }
  if (a instanceof Duration) return b instanceof Duration ? subtractDurations(a.nanos, b.nanos) : maybeNoSuchOverload(b);
  return maybeNoSuchOverload(a);
}

export function multiply(a: Val, b: Val): Val {
  switch (typeof a) {
    case 'bigint': return typeof b === 'bigint' ? int64(a * b) : maybeNoSuchOverload(b);
    case 'number': return typeof b === 'number' ? a * b : maybeNoSuchOverload(b);
  }
  if (a instanceof Uint) return b instanceof Uint ? uint64(a.value * b.value) : maybeNoSuchOverload(b);
  return maybeNoSuchOverload(a);
}

export function divide(a: Val, b: Val): Val {
  switch (typeof a) {
    case 'bigint':
      if (typeof b !== 'bigint') return maybeNoSuchOverload(b);
      if (b === 0n) return DIVIDE_BY_ZERO;
      return int64(a / b);
    case 'number': return typeof b === 'number' ? a / b : maybeNoSuchOverload(b);
  }
  if (a instanceof Uint) {
    if (!(b instanceof Uint)) return maybeNoSuchOverload(b);
    return b.value === 0n ? DIVIDE_BY_ZERO : new Uint(a.value / b.value);
  }
  return maybeNoSuchOverload(a);
}

export function modulo(a: Val, b: Val): Val {
  if (typeof a === 'bigint') {
    if (typeof b !== 'bigint') return maybeNoSuchOverload(b);
    if (b === 0n) return MODULUS_BY_ZERO;
    if (a === MIN_INT64 && b === -1n) return INTEGER_OVERFLOW;
    return a % b;
  }
  if (a instanceof Uint) {
    if (!(b instanceof Uint)) return maybeNoSuchOverload(b);
    return b.value === 0n ? MODULUS_BY_ZERO : new Uint(a.value % b.value);
  }
  return maybeNoSuchOverload(a);
}

export function negate(a: Val): Val {
  if (typeof a === 'bigint') return a === MIN_INT64 ? INTEGER_OVERFLOW : -a;
  if (typeof a === 'number') return -a;
  if (a instanceof Duration) return negateDuration(a.nanos);
  return maybeNoSuchOverload(a);
}

export function logicalNot(a: Val): Val {
  return typeof a === 'boolean' ? !a : maybeNoSuchOverload(a);
}

export function notStrictlyFalse(a: Val): Val {
  return typeof a === 'boolean' ? a : true;
}

// ---------------------------------------------------------------------------------------------
// Ordering.

export const less = (a: Val, b: Val): Val => {
  const c = celCompare(a, b);
  return c instanceof CelError ? c : c < 0;
};
export const lessEquals = (a: Val, b: Val): Val => {
  const c = celCompare(a, b);
  return c instanceof CelError ? c : c <= 0;
};
export const greater = (a: Val, b: Val): Val => {
  const c = celCompare(a, b);
  return c instanceof CelError ? c : c > 0;
};
export const greaterEquals = (a: Val, b: Val): Val => {
  const c = celCompare(a, b);
  return c instanceof CelError ? c : c >= 0;
};

export function size(v: Val): Val {
  const s = sizeOf(v);
  return s === undefined ? maybeNoSuchOverload(v) : bigintOf(s);
}

// ---------------------------------------------------------------------------------------------
// Strings.

export function stringContains(s: Val, sub: Val): Val {
  if (typeof s !== 'string') return maybeNoSuchOverload(s);
  if (typeof sub !== 'string') return maybeNoSuchOverload(sub);
  return s.includes(sub);
}

export function stringStartsWith(s: Val, pre: Val): Val {
  if (typeof s !== 'string') return maybeNoSuchOverload(s);
  if (typeof pre !== 'string') return maybeNoSuchOverload(pre);
  return s.startsWith(pre);
}

export function stringEndsWith(s: Val, suf: Val): Val {
  if (typeof s !== 'string') return maybeNoSuchOverload(s);
  if (typeof suf !== 'string') return maybeNoSuchOverload(suf);
  return s.endsWith(suf);
}

const regexCache = new Map<string, RE2JS | CelError>();
const REGEX_CACHE_LIMIT = 1000;

/** A compiled RE2 pattern (Go regexp syntax), or the compile error; compiled once per pattern. */
export function compileRegex(pattern: string): RE2JS | CelError {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      re = new CelError(e instanceof Error ? e.message : String(e));
    }
    if (regexCache.size >= REGEX_CACHE_LIMIT) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

type Matcher = (s: string) => boolean;
const matcherCache = new Map<string, Matcher | CelError>();

/** The test `matches` runs for a pattern (cached like compileRegex): a native RegExp where it is
 * provably equivalent to RE2 and linear (stdlib-regex.ts), else re2js. */
function regexMatcher(pattern: string): Matcher | CelError {
  let m = matcherCache.get(pattern);
  if (m === undefined) {
    const re = compileRegex(pattern);
    if (re instanceof CelError) m = re;
    else {
      const native = nativeRegex(pattern);
      m = native === undefined
        ? (s) => re.test(s)
        : (s) => {
            try {
              return native.test(s);
            } catch {
              // V8 gave up (its backtracking stack); RE2 has no such limit.
              return re.test(s);
            }
          };
    }
    if (matcherCache.size >= REGEX_CACHE_LIMIT) matcherCache.clear();
    matcherCache.set(pattern, m);
  }
  return m;
}

/** `s.matches(re)`: an unanchored RE2 search, as Go's regexp.MatchString. */
export function matches(s: Val, pattern: Val): Val {
  if (typeof s !== 'string') return maybeNoSuchOverload(s);
  if (typeof pattern !== 'string') return maybeNoSuchOverload(pattern);
  const m = regexMatcher(pattern);
  return m instanceof CelError ? m : m(s);
}

// ---------------------------------------------------------------------------------------------
// Conversions (ConvertToType of each value type).

const conversionError = (from: string, to: string): CelError => new CelError(`type conversion error from '${from}' to '${to}'`);
const TWO_POW_63 = 9223372036854775808;
const TWO_POW_64 = 18446744073709551616;

export function toInt(v: Val): Val {
  switch (typeof v) {
    case 'bigint': return v;
    case 'number':
      if (!Number.isFinite(v) || v <= -TWO_POW_63 || v >= TWO_POW_63) return INTEGER_OVERFLOW;
      return BigInt(Math.trunc(v));
    case 'string': return parseGoInt(v) ?? conversionError('string', 'int');
  }
  if (v instanceof Uint) return v.value > MAX_INT64 ? INTEGER_OVERFLOW : v.value;
  if (v instanceof Timestamp) return unixSeconds(v);
  if (v instanceof Duration) return v.nanos;
  return conversionTo(v, 'int');
}

export function toUint(v: Val): Val {
  switch (typeof v) {
    case 'bigint': return v < 0n ? UINT_OVERFLOW : new Uint(v);
    case 'number':
      if (!Number.isFinite(v) || v < 0 || v >= TWO_POW_64) return UINT_OVERFLOW;
      return new Uint(BigInt(Math.trunc(v)));
    case 'string': {
      const u = parseGoUint(v);
      return u === undefined ? conversionError('string', 'uint') : new Uint(u);
    }
  }
  if (v instanceof Uint) return v;
  return conversionTo(v, 'uint');
}

export function toDouble(v: Val): Val {
  switch (typeof v) {
    case 'number': return v;
    case 'bigint': return Number(v);
    case 'string': return parseGoFloat(v) ?? conversionError('string', 'double');
  }
  if (v instanceof Uint) return Number(v.value);
  return conversionTo(v, 'double');
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

export function toString(v: Val): Val {
  switch (typeof v) {
    case 'string': return v;
    case 'boolean': return v ? 'true' : 'false';
    case 'bigint': return v.toString();
    case 'number': return formatGoG(v);
  }
  if (v instanceof Uint) return v.value.toString();
  if (v instanceof Uint8Array) {
    try {
      return utf8Decoder.decode(v);
    } catch {
      return new CelError('invalid UTF-8 in bytes, cannot convert to string');
    }
  }
  if (v instanceof Timestamp) return formatTimestamp(v);
  if (v instanceof Duration) return formatDuration(v);
  return conversionTo(v, 'string');
}

export function toBytes(v: Val): Val {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') return utf8Encoder.encode(v);
  return conversionTo(v, 'bytes');
}

export function toBool(v: Val): Val {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return parseGoBool(v) ?? conversionError('string', 'bool');
  return conversionTo(v, 'bool');
}

export function toTimestamp(v: Val): Val {
  if (v instanceof Timestamp) return v;
  if (typeof v === 'string') {
    const t = parseRfc3339(v);
    if (!t) return conversionError('string', 'google.protobuf.Timestamp');
    return inTimestampRange(t.nanos) ? t : new CelError(TIMESTAMP_OVERFLOW);
  }
  if (typeof v === 'bigint') {
    if (v < MIN_UNIX_SECONDS || v > MAX_UNIX_SECONDS) return new CelError(TIMESTAMP_OVERFLOW);
    return new Timestamp(v * NANOS_PER_SECOND);
  }
  return conversionTo(v, 'google.protobuf.Timestamp');
}

export function toDuration(v: Val): Val {
  if (v instanceof Duration) return v;
  if (typeof v === 'string') {
    const d = parseGoDuration(v);
    return d === undefined ? conversionError('string', 'google.protobuf.Duration') : new Duration(d);
  }
  return conversionTo(v, 'google.protobuf.Duration');
}

export function toType(v: Val): Val {
  return typeOfValue(v);
}

function conversionTo(v: Val, to: string): CelError {
  if (v instanceof CelError) return v;
  const t = typeOfValue(v);
  return conversionError(t instanceof CelError ? 'error' : typeName(t.type), to);
}
