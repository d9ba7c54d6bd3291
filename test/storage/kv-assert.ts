// node:assert/strict, with deepEqual and deepStrictEqual comparing key-values by their fields: the watch cache
// hands out SlabValues (value-slabs.ts), whose value is a getter on their class, not a plain object's member.
import strict from 'node:assert/strict';
import type { KeyValue } from '../../src/storage/types.js';
import { inSlabs } from '../../src/storage/value-slabs.js';

/** x with every cached key-value in it as a plain object of its fields (others as they are). */
export function plain(x: unknown): unknown {
  if (x !== null && typeof x === 'object' && 'key' in x && inSlabs(x as KeyValue)) {
    const y = x as KeyValue;
    const kv = { key: y.key, value: y.value, createRevision: y.createRevision, modRevision: y.modRevision };
    return y.stale ? { ...kv, stale: true } : kv;
  }
  if (Array.isArray(x)) return x.map(plain);
  if (x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) {
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
  }
  return x;
}

const deepEqual = (actual: unknown, expected: unknown, message?: string | Error): void => strict.deepStrictEqual(plain(actual), plain(expected), message);
const notDeepEqual = (actual: unknown, expected: unknown, message?: string | Error): void => strict.notDeepStrictEqual(plain(actual), plain(expected), message);

const assert: typeof strict = Object.assign((value: unknown, message?: string | Error) => strict(value, message), strict, {
  deepEqual,
  deepStrictEqual: deepEqual,
  notDeepEqual,
  notDeepStrictEqual: notDeepEqual,
}) as typeof strict;

export default assert;
