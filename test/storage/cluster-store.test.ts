// A logical cluster's view of the store: its keys under /registry/clusters/<name>, isolated from root's and
// from other clusters' in every read, write and watch, with the store's own revisions; and the key mapping the
// etcd codec and encryption use to treat a cluster's objects as root's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../../src/storage/index.js';
import { clusterLocalKey, clusterStore } from '../../src/storage/prefixed-store.js';
import type { StoreEvent } from '../../src/storage/types.js';
import { resourceOfKey } from '../../src/storage/encryption/resource-keys.js';

test('reads, writes and lists see the cluster’s own keys, under its prefix in the store', async () => {
  const kv = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
  const a = clusterStore(kv, 'a');
  const b = clusterStore(kv, 'b');
  const ra = await a.create('/registry/configmaps/default/x', '{"a":1}');
  assert.ok(ra.ok && ra.kv.key === '/registry/configmaps/default/x');
  const rb = await b.create('/registry/configmaps/default/x', '{"b":1}');
  assert.ok(rb.ok && rb.revision === ra.revision + 1, 'one revision counter for every cluster');
  assert.ok((await kv.create('/registry/configmaps/default/x', '{"root":1}')).ok);
  assert.equal((await a.get('/registry/configmaps/default/x'))?.value, '{"a":1}');
  assert.equal((await b.get('/registry/configmaps/default/x'))?.value, '{"b":1}');
  assert.deepEqual(
    (await kv.list('/registry/')).items.map((i) => i.key),
    ['/registry/clusters/a/configmaps/default/x', '/registry/clusters/b/configmaps/default/x', '/registry/configmaps/default/x'],
  );
  assert.deepEqual((await a.list('/registry/configmaps/')).items.map((i) => [i.key, i.value]), [['/registry/configmaps/default/x', '{"a":1}']]);
  assert.equal(await b.count('/registry/'), 1);
  // Paging continues after the cluster's own key.
  await a.create('/registry/configmaps/default/y', '{}');
  const page = await a.list('/registry/configmaps/', { limit: 1 });
  assert.ok(page.more);
  assert.deepEqual((await a.list('/registry/configmaps/', { after: page.items[0]!.key })).items.map((i) => i.key), ['/registry/configmaps/default/y']);
  // Conditional writes fail with the cluster's view of the current value.
  const stale = await a.update('/registry/configmaps/default/x', '{}', rb.revision);
  assert.ok(!stale.ok && stale.current?.key === '/registry/configmaps/default/x');
  assert.ok((await b.delete('/registry/configmaps/default/x')).ok);
  assert.equal((await a.get('/registry/configmaps/default/x'))?.value, '{"a":1}');
  await assert.rejects(a.get('/elsewhere'), /outside "\/registry"/);
  await kv.close();
});

test('a cluster’s watch sees its own events alone, with keys as the cluster names them', async () => {
  const kv = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
  const a = clusterStore(kv, 'a');
  const seen: StoreEvent[] = [];
  const w = a.watch('/registry/configmaps/', { fromRevision: await kv.currentRevision(), onEvent: (ev) => seen.push(ev) });
  await clusterStore(kv, 'b').create('/registry/configmaps/default/x', '{}');
  await kv.create('/registry/configmaps/default/x', '{}');
  await a.create('/registry/configmaps/default/x', '{"v":1}');
  await a.update('/registry/configmaps/default/x', '{"v":2}', (await a.get('/registry/configmaps/default/x'))!.modRevision);
  for (let i = 0; i < 50 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
  w.close();
  assert.deepEqual(
    seen.map((e) => [e.type, e.kv.key, e.kv.value, e.prev?.key]),
    [
      ['put', '/registry/configmaps/default/x', '{"v":1}', undefined],
      ['put', '/registry/configmaps/default/x', '{"v":2}', '/registry/configmaps/default/x'],
    ],
  );
  // Closing a cluster's view leaves the store open.
  await a.close();
  assert.ok((await kv.get('/registry/clusters/a/configmaps/default/x')) !== undefined);
  await kv.close();
});

test('a cluster’s keys map to root’s layout for the etcd codec and encryption', () => {
  assert.equal(clusterLocalKey('/registry/clusters/a/secrets/default/s'), '/registry/secrets/default/s');
  assert.equal(clusterLocalKey('/registry/secrets/default/s'), '/registry/secrets/default/s');
  assert.deepEqual(resourceOfKey('/registry/clusters/team-a/secrets/default/s', new Map([['/registry/secrets/', { group: '', resource: 'secrets' }]])), { group: '', resource: 'secrets' });
  assert.deepEqual(resourceOfKey('/registry/clusters/team-a/stable.example.com/crontabs/default/c', new Map()), { group: 'stable.example.com', resource: 'crontabs' });
});
