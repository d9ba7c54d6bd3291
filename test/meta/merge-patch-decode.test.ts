// A merge patch under Warn or Strict field validation is decoded once: the strict check's map is the patch. That
// is exact only if the map the strict decoding gives is the value MergePatch's own decoding gives, whenever the
// strict decoding takes the body: checked over random bodies (duplicate keys, big and float numbers, escapes,
// nesting, a null or a non-object top level) against the two decodings kube runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GoJsonError, goAny, goMap, goUnmarshal } from '../../src/util/go-json.js';
import { decodePatch, MERGE_PATCH } from '../../src/registry/patch.js';
import { StatusError } from '../../src/api/status.js';
import { prng } from '../prng.js';

const KEYS = ['a', 'b', 'A', 'spec', 'replicas', '\\u0061', 'é', '__proto__', '1'];
const NUMBERS = ['0', '-0', '1.0', '1e3', '12345678901234567890', '-9223372036854775809', '1e400', '0.1', '5e-324', '18446744073709551616'];

function value(rand: () => number, depth: number): string {
  const r = rand();
  if (depth > 4 || r < 0.35) {
    const s = rand();
    if (s < 0.15) return 'null';
    if (s < 0.25) return rand() < 0.5 ? 'true' : 'false';
    if (s < 0.6) return NUMBERS[Math.floor(rand() * NUMBERS.length)]!;
    return JSON.stringify(KEYS[Math.floor(rand() * KEYS.length)]!).replace('a', '\\u0061');
  }
  if (r < 0.5) return `[${Array.from({ length: Math.floor(rand() * 3) }, () => value(rand, depth + 1)).join(',')}]`;
  return object(rand, depth + 1);
}

function object(rand: () => number, depth: number): string {
  // Keys may repeat: Go keeps the last, strict decoding reports the duplicates.
  return `{${Array.from({ length: Math.floor(rand() * 4) }, () => `"${KEYS[Math.floor(rand() * KEYS.length)]}":${value(rand, depth)}`).join(',')}}`;
}

const shown = (v: unknown): string => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));

test('the strict decoding\'s map is MergePatch\'s patch, and decodePatch answers as the two decodings did', () => {
  const rand = prng(23);
  let taken = 0;
  for (let i = 0; i < 5_000; i++) {
    const body = i % 50 === 0 ? value(rand, 5) : i % 97 === 0 ? 'null' : object(rand, 0);
    let strict: { value: unknown; strictErrors: string[] } | undefined;
    try {
      strict = goUnmarshal(body, goMap, { strict: true, float64Range: true });
    } catch (e) {
      assert.ok(e instanceof GoJsonError, String(e));
    }
    const got = decodePatch(MERGE_PATCH, body, 'Warn');
    if (strict === undefined) {
      assert.ok(got instanceof StatusError && got.status.message!.startsWith('error decoding patch: '), body);
      continue;
    }
    taken++;
    const patch = goUnmarshal(body, goAny).value;
    assert.equal(shown(strict.value), shown(patch), body);
    assert.ok(!(got instanceof StatusError));
    assert.deepStrictEqual(got, { type: MERGE_PATCH, patch, strictErrors: strict.strictErrors }, body);
  }
  assert.ok(taken > 3_000, `${taken} bodies taken`);
});
