// Events expire --event-ttl after their last write, as kube's etcd leases make them: watches of either
// version see them DELETED, a write starts the time again, finalizers do not hold them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startApi, type Api } from './helpers.js';
import { openWatch } from './watch-stream.js';

const TTL_MS = 1500;
let api: Api;
before(async () => {
  api = await startApi({ eventTtlMs: TTL_MS });
});
after(async () => {
  await api?.close();
});

const CORE = '/api/v1/namespaces/default/events';
const EVENTS = '/apis/events.k8s.io/v1/namespaces/default/events';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const event = (name: string, extra: Record<string, unknown> = {}): any => ({
  metadata: { name, ...extra },
  involvedObject: { kind: 'CronTab', namespace: 'default', name: 'my-cron' },
  reason: 'Scheduled',
  message: 'Scheduled the job',
});

test('an event is deleted TTL after it was written: both versions watch it go', async () => {
  const t0 = Date.now();
  const r = await api.req('POST', CORE, event('short-lived'));
  assert.equal(r.status, 201, r.text);
  const rv = r.json.metadata.resourceVersion;
  const core = await openWatch(api, `${CORE}?watch=true&resourceVersion=${rv}`);
  const events = await openWatch(api, `${EVENTS}?watch=true&resourceVersion=${rv}`);
  const [a, b] = [await core.next(), await events.next()];
  const elapsed = Date.now() - t0;
  core.close();
  events.close();
  assert.equal(a.type, 'DELETED');
  assert.equal(a.object.apiVersion, 'v1');
  assert.equal(a.object.message, 'Scheduled the job');
  assert.equal(b.type, 'DELETED');
  assert.equal(b.object.apiVersion, 'events.k8s.io/v1');
  assert.equal(b.object.note, 'Scheduled the job');
  assert.ok(elapsed >= TTL_MS - 100 && elapsed < TTL_MS + 2000, `deleted after ${elapsed} ms`);
  assert.equal((await api.req('GET', `${CORE}/short-lived`)).status, 404);
});

test('each write starts the TTL again; finalizers do not keep an expired event', async () => {
  let r = await api.req('POST', CORE, event('renewed', { finalizers: ['example.com/keep'] }));
  assert.equal(r.status, 201, r.text);
  await sleep(TTL_MS * 0.6);
  r = await api.req('PATCH', `${CORE}/renewed`, { count: 2 }, { 'Content-Type': 'application/strategic-merge-patch+json' });
  assert.equal(r.status, 200, r.text);
  const rv = r.json.metadata.resourceVersion;
  const w = await openWatch(api, `${CORE}?watch=true&resourceVersion=${rv}`);
  const patched = Date.now();
  // Past the first write's expiry, short of the second's.
  await sleep(TTL_MS * 0.7);
  assert.equal((await api.req('GET', `${CORE}/renewed`)).status, 200);
  const gone = await w.next();
  w.close();
  assert.equal(gone.type, 'DELETED');
  assert.equal(gone.object.count, 2);
  assert.ok(Date.now() - patched >= TTL_MS - 100, `deleted ${Date.now() - patched} ms after the patch`);
});

test('--event-ttl is a Go duration', () => {
  const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', main, 'serve', '--event-ttl', '1x'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'crd-apiserver: invalid argument "1x" for "--event-ttl" flag: time: invalid duration "1x"\nRun \'crd-apiserver serve --help\' for usage.\n');
  const help = spawnSync(process.execPath, ['--import', 'tsx', main, '--help'], { encoding: 'utf8', timeout: 30_000 });
  assert.match(help.stdout, /--event-ttl DURATION {3}how long events are kept after their last write, as a Go duration \(default 1h\)/);
});
