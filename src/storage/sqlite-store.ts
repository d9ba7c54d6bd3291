import { setImmediate as nextTurn } from 'node:timers/promises';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { openDatabase } from './sqlite-database.js';
import type BetterSqlite3 from 'better-sqlite3';
import { CompactionPolicy } from './compaction-policy.js';
import { keyRange } from './key-range.js';
import { applyPragmas, ensureSchema, type StorageSync } from './sqlite-schema.js';
import {
  StorageError,
  type KVStore,
  type KeyValue,
  type ListOptions,
  type ListResult,
  type StoreEvent,
  type WatchOptions,
  type Watcher,
  type WriteResult,
  compactedError,
} from './types.js';
import { WatchHub, type HistoryReader } from './watch-hub.js';
import { WalFsync } from './wal-fsync.js';

export interface SqliteStoreOptions {
  /** Automatic compaction keeps at least this much history (default 5 minutes, like kube-apiserver). */
  historyRetentionMs?: number;
  /** Automatic compaction also keeps at most this many revisions of history; 0 (default) means no cap. */
  historyMaxRevisions?: number;
  /** How often automatic compaction runs (default 1 minute); 0 disables it. */
  compactionIntervalMs?: number;
  /**
   * Recent events kept in memory for resuming watches (default 10,000). 0 behind the watch cache, which keeps
   * its own ring of them as slab values (value-slabs.ts): a second ring here held the same writes again as
   * strings, each kept a few seconds, long enough for V8 to move it to the old generation and then drop it there
   * (about 70 MB more peak RSS per 500,000 creates). Its watchers (the cache's) then catch up from the log table,
   * and an update or delete reads the value it replaces from the database.
   */
  eventRingSize?: number;
  /** The value text those events may hold (default DEFAULT_RING_BYTES, 64 Mi). */
  eventRingBytes?: number;
  /** Most writes committed in one transaction (default 1,000). */
  maxBatchSize?: number;
  /** How long opening waits for another process to release the file (default 2 s). */
  busyTimeoutMs?: number;
  /** When a write is on disk before it is acknowledged (default 'full': fsync per commit); see StorageSync. */
  sync?: StorageSync;
}

type WriteOp =
  | { kind: 'create'; key: string; value: string }
  | { kind: 'update'; key: string; value: string; expected: number }
  | { kind: 'delete'; key: string; expected: number | undefined };

type PendingWrite = WriteOp & { resolve(r: WriteResult): void; reject(e: Error): void };

type Outcome = { result: WriteResult; event?: StoreEvent } | { error: StorageError };

interface CurrentRow {
  c: number;
  m: number;
  v: string;
}
interface KvRow {
  k: string;
  v: string;
  c: number;
  m: number;
}
/** A history row as an array (the statement's raw mode: no object with named members per row): rev, key, value, create_rev, prev_rev, prev value. */
type LogRow = [r: number, k: string, v: string | null, c: number, p: number, pv: string | null];
interface RangeParams {
  lo: string;
  hi: string | Buffer;
  rev: number;
  limit: number;
}

/** Binds as a BLOB, which SQLite sorts after every TEXT value: the upper bound of an unbounded range. */
const NO_UPPER = Buffer.from([0xff]);
const COMPACTION_CHUNK = 5_000;

/** Open (creating if needed) the store in the SQLite file at path; ':memory:' for a throwaway store. */
export function openSqliteStore(path: string, opts: SqliteStoreOptions = {}): SqliteStore {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) createPrivateFile(path);
  const db = openDatabase(path, { timeout: opts.busyTimeoutMs ?? 2_000 });
  try {
    applyPragmas(db, inMemory, opts.sync ?? 'full');
    ensureSchema(db);
    // Take the exclusive lock now (it is taken at the first write), so that a second server on the
    // same file fails at startup rather than at its first write.
    db.prepare(`UPDATE meta SET value = value WHERE name = 'schema'`).run();
    return new SqliteStore(db, path, opts, !inMemory && (opts.sync ?? 'full') === 'full' ? new WalFsync(`${path}-wal`) : undefined);
  } catch (err) {
    db.close();
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY') {
      throw new StorageError('unavailable', `storage file ${path} is in use by another process`);
    }
    throw err;
  }
}

/**
 * Create the database file owner-only (0600) before SQLite opens it: the state holds Secrets. SQLite
 * gives the -wal and -shm files it creates later the database file's mode, so they are 0600 too. The
 * mode is passed to open(2), so the umask can only narrow it. Directories we create are 0700.
 */
function createPrivateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    // An existing database keeps the mode its owner gave it.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** A KVStore on SQLite. Returned values and events are shared with other callers: treat them as read-only. */
export class SqliteStore implements KVStore {
  private readonly st: ReturnType<typeof prepareStatements>;
  private readonly hub: WatchHub;
  private readonly applyBatch: (ops: readonly WriteOp[]) => Outcome[];
  private readonly maxBatch: number;
  private rev: number;
  private compacted: number;
  private compactDone: number;
  private queue: PendingWrite[] = [];
  private flushScheduled = false;
  private drained: (() => void)[] = [];
  private cleanup: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;
  private closed = false;
  private closePromise: Promise<void> | undefined;
  /** Committed batches whose writes are not acknowledged yet (their fsync is pending). */
  private undelivered = 0;
  /** Set when an fsync failed: what was committed may not be on disk, and no later write is accepted. */
  private syncFailure: StorageError | undefined;
  /** While set (deferSyncs), commits are acknowledged without their fsync; counts those commits. */
  private deferred: { commits: number } | undefined;

  constructor(
    private readonly db: BetterSqlite3.Database,
    readonly path: string,
    opts: SqliteStoreOptions,
    /** With 'full' sync: the fsync every commit waits for before its writes are acknowledged. */
    private readonly walFsync?: WalFsync,
  ) {
    this.st = prepareStatements(db);
    this.compacted = this.st.getMeta.get('compacted')!.value;
    this.compactDone = this.st.getMeta.get('compact_done')!.value;
    // The newest revision always has a log row, unless compaction removed it (a delete compacted
    // as the newest revision), in which case it equals the compacted revision.
    this.rev = Math.max(this.st.maxRev.get()!.r, this.compacted);
    this.maxBatch = Math.max(1, opts.maxBatchSize ?? 1_000);
    this.applyBatch = db.transaction((ops: readonly WriteOp[]) => ops.map((op) => this.apply(op)));
    const history: HistoryReader = { readEvents: (prefix, after, upTo, limit) => this.readEvents(prefix, after, upTo, limit) };
    this.hub = new WatchHub(this.rev, history, {
      ringSize: Math.max(0, opts.eventRingSize ?? 10_000),
      ...(opts.eventRingBytes !== undefined ? { ringBytes: opts.eventRingBytes } : {}),
      replayBatch: 1_000,
      replayWindow: 20_000,
    });
    if (this.compactDone < this.compacted) void this.finishCleanup().catch(() => {});
    const interval = opts.compactionIntervalMs ?? 60_000;
    if (interval > 0) {
      const policy = new CompactionPolicy({
        retainMs: opts.historyRetentionMs ?? 5 * 60_000,
        maxRevisions: Math.max(0, opts.historyMaxRevisions ?? 0),
      });
      policy.tick(Date.now(), this.rev, this.compacted);
      this.timer = setInterval(() => {
        if (this.closing) return;
        const target = policy.tick(Date.now(), this.rev, this.compacted);
        // A failure is retried at the next tick; there is nobody to report it to.
        if (target > 0) this.compact(target).catch(() => {});
      }, interval);
      this.timer.unref();
    }
  }

  /** Number of open watchers (for diagnostics). */
  get watcherCount(): number {
    return this.hub.size;
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.rev;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return this.compacted;
  }

  async get(key: string): Promise<KeyValue | undefined> {
    this.assertOpen();
    return this.readCurrent(key);
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const revision = this.readRevision(opts.revision);
    const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const range = keyRange(prefix, opts.after);
    const atHead = revision === this.rev;
    const params: RangeParams = { lo: range.lower, hi: range.upper ?? NO_UPPER, rev: revision, limit: limit > 0 ? limit + 1 : -1 };
    const stmt = atHead ? this.st.listHead[range.lowerExclusive ? 1 : 0] : this.st.listAt[range.lowerExclusive ? 1 : 0];
    const rows = stmt.all(params);
    const more = limit > 0 && rows.length > limit;
    const items = (more ? rows.slice(0, limit) : rows).map((r) => ({ key: r.k, value: r.v, createRevision: r.c, modRevision: r.m }));
    if (!more || opts.countRemaining === false) return { items, revision, more };
    const after: RangeParams = { ...params, lo: items[items.length - 1]!.key };
    const remaining = (atHead ? this.st.countHead[1] : this.st.countAt[1]).get(after)!.n;
    return { items, revision, more, remaining };
  }

  async count(prefix: string): Promise<number> {
    this.assertOpen();
    const range = keyRange(prefix);
    return this.st.countHead[0].get({ lo: range.lower, hi: range.upper ?? NO_UPPER, rev: this.rev, limit: -1 })!.n;
  }

  create(key: string, value: string): Promise<WriteResult> {
    return this.enqueue({ kind: 'create', key, value });
  }

  update(key: string, value: string, expectedModRevision: number): Promise<WriteResult> {
    return this.enqueue({ kind: 'update', key, value, expected: expectedModRevision });
  }

  delete(key: string, expectedModRevision?: number): Promise<WriteResult> {
    return this.enqueue({ kind: 'delete', key, expected: expectedModRevision });
  }

  watch(prefix: string, opts: WatchOptions): Watcher {
    let refusal: StorageError | undefined;
    if (this.closing) refusal = new StorageError('closed', 'storage is closed');
    else if (this.compacted > 0 && opts.fromRevision <= this.compacted) refusal = this.compactedError(opts.fromRevision);
    if (refusal === undefined) return this.hub.watch(prefix, opts);
    // Report asynchronously: the caller does not have its Watcher yet.
    const err = refusal;
    let open = true;
    queueMicrotask(() => {
      if (open) opts.onError?.(err);
      open = false;
    });
    return { close: () => void (open = false) };
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    if (revision > this.rev) throw this.futureError(revision);
    if (revision > this.compacted) {
      // Recorded before any history is dropped, so reads at or below it fail from now on; the
      // cleanup that follows is resumable after a crash.
      this.st.setMeta.run(revision, 'compacted');
      this.compacted = revision;
    }
    await this.finishCleanup();
  }

  /**
   * A consistent copy of the database in a new file at dest, while the store keeps serving: SQLite's online
   * backup API, a few hundred pages per step between which requests and writes go on. Writes made meanwhile
   * go through this same connection, so SQLite applies them to the copy as well (rather than restarting it):
   * the copy is the state as of the last step. Returns the newest revision it holds.
   */
  async backup(dest: string): Promise<number> {
    this.assertOpen();
    if (this.closing) throw new StorageError('closed', 'storage is closed');
    await this.db.backup(dest, { progress: () => 256 });
    return this.rev;
  }

  /** Commits what is queued, stops watchers (onError 'closed') and closes the file. */
  close(): Promise<void> {
    this.closePromise ??= this.shutdown();
    return this.closePromise;
  }

  private async shutdown(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    if (this.queue.length > 0 || this.undelivered > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    await this.walFsync?.close();
    // The cleanup loop stops at its next step once closing is set; wait for the step in flight.
    await this.cleanup?.catch(() => {});
    this.hub.failAll(new StorageError('closed', 'storage is closed'));
    this.closed = true;
    try {
      this.db.pragma('optimize');
    } catch {
      // Only a planner hint; closing matters more.
    }
    this.db.close();
  }

  // ---- writes: group commit ----

  private enqueue(op: WriteOp): Promise<WriteResult> {
    if (this.closing) return Promise.reject(new StorageError('closed', 'storage is closed'));
    return new Promise<WriteResult>((resolve, reject) => {
      this.queue.push({ ...op, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // setImmediate rather than a microtask: writes from every request handled in this turn of
        // the event loop (not just this call stack) share the commit.
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
    this.queue = batch === this.queue ? [] : this.queue.slice(this.maxBatch);
    const outcomes: Outcome[] = this.syncFailure ? batch.map(() => ({ error: this.syncFailure! })) : this.commit(batch);
    this.undelivered++;
    // Every batch, even one whose writes all failed, waits its turn: answers go out in commit order. While syncs
    // are deferred, a batch with none before it waiting is answered at once.
    if (this.deferred && this.undelivered === 1) {
      this.deferred.commits++;
      this.deliver(batch, outcomes);
    } else if (this.walFsync) this.walFsync.request((err) => this.deliver(batch, err ? this.failSync(err, batch.length) : outcomes));
    else this.deliver(batch, outcomes);
    if (this.queue.length > 0) {
      // Yield between full batches so reads and other requests get a turn.
      this.flushScheduled = true;
      setImmediate(this.flush);
    }
  };

  /**
   * From now until the returned function is called, commits are acknowledged without waiting for their fsync;
   * that function syncs once and resolves when the sync is done (rejects, failing every later write, when it
   * fails). For a server's own writes before it serves anyone (a first start's bootstrap objects, ~40 syncs in
   * a row otherwise): nobody outside the process has seen them before that sync, a crash before it leaves a
   * prefix of them (WAL frames are checksummed in sequence), and the next start writes the rest again.
   * Without fsync per commit (sync 'normal', in memory) there is nothing to defer.
   */
  deferSyncs(): () => Promise<void> {
    const walFsync = this.walFsync;
    if (!walFsync || this.deferred) return () => Promise.resolve();
    const deferred = (this.deferred = { commits: 0 });
    return () => {
      if (this.deferred === deferred) this.deferred = undefined;
      if (deferred.commits === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) =>
        walFsync.request((err) => {
          if (!err) return resolve();
          this.failSync(err, 0);
          reject(this.syncFailure!);
        }),
      );
    };
  }

  /** Acknowledges a committed batch: watchers see its events before any writer's continuation runs. */
  private deliver(batch: readonly PendingWrite[], outcomes: readonly Outcome[]): void {
    const events: StoreEvent[] = [];
    for (const o of outcomes) if ('result' in o && o.event) events.push(o.event);
    if (events.length > 0) this.hub.publish(events);
    for (let i = 0; i < batch.length; i++) {
      const o = outcomes[i]!;
      if ('error' in o) batch[i]!.reject(o.error);
      else batch[i]!.resolve(o.result);
    }
    this.undelivered--;
    if (this.queue.length === 0 && this.undelivered === 0) for (const done of this.drained.splice(0)) done();
  }

  /**
   * A failed fsync leaves unknown what reached the disk (and retrying it proves nothing): the batch's writes
   * fail, and so does every later one, until the server restarts and reads back what is really there.
   */
  private failSync(err: Error, n: number): Outcome[] {
    this.syncFailure ??= new StorageError('unavailable', `storage could not be synced to disk: ${err.message}`);
    return Array.from({ length: n }, () => ({ error: this.syncFailure! }));
  }

  /** Apply ops in one transaction; if it fails, retry one by one so a bad op only fails itself. */
  private commit(ops: readonly WriteOp[]): Outcome[] {
    const start = this.rev;
    try {
      return this.applyBatch(ops);
    } catch (err) {
      this.rev = start;
      if (ops.length === 1) return [{ error: unavailable(err) }];
    }
    return ops.map((op) => {
      const before = this.rev;
      try {
        return this.applyBatch([op])[0]!;
      } catch (err) {
        this.rev = before;
        return { error: unavailable(err) };
      }
    });
  }

  /** One write inside the batch transaction; advances this.rev on success. */
  private apply(op: WriteOp): Outcome {
    const st = this.st;
    const rev = this.rev + 1;
    if (op.kind === 'create') {
      if (st.insertKv.run(op.key, rev, rev).changes === 0) return failed(this.readCurrent(op.key));
      st.insertLog.run(rev, op.key, op.value, rev, 0);
      this.rev = rev;
      const kv: KeyValue = { key: op.key, value: op.value, createRevision: rev, modRevision: rev };
      return { result: { ok: true, kv, revision: rev }, event: { type: 'put', kv } };
    }
    const revs = st.getRevisions.get(op.key);
    if (revs === undefined) return failed(undefined);
    if ((op.kind === 'update' || op.expected !== undefined) && revs.m !== op.expected) return failed(this.readCurrent(op.key));
    // The previous value as the ring holds it when it can (the same string, not a second copy; no read).
    const cur = this.hub.heldPut(revs.m, op.key) ?? this.readCurrent(op.key)!;
    if (op.kind === 'update') {
      st.updateKv.run(rev, op.key);
      st.insertLog.run(rev, op.key, op.value, cur.createRevision, cur.modRevision);
      this.rev = rev;
      const kv: KeyValue = { key: op.key, value: op.value, createRevision: cur.createRevision, modRevision: rev };
      return { result: { ok: true, kv, revision: rev }, event: { type: 'put', kv, prev: cur } };
    }
    st.deleteKv.run(op.key);
    st.insertLog.run(rev, op.key, null, cur.createRevision, cur.modRevision);
    this.rev = rev;
    const tombstone: KeyValue = { key: op.key, value: cur.value, createRevision: cur.createRevision, modRevision: rev };
    return { result: { ok: true, kv: cur, revision: rev }, event: { type: 'delete', kv: tombstone, prev: cur } };
  }

  // ---- reads ----

  private readCurrent(key: string): KeyValue | undefined {
    const row = this.st.getCurrent.get(key);
    return row && { key, value: row.v, createRevision: row.c, modRevision: row.m };
  }

  /** The revision a read should use, after checking it is neither compacted nor in the future. */
  private readRevision(requested: number | undefined): number {
    if (requested === undefined || requested === 0) return this.rev;
    if (!Number.isSafeInteger(requested) || requested < 0) throw new RangeError(`invalid revision ${requested}`);
    if (requested > this.rev) throw this.futureError(requested);
    if (requested <= this.compacted) throw this.compactedError(requested);
    return requested;
  }

  private readEvents(prefix: string, after: number, upTo: number, limit: number): StoreEvent[] {
    if (this.closed) throw new StorageError('closed', 'storage is closed');
    if (after < this.compacted) throw this.compactedError(after);
    const range = keyRange(prefix);
    return this.st.history.all(after, upTo, range.lower, range.upper ?? NO_UPPER, limit).map(logRowToEvent);
  }

  // ---- compaction ----

  /** Run the cleanup loop until it has caught up with the compacted revision. */
  private async finishCleanup(): Promise<void> {
    while (!this.closing && this.compactDone < this.compacted) {
      this.cleanup ??= this.cleanupLoop().finally(() => {
        this.cleanup = undefined;
      });
      await this.cleanup;
    }
  }

  private async cleanupLoop(): Promise<void> {
    while (!this.closing && this.compactDone < this.compacted) {
      const hi = Math.min(this.compacted, this.compactDone + COMPACTION_CHUNK);
      this.cleanupChunk(this.compactDone, hi);
      this.compactDone = hi;
      await nextTurn();
    }
  }

  /**
   * Drop history in (lo, hi]: each row there supersedes its predecessor (prev_rev), which no read
   * above the compacted revision can need any more; tombstones are dropped themselves. What stays
   * is the newest put at or below the compacted revision of every key.
   */
  private readonly cleanupChunk = (lo: number, hi: number): void => {
    this.db.transaction(() => {
      for (const row of this.st.compactScan.all(lo, hi)) {
        if (row.p > 0) this.st.deleteLog.run(row.p);
        if (row.tomb) this.st.deleteLog.run(row.r);
      }
      this.st.setMeta.run(hi, 'compact_done');
    })();
  };

  // ---- errors ----

  private assertOpen(): void {
    if (this.closed) throw new StorageError('closed', 'storage is closed');
  }

  private compactedError(revision: number): StorageError {
    return compactedError(revision, this.compacted);
  }

  private futureError(revision: number): StorageError {
    return new StorageError('future', `required revision ${revision} is a future revision (current revision ${this.rev})`, this.rev);
  }
}

function failed(current: KeyValue | undefined): Outcome {
  return { result: current === undefined ? { ok: false } : { ok: false, current } };
}

function unavailable(err: unknown): StorageError {
  if (err instanceof StorageError) return err;
  return new StorageError('unavailable', `storage write failed: ${err instanceof Error ? err.message : String(err)}`);
}

function logRowToEvent([r, k, v, c, p, pv]: LogRow): StoreEvent {
  const prev: KeyValue | undefined = p > 0 && pv !== null ? { key: k, value: pv, createRevision: c, modRevision: p } : undefined;
  const kv: KeyValue = { key: k, value: v ?? prev?.value ?? '', createRevision: c, modRevision: r };
  const type = v === null ? 'delete' : 'put';
  return prev ? { type, kv, prev } : { type, kv };
}

function prepareStatements(db: BetterSqlite3.Database) {
  // The planner is told the join order (CROSS JOIN): always walk kv by key or log by revision,
  // then look the other side up by primary key.
  const listHead = (op: string) =>
    db.prepare<[RangeParams], KvRow>(
      `SELECT kv.key AS k, v.value AS v, kv.create_rev AS c, kv.mod_rev AS m
         FROM kv CROSS JOIN log v ON v.rev = kv.mod_rev
        WHERE kv.key ${op} @lo AND kv.key < @hi
        ORDER BY kv.key LIMIT @limit`,
    );
  const countHead = (op: string) =>
    db.prepare<[RangeParams], { n: number }>(`SELECT count(*) AS n FROM kv WHERE key ${op} @lo AND key < @hi`);
  // The state at an older revision R: keys unchanged since R come from kv; for a key changed after R,
  // its first change after R links (prev_rev <= R) to the value it had at R. A key created after R
  // has prev_rev 0, and later changes link to revisions above R, so neither is picked up.
  const listAt = (op: string) =>
    db.prepare<[RangeParams], KvRow>(
      `SELECT kv.key AS k, v.value AS v, kv.create_rev AS c, kv.mod_rev AS m FROM kv CROSS JOIN log v ON v.rev = kv.mod_rev
        WHERE kv.key ${op} @lo AND kv.key < @hi AND kv.mod_rev <= @rev
       UNION ALL
       SELECT l.key, p.value, l.create_rev, l.prev_rev FROM log l CROSS JOIN log p ON p.rev = l.prev_rev
        WHERE l.rev > @rev AND l.prev_rev BETWEEN 1 AND @rev AND l.key ${op} @lo AND l.key < @hi
       ORDER BY 1 LIMIT @limit`,
    );
  const countAt = (op: string) =>
    db.prepare<[RangeParams], { n: number }>(
      `SELECT (SELECT count(*) FROM kv WHERE key ${op} @lo AND key < @hi AND mod_rev <= @rev)
            + (SELECT count(*) FROM log WHERE rev > @rev AND prev_rev BETWEEN 1 AND @rev AND key ${op} @lo AND key < @hi) AS n`,
    );
  return {
    getMeta: db.prepare<[string], { value: number }>(`SELECT value FROM meta WHERE name = ?`),
    setMeta: db.prepare<[number, string]>(`UPDATE meta SET value = ? WHERE name = ?`),
    maxRev: db.prepare<[], { r: number }>(`SELECT coalesce(max(rev), 0) AS r FROM log`),
    getRevisions: db.prepare<[string], { c: number; m: number }>(`SELECT create_rev AS c, mod_rev AS m FROM kv WHERE key = ?`),
    getCurrent: db.prepare<[string], CurrentRow>(
      `SELECT kv.create_rev AS c, kv.mod_rev AS m, v.value AS v FROM kv CROSS JOIN log v ON v.rev = kv.mod_rev WHERE kv.key = ?`,
    ),
    insertKv: db.prepare<[string, number, number]>(`INSERT INTO kv (key, create_rev, mod_rev) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`),
    updateKv: db.prepare<[number, string]>(`UPDATE kv SET mod_rev = ? WHERE key = ?`),
    deleteKv: db.prepare<[string]>(`DELETE FROM kv WHERE key = ?`),
    insertLog: db.prepare<[number, string, string | null, number, number]>(
      `INSERT INTO log (rev, key, value, create_rev, prev_rev) VALUES (?, ?, ?, ?, ?)`,
    ),
    deleteLog: db.prepare<[number]>(`DELETE FROM log WHERE rev = ?`),
    listHead: [listHead('>='), listHead('>')] as const,
    countHead: [countHead('>='), countHead('>')] as const,
    listAt: [listAt('>='), listAt('>')] as const,
    countAt: [countAt('>='), countAt('>')] as const,
    history: db
      .prepare<[number, number, string, string | Buffer, number], LogRow>(
        `SELECT l.rev, l.key, l.value, l.create_rev, l.prev_rev, pv.value
           FROM log l LEFT JOIN log pv ON pv.rev = l.prev_rev
          WHERE l.rev > ? AND l.rev <= ? AND l.key >= ? AND l.key < ?
          ORDER BY l.rev LIMIT ?`,
      )
      .raw(true),
    compactScan: db.prepare<[number, number], { r: number; tomb: number; p: number }>(
      `SELECT rev AS r, value IS NULL AS tomb, prev_rev AS p FROM log WHERE rev > ? AND rev <= ?`,
    ),
  };
}
