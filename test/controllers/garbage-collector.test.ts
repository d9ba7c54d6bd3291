// The garbage collector through HTTP: background, foreground and orphan propagation, dangling and partly
// dangling owner references, the namespace rules of owner references, and a cascade that survives a restart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../src/server/server.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { createCachedStore } from '../../src/storage/cache.js';
import { startApi, installCronTab, cronTab, type Api } from '../server/helpers.js';
import { gcCompact } from '../../src/controllers/garbage-collector/garbage-collector.js';

let api: Api;
const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';

const GIZMO_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gizmos.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Cluster',
    names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

const ownerRef = (owner: any, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: owner.apiVersion,
  kind: owner.kind,
  name: owner.metadata.name,
  uid: owner.metadata.uid,
  ...extra,
});

async function create(path: string, obj: unknown): Promise<any> {
  const r = await api.req('POST', path, obj);
  assert.equal(r.status, 201, r.text);
  return r.json;
}

async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting until ${what}`);
}

const gone = (path: string) => async (): Promise<boolean> => (await api.req('GET', path)).status === 404;

before(async () => {
  api = await startApi();
  await installCronTab(api);
  await installCronTab(api, GIZMO_CRD);
});
after(() => api.close());

test('background: deleting an owner deletes its dependents afterwards', async () => {
  const owner = await create(base, cronTab('bg-owner'));
  for (const n of ['bg-1', 'bg-2', 'bg-3']) await create(base, cronTab(n, { ownerReferences: [ownerRef(owner)] }));
  const del = await api.req('DELETE', `${base}/bg-owner`);
  assert.equal(del.status, 200, del.text);
  for (const n of ['bg-1', 'bg-2', 'bg-3']) await until(`${n} is gone`, gone(`${base}/${n}`));
});

test('foreground: the owner waits with its finalizer until blocking dependents are gone', async () => {
  const owner = await create(base, cronTab('fg-owner'));
  await create(base, cronTab('fg-1', { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })], finalizers: ['example.com/hold'] }));
  const del = await api.req('DELETE', `${base}/fg-owner?propagationPolicy=Foreground`);
  assert.equal(del.status, 200, del.text);
  assert.ok(del.json.metadata.deletionTimestamp);
  assert.deepEqual(del.json.metadata.finalizers, ['foregroundDeletion']);
  // The dependent is being deleted, held by its own finalizer: the owner stays.
  await until('the dependent is deleting', async () => Boolean((await api.req('GET', `${base}/fg-1`)).json?.metadata?.deletionTimestamp));
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await api.req('GET', `${base}/fg-owner`)).status, 200);
  const dep = (await api.req('GET', `${base}/fg-1`)).json;
  const rel = await api.req('PUT', `${base}/fg-1`, { ...dep, metadata: { ...dep.metadata, finalizers: [] } });
  assert.equal(rel.status, 200, rel.text);
  await until('the owner is gone', gone(`${base}/fg-owner`));
});

test('orphan: the dependents lose their reference and stay', async () => {
  const owner = await create(base, cronTab('or-owner'));
  const other = await create(base, cronTab('or-other'));
  await create(base, cronTab('or-1', { ownerReferences: [ownerRef(owner), ownerRef(other)] }));
  const del = await api.req('DELETE', `${base}/or-owner?propagationPolicy=Orphan`);
  assert.equal(del.status, 200, del.text);
  await until('the owner is gone', gone(`${base}/or-owner`));
  const dep = (await api.req('GET', `${base}/or-1`)).json;
  assert.deepEqual(dep.metadata.ownerReferences, [ownerRef(other)]);
});

test('dangling references: a dependent of nothing goes; one with a remaining owner only loses the dangling reference', async () => {
  const ghost = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'ghost', uid: '00000000-0000-0000-0000-000000000001' } };
  await create(base, cronTab('dg-1', { ownerReferences: [ownerRef(ghost)] }));
  await until('dg-1 is gone', gone(`${base}/dg-1`));
  const alive = await create(base, cronTab('dg-alive'));
  await create(base, cronTab('dg-2', { ownerReferences: [ownerRef(ghost), ownerRef(alive)] }));
  await until('the dangling reference is removed', async () => (await api.req('GET', `${base}/dg-2`)).json.metadata.ownerReferences?.length === 1);
  assert.deepEqual((await api.req('GET', `${base}/dg-2`)).json.metadata.ownerReferences, [ownerRef(alive)]);
});

test('namespaces: a namespaced owner is looked for in the dependent\'s namespace; a cluster-scoped dependent of a namespaced kind is never collected', async () => {
  await api.req('POST', '/api/v1/namespaces', { metadata: { name: 'gc-other' } });
  const elsewhere = await create('/apis/stable.example.com/v1/namespaces/gc-other/crontabs', cronTab('ns-owner'));
  // Same name and uid, but in another namespace: not this dependent's owner, so it is dangling.
  await create(base, cronTab('ns-1', { ownerReferences: [ownerRef(elsewhere)] }));
  await until('ns-1 is gone', gone(`${base}/ns-1`));
  const gizmo = { apiVersion: 'stable.example.com/v1', kind: 'Gizmo', metadata: { name: 'gz', ownerReferences: [ownerRef(elsewhere)] } };
  await create('/apis/stable.example.com/v1/gizmos', gizmo);
  // A cluster-scoped owner collects a namespaced dependent.
  const clusterOwner = await create('/apis/stable.example.com/v1/gizmos', { apiVersion: 'stable.example.com/v1', kind: 'Gizmo', metadata: { name: 'gz-owner' } });
  await create(base, cronTab('ns-2', { ownerReferences: [ownerRef(clusterOwner)] }));
  await api.req('DELETE', '/apis/stable.example.com/v1/gizmos/gz-owner');
  await until('ns-2 is gone', gone(`${base}/ns-2`));
  assert.equal((await api.req('GET', '/apis/stable.example.com/v1/gizmos/gz')).status, 200);
});

test('a cascade interrupted by a restart completes on the next start', async () => {
  const kv = await createCachedStore(openSqliteStore(':memory:'));
  const first = await startServer({ kv, insecurePort: 0 });
  const req = async (url: string, method: string, path: string, body?: unknown): Promise<any> => {
    const r = await fetch(url + path, { method, headers: { 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: r.status, json: await r.json().catch(() => undefined) };
  };
  const crd = await req(first.insecureUrl!, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', (await import('../server/helpers.js')).CRONTAB_CRD);
  assert.equal(crd.status, 201);
  let owner: any;
  for (let i = 0; i < 200 && !owner; i++) {
    const r = await req(first.insecureUrl!, 'POST', base, cronTab('rs-owner'));
    if (r.status === 201) owner = r.json;
    else await new Promise((res) => setTimeout(res, 20));
  }
  for (let i = 0; i < 5; i++) await req(first.insecureUrl!, 'POST', base, cronTab(`rs-${i}`, { ownerReferences: [ownerRef(owner)] }));
  // The owner goes while the collector is stopped: its dependents are dangling when the next server starts.
  await first.close();
  await kv.delete(`/registry/stable.example.com/crontabs/default/rs-owner`);
  const second = await startServer({ kv, insecurePort: 0 });
  try {
    for (let i = 0; i < 5; i++) {
      const path = `${base}/rs-${i}`;
      const end = Date.now() + 10_000;
      while ((await req(second.insecureUrl!, 'GET', path)).status !== 404) {
        assert.ok(Date.now() < end, `rs-${i} never collected`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } finally {
    await second.close();
    await kv.close();
  }
});

test("the collector's informers hold a plain object as its uid, and give back its name, namespace and uid", () => {
  const meta = { name: 'n', namespace: 'ns', uid: 'u-1', resourceVersion: '5' };
  assert.equal(gcCompact.pack({ metadata: meta }), 'u-1');
  for (const extra of [{ ownerReferences: [] }, { finalizers: ['x'] }, { deletionTimestamp: '2026-01-01T00:00:00Z' }]) {
    const obj = { metadata: { ...meta, ...extra } };
    assert.equal(gcCompact.pack(obj), obj, JSON.stringify(extra));
  }
  assert.deepEqual(gcCompact.expand('ns/n', 'u-1'), { metadata: { name: 'n', namespace: 'ns', uid: 'u-1' } });
  assert.deepEqual(gcCompact.expand('cluster-wide', 'u-2'), { metadata: { name: 'cluster-wide', uid: 'u-2' } });
});
