// The logical clusters' dispatcher: /clusters/<name>/ to that cluster's server (started once, on first use),
// root's own name and unknown names to root's chain, and a cluster's server stopped once it has had no request
// under way for the idle timeout (a watch under way keeps it), then started again when asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { BACKGROUND_STARTS, LogicalClusters, type ClusterInstance } from '../../src/server/logical-clusters.js';
import type { Informer } from '../../src/controllers/informer.js';
import type { Handler, RequestContext } from '../../src/server/context.js';
import type { JSONObject } from '../../src/util/json.js';

const clusters: Record<string, JSONObject> = { a: { metadata: { name: 'a' } }, gone: { metadata: { name: 'gone', deletionTimestamp: '2026-01-01T00:00:00Z' } } };
const informer = { get: (n: string) => clusters[n], list: () => Object.values(clusters) } as unknown as Informer;

function setup(idleMs: number): { lc: LogicalClusters; seen: string[]; starts: number; closes: number } {
  const state = { lc: undefined as unknown as LogicalClusters, seen: [] as string[], starts: 0, closes: 0 };
  state.lc = new LogicalClusters(
    informer,
    async (name) => {
      state.starts++;
      const chain: Handler = async (ctx) => void state.seen.push(`${name}:${ctx.path}`);
      const inst: ClusterInstance = { chains: { insecure: chain }, leading: () => true, close: async () => void state.closes++ };
      return inst;
    },
    idleMs,
  );
  return state;
}

const ctx = (url: string): RequestContext & { res: EventEmitter } => {
  const [path, query = ''] = url.split('?');
  return { path, query: new URLSearchParams(query), res: new EventEmitter(), req: { headers: {} }, receivedAt: performance.now() } as unknown as RequestContext & { res: EventEmitter };
};

test('paths go to their cluster’s chain with the rest of the path; others to root’s', async () => {
  const s = setup(0);
  const root: Handler = async (c) => void s.seen.push(`root:${c.path}`);
  const entry = s.lc.dispatch(root, 'insecure');
  for (const p of ['/api/v1', '/clusters/a/api/v1/namespaces', '/clusters/a', '/clusters/root/apis', '/clusters/nope/api', '/clusters/gone/api']) await entry(ctx(p));
  assert.deepEqual(s.seen, ['root:/api/v1', 'a:/api/v1/namespaces', 'a:/', 'root:/apis', 'root:/clusters/nope/api', 'root:/clusters/gone/api']);
  assert.equal(s.starts, 1);
  await s.lc.close();
});

test('an idle cluster’s server is stopped, not while a request is under way, and started again when asked', async () => {
  const s = setup(50);
  const entry = s.lc.dispatch(async () => {}, 'insecure');
  const watch = ctx('/clusters/a/api/v1/configmaps?watch=1');
  await entry(watch);
  assert.ok(s.lc.isStarted('a'));
  s.lc.stopIdle(performance.now() + 1000);
  assert.ok(s.lc.isStarted('a'), 'a watch under way keeps the server');
  watch.res.emit('close');
  s.lc.stopIdle(performance.now() + 10);
  assert.ok(s.lc.isStarted('a'), 'not idle long enough yet');
  s.lc.stopIdle(performance.now() + 60);
  assert.ok(!s.lc.isStarted('a'));
  await new Promise((r) => setImmediate(r));
  assert.equal(s.closes, 1);
  const again = ctx('/clusters/a/api');
  await entry(again);
  assert.equal(s.starts, 2);
  // The timer does the same by itself.
  again.res.emit('close');
  for (let i = 0; i < 50 && s.lc.isStarted('a'); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(!s.lc.isStarted('a'));
  await s.lc.close();
});

test('clusters touched by writes start BACKGROUND_STARTS at a time, in order; a request does not wait in that line', async () => {
  const names = Array.from({ length: 10 }, (_, i) => `t${i}`);
  const many: Record<string, JSONObject> = Object.fromEntries(names.map((n) => [n, { metadata: { name: n } }]));
  const objects = { get: (n: string) => many[n], list: () => Object.values(many) } as unknown as Informer;
  const pending = new Map<string, () => void>();
  const startedOrder: string[] = [];
  const lc = new LogicalClusters(
    objects,
    (name) =>
      new Promise<ClusterInstance>((resolve) => {
        startedOrder.push(name);
        pending.set(name, () => resolve({ chains: {}, leading: () => true, close: async () => {} }));
      }),
    0,
  );
  const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
  for (const n of names) lc.touch(n);
  lc.touch('t0'); // touched again while starting: no second start
  assert.deepEqual(startedOrder, names.slice(0, BACKGROUND_STARTS));
  assert.equal(lc.waitingToStart, names.length - BACKGROUND_STARTS);
  // A request for a waiting cluster starts it at once, outside the line, and the line skips it later.
  void lc.instance('t9');
  assert.deepEqual(startedOrder.at(-1), 't9');
  // One start ends: the next in line begins.
  pending.get('t0')!();
  await settle();
  assert.deepEqual(startedOrder, [...names.slice(0, BACKGROUND_STARTS), 't9', names[BACKGROUND_STARTS]]);
  for (let i = 0; i < 20 && startedOrder.length < names.length; i++) {
    for (const [n, done] of pending) if (n !== 't9') done();
    await settle();
  }
  assert.deepEqual([...startedOrder].sort(), [...names].sort(), 'each started once');
  for (const done of pending.values()) done();
  await settle();
  assert.equal(lc.waitingToStart, 0, 't9, started by the request, left the line without a second start');
  assert.equal(startedOrder.length, names.length);
  await lc.close();
});
