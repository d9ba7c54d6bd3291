// A cached value's labels for the label index, read from its bytes in the slabs (labelPairsOfBytes) rather
// than from its text, which would be a fresh string of the whole value (~1.5 KB) per object read.
import { jsonValueEnd, labelPairsOfBytes, type LabelPairs } from '../util/stored-json-bytes.js';
import { labelsOfStored } from '../util/stored-json.js';
import type { KeyValue } from './types.js';
import { copyAscii, readUtf8Bytes } from './value-slabs.js';

/** Where a value with a shared part is put together to be read: reused, grown up to JOINED_MAX. */
let joined = Buffer.allocUnsafeSlow(16 * 1024);
/** Larger values with a shared part are read from their text, not kept a scratch buffer of their size. */
const JOINED_MAX = 1024 * 1024;

/** Whether each shared part is one whole JSON array or object, told once per part. */
const whole = new WeakMap<Buffer, boolean>();

function wholeValue(shared: Buffer): boolean {
  let known = whole.get(shared);
  if (known === undefined) whole.set(shared, (known = jsonValueEnd(shared, 0, shared.length) === shared.length));
  return known;
}

/** The labels of a value's bytes: `length` of them in buf from `start`, with `shared` missing at `sharedAt`. */
function fromBytes(buf: Buffer, start: number, length: number, shared: Buffer | undefined, sharedAt: number): LabelPairs | undefined {
  if (shared === undefined) return labelPairsOfBytes(buf, start, start + length);
  // The shared part (managedFields) sits inside metadata, which is read to its end. Where it is one whole
  // JSON value (as written, always), the slab's bytes are read with the walk stepping over it.
  if (wholeValue(shared)) {
    const pairs = labelPairsOfBytes(buf, start, start + length, start + sharedAt);
    if (pairs !== undefined) return pairs;
  }
  // Otherwise one copy of the whole value (~1.5 KB, native) to read.
  const total = length + shared.length;
  if (total > JOINED_MAX) return undefined;
  if (joined.length < total) joined = Buffer.allocUnsafeSlow(Math.min(JOINED_MAX, Math.max(total, joined.length * 2)));
  copyAscii({ buf, start, length: total, shared, sharedAt }, joined, 0, 0, total);
  return labelPairsOfBytes(joined, 0, total);
}

/** kv's labels read from its bytes in a slab; undefined when they are not in a slab or must be read from the text. */
export function labelPairsInSlab(kv: KeyValue): LabelPairs | undefined {
  return readUtf8Bytes(kv, fromBytes);
}

/** Records of label sets read from bytes (frozen and shared by the objects with the set), for a selector. */
const records = new WeakMap<LabelPairs, Readonly<Record<string, string>>>();

/** The labels as a record (as labelsOfStored gives them), frozen; one per set read from bytes. */
export function labelRecord(pairs: LabelPairs): Readonly<Record<string, string>> {
  let rec = records.get(pairs);
  if (rec === undefined) {
    const entries: [string, string][] = [];
    for (let i = 0; i < pairs.length; i += 2) entries.push([pairs[i]!, pairs[i + 1]!]);
    // fromEntries makes each an own property, `__proto__` too, as JSON.parse does.
    rec = Object.freeze(Object.fromEntries(entries));
    if (Object.isFrozen(pairs)) records.set(pairs, rec);
  }
  return rec;
}

/** labelsOfStored's labels as pairs. */
function pairsOf(labels: Readonly<Record<string, string>>): LabelPairs {
  const out: string[] = [];
  for (const name in labels) out.push(name, labels[name]!);
  return out;
}

/**
 * The labels a selector would see, read from the stored value (labelsOfStored), as pairs; undefined when
 * they cannot be read without decoding the object. From the slab's bytes where they read plainly.
 */
export function storedLabelPairs(kv: KeyValue): LabelPairs | undefined {
  const fast = labelPairsInSlab(kv);
  if (fast !== undefined) return fast;
  const labels = labelsOfStored(kv.value);
  return labels === undefined ? undefined : pairsOf(labels);
}
