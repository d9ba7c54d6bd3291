// `crd-apiserver snapshot save|restore FILE --data-dir DIR`: the SQLite state as one file, as etcdctl's
// snapshot is etcd's. A snapshot holds the database only, not the data directory's CA, certificates and
// service-account key: a restore into an existing data directory keeps them, one into a new directory gets
// new ones when the server first starts there.
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase } from '../storage/sqlite-database.js';
import { openSqliteStore, type SqliteStore } from '../storage/sqlite-store.js';
import { StorageError } from '../storage/types.js';
import { STORAGE_ROOT } from '../storage/copy-store.js';
import { requestSnapshot, SNAPSHOT_SOCKET } from './snapshot-socket.js';

export interface SnapshotOptions {
  file: string;
  dataDir: string;
  log?: (line: string) => void;
}

export interface SnapshotInfo {
  revision: number;
  keys: number;
}

const STATE_DB = 'state.db';

/**
 * Save a consistent copy of dataDir's state to file: through the serving server's snapshot socket when one
 * answers, else by opening the database here. The copy is checked, made a self-contained file (rollback
 * journal rather than WAL) and moved into place, so file is either the old one or a complete snapshot.
 */
export async function saveSnapshot(opts: SnapshotOptions): Promise<SnapshotInfo> {
  const log = opts.log ?? (() => {});
  const dir = resolve(opts.dataDir);
  const dest = resolve(opts.file);
  if (!existsSync(join(dir, STATE_DB))) {
    throw new Error(`${dir} holds no ${STATE_DB}: not a crd-apiserver data directory (snapshots are of the SQLite storage; on etcd, use etcdctl snapshot save)`);
  }
  const part = `${dest}.part`;
  removeDb(part);
  // Owner-only, as the state it copies (it holds Secrets).
  closeSync(openSync(part, 'w', 0o600));
  try {
    let revision = await requestSnapshot(join(dir, SNAPSHOT_SOCKET), part);
    if (revision === undefined) {
      const store = openStore(join(dir, STATE_DB), 'is in use by a process that does not answer on ' + join(dir, SNAPSHOT_SOCKET));
      try {
        revision = await store.backup(part);
      } finally {
        await store.close();
      }
    }
    const info = inspect(part, dest);
    renameSync(part, dest);
    log(`saved the state of ${dir} at revision ${info.revision} (${info.keys} keys, ${statSync(dest).size} bytes) to ${dest}`);
    return info;
  } catch (err) {
    removeDb(part);
    throw err;
  }
}

export interface RestoreOptions extends SnapshotOptions {
  /** Replace the state a data directory holds (default: refuse one that holds any key). */
  force?: boolean;
}

/** Make the snapshot in file the state of dataDir; its other files (CA, keys, kubeconfig) stay. */
export async function restoreSnapshot(opts: RestoreOptions): Promise<SnapshotInfo> {
  const log = opts.log ?? (() => {});
  const src = resolve(opts.file);
  const dir = resolve(opts.dataDir);
  if (!existsSync(src)) throw new Error(`snapshot ${src} does not exist`);
  const hadCerts = existsSync(join(dir, 'pki'));
  const db = join(dir, STATE_DB);
  const part = join(dir, `${STATE_DB}.restoring`);
  // The directory is created as serve creates it (owner-only).
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  removeDb(part);
  try {
    copyFileSync(src, part);
    chmodSync(part, 0o600);
    const info = inspect(part, src);
    if (existsSync(db)) {
      const store = openStore(db, 'is in use by another process: stop the server on it first');
      let keys: number;
      try {
        keys = await store.count(STORAGE_ROOT);
      } finally {
        // Closing the last connection checkpoints the WAL into the file and removes it.
        await store.close();
      }
      if (keys > 0 && !opts.force) {
        throw new Error(`${db} already holds ${keys} keys: restore into a new data directory, or pass --force to replace them`);
      }
    }
    // A WAL left beside the old file would be replayed into the new one.
    rmSync(`${db}-wal`, { force: true });
    rmSync(`${db}-shm`, { force: true });
    renameSync(part, db);
    log(
      `restored ${src} (revision ${info.revision}, ${info.keys} keys) into ${dir}; ` +
        (hadCerts ? "the data directory's certificates and keys were kept" : 'the server generates a new CA, certificates and keys when it first starts there'),
    );
    return info;
  } catch (err) {
    removeDb(part);
    throw err;
  }
}

/** Open the store for reading (no compaction), turning "locked" into a message that says what to do. */
function openStore(path: string, inUse: string): SqliteStore {
  try {
    return openSqliteStore(path, { compactionIntervalMs: 0, sync: 'normal' });
  } catch (err) {
    if (err instanceof StorageError && err.code === 'unavailable') throw new Error(`${path} ${inUse}`);
    throw err;
  }
}

/**
 * Check that path is a whole, readable state database (quick_check, our schema) and make it self-contained
 * (rollback journal: no -wal file belongs to it); serve turns WAL on again when it opens it.
 */
function inspect(path: string, shownAs: string): SnapshotInfo {
  let db: Database.Database | undefined;
  try {
    db = openDatabase(path, { fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`integrity check: ${String(check)}`);
    const schema = db.prepare<[], { value: number }>(`SELECT value FROM meta WHERE name = 'schema'`).get();
    if (!schema) throw new Error('no schema version');
    db.pragma('journal_mode = DELETE');
    const { keys } = db.prepare<[], { keys: number }>(`SELECT count(*) AS keys FROM kv`).get()!;
    const { revision } = db.prepare<[], { revision: number }>(
      `SELECT max(coalesce((SELECT max(rev) FROM log), 0), (SELECT value FROM meta WHERE name = 'compacted')) AS revision`,
    ).get()!;
    return { keys, revision };
  } catch (err) {
    throw new Error(`${shownAs} is not a crd-apiserver snapshot: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    db?.close();
  }
}

/** Remove a database file and its companions, if there. */
function removeDb(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}
