// metadata.labels read straight from a stored object's bytes (ASCII or UTF-8 JSON), as labelsOfStored
// (stored-json.ts) reads them from its text, without making the value a string: the watch cache's label
// index reads the labels of every object of a resource (a million of ~1.5 KB), and decoding each value to
// read ~100 bytes of it made ~3 GB of short-lived strings at one million. Only label names and values become
// strings, interned (62,500 objects with the same value share one), and a label set read before is known by
// its bytes and shared whole (one frozen array for every object with that set).
//
// The reader takes only the plain layout JSON.stringify writes: compact, label strings of printable ASCII
// without escapes, no duplicate label names. Anything else gives undefined and the caller reads the text
// (labelsOfStored), so what this returns is always what that would. Everything labelsOfStored checks is
// checked here too, more strictly: the members before `metadata` (each value must end), the whole metadata
// object (memberAt finds its end before looking inside), and the labels object's JSON.

/** Label names and values, flat: name, value, name, value, … (no name twice). */
export type LabelPairs = readonly string[];

/** No labels (no metadata, no labels member, `"labels":null`). */
export const NO_LABEL_PAIRS: LabelPairs = Object.freeze([]);

/** Buffer's latin1Slice (Buffer.toString('latin1', …) without its argument handling; not in Node's typings). */
interface Latin1Buffer extends Buffer {
  latin1Slice(start: number, end: number): string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** b[i] within the value, else -1: the slab goes on past it with other values' bytes. */
const byteAt = (b: Buffer, i: number, end: number): number => (i < end ? b[i]! : -1);

/** Runs of string bytes longer than this are searched natively (a 700-byte annotation), shorter ones in JS. */
const INLINE_SCAN = 24;

/** The index of the quote closing the string opening at `open`, or -1 when none is before `end` (closingQuote's rule). */
function closingQuoteAt(b: Buffer, open: number, end: number): number {
  let i = open + 1;
  for (;;) {
    let q = -1;
    const stop = Math.min(end, i + INLINE_SCAN);
    for (; i < stop; i++) {
      if (b[i] === QUOTE) {
        q = i;
        break;
      }
    }
    if (q < 0) {
      if (i >= end) return -1;
      q = b.indexOf(QUOTE, i);
      if (q < 0 || q >= end) return -1;
    }
    // A quote after an odd run of backslashes is escaped.
    let k = q - 1;
    while (k > open && b[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q;
    i = q + 1;
  }
}

/** The index after the object or array opening at `start` (objectEnd's depth count); -1 if it does not end before `end`. */
function nestedEnd(b: Buffer, start: number, end: number): number {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c === QUOTE) {
      i = closingQuoteAt(b, i, end);
      if (i < 0) return -1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The index after the array or object at `start` as objectEnd reads it; -1 if it is neither or does not end before `end`. */
export function jsonValueEnd(b: Buffer, start: number, end: number): number {
  const c = byteAt(b, start, end);
  return c === OPEN_BRACE || c === OPEN_BRACKET ? nestedEnd(b, start, end) : -1;
}

/** Bytes a number, true, false or null is written with. */
const isScalarByte = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45;

/**
 * The index after the compact JSON value at `start` (valueEnd's rule; a scalar only of a scalar's bytes, so that
 * a member walk that succeeds ends where objectEnd would); -1 if it does not end before `end`.
 */
function valueEndAt(b: Buffer, start: number, end: number): number {
  if (start === walk.gap) {
    walk.gapMet = true;
    return start;
  }
  const c = byteAt(b, start, end);
  if (c === QUOTE) {
    const q = closingQuoteAt(b, start, end);
    return q < 0 ? -1 : q + 1;
  }
  if (c === OPEN_BRACE || c === OPEN_BRACKET) return nestedEnd(b, start, end);
  for (let i = start; i < end; i++) {
    const d = b[i]!;
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET) return i > start ? i : -1;
    if (!isScalarByte(d)) return -1;
  }
  return -1;
}

/**
 * The walk under way (one at a time: it is synchronous). `gap`: where the bytes lack a whole JSON value kept
 * elsewhere (a shared managedFields list), or -1; `gapMet`: whether a member's value began there, so that the
 * walk stepped over it as the text's walk steps over the value.
 */
const walk = { gap: -1, gapMet: false, end: 0 };

/** Whether b[at, end) begins with the ASCII text. */
function bytesAre(b: Buffer, at: number, end: number, text: string): boolean {
  if (at + text.length > end) return false;
  for (let k = 0; k < text.length; k++) if (b[at + k] !== text.charCodeAt(k)) return false;
  return true;
}

/** Whether the key string whose quote opens at `open` and closes at `close` is `name` (ASCII), byte for byte as memberAt compares. */
const keyIs = (b: Buffer, open: number, close: number, name: string): boolean => close - open - 1 === name.length && bytesAre(b, open + 1, close, name);

/** Label strings seen, by a hash of their bytes: equal names and values are one string. */
const INTERNED_BITS = 14;
const interned: (string | undefined)[] = new Array<string | undefined>(1 << INTERNED_BITS).fill(undefined);

/** The string of ASCII bytes [from, to), the same string as for the same bytes before where it is still remembered. */
function internAscii(b: Buffer, from: number, to: number, hash: number): string {
  const slot = (hash ^ (hash >>> INTERNED_BITS)) & ((1 << INTERNED_BITS) - 1);
  const known = interned[slot];
  if (known !== undefined && known.length === to - from) {
    let k = 0;
    while (k < known.length && known.charCodeAt(k) === b[from + k]) k++;
    if (k === known.length) return known;
  }
  const s = (b as Latin1Buffer).latin1Slice(from, to);
  interned[slot] = s;
  return s;
}

/** The index of the quote closing the string plainString read last, and a hash of its bytes. */
let plainClose = 0;
let plainHash = 0;

/**
 * The plain string (printable ASCII, no escape) whose quote opens at `open`, its closing quote's index left in
 * plainClose; or undefined (an escape, a control or non-ASCII byte, no end).
 */
function plainString(b: Buffer, open: number, end: number): string | undefined {
  let hash = 0x811c9dc5;
  for (let i = open + 1; i < end; i++) {
    const c = b[i]!;
    if (c === QUOTE) {
      plainClose = i;
      plainHash = hash;
      return internAscii(b, open + 1, i, hash);
    }
    // JSON.parse refuses raw control bytes; escapes and UTF-8 are left to the text.
    if (c < 0x20 || c >= 0x80 || c === BACKSLASH) return undefined;
    hash = Math.imul(hash ^ c, 0x01000193);
  }
  return undefined;
}

/**
 * Label sets read lately, by a hash of their JSON bytes: objects share few sets (the same app, tier, owner).
 * A set read before is told by its bytes alone, in one pass with no string made, and shares its array (frozen).
 */
class KnownSet {
  constructor(
    /** The labels object's bytes, as latin1 text. */
    readonly raw: string,
    readonly pairs: LabelPairs,
  ) {}
}
const SETS_BITS = 12;
const sets: (KnownSet | undefined)[] = new Array<KnownSet | undefined>(1 << SETS_BITS).fill(undefined);
/** The set being read (its first `n`), reused. */
const reading: string[] = [];

/** The index after the labels object plainLabels read last. */
let labelsEnd = 0;

/**
 * The end of the labels object opening at `open` when it is plain (strings of printable ASCII without escapes,
 * nothing nested; its members not checked: readLabels does, or it is a set read before), a hash of its bytes
 * left in plainHash; -1 otherwise.
 */
function plainObjectEnd(b: Buffer, open: number, end: number): number {
  let hash = 0x811c9dc5;
  let inString = false;
  for (let i = open + 1; i < end; i++) {
    const c = b[i]!;
    if (c < 0x20 || c >= 0x80 || c === BACKSLASH) return -1;
    if (c === QUOTE) inString = !inString;
    else if (!inString && (c === OPEN_BRACE || c === OPEN_BRACKET || c === CLOSE_BRACKET)) return -1;
    else if (!inString && c === CLOSE_BRACE) {
      plainHash = hash;
      return i + 1;
    }
    hash = Math.imul(hash ^ c, 0x01000193);
  }
  return -1;
}

/** The set read before whose bytes are b[open, close), or undefined. */
function knownSet(b: Buffer, open: number, close: number, hash: number): LabelPairs | undefined {
  const known = sets[(hash ^ (hash >>> SETS_BITS)) & ((1 << SETS_BITS) - 1)];
  if (known === undefined || known.raw.length !== close - open) return undefined;
  const { raw } = known;
  for (let k = 0; k < raw.length; k++) if (raw.charCodeAt(k) !== b[open + k]) return undefined;
  return known.pairs;
}

/** A labels object's pairs, the index after it left in labelsEnd; undefined when not plain (then JSON.parse decides). */
function plainLabels(b: Buffer, open: number, end: number): LabelPairs | undefined {
  const close = plainObjectEnd(b, open, end);
  if (close < 0) return undefined;
  const setHash = plainHash;
  const known = knownSet(b, open, close, setHash);
  labelsEnd = close;
  if (known !== undefined) return known;
  const pairs = readLabels(b, open, close);
  if (pairs !== undefined) {
    sets[(setHash ^ (setHash >>> SETS_BITS)) & ((1 << SETS_BITS) - 1)] = new KnownSet((b as Latin1Buffer).latin1Slice(open, close), pairs);
  }
  return pairs;
}

/** The members of the plain labels object b[open, close): a new set, frozen; undefined when not `{"name":"value",…}` or a name comes twice. */
function readLabels(b: Buffer, open: number, close: number): LabelPairs | undefined {
  let n = 0;
  let i = open + 1;
  if (b[i] === CLOSE_BRACE) return NO_LABEL_PAIRS;
  for (;;) {
    if (b[i] !== QUOTE) return undefined;
    const name = plainString(b, i, close);
    if (name === undefined || byteAt(b, plainClose + 1, close) !== COLON || byteAt(b, plainClose + 2, close) !== QUOTE) return undefined;
    const value = plainString(b, plainClose + 2, close);
    if (value === undefined) return undefined;
    // JSON.parse keeps a repeated name's last value: rare enough to leave to it.
    for (let k = 0; k < n; k += 2) if (reading[k] === name) return undefined;
    reading[n++] = name;
    reading[n++] = value;
    i = plainClose + 1;
    if (i === close - 1) return Object.freeze(reading.slice(0, n));
    if (b[i] !== COMMA) return undefined;
    i++;
  }
}

/**
 * metadata.labels of the stored JSON object in b[start, end), as labelsOfStored reads them from its text,
 * when they can be read plainly; undefined when the text must decide (which may still find labels, or none).
 * `gap`: an index in [start, end] where the text has a whole JSON value (an array or object, as its own
 * objectEnd reads it) that these bytes lack; then the labels are read only when the walk takes that value as a
 * member's or ends before it, and are otherwise undefined (read the bytes put together instead).
 */
export function labelPairsOfBytes(b: Buffer, start: number, end: number, gap = -1): LabelPairs | undefined {
  walk.gap = gap;
  walk.gapMet = false;
  walk.end = start;
  const pairs = topLevelLabels(b, start, end);
  // Read a byte at or past the gap without taking the gap as a member's value (it was inside something skipped,
  // or where a key, metadata or labels were read): the text's walk would have read the missing value there.
  if (gap >= 0 && !walk.gapMet && walk.end > gap) return undefined;
  return pairs;
}

function topLevelLabels(b: Buffer, start: number, end: number): LabelPairs | undefined {
  // The top-level members, to metadata (memberAt(text, 0, 'metadata')).
  if (byteAt(b, start, end) !== OPEN_BRACE) return undefined;
  let i = start + 1;
  walk.end = i + 1;
  if (byteAt(b, i, end) === CLOSE_BRACE) return NO_LABEL_PAIRS;
  for (;;) {
    if (byteAt(b, i, end) !== QUOTE) return undefined;
    const keyEnd = closingQuoteAt(b, i, end);
    if (keyEnd < 0 || byteAt(b, keyEnd + 1, end) !== COLON) return undefined;
    if (keyIs(b, i, keyEnd, 'metadata')) return metadataLabels(b, keyEnd + 2, end);
    const next = valueEndAt(b, keyEnd + 2, end);
    if (next < 0) return undefined;
    const c = byteAt(b, next, end);
    walk.end = next + 1;
    if (c === CLOSE_BRACE) return NO_LABEL_PAIRS;
    if (c !== COMMA) return undefined;
    i = next + 1;
  }
}

/**
 * The labels of the metadata object opening at `open`: every member walked to its closing brace (labelsOfStored
 * needs the object to end), the first `labels` member read plainly.
 */
function metadataLabels(b: Buffer, open: number, end: number): LabelPairs | undefined {
  if (byteAt(b, open, end) !== OPEN_BRACE) return undefined;
  let found: LabelPairs | undefined;
  let i = open + 1;
  walk.end = i + 1;
  if (byteAt(b, i, end) === CLOSE_BRACE) return NO_LABEL_PAIRS;
  for (;;) {
    if (byteAt(b, i, end) !== QUOTE) return undefined;
    const keyEnd = closingQuoteAt(b, i, end);
    if (keyEnd < 0 || byteAt(b, keyEnd + 1, end) !== COLON) return undefined;
    const at = keyEnd + 2;
    let next: number;
    if (found === undefined && keyIs(b, i, keyEnd, 'labels')) {
      if (byteAt(b, at, end) === OPEN_BRACE) {
        found = plainLabels(b, at, end);
        if (found === undefined) return undefined;
        next = labelsEnd;
      } else {
        // `"labels":null` is no labels; anything else is not a map of strings.
        if (!bytesAre(b, at, end, 'null')) return undefined;
        found = NO_LABEL_PAIRS;
        next = at + 4;
      }
    } else next = valueEndAt(b, at, end);
    if (next < 0) return undefined;
    const c = byteAt(b, next, end);
    walk.end = next + 1;
    if (c === CLOSE_BRACE) return found ?? NO_LABEL_PAIRS;
    if (c !== COMMA) return undefined;
    i = next + 1;
  }
}
