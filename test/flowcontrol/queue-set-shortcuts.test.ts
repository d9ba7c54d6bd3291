// The queue set's shortcuts (a request dispatched at once when nothing waits; the inputs of virtual time kept
// as requests come and go) must leave it exactly as the general path does: the same random runs, with a fake
// clock, with and without them, compared step by step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueSet, queueSetShortcuts, type QueueSetConfig, type RequestObserver, type StartResult, type Ticket } from '../../src/server/flowcontrol/queue-set.js';
import { hashFlowID } from '../../src/server/flowcontrol/shuffle-sharding.js';
import { prng } from '../storage/helpers.js';

const FLOWS = ['a', 'b', 'c', 'd', 'e'].map((u) => hashFlowID('fs', u));

function config(limit: number, queues: number): QueueSetConfig {
  return { kind: 'queue', concurrencyLimit: limit, queuing: { queues, handSize: Math.min(2, queues), queueLengthLimit: 3 } };
}

/** One run: what the queue set showed after each step, and what its observers were told. */
async function run(seed: number, shortcuts: boolean): Promise<string[]> {
  queueSetShortcuts(shortcuts);
  try {
    const rnd = prng(seed);
    let now = 0;
    const qs = new QueueSet(config(3, 8), () => now);
    const log: string[] = [];
    const observer: RequestObserver = {
      queued: (d, n) => log.push(`queued ${d} ${n}`),
      executing: (d, n) => log.push(`executing ${d} ${n}`),
      released: (n) => log.push(`released ${n}`),
      rejected: (r) => log.push(`rejected ${r}`),
    };
    const running: Ticket[] = [];
    const waiting: Extract<StartResult, { waiting: unknown }>[] = [];
    for (let step = 0; step < 400; step++) {
      const x = rnd();
      if (x < 0.45) {
        const seats = 1 + Math.floor(rnd() * 2);
        const r = qs.start(FLOWS[Math.floor(rnd() * FLOWS.length)]!, seats, undefined, observer);
        if ('ticket' in r) running.push(r.ticket);
        else if ('waiting' in r) {
          waiting.push(r);
          void r.waiting.then((t) => t && running.push(t));
        }
        log.push(`start ${Object.keys(r)[0]}`);
      } else if (x < 0.8) {
        const t = running.splice(Math.floor(rnd() * running.length), 1)[0];
        t?.finish();
      } else if (x < 0.88) {
        waiting.splice(Math.floor(rnd() * waiting.length), 1)[0]?.cancel();
      } else if (x < 0.97) {
        now += Math.floor(rnd() * 2000);
      } else {
        qs.configure(config(1 + Math.floor(rnd() * 4), 4 + Math.floor(rnd() * 8)));
      }
      // Dispatched waiters' tickets arrive through their promises.
      for (let i = 0; i < 3; i++) await Promise.resolve();
      const d = qs.dump();
      log.push(
        JSON.stringify({
          queues: d.queues.map((q) => [q.index, q.nextDispatchR, q.waiting.length, q.executingCount, q.seatsInUse, q.maxSeatsSum]),
          stats: qs.stats,
          counts: [d.dispatched, d.rejected, d.cancelled, d.waiting, d.executing],
          demand: qs.takeDemandStats(),
        }),
      );
    }
    return log;
  } finally {
    queueSetShortcuts(true);
  }
}

test('queue set: the shortcuts leave it as the general path does, step by step', async () => {
  for (const seed of [1, 2, 3, 42, 1234]) {
    const general = await run(seed, false);
    const fast = await run(seed, true);
    assert.equal(fast.length, general.length);
    for (let i = 0; i < general.length; i++) assert.equal(fast[i], general[i], `seed ${seed}, line ${i}`);
    // The runs did dispatch at once, queue, refuse and move R.
    const all = general.join('\n');
    for (const seen of ['start ticket', 'start waiting', 'rejected queue-full', 'queued -1']) assert.ok(all.includes(seen), `seed ${seed}: no ${seen}`);
  }
});
