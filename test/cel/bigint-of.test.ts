// bigintOf keeps the BigInts of small integers (each made on its first use) and makes the rest anew: BigInt(n)
// either way, on both edges of the kept range and when asked again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bigintOf } from '../../src/cel/value-ops.js';

test('bigintOf is BigInt(n), inside and outside the kept range, first and later', () => {
  for (const n of [-257, -256, -1, 0, 1, 42, 4095, 4096, 2 ** 40, -(2 ** 40), Number.MAX_SAFE_INTEGER]) {
    assert.equal(bigintOf(n), BigInt(n), String(n));
    assert.equal(bigintOf(n), bigintOf(n), String(n));
  }
});
