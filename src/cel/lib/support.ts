// Pieces shared by the extension libraries: overload construction, argument
// guards, the runtime cost helpers of k8s.io/apiserver pkg/cel/library/cost.go
// (CallCost) and cel-go's defaults, and Go's string quoting.

import type { Overload } from '../decls.js';
import type { CelType } from '../types.js';
import { CelError, CelMap, CelObject, OpaqueValue, type Val } from '../values.js';
import { codePointLength, isJsonBacked, maybeNoSuchOverload } from '../value-ops.js';
import { isPrintChar } from '../../util/unicode-print.js';

export { maybeNoSuchOverload, noSuchOverload } from '../value-ops.js';

/** common.StringTraversalCostFactor. */
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
/** common.RegexStringLengthCostFactor. */
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

type Impl = Overload['impl'];
type Cost = NonNullable<Overload['cost']>;

/** A receiver-style overload: `params[0]` is the receiver. */
export function member(id: string, params: CelType[], result: CelType, impl: Impl, cost?: Cost): Overload {
  return cost ? { id, member: true, params, result, impl, cost } : { id, member: true, params, result, impl };
}

/** A global overload. */
export function global(id: string, params: CelType[], result: CelType, impl: Impl, cost?: Cost): Overload {
  return cost ? { id, params, result, impl, cost } : { id, params, result, impl };
}

/** Returns the first argument that is not a `typeof`-kind match as cel-go's
 * MaybeNoSuchOverloadErr would: an error argument travels on, anything else is
 * "no such overload". Undefined when all match. */
export function badArg(args: readonly Val[], ...kinds: ('string' | 'bigint' | 'boolean' | 'number')[]): CelError | undefined {
  for (let i = 0; i < kinds.length; i++) {
    if (typeof args[i] !== kinds[i]) return maybeNoSuchOverload(args[i] ?? null);
  }
  return undefined;
}

/** An opaque value that is a traits.Sizer (net.IP and net.CIDR), for cost tracking. */
export interface SizedOpaque {
  readonly celSize: number;
}

function isSizedOpaque(v: Val): v is OpaqueValue & SizedOpaque {
  return v instanceof OpaqueValue && typeof (v as Partial<SizedOpaque>).celSize === 'number';
}

/** actualSize (cel-go interpreter and k8s cost.go): a Sizer's size, else 1. Strings count
 * code points, bytes bytes, lists elements, maps entries; IP and CIDR values their bytes. */
export function actualSize(v: Val): number {
  if (typeof v === 'string') return codePointLength(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof CelMap) return v.size;
  if (v instanceof CelObject && isJsonBacked(v)) return Object.keys(v.raw).length;
  if (isSizedOpaque(v)) return v.celSize;
  return 1;
}

/** ceil(actualSize × factor): the cost of traversing a string-like argument. */
export const traversal = (v: Val, factor = STRING_TRAVERSAL_COST_FACTOR): number => Math.ceil(actualSize(v) * factor);

/** k8s traversalCost: a walk over a value as a data tree. Strings and bytes count UTF-8 bytes and
 * truncate (uint64 conversion), containers sum their members, anything else costs 1. */
export function traversalCost(v: Val): number {
  if (typeof v === 'string') return Math.trunc(utf8Length(v) * STRING_TRAVERSAL_COST_FACTOR);
  if (v instanceof Uint8Array) return Math.trunc(v.length * STRING_TRAVERSAL_COST_FACTOR);
  if (Array.isArray(v)) {
    let cost = 0;
    for (const e of v as readonly Val[]) cost += traversalCost(e);
    return cost;
  }
  if (v instanceof CelMap) {
    let cost = 0;
    for (const k of v.keys()) cost += traversalCost(k) + traversalCost(v.get(k) ?? null);
    return cost;
  }
  if (v instanceof CelObject && isJsonBacked(v)) {
    let cost = 0;
    for (const k of Object.keys(v.raw)) {
      const field = v.rawField(k);
      cost += traversalCost(k) + (field === undefined ? 1 : traversalCost(field));
    }
    return cost;
  }
  return 1;
}

/** Go's len() of a string: its UTF-8 byte count. */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // the pair is 2 units, 4 bytes
      i++;
    } else n += 2;
  }
  return n;
}

const SURROGATE = /[\ud800-\udfff]/;

/** True when code units and code points coincide, so string indexes are rune indexes. */
export const isBmpOnly = (s: string): boolean => !SURROGATE.test(s);

/** The string's code points (Go's []rune). */
export const runes = (s: string): string[] => (isBmpOnly(s) ? s.split('') : Array.from(s));

/** An int64 argument as a JavaScript number for indexing; values beyond ±2^53 are clamped,
 * which keeps every comparison against a string length the same. */
export function toIndex(v: bigint): number {
  if (v > 9007199254740991n) return Number.MAX_SAFE_INTEGER;
  if (v < -9007199254740991n) return -Number.MAX_SAFE_INTEGER;
  return Number(v);
}

// ---------------------------------------------------------------------------------------------
// Go's strconv.Quote.

/** unicode.IsPrint / strconv.IsPrint: graphic characters and the ASCII space. */
function isPrint(cp: number, ch: string): boolean {
  if (cp <= 0xff) return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa1 && cp <= 0xff && cp !== 0xad);
  return isPrintChar(ch);
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** strconv.Quote: a double-quoted Go string literal with Go's escapes. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    let c = ch;
    // A lone surrogate cannot be valid UTF-8; Go would see utf8.RuneError.
    if (cp >= 0xd800 && cp <= 0xdfff) {
      cp = 0xfffd;
      c = '\ufffd';
    }
    switch (cp) {
      case 0x22: out += '\\"'; continue;
      case 0x5c: out += '\\\\'; continue;
    }
    if (isPrint(cp, c)) {
      out += c;
      continue;
    }
    switch (cp) {
      case 0x07: out += '\\a'; break;
      case 0x08: out += '\\b'; break;
      case 0x0c: out += '\\f'; break;
      case 0x0a: out += '\\n'; break;
      case 0x0d: out += '\\r'; break;
      case 0x09: out += '\\t'; break;
      case 0x0b: out += '\\v'; break;
      default:
        if (cp < 0x20 || cp === 0x7f) out += '\\x' + hex(cp, 2);
        else if (cp < 0x10000) out += '\\u' + hex(cp, 4);
        else out += '\\U' + hex(cp, 8);
    }
  }
  return out + '"';
}

/** Go's strconv error text for a failed Atoi/ParseUint of `s`. */
export const strconvSyntaxError = (fn: string, s: string): string => `strconv.${fn}: parsing ${goQuote(s)}: invalid syntax`;
export const strconvRangeError = (fn: string, s: string): string => `strconv.${fn}: parsing ${goQuote(s)}: value out of range`;
