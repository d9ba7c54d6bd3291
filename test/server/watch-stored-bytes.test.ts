// JSON watch streams write the stored bytes of objects served as stored (resourceVersion spliced in, events
// gathered into one write per turn) instead of decoding and encoding each event's object. This proves the
// fast path streams byte for byte what the decoding path streams: replays from history (the store's ring
// too small to hold them) and from the recent events in memory, with label selectors (objects entering and
// leaving them: ADDED, and DELETED with the previous state), field selectors, deletes, objects of several
// KB and of more than a write's chunk, objects converted from another stored version, and built-in kinds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { installCronTab, cronTab, startApiOn, storeWidgetsAtV1, widgetsCrd, type Api } from './helpers.js';
import { serveStoredBytes } from '../../src/server/resource-handler.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { createCachedStore, type CachedStoreOptions } from '../../src/storage/cache.js';

const CT = '/apis/stable.example.com/v1';

/** A server over SQLite keeping only `ring` recent events in memory: older watches replay history. */
async function startSmallRing(ring: number, cache: CachedStoreOptions = {}): Promise<Api> {
  return startApiOn(await createCachedStore(openSqliteStore(':memory:', { eventRingSize: ring }), cache));
}

interface Opened {
  status: number;
  body: Promise<Buffer>;
}

/** A watch request; resolves once its headers are in (the watch is set up), with its whole body to come. */
function openRaw(url: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      const body = new Promise<Buffer>((done, fail) => {
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(Buffer.concat(chunks)));
        res.on('error', fail);
      });
      resolve({ status: res.statusCode ?? 0, body });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The same watch (ended by its timeout) through the stored-bytes path and the decoding path: equal bytes. */
async function sameWatch(api: Api, path: string): Promise<string[]> {
  const url = `${api.url}${path}${path.includes('?') ? '&' : '?'}watch=1&timeoutSeconds=1`;
  serveStoredBytes(true);
  const fast = await openRaw(url);
  serveStoredBytes(false);
  let slow: Opened;
  try {
    slow = await openRaw(url);
  } finally {
    serveStoredBytes(true);
  }
  assert.equal(fast.status, 200, path);
  assert.equal(slow.status, 200, path);
  const [a, b] = await Promise.all([fast.body, slow.body]);
  assert.ok(a.equals(b), `${path}: the stored-bytes stream differs from the decoded one:\n${firstDifference(a, b)}`);
  return a
    .toString()
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l).type as string);
}

function firstDifference(a: Buffer, b: Buffer): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const at = (x: Buffer): string => x.subarray(Math.max(0, i - 80), i + 80).toString();
  return `at byte ${i} of ${a.length} / ${b.length}\nfast: ${at(a)}\nslow: ${at(b)}`;
}

const count = (types: string[], t: string): number => types.filter((x) => x === t).length;

async function scenario(api: Api): Promise<void> {
  await installCronTab(api);
  for (const ns of ['a', 'b']) assert.equal((await api.req('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
  const from = (await api.req('GET', `${CT}/crontabs`)).json.metadata.resourceVersion as string;
  const ok = async (method: string, path: string, body?: unknown): Promise<any> => {
    const r = await api.req(method, path, body, method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {});
    assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${r.text}`);
    return r.json;
  };
  for (let i = 0; i < 60; i++) {
    await ok('POST', `${CT}/namespaces/${i % 2 ? 'a' : 'b'}/crontabs`, cronTab(`ct-${i}`, { labels: { tier: i % 3 ? 'web' : 'db', n: String(i) } }));
  }
  // What JSON encoding could change: non-ASCII text, escapes, a lone surrogate, int64 beyond 2^53, and objects
  // of several KB and of more than one write's chunk.
  const odd = cronTab('odd', { labels: { tier: 'web', '9': 'x' }, annotations: { note: 'héllo ☃ 😀 "quoted" \\ \u0001 \ud800 </script>' } });
  odd.spec = { cronSpec: 'ünïcode ✓', image: '😀'.repeat(2000), replicas: 1 };
  await ok('POST', `${CT}/namespaces/a/crontabs`, JSON.stringify(odd).replace('"replicas":1', '"replicas":9007199254740993'));
  await ok('POST', `${CT}/namespaces/b/crontabs`, { ...cronTab('big', { labels: { tier: 'web' } }), spec: { cronSpec: 'x', image: 'é'.repeat(300_000) } });
  const mid = (await api.req('GET', `${CT}/crontabs`)).json.metadata.resourceVersion as string;
  // Updates, objects entering and leaving tier=web, deletes (also of objects that left the selector).
  for (let i = 0; i < 30; i++) {
    const ns = i % 2 ? 'a' : 'b';
    await ok('PATCH', `${CT}/namespaces/${ns}/crontabs/ct-${i}`, i % 3 ? { spec: { replicas: i } } : { metadata: { labels: { tier: 'web' } } });
    if (i % 5 === 1) await ok('PATCH', `${CT}/namespaces/${ns}/crontabs/ct-${i}`, { metadata: { labels: { tier: 'db' } } });
    if (i % 4 === 0) await ok('DELETE', `${CT}/namespaces/${ns}/crontabs/ct-${i}`);
  }
  await ok('PATCH', `${CT}/namespaces/a/crontabs/odd`, { spec: { cronSpec: 'ü2' } });
  await ok('DELETE', `${CT}/namespaces/b/crontabs/big`);

  const all = await sameWatch(api, `${CT}/crontabs?resourceVersion=${from}`);
  assert.equal(count(all, 'ADDED'), 62);
  assert.ok(count(all, 'MODIFIED') > 30, String(count(all, 'MODIFIED')));
  assert.equal(count(all, 'DELETED'), 9);
  // Entering and leaving the selector: ADDED and DELETED (the previous state) that are modifications.
  const web = await sameWatch(api, `${CT}/crontabs?resourceVersion=${from}&labelSelector=tier%3Dweb`);
  assert.ok(count(web, 'DELETED') > count(all.slice(0), 'DELETED') / 2 && count(web, 'ADDED') > 0);
  for (const path of [
    `${CT}/namespaces/a/crontabs?resourceVersion=${from}`,
    `${CT}/crontabs?resourceVersion=${mid}`,
    `${CT}/namespaces/b/crontabs?resourceVersion=${mid}&labelSelector=tier%20in%20(db),n!%3D3`,
    `${CT}/crontabs?resourceVersion=${from}&labelSelector=tier%3Dweb&fieldSelector=metadata.namespace%3Da`,
    `${CT}/crontabs?resourceVersion=${from}&fieldSelector=metadata.name%3Dodd`,
    `${CT}/crontabs?resourceVersion=${from}&labelSelector=nothing`,
  ]) {
    await sameWatch(api, path);
  }
  // A built-in kind.
  const cms = (await api.req('GET', '/api/v1/configmaps')).json.metadata.resourceVersion as string;
  await ok('POST', '/api/v1/namespaces/a/configmaps', { metadata: { name: 'cm', labels: { x: 'y' } }, data: { k: 'välue ☃' } });
  await ok('PATCH', '/api/v1/namespaces/a/configmaps/cm', { data: { k: 'other' } });
  await ok('DELETE', '/api/v1/namespaces/a/configmaps/cm');
  assert.deepEqual(await sameWatch(api, `/api/v1/namespaces/a/configmaps?resourceVersion=${cms}`), ['ADDED', 'MODIFIED', 'DELETED']);
}

test('watch replays from stored bytes stream what decoding streams, byte for byte (history on SQLite)', async () => {
  const api = await startSmallRing(20);
  try {
    await scenario(api);
  } finally {
    await api.close();
  }
});

test('watches served by the watch cache from memory stream the same bytes both ways', async () => {
  const api = await startSmallRing(20, { serveWatches: true, watchCacheEvents: 100 });
  try {
    await scenario(api);
  } finally {
    await api.close();
  }
});

// Objects stored at another version than the one watched are converted (decoded): a stream of some of each.
// (A member sorting before apiVersion would make every object's bytes unfit to be served as stored: x.)
test('watches mixing objects served as stored and objects converted from another version', async () => {
  const api = await startSmallRing(5);
  try {
    const schema = { openAPIV3Schema: { type: 'object', properties: { x: { type: 'string' } } } };
    const crd = (storage: 'v1beta1' | 'v1') => widgetsCrd(storage, () => ({ schema }));
    await installCronTab(api, crd('v1beta1'));
    const from = (await api.req('GET', '/apis/example.com/v1/widgets')).json.metadata.resourceVersion as string;
    const w = (v: string, name: string) => ({ apiVersion: `example.com/${v}`, kind: 'Widget', metadata: { name, labels: { v } }, x: `${name} ✓` });
    for (let i = 0; i < 3; i++) assert.equal((await api.req('POST', '/apis/example.com/v1beta1/namespaces/default/widgets', w('v1beta1', `old-${i}`))).status, 201);
    await storeWidgetsAtV1(api, crd('v1'), w);
    for (let i = 0; i < 3; i++) assert.equal((await api.req('POST', '/apis/example.com/v1/namespaces/default/widgets', w('v1', `new-${i}`))).status, 201);
    const patch = { 'Content-Type': 'application/merge-patch+json' };
    assert.equal((await api.req('PATCH', '/apis/example.com/v1/namespaces/default/widgets/old-1', { metadata: { labels: { v: 'v1' } } }, patch)).status, 200);
    assert.equal((await api.req('DELETE', '/apis/example.com/v1/namespaces/default/widgets/old-2')).status, 200);
    assert.equal((await api.req('DELETE', '/apis/example.com/v1/namespaces/default/widgets/new-2')).status, 200);
    for (const v of ['v1', 'v1beta1']) {
      const types = await sameWatch(api, `/apis/example.com/${v}/widgets?resourceVersion=${from}`);
      assert.ok(types.length >= 10, String(types));
      await sameWatch(api, `/apis/example.com/${v}/namespaces/default/widgets?resourceVersion=${from}&labelSelector=v%3Dv1`);
    }
  } finally {
    await api.close();
  }
});
