// The conformance suite over the watch cache (createCachedStore), which `serve` puts in front of
// SQLite: current reads from memory, everything else through to the inner store.
import { createCachedStore, openSqliteStore } from '../../src/storage/index.js';
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
