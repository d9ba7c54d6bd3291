// The conformance suite over the SQLite store, with its event ring at the default size, disabled
// (every replay reads the database) and tiny (replays read the database, then the ring).
import { openSqliteStore } from '../../src/storage/index.js';
import { runKVStoreSuite, type KVStoreFactory } from './kv-suite.js';

const sqlite =
  (eventRingSize?: number): KVStoreFactory =>
  async () => {
    const kv = openSqliteStore(':memory:', { compactionIntervalMs: 0, ...(eventRingSize !== undefined && { eventRingSize }) });
    return { kv, close: () => kv.close() };
  };

runKVStoreSuite('sqlite store', sqlite());
runKVStoreSuite('sqlite store, event ring disabled', sqlite(0));
runKVStoreSuite('sqlite store, 8-event ring', sqlite(8));
