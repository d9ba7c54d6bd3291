// Conformance: conditional writes (create, compare-and-swap update and delete) and close.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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

    it('applies writes queued together in call order', () =>
      withStore(factory, async (s, r) => {
        const [c, u1, u2, d, c2] = await Promise.all([
          s.create('/k/a', '1'),
          s.update('/k/a', '2', r(1)),
          s.update('/k/a', '3', r(1)), // stale by the time it runs
          s.delete('/k/a', r(2)),
          s.create('/k/a', '4'),
        ]);
        assert.equal(c.ok && c.revision, r(1));
        assert.equal(u1.ok && u1.revision, r(2));
        assert.deepEqual(u2, { ok: false, current: { key: '/k/a', value: '2', createRevision: r(1), modRevision: r(2) } });
        assert.equal(d.ok && d.revision, r(3));
        assert.deepEqual(c2, { ok: true, kv: { key: '/k/a', value: '4', createRevision: r(4), modRevision: r(4) }, revision: r(4) });
      }));

    it('stores values byte for byte, including non-ASCII text', () =>
      withStore(factory, async (s) => {
        const value = JSON.stringify({ text: 'héllo wörld ✓ 🚀', nested: { a: [1, 2, 3] } });
        await s.create('/ns/ünï/😀', value);
        assert.equal((await s.get('/ns/ünï/😀'))?.value, value);
        assert.equal((await s.list('/ns/ünï/')).items[0]?.value, value);
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
