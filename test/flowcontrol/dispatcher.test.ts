// API Priority and Fairness: matching, shuffle sharding, fair queuing and configuration digestion, with a
// fake clock (no timing in the assertions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchesFlowSchema } from '../../src/server/flowcontrol/match.js';
import { dealHand, hashFlowID } from '../../src/server/flowcontrol/shuffle-sharding.js';
import { QueueSet, type Ticket } from '../../src/server/flowcontrol/queue-set.js';
import { Dispatcher, type MandatoryConfiguration } from '../../src/server/flowcontrol/dispatcher.js';
import { DroppedRequests } from '../../src/server/flowcontrol/dropped-requests.js';
import type { FlowSchema, PriorityLevelConfiguration } from '../../src/server/flowcontrol/types.js';
import { requestInfo } from '../../src/server/request-info.js';

const info = (method: string, path: string) => requestInfo(method, path, new URLSearchParams());
const alice = { name: 'alice', groups: ['dev', 'system:authenticated'] };
const sa = { name: 'system:serviceaccount:team-a:builder', groups: ['system:serviceaccounts', 'system:authenticated'] };

function schema(name: string, level: string, precedence: number, rules: FlowSchema['spec']['rules'], distinguisher?: 'ByUser' | 'ByNamespace'): FlowSchema {
  return {
    metadata: { name, uid: `uid-${name}` },
    spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: precedence, rules, ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}) },
  };
}

function limited(name: string, shares: number, queuing?: { queues: number; handSize: number; queueLengthLimit: number }): PriorityLevelConfiguration {
  return {
    metadata: { name, uid: `uid-${name}` },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: shares, limitResponse: queuing ? { type: 'Queue', queuing } : { type: 'Reject' } } },
  };
}

const everyone = [{ kind: 'Group', group: { name: '*' } }];
const allResources = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] };
const allPaths = { verbs: ['*'], nonResourceURLs: ['*'] };

const MANDATORY: MandatoryConfiguration = {
  exemptLevel: { metadata: { name: 'exempt' }, spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0 } } },
  catchAllLevel: limited('catch-all', 5, { queues: 1, handSize: 1, queueLengthLimit: 0 }),
  exemptSchema: schema('exempt', 'exempt', 1, [{ subjects: [{ kind: 'Group', group: { name: 'system:masters' } }], resourceRules: [allResources], nonResourceRules: [allPaths] }]),
  catchAllSchema: schema('catch-all', 'catch-all', 10000, [{ subjects: everyone, resourceRules: [allResources], nonResourceRules: [allPaths] }]),
};
// catch-all in kube is Reject with no queuing.
MANDATORY.catchAllLevel.spec.limited!.limitResponse = { type: 'Reject' };

test('subjects: users, groups, service accounts (one or all of a namespace)', () => {
  const rules = (subjects: FlowSchema['spec']['rules'] extends (infer R)[] | undefined ? R extends { subjects: infer S } ? S : never : never) => [
    { subjects, resourceRules: [allResources] },
  ];
  const get = info('GET', '/api/v1/namespaces/team-a/configmaps/x');
  assert.ok(matchesFlowSchema(get, alice, schema('s', 'l', 1, rules([{ kind: 'User', user: { name: 'alice' } }]))));
  assert.ok(!matchesFlowSchema(get, alice, schema('s', 'l', 1, rules([{ kind: 'User', user: { name: 'bob' } }]))));
  assert.ok(matchesFlowSchema(get, alice, schema('s', 'l', 1, rules([{ kind: 'Group', group: { name: 'dev' } }]))));
  assert.ok(matchesFlowSchema(get, sa, schema('s', 'l', 1, rules([{ kind: 'ServiceAccount', serviceAccount: { namespace: 'team-a', name: '*' } }]))));
  assert.ok(!matchesFlowSchema(get, sa, schema('s', 'l', 1, rules([{ kind: 'ServiceAccount', serviceAccount: { namespace: 'team', name: '*' } }]))));
  assert.ok(matchesFlowSchema(get, sa, schema('s', 'l', 1, rules([{ kind: 'ServiceAccount', serviceAccount: { namespace: 'team-a', name: 'builder' } }]))));
  assert.ok(!matchesFlowSchema(get, alice, schema('s', 'l', 1, rules([{ kind: 'ServiceAccount', serviceAccount: { namespace: 'team-a', name: '*' } }]))));
});

test('resource rules: verbs, groups, resources with subresources, cluster scope and namespaces', () => {
  const fs = (r: object) => schema('s', 'l', 1, [{ subjects: everyone, resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], ...r }] }]);
  const nsGet = info('GET', '/api/v1/namespaces/team-a/configmaps/x');
  const clusterList = info('GET', '/api/v1/namespaces');
  assert.ok(!matchesFlowSchema(nsGet, alice, fs({})), 'no namespaces listed: namespaced requests do not match');
  assert.ok(matchesFlowSchema(nsGet, alice, fs({ namespaces: ['team-a'] })));
  assert.ok(matchesFlowSchema(nsGet, alice, fs({ namespaces: ['*'] })));
  assert.ok(!matchesFlowSchema(clusterList, alice, fs({ namespaces: ['*'] })), 'cluster-scoped requests need clusterScope');
  assert.ok(matchesFlowSchema(clusterList, alice, fs({ clusterScope: true })));
  assert.ok(!matchesFlowSchema(nsGet, alice, fs({ namespaces: ['*'], verbs: ['list'] })));
  assert.ok(matchesFlowSchema(nsGet, alice, fs({ namespaces: ['*'], verbs: ['get'], resources: ['configmaps'], apiGroups: [''] })));
  const status = info('PUT', '/apis/apps/v1/namespaces/team-a/deployments/d/status');
  assert.ok(!matchesFlowSchema(status, alice, fs({ namespaces: ['*'], resources: ['deployments'] })));
  assert.ok(matchesFlowSchema(status, alice, fs({ namespaces: ['*'], resources: ['deployments/status'], apiGroups: ['apps'] })));
  // A wildcard only counts alone in its list.
  assert.ok(!matchesFlowSchema(nsGet, alice, fs({ namespaces: ['*'], verbs: ['list', '*'] })));
});

test('non-resource rules: exact paths and prefixes', () => {
  const fs = (urls: string[]) => schema('s', 'l', 1, [{ subjects: everyone, nonResourceRules: [{ verbs: ['get'], nonResourceURLs: urls }] }]);
  assert.ok(matchesFlowSchema(info('GET', '/healthz'), alice, fs(['/healthz'])));
  assert.ok(matchesFlowSchema(info('GET', '/healthz/etcd'), alice, fs(['/healthz/*'])));
  assert.ok(matchesFlowSchema(info('GET', '/healthz/etcd'), alice, fs(['/healthz'])), 'a rule path covers what lies under it');
  assert.ok(!matchesFlowSchema(info('GET', '/healthzx'), alice, fs(['/healthz'])));
  assert.ok(!matchesFlowSchema(info('POST', '/healthz'), alice, fs(['/healthz'])));
  assert.ok(!matchesFlowSchema(info('GET', '/api/v1/namespaces'), alice, fs(['*'])), 'resource requests need resource rules');
});

test('shuffle sharding deals distinct queues from the hash, as kube\'s dealer does', () => {
  // 5 = 1 + 4*1: remainders 1 (of 4) then 1 (of 3), the second shifted past the first.
  assert.deepEqual(dealHand(5n, 4, 2), [1, 2]);
  assert.deepEqual(dealHand(0n, 6, 3), [0, 1, 2]);
  for (const h of [1n, 2n ** 63n - 1n, 123456789012345678n, hashFlowID('global-default', 'alice')]) {
    const hand = dealHand(h, 64, 8);
    assert.equal(new Set(hand).size, 8);
    assert.ok(hand.every((q) => q >= 0 && q < 64));
  }
  assert.equal(hashFlowID('a', 'b'), hashFlowID('a', 'b'));
  assert.notEqual(hashFlowID('a', 'b'), hashFlowID('a', 'c'));
  // SHA-256("fs\0user") little-endian: fixed, so flows land where kube's hash puts them.
  assert.equal(hashFlowID('fs', 'user'), Buffer.from(require_sha256('fs\0user')).readBigUInt64LE(0));
  // Remembered: the second answer is the same.
  assert.equal(hashFlowID('fs', 'user'), Buffer.from(require_sha256('fs\0user')).readBigUInt64LE(0));
});

import { createHash } from 'node:crypto';
function require_sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** A queue set on a fake clock. */
function fakeQueues(concurrencyLimit: number, queuing = { queues: 16, handSize: 2, queueLengthLimit: 50 }) {
  let now = 0;
  const qs = new QueueSet({ kind: 'queue', concurrencyLimit, queuing }, () => now);
  return { qs, advance: (ms: number) => (now += ms) };
}

test('fair queuing: a quiet flow is served ahead of a noisy flow\'s backlog', async () => {
  const { qs, advance } = fakeQueues(1);
  const order: string[] = [];
  const noisy = hashFlowID('fs', 'noisy');
  const quiet = hashFlowID('fs', 'quiet');
  const pending: Promise<void>[] = [];
  const submit = (flow: bigint, label: string) => {
    const r = qs.start(flow, 1);
    if ('ticket' in r) {
      order.push(label);
      return r.ticket;
    }
    assert.ok('waiting' in r, `${label} was rejected`);
    pending.push(r.waiting.then((t) => void (t && (order.push(label), running.push(t)))));
    return undefined;
  };
  const running: Ticket[] = [];
  const first = submit(noisy, 'n0')!;
  for (let i = 1; i <= 10; i++) submit(noisy, `n${i}`);
  submit(quiet, 'q');
  // Each request takes 1 s; finish them one by one.
  let current: Ticket | undefined = first;
  while (current) {
    advance(1000);
    current.finish();
    await new Promise(setImmediate);
    current = running.shift();
  }
  await Promise.all(pending);
  assert.equal(order.length, 12);
  assert.ok(order.indexOf('q') <= 2, `quiet served at position ${order.indexOf('q')}: ${order.join(' ')}`);
});

test('a full queue refuses, and a cancelled wait leaves the queue', async () => {
  const { qs } = fakeQueues(1, { queues: 1, handSize: 1, queueLengthLimit: 2 });
  const a = qs.start(1n, 1);
  assert.ok('ticket' in a);
  const b = qs.start(1n, 1);
  const c = qs.start(1n, 1);
  assert.ok('waiting' in b && 'waiting' in c);
  assert.deepEqual(qs.start(1n, 1), { rejected: true });
  c.cancel();
  assert.equal(await c.waiting, undefined);
  assert.equal(qs.stats.waiting, 1);
  a.ticket.finish();
  const tb = await b.waiting;
  assert.ok(tb);
  assert.deepEqual(qs.stats, { executing: 1, seatsInUse: 1, waiting: 0 });
  tb.finish();
  assert.ok(qs.idle);
});

test('a Reject level refuses over its limit; a wide request runs alone', () => {
  const qs = new QueueSet({ kind: 'reject', concurrencyLimit: 2 });
  const a = qs.start(0n, 1);
  const b = qs.start(0n, 1);
  assert.ok('ticket' in a && 'ticket' in b);
  assert.deepEqual(qs.start(0n, 1), { rejected: true });
  a.ticket.finish();
  b.ticket.finish();
  const wide = qs.start(0n, 5);
  assert.ok('ticket' in wide, 'wider than the limit, but alone');
  assert.deepEqual(qs.start(0n, 1), { rejected: true });
});

test('configuration: precedence order, dangling schemas left out, mandatory objects imagined, shares of the limit', () => {
  const d = new Dispatcher(600, MANDATORY);
  // Nothing configured: masters are exempt, everyone else lands in catch-all.
  assert.equal(d.classify(info('GET', '/api/v1/namespaces'), { name: 'root', groups: ['system:masters'] }).level.config.metadata.name, 'exempt');
  assert.equal(d.classify(info('GET', '/api/v1/namespaces'), alice).schema.metadata.name, 'catch-all');

  const global = limited('global-default', 20, { queues: 128, handSize: 6, queueLengthLimit: 50 });
  const workload = limited('workload-low', 100, { queues: 128, handSize: 6, queueLengthLimit: 50 });
  const exempt = { ...MANDATORY.exemptLevel, metadata: { name: 'exempt', uid: 'uid-exempt' } };
  const catchAll = { ...MANDATORY.catchAllLevel };
  const all = [{ subjects: everyone, resourceRules: [allResources], nonResourceRules: [allPaths] }];
  d.configure(
    [exempt, catchAll, global, workload],
    [
      schema('global-default', 'global-default', 9900, all, 'ByUser'),
      schema('devs', 'workload-low', 500, [{ subjects: [{ kind: 'Group', group: { name: 'dev' } }], resourceRules: [allResources] }], 'ByNamespace'),
      schema('dangling', 'no-such-level', 10, all),
      MANDATORY.exemptSchema,
      MANDATORY.catchAllSchema,
    ],
  );
  assert.deepEqual(
    d.flowSchemas.map((s) => s.metadata.name),
    ['exempt', 'devs', 'global-default', 'catch-all'],
  );
  const c = d.classify(info('GET', '/api/v1/namespaces/team-a/configmaps'), alice);
  assert.equal(c.schema.metadata.name, 'devs');
  assert.equal(c.level.config.metadata.name, 'workload-low');
  assert.equal(c.hashValue, hashFlowID('devs', 'team-a'));
  assert.equal(d.classify(info('GET', '/version'), alice).schema.metadata.name, 'global-default');
  // 600 seats shared 0 : 5 : 20 : 100, rounded up.
  assert.equal(d.level('workload-low')!.concurrencyLimit, 480);
  assert.equal(d.level('global-default')!.concurrencyLimit, 96);
  assert.equal(d.level('catch-all')!.concurrencyLimit, 24);
  assert.equal(d.level('global-default')!.maxSeats, 15);
  // A level with a broken spec is ignored, and its schemas with it.
  d.configure([{ metadata: { name: 'bad' }, spec: { type: 'Exempt', exempt: {} } }], [schema('to-bad', 'bad', 2, all)]);
  assert.equal(d.level('bad'), undefined);
  assert.deepEqual(d.flowSchemas.map((s) => s.metadata.name), ['exempt', 'catch-all']);
});

test('a level that goes away keeps serving the requests it holds', async () => {
  const d = new Dispatcher(4, MANDATORY);
  const one = limited('one', 100, { queues: 1, handSize: 1, queueLengthLimit: 10 });
  const all = [{ subjects: everyone, resourceRules: [allResources], nonResourceRules: [allPaths] }];
  d.configure([one], [schema('s', 'one', 100, all)]);
  const c = d.classify(info('GET', '/version'), alice);
  const tickets = [];
  for (let i = 0; i < c.level.concurrencyLimit; i++) {
    const r = c.level.queues.start(c.hashValue, 1);
    assert.ok('ticket' in r);
    tickets.push(r.ticket);
  }
  const waiting = c.level.queues.start(c.hashValue, 1);
  assert.ok('waiting' in waiting);
  d.configure([], []);
  assert.ok(d.level('one'), 'kept while busy');
  for (const t of tickets) t.finish();
  const t = await waiting.waiting;
  assert.ok(t);
  t.finish();
  d.configure([], []);
  assert.equal(d.level('one'), undefined, 'dropped once idle');
});

test('Retry-After grows while a level keeps refusing, and comes back down', () => {
  let now = 1000;
  const dr = new DroppedRequests(() => now);
  assert.equal(dr.retryAfter('pl'), 1);
  for (let s = 0; s < 4; s++, now++) for (let i = 0; i < 10; i++) dr.record('pl');
  assert.ok(dr.retryAfter('pl') >= 2, `got ${dr.retryAfter('pl')}`);
  const high = dr.retryAfter('pl');
  assert.equal(high, 4);
  // Sparse drops: one every five seconds brings it down by one each time.
  for (let i = 0; i < 3; i++) {
    now += 5;
    dr.record('pl');
  }
  assert.equal(dr.retryAfter('pl'), 1);
  assert.equal(dr.retryAfter('other'), 1);
});

import { allocateConcurrency } from '../../src/server/flowcontrol/allocation.js';

test('concurrency allocation: shares in proportion to targets within each bound, as kube computes it', () => {
  const near = (got: number[] | string, want: number[]) => {
    assert.ok(Array.isArray(got), String(got));
    got.forEach((x, i) => assert.ok(Math.abs(x - want[i]!) < 1e-6, `${got} vs ${want}`));
  };
  near(allocateConcurrency(30, [{ target: 10, lower: 0, upper: 100 }, { target: 20, lower: 0, upper: 100 }]), [10, 20]);
  near(allocateConcurrency(60, [{ target: 10, lower: 0, upper: 100 }, { target: 20, lower: 0, upper: 100 }]), [20, 40]);
  // A bound holds one level; the rest goes to the other.
  near(allocateConcurrency(60, [{ target: 10, lower: 0, upper: 15 }, { target: 20, lower: 0, upper: 100 }]), [15, 45]);
  near(allocateConcurrency(10, [{ target: 8, lower: 8, upper: 100 }, { target: 20, lower: 0, upper: 100 }]), [8, 2]);
  near(allocateConcurrency(0, [{ target: 1, lower: 0, upper: 1 }]), [0]);
  assert.equal(allocateConcurrency(1, [{ target: 5, lower: 2, upper: 9 }]), 'lower bounds sum to 2, which is higher than the required sum of 1');
  assert.equal(allocateConcurrency(10, [{ target: 5, lower: 2, upper: 9 }]), 'upper bounds sum to 9, which is lower than the required sum of 10');
  assert.equal(allocateConcurrency(5, [{ target: 1, lower: 2, upper: 9 }]), 'target 0 is 1, which is below its lower bound of 2');
});

test('borrowing: a busy level takes the seats an idle one may lend, and gives them back', () => {
  let now = 0;
  const d = new Dispatcher(40, MANDATORY, () => now);
  const lender = limited('lender', 100, { queues: 4, handSize: 2, queueLengthLimit: 100 });
  lender.spec.limited!.lendablePercent = 50;
  const busy = limited('busy', 100, { queues: 4, handSize: 2, queueLengthLimit: 100 });
  const all = [{ subjects: everyone, resourceRules: [allResources], nonResourceRules: [allPaths] }];
  d.configure([lender, busy], [schema('to-busy', 'busy', 100, all)]);
  const b = d.level('busy')!;
  const l = d.level('lender')!;
  assert.equal(b.concurrencyLimit, 20);
  assert.equal(l.concurrencyLimit, 20);
  assert.equal(l.minLimit, 10, 'half of it may be lent');
  // busy keeps 40 seats wanted for 10 s: all its 20 in use and 20 more waiting.
  const c = d.classify(info('GET', '/version'), alice);
  const held: Ticket[] = [];
  for (let i = 0; i < 40; i++) {
    const r = c.level.queues.start(c.hashValue, 1);
    if ('ticket' in r) held.push(r.ticket);
  }
  now += 10_000;
  d.adjustBorrowing();
  assert.ok(b.currentLimit > 20, `busy borrows: ${b.currentLimit}`);
  assert.equal(l.currentLimit, 10, 'the lender keeps what it may not lend');
  assert.equal(b.currentLimit + l.currentLimit + d.level('catch-all')!.currentLimit, 40 + d.level('catch-all')!.concurrencyLimit);
  // When the lender needs its seats, it has them back at the next adjustment (its peak, up to its nominal limit).
  for (const t of held) t.finish();
  const lc = d.level('lender')!;
  const lenderHeld: Ticket[] = [];
  for (let i = 0; i < 20; i++) {
    const r = lc.queues.start(BigInt(i), 1);
    if ('ticket' in r) lenderHeld.push(r.ticket);
  }
  assert.equal(lenderHeld.length, 10, 'only its current 10 seats for now');
  now += 10_000;
  d.adjustBorrowing();
  assert.ok(l.currentLimit >= 20, `the lender is back to its nominal seats: ${l.currentLimit}`);
  for (const t of lenderHeld) t.finish();
});
