import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkQueue } from '../../src/controllers/work-queue.js';
import { ExponentialFailureRateLimiter } from '../../src/controllers/rate-limiter.js';
import { FakeClock, flush } from './fake-clock.js';

test('work queue: keys come out in order, each once however often added', async () => {
  const q = new WorkQueue({ clock: new FakeClock() });
  q.add('a');
  q.add('b');
  q.add('a');
  assert.equal(q.len(), 2);
  assert.equal(await q.get(), 'a');
  assert.equal(await q.get(), 'b');
  assert.equal(q.len(), 0);
});

test('work queue: a key added while processing is held back, then processed again after done', async () => {
  const q = new WorkQueue({ clock: new FakeClock() });
  q.add('a');
  const key = await q.get();
  assert.equal(key, 'a');
  q.add('a');
  q.add('a');
  // Not handed to a second worker while the first has it.
  assert.equal(q.len(), 0);
  let second: string | undefined;
  void q.get().then((k) => (second = k));
  await flush();
  assert.equal(second, undefined);
  q.done('a');
  await flush();
  assert.equal(second, 'a');
  q.done('a');
  assert.ok(q.isIdle());
});

test('work queue: a waiting get is answered by the next add', async () => {
  const q = new WorkQueue({ clock: new FakeClock() });
  const got = q.get();
  q.add('x');
  assert.equal(await got, 'x');
});

test('work queue: addAfter waits on the clock and keeps the earliest time per key', async () => {
  const clock = new FakeClock();
  const q = new WorkQueue({ clock });
  q.addAfter('a', 100);
  q.addAfter('a', 50);
  q.addAfter('a', 200);
  q.addAfter('b', 0);
  assert.equal(q.len(), 1);
  assert.deepEqual(clock.pending(), [50]);
  clock.advance(49);
  assert.equal(q.len(), 1);
  clock.advance(1);
  assert.equal(q.len(), 2);
  assert.deepEqual(clock.pending(), []);
  assert.equal(await q.get(), 'b');
  assert.equal(await q.get(), 'a');
});

test('work queue: addRateLimited backs off per key until forget', () => {
  const clock = new FakeClock();
  const q = new WorkQueue({ clock, rateLimiter: new ExponentialFailureRateLimiter(5, 1000) });
  q.addRateLimited('a');
  assert.deepEqual(clock.pending(), [5]);
  clock.advance(5);
  q.addRateLimited('a');
  q.addRateLimited('b');
  // 'a' waits 10 ms on its second failure; 'b' starts over at 5.
  assert.deepEqual(clock.pending(), [5, 10]);
  assert.equal(q.numRequeues('a'), 2);
  q.forget('a');
  assert.equal(q.numRequeues('a'), 0);
});

test('work queue: idle waits for queued and processing keys, not for delayed ones', async () => {
  const clock = new FakeClock();
  const q = new WorkQueue({ clock });
  q.addAfter('later', 1000);
  let idle = false;
  await q.idle();
  q.add('a');
  void q.idle().then(() => (idle = true));
  const key = (await q.get())!;
  await flush();
  assert.equal(idle, false);
  q.done(key);
  await flush();
  assert.equal(idle, true);
  assert.equal(q.processed, 1);
});

test('work queue: shutDown answers waiting gets, drops queued and delayed keys and ignores adds', async () => {
  const clock = new FakeClock();
  const q = new WorkQueue({ clock });
  const waiting = q.get();
  q.shutDown();
  assert.equal(await waiting, undefined);
  q.add('a');
  q.addAfter('b', 10);
  assert.equal(q.len(), 0);
  assert.deepEqual(clock.pending(), []);
  assert.equal(await q.get(), undefined);

  const q2 = new WorkQueue({ clock });
  q2.add('x');
  q2.addAfter('y', 10);
  q2.shutDown();
  assert.deepEqual(clock.pending(), []);
  assert.equal(await q2.get(), undefined);
});
