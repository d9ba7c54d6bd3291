import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExponentialFailureRateLimiter } from '../../src/controllers/rate-limiter.js';

test('rate limiter: client-go defaults, 5 ms doubling per failure up to 1000 s', () => {
  const r = new ExponentialFailureRateLimiter();
  assert.deepEqual([r.when('a'), r.when('a'), r.when('a'), r.when('a')], [5, 10, 20, 40]);
  assert.equal(r.numRequeues('a'), 4);
  for (let i = 0; i < 100; i++) r.when('a');
  assert.equal(r.when('a'), 1_000_000);
});

test('rate limiter: keys back off on their own, and forget starts a key over', () => {
  const r = new ExponentialFailureRateLimiter(1, 8);
  r.when('a');
  r.when('a');
  assert.equal(r.when('b'), 1);
  assert.equal(r.when('a'), 4);
  assert.equal(r.when('a'), 8);
  assert.equal(r.when('a'), 8);
  r.forget('a');
  assert.equal(r.numRequeues('a'), 0);
  assert.equal(r.when('a'), 1);
  assert.equal(r.numRequeues('b'), 1);
});
