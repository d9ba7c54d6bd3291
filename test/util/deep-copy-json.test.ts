// deepCopyJSON copies the current object of every update, patch and delete (and patches, applied objects) in place
// of structuredClone, about ten times faster on a CronTab: over random JSON values as request bodies and stored
// objects decode them (bigints, `__proto__` and integer-like keys, unicode, deep nesting, frozen sources) it must
// give what structuredClone gives, in the same key order, sharing nothing with its source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepCopyJSON } from '../../src/util/json.js';
import { parseJSON, stringifyJSON } from '../../src/util/json-int64.js';
import { prng } from '../prng.js';

const KEYS = ['a', 'spec', '__proto__', '0', '10', '2', 'ü', 'x-y', '', 'constructor', 'toString', 'metadata'];

function randomValue(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 6 || r < 0.3) {
    const s = rand();
    if (s < 0.2) return null;
    if (s < 0.35) return rand() < 0.5;
    if (s < 0.55) return Math.round((rand() - 0.5) * 1e6) / (rand() < 0.5 ? 1 : 100);
    if (s < 0.65) return 12345678901234567890n * (rand() < 0.5 ? 1n : -1n);
    return KEYS[Math.floor(rand() * KEYS.length)]! + '✓'.repeat(Math.floor(rand() * 3));
  }
  if (r < 0.55) return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
  // As parsed JSON: `__proto__` an own member.
  const members = Array.from({ length: Math.floor(rand() * 5) }, () => `"${KEYS[Math.floor(rand() * KEYS.length)]}":${stringifyJSON(randomValue(rand, depth + 1))}`);
  return parseJSON(`{${members.join(',')}}`);
}

function objects(v: unknown, into = new Set<object>()): Set<object> {
  if (v !== null && typeof v === 'object') {
    into.add(v);
    for (const k of Object.keys(v)) objects((v as Record<string, unknown>)[k], into);
  }
  return into;
}

function deepFreeze(v: unknown): void {
  if (v === null || typeof v !== 'object') return;
  Object.freeze(v);
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
}

test('deepCopyJSON gives what structuredClone gives over 5,000 random JSON values, sharing nothing', () => {
  const rand = prng(7);
  for (let i = 0; i < 5_000; i++) {
    const v = randomValue(rand, 0);
    if (i % 3 === 0) deepFreeze(v);
    const copy = deepCopyJSON(v);
    const clone = structuredClone(v);
    assert.deepStrictEqual(copy, clone);
    assert.equal(stringifyJSON(copy), stringifyJSON(v));
    const source = objects(v);
    const shared = [...objects(copy)].filter((o) => source.has(o));
    assert.equal(shared.length, 0, 'no object shared with the source');
    for (const o of objects(copy)) assert.ok(!Object.isFrozen(o), 'a copy is not frozen');
  }
});
