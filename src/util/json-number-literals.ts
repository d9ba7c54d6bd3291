// The text of the JSON number literals that are not plain integers (`1.0`, `1e3`) or not int64s
// (`9223372036854775808`), by the path of the value that holds them. JSON.parse keeps only their values, while Go's decoder refuses them for integer fields
// and names them in its error (`json: cannot unmarshal number 1.0 into Go struct field ... of type int64`).

import { hasDigitRun } from './json-int64.js';
import { closingQuote } from './json-depth.js';

/**
 * A container being scanned. Its path (as sigs.k8s.io/json's strict errors write it: `spec.versions[0].maxLength`)
 * is only made when a literal inside it is recorded: most bodies that need a scan (a digit before a point in some
 * description) record nothing.
 */
type Frame = { array: boolean; parent: Frame | undefined; parentKey: string; parentIndex: number; key: string; expectKey: boolean; index: number };

function pathOf(f: Frame | undefined): string {
  if (!f?.parent) return '';
  const at = pathOf(f.parent);
  if (f.parent.array) return `${at}[${f.parentIndex}]`;
  return at ? `${at}.${f.parentKey}` : f.parentKey;
}

function childPath(top: Frame | undefined): string {
  if (!top) return '';
  const at = pathOf(top);
  if (top.array) return `${at}[${top.index}]`;
  return at ? `${at}.${top.key}` : top.key;
}

/** A character of a number literal: digits, sign, point, exponent. */
const isNumberChar = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;

/** Integer literals beyond int64 (Go's ParseInt fails on them) have at least 19 digits. */
const outsideInt64 = (literal: string): boolean => {
  const digits = literal.length - (literal.startsWith('-') ? 1 : 0);
  if (digits < 19) return false;
  const b = BigInt(literal);
  return b < -(2n ** 63n) || b >= 2n ** 63n;
};

/**
 * The non-integer and beyond-int64 number literals of valid JSON text, by path; undefined when there are
 * none (the common case, found without a scan when no digit is followed by a point or an exponent and
 * there is no run of 19 digits).
 */
export function nonIntegerNumberLiterals(text: string): Map<string, string> | undefined {
  if (!/[0-9][.eE]/.test(text) && !hasDigitRun(text, 19)) return undefined;
  // A digit and a point are in most CRDs' descriptions ("v1.2"): the literals, not the strings, decide.
  return hasNonIntegerLiteral(text) ? numberLiteralsByPath(text) : undefined;
}

/** nonIntegerNumberLiterals without its quick checks: every literal it records found with its path, in one scan. */
export function numberLiteralsByPath(text: string): Map<string, string> | undefined {
  const out = new Map<string, string>();
  let top: Frame | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      top = { array: c === 0x5b, parent: top, parentKey: top?.key ?? '', parentIndex: top?.index ?? 0, key: '', expectKey: c === 0x7b, index: 0 };
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      top = top?.parent;
      i++;
    } else if (c === 0x2c /* , */) {
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
      i++;
    } else if (c === 0x3a /* : */) {
      if (top && !top.array) top.expectKey = false;
      i++;
    } else if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      if (top && !top.array && top.expectKey) {
        const raw = text.slice(i + 1, end);
        top.key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
      }
      i = end + 1;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      const literal = text.slice(i, j);
      if (/[.eE]/.test(literal) || outsideInt64(literal)) out.set(childPath(top), literal);
      i = j;
    } else i++;
  }
  return out.size > 0 ? out : undefined;
}

/** Whether a literal (from..to of text) is one nonIntegerNumberLiterals records. */
function recorded(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e || c === 0x65 || c === 0x45) return true;
  }
  return outsideInt64(text.slice(from, to));
}

/**
 * Whether valid JSON text holds a literal nonIntegerNumberLiterals records, found without its paths: strings
 * are passed over with indexOf (closingQuote), and only what lies between them is read char by char.
 */
function hasNonIntegerLiteral(text: string): boolean {
  for (let i = 0; i < text.length; ) {
    const quote = text.indexOf('"', i);
    const end = quote < 0 ? text.length : quote;
    for (let j = i; j < end; j++) {
      const c = text.charCodeAt(j);
      if (c !== 0x2d && (c < 0x30 || c > 0x39)) continue;
      let k = j + 1;
      while (k < end && isNumberChar(text.charCodeAt(k))) k++;
      if (recorded(text, j, k)) return true;
      j = k - 1;
    }
    if (quote < 0) return false;
    i = closingQuote(text, quote) + 1;
  }
  return false;
}

/**
 * The first number literal of valid JSON text (outside strings, in document order) beyond float64's range,
 * which Go's decoder refuses (strconv.ParseFloat's ErrRange) where JSON.parse reads ±Infinity. Such a literal
 * needs an exponent of 3 digits or an integer part of at least 210 digits (with an exponent below 100), so
 * the common body is cleared by a regular expression and a sparse digit-run check.
 */
export function firstOutOfRangeNumber(text: string): string | undefined {
  if (!/[eE]\+?[0-9]{3}/.test(text) && !hasDigitRun(text, 210)) return undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      const literal = text.slice(i, j);
      if (!Number.isFinite(Number(literal))) return literal;
      i = j - 1;
    }
  }
  return undefined;
}
