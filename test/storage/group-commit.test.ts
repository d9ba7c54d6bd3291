import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqliteStore, StorageError, type WriteResult } from '../../src/storage/index.js';
import { record, waitFor } from './helpers.js';

// Call order is SQLite's promise (one queue, committed in batches), not the KVStore interface's: the
// conformance suite checks only that concurrent writes are serialised.
describe('sqlite store: group commit', () => {
  it('gives many concurrent writes distinct, gap-free revisions in call order', async () => {
    const s = openSqliteStore(':memory:', { compactionIntervalMs: 0, maxBatchSize: 64 });
    const watch = record(s, '/', 0);
    const results = await Promise.all(Array.from({ length: 5_000 }, (_, i) => s.create(`/g/${String(i).padStart(5, '0')}`, `v${i}`)));
    // Batches of 64 commit in call order, so revisions follow the calls exactly.
    results.forEach((r, i) => {
      assert.ok(r.ok);
      assert.equal(r.revision, i + 1);
      assert.equal(r.kv.key, `/g/${String(i).padStart(5, '0')}`);
    });
    assert.equal(await s.currentRevision(), 5_000);
    assert.equal(await s.count('/g/'), 5_000);
    assert.deepEqual(
      watch.revs(),
      results.map((r) => (r.ok ? r.revision : -1)),
    );
    await s.close();
  });

  it('applies writes queued together in call order', async () => {
    const s = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
    const [c, u1, u2, d, c2] = await Promise.all([
      s.create('/k/a', '1'),
      s.update('/k/a', '2', 1),
      s.update('/k/a', '3', 1), // stale by the time it runs
      s.delete('/k/a', 2),
      s.create('/k/a', '4'),
    ]);
    assert.equal(c.ok && c.revision, 1);
    assert.equal(u1.ok && u1.revision, 2);
    assert.deepEqual(u2, { ok: false, current: { key: '/k/a', value: '2', createRevision: 1, modRevision: 2 } });
    assert.equal(d.ok && d.revision, 3);
    assert.deepEqual(c2, { ok: true, kv: { key: '/k/a', value: '4', createRevision: 4, modRevision: 4 }, revision: 4 });
    await s.close();
  });

  it('serialises concurrent compare-and-swap on one key: each expected revision wins once', async () => {
    const s = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
    const created = await s.create('/cas/k', '0');
    assert.ok(created.ok);
    let expected = created.revision;
    let wins = 0;
    for (let round = 0; round < 20; round++) {
      const attempts = await Promise.all(Array.from({ length: 10 }, (_, i) => s.update('/cas/k', `r${round}-${i}`, expected)));
      const ok = attempts.filter((a): a is Extract<WriteResult, { ok: true }> => a.ok);
      assert.equal(ok.length, 1);
      // The first attempt in call order wins; the rest see its value.
      assert.equal(ok[0]!.kv.value, `r${round}-0`);
      for (const a of attempts.slice(1)) assert.deepEqual(a, { ok: false, current: ok[0]!.kv });
      expected = ok[0]!.revision;
      wins++;
    }
    assert.equal(wins, 20);
    assert.equal(await s.currentRevision(), 21);
    await s.close();
  });

  it('keeps revisions monotonic across interleaved writers on many keys', async () => {
    const s = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async (_, w) => {
        let last = 0;
        const c = await s.create(`/m/${w}`, '0');
        assert.ok(c.ok);
        let rev = c.revision;
        for (let i = 0; i < 40; i++) {
          const u = await s.update(`/m/${w}`, String(i), rev);
          assert.ok(u.ok);
          assert.ok(u.revision > last);
          last = rev = u.revision;
          seen.push(u.revision);
        }
      }),
    );
    assert.equal(new Set(seen).size, seen.length);
    assert.equal(await s.currentRevision(), 50 + 50 * 40);
    await s.close();
  });

  it('a write that fails inside a batch fails alone; the rest of the batch commits', async () => {
    const s = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
    const watch = record(s, '/', 0);
    const bad = { not: 'a string' } as unknown as string; // SQLite cannot bind an object
    const settled = await Promise.allSettled([s.create('/b/1', 'a'), s.create('/b/2', bad), s.create('/b/3', 'c'), s.update('/b/1', 'a2', 1)]);
    assert.equal(settled[0].status, 'fulfilled');
    assert.equal(settled[1].status, 'rejected');
    const reason = (settled[1] as PromiseRejectedResult).reason as unknown;
    assert.ok(reason instanceof StorageError && reason.code === 'unavailable');
    assert.deepEqual(
      settled.map((p) => (p.status === 'fulfilled' && p.value.ok ? p.value.revision : null)),
      [1, null, 2, 3],
    );
    await waitFor(() => watch.events.length === 3, 'events');
    assert.deepEqual(watch.revs(), [1, 2, 3]);
    assert.equal(await s.get('/b/2'), undefined);
    assert.equal(await s.currentRevision(), 3);
    // The store keeps working.
    const next = await s.create('/b/4', 'd');
    assert.ok(next.ok && next.revision === 4);
    await s.close();
  });
});
