// Reading a field out of stored JSON text without decoding the whole object: a label-selected LIST over a
// million objects reads only their labels (about 1/20 of each), where parsing every object cost seconds and
// gigabytes. The text is what JSON.stringify wrote (compact, no duplicate keys); anything else gives
// undefined and the caller decodes instead.
import { closingQuote } from './json-depth.js';
import { isObject, type JSONObject } from './json.js';
import { parseJSON } from './json-int64.js';

const RV_PLACEHOLDER = '"resourceVersion":""';

/**
 * Where the stored resourceVersion placeholder's value goes (objects are stored with `"resourceVersion":""`,
 * and served with the revision written in there); -1 when it is not exactly once in the text (then decode
 * instead: a string value holding the same characters would be escaped, but a nested object's field not).
 */
export function resourceVersionAt(value: string): number {
  const i = value.indexOf(RV_PLACEHOLDER);
  if (i < 0 || value.indexOf(RV_PLACEHOLDER, i + RV_PLACEHOLDER.length) >= 0) return -1;
  return i + RV_PLACEHOLDER.length - 1;
}

/** The index after the object (or array) opening at `start` in valid JSON text; -1 if it does not end. */
export function objectEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) i = closingQuote(text, i);
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) depth++;
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The index after the compact JSON value starting at `start`; -1 if it does not end. */
function valueEnd(text: string, start: number): number {
  const c = text.charCodeAt(start);
  if (c === 0x22 /* " */) {
    const q = closingQuote(text, start);
    return q < text.length ? q + 1 : -1;
  }
  if (c === 0x7b /* { */ || c === 0x5b /* [ */) return objectEnd(text, start);
  // A number, true, false or null: up to the next separator.
  for (let i = start; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d === 0x2c /* , */ || d === 0x7d /* } */ || d === 0x5d /* ] */) return i;
  }
  return -1;
}

/**
 * The value of member `key` of the compact JSON object whose `{` is at `open`, as its text; null when the
 * object has no such member; undefined when the text is not compact JSON as expected.
 */
export function memberText(text: string, open: number, key: string): string | null | undefined {
  const at = memberAt(text, open, key);
  return typeof at === 'number' ? text.slice(at, valueEnd(text, at)) : at;
}

/**
 * Where the value of member `key` of the compact JSON object whose `{` is at `open` starts; null when the
 * object has no such member; undefined when the text is not compact JSON as expected.
 */
export function memberAt(text: string, open: number, key: string): number | null | undefined {
  let found: number | null = null;
  // JSON.stringify escapes no letters: the key is these very characters or another key.
  const walked = walkMembers(text, open, (keyStart, keyEnd, valueStart) => {
    if (keyEnd !== keyStart + key.length + 1 || !text.startsWith(key, keyStart + 1)) return true;
    found = valueStart;
    return false;
  });
  return walked ? found : undefined;
}

/**
 * Calls visit(keyStart, keyEnd, valueStart, valueEnd) for each member of the compact JSON object whose `{` is at
 * `open` (keyStart, keyEnd: the key's quotes), until it returns false; false when the text is not compact JSON as
 * expected up to there.
 */
function walkMembers(text: string, open: number, visit: (keyStart: number, keyEnd: number, valueStart: number, valueEnd: number) => boolean): boolean {
  if (text.charCodeAt(open) !== 0x7b /* { */) return false;
  let i = open + 1;
  if (text.charCodeAt(i) === 0x7d /* } */) return true;
  for (;;) {
    if (text.charCodeAt(i) !== 0x22 /* " */) return false;
    const keyStart = i;
    const keyEnd = closingQuote(text, i);
    i = keyEnd + 1;
    if (text.charCodeAt(i) !== 0x3a /* : */) return false;
    const end = valueEnd(text, ++i);
    if (end < 0) return false;
    if (!visit(keyStart, keyEnd, i, end)) return true;
    const c = text.charCodeAt(end);
    if (c === 0x7d /* } */) return true;
    if (c !== 0x2c /* , */) return false;
    i = end + 1;
  }
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Label sets by their JSON text, parsed once: objects share few distinct sets (the same app, tier, owner),
 * and parsing each object's again was half of a label scan. Frozen, since every object with the set shares it.
 */
const parsedLabels = new Map<string, Readonly<Record<string, string>>>();
const PARSED_LABELS_MAX = 10_000;

/**
 * metadata.labels of stored JSON whose metadata object opens at `metadataOpen`, as a selector sees them
 * (none: {}), read-only; undefined when they cannot be read without decoding.
 */
export function storedLabels(text: string, metadataOpen: number): Readonly<Record<string, string>> | undefined {
  const labels = memberText(text, metadataOpen, 'labels');
  if (labels === undefined) return undefined;
  if (labels === null) return NO_LABELS;
  const known = parsedLabels.get(labels);
  if (known) return known;
  let v: unknown;
  try {
    v = JSON.parse(labels);
  } catch {
    return undefined;
  }
  if (v === null) return NO_LABELS;
  if (!isObject(v)) return undefined;
  if (parsedLabels.size >= PARSED_LABELS_MAX) parsedLabels.clear();
  const set = Object.freeze(v as JSONObject as Record<string, string>);
  parsedLabels.set(labels, set);
  return set;
}

/**
 * apiVersion, kind and metadata of stored JSON, parsed without the rest (a CRD's metadata is a few KB of its
 * hundreds); with `metadataKeys`, only those members of the metadata (not its managedFields and annotations, often
 * most of it). undefined when they cannot be read so.
 */
export function storedHead(text: string, metadataKeys?: ReadonlySet<string>): JSONObject | undefined {
  const apiVersion = memberText(text, 0, 'apiVersion');
  const kind = memberText(text, 0, 'kind');
  const metadata = metadataKeys ? membersText(text, memberAt(text, 0, 'metadata'), metadataKeys) : memberText(text, 0, 'metadata');
  if (!apiVersion || !kind || !metadata) return undefined;
  const head = parseJSON(`{"apiVersion":${apiVersion},"kind":${kind},"metadata":${metadata}}`);
  return isObject(head) ? head : undefined;
}

/**
 * The compact JSON object whose `{` is at `open` with only the members named in `keys`, as text; null or undefined
 * as memberAt answers (no object, or not compact JSON as expected).
 */
function membersText(text: string, open: number | null | undefined, keys: ReadonlySet<string>): string | null | undefined {
  if (typeof open !== 'number') return open;
  let out = '';
  const walked = walkMembers(text, open, (keyStart, keyEnd, _valueStart, valueEnd) => {
    const raw = text.slice(keyStart + 1, keyEnd);
    if (keys.has(raw.includes('\\') ? (JSON.parse(text.slice(keyStart, keyEnd + 1)) as string) : raw)) out += (out ? ',' : '') + text.slice(keyStart, valueEnd);
    return true;
  });
  return walked ? `{${out}}` : undefined;
}

/**
 * metadata.labels of a stored object's JSON text wherever its metadata is among the top-level members, as
 * storedLabels reads them, when every value is a string; undefined when they cannot be read so (a selector
 * would have to decode the object to know).
 */
export function labelsOfStored(text: string): Readonly<Record<string, string>> | undefined {
  const meta = memberAt(text, 0, 'metadata');
  if (meta === null) return NO_LABELS;
  if (meta === undefined) return undefined;
  const labels = storedLabels(text, meta);
  if (labels === undefined || labels === NO_LABELS) return labels;
  for (const k in labels) if (typeof labels[k] !== 'string') return undefined;
  return labels;
}
