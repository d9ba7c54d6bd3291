// The CEL lexer, behaving like the ANTLR lexer generated from cel-go's CEL.g4:
// longest match, falling back to the longest accepted prefix, and on failure a
// "token recognition error" whose text runs from the token start up to and
// including the character where matching stopped (that character is skipped).

/** Token types numbered as in cel-go's generated CELLexer (error messages list
 * expected tokens in this order). */
export enum T {
  EOF = -1,
  EQUALS = 1, NOT_EQUALS, IN, LESS, LESS_EQUALS, GREATER_EQUALS, GREATER, LOGICAL_AND, LOGICAL_OR,
  LBRACKET, RPRACKET, LBRACE, RBRACE, LPAREN, RPAREN, DOT, COMMA, MINUS, EXCLAM, QUESTIONMARK, COLON,
  PLUS, STAR, SLASH, PERCENT, CEL_TRUE, CEL_FALSE, NUL, WHITESPACE, COMMENT,
  NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER, ESC_IDENTIFIER,
}

const LITERAL_NAMES: Record<number, string> = {
  1: "'=='", 2: "'!='", 3: "'in'", 4: "'<'", 5: "'<='", 6: "'>='", 7: "'>'", 8: "'&&'", 9: "'||'",
  10: "'['", 11: "']'", 12: "'{'", 13: "'}'", 14: "'('", 15: "')'", 16: "'.'", 17: "','", 18: "'-'",
  19: "'!'", 20: "'?'", 21: "':'", 22: "'+'", 23: "'*'", 24: "'/'", 25: "'%'", 26: "'true'",
  27: "'false'", 28: "'null'",
};
const SYMBOLIC_NAMES: Record<number, string> = {
  29: 'WHITESPACE', 30: 'COMMENT', 31: 'NUM_FLOAT', 32: 'NUM_INT', 33: 'NUM_UINT', 34: 'STRING',
  35: 'BYTES', 36: 'IDENTIFIER', 37: 'ESC_IDENTIFIER',
};

/** How ANTLR names a token type in "expecting ..." lists. */
export function tokenTypeName(t: number): string {
  if (t === T.EOF) return '<EOF>';
  return LITERAL_NAMES[t] ?? SYMBOLIC_NAMES[t] ?? `<${t}>`;
}

export interface Token {
  type: T;
  text: string;
  /** Code point offset of the first character. */
  offset: number;
  /** UTF-16 range in the source. */
  start: number;
  end: number;
  /** Index in the token list (hidden tokens are dropped). */
  index: number;
}

export interface LexError {
  /** Code point offset where the failed token began. */
  offset: number;
  message: string;
  /** Errors surface when the parser first looks at this token index. */
  beforeToken: number;
}

// A Map, not an object literal: `toString` or `constructor` must not resolve through the prototype.
const KEYWORDS = new Map<string, T>([['in', T.IN], ['true', T.CEL_TRUE], ['false', T.CEL_FALSE], ['null', T.NUL]]);

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHex = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isIdentPart = (c: number): boolean => isLetter(c) || isDigit(c) || c === 95;
const isEscIdentPart = (c: number): boolean => isIdentPart(c) || c === 46 || c === 45 || c === 47 || c === 32;

/** Outcome of matching one token at a position: the end of the longest
 * accepted match (or -1), and where matching got stuck. */
interface Scan { accept: number; type: T; fail: number }

/** Escapes text the way ANTLR's getErrorDisplay does. */
export function errorDisplay(s: string): string {
  return s.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

export function lex(src: string): { tokens: Token[]; errors: LexError[] } {
  const n = src.length;
  const cpAt = codePointOffsets(src);
  const tokens: Token[] = [];
  const errors: LexError[] = [];
  let i = 0;
  while (i < n) {
    const c = src.charCodeAt(i);
    // Hidden channel: whitespace and comments.
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12) { i++; continue; }
    if (c === 47 && src.charCodeAt(i + 1) === 47) {
      while (i < n && src.charCodeAt(i) !== 10) i++;
      continue;
    }
    const s = scanToken(src, i);
    if (s.accept > i) {
      const text = src.slice(i, s.accept);
      let type = s.type;
      if (type === T.IDENTIFIER) type = KEYWORDS.get(text) ?? T.IDENTIFIER;
      tokens.push({ type, text, offset: cpAt(i), start: i, end: s.accept, index: tokens.length });
      i = s.accept;
      continue;
    }
    // Recognition error: report the text through the stuck character, then skip past it.
    const failEnd = Math.min(s.fail < n ? s.fail + charLen(src, s.fail) : n, n);
    errors.push({
      offset: cpAt(i),
      message: `token recognition error at: '${errorDisplay(src.slice(i, failEnd))}'`,
      beforeToken: tokens.length,
    });
    i = s.fail < n ? s.fail + charLen(src, s.fail) : n;
  }
  tokens.push({ type: T.EOF, text: '<EOF>', offset: cpAt(n), start: n, end: n, index: tokens.length });
  return { tokens, errors };
}

/** The UTF-16 unit at k, or -1 past the end. */
function charAt(src: string, k: number): number {
  return k < src.length ? src.charCodeAt(k) : -1;
}

function charLen(src: string, i: number): number {
  const c = src.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < src.length ? 2 : 1;
}

/** Maps UTF-16 indexes to code point offsets (identity for BMP-only text). */
function codePointOffsets(src: string): (i: number) => number {
  if (!/[\uD800-\uDFFF]/.test(src)) return (i) => i;
  const map = new Int32Array(src.length + 1);
  let cp = 0;
  for (let i = 0; i < src.length; i++) {
    map[i] = cp;
    const c = src.charCodeAt(i);
    if (!(c >= 0xdc00 && c <= 0xdfff && i > 0 && src.charCodeAt(i - 1) >= 0xd800 && src.charCodeAt(i - 1) <= 0xdbff)) cp++;
    else map[i] = cp - 1;
  }
  map[src.length] = cp;
  return (i) => map[i]!;
}

function fixed(i: number, len: number, type: T): Scan {
  return { accept: i + len, type, fail: i + len };
}

function scanToken(src: string, i: number): Scan {
  const c = charAt(src, i);
  switch (c) {
    case 61: return charAt(src, i + 1) === 61 ? fixed(i, 2, T.EQUALS) : { accept: -1, type: T.EOF, fail: i + 1 }; // '='
    case 33: return charAt(src, i + 1) === 61 ? fixed(i, 2, T.NOT_EQUALS) : fixed(i, 1, T.EXCLAM);
    case 60: return charAt(src, i + 1) === 61 ? fixed(i, 2, T.LESS_EQUALS) : fixed(i, 1, T.LESS);
    case 62: return charAt(src, i + 1) === 61 ? fixed(i, 2, T.GREATER_EQUALS) : fixed(i, 1, T.GREATER);
    case 38: return charAt(src, i + 1) === 38 ? fixed(i, 2, T.LOGICAL_AND) : { accept: -1, type: T.EOF, fail: i + 1 };
    case 124: return charAt(src, i + 1) === 124 ? fixed(i, 2, T.LOGICAL_OR) : { accept: -1, type: T.EOF, fail: i + 1 };
    case 91: return fixed(i, 1, T.LBRACKET);
    case 93: return fixed(i, 1, T.RPRACKET);
    case 123: return fixed(i, 1, T.LBRACE);
    case 125: return fixed(i, 1, T.RBRACE);
    case 40: return fixed(i, 1, T.LPAREN);
    case 41: return fixed(i, 1, T.RPAREN);
    case 44: return fixed(i, 1, T.COMMA);
    case 45: return fixed(i, 1, T.MINUS);
    case 63: return fixed(i, 1, T.QUESTIONMARK);
    case 58: return fixed(i, 1, T.COLON);
    case 43: return fixed(i, 1, T.PLUS);
    case 42: return fixed(i, 1, T.STAR);
    case 47: return fixed(i, 1, T.SLASH);
    case 37: return fixed(i, 1, T.PERCENT);
    case 46: // '.' or a float such as .5
      if (isDigit(charAt(src, i + 1))) return scanNumber(src, i);
      return fixed(i, 1, T.DOT);
    case 34: case 39: return scanString(src, i, T.STRING, -1);
    case 96: return scanEscIdent(src, i);
  }
  if (isDigit(c)) return scanNumber(src, i);
  if (isLetter(c) || c === 95) {
    let j = i + 1;
    while (isIdentPart(charAt(src, j))) j++;
    const ident: Scan = { accept: j, type: T.IDENTIFIER, fail: j };
    // String prefixes: r"..", b"..", br"..", rb is not a prefix.
    const p0 = c | 32;
    if (p0 === 114 || p0 === 98) { // r or b
      const q = charAt(src, i + 1);
      if (q === 34 || q === 39) {
        const s = scanString(src, i + 1, p0 === 98 ? T.BYTES : T.STRING, p0 === 114 ? i : -1);
        return s.accept > 0 ? s : { ...ident, accept: i + 1, fail: s.fail };
      }
      if (p0 === 98 && (charAt(src, i + 1) | 32) === 114 && (charAt(src, i + 2) === 34 || charAt(src, i + 2) === 39)) {
        const s = scanString(src, i + 2, T.BYTES, i + 1);
        return s.accept > 0 ? s : { accept: i + 2, type: T.IDENTIFIER, fail: s.fail };
      }
    }
    return ident;
  }
  return { accept: -1, type: T.EOF, fail: i };
}

function scanNumber(src: string, i: number): Scan {
  let accept = -1;
  let type = T.NUM_INT;
  let j = i;
  if (charAt(src, j) === 48 && charAt(src, j + 1) === 120 && isHex(charAt(src, j + 2))) { // 0x
    j += 2;
    while (isHex(charAt(src, j))) j++;
    if ((charAt(src, j) | 32) === 117) return { accept: j + 1, type: T.NUM_UINT, fail: j + 1 };
    return { accept: j, type: T.NUM_INT, fail: j };
  }
  if (charAt(src, j) !== 46) {
    while (isDigit(charAt(src, j))) j++;
    accept = j;
    if ((charAt(src, j) | 32) === 117) return { accept: j + 1, type: T.NUM_UINT, fail: j + 1 };
  }
  if (charAt(src, j) === 46 && isDigit(charAt(src, j + 1))) {
    j++;
    while (isDigit(charAt(src, j))) j++;
    accept = j;
    type = T.NUM_FLOAT;
  }
  const e = exponentEnd(src, j);
  if (e > 0) { accept = e; type = T.NUM_FLOAT; }
  return { accept, type, fail: accept };
}

function exponentEnd(src: string, j: number): number {
  if ((charAt(src, j) | 32) !== 101) return -1;
  let k = j + 1;
  if (charAt(src, k) === 43 || charAt(src, k) === 45) k++;
  if (!isDigit(charAt(src, k))) return -1;
  while (isDigit(charAt(src, k))) k++;
  return k;
}

/** Scans a quoted string whose quote is at q. rawAt >= 0 marks a raw string.
 * On failure, falls back to the empty string `""` when that was seen first,
 * as the ANTLR DFA does for an unterminated triple-quoted string. */
function scanString(src: string, q: number, type: T, rawAt: number): Scan {
  const quote = charAt(src, q);
  const raw = rawAt >= 0;
  if (charAt(src, q + 1) === quote) {
    if (charAt(src, q + 2) !== quote) return { accept: q + 2, type, fail: q + 2 };
    // Triple quoted: ends at the first closing triple quote.
    let j = q + 3;
    for (;;) {
      const c = charAt(src, j);
      if (c === -1) return { accept: q + 2, type, fail: j };
      if (c === quote && charAt(src, j + 1) === quote && charAt(src, j + 2) === quote) return { accept: j + 3, type, fail: j + 3 };
      if (c === 92 && !raw) {
        const e = escapeEnd(src, j);
        if (e < 0) return { accept: q + 2, type, fail: -e };
        j = e;
        continue;
      }
      j += 1;
    }
  }
  let j = q + 1;
  for (;;) {
    const c = charAt(src, j);
    if (c === -1 || c === 10 || c === 13) return { accept: -1, type, fail: j };
    if (c === quote) return { accept: j + 1, type, fail: j + 1 };
    if (c === 92 && !raw) {
      const e = escapeEnd(src, j);
      if (e < 0) return { accept: -1, type, fail: -e };
      j = e;
      continue;
    }
    j += 1;
  }
}

/** End of the escape sequence starting with the backslash at j, or -(index
 * of the offending character) when it is malformed. */
function escapeEnd(src: string, j: number): number {
  const c = charAt(src, j + 1);
  switch (c) {
    case 97: case 98: case 102: case 110: case 114: case 116: case 118: // a b f n r t v
    case 34: case 39: case 92: case 63: case 96: // " ' \ ? `
      return j + 2;
    case 120: case 88: return hexRun(src, j + 2, 2); // x X
    case 117: return hexRun(src, j + 2, 4);
    case 85: return hexRun(src, j + 2, 8);
  }
  if (c >= 48 && c <= 51) { // octal \[0-3][0-7][0-7]
    for (let k = j + 2; k < j + 4; k++) { const d = charAt(src, k); if (d < 48 || d > 55) return -k; }
    return j + 4;
  }
  return -(j + 1);
}

function hexRun(src: string, k: number, count: number): number {
  for (let m = k; m < k + count; m++) if (!isHex(charAt(src, m))) return -m;
  return k + count;
}

function scanEscIdent(src: string, i: number): Scan {
  let j = i + 1;
  while (isEscIdentPart(charAt(src, j))) j++;
  if (j > i + 1 && charAt(src, j) === 96) return { accept: j + 1, type: T.ESC_IDENTIFIER, fail: j + 1 };
  return { accept: -1, type: T.EOF, fail: j };
}
