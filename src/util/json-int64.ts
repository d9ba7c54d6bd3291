// JSON text in and out with kube's numbers: Go decodes an integer literal within int64 range as an
// int64 (exact), everything else as a float64. JavaScript numbers hold int64s exactly only within
// ±(2^53 - 1); integer literals beyond that but within int64 are read as bigint, and written back
// as their digits. Both directions keep the common case (no such numbers) at native speed: parsing
// looks for a run of 16 digits first, serializing tries JSON.stringify and falls back only when it
// throws on a bigint.

import { bigIntOf } from './json-number.js';
import { parseJsonText } from './go-json.js';

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** A character of a JSON number literal: digits, sign, point, exponent. */
const isNumberChar = (c: number): boolean => isDigit(c) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;

/**
 * Whether the text has a run of at least n digits. Every run of n holds exactly one index that is n - 1
 * modulo n, so only those are looked at (a run is measured around a digit found there): about 1/n of
 * the characters. A regular expression (/\d{16}/) visits every one; on a 1 KB object it cost 40% of
 * JSON.parse's time, this about 8%.
 */
export function hasDigitRun(text: string, n: number): boolean {
  for (let i = n - 1; i < text.length; i += n) {
    if (!isDigit(text.charCodeAt(i))) continue;
    let lo = i;
    while (lo > 0 && isDigit(text.charCodeAt(lo - 1))) lo--;
    let hi = i + 1;
    while (hi < text.length && isDigit(text.charCodeAt(hi))) hi++;
    if (hi - lo >= n) return true; // (a shorter run cannot also hold the next index looked at)
  }
  return false;
}

/** Any safe-range-exceeding integer literal has at least 16 digits (2^53 = 9007199254740992). */
const SAFE_DIGITS_MAX = 16;

/** Whether valid JSON text holds an integer literal (outside strings) that needs a bigint. */
function hasBigIntLiteral(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c /* \ */ ? 2 : 1;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      if (j - i >= SAFE_DIGITS_MAX && bigIntOf(text.slice(i, j)) !== undefined) return true;
      i = j - 1;
    }
  }
  return false;
}

/**
 * JSON.parse, with integer literals beyond ±(2^53 - 1) but within int64 as bigint. Throws JSON.parse's
 * errors. Text that holds such a literal is read again by the Go-style decoder, which keeps them.
 */
export function parseJSON(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!hasDigitRun(text, SAFE_DIGITS_MAX) || !hasBigIntLiteral(text)) return value;
  return parseJsonText(text);
}

/** JSON.stringify (no replacer), writing bigints as their digits. */
export function stringifyJSON(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space);
  } catch (e) {
    if (!(e instanceof TypeError) || !/BigInt/i.test(e.message)) throw e;
  }
  return encode(value, '', space ? ' '.repeat(space) : '', '') ?? 'undefined';
}

/** JSON.stringify's SerializeJSONProperty, with bigints allowed. */
function encode(v: unknown, key: string, indent: string, at: string): string | undefined {
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    v = (v as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (v instanceof Number || v instanceof String || v instanceof Boolean) return JSON.stringify(v);
  const inner = at + indent;
  const [open, sep, close] = indent ? ['\n' + inner, ',\n' + inner, '\n' + at] : ['', ',', ''];
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const parts = v.map((x, i) => encode(x, String(i), indent, inner) ?? 'null');
    return `[${open}${parts.join(sep)}${close}]`;
  }
  const parts: string[] = [];
  for (const k of Object.keys(v)) {
    const x = encode((v as Record<string, unknown>)[k], k, indent, inner);
    if (x !== undefined) parts.push(`${JSON.stringify(k)}:${indent ? ' ' : ''}${x}`);
  }
  if (parts.length === 0) return '{}';
  return `{${open}${parts.join(sep)}${close}}`;
}
