import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Controller, RequeueAfter, failureLine } from '../../src/controllers/controller.js';
import * as S from '../../src/api/status.js';
import { ExponentialFailureRateLimiter } from '../../src/controllers/rate-limiter.js';
import { FakeClock, flush } from './fake-clock.js';

test('controller: syncs each enqueued key; idle resolves when done', async () => {
  const seen: string[] = [];
  const c = new Controller({ name: 't', clock: new FakeClock(), sync: async (key) => void seen.push(key) });
  c.enqueue('a');
  c.enqueue('b');
  c.enqueue('a');
  c.run();
  await c.idle();
  assert.deepEqual(seen, ['a', 'b']);
  await c.stop();
});

test('controller: a failing key is retried with growing backoff; success forgets it', async () => {
  const clock = new FakeClock();
  let failures = 3;
  const errors: string[] = [];
  const c = new Controller({
    name: 't',
    clock,
    rateLimiter: new ExponentialFailureRateLimiter(5, 1000),
    onError: (key, err) => errors.push(`${key}: ${(err as Error).message}`),
    sync: async () => {
      if (failures-- > 0) throw new Error('not yet');
    },
  });
  c.run();
  c.enqueue('k');
  await c.idle();
  assert.deepEqual(clock.pending(), [5]);
  clock.advance(5);
  await c.idle();
  assert.deepEqual(clock.pending(), [10]);
  clock.advance(10);
  await c.idle();
  assert.deepEqual(clock.pending(), [20]);
  assert.equal(c.queue.numRequeues('k'), 3);
  clock.advance(20);
  await c.idle();
  assert.deepEqual(clock.pending(), []);
  assert.equal(c.queue.numRequeues('k'), 0);
  assert.equal(errors.length, 3);
  assert.equal(errors[0], 'k: not yet');
  await c.stop();
});

test('controller: RequeueAfter brings the key back after its delay, without backoff or error', async () => {
  const clock = new FakeClock();
  let runs = 0;
  const errors: unknown[] = [];
  const c = new Controller({
    name: 't',
    clock,
    onError: (_k, e) => errors.push(e),
    sync: async () => {
      if (++runs < 3) throw new RequeueAfter(500);
    },
  });
  c.run();
  c.enqueue('ns');
  await c.idle();
  assert.deepEqual(clock.pending(), [500]);
  clock.advance(500);
  await c.idle();
  assert.deepEqual(clock.pending(), [500]);
  clock.advance(500);
  await c.idle();
  assert.equal(runs, 3);
  assert.deepEqual(clock.pending(), []);
  assert.deepEqual(errors, []);
  await c.stop();
});

test('controller: a key enqueued during its sync is synced again after, never concurrently', async () => {
  let active = 0;
  let maxActive = 0;
  let runs = 0;
  let release!: () => void;
  const c = new Controller({
    name: 't',
    clock: new FakeClock(),
    workers: 4,
    sync: async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      runs++;
      if (runs === 1) await new Promise<void>((r) => (release = r));
      active--;
    },
  });
  c.run();
  c.enqueue('k');
  await flush();
  c.enqueue('k');
  c.enqueue('k');
  await flush();
  assert.equal(runs, 1);
  release();
  await c.idle();
  assert.equal(runs, 2);
  assert.equal(maxActive, 1);
  await c.stop();
});

test('controller: workers run different keys at once', async () => {
  const started: string[] = [];
  const releases: Array<() => void> = [];
  const c = new Controller({
    name: 't',
    clock: new FakeClock(),
    workers: 2,
    sync: (key) => {
      started.push(key);
      return new Promise<void>((r) => releases.push(r));
    },
  });
  c.run();
  c.enqueue('a');
  c.enqueue('b');
  c.enqueue('c');
  await flush();
  assert.deepEqual(started, ['a', 'b']);
  releases.shift()!();
  await flush();
  assert.deepEqual(started, ['a', 'b', 'c']);
  for (const r of releases) r();
  await c.idle();
  await c.stop();
});

test('controller: stop aborts waiting syncs and ends the workers', async () => {
  let aborted = false;
  const c = new Controller({
    name: 't',
    clock: new FakeClock(),
    sync: (_key, signal) =>
      new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => {
          aborted = true;
          resolve();
        }),
      ),
  });
  c.run();
  c.enqueue('k');
  await flush();
  await c.stop();
  assert.equal(aborted, true);
  c.enqueue('again');
  assert.equal(c.queue.len(), 0);
});

test('controller: a failed sync is one line for an API error (a conflict is routine), the stack for anything else', () => {
  const conflict = S.conflict({ group: 'rbac.authorization.k8s.io', resource: 'clusterroles' }, 'edit', S.OPTIMISTIC_LOCK_MESSAGE);
  assert.equal(
    failureLine('clusterrole-aggregation', 'edit', conflict),
    'clusterrole-aggregation: edit failed with : Operation cannot be fulfilled on clusterroles.rbac.authorization.k8s.io "edit": the object has been modified; please apply your changes to the latest version and try again',
  );
  const bug = new TypeError('x is undefined');
  const line = failureLine('gc', 'k', bug);
  assert.ok(line.startsWith('gc: k failed with : TypeError: x is undefined\n    at '), line);
});
