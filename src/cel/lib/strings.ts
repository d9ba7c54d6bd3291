// cel-go ext.Strings (ext/strings.go at v0.23.2). Kubernetes 1.29+ enables version 2:
// charAt, indexOf, lastIndexOf, lowerAscii, replace, split, substring, trim, upperAscii
// (v0), format and strings.quote (v1), join over any list of strings (v2). `reverse` is
// version 3 and so absent from Kubernetes 1.33's environment. Indexes count code points.
// Runtime costs are Kubernetes' CallCost by function name (library/cost.go), else cel-go's.

import type { FunctionDecl, Library, Overload } from '../decls.js';
import { DYN, INT, STRING, listOf } from '../types.js';
import { CelError, type Val } from '../values.js';
import {
  STRING_TRAVERSAL_COST_FACTOR,
  actualSize,
  badArg,
  isBmpOnly,
  maybeNoSuchOverload,
  member,
  global,
  runes,
  toIndex,
  traversal,
  traversalCost,
} from './support.js';
import { formatString } from './string-format.js';

const outOfRange = (i: bigint | number): CelError => new CelError(`index out of range: ${i}`);

// --- implementations over code points -----------------------------------------------------

export function charAt(s: string, index: bigint): string | CelError {
  const i = toIndex(index);
  const rs = runes(s);
  if (i < 0 || i > rs.length) return outOfRange(index);
  return i === rs.length ? '' : rs[i]!;
}

export function indexOf(s: string, sub: string, offset: bigint): bigint | CelError {
  if (sub === '') return offset;
  const off = toIndex(offset);
  if (off < 0) return outOfRange(offset);
  if (isBmpOnly(s) && isBmpOnly(sub)) return off >= s.length ? -1n : BigInt(s.indexOf(sub, off));
  const rs = runes(s);
  const sr = runes(sub);
  if (off >= rs.length) return -1n;
  for (let i = off; i < rs.length - (sr.length - 1); i++) {
    if (matchesAt(rs, sr, i)) return BigInt(i);
  }
  return -1n;
}

export function lastIndexOf(s: string, sub: string, offset?: bigint): bigint | CelError {
  const bmp = isBmpOnly(s) && isBmpOnly(sub);
  const rs = bmp ? undefined : runes(s);
  const len = rs ? rs.length : s.length;
  if (offset === undefined) {
    if (sub === '') return BigInt(len);
    offset = BigInt(len - 1);
  }
  if (sub === '') return offset;
  let off = toIndex(offset);
  if (off < 0) return outOfRange(offset);
  if (off >= len) return -1n;
  if (!rs) return BigInt(s.lastIndexOf(sub, off));
  const sr = runes(sub);
  if (off > rs.length - sr.length) off = rs.length - sr.length;
  for (let i = off; i >= 0; i--) {
    if (matchesAt(rs, sr, i)) return BigInt(i);
  }
  return -1n;
}

function matchesAt(rs: readonly string[], sr: readonly string[], at: number): boolean {
  for (let j = 0; j < sr.length; j++) if (rs[at + j] !== sr[j]) return false;
  return true;
}

const mapAscii = (s: string, re: RegExp, f: (c: string) => string): string => s.replace(re, f);
export const lowerAscii = (s: string): string => mapAscii(s, /[A-Z]+/g, (c) => c.toLowerCase());
export const upperAscii = (s: string): string => mapAscii(s, /[a-z]+/g, (c) => c.toUpperCase());

/** strings.Replace: at most n replacements (all when n < 0); an empty `old` matches before
 * every code point and at the end. */
export function replace(s: string, old: string, replacement: string, n: bigint = -1n): string {
  if (old === replacement || n === 0n) return s;
  if (old === '') {
    const rs = runes(s);
    const limit = n < 0n || n > BigInt(rs.length + 1) ? rs.length + 1 : Number(n);
    let out = '';
    for (let i = 0; i < limit; i++) out += (i > 0 ? rs[i - 1] : '') + replacement;
    return out + rs.slice(limit === 0 ? 0 : limit - 1).join('');
  }
  if (n < 0n) return s.split(old).join(replacement);
  let out = '';
  let start = 0;
  for (let i = 0n; i < n; i++) {
    const j = s.indexOf(old, start);
    if (j < 0) break;
    out += s.slice(start, j) + replacement;
    start = j + old.length;
  }
  return out + s.slice(start);
}

/** strings.SplitN: n == 0 gives no parts, n < 0 all of them, otherwise at most n with the
 * remainder in the last; an empty separator splits into code points. */
export function split(s: string, sep: string, n: bigint = -1n): string[] {
  if (n === 0n) return [];
  if (sep === '') {
    const rs = runes(s);
    const k = n < 0n || n > BigInt(rs.length) ? rs.length : Number(n);
    if (k === rs.length) return rs;
    return [...rs.slice(0, k - 1), rs.slice(k - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0n || n >= BigInt(parts.length)) return parts;
  const k = Number(n);
  return [...parts.slice(0, k - 1), parts.slice(k - 1).join(sep)];
}

export function substring(s: string, start: bigint, end?: bigint): string | CelError {
  const rs = runes(s);
  if (end === undefined) {
    const st = toIndex(start);
    if (st < 0 || st > rs.length) return outOfRange(start);
    return rs.slice(st).join('');
  }
  if (start > end) return new CelError(`invalid substring range. start: ${start}, end: ${end}`);
  const st = toIndex(start);
  const en = toIndex(end);
  if (st < 0 || st > rs.length) return outOfRange(start);
  if (en < 0 || en > rs.length) return outOfRange(end);
  return rs.slice(st, en).join('');
}

/** unicode.IsSpace: Latin-1 spaces (\t \n \v \f \r, space, U+0085, U+00A0) and the White_Space
 * property; unlike JavaScript's \s, U+FEFF is not a space. */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');
export const trim = (s: string): string => s.replace(TRIM, '');

/** joinValSeparator: every element must be a string. */
export function join(list: readonly Val[], sep = ''): string | CelError {
  let out = '';
  for (let i = 0; i < list.length; i++) {
    const e = list[i]!;
    if (typeof e !== 'string') return new CelError(`join: invalid input: ${goValueString(e)}`);
    out += i === 0 ? e : sep + e;
  }
  return out;
}

/** Roughly Go's %v of a CEL value, for join's error. */
function goValueString(v: Val): string {
  if (typeof v === 'string' || typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'number') return String(v);
  return v === null ? 'NULL_VALUE' : String(v);
}

/** strings.quote: a double-quoted string with CEL's escapes; other characters stay as they are. */
export function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\x07': out += '\\a'; break;
      case '\b': out += '\\b'; break;
      case '\f': out += '\\f'; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      case '\v': out += '\\v'; break;
      case '\\': out += '\\\\'; break;
      case '"': out += '\\"'; break;
      default: {
        const cp = ch.codePointAt(0)!;
        // Invalid UTF-8 (here: a lone surrogate) becomes U+FFFD.
        out += cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : ch;
      }
    }
  }
  return out + '"';
}

export function reverse(s: string): string {
  return runes(s).reverse().join('');
}

// --- declarations ------------------------------------------------------------------------

const LIST_STRING = listOf(STRING);
const LIST_DYN = listOf(DYN);

/** Kubernetes' string-traversal CallCost (lowerAscii, upperAscii, substring, trim): ceil(size × 0.1). */
const traverseReceiver = (args: readonly Val[]): number => traversal(args[0]!);
/** replace and split: the traversal plus building the result. */
const traverseTwice = (args: readonly Val[]): number => traversal(args[0]!, 2 * STRING_TRAVERSAL_COST_FACTOR);
/** indexOf and lastIndexOf share the lists library's cost: a data-tree traversal of the receiver. */
const traverseTree = (args: readonly Val[]): number => traversalCost(args[0]!);

const str = (args: readonly Val[], i: number): string => args[i] as string;
const int = (args: readonly Val[], i: number): bigint => args[i] as bigint;

function fn(name: string, ...overloads: Overload[]): FunctionDecl {
  return { name, overloads };
}

/** ext.Strings(ext.StringsVersion(version)). */
export function stringsLibrary(version: number): Library {
  const functions: FunctionDecl[] = [
    fn('charAt', member('string_char_at_int', [STRING, INT], STRING, (a) => badArg(a, 'string', 'bigint') ?? charAt(str(a, 0), int(a, 1)))),
    fn(
      'indexOf',
      member('string_index_of_string', [STRING, STRING], INT, (a) => badArg(a, 'string', 'string') ?? indexOf(str(a, 0), str(a, 1), 0n), traverseTree),
      member(
        'string_index_of_string_int', [STRING, STRING, INT], INT,
        (a) => badArg(a, 'string', 'string', 'bigint') ?? indexOf(str(a, 0), str(a, 1), int(a, 2)), traverseTree,
      ),
    ),
    fn(
      'lastIndexOf',
      member('string_last_index_of_string', [STRING, STRING], INT, (a) => badArg(a, 'string', 'string') ?? lastIndexOf(str(a, 0), str(a, 1)), traverseTree),
      member(
        'string_last_index_of_string_int', [STRING, STRING, INT], INT,
        (a) => badArg(a, 'string', 'string', 'bigint') ?? lastIndexOf(str(a, 0), str(a, 1), int(a, 2)), traverseTree,
      ),
    ),
    fn('lowerAscii', member('string_lower_ascii', [STRING], STRING, (a) => badArg(a, 'string') ?? lowerAscii(str(a, 0)), traverseReceiver)),
    fn(
      'replace',
      member(
        'string_replace_string_string', [STRING, STRING, STRING], STRING,
        (a) => badArg(a, 'string', 'string', 'string') ?? replace(str(a, 0), str(a, 1), str(a, 2)), traverseTwice,
      ),
      member(
        'string_replace_string_string_int', [STRING, STRING, STRING, INT], STRING,
        (a) => badArg(a, 'string', 'string', 'string', 'bigint') ?? replace(str(a, 0), str(a, 1), str(a, 2), int(a, 3)), traverseTwice,
      ),
    ),
    fn(
      'split',
      member('string_split_string', [STRING, STRING], LIST_STRING, (a) => badArg(a, 'string', 'string') ?? split(str(a, 0), str(a, 1)), traverseTwice),
      member(
        'string_split_string_int', [STRING, STRING, INT], LIST_STRING,
        (a) => badArg(a, 'string', 'string', 'bigint') ?? split(str(a, 0), str(a, 1), int(a, 2)), traverseTwice,
      ),
    ),
    fn(
      'substring',
      member('string_substring_int', [STRING, INT], STRING, (a) => badArg(a, 'string', 'bigint') ?? substring(str(a, 0), int(a, 1)), traverseReceiver),
      member(
        'string_substring_int_int', [STRING, INT, INT], STRING,
        (a) => badArg(a, 'string', 'bigint', 'bigint') ?? substring(str(a, 0), int(a, 1), int(a, 2)), traverseReceiver,
      ),
    ),
    fn('trim', member('string_trim', [STRING], STRING, (a) => badArg(a, 'string') ?? trim(str(a, 0)), traverseReceiver)),
    fn('upperAscii', member('string_upper_ascii', [STRING], STRING, (a) => badArg(a, 'string') ?? upperAscii(str(a, 0)), traverseReceiver)),
  ];
  if (version >= 1) {
    functions.push(
      // cel-go's default cost for both: a traversal of the first argument.
      fn('format', member('string_format', [STRING, LIST_DYN], STRING, (a) => {
        if (typeof a[0] !== 'string' || !Array.isArray(a[1])) return maybeNoSuchOverload(typeof a[0] !== 'string' ? a[0]! : a[1]!);
        return formatString(a[0], a[1] as readonly Val[]);
      }, traverseReceiver)),
      fn('strings.quote', global('strings_quote', [STRING], STRING, (a) => badArg(a, 'string') ?? quote(str(a, 0)), traverseReceiver)),
    );
  }
  // Versions 0 and 1 convert the list to []string first; only the error text differs.
  const joinImpl = (list: Val, sep: Val = ''): Val => {
    if (!Array.isArray(list) || typeof sep !== 'string') return maybeNoSuchOverload(Array.isArray(list) ? sep : list);
    return join(list as readonly Val[], sep);
  };
  // Kubernetes' join cost: twice the traversal of the result.
  const joinCost = (_args: readonly Val[], result: Val): number => Math.ceil(actualSize(result) * 2 * STRING_TRAVERSAL_COST_FACTOR);
  functions.push(fn(
    'join',
    member('list_join', [LIST_STRING], STRING, (a) => joinImpl(a[0]!), joinCost),
    member('list_join_string', [LIST_STRING, STRING], STRING, (a) => joinImpl(a[0]!, a[1]!), joinCost),
  ));
  if (version >= 3) {
    functions.push(fn('reverse', member('string_reverse', [STRING], STRING, (a) => badArg(a, 'string') ?? reverse(str(a, 0)))));
  }
  return { name: 'cel.lib.ext.strings', functions };
}

/** The strings extension as Kubernetes 1.33 enables it: ext.Strings(ext.StringsVersion(2)). */
export const STRINGS_LIBRARY: Library = stringsLibrary(2);
