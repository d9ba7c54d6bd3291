// kube's mutating work estimator and watch tracker, the queue set holding a write's final seats for its
// additional latency, and the debug dumps' formatting (Go's tabwriter, SeatSeconds, Duration).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listEstimate, mutatingEstimate } from '../../src/server/flowcontrol/work-estimate.js';
import { WatchTracker } from '../../src/server/flowcontrol/watch-tracker.js';
import { prng } from '../prng.js';
import { QueueSet } from '../../src/server/flowcontrol/queue-set.js';
import { rfc3339Nano, seatSecondsString } from '../../src/server/flowcontrol/debug-dump.js';
import { goDurationString } from '../../src/util/go-duration.js';
import { tabwriter } from '../../src/util/go-tabwriter.js';

const cm = { resource: 'configmaps', subresource: '' };

test('mutating estimator: fewer than 10 watchers cost nothing after; then one seat per 10 for 5 ms, reshaped past the cap', () => {
  assert.deepEqual(mutatingEstimate(cm, 0, 10), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  assert.deepEqual(mutatingEstimate(cm, 9, 10), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  assert.deepEqual(mutatingEstimate(cm, 10, 10), { initialSeats: 1, finalSeats: 1, additionalLatencyMs: 5 });
  assert.deepEqual(mutatingEstimate(cm, 25, 10), { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 });
  // 25 seats' worth of 5 ms on at most 10 seats: 12.5 ms; a level allowing 4 seats: 31.25 ms.
  assert.deepEqual(mutatingEstimate(cm, 250, 10), { initialSeats: 1, finalSeats: 10, additionalLatencyMs: 12.5 });
  assert.deepEqual(mutatingEstimate(cm, 250, 4), { initialSeats: 1, finalSeats: 4, additionalLatencyMs: 31.25 });
  // A level's cap of 0 or above kube's limit is kube's limit (10).
  assert.deepEqual(mutatingEstimate(cm, 500, 0), { initialSeats: 1, finalSeats: 10, additionalLatencyMs: 25 });
  assert.deepEqual(mutatingEstimate(cm, 500, 40), { initialSeats: 1, finalSeats: 10, additionalLatencyMs: 25 });
  // A ServiceAccount token is not watched.
  assert.deepEqual(mutatingEstimate({ resource: 'serviceaccounts', subresource: 'token' }, 500, 10), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  // Lists: one seat per 100 objects, within the cap; unknown: one.
  assert.deepEqual(listEstimate(undefined, 10), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  assert.equal(listEstimate(550, 10).initialSeats, 6);
  assert.equal(listEstimate(5000, 4).initialSeats, 4);
});

test('watch tracker: a write is seen by the resource\'s, its namespace\'s and its own watches', () => {
  const t = new WatchTracker();
  const w = (namespace: string, name = '', fieldSelector?: string) => t.register({ apiGroup: '', resource: 'configmaps', namespace, name }, fieldSelector);
  const all = w('');
  const ns = w('default');
  const other = w('kube-system');
  const byName = w('default', 'x');
  const bySelector = w('default', '', 'metadata.name=x');
  t.register({ apiGroup: 'apps', resource: 'configmaps', namespace: '', name: '' });
  const write = (namespace: string, name: string) => t.interestedCount({ apiGroup: '', resource: 'configmaps', namespace, name });
  assert.equal(write('default', 'x'), 4);
  assert.equal(write('default', 'y'), 2);
  assert.equal(write('kube-system', 'x'), 2);
  assert.equal(write('', ''), 1);
  byName();
  byName(); // once only
  bySelector();
  all();
  assert.equal(write('default', 'x'), 1);
  ns();
  other();
  assert.equal(write('default', 'x'), 0);
});

test('watch tracker: counts as a table keyed by (group, resource, namespace, name) would, over random watches; nothing left after', () => {
  const rand = prng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const t = new WatchTracker();
  const model = new Map<string, number>();
  const key = (...parts: string[]): string => JSON.stringify(parts);
  const open: { end: () => void; k: string }[] = [];
  const groups = ['', 'apps', 'stable.example.com'];
  const resources = ['configmaps', 'crontabs'];
  const namespaces = ['', 'default', 'a'];
  const names = ['', 'x', 'y'];
  for (let step = 0; step < 5000; step++) {
    if (open.length > 0 && rand() < 0.45) {
      const [w] = open.splice(Math.floor(rand() * open.length), 1);
      w!.end();
      model.set(w!.k, model.get(w!.k)! - 1);
    } else if (rand() < 0.5) {
      const info = { apiGroup: pick(groups), resource: pick(resources), namespace: pick(namespaces), name: pick(names) };
      const k = key(info.apiGroup, info.resource, info.namespace, info.name);
      open.push({ end: t.register(info), k });
      model.set(k, (model.get(k) ?? 0) + 1);
    } else {
      const w = { apiGroup: pick(groups), resource: pick(resources), namespace: pick(namespaces), name: pick(names) };
      const get = (...parts: string[]): number => model.get(key(...parts)) ?? 0;
      let want = get(w.apiGroup, w.resource, '', '');
      if (w.namespace) want += get(w.apiGroup, w.resource, w.namespace, '');
      if (w.name) want += get(w.apiGroup, w.resource, w.namespace, w.name);
      assert.equal(t.interestedCount(w), want, JSON.stringify(w));
    }
  }
  for (const w of open) w.end();
  assert.equal(t.size, 0);
  assert.equal(t.interestedCount({ apiGroup: '', resource: 'configmaps', namespace: 'default', name: 'x' }), 0);
});

test('queue set: a finished write keeps its final seats for the additional latency, holding back the next request', async () => {
  const qs = new QueueSet({ kind: 'queue', concurrencyLimit: 2, queuing: { queues: 1, handSize: 1, queueLengthLimit: 10 } });
  const write = qs.start(0n, { initialSeats: 1, finalSeats: 2, additionalLatencyMs: 80 });
  assert.ok('ticket' in write);
  assert.equal(qs.stats.seatsInUse, 2);
  const next = qs.start(0n, 1);
  assert.ok('waiting' in next);
  let dispatchedAt = 0;
  void next.waiting.then(() => (dispatchedAt = performance.now()));
  const finished = performance.now();
  write.ticket.finish();
  // Done executing, yet its two seats are still taken.
  assert.deepEqual(qs.stats, { executing: 0, seatsInUse: 2, waiting: 1 });
  const dump = qs.dump();
  assert.equal(dump.queues[0]!.seatsInUse, 2);
  assert.equal(dump.queues[0]!.executingCount, 0);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(dispatchedAt, 0);
  const ticket = await next.waiting;
  assert.ok(ticket);
  assert.ok(dispatchedAt - finished >= 70, `dispatched ${dispatchedAt - finished} ms after the write finished`);
  assert.deepEqual(qs.stats, { executing: 1, seatsInUse: 1, waiting: 0 });
  ticket.finish();
  assert.equal(qs.idle, true);
  assert.equal(qs.stats.seatsInUse, 0);
  assert.equal(qs.dump().dispatched, 2);
});

test('queue set: without additional latency the seats come back at once; a write charges R for its final work', () => {
  const qs = new QueueSet({ kind: 'queue', concurrencyLimit: 1, queuing: { queues: 1, handSize: 1, queueLengthLimit: 10 } });
  const a = qs.start(0n, 1);
  const b = qs.start(0n, { initialSeats: 1, finalSeats: 1, additionalLatencyMs: 5 });
  assert.ok('ticket' in a && 'waiting' in b);
  const q = qs.dump().queues[0]!;
  assert.equal(q.initialSeatsSum, 1);
  assert.equal(q.maxSeatsSum, 1);
  assert.equal(seatSecondsString(q.totalWorkSum), '3.00500000ss');
  a.ticket.finish();
  assert.deepEqual(qs.stats, { executing: 1, seatsInUse: 1, waiting: 0 });
});

test('debug formatting: Go\'s tabwriter, SeatSeconds, Duration and RFC 3339 strings', () => {
  assert.equal(
    tabwriter('PriorityLevelName,\tActiveQueues,\tIsIdle\nexempt,\t0,\ttrue\nworkload-low,\t12,\tfalse\n'),
    'PriorityLevelName, ActiveQueues, IsIdle\nexempt,            0,            true\nworkload-low,      12,           false\n',
  );
  // A column is at least 8 wide (minwidth), cells padded by one.
  assert.equal(tabwriter('a,\tb,\tc\n'), 'a,      b,      c\n');
  assert.equal(seatSecondsString(0), '0.00000000ss');
  assert.equal(seatSecondsString(12.5), '12.50000000ss');
  assert.equal(goDurationString(0n), '0s');
  assert.equal(goDurationString(5_000_000n), '5ms');
  assert.equal(goDurationString(12_500_000n), '12.5ms');
  assert.equal(goDurationString(1_500n), '1.5µs');
  assert.equal(goDurationString(3_723_500_000_000n), '1h2m3.5s');
  assert.equal(rfc3339Nano(new Date('2026-11-26T17:00:00.120Z')), '2026-11-26T17:00:00.12Z');
  assert.equal(rfc3339Nano(new Date('2026-11-26T17:00:00.000Z')), '2026-11-26T17:00:00Z');
  assert.equal(rfc3339Nano(undefined), '0001-01-01T00:00:00Z');
});
