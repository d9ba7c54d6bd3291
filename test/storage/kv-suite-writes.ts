// Conformance: conditional writes (create, compare-and-swap update and delete) and close.
import assert from './kv-assert.js';
import { describe, it } from 'node:test';
import { NOT_AT_HAND, type WriteResult } from '../../src/storage/index.js';
import type { KVStoreFactory } from './kv-suite.js';
import { rejectsWith, withStore } from './kv-suite-util.js';

export function writeTests(factory: KVStoreFactory): void {
  describe('writes', () => {
    it('starts empty', () =>
      withStore(factory, async (s, r) => {
        assert.equal(await s.currentRevision(), r(0));
        assert.equal(await s.compactedRevision(), 0);
        assert.equal(await s.get('/a/x'), undefined);
        assert.deepEqual(await s.list('/a/'), { items: [], revision: r(0), more: false });
        assert.equal(await s.count('/'), 0);
      }));

    it('create assigns one global revision as create and mod revision, and refuses an existing key', () =>
      withStore(factory, async (s, r) => {
        assert.deepEqual(await s.create('/a/x', 'one'), {
          ok: true,
          kv: { key: '/a/x', value: 'one', createRevision: r(1), modRevision: r(1) },
          revision: r(1),
        });
        assert.deepEqual(await s.create('/b/y', 'two'), {
          ok: true,
          kv: { key: '/b/y', value: 'two', createRevision: r(2), modRevision: r(2) },
          revision: r(2),
        });
        assert.deepEqual(await s.create('/a/x', 'again'), {
          ok: false,
          current: { key: '/a/x', value: 'one', createRevision: r(1), modRevision: r(1) },
        });
        // A failed write does not consume a revision.
        assert.equal(await s.currentRevision(), r(2));
        assert.deepEqual(await s.get('/a/x'), { key: '/a/x', value: 'one', createRevision: r(1), modRevision: r(1) });
      }));

    it('update is compare-and-swap on modRevision', () =>
      withStore(factory, async (s, r) => {
        await s.create('/a/x', 'v1');
        await s.create('/a/other', 'o');
        assert.deepEqual(await s.update('/a/x', 'v2', r(1)), {
          ok: true,
          kv: { key: '/a/x', value: 'v2', createRevision: r(1), modRevision: r(3) },
          revision: r(3),
        });
        // Stale expectation: fails with the current value.
        assert.deepEqual(await s.update('/a/x', 'v3', r(1)), {
          ok: false,
          current: { key: '/a/x', value: 'v2', createRevision: r(1), modRevision: r(3) },
        });
        // Absent key: fails without a current value.
        assert.deepEqual(await s.update('/a/missing', 'v', r(1)), { ok: false });
        assert.equal(await s.currentRevision(), r(3));
        assert.deepEqual(await s.get('/a/x'), { key: '/a/x', value: 'v2', createRevision: r(1), modRevision: r(3) });
      }));

    it('delete returns the deleted value, optionally conditional, and a key can be re-created', () =>
      withStore(factory, async (s, r) => {
        await s.create('/a/x', 'v1');
        await s.update('/a/x', 'v2', r(1));
        assert.deepEqual(await s.delete('/a/x', r(1)), {
          ok: false,
          current: { key: '/a/x', value: 'v2', createRevision: r(1), modRevision: r(2) },
        });
        assert.deepEqual(await s.delete('/a/x', r(2)), {
          ok: true,
          kv: { key: '/a/x', value: 'v2', createRevision: r(1), modRevision: r(2) },
          revision: r(3),
        });
        assert.equal(await s.get('/a/x'), undefined);
        assert.deepEqual(await s.delete('/a/x'), { ok: false });
        await s.create('/a/y', 'y');
        assert.deepEqual(await s.delete('/a/y'), {
          ok: true,
          kv: { key: '/a/y', value: 'y', createRevision: r(4), modRevision: r(4) },
          revision: r(5),
        });
        const again = await s.create('/a/x', 'v3');
        assert.deepEqual(again, { ok: true, kv: { key: '/a/x', value: 'v3', createRevision: r(6), modRevision: r(6) }, revision: r(6) });
      }));


    it('stores values byte for byte, including non-ASCII text', () =>
      withStore(factory, async (s) => {
        const value = JSON.stringify({ text: 'héllo wörld ✓ 🚀', nested: { a: [1, 2, 3] } });
        await s.create('/ns/ünï/😀', value);
        assert.equal((await s.get('/ns/ünï/😀'))?.value, value);
        assert.equal((await s.list('/ns/ünï/')).items[0]?.value, value);
      }));

    it('concurrent compare-and-swap on one key: each expected revision wins exactly once', () =>
      withStore(factory, async (s) => {
        const created = await s.create('/cas/k', '0');
        assert.ok(created.ok);
        let expected = created.revision;
        for (let round = 0; round < 20; round++) {
          const attempts = await Promise.all(Array.from({ length: 10 }, (_, i) => s.update('/cas/k', `r${round}-${i}`, expected)));
          const won = attempts.filter((a): a is Extract<WriteResult, { ok: true }> => a.ok);
          assert.equal(won.length, 1);
          // The losers see the winner's value.
          for (const a of attempts) if (!a.ok) assert.deepEqual(a, { ok: false, current: won[0]!.kv });
          assert.ok(won[0]!.revision > expected);
          expected = won[0]!.revision;
        }
        assert.equal(await s.currentRevision(), expected);
        assert.equal((await s.get('/cas/k'))?.modRevision, expected);
      }));

    it('a read issued after a write resolves sees that write', () =>
      withStore(factory, async (s) => {
        // Many writes in flight at once; in each one's continuation, reads must already show it.
        await Promise.all(
          Array.from({ length: 100 }, async (_, i) => {
            const key = `/ryw/${String(i).padStart(3, '0')}`; // no key is a prefix of another
            const c = await s.create(key, 'c');
            assert.ok(c.ok);
            const [got, rev, listed, count] = await Promise.all([s.get(key), s.currentRevision(), s.list(key), s.count(key)]);
            assert.equal(got?.modRevision, c.revision);
            // A store that answers without waiting answers as get does.
            const hand = s.getAtHand ? s.getAtHand(key) : NOT_AT_HAND;
            if (hand !== NOT_AT_HAND) assert.equal(hand?.modRevision, c.revision);
            assert.ok(rev >= c.revision, `currentRevision ${rev} behind write ${c.revision}`);
            assert.ok(listed.revision >= c.revision && listed.items.some((kv) => kv.key === key));
            assert.equal(count, 1);
            const u = await s.update(key, 'u', c.revision);
            assert.ok(u.ok);
            assert.equal((await s.get(key))?.value, 'u');
            const d = await s.delete(key);
            assert.ok(d.ok);
            assert.equal(await s.get(key), undefined);
            if (s.getAtHand) assert.ok([undefined, NOT_AT_HAND].includes(s.getAtHand(key) as never), 'deleted, at hand too');
            assert.equal(await s.count(key), 0);
          }),
        );
      }));
  });

  describe('close', () => {
    it('close commits queued writes, then refuses everything', () =>
      withStore(factory, async (s) => {
        const pending = [s.create('/c/a', 'a'), s.create('/c/b', 'b')];
        await s.close();
        const results = await Promise.all(pending);
        assert.ok(results.every((r) => r.ok));
        await rejectsWith(s.create('/c/c', 'c'), 'closed');
        await rejectsWith(s.update('/c/a', 'a2', 1), 'closed');
        await rejectsWith(s.delete('/c/a'), 'closed');
        await rejectsWith(s.get('/c/a'), 'closed');
        await rejectsWith(s.list('/c/'), 'closed');
        await rejectsWith(s.count('/c/'), 'closed');
        await rejectsWith(s.currentRevision(), 'closed');
        await rejectsWith(s.compactedRevision(), 'closed');
        await s.close(); // idempotent
      }));
  });
}
