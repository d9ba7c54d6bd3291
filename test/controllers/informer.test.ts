import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { GenericStore, metaOf, type WatchEvent } from '../../src/registry/store.js';
import type * as S from '../../src/api/status.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { namespaceKind } from '../../src/apis/core/v1/namespace.js';

const namespaceType = () => builtinResourceType(namespaceKind);
import { Informer, keyOf, type InformerSource } from '../../src/controllers/informer.js';
import type { JSONObject } from '../../src/util/json.js';
import { waitFor } from '../storage/helpers.js';
import { FakeClock } from './fake-clock.js';
import { PassThroughStore } from '../storage/pass-through-store.js';
import type { ListOptions as KVListOptions } from '../../src/storage/types.js';

const ns = (name: string, labels: Record<string, string> = {}): JSONObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

/** Deletes a namespace outright: the delete marks it terminating, the finalize that empties its finalizers removes it. */
async function remove(store: GenericStore, name: string): Promise<void> {
  await store.delete('', name);
  await store.update('', name, (cur) => ({ ...cur!, spec: { finalizers: [] } }), 'finalize');
}

function setup() {
  const kv = openSqliteStore(':memory:');
  const store = new GenericStore(kv, namespaceType());
  const events: string[] = [];
  const record = {
    add: (o: JSONObject) => events.push(`add ${keyOf(o)}`),
    update: (old: JSONObject, o: JSONObject) => events.push(`update ${keyOf(o)} ${metaOf(old).resourceVersion}->${metaOf(o).resourceVersion}`),
    delete: (o: JSONObject) => events.push(`delete ${keyOf(o)}`),
  };
  return { kv, store, events, record };
}

/** The store as an informer source whose current watch the test can break (the informer then relists). */
function breakable(store: GenericStore): { source: InformerSource; watches(): number; failWatch(): void } {
  let fail: (() => void) | undefined;
  let watches = 0;
  const source: InformerSource = {
    list: (opts) => store.list(opts),
    watch: (namespace, from, filter, onEvent, onError) => {
      watches++;
      let live = true;
      const inner = store.watch(namespace, from, filter, (ev: WatchEvent) => live && onEvent(ev), onError);
      fail = () => {
        live = false;
        onError({} as S.StatusError);
      };
      return { close: () => inner.close() };
    },
  };
  return { source, watches: () => watches, failWatch: () => fail!() };
}

test('informer: lists into the cache, then follows the watch', async () => {
  const { kv, store, events, record } = setup();
  await store.create('', ns('a'));
  const inf = new Informer(store);
  inf.addEventHandler(record);
  assert.equal(inf.hasSynced(), false);
  await inf.start();
  assert.equal(inf.hasSynced(), true);
  assert.deepEqual(events, ['add a']);
  assert.equal(metaOf(inf.get('a')!).name, 'a');

  const b = await store.create('', ns('b'));
  const a2 = (await store.update('', 'a', (cur) => ({ ...cur!, metadata: { ...metaOf(cur!), labels: { x: 'y' } } }), '')).object;
  await remove(store, 'b');
  await waitFor(() => events.length === 5, 'five events');
  const rvA1 = Number(metaOf(b).resourceVersion) - 1;
  const rvB = Number(metaOf(b).resourceVersion);
  assert.deepEqual(events, ['add a', 'add b', `update a ${rvA1}->${metaOf(a2).resourceVersion}`, `update b ${rvB}->${rvB + 2}`, 'delete b']);
  assert.deepEqual(inf.list().map(keyOf), ['a']);
  assert.deepEqual(metaOf(inf.get('a')!).labels?.['x'], 'y');
  inf.stop();
  await kv.close();
});

test('informer: keys are namespace/name for namespaced objects, name otherwise', () => {
  assert.equal(keyOf({ metadata: { namespace: 'ns', name: 'n' } }), 'ns/n');
  assert.equal(keyOf({ metadata: { name: 'n' } }), 'n');
});

test('informer: a failed watch is replaced by a relist whose differences reach the handlers', async () => {
  const { kv, store, events, record } = setup();
  // The real store, with a watch the test can break.
  const { source, watches, failWatch } = breakable(store);
  await store.create('', ns('a'));
  await store.create('', ns('b'));
  const clock = new FakeClock();
  const inf = new Informer(source, { clock });
  inf.addEventHandler(record);
  await inf.start();
  events.length = 0;

  // Lost while the watch is broken: b deleted, c created, a updated.
  failWatch();
  await remove(store, 'b');
  await store.create('', ns('c'));
  await store.update('', 'a', (cur) => ({ ...cur!, metadata: { ...metaOf(cur!), labels: { v: '2' } } }), '');
  assert.equal(watches(), 1);
  // The relist is scheduled on the clock.
  clock.advance(0);
  await waitFor(() => watches() === 2 && inf.list().length === 2 && Boolean(inf.get('c')), 'the relist');
  events.sort();
  assert.equal(events.length, 3);
  assert.match(events[0]!, /^add c$/);
  assert.equal(events[1], 'delete b');
  assert.match(events[2]!, /^update a /);
  assert.equal(metaOf(inf.get('a')!).labels?.['v'], '2');
  inf.stop();
  await kv.close();
});

test('informer: waitForStore resolves once writes made so far are in the cache', async () => {
  const { kv, store } = setup();
  const inf = new Informer(store);
  await inf.start();
  const created = await store.create('', ns('late'));
  await inf.waitForStore();
  assert.equal(metaOf(inf.get('late')!).resourceVersion, metaOf(created).resourceVersion);
  inf.stop();
  await kv.close();
});

test('informer: a throwing handler does not stop the others', async () => {
  const { kv, store, events, record } = setup();
  const errors: unknown[] = [];
  const inf = new Informer(store, { onError: (e) => errors.push(e) });
  inf.addEventHandler({
    add: () => {
      throw new Error('boom');
    },
  });
  inf.addEventHandler(record);
  await store.create('', ns('a'));
  await inf.start();
  assert.deepEqual(events, ['add a']);
  assert.equal(errors.length, 1);
  inf.stop();
  await kv.close();
});

test('informer: a relist that fails is retried with backoff', async () => {
  const { kv, store } = setup();
  let failWatch: (() => void) | undefined;
  let failLists = 0;
  const source: InformerSource = {
    list: async (opts) => {
      if (failLists > 0) {
        failLists--;
        throw new Error('unavailable');
      }
      return store.list(opts);
    },
    watch: (namespace, from, filter, onEvent, onError) => {
      failWatch = () => onError({} as S.StatusError);
      return store.watch(namespace, from, filter, onEvent, onError);
    },
  };
  const clock = new FakeClock();
  const errors: unknown[] = [];
  const inf = new Informer(source, { clock, onError: (e) => errors.push(e) });
  await inf.start();
  failLists = 2;
  failWatch!();
  await store.create('', ns('x'));
  clock.advance(0);
  await waitFor(() => errors.length === 1, 'the first failed relist');
  assert.deepEqual(clock.pending(), [100]);
  clock.advance(100);
  await waitFor(() => errors.length === 2, 'the second failed relist');
  assert.deepEqual(clock.pending(), [200]);
  clock.advance(200);
  await waitFor(() => Boolean(inf.get('x')), 'the relist');
  inf.stop();
  await kv.close();
});

test('informer: lists in pages, and a transform decides what the cache keeps and handlers get', async () => {
  const { kv, store, events, record } = setup();
  // More than two pages of the relist.
  for (let i = 0; i < 1203; i++) await store.create('', ns(`n-${String(i).padStart(4, '0')}`, { big: 'x'.repeat(60) }));
  const slim = (o: JSONObject): JSONObject => ({ metadata: { name: metaOf(o).name!, resourceVersion: metaOf(o).resourceVersion! } });
  const inf = new Informer(store, { transform: slim });
  const seen: JSONObject[] = [];
  inf.addEventHandler(record);
  inf.addEventHandler({ add: (o) => seen.push(o), update: (_, o) => seen.push(o), delete: (o) => seen.push(o) });
  await inf.start();
  assert.equal(inf.list().length, 1203);
  assert.equal(new Set(inf.list().map(keyOf)).size, 1203);
  assert.deepEqual(inf.get('n-0007'), slim((await store.get('', 'n-0007'))));

  await store.create('', ns('late', { big: 'y' }));
  await remove(store, 'n-0000');
  await waitFor(() => events.includes('delete n-0000'), 'the delete');
  assert.deepEqual(Object.keys(inf.get('late')!.metadata as JSONObject).sort(), ['name', 'resourceVersion']);
  assert.ok(seen.every((o) => Object.keys(o).join() === 'metadata' && Object.keys(o['metadata'] as JSONObject).sort().join() === 'name,resourceVersion'), 'handlers get the transformed objects only');
  assert.equal(inf.get('n-0000'), undefined);
  inf.stop();
  await kv.close();
});

test('informer: a relist gives the event loop a turn between pages (requests are not held behind a long first list)', async () => {
  const { kv, store } = setup();
  for (let i = 0; i < 1203; i++) await store.create('', ns(`n-${String(i).padStart(4, '0')}`));
  // The store answers from memory at once; a page's continuation would otherwise run before any I/O or timer.
  const order: string[] = [];
  const source: InformerSource = {
    list: async (opts) => {
      const page = await store.list(opts);
      order.push('page');
      return page;
    },
    watch: (...args) => store.watch(...args),
  };
  const inf = new Informer(source);
  const started = inf.start();
  setImmediate(() => order.push('immediate'));
  await started;
  assert.deepEqual(order, ['page', 'immediate', 'page', 'page']);
  assert.equal(inf.list().length, 1203);
  inf.stop();
  await kv.close();
});

test('informer: a relist does not have the keys after each page counted', async () => {
  // Counting them reads every later key, per page: from a store without the watch cache, a relist of n keys
  // would read n²/500 of them.
  const inner = openSqliteStore(':memory:');
  const asked: Array<boolean | undefined> = [];
  const kv = new (class extends PassThroughStore {
    override list(prefix: string, opts?: KVListOptions) {
      asked.push(opts?.countRemaining);
      return super.list(prefix, opts);
    }
  })(inner);
  const store = new GenericStore(kv, namespaceType());
  for (let i = 0; i < 1203; i++) await store.create('', ns(`n-${String(i).padStart(4, '0')}`));
  asked.length = 0;
  const inf = new Informer(store);
  await inf.start();
  assert.equal(inf.list().length, 1203);
  assert.deepEqual(asked, [false, false, false]);
  // An API list's page still says how many remain.
  const page = await store.list({ namespace: '', limit: 500 });
  assert.equal(page.remainingItemCount, 703);
  const uncounted = await store.list({ namespace: '', limit: 500, countRemaining: false });
  assert.equal(uncounted.remainingItemCount, undefined);
  assert.ok(uncounted.continueToken);
  inf.stop();
  await kv.close();
});

test("informer: a long list's handlers are run in chunks, with turns of the event loop between them", async () => {
  const objects = Array.from({ length: 20_001 }, (_, i) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `n-${i}`, resourceVersion: String(i + 1) } }));
  // One page holding them all: any turn taken before start() resolves is the handlers'.
  const source: InformerSource = {
    list: async () => ({ items: objects, resourceVersion: '20001' }),
    watch: () => ({ close: () => {} }),
  };
  const inf = new Informer(source);
  let adds = 0;
  inf.addEventHandler({ add: () => adds++ });
  const started = inf.start();
  let addsAtTurn = -1;
  setImmediate(() => (addsAtTurn = adds));
  await started;
  assert.ok(addsAtTurn > 0 && addsAtTurn < 20_001, `the handlers had heard of ${addsAtTurn} objects at the first turn`);
  assert.equal(adds, 20_001);
  assert.equal(inf.list().length, 20_001);
  assert.equal(inf.hasSynced(), true);
  inf.stop();
});

test('informer: a compact cache holds strings for some objects; get, list and handlers see them expanded', async () => {
  const { kv, store } = setup();
  const { source, failWatch } = breakable(store);
  // Namespaces without the label a are held as their uid; the others whole.
  const packed: string[] = [];
  const compact = {
    pack: (o: JSONObject) => (metaOf(o).labels?.['a'] === undefined ? (packed.push(keyOf(o)), `uid:${metaOf(o).uid}`) : o),
    expand: (key: string, held: string) => ({ metadata: { name: key, uid: held.slice(4) } }),
  };
  const seen: string[] = [];
  const clock = new FakeClock();
  await store.create('', ns('plain'));
  await store.create('', ns('labelled', { a: 'b' }));
  const inf = new Informer(source, { clock, compact });
  inf.addEventHandler({
    add: (o) => seen.push(`add ${keyOf(o)}`),
    update: (old, o) => seen.push(`update ${keyOf(old)} ${metaOf(old).uid === metaOf(o).uid}`),
    delete: (o) => seen.push(`delete ${keyOf(o)} ${typeof metaOf(o).uid}`),
  });
  await inf.start();
  assert.deepEqual(packed, ['plain']);
  const plainUid = metaOf(await store.get('', 'plain')).uid;
  assert.deepEqual(inf.get('plain'), { metadata: { name: 'plain', uid: plainUid } });
  assert.equal(metaOf(inf.get('labelled')!).labels?.['a'], 'b');
  assert.deepEqual(inf.list().map(keyOf).sort(), ['labelled', 'plain']);
  // A handler added later hears of every cached object, expanded.
  const late: JSONObject[] = [];
  inf.addEventHandler({ add: (o) => late.push(o) });
  assert.deepEqual(late.map((o) => `${keyOf(o)} ${metaOf(o).uid !== undefined}`).sort(), ['labelled true', 'plain true']);
  // An update's old object comes expanded; a delete seen by the watch hands on the watch's last state.
  await store.update('', 'plain', (cur) => ({ ...cur!, metadata: { ...metaOf(cur!), annotations: { x: 'y' } } }), '');
  await waitFor(() => seen.includes('update plain true'), 'the update');
  // A delete found by a relist: the handler gets the expanded object, uid included.
  failWatch();
  await remove(store, 'plain');
  clock.advance(0);
  await waitFor(() => inf.get('plain') === undefined, 'the relist');
  assert.ok(seen.includes('delete plain string'), seen.join(', '));
  inf.stop();
  await kv.close();
});

test('informer: a compact cache that keeps no strings hands them on, forgets them, and says when it relisted', async () => {
  const { kv, store } = setup();
  const { source, failWatch } = breakable(store);
  const compact = {
    pack: (o: JSONObject) => (metaOf(o).labels?.['keep'] === undefined ? `uid:${metaOf(o).uid}` : o),
    expand: (key: string, held: string) => ({ metadata: { name: key, uid: held.slice(4) } }),
    keepStrings: false,
  };
  const seen: string[] = [];
  let relisted = 0;
  const clock = new FakeClock();
  await store.create('', ns('plain'));
  await store.create('', ns('kept', { keep: 'yes' }));
  const inf = new Informer(source, { clock, compact, onRelisted: () => relisted++ });
  inf.addEventHandler({
    add: (o) => seen.push(`add ${keyOf(o)} ${metaOf(o).uid !== undefined}`),
    update: (_old, o) => seen.push(`update ${keyOf(o)}`),
    delete: (o) => seen.push(`delete ${keyOf(o)} ${metaOf(o).uid !== undefined}`),
  });
  await inf.start();
  assert.deepEqual(seen.sort(), ['add kept true', 'add plain true']);
  assert.equal(inf.get('plain'), undefined, 'not kept');
  assert.deepEqual(inf.list().map(keyOf), ['kept']);
  assert.equal(relisted, 0, 'the first list is no relist');
  // Each change of an object not kept is an add; its watched delete still comes, with its uid.
  seen.length = 0;
  await store.update('', 'plain', (cur) => ({ ...cur!, metadata: { ...metaOf(cur!), annotations: { x: 'y' } } }), '');
  await store.create('', ns('other'));
  await remove(store, 'other');
  await waitFor(() => seen.some((e) => e.startsWith('delete other')), 'the delete');
  assert.deepEqual(seen.filter((e) => !e.startsWith('add other')), ['add plain true', 'delete other true']);
  // Gone while the watch is down: the kept one is found gone by the relist, the other is not; onRelisted says so.
  seen.length = 0;
  failWatch();
  await remove(store, 'plain');
  await remove(store, 'kept');
  clock.advance(0);
  await waitFor(() => relisted === 1, 'the relist');
  assert.deepEqual(seen, ['delete kept true']);
  inf.stop();
  await kv.close();
});

test("informer: reuse gives a watched or relisted object's new state parts of the one held (a CRD's unchanged spec)", async () => {
  const { kv, store } = setup();
  await store.create('', ns('a'));
  const { source, failWatch } = breakable(store);
  const clock = new FakeClock();
  const calls: string[] = [];
  const inf = new Informer(source, {
    clock,
    reuse: (held, next) => {
      calls.push(`${metaOf(held).resourceVersion}->${metaOf(next).resourceVersion}`);
      return { ...next, spec: held['spec'] };
    },
  });
  const updates: Array<[JSONObject, JSONObject]> = [];
  inf.addEventHandler({ update: (old, o) => updates.push([old, o]) });
  await inf.start();
  assert.deepEqual(calls, [], 'not for what a list brings');
  const spec = inf.get('a')!['spec'];
  assert.ok(spec !== undefined);
  await store.update('', 'a', (cur) => ({ ...cur!, metadata: { ...metaOf(cur!), labels: { x: 'y' } } }), '');
  await waitFor(() => updates.length === 1, 'the update');
  const [old, now] = updates[0]!;
  assert.equal(now['spec'], spec, 'handlers get the held spec object');
  assert.equal(inf.get('a')!['spec'], spec, 'and the cache holds it');
  assert.equal(metaOf(now).labels?.['x'], 'y', 'the rest is the new state');
  assert.equal(calls.length, 1);
  assert.equal(calls[0], `${metaOf(old).resourceVersion}->${metaOf(now).resourceVersion}`);
  // A relist's items go through it too.
  failWatch();
  await store.update('', 'a', (cur) => ({ ...cur!, metadata: { ...metaOf(cur!), labels: { x: 'z' } } }), '');
  clock.advance(0);
  await waitFor(() => updates.length === 2, 'the relist');
  assert.equal(calls.length, 2);
  assert.equal(updates[1]![1]['spec'], spec);
  assert.equal(metaOf(updates[1]![1]).labels?.['x'], 'z');
  inf.stop();
  await kv.close();
});
