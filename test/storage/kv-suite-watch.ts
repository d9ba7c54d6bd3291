// Conformance: watch from a revision. Events may arrive after the write resolves (etcd's do), so
// tests wait for them; the order among one watcher's events is what is promised.
import assert from './kv-assert.js';
import { describe, it } from 'node:test';
import type { KVStore, StoreEvent } from '../../src/storage/index.js';
import type { KVStoreFactory } from './kv-suite.js';
import { withStore } from './kv-suite-util.js';
import { record, waitFor } from './helpers.js';

/** One event as text, revisions relative to base (the empty store's revision). */
export const brief = (e: StoreEvent, base = 0): string =>
  `${e.type} ${e.kv.key}=${e.kv.value}@${e.kv.modRevision - base}${e.prev ? ` prev=${e.prev.value}@${e.prev.modRevision - base}` : ''}`;

const tick = (ms: number) => new Promise((res) => setTimeout(res, ms));

export function watchTests(factory: KVStoreFactory): void {
  describe('watch', () => {
    it('delivers live puts and deletes with prev values, filtered by prefix', () =>
      withStore(factory, async (s, r) => {
        const w = record(s, '/a/b/', await s.currentRevision());
        await s.create('/a/b/x', '1'); // 1
        await s.create('/a/bc/x', 'no'); // 2: sibling prefix
        await s.update('/a/b/x', '2', r(1)); // 3
        await s.create('/a/b', 'no'); // 4: the prefix without its slash
        await s.delete('/a/b/x'); // 5
        await waitFor(() => w.events.length >= 3, 'events');
        assert.deepEqual(
          w.events.map((e) => brief(e, r(0))),
          ['put /a/b/x=1@1', 'put /a/b/x=2@3 prev=1@1', 'delete /a/b/x=2@5 prev=2@3'],
        );
        assert.equal(w.events[2]!.kv.createRevision, r(1));
        assert.deepEqual(w.errors, []);
        w.watcher.close();
      }));

    it('replays history from an older revision, then continues live', () => withStore(factory, (s, r) => replayThenLive(s, r)));

    it('has no gaps or duplicates when switching from replay to live under concurrent writes', () =>
      withStore(factory, async (s, r) => {
        // Started before any write, this watcher is live from the start: the reference sequence.
        const reference = record(s, '/w/', r(0));
        let stop = false;
        let n = 0;
        // Writers keep committing (several per tick, so batches) for the whole test.
        const writers = Array.from({ length: 4 }, async (_, wid) => {
          while (!stop) {
            const key = `/${n % 3 === 0 ? 'odd' : 'w'}/${wid}-${n++}`;
            const res = await s.create(key, String(n));
            assert.ok(res.ok);
            if (n % 5 === 0) await s.update(key, 'u', res.revision);
            if (n % 7 === 0) await s.delete(key);
          }
        });
        const watchers: { from: number; rec: ReturnType<typeof record> }[] = [];
        try {
          // Generous waits: on a loaded machine etcd's synced writes come at a few hundred a second.
          await waitFor(() => n > 1500, 'initial writes', 30_000);
          for (const back of [2000, 600, 100, 10, 0]) {
            const head = await s.currentRevision();
            const from = Math.max(r(0), head - back);
            watchers.push({ from, rec: record(s, '/w/', from) });
            await tick(10);
          }
          await waitFor(() => n > 5000, 'more writes', 30_000);
        } finally {
          // A failed wait is the failure to report, not the writers' writes to the store closed after it.
          stop = true;
          await Promise.allSettled(writers);
        }
        await Promise.all(writers);
        // Once the reference has the last write, it has everything before it.
        const end = await s.create('/w/~end', 'end');
        assert.ok(end.ok);
        await waitFor(() => reference.revs().at(-1) === end.revision, 'reference to catch up');
        // A watch from the start opened after the fact replays everything.
        const replayed = record(s, '/w/', r(0));
        watchers.push({ from: r(0), rec: replayed });
        const refRevs = reference.revs();
        assert.ok(refRevs.length > 1000);
        for (let i = 1; i < refRevs.length; i++) assert.ok(refRevs[i]! > refRevs[i - 1]!);
        assert.ok(reference.events.every((e) => e.kv.key.startsWith('/w/')));
        for (const { from, rec } of watchers) {
          const expected = reference.events.filter((e) => e.kv.modRevision > from).map((e) => brief(e));
          await waitFor(() => rec.events.length >= expected.length, `watch from ${from}`);
          await tick(5);
          assert.deepEqual(
            rec.events.map((e) => brief(e)),
            expected,
            `watch from ${from}`,
          );
          assert.deepEqual(rec.errors, []);
          rec.watcher.close();
        }
        reference.watcher.close();
      }));

    it('watching from the newest or a future revision only sees later events', () =>
      withStore(factory, async (s, r) => {
        await s.create('/f/a', '1'); // 1
        const now = record(s, '/f/', r(1));
        const future = record(s, '/f/', r(3));
        await s.create('/f/b', '2'); // 2
        await s.create('/f/c', '3'); // 3
        await s.create('/f/d', '4'); // 4
        await waitFor(() => now.revs().at(-1) === r(4) && future.revs().at(-1) === r(4), 'events at 4');
        assert.deepEqual(now.revs(), [r(2), r(3), r(4)]);
        assert.deepEqual(future.revs(), [r(4)]);
        now.watcher.close();
        future.watcher.close();
      }));

    it('close stops delivery and is idempotent; other watchers keep going', () =>
      withStore(factory, async (s, r) => {
        const a = record(s, '/c/', r(0));
        const b = record(s, '/c/', r(0));
        await s.create('/c/1', 'x');
        await waitFor(() => a.events.length === 1, 'first event');
        a.watcher.close();
        a.watcher.close();
        await s.create('/c/2', 'x');
        await waitFor(() => b.events.length === 2, 'second event');
        await tick(5);
        assert.deepEqual(a.revs(), [r(1)]);
        assert.deepEqual(b.revs(), [r(1), r(2)]);
        // Closing while a replay is pending delivers nothing.
        const c = record(s, '/c/', r(0));
        c.watcher.close();
        await tick(10);
        assert.deepEqual(c.events, []);
        assert.deepEqual(a.errors, []);
        b.watcher.close();
      }));

    it('a watcher may close itself from its callback, and a throwing callback only loses its own watch', () =>
      withStore(factory, async (s, r) => {
        const seen: number[] = [];
        const self = s.watch('/s/', {
          fromRevision: r(0),
          onEvent: (e) => {
            seen.push(e.kv.modRevision);
            self.close();
          },
        });
        const errors: string[] = [];
        s.watch('/s/', {
          fromRevision: r(0),
          onEvent: () => {
            throw new Error('boom');
          },
          onError: (err) => errors.push(err.code),
        });
        const healthy = record(s, '/s/', r(0));
        await s.create('/s/1', 'x');
        await s.create('/s/2', 'x');
        await waitFor(() => healthy.events.length === 2 && errors.length === 1, 'events and the error');
        await tick(5);
        assert.deepEqual(seen, [r(1)]);
        assert.deepEqual(errors, ['closed']);
        assert.deepEqual(healthy.revs(), [r(1), r(2)]);
        healthy.watcher.close();
      }));

    it('a callback can start another watch and write without breaking order', () =>
      withStore(factory, async (s, r) => {
        const inner: number[] = [];
        let started = false;
        s.watch('/n/', {
          fromRevision: r(0),
          onEvent: (e) => {
            if (started) return;
            started = true;
            s.watch('/n/', { fromRevision: e.kv.modRevision, onEvent: (ev) => inner.push(ev.kv.modRevision) });
            void s.create('/n/from-callback', 'x');
          },
        });
        await Promise.all([s.create('/n/a', 'x'), s.create('/n/b', 'x'), s.create('/n/c', 'x')]);
        await waitFor(() => inner.length === 3, 'inner watch');
        assert.deepEqual(inner, [r(2), r(3), r(4)]);
      }));

    it('refuses to watch from a compacted revision with a compacted error', () =>
      withStore(factory, async (s, r) => {
        for (let i = 0; i < 5; i++) await s.create(`/k/${i}`, 'x');
        await s.compact(r(3));
        const failed = [r(0), r(2), r(3)].map((from) => record(s, '/k/', from));
        for (const w of failed) {
          await waitFor(() => w.errors.length === 1, 'compacted error');
          assert.equal(w.errors[0]!.code, 'compacted');
          assert.equal(w.errors[0]!.revision, r(3));
          assert.deepEqual(w.events, []);
        }
        // The watch is over: later writes reach none of them, and the error came once.
        await s.create('/k/late', 'x');
        const ok = record(s, '/k/', r(4));
        await waitFor(() => ok.events.length >= 1, 'replay above the compacted revision');
        assert.equal(ok.revs()[0], r(5));
        await waitFor(() => ok.events.length === 2, 'the later write');
        assert.deepEqual(ok.revs(), [r(5), r(6)]);
        assert.deepEqual(ok.errors, []);
        for (const w of failed) {
          assert.equal(w.errors.length, 1);
          assert.deepEqual(w.events, []);
        }
        ok.watcher.close();
      }));

    it('closing the store ends open watches with a closed error', () =>
      withStore(factory, async (s, r) => {
        const w = record(s, '/z/', r(0));
        await s.close();
        await waitFor(() => w.errors.length === 1, 'closed error');
        assert.deepEqual(
          w.errors.map((e) => e.code),
          ['closed'],
        );
        const late = record(s, '/z/', r(0));
        await waitFor(() => late.errors.length === 1, 'closed error on a late watch');
        assert.equal(late.errors[0]!.code, 'closed');
      }));
  });
}

/** Shared with backend tests that run it over differently configured stores (e.g. SQLite's event ring). */
export async function replayThenLive(s: KVStore, r: (n: number) => number): Promise<void> {
  await s.create('/w/a', 'a1'); // 1
  await s.create('/other/z', 'z'); // 2
  await s.update('/w/a', 'a2', r(1)); // 3
  await s.create('/w/b', 'b1'); // 4
  await s.delete('/w/a'); // 5
  for (let i = 0; i < 10; i++) await s.create(`/other/${i}`, 'x'); // 6..15
  await s.create('/w/c', 'c1'); // 16
  const w = record(s, '/w/', r(1));
  // Nothing is delivered synchronously from watch().
  assert.equal(w.events.length, 0);
  await waitFor(() => w.events.length === 4, 'replay');
  await s.update('/w/b', 'b2', r(4)); // 17
  await waitFor(() => w.events.length === 5, 'live event');
  assert.deepEqual(
    w.events.map((e) => brief(e, r(0))),
    ['put /w/a=a2@3 prev=a1@1', 'put /w/b=b1@4', 'delete /w/a=a2@5 prev=a2@3', 'put /w/c=c1@16', 'put /w/b=b2@17 prev=b1@4'],
  );
  w.watcher.close();
}
