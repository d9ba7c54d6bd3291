// API Priority and Fairness through the handler chain: requests queue per priority level when its seats are
// taken, a quiet flow is dispatched ahead of a noisy flow's backlog, a full queue or a wait that runs out is
// refused with kube's 429, and every classified response names its FlowSchema and priority level by UID.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildHandlerChain } from '../../src/server/handler-chain.js';
import { newRequestContext } from '../../src/server/context.js';
import { Dispatcher, type MandatoryConfiguration } from '../../src/server/flowcontrol/dispatcher.js';
import type { FlowSchema, PriorityLevelConfiguration } from '../../src/server/flowcontrol/types.js';

const all = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] };
const paths = { verbs: ['*'], nonResourceURLs: ['*'] };
const fs = (name: string, level: string, precedence: number, subjects: FlowSchema['spec']['rules'] extends (infer R)[] | undefined ? R extends { subjects: infer S } ? S : never : never): FlowSchema => ({
  metadata: { name, uid: `fs-${name}` },
  spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: precedence, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects, resourceRules: [all], nonResourceRules: [paths] }] },
});
const pl = (name: string, shares: number, queues: number, queueLengthLimit: number): PriorityLevelConfiguration => ({
  metadata: { name, uid: `pl-${name}` },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: shares, limitResponse: { type: 'Queue', queuing: { queues, handSize: Math.min(queues, 4), queueLengthLimit } } } },
});
const MANDATORY: MandatoryConfiguration = {
  exemptLevel: { metadata: { name: 'exempt', uid: 'pl-exempt' }, spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0 } } },
  catchAllLevel: { metadata: { name: 'catch-all', uid: 'pl-catch-all' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } },
  exemptSchema: fs('exempt', 'exempt', 1, [{ kind: 'Group', group: { name: 'system:masters' } }]),
  catchAllSchema: fs('catch-all', 'catch-all', 10000, [{ kind: 'Group', group: { name: '*' } }]),
};

// Four seats in all: `workload` and `narrow` get two each (shares 200 of 405, rounded up), catch-all one.
const dispatcher = new Dispatcher(4, MANDATORY);
dispatcher.configure(
  [MANDATORY.exemptLevel, MANDATORY.catchAllLevel, pl('workload', 200, 64, 50), pl('narrow', 200, 1, 1)],
  [MANDATORY.exemptSchema, MANDATORY.catchAllSchema, fs('users', 'workload', 100, [{ kind: 'Group', group: { name: 'users' } }]), fs('floods', 'narrow', 50, [{ kind: 'User', user: { name: 'flooder' } }])],
);

const holding = new Map<string, () => void>();
const started: string[] = [];
const chain = buildHandlerChain(
  async (ctx) => {
    const id = ctx.query.get('id') ?? '';
    started.push(id);
    if (ctx.query.has('hold')) await new Promise<void>((r) => holding.set(id, r));
    ctx.res.end(`served ${id}`);
  },
  {
    authenticator: (req) => {
      const user = String(req.headers['x-user'] ?? 'anonymous');
      return { name: user, groups: user === 'admin' ? ['system:masters'] : ['users', 'system:authenticated'] };
    },
    authorizer: () => undefined,
    requestTimeoutMs: 60_000,
    flowControl: { dispatcher },
  },
);
const server = http.createServer((req, res) => void chain(newRequestContext(req, res, '')));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(() => {
  for (const r of holding.values()) r();
  server.closeAllConnections();
  server.close();
});

const go = (user: string, id: string, hold = true, extra = ''): Promise<Response> =>
  fetch(`${base}/api/v1/namespaces/default/configmaps?id=${id}${hold ? '&hold' : ''}${extra}`, { headers: { 'x-user': user } });
const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(cond(), 'condition not reached');
};
const release = (id: string): void => {
  const r = holding.get(id);
  assert.ok(r, `${id} is not running`);
  holding.delete(id);
  r();
};

test('responses name the FlowSchema and priority level that served them', async () => {
  const r = await go('alice', 'h1', false);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('x-kubernetes-pf-flowschema-uid'), 'fs-users');
  assert.equal(r.headers.get('x-kubernetes-pf-prioritylevel-uid'), 'pl-workload');
  const admin = await go('admin', 'h2', false);
  assert.equal(admin.headers.get('x-kubernetes-pf-flowschema-uid'), 'fs-exempt');
  assert.equal(admin.headers.get('x-kubernetes-pf-prioritylevel-uid'), 'pl-exempt');
});

test('a quiet user is served ahead of a noisy user\'s backlog', { timeout: 20_000 }, async () => {
  started.length = 0;
  const NOISY = 20;
  const noisy = Array.from({ length: NOISY }, (_, i) => go('noisy', `n${i}`));
  await until(() => started.length === 2);
  // Both seats are taken by noisy; its other 18 wait, spread over the four queues of its hand. Then quiet asks.
  const quiet = go('quiet', 'q');
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(started.length, 2, 'nothing more runs while the seats are taken');
  // The exempt level is not held up.
  assert.equal((await go('admin', 'a1', false)).status, 200);
  started.splice(started.indexOf('a1'), 1);

  // Serve one request at a time: quiet's turn comes once each of noisy's queues has had one (first-come
  // order would make it wait for all 18).
  while (!started.includes('q')) {
    const n = started.length;
    release([...holding.keys()].find((k) => k.startsWith('n'))!);
    await until(() => started.length === n + 1);
  }
  const position = started.indexOf('q') - 2;
  assert.ok(position <= 4, `quiet dispatched after ${position} of noisy's queued requests: ${started.join(' ')}`);
  release('q');
  assert.equal((await quiet).status, 200);
  // The rest of noisy's requests are served in turn.
  while (started.filter((x) => x.startsWith('n')).length < NOISY || holding.size > 0) {
    const next = [...holding.keys()].find((k) => k.startsWith('n'));
    if (next) release(next);
    await new Promise((r) => setTimeout(r, 5));
  }
  for (const r of await Promise.all(noisy)) assert.equal(r.status, 200);
});

test('a full queue is refused with 429 and Retry-After at once', { timeout: 10_000 }, async () => {
  started.length = 0;
  // narrow: two seats, one queue of length one.
  const running = [go('flooder', 'f0'), go('flooder', 'f1')];
  await until(() => started.length === 2);
  const queued = go('flooder', 'f2');
  await new Promise((r) => setTimeout(r, 50));
  const refused = await go('flooder', 'f3');
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '1');
  assert.equal(refused.headers.get('x-kubernetes-pf-flowschema-uid'), 'fs-floods');
  assert.equal(refused.headers.get('x-kubernetes-pf-prioritylevel-uid'), 'pl-narrow');
  assert.equal(await refused.text(), 'Too many requests, please try again later.\n');
  release('f0');
  await until(() => started.includes('f2'));
  release('f1');
  release('f2');
  for (const r of await Promise.all([...running, queued])) assert.equal(r.status, 200);
});

test('a request whose wait outlasts a quarter of its timeout is refused', { timeout: 10_000 }, async () => {
  started.length = 0;
  const running = [go('flooder', 'w0'), go('flooder', 'w1')];
  await until(() => started.length === 2);
  // timeout=400ms: it may wait 100 ms in the queue.
  const r = await go('flooder', 'w2', false, '&timeout=400ms');
  assert.equal(r.status, 429);
  assert.ok(!started.includes('w2'));
  release('w0');
  release('w1');
  for (const x of await Promise.all(running)) assert.equal(x.status, 200);
  assert.equal(dispatcher.level('narrow')!.queues.idle, true, 'nothing left behind in the queues');
});

test('a list is charged one seat per 100 objects it may read, up to the level\'s most; a get of one object one seat', { timeout: 10_000 }, async () => {
  // 40 seats for `wide` (hand of 4): a request may take at most min(15 % of 40, 40 / 4) = 6.
  const wide = new Dispatcher(40, MANDATORY);
  wide.configure([MANDATORY.exemptLevel, MANDATORY.catchAllLevel, pl('wide', 1000, 8, 10)], [fs('all', 'wide', 100, [{ kind: 'Group', group: { name: 'users' } }])]);
  const seats: number[] = [];
  const c = buildHandlerChain(
    async (ctx) => {
      seats.push(wide.level('wide')!.queues.stats.seatsInUse);
      ctx.res.end();
    },
    {
      authenticator: () => ({ name: 'jane', groups: ['users'] }),
      authorizer: () => undefined,
      flowControl: { dispatcher: wide, objectCount: (group, resource) => (group === '' && resource === 'configmaps' ? 250 : resource === 'secrets' ? 100_000 : undefined) },
    },
  );
  const srv = http.createServer((req, res) => void c(newRequestContext(req, res, '')));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  try {
    for (const path of [
      '/api/v1/namespaces/default/configmaps', // 250 objects: 3 seats
      '/api/v1/secrets', // 100,000: capped at 6
      '/api/v1/namespaces/default/configmaps/one', // a get
      '/api/v1/namespaces/default/leases', // not counted yet: the minimum
      '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=5', // a watch from a revision lists nothing
    ]) {
      const r = await fetch(url + path);
      await r.arrayBuffer();
    }
    assert.deepEqual(seats, [3, 6, 1, 1, 1]);
  } finally {
    srv.closeAllConnections();
    srv.close();
  }
});
