// The event expiry controller on a fake clock: an event goes TTL after the write the controller saw, a
// later write moves its time, and events found at start-up are timed from their newest timestamp.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../src/api/status.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { eventKind } from '../../src/apis/core/v1/event.js';
import { EventTtlController } from '../../src/controllers/event-ttl.js';
import { GenericStore } from '../../src/registry/store.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { FakeClock } from './fake-clock.js';

const MINUTE = 60_000;
const TTL = 60 * MINUTE;

async function setup(startAt: number) {
  const kv = openSqliteStore(':memory:');
  const events = new GenericStore(kv, builtinResourceType(eventKind));
  const clock = new FakeClock(startAt);
  const errors: unknown[] = [];
  const ttl = new EventTtlController(events, { clock, ttlMs: TTL, onError: (_k, e) => errors.push(e) });
  return { kv, events, clock, ttl, errors };
}

const event = (name: string) => ({ apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject: { kind: 'CronTab', namespace: 'default', name: 'c' }, reason: 'R' });

const exists = (events: GenericStore, name: string): Promise<boolean> =>
  events.get('default', name).then(
    () => true,
    (e: unknown) => (e instanceof S.StatusError && e.code === 404 ? false : Promise.reject(e)),
  );

/** Moves the clock and lets the controller act on what fell due. */
async function advance(clock: FakeClock, ttl: EventTtlController, ms: number): Promise<void> {
  clock.advance(ms);
  await new Promise((r) => setImmediate(r));
  await ttl.controller.idle();
}

test('event ttl: an event goes TTL after its last write; a write starts the time again', async () => {
  const { kv, events, clock, ttl, errors } = await setup(Date.now());
  await ttl.start();
  await events.create('default', event('a'));
  await events.create('default', event('b'));
  await new Promise((r) => setTimeout(r, 50)); // the informer's watch delivers the writes
  await advance(clock, ttl, 40 * MINUTE);
  await events.update('default', 'b', (cur) => ({ ...cur!, count: 2 }), '');
  await new Promise((r) => setTimeout(r, 50));
  await advance(clock, ttl, 21 * MINUTE);
  assert.equal(await exists(events, 'a'), false);
  assert.equal(await exists(events, 'b'), true);
  await advance(clock, ttl, 40 * MINUTE);
  assert.equal(await exists(events, 'b'), false);
  assert.deepEqual(errors, []);
  ttl.stop();
  await kv.close();
});

test('event ttl: events stored before the start are timed from their newest timestamp', async () => {
  const { kv, events, clock, ttl } = await setup(Date.now() + 30 * MINUTE);
  await events.create('default', event('old'));
  await ttl.start();
  await advance(clock, ttl, 29 * MINUTE);
  assert.equal(await exists(events, 'old'), true);
  await advance(clock, ttl, 2 * MINUTE);
  assert.equal(await exists(events, 'old'), false);
  ttl.stop();
  await kv.close();
});
