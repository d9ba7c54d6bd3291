// The conformance suite over etcd: the EtcdStore alone and behind the watch cache, as `serve
// --storage etcd` runs it. Every store gets a fresh etcd (revisions and compaction are global to an
// etcd, and the suite counts both from an empty store).
import { createCachedStore, openEtcdStore, startCachedStore, type KVStore } from '../../src/storage/index.js';
import { SlowLoadStore } from './slow-load-store.js';
import { runKVStoreSuite, type KVStoreFactory } from './kv-suite.js';
import { requireEtcd, startEtcd } from './etcd-process.js';

requireEtcd();

const etcd =
  (cached: boolean | 'loading', prefix: string): KVStoreFactory =>
  async () => {
    const proc = await startEtcd();
    try {
      const inner = await openEtcdStore({ servers: [proc.url], prefix, root: '' });
      // A fresh etcd is at revision 1, not 0.
      const startRevision = await inner.currentRevision();
      // As serve runs it on etcd: consistent reads checked against etcd, watches served from memory.
      // 'loading': as serve starts it, the load under way in the background, never done here (every call through
      // the cache to etcd).
      const opts = { sharedStore: true, serveWatches: true };
      const kv: KVStore =
        cached === 'loading' ? startCachedStore(new SlowLoadStore(inner, { holdFirst: true }), opts) : cached ? await createCachedStore(inner, opts) : inner;
      return {
        kv,
        startRevision,
        close: async () => {
          await kv.close();
          await proc.destroy();
        },
      };
    } catch (err) {
      await proc.destroy();
      throw err;
    }
  };

runKVStoreSuite('etcd store', etcd(false, ''));
runKVStoreSuite('cached store over etcd', etcd(true, '/registry'));
runKVStoreSuite('cached store over etcd, its load never done', etcd('loading', '/registry'));
// Key prefixes, reconnects and compaction by another client: test/storage/etcd-store.test.ts.
