import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqliteStore, type SqliteStore, type StoreEvent } from '../../src/storage/index.js';
import { record, waitFor } from './helpers.js';

const mem = (ringSize?: number): SqliteStore =>
  openSqliteStore(':memory:', { compactionIntervalMs: 0, ...(ringSize !== undefined && { eventRingSize: ringSize }) });

const brief = (e: StoreEvent) => `${e.type} ${e.kv.key}=${e.kv.value}@${e.kv.modRevision}${e.prev ? ` prev=${e.prev.value}@${e.prev.modRevision}` : ''}`;

describe('sqlite store: watch', () => {
  it('delivers live puts and deletes with prev values, filtered by prefix', async () => {
    const s = mem();
    const w = record(s, '/a/b/', await s.currentRevision());
    await s.create('/a/b/x', '1'); // 1
    await s.create('/a/bc/x', 'no'); // 2: sibling prefix
    await s.update('/a/b/x', '2', 1); // 3
    await s.create('/a/b', 'no'); // 4: the prefix without its slash
    await s.delete('/a/b/x'); // 5
    assert.deepEqual(w.events.map(brief), ['put /a/b/x=1@1', 'put /a/b/x=2@3 prev=1@1', 'delete /a/b/x=2@5 prev=2@3']);
    assert.equal(w.events[2]!.kv.createRevision, 1);
    assert.deepEqual(w.errors, []);
    w.watcher.close();
    await s.close();
  });

  it('delivers events before the writer sees its result', async () => {
    const s = mem();
    const seen: number[] = [];
    s.watch('/', { fromRevision: 0, onEvent: (e) => seen.push(e.kv.modRevision) });
    const r = await s.create('/x', 'v');
    assert.ok(r.ok);
    assert.deepEqual(seen, [r.revision]);
    await s.close();
  });

  for (const [name, ringSize] of [
    ['the in-memory ring', 10_000],
    ['the database (ring disabled)', 0],
    ['the database, then the ring', 5],
  ] as const) {
    it(`replays history from an older revision via ${name}, then continues live`, async () => {
      const s = mem(ringSize);
      await s.create('/w/a', 'a1'); // 1
      await s.create('/other/z', 'z'); // 2
      await s.update('/w/a', 'a2', 1); // 3
      await s.create('/w/b', 'b1'); // 4
      await s.delete('/w/a'); // 5
      for (let i = 0; i < 10; i++) await s.create(`/other/${i}`, 'x'); // 6..15
      await s.create('/w/c', 'c1'); // 16
      const w = record(s, '/w/', 1);
      // Nothing is delivered synchronously from watch().
      assert.equal(w.events.length, 0);
      await waitFor(() => w.events.length === 4, 'replay');
      await s.update('/w/b', 'b2', 4); // 17
      assert.deepEqual(w.events.map(brief), [
        'put /w/a=a2@3 prev=a1@1',
        'put /w/b=b1@4',
        'delete /w/a=a2@5 prev=a2@3',
        'put /w/c=c1@16',
        'put /w/b=b2@17 prev=b1@4',
      ]);
      w.watcher.close();
      await s.close();
    });
  }

  it('has no gaps or duplicates when switching from replay to live under concurrent writes', async () => {
    const s = mem(64);
    // Started before any write, this watcher is live from the start: the reference sequence.
    const reference = record(s, '/w/', 0);
    let stop = false;
    let n = 0;
    // Writers keep committing (several per tick, so batches) for the whole test.
    const writers = Array.from({ length: 4 }, async (_, wid) => {
      while (!stop) {
        const key = `/${n % 3 === 0 ? 'odd' : 'w'}/${wid}-${n++}`;
        const r = await s.create(key, String(n));
        assert.ok(r.ok);
        if (n % 5 === 0) await s.update(key, 'u', r.revision);
        if (n % 7 === 0) await s.delete(key);
      }
    });
    await waitFor(() => n > 1500, 'initial writes');
    const watchers: { from: number; rec: ReturnType<typeof record> }[] = [];
    for (const back of [2000, 600, 100, 10, 0]) {
      const head = await s.currentRevision();
      const from = Math.max(0, head - back);
      watchers.push({ from, rec: record(s, '/w/', from) });
      await new Promise((r) => setTimeout(r, 10));
    }
    await waitFor(() => n > 5000, 'more writes', 10_000);
    stop = true;
    await Promise.all(writers);
    // A watch from 0 started after the fact replays everything from the ring and the database.
    const replayed = record(s, '/w/', 0);
    watchers.push({ from: 0, rec: replayed });
    const refRevs = reference.revs();
    assert.ok(refRevs.length > 1000);
    for (let i = 1; i < refRevs.length; i++) assert.ok(refRevs[i]! > refRevs[i - 1]!);
    assert.ok(reference.events.every((e) => e.kv.key.startsWith('/w/')));
    for (const { from, rec } of watchers) {
      const expected = reference.events.filter((e) => e.kv.modRevision > from).map(brief);
      await waitFor(() => rec.events.length >= expected.length, `watch from ${from}`);
      await new Promise((r) => setTimeout(r, 5));
      assert.deepEqual(rec.events.map(brief), expected, `watch from ${from}`);
      assert.deepEqual(rec.errors, []);
      rec.watcher.close();
    }
    await s.close();
  });

  it('replays a long backlog from the database in steps and filters a rare prefix', async () => {
    const s = mem(100);
    const rare: number[] = [];
    for (let round = 0; round < 25; round++) {
      const writes = Array.from({ length: 1000 }, (_, i) => s.create(`/busy/${round}-${i}`, 'x'));
      writes.push(s.create(`/rare/${round}`, 'r'));
      const results = await Promise.all(writes);
      const last = results[results.length - 1]!;
      assert.ok(last.ok);
      rare.push(last.revision);
    }
    const busy = record(s, '/busy/', 0);
    const rareRec = record(s, '/rare/', 0);
    await waitFor(() => busy.events.length === 25_000 && rareRec.events.length === 25, 'long replay', 20_000);
    assert.deepEqual(rareRec.revs(), rare);
    const revs = busy.revs();
    for (let i = 1; i < revs.length; i++) assert.ok(revs[i]! > revs[i - 1]!);
    // Still live afterwards.
    const r = await s.create('/rare/live', 'l');
    assert.ok(r.ok);
    assert.equal(rareRec.revs().at(-1), r.revision);
    busy.watcher.close();
    rareRec.watcher.close();
    await s.close();
  });

  it('watching from the newest or a future revision only sees later events', async () => {
    const s = mem();
    await s.create('/f/a', '1'); // 1
    const now = record(s, '/f/', 1);
    const future = record(s, '/f/', 3);
    await s.create('/f/b', '2'); // 2
    await s.create('/f/c', '3'); // 3
    await s.create('/f/d', '4'); // 4
    assert.deepEqual(now.revs(), [2, 3, 4]);
    assert.deepEqual(future.revs(), [4]);
    await s.close();
  });

  it('close stops delivery and is idempotent; other watchers keep going', async () => {
    const s = mem();
    const a = record(s, '/c/', 0);
    const b = record(s, '/c/', 0);
    await s.create('/c/1', 'x');
    a.watcher.close();
    a.watcher.close();
    await s.create('/c/2', 'x');
    assert.deepEqual(a.revs(), [1]);
    assert.deepEqual(b.revs(), [1, 2]);
    assert.equal(s.watcherCount, 1);
    // Closing while a replay is pending delivers nothing.
    const c = record(s, '/c/', 0);
    c.watcher.close();
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(c.events, []);
    assert.deepEqual(a.errors, []);
    await s.close();
  });

  it('a watcher may close itself from its callback, and a throwing callback only loses its own watch', async () => {
    const s = mem();
    const seen: number[] = [];
    const self = s.watch('/s/', {
      fromRevision: 0,
      onEvent: (e) => {
        seen.push(e.kv.modRevision);
        self.close();
      },
    });
    const errors: string[] = [];
    s.watch('/s/', {
      fromRevision: 0,
      onEvent: () => {
        throw new Error('boom');
      },
      onError: (err) => errors.push(err.code),
    });
    const healthy = record(s, '/s/', 0);
    await s.create('/s/1', 'x');
    await s.create('/s/2', 'x');
    assert.deepEqual(seen, [1]);
    assert.deepEqual(errors, ['closed']);
    assert.deepEqual(healthy.revs(), [1, 2]);
    await s.close();
  });

  it('a callback can start another watch and write without breaking order', async () => {
    const s = mem();
    const inner: number[] = [];
    let started = false;
    s.watch('/n/', {
      fromRevision: 0,
      onEvent: (e) => {
        if (started) return;
        started = true;
        s.watch('/n/', { fromRevision: e.kv.modRevision, onEvent: (ev) => inner.push(ev.kv.modRevision) });
        void s.create('/n/from-callback', 'x');
      },
    });
    await Promise.all([s.create('/n/a', 'x'), s.create('/n/b', 'x'), s.create('/n/c', 'x')]);
    await waitFor(() => inner.length === 3, 'inner watch');
    assert.deepEqual(inner, [2, 3, 4]);
    await s.close();
  });

  it('refuses to watch from a compacted revision with a compacted error', async () => {
    const s = mem();
    for (let i = 0; i < 5; i++) await s.create(`/k/${i}`, 'x');
    await s.compact(3);
    for (const from of [0, 2, 3]) {
      const w = record(s, '/k/', from);
      await waitFor(() => w.errors.length === 1, 'compacted error');
      assert.equal(w.errors[0]!.code, 'compacted');
      assert.equal(w.errors[0]!.revision, 3);
      assert.deepEqual(w.events, []);
    }
    const ok = record(s, '/k/', 4);
    await waitFor(() => ok.events.length === 1, 'replay above the compacted revision');
    assert.deepEqual(ok.revs(), [5]);
    assert.deepEqual(ok.errors, []);
    await s.close();
  });

  it('a replay overtaken by compaction fails with compacted instead of skipping events', async () => {
    const s = mem(0);
    const writes = Array.from({ length: 5000 }, (_, i) => s.create(`/o/${i}`, 'x'));
    await Promise.all(writes);
    const w = record(s, '/o/', 1);
    // Let the first replay step run, then compact past the watcher's position.
    await waitFor(() => w.events.length > 0, 'first replay step');
    await s.compact(4000);
    await waitFor(() => w.errors.length === 1, 'compacted error', 5_000);
    assert.equal(w.errors[0]!.code, 'compacted');
    const revs = w.revs();
    assert.ok(revs.length < 4999);
    revs.forEach((r, i) => assert.equal(r, i + 2));
    await s.close();
  });

  it('closing the store ends open watches with a closed error', async () => {
    const s = mem();
    const w = record(s, '/z/', 0);
    await s.close();
    assert.deepEqual(
      w.errors.map((e) => e.code),
      ['closed'],
    );
    const late = record(s, '/z/', 0);
    await waitFor(() => late.errors.length === 1, 'closed error');
    assert.equal(late.errors[0]!.code, 'closed');
  });
});
