// The conformance suite where watch events arrive after the writes resolve, as with etcd: over
// SQLite behind LateWatchStore, and the watch cache over that (its writes must wait for their events).
import { createCachedStore, openSqliteStore } from '../../src/storage/index.js';
import { runKVStoreSuite } from './kv-suite.js';
import { LateWatchStore } from './late-watch-store.js';

const late = (): LateWatchStore => new LateWatchStore(openSqliteStore(':memory:', { compactionIntervalMs: 0 }));

runKVStoreSuite('sqlite store with late watch events', async () => {
  const kv = late();
  return { kv, close: () => kv.close() };
});

runKVStoreSuite('cached store over late watch events', async () => {
  const kv = await createCachedStore(late());
  return { kv, close: () => kv.close() };
});
