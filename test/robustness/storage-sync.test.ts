import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { openSqliteStore, StorageError, type SqliteStore } from '../../src/storage/index.js';
import { WalFsync } from '../../src/storage/wal-fsync.js';
import { tempDir } from '../storage/helpers.js';

type Internals = {
  db: { pragma(p: string, o: { simple: true }): unknown };
  commit(ops: readonly unknown[]): unknown[];
  walFsync?: { request(done: (err: Error | undefined) => void): void };
};
const internals = (s: SqliteStore): Internals => s as unknown as Internals;
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('sqlite store: durability mode', () => {
  it('full (default) acknowledges a write only after a sync of the WAL; normal does not wait for one', async () => {
    const tmp = tempDir();
    try {
      const full = openSqliteStore(tmp.file('full.db'), { compactionIntervalMs: 0 });
      // SQLite does not fsync at commit in either mode: the store fsyncs the WAL off the event loop.
      assert.equal(internals(full).db.pragma('synchronous', { simple: true }), 1);
      assert.equal(String(internals(full).db.pragma('journal_mode', { simple: true })), 'wal');
      const wal = internals(full).walFsync!;
      assert.ok(wal);
      const held: ((err: Error | undefined) => void)[] = [];
      const request = wal.request.bind(wal);
      wal.request = (done) => held.push(done);
      let acked = false;
      const write = full.create('/a', '{}').then(() => (acked = true));
      for (let i = 0; i < 5; i++) await turn();
      assert.equal(acked, false, 'committed, but not acknowledged before its fsync');
      assert.equal(held.length, 1);
      wal.request = request;
      request(held[0]!);
      await write;
      assert.equal(acked, true);
      assert.equal((await full.get('/a'))?.value, '{}');
      await full.close();

      const normal = openSqliteStore(tmp.file('normal.db'), { compactionIntervalMs: 0, sync: 'normal' });
      assert.equal(internals(normal).db.pragma('synchronous', { simple: true }), 1);
      assert.equal(internals(normal).walFsync, undefined);
      await normal.close();
      assert.throws(() => openSqliteStore(tmp.file('bad.db'), { sync: 'off' as 'full' }), /unknown storage sync mode/);
    } finally {
      tmp.cleanup();
    }
  });

  it('commits made while the syncs in flight are at their limit share the next one', async () => {
    const tmp = tempDir();
    try {
      const path = tmp.file('wal');
      writeFileSync(path, '');
      const pending: ((err: NodeJS.ErrnoException | null) => void)[] = [];
      const w = new WalFsync(path, (_fd, cb) => pending.push(cb), 1);
      const done: string[] = [];
      w.request(() => done.push('a'));
      w.request(() => done.push('b'));
      w.request(() => done.push('c'));
      assert.equal(pending.length, 1, 'one sync in flight; b and c wait for the next');
      pending.shift()!(null);
      assert.deepEqual(done, ['a']);
      assert.equal(pending.length, 1);
      pending.shift()!(null);
      assert.deepEqual(done, ['a', 'b', 'c']);
      await w.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a later sync that finishes first answers for the earlier commits too, in commit order', async () => {
    const tmp = tempDir();
    try {
      const path = tmp.file('wal');
      writeFileSync(path, '');
      const pending: ((err: NodeJS.ErrnoException | null) => void)[] = [];
      const w = new WalFsync(path, (_fd, cb) => pending.push(cb), 2);
      const done: string[] = [];
      w.request(() => done.push('a'));
      w.request(() => done.push('b'));
      w.request(() => done.push('c'));
      assert.equal(pending.length, 2, 'a and b each start a sync; c waits for a free one');
      // b's sync started after a's commit: once it is done, a is on disk too.
      pending[1]!(null);
      assert.deepEqual(done, ['a', 'b']);
      assert.equal(pending.length, 3, 'c starts its own sync');
      pending[0]!(null); // a's sync, late: nothing left to answer
      assert.deepEqual(done, ['a', 'b']);
      pending[2]!(null);
      assert.deepEqual(done, ['a', 'b', 'c']);
      await w.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a failed fsync fails its writes and every later one (what is on disk is unknown until a restart)', async () => {
    const tmp = tempDir();
    try {
      const s = openSqliteStore(tmp.file(), { compactionIntervalMs: 0 });
      const wal = internals(s).walFsync!;
      const request = wal.request.bind(wal);
      wal.request = (done) => done(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
      await assert.rejects(s.create('/x', '{}'), (e: unknown) => e instanceof StorageError && e.code === 'unavailable' && /could not be synced/.test(e.message));
      wal.request = request;
      await assert.rejects(s.create('/y', '{}'), (e: unknown) => e instanceof StorageError && e.code === 'unavailable');
      await s.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('commits every write queued in one event-loop turn in one transaction (one fsync)', async () => {
    const tmp = tempDir();
    try {
      const s = openSqliteStore(tmp.file(), { compactionIntervalMs: 0 });
      const batches: number[] = [];
      const commit = internals(s).commit.bind(s);
      internals(s).commit = (ops) => {
        batches.push(ops.length);
        return commit(ops);
      };
      // Writes from the same call stack, from promise continuations (as request handlers reach
      // storage after awaiting), and from another callback of the same turn all share a commit.
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 10; i++) writes.push(s.create(`/a/${i}`, '{}'));
      for (let i = 0; i < 10; i++) writes.push(Promise.resolve().then(async () => { await null; return s.create(`/b/${i}`, '{}'); }));
      process.nextTick(() => writes.push(s.create('/c/0', '{}')));
      await turn();
      await Promise.all(writes);
      assert.deepEqual(batches, [21]);
      // A write queued while nothing else is waiting commits alone, straight away.
      await s.create('/d/0', '{}');
      assert.deepEqual(batches, [21, 1]);
      await s.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('deferSyncs: start-up writes are acknowledged without a sync each, then synced once before serving', async () => {
    const tmp = tempDir();
    try {
      const s = openSqliteStore(tmp.file('defer.db'), { compactionIntervalMs: 0 });
      const wal = internals(s).walFsync!;
      const held: ((err: Error | undefined) => void)[] = [];
      const request = wal.request.bind(wal);
      wal.request = (done) => held.push(done);
      const end = s.deferSyncs();
      // Three commits in a row, each acknowledged at once, none asking for a sync.
      for (let i = 0; i < 3; i++) assert.equal((await s.create(`/boot/${i}`, '{}')).ok, true);
      assert.equal(held.length, 0);
      // Ending the deferral asks for one sync, and resolves only when it is done.
      let synced = false;
      const ended = end().then(() => (synced = true));
      for (let i = 0; i < 5; i++) await turn();
      assert.equal(held.length, 1);
      assert.equal(synced, false);
      request(held.shift()!);
      await ended;
      assert.equal(synced, true);
      // From then on every commit waits for its sync again.
      let acked = false;
      const write = s.create('/after', '{}').then(() => (acked = true));
      for (let i = 0; i < 5; i++) await turn();
      assert.equal(acked, false);
      assert.equal(held.length, 1);
      request(held.shift()!);
      await write;
      // Nothing written while deferred: ending asks for no sync at all (a restart's start-up writes nothing).
      const idle = s.deferSyncs();
      await idle();
      assert.equal(held.length, 0);
      // A failed final sync fails the start-up, and every later write, as a failed commit sync does.
      const failing = s.deferSyncs();
      await s.create('/boot/late', '{}');
      wal.request = (done) => done(new Error('EIO: i/o error, fdatasync'));
      await assert.rejects(failing(), (e: unknown) => e instanceof StorageError && /could not be synced to disk: EIO/.test(e.message));
      await assert.rejects(s.create('/x', '{}'), /could not be synced to disk/);
      wal.request = request;
      await s.close();
    } finally {
      tmp.cleanup();
    }
  });
});
