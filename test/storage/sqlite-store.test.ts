// What only the SQLite store does: a file that outlives the process, one writer per file, compaction on a timer.
// Everything the KVStore interface promises is in the conformance suite (kv-suite.ts, run by kv-sqlite.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqliteStore, StorageError, type KVStore } from '../../src/storage/index.js';
import { tempDir } from './helpers.js';
import { rejectsWith } from './kv-suite-util.js';

describe('sqlite store: persistence', () => {
  it('reopening a file keeps data, revision counter, compacted revision and history', async () => {
    const tmp = tempDir();
    try {
      let s: KVStore = openSqliteStore(tmp.file(), { compactionIntervalMs: 0 });
      await s.create('/r/a', 'a1'); // 1
      await s.create('/r/b', 'b1'); // 2
      await s.update('/r/a', 'a2', 1); // 3
      await s.delete('/r/b'); // 4
      await s.create('/r/c', 'c1'); // 5
      await s.compact(2);
      await s.close();

      s = openSqliteStore(tmp.file(), { compactionIntervalMs: 0 });
      assert.equal(await s.currentRevision(), 5);
      assert.equal(await s.compactedRevision(), 2);
      assert.deepEqual(
        (await s.list('/r/')).items.map((i) => `${i.key}=${i.value}@${i.createRevision}/${i.modRevision}`),
        ['/r/a=a2@1/3', '/r/c=c1@5/5'],
      );
      assert.deepEqual(
        (await s.list('/r/', { revision: 3 })).items.map((i) => `${i.key}=${i.value}`),
        ['/r/a=a2', '/r/b=b1'],
      );
      await rejectsWith(s.list('/r/', { revision: 2 }), 'compacted');
      // A watch from before the reopen replays from the file (the in-memory ring starts empty).
      const seen: string[] = [];
      const w = s.watch('/r/', { fromRevision: 3, onEvent: (e) => seen.push(`${e.type} ${e.kv.key} ${e.kv.modRevision}`) });
      const r = await s.create('/r/d', 'd1');
      assert.ok(r.ok && r.revision === 6);
      await new Promise((res) => setTimeout(res, 20));
      w.close();
      assert.deepEqual(seen, ['delete /r/b 4', 'put /r/c 5', 'put /r/d 6']);
      await s.close();

      // The counter also survives when the newest revision was a delete that got compacted away.
      s = openSqliteStore(tmp.file(), { compactionIntervalMs: 0 });
      const d = await s.delete('/r/d');
      assert.ok(d.ok && d.revision === 7);
      await s.compact(7);
      await s.close();
      s = openSqliteStore(tmp.file(), { compactionIntervalMs: 0 });
      assert.equal(await s.currentRevision(), 7);
      assert.equal(await s.compactedRevision(), 7);
      const c = await s.create('/r/e', 'e');
      assert.ok(c.ok && c.revision === 8);
      await s.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a second store on the same file is refused while the first is open', async () => {
    const tmp = tempDir();
    try {
      const s = openSqliteStore(tmp.file(), { compactionIntervalMs: 0 });
      await s.create('/x/a', 'a');
      assert.throws(
        () => openSqliteStore(tmp.file(), { compactionIntervalMs: 0, busyTimeoutMs: 50 }),
        (err: unknown) => err instanceof StorageError && err.code === 'unavailable',
      );
      await s.close();
      const again = openSqliteStore(tmp.file(), { compactionIntervalMs: 0 });
      assert.equal((await again.get('/x/a'))?.value, 'a');
      await again.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('creates the parent directory of the file', async () => {
    const tmp = tempDir();
    try {
      const s = openSqliteStore(`${tmp.dir}/nested/deeper/store.db`, { compactionIntervalMs: 0 });
      await s.create('/x/a', 'a');
      await s.close();
    } finally {
      tmp.cleanup();
    }
  });
});

describe('sqlite store: automatic compaction', () => {
  it('compacts history beyond the revision cap on a timer, never the newest revision', async () => {
    const s = openSqliteStore(':memory:', { compactionIntervalMs: 5, historyRetentionMs: 60_000, historyMaxRevisions: 5 });
    for (let i = 0; i < 20; i++) await s.create(`/t/${i}`, 'v');
    const deadline = Date.now() + 2000;
    while ((await s.compactedRevision()) < 15 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(await s.compactedRevision(), 15);
    await rejectsWith(s.list('/t/', { revision: 15 }), 'compacted');
    assert.equal((await s.list('/t/', { revision: 16 })).items.length, 16);
    assert.equal(await s.count('/t/'), 20);
    await s.close();
  });

  it('compacts history older than the retention time, keeping the newest revision readable', async () => {
    const s = openSqliteStore(':memory:', { compactionIntervalMs: 5, historyRetentionMs: 20 });
    for (let i = 0; i < 10; i++) await s.create(`/t/${i}`, 'v');
    const deadline = Date.now() + 2000;
    while ((await s.compactedRevision()) < 9 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(await s.compactedRevision(), 9);
    assert.equal((await s.list('/t/', { revision: 10 })).items.length, 10);
    await s.close();
  });
});

describe('sqlite store: pages without the count of what remains', () => {
  it('countRemaining: false leaves remaining out and pages the same keys', async () => {
    const s = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
    for (const k of ['a', 'b', 'c', 'd']) await s.create(`/p/${k}`, k);
    const counted = await s.list('/p/', { limit: 2 });
    const bare = await s.list('/p/', { limit: 2, countRemaining: false });
    assert.equal(counted.remaining, 2);
    assert.equal(bare.remaining, undefined);
    assert.deepEqual({ ...bare, remaining: 2 }, counted);
    await s.close();
  });
});
