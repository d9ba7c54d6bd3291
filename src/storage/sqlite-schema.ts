import type BetterSqlite3 from 'better-sqlite3';

// On-disk layout, shaped like etcd's MVCC store:
//  - log: one row per revision (the revision is the rowid, so appends are cheap). A put stores its
//    value; a delete stores NULL. prev_rev is the key's previous modRevision (0 when the key did not
//    exist), which links each row to the value it replaced. Every value is stored once, here.
//  - kv: the current state as a small index, key -> (create_rev, mod_rev); the value is the log row
//    at mod_rev. Lists at the newest revision are a range scan of kv in key order.
//  - meta: the compacted revision and how far compaction's cleanup has got.
// Compaction to C keeps, per key, the newest put at or below C (it is either the current value or
// the before-image that reads at revisions above C need) and drops everything else at or below C.
const SCHEMA_VERSION = 1;

/**
 * When an acknowledged write is on disk:
 *  - 'full' (default): a write is acknowledged only after the WAL holding its commit has been fsynced,
 *    so it survives power loss and kernel crashes, as etcd's do (etcd fsyncs its WAL before replying).
 *    The fsync runs off the event loop (see wal-fsync.ts), and commits made meanwhile share the next one.
 *  - 'normal': a commit write()s its frames to the WAL and fsyncs only at checkpoints. The data is in
 *    the OS page cache when the write is acknowledged, so it survives the process dying (kill -9,
 *    OOM), but a power loss or kernel crash can drop the last acknowledged writes (never corrupting
 *    the database).
 */
export type StorageSync = 'full' | 'normal';

export function applyPragmas(db: BetterSqlite3.Database, inMemory: boolean, sync: StorageSync = 'full'): void {
  if (sync !== 'full' && sync !== 'normal') throw new Error(`unknown storage sync mode ${String(sync)} (want full or normal)`);
  if (inMemory) return;
  // One process owns the file: the revision counter lives in memory, so a second writer would hand
  // out duplicate revisions. EXCLUSIVE also lets WAL skip the shared-memory index.
  db.pragma('locking_mode = EXCLUSIVE');
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (String(mode).toLowerCase() !== 'wal') throw new Error(`could not enable WAL mode (got ${String(mode)})`);
  // See StorageSync: in both modes SQLite itself does not fsync at commit ('full' fsyncs the WAL on the
  // thread pool before acknowledging); checkpoints fsync the WAL before copying it back and the database after.
  db.pragma('synchronous = NORMAL');
  // A bigger WAL between checkpoints lets pages written many times be copied back once; the size
  // limit truncates the file again after a burst.
  db.pragma('wal_autocheckpoint = 10000');
  db.pragma('journal_size_limit = 67108864');
}

export function ensureSchema(db: BetterSqlite3.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS meta (
      name TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS kv (
      key TEXT PRIMARY KEY,
      create_rev INTEGER NOT NULL,
      mod_rev INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS log (
      rev INTEGER PRIMARY KEY,
      key TEXT NOT NULL,
      value TEXT,
      create_rev INTEGER NOT NULL,
      prev_rev INTEGER NOT NULL
    );
  `);
  const version = db.prepare<[], { value: number }>(`SELECT value FROM meta WHERE name = 'schema'`).get();
  if (version === undefined) {
    const init = db.prepare(`INSERT INTO meta (name, value) VALUES (?, ?)`);
    db.transaction(() => {
      init.run('schema', SCHEMA_VERSION);
      init.run('compacted', 0);
      init.run('compact_done', 0);
    })();
  } else if (version.value !== SCHEMA_VERSION) {
    throw new Error(`unsupported storage schema version ${version.value} (expected ${SCHEMA_VERSION})`);
  }
}
