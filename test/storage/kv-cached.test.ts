// The conformance suite over the watch cache (createCachedStore), which `serve` puts in front of
// SQLite: current reads from memory, everything else through to the inner store.
import { createCachedStore, openSqliteStore, startCachedStore } from '../../src/storage/index.js';
import { SlowLoadStore } from './slow-load-store.js';
import { runKVStoreSuite } from './kv-suite.js';

runKVStoreSuite('cached store over sqlite', async () => {
  const kv = await createCachedStore(openSqliteStore(':memory:', { compactionIntervalMs: 0 }));
  return { kv, close: () => kv.close() };
});

runKVStoreSuite('cached store over sqlite, event ring disabled', async () => {
  const kv = await createCachedStore(openSqliteStore(':memory:', { compactionIntervalMs: 0, eventRingSize: 0 }));
  return { kv, close: () => kv.close() };
});

runKVStoreSuite('cached store over sqlite, watches served from memory', async () => {
  const kv = await createCachedStore(openSqliteStore(':memory:', { compactionIntervalMs: 0 }), { serveWatches: true });
  return { kv, close: () => kv.close() };
});

runKVStoreSuite('cached store over sqlite, watches from a memory of 4 events', async () => {
  const kv = await createCachedStore(openSqliteStore(':memory:', { compactionIntervalMs: 0 }), { serveWatches: true, watchCacheEvents: 4 });
  return { kv, close: () => kv.close() };
});

// Loaded in the background (startCachedStore, as `serve` does): while the load is held back, every call is
// answered by the inner store through the cache; with a load that takes a while, the suite's calls meet the
// cache before, during and after it.
runKVStoreSuite('cached store over sqlite, its load never done', async () => {
  const kv = startCachedStore(new SlowLoadStore(openSqliteStore(':memory:', { compactionIntervalMs: 0 }), { holdFirst: true }));
  return { kv, close: () => kv.close() };
});

runKVStoreSuite('cached store over sqlite, loaded in the background', async () => {
  const inner = new SlowLoadStore(openSqliteStore(':memory:', { compactionIntervalMs: 0 }), { holdFirst: true, pageDelayMs: 5 });
  inner.release();
  const kv = startCachedStore(inner, { loadPageSize: 2 });
  return { kv, close: () => kv.close() };
});
