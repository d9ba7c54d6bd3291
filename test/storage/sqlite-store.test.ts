import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openSqliteStore, StorageError, type KVStore, type SqliteStore } from '../../src/storage/index.js';
import { prng, tempDir } from './helpers.js';

const mem = (): SqliteStore => openSqliteStore(':memory:', { compactionIntervalMs: 0 });

async function rejectsWith(p: Promise<unknown>, code: StorageError['code']): Promise<StorageError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StorageError, `expected StorageError, got ${String(err)}`);
    assert.equal(err.code, code);
    return err;
  }
  assert.fail(`expected rejection with ${code}`);
}

describe('sqlite store: writes', () => {
  it('starts empty at revision 0', async () => {
    const s = mem();
    assert.equal(await s.currentRevision(), 0);
    assert.equal(await s.compactedRevision(), 0);
    assert.equal(await s.get('/a/x'), undefined);
    assert.deepEqual(await s.list('/a/'), { items: [], revision: 0, more: false });
    assert.equal(await s.count('/'), 0);
    await s.close();
  });

  it('create assigns one global revision as create and mod revision, and refuses an existing key', async () => {
    const s = mem();
    assert.deepEqual(await s.create('/a/x', 'one'), {
      ok: true,
      kv: { key: '/a/x', value: 'one', createRevision: 1, modRevision: 1 },
      revision: 1,
    });
    assert.deepEqual(await s.create('/b/y', 'two'), {
      ok: true,
      kv: { key: '/b/y', value: 'two', createRevision: 2, modRevision: 2 },
      revision: 2,
    });
    assert.deepEqual(await s.create('/a/x', 'again'), {
      ok: false,
      current: { key: '/a/x', value: 'one', createRevision: 1, modRevision: 1 },
    });
    // A failed write does not consume a revision.
    assert.equal(await s.currentRevision(), 2);
    assert.deepEqual(await s.get('/a/x'), { key: '/a/x', value: 'one', createRevision: 1, modRevision: 1 });
    await s.close();
  });

  it('update is compare-and-swap on modRevision', async () => {
    const s = mem();
    await s.create('/a/x', 'v1');
    await s.create('/a/other', 'o');
    assert.deepEqual(await s.update('/a/x', 'v2', 1), {
      ok: true,
      kv: { key: '/a/x', value: 'v2', createRevision: 1, modRevision: 3 },
      revision: 3,
    });
    // Stale expectation: fails with the current value.
    assert.deepEqual(await s.update('/a/x', 'v3', 1), {
      ok: false,
      current: { key: '/a/x', value: 'v2', createRevision: 1, modRevision: 3 },
    });
    // Absent key: fails without a current value.
    assert.deepEqual(await s.update('/a/missing', 'v', 1), { ok: false });
    assert.equal(await s.currentRevision(), 3);
    assert.deepEqual(await s.get('/a/x'), { key: '/a/x', value: 'v2', createRevision: 1, modRevision: 3 });
    await s.close();
  });

  it('delete returns the deleted value, optionally conditional, and a key can be re-created', async () => {
    const s = mem();
    await s.create('/a/x', 'v1');
    await s.update('/a/x', 'v2', 1);
    assert.deepEqual(await s.delete('/a/x', 1), {
      ok: false,
      current: { key: '/a/x', value: 'v2', createRevision: 1, modRevision: 2 },
    });
    assert.deepEqual(await s.delete('/a/x', 2), {
      ok: true,
      kv: { key: '/a/x', value: 'v2', createRevision: 1, modRevision: 2 },
      revision: 3,
    });
    assert.equal(await s.get('/a/x'), undefined);
    assert.deepEqual(await s.delete('/a/x'), { ok: false });
    await s.create('/a/y', 'y');
    assert.deepEqual(await s.delete('/a/y'), {
      ok: true,
      kv: { key: '/a/y', value: 'y', createRevision: 4, modRevision: 4 },
      revision: 5,
    });
    const again = await s.create('/a/x', 'v3');
    assert.deepEqual(again, { ok: true, kv: { key: '/a/x', value: 'v3', createRevision: 6, modRevision: 6 }, revision: 6 });
    await s.close();
  });

  it('applies writes queued together in call order', async () => {
    const s = mem();
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

  it('stores values byte for byte, including non-ASCII text', async () => {
    const s = mem();
    const value = JSON.stringify({ text: 'héllo wörld ✓ 🚀', nested: { a: [1, 2, 3] } });
    await s.create('/ns/ünï/😀', value);
    assert.equal((await s.get('/ns/ünï/😀'))?.value, value);
    assert.equal((await s.list('/ns/ünï/')).items[0]?.value, value);
    await s.close();
  });
});

describe('sqlite store: list and count', () => {
  let s: SqliteStore;
  before(async () => {
    s = mem();
    // Inserted out of order; /a/bc must never show up under /a/b/.
    for (const k of ['/a/b/z', '/a/b/a', '/a/bc/x', '/a/b/m', '/a/b', '/a/c/1', '/a/b/n/deep', '/b/b/a']) {
      assert.ok((await s.create(k, `v:${k}`)).ok);
    }
  });
  after(() => s.close());

  it('lists by prefix in key order with revisions', async () => {
    const r = await s.list('/a/b/');
    assert.deepEqual(
      r.items.map((i) => i.key),
      ['/a/b/a', '/a/b/m', '/a/b/n/deep', '/a/b/z'],
    );
    assert.equal(r.revision, 8);
    assert.equal(r.more, false);
    assert.equal(r.remaining, undefined);
    assert.deepEqual(r.items[0], { key: '/a/b/a', value: 'v:/a/b/a', createRevision: 2, modRevision: 2 });
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
    const err = await rejectsWith(s.list('/a/', { revision: 9 }), 'future');
    assert.equal(err.revision, 8);
  });
});

describe('sqlite store: reads at older revisions', () => {
  it('lists the state as of a revision, with pagination, across updates, deletes and re-creates', async () => {
    const s = mem();
    await s.create('/p/a', 'a1'); // 1
    await s.create('/p/b', 'b1'); // 2
    await s.create('/p/c', 'c1'); // 3
    await s.update('/p/a', 'a2', 1); // 4
    await s.delete('/p/b'); // 5
    await s.create('/p/d', 'd1'); // 6
    await s.create('/p/b', 'b2'); // 7
    await s.update('/p/a', 'a3', 4); // 8
    await s.create('/q/x', 'x'); // 9

    const at = async (rev: number) =>
      (await s.list('/p/', { revision: rev })).items.map((i) => `${i.key}=${i.value}@${i.createRevision}/${i.modRevision}`);
    assert.deepEqual(await at(1), ['/p/a=a1@1/1']);
    assert.deepEqual(await at(3), ['/p/a=a1@1/1', '/p/b=b1@2/2', '/p/c=c1@3/3']);
    assert.deepEqual(await at(4), ['/p/a=a2@1/4', '/p/b=b1@2/2', '/p/c=c1@3/3']);
    assert.deepEqual(await at(5), ['/p/a=a2@1/4', '/p/c=c1@3/3']);
    assert.deepEqual(await at(6), ['/p/a=a2@1/4', '/p/c=c1@3/3', '/p/d=d1@6/6']);
    assert.deepEqual(await at(7), ['/p/a=a2@1/4', '/p/b=b2@7/7', '/p/c=c1@3/3', '/p/d=d1@6/6']);
    assert.deepEqual(await at(9), ['/p/a=a3@1/8', '/p/b=b2@7/7', '/p/c=c1@3/3', '/p/d=d1@6/6']);

    const p1 = await s.list('/p/', { revision: 4, limit: 2 });
    assert.deepEqual(
      p1.items.map((i) => i.key),
      ['/p/a', '/p/b'],
    );
    assert.equal(p1.revision, 4);
    assert.equal(p1.more, true);
    assert.equal(p1.remaining, 1);
    const p2 = await s.list('/p/', { revision: 4, limit: 2, after: '/p/b' });
    assert.deepEqual(
      p2.items.map((i) => i.key),
      ['/p/c'],
    );
    assert.equal(p2.more, false);
    await s.close();
  });

  it('compaction keeps the current state and reads above it, and refuses reads at or below it', async () => {
    const s = mem();
    await s.create('/p/a', 'a1'); // 1
    await s.create('/p/b', 'b1'); // 2
    await s.update('/p/a', 'a2', 1); // 3
    await s.delete('/p/b'); // 4
    await s.create('/p/c', 'c1'); // 5
    await s.update('/p/a', 'a3', 3); // 6
    await s.compact(4);
    assert.equal(await s.compactedRevision(), 4);
    for (const rev of [1, 3, 4]) {
      const err = await rejectsWith(s.list('/p/', { revision: rev }), 'compacted');
      assert.equal(err.revision, 4);
    }
    // Revision 5 needs a2 (written at 3, below the compacted revision) as the before-image of 6.
    assert.deepEqual(
      (await s.list('/p/', { revision: 5 })).items.map((i) => `${i.key}=${i.value}`),
      ['/p/a=a2', '/p/c=c1'],
    );
    assert.deepEqual(
      (await s.list('/p/')).items.map((i) => `${i.key}=${i.value}`),
      ['/p/a=a3', '/p/c=c1'],
    );
    assert.equal(await s.count('/p/'), 2);
    // Compacting backwards is a no-op; beyond the newest revision is refused.
    await s.compact(2);
    assert.equal(await s.compactedRevision(), 4);
    await rejectsWith(s.compact(7), 'future');
    await s.compact(6);
    await rejectsWith(s.list('/p/', { revision: 6 }), 'compacted');
    assert.deepEqual(
      (await s.list('/p/')).items.map((i) => `${i.key}=${i.value}@${i.modRevision}`),
      ['/p/a=a3@6', '/p/c=c1@5'],
    );
    assert.deepEqual(await s.get('/p/a'), { key: '/p/a', value: 'a3', createRevision: 1, modRevision: 6 });
    // Writing continues from the same counter.
    assert.equal((await s.create('/p/d', 'd')).ok && (await s.currentRevision()), 7);
    await s.close();
  });
});

describe('sqlite store: randomized history against a model', () => {
  it('lists at every revision and replays every watch exactly as the model says, across compactions', async () => {
    const rand = prng(42);
    const s = openSqliteStore(':memory:', { compactionIntervalMs: 0, eventRingSize: 0 });
    const keys = ['/m/a/1', '/m/a/2', '/m/a/3', '/m/ab/1', '/m/b/1', '/m/b/2'];
    // The model: the full state after every revision, and every event.
    const states: Map<string, { value: string; c: number; m: number }>[] = [new Map()];
    type Ev = { type: string; key: string; value: string; m: number; prev?: string };
    const log: Ev[] = [];
    let compacted = 0;
    for (let step = 0; step < 400; step++) {
      const key = keys[Math.floor(rand() * keys.length)]!;
      const cur = states[states.length - 1]!;
      const existing = cur.get(key);
      const rev = states.length;
      const value = `v${step}`;
      const next = new Map(cur);
      if (!existing) {
        const r = await s.create(key, value);
        assert.ok(r.ok && r.revision === rev);
        next.set(key, { value, c: rev, m: rev });
        log.push({ type: 'put', key, value, m: rev });
      } else if (rand() < 0.6) {
        const r = await s.update(key, value, existing.m);
        assert.ok(r.ok && r.revision === rev);
        next.set(key, { value, c: existing.c, m: rev });
        log.push({ type: 'put', key, value, m: rev, prev: existing.value });
      } else {
        const r = await s.delete(key, existing.m);
        assert.ok(r.ok && r.revision === rev);
        next.delete(key);
        log.push({ type: 'delete', key, value: existing.value, m: rev, prev: existing.value });
      }
      states.push(next);
      if (step % 97 === 96) {
        compacted = rev - 20;
        await s.compact(compacted);
      }
    }
    const head = states.length - 1;
    for (const prefix of ['/m/a/', '/m/', '/m/b/']) {
      for (let rev = compacted + 1; rev <= head; rev++) {
        const expected = [...states[rev]!.entries()]
          .filter(([k]) => k.startsWith(prefix))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => `${k}=${v.value}@${v.c}/${v.m}`);
        const got = (await s.list(prefix, { revision: rev })).items.map((i) => `${i.key}=${i.value}@${i.createRevision}/${i.modRevision}`);
        assert.deepEqual(got, expected, `list ${prefix} at ${rev}`);
        // Two-item pages add up to the same list.
        const paged: string[] = [];
        let afterKey: string | undefined;
        for (;;) {
          const page = await s.list(prefix, { revision: rev, limit: 2, ...(afterKey !== undefined && { after: afterKey }) });
          paged.push(...page.items.map((i) => `${i.key}=${i.value}@${i.createRevision}/${i.modRevision}`));
          if (page.more) assert.equal(page.remaining, expected.length - paged.length);
          if (!page.more) break;
          afterKey = page.items[page.items.length - 1]!.key;
        }
        assert.deepEqual(paged, expected, `paged list ${prefix} at ${rev}`);
      }
      for (const from of [compacted + 1, compacted + 7, head - 1]) {
        const got: Ev[] = [];
        let done = false;
        const w = s.watch(prefix, {
          fromRevision: from,
          onEvent: (e) => {
            got.push({ type: e.type, key: e.kv.key, value: e.kv.value, m: e.kv.modRevision, ...(e.prev && { prev: e.prev.value }) });
            if (e.kv.modRevision === head) done = true;
          },
        });
        const expected = log.filter((e) => e.m > from && e.key.startsWith(prefix));
        const deadline = Date.now() + 2000;
        while (!done && got.length < expected.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
        await new Promise((r) => setTimeout(r, 5));
        w.close();
        assert.deepEqual(got, expected, `watch ${prefix} from ${from}`);
      }
    }
    await s.close();
  });
});

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

describe('sqlite store: automatic compaction and close', () => {
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

  it('close commits queued writes, then refuses everything', async () => {
    const s = mem();
    const pending = [s.create('/c/a', 'a'), s.create('/c/b', 'b')];
    await s.close();
    const results = await Promise.all(pending);
    assert.ok(results.every((r) => r.ok));
    await rejectsWith(s.create('/c/c', 'c'), 'closed');
    await rejectsWith(s.get('/c/a'), 'closed');
    await rejectsWith(s.list('/c/'), 'closed');
    await rejectsWith(s.currentRevision(), 'closed');
    await s.close(); // idempotent
  });
});
