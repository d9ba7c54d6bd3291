import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqliteStore, type SqliteStore, type StoreEvent } from '../../src/storage/index.js';
import { record, waitFor } from './helpers.js';

const mem = (ringSize?: number): SqliteStore =>
  openSqliteStore(':memory:', { compactionIntervalMs: 0, ...(ringSize !== undefined && { eventRingSize: ringSize }) });

const brief = (e: StoreEvent) => `${e.type} ${e.kv.key}=${e.kv.value}@${e.kv.modRevision}${e.prev ? ` prev=${e.prev.value}@${e.prev.modRevision}` : ''}`;

// What only the SQLite store's watch does: events delivered synchronously, before the write that
// caused them resolves, a replay that reads the database in steps, the watcher count. What every
// KVStore's watch promises is in the conformance suite (kv-suite-watch.ts).
describe('sqlite store: watch', () => {
  it('delivers events before the writer sees its result', async () => {
    const s = mem();
    const seen: number[] = [];
    s.watch('/', { fromRevision: 0, onEvent: (e) => seen.push(e.kv.modRevision) });
    const r = await s.create('/x', 'v');
    assert.ok(r.ok);
    assert.deepEqual(seen, [r.revision]);
    await s.close();
  });

  it('has delivered live puts and deletes with prev values by the time each write resolves', async () => {
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

  it("an update's and a delete's previous key-value is the one the ring holds, read from the database without it", async () => {
    for (const ringSize of [10_000, 0]) {
      const s = mem(ringSize);
      const w = record(s, '/a/', await s.currentRevision());
      await s.create('/a/x', '1');
      await s.update('/a/x', '2', 1);
      await s.delete('/a/x', 2);
      assert.deepEqual(w.events.map(brief), ['put /a/x=1@1', 'put /a/x=2@2 prev=1@1', 'delete /a/x=2@3 prev=2@2']);
      // Held: the same objects (one copy of a value, however big, for its event and the next one's prev).
      if (ringSize > 0) {
        assert.equal(w.events[1]!.prev, w.events[0]!.kv);
        assert.equal(w.events[2]!.prev, w.events[1]!.kv);
      } else assert.notEqual(w.events[1]!.prev, w.events[0]!.kv);
      assert.deepEqual(w.events[2]!.prev, { key: '/a/x', value: '2', createRevision: 1, modRevision: 2 });
      // A stale expectation is refused with the current key-value, as before.
      await s.create('/a/y', 'y');
      const stale = await s.update('/a/y', 'z', 1);
      assert.ok(!stale.ok);
      assert.deepEqual(stale.current, { key: '/a/y', value: 'y', createRevision: 4, modRevision: 4 });
      w.watcher.close();
      await s.close();
    }
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

describe('sqlite store: replay backpressure', () => {
  it('a replay from history waits between batches while backlogFull says so, then delivers everything in order', async () => {
    const s = mem(0);
    for (let i = 0; i < 2500; i++) assert.ok((await s.create(`/k/${String(i).padStart(5, '0')}`, 'v')).ok);
    const seen: number[] = [];
    let release: (() => void) | undefined;
    let asked = 0;
    s.watch('/k/', {
      fromRevision: 0,
      onEvent: (e) => seen.push(e.kv.modRevision),
      // Full after every batch until released.
      backlogFull: () => {
        asked++;
        return new Promise<void>((r) => (release = r));
      },
    });
    await waitFor(() => seen.length >= 1000, 'the first batch');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(seen.length, 1000, 'the replay waits while the consumer is full');
    for (let i = 0; seen.length < 2500 && i < 10; i++) {
      const before = asked;
      release!();
      await waitFor(() => asked > before || seen.length === 2500, 'the next batch');
    }
    assert.equal(seen.length, 2500);
    assert.deepEqual(seen, [...seen].sort((a, b) => a - b));
    assert.equal(new Set(seen).size, 2500);
    await s.close();
  });
});
