// The harness must test what `crd-apiserver serve` runs: the same assembly, the watch cache included.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CachedKVStore } from '../../src/storage/cache.js';
import { SqliteStore } from '../../src/storage/sqlite-store.js';
import { EtcdStore } from '../../src/storage/etcd-store.js';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

requireKubectl();
const onEtcd = process.env.CRD_APISERVER_TEST_STORAGE === 'etcd';

for (const [name, opts] of [
  ['without options', undefined],
  ['with tunables', { minRequestTimeoutSeconds: 5, bookmarkIntervalMs: 500 }],
] as const) {
  describe(`e2e harness ${name}`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(opts);
    });
    after(() => s.close());

    it('runs on the watch cache over SQLite in its data directory (or etcd, when asked), as serve does', async () => {
      assert.ok(s.kv instanceof CachedKVStore, 'the store is the watch cache');
      if (onEtcd) {
        assert.ok(s.kv.inner instanceof EtcdStore, 'over the etcd store');
        assert.ok(!existsSync(join(s.dataDir, 'state.db')));
      } else {
        assert.ok(s.kv.inner instanceof SqliteStore, 'over the SQLite store');
        assert.ok(existsSync(join(s.dataDir, 'state.db')));
      }
      const r = await s.kubectl(['create', 'namespace', 'through-the-cache']);
      assert.equal(r.code, 0, r.stderr);
      // The write went through the cache, which answers for it from memory.
      assert.ok(s.kv.serving);
      const kv = await s.kv.get('/registry/namespaces/through-the-cache');
      assert.equal(JSON.parse(kv!.value).metadata.name, 'through-the-cache');
    });
  });
}
