// The watch cache's watchers are filed by their prefixes' '/'-ended beginnings, so an event visits only those
// that may want it. Each watcher must still get exactly the events whose keys start with its prefix, whatever
// the prefix looks like (none, a bare '/', cut mid-segment, a whole key), also as watchers come and go while
// events are delivered.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CacheWatchers } from '../../src/storage/cache-watchers.js';
import type { StoreEvent, Watcher } from '../../src/storage/types.js';

const KEYS = [
  '/registry/configmaps/a/one',
  '/registry/configmaps/a/one-more',
  '/registry/configmaps/b/two',
  '/registry/configmapsx/a/one',
  '/registry/clusters/c1/configmaps/a/one',
  '/registry/clusters/c10/configmaps/a/one',
  '/registry/clusters/c1/secrets/a/s',
  '/registry/stable.example.com/crontabs/a/x',
  '/other/thing',
  'no-slash-at-all',
];
const PREFIXES = [
  '',
  '/',
  '/registry',
  '/registry/',
  '/registry/config',
  '/registry/configmaps/',
  '/registry/configmaps/a/one',
  '/registry/clusters/c1',
  '/registry/clusters/c1/',
  '/registry/clusters/c1/configmaps/',
  '/registry/stable.example.com/crontabs/',
  'no-slash',
  '/nothing/here/',
];

const event = (key: string, revision: number): StoreEvent => ({ type: 'put', kv: { key, value: String(revision), createRevision: revision, modRevision: revision } });

it('every watcher gets exactly the events under its prefix, in order, however the prefix is cut', async () => {
  const ring = new CacheWatchers(1000, 0);
  const seen = new Map<string, number[]>();
  for (const prefix of PREFIXES) {
    seen.set(prefix, []);
    ring.watch(prefix, { fromRevision: 0, onEvent: (ev) => seen.get(prefix)!.push(ev.kv.modRevision) });
  }
  // Some events before the watchers are live (replayed from the ring), the rest pushed live.
  let revision = 0;
  const pushed: StoreEvent[] = [];
  const push = (key: string): void => {
    const ev = event(key, ++revision);
    pushed.push(ev);
    ring.push(ev);
  };
  for (const key of KEYS) push(key);
  await nextTurn();
  for (let i = 0; i < 200; i++) push(KEYS[(i * 7) % KEYS.length]!);
  for (const prefix of PREFIXES) {
    const want = pushed.filter((ev) => ev.kv.key.startsWith(prefix)).map((ev) => ev.kv.modRevision);
    assert.deepEqual(seen.get(prefix), want, `prefix ${JSON.stringify(prefix)}`);
  }
  assert.ok(seen.get('/registry/clusters/c1')!.length > seen.get('/registry/clusters/c1/')!.length, 'a prefix cut mid-segment takes c10 too');
});

it('watchers closed or added while an event is delivered', async () => {
  const ring = new CacheWatchers(1000, 0);
  const got: Record<string, number[]> = { self: [], other: [], late: [], stays: [] };
  const record = (name: string) => (ev: StoreEvent) => got[name]!.push(ev.kv.modRevision);
  let other: Watcher | undefined;
  let late: Watcher | undefined;
  // The first watcher closes itself and a sibling of the same prefix at revision 2, and opens a new watch.
  const self: Watcher = ring.watch('/registry/configmaps/', {
    fromRevision: 0,
    onEvent: (ev) => {
      record('self')(ev);
      if (ev.kv.modRevision !== 2) return;
      self.close();
      other!.close();
      late = ring.watch('/registry/configmaps/', { fromRevision: 2, onEvent: record('late') });
    },
  });
  other = ring.watch('/registry/configmaps/', { fromRevision: 0, onEvent: record('other') });
  ring.watch('/registry/configmaps/', { fromRevision: 0, onEvent: record('stays') });
  await nextTurn();
  for (let r = 1; r <= 4; r++) ring.push(event('/registry/configmaps/a/x', r));
  await nextTurn();
  ring.push(event('/registry/configmaps/a/x', 5));
  assert.deepEqual(got['self'], [1, 2]);
  assert.deepEqual(got['other'], [1], 'closed before revision 2 reached it');
  assert.deepEqual(got['stays'], [1, 2, 3, 4, 5]);
  assert.deepEqual(got['late'], [3, 4, 5], 'replayed from the ring after revision 2, then live');
  late!.close();
  assert.equal(ring.size, 1);
});

it('the ring holds at most its value-text budget beyond the newest event, and replays copies', async () => {
  const value = 'v'.repeat(100);
  const ring = new CacheWatchers(1000, 0, 250);
  const put = (key: string, revision: number, prev?: StoreEvent): StoreEvent => ({
    type: 'put',
    kv: { key, value, createRevision: prev?.kv.createRevision ?? revision, modRevision: revision },
    ...(prev ? { prev: prev.kv } : {}),
  });
  const first = put('/a/x', 1);
  ring.push(first);
  // Its previous value is the first event's key-value, held already: 200 in all, both kept.
  ring.push(put('/a/x', 2, first));
  assert.ok(ring.covers(0));
  const replayed: StoreEvent[] = [];
  ring.watch('/a/', { fromRevision: 0, onEvent: (ev) => replayed.push(ev) });
  await nextTurn();
  assert.deepEqual(replayed.map((ev) => ev.kv.modRevision), [1, 2]);
  assert.notEqual(replayed[0], first, 'a replay hands out a copy, not the event delivered live');
  assert.equal(replayed[0]!.kv, first.kv);
  ring.push(put('/a/y', 3));
  assert.ok(!ring.covers(0), 'past 250 the oldest event goes');
  assert.ok(ring.covers(1));
  let failed: Error | undefined;
  ring.watch('/a/', { fromRevision: 0, onEvent: () => {}, onError: (err) => (failed = err) });
  await nextTurn();
  assert.match(String(failed?.message), /too old resource version/);
});
