// Leader election on a Lease, with two candidates on one store and short timings: one leads; the other takes
// over at once when the leader releases the Lease, and after the lease duration when the leader goes silent;
// a leader that cannot renew for the renew deadline steps down; client-go's checks of the timings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { leaseKind } from '../../src/apis/coordination/v1/lease.js';
import { LeaderElector, followLeadership, validateLeaderElection, microTime, type Leadership } from '../../src/controllers/leader-election.js';
import { GenericStore } from '../../src/registry/store.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import * as S from '../../src/api/status.js';

const TIMING = { leaseDurationMs: 1_500, renewDeadlineMs: 1_000, retryPeriodMs: 50 };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function candidate(leases: GenericStore, identity: string, log: string[]): LeaderElector {
  return new LeaderElector({
    ...TIMING,
    leases,
    namespace: 'kube-system',
    name: 'test-lock',
    identity,
    onStartedLeading: () => void log.push(`${identity} started`),
    onStoppedLeading: () => void log.push(`${identity} stopped`),
    onError: () => {},
  });
}

test('one leads; a released Lease is taken at once, a silent one after the lease duration', async () => {
  const kv = openSqliteStore(':memory:');
  const leases = new GenericStore(kv, builtinResourceType(leaseKind));
  const log: string[] = [];
  const a = candidate(leases, 'a_1', log);
  const b = candidate(leases, 'b_2', log);
  await a.start();
  await b.start();
  assert.equal(a.isLeader, true);
  assert.equal(b.isLeader, false);
  const lease = await leases.get('kube-system', 'test-lock');
  assert.equal((lease['spec'] as { holderIdentity: string }).holderIdentity, 'a_1');
  assert.match((lease['spec'] as { renewTime: string }).renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  // A clean stop releases the Lease: b takes it at its next attempt, well within the lease duration.
  const t0 = Date.now();
  await a.stop();
  while (!b.isLeader && Date.now() - t0 < 5_000) await sleep(10);
  assert.equal(b.isLeader, true);
  assert.ok(Date.now() - t0 < TIMING.leaseDurationMs, `took ${Date.now() - t0} ms`);
  assert.equal(((await leases.get('kube-system', 'test-lock'))['spec'] as { leaseTransitions: number }).leaseTransitions, 1);
  // A new candidate waits while b renews.
  const c = candidate(leases, 'c_3', log);
  await c.start();
  await sleep(2 * TIMING.leaseDurationMs);
  assert.equal(c.isLeader, false);
  assert.deepEqual(log, ['a_1 started', 'a_1 stopped', 'b_2 started']);
  await b.stop();
  await c.stop();
  await kv.close();
});

test('a leader that cannot renew steps down after the renew deadline, before another may take over', async () => {
  const kv = openSqliteStore(':memory:');
  const leases = new GenericStore(kv, builtinResourceType(leaseKind));
  let failing = false;
  // The store refuses the leader's writes while "failing" (as an unreachable etcd would).
  const flaky = new Proxy(leases, {
    get(target, prop, receiver) {
      if (prop === 'update' && failing) return () => Promise.reject(S.internal('etcdserver: request timed out'));
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const log: string[] = [];
  const a = candidate(flaky, 'a_1', log);
  await a.start();
  assert.equal(a.isLeader, true);
  failing = true;
  const t0 = Date.now();
  while (a.isLeader && Date.now() - t0 < 5_000) await sleep(10);
  const after = Date.now() - t0;
  assert.equal(a.isLeader, false);
  assert.ok(after >= TIMING.renewDeadlineMs - TIMING.retryPeriodMs, `stepped down after ${after} ms`);
  assert.deepEqual(log, ['a_1 started', 'a_1 stopped']);
  // The other candidate takes the Lease only once it has been silent for the lease duration.
  const b = candidate(leases, 'b_2', log);
  await b.start();
  assert.equal(b.isLeader, false, 'the Lease was renewed moments ago');
  const t1 = Date.now();
  while (!b.isLeader && Date.now() - t1 < 5_000) await sleep(10);
  assert.equal(b.isLeader, true);
  await a.stop();
  await b.stop();
  await kv.close();
});

test("client-go's checks of the timings; MicroTime with six digits", () => {
  assert.equal(validateLeaderElection({ leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }), 'leaseDuration must be greater than renewDeadline');
  assert.equal(validateLeaderElection({ leaseDurationMs: 15_000, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 }), 'renewDeadline must be greater than retryPeriod*JitterFactor');
  assert.equal(validateLeaderElection({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }), undefined);
  assert.equal(microTime(Date.UTC(2026, 10, 26, 1, 2, 3, 45)), '2026-11-26T01:02:03.045000Z');
});

test("followLeadership runs its controllers while the followed leadership leads, and not after it is stopped", async () => {
  const listeners = new Set<(leading: boolean) => void>();
  let leading = false;
  const leader: Leadership & { set(v: boolean): void } = {
    get isLeader() {
      return leading;
    },
    onChange: (l) => (listeners.add(l), () => listeners.delete(l)),
    set(v) {
      leading = v;
      for (const l of [...listeners]) l(v);
    },
  };
  const log: string[] = [];
  let n = 0;
  const start = async () => {
    const term = ++n;
    log.push(`start ${term}`);
    return [{ stop: () => void log.push(`stop ${term}`) }];
  };
  const followed = await followLeadership(leader, start);
  assert.equal(followed.leading, false);
  assert.deepEqual(log, []);
  leader.set(true);
  await sleep(0);
  assert.equal(followed.leading, true);
  leader.set(false);
  leader.set(true);
  await sleep(0);
  assert.deepEqual(log, ['start 1', 'stop 1', 'start 2']);
  await followed.stopped();
  assert.equal(listeners.size, 0);
  leader.set(false);
  leader.set(true);
  await sleep(0);
  assert.deepEqual(log, ['start 1', 'stop 1', 'start 2', 'stop 2']);
  // Leading already: the first term's start is awaited.
  const again = await followLeadership(leader, start);
  assert.equal(again.leading, true);
  assert.equal(log.at(-1), 'start 3');
  again.stop();
});
