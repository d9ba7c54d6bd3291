// Conformance: list and count by prefix, pagination, reads at older revisions, compaction.
import assert from './kv-assert.js';
import { after, before, describe, it } from 'node:test';
import type { KVStore } from '../../src/storage/index.js';
import type { KVStoreFactory, StoreUnderTest } from './kv-suite.js';
import { rejectsWith, withStore } from './kv-suite-util.js';

export function readTests(factory: KVStoreFactory): void {
  describe('list and count', () => {
    let h: StoreUnderTest;
    let s: KVStore;
    let r: (n: number) => number;
    before(async () => {
      h = await factory();
      s = h.kv;
      r = (n) => (h.startRevision ?? 0) + n;
      // Inserted out of order; /a/bc must never show up under /a/b/.
      for (const k of ['/a/b/z', '/a/b/a', '/a/bc/x', '/a/b/m', '/a/b', '/a/c/1', '/a/b/n/deep', '/b/b/a']) {
        assert.ok((await s.create(k, `v:${k}`)).ok);
      }
    });
    after(() => h.close());

    it('lists by prefix in key order with revisions', async () => {
      const res = await s.list('/a/b/');
      assert.deepEqual(
        res.items.map((i) => i.key),
        ['/a/b/a', '/a/b/m', '/a/b/n/deep', '/a/b/z'],
      );
      assert.equal(res.revision, r(8));
      assert.equal(res.more, false);
      assert.equal(res.remaining, undefined);
      assert.deepEqual(res.items[0], { key: '/a/b/a', value: 'v:/a/b/a', createRevision: r(2), modRevision: r(2) });
    });

    it('keeps sibling prefixes apart', async () => {
      assert.deepEqual(
        (await s.list('/a/bc/')).items.map((i) => i.key),
        ['/a/bc/x'],
      );
      assert.deepEqual(
        (await s.list('/a/')).items.map((i) => i.key),
        ['/a/b', '/a/b/a', '/a/b/m', '/a/b/n/deep', '/a/b/z', '/a/bc/x', '/a/c/1'],
      );
      assert.equal((await s.list('')).items.length, 8);
      assert.equal(await s.count('/a/b/'), 4);
      assert.equal(await s.count('/a/bc/'), 1);
      assert.equal(await s.count('/a/'), 7);
      assert.equal(await s.count(''), 8);
      assert.equal(await s.count('/zzz/'), 0);
    });

    it('pages with limit and after, reporting more and remaining', async () => {
      const p1 = await s.list('/a/b/', { limit: 2 });
      assert.deepEqual(
        p1.items.map((i) => i.key),
        ['/a/b/a', '/a/b/m'],
      );
      assert.equal(p1.more, true);
      assert.equal(p1.remaining, 2);
      const p2 = await s.list('/a/b/', { limit: 2, after: '/a/b/m', revision: p1.revision });
      assert.deepEqual(
        p2.items.map((i) => i.key),
        ['/a/b/n/deep', '/a/b/z'],
      );
      assert.equal(p2.more, false);
      assert.equal(p2.remaining, undefined);
      const p3 = await s.list('/a/b/', { limit: 2, after: '/a/b/z' });
      assert.deepEqual(p3.items, []);
      assert.equal(p3.more, false);
      // `after` before the prefix starts the list at the prefix; after it, the list is empty.
      assert.equal((await s.list('/a/b/', { after: '/a/a' })).items.length, 4);
      assert.equal((await s.list('/a/b/', { after: '/a/c' })).items.length, 0);
      // limit 0 means everything.
      assert.equal((await s.list('/a/b/', { limit: 0 })).items.length, 4);
      // Exactly limit items left: no more.
      const exact = await s.list('/a/b/', { limit: 4 });
      assert.equal(exact.items.length, 4);
      assert.equal(exact.more, false);
    });

    it('refuses future revisions', async () => {
      const err = await rejectsWith(s.list('/a/', { revision: r(9) }), 'future');
      assert.equal(err.revision, r(8));
    });
  });

  describe('reads at older revisions and compaction', () => {
    it('lists the state as of a revision, with pagination, across updates, deletes and re-creates', () =>
      withStore(factory, async (s, r) => {
        await s.create('/p/a', 'a1'); // 1
        await s.create('/p/b', 'b1'); // 2
        await s.create('/p/c', 'c1'); // 3
        await s.update('/p/a', 'a2', r(1)); // 4
        await s.delete('/p/b'); // 5
        await s.create('/p/d', 'd1'); // 6
        await s.create('/p/b', 'b2'); // 7
        await s.update('/p/a', 'a3', r(4)); // 8
        await s.create('/q/x', 'x'); // 9

        // Revisions shown relative to the empty store's, as in the comments above.
        const at = async (rev: number) =>
          (await s.list('/p/', { revision: r(rev) })).items.map((i) => `${i.key}=${i.value}@${i.createRevision - r(0)}/${i.modRevision - r(0)}`);
        assert.deepEqual(await at(1), ['/p/a=a1@1/1']);
        assert.deepEqual(await at(3), ['/p/a=a1@1/1', '/p/b=b1@2/2', '/p/c=c1@3/3']);
        assert.deepEqual(await at(4), ['/p/a=a2@1/4', '/p/b=b1@2/2', '/p/c=c1@3/3']);
        assert.deepEqual(await at(5), ['/p/a=a2@1/4', '/p/c=c1@3/3']);
        assert.deepEqual(await at(6), ['/p/a=a2@1/4', '/p/c=c1@3/3', '/p/d=d1@6/6']);
        assert.deepEqual(await at(7), ['/p/a=a2@1/4', '/p/b=b2@7/7', '/p/c=c1@3/3', '/p/d=d1@6/6']);
        assert.deepEqual(await at(9), ['/p/a=a3@1/8', '/p/b=b2@7/7', '/p/c=c1@3/3', '/p/d=d1@6/6']);

        const p1 = await s.list('/p/', { revision: r(4), limit: 2 });
        assert.deepEqual(
          p1.items.map((i) => i.key),
          ['/p/a', '/p/b'],
        );
        assert.equal(p1.revision, r(4));
        assert.equal(p1.more, true);
        assert.equal(p1.remaining, 1);
        const p2 = await s.list('/p/', { revision: r(4), limit: 2, after: '/p/b' });
        assert.deepEqual(
          p2.items.map((i) => i.key),
          ['/p/c'],
        );
        assert.equal(p2.more, false);
      }));

    it('compaction keeps the current state and reads above it, and refuses reads at or below it', () =>
      withStore(factory, async (s, r) => {
        await s.create('/p/a', 'a1'); // 1
        await s.create('/p/b', 'b1'); // 2
        await s.update('/p/a', 'a2', r(1)); // 3
        await s.delete('/p/b'); // 4
        await s.create('/p/c', 'c1'); // 5
        await s.update('/p/a', 'a3', r(3)); // 6
        await s.compact(r(4));
        assert.equal(await s.compactedRevision(), r(4));
        for (const rev of [1, 3, 4]) {
          const err = await rejectsWith(s.list('/p/', { revision: r(rev) }), 'compacted');
          assert.equal(err.revision, r(4));
        }
        // Revision 5 needs a2 (written at 3, below the compacted revision) as the before-image of 6.
        assert.deepEqual(
          (await s.list('/p/', { revision: r(5) })).items.map((i) => `${i.key}=${i.value}`),
          ['/p/a=a2', '/p/c=c1'],
        );
        assert.deepEqual(
          (await s.list('/p/')).items.map((i) => `${i.key}=${i.value}`),
          ['/p/a=a3', '/p/c=c1'],
        );
        assert.equal(await s.count('/p/'), 2);
        // Compacting backwards is a no-op; beyond the newest revision is refused.
        await s.compact(r(2));
        assert.equal(await s.compactedRevision(), r(4));
        await rejectsWith(s.compact(r(7)), 'future');
        await s.compact(r(6));
        // Compacted even though it is the newest revision: only reads without a revision see it.
        await rejectsWith(s.list('/p/', { revision: r(6) }), 'compacted');
        assert.deepEqual(
          (await s.list('/p/')).items.map((i) => `${i.key}=${i.value}@${i.modRevision - r(0)}`),
          ['/p/a=a3@6', '/p/c=c1@5'],
        );
        assert.deepEqual(await s.get('/p/a'), { key: '/p/a', value: 'a3', createRevision: r(1), modRevision: r(6) });
        // Writing continues from the same counter.
        assert.equal((await s.create('/p/d', 'd')).ok && (await s.currentRevision()), r(7));
      }));
  });
}
