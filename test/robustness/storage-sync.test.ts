import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqliteStore, type SqliteStore } from '../../src/storage/index.js';
import { tempDir } from '../storage/helpers.js';

type Internals = { db: { pragma(p: string, o: { simple: true }): unknown }; commit(ops: readonly unknown[]): unknown[] };
const internals = (s: SqliteStore): Internals => s as unknown as Internals;

describe('sqlite store: durability mode', () => {
  it('fsyncs every commit by default (synchronous=FULL in WAL mode); normal on request', async () => {
    const tmp = tempDir();
    try {
      const full = openSqliteStore(tmp.file('full.db'), { compactionIntervalMs: 0 });
      assert.equal(internals(full).db.pragma('synchronous', { simple: true }), 2);
      assert.equal(String(internals(full).db.pragma('journal_mode', { simple: true })), 'wal');
      await full.close();
      const normal = openSqliteStore(tmp.file('normal.db'), { compactionIntervalMs: 0, sync: 'normal' });
      assert.equal(internals(normal).db.pragma('synchronous', { simple: true }), 1);
      await normal.close();
      assert.throws(() => openSqliteStore(tmp.file('bad.db'), { sync: 'off' as 'full' }), /unknown storage sync mode/);
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
      await new Promise((r) => setImmediate(r));
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
});
