// Watches through @kubernetes/client-node: an informer (list + watch, resuming after the server ends
// each watch) must see every change exactly once and in order; raw watches get bookmarks and, from a
// compacted revision, the 410 Expired ERROR event.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import {
  GROUP,
  PLURAL,
  VERSION,
  crontab,
  crontabCrd,
  eventually,
  installCrd,
  patchAs,
  sleep,
  startWithClients,
  type Clients,
  type CronTab,
  type CronTabList,
} from './helpers.js';

let c: Clients;
const base = { group: GROUP, version: VERSION, plural: PLURAL };
// Watches last 1-2 s, so a few seconds of writes cross several server-side closes.
const MIN_REQUEST_TIMEOUT_S = 1;

before(async () => {
  c = await startWithClients({ minRequestTimeoutSeconds: MIN_REQUEST_TIMEOUT_S, bookmarkIntervalMs: 150 });
  await installCrd(c, crontabCrd());
});
after(async () => {
  await c?.server.close();
});

async function makeNamespace(name: string): Promise<void> {
  await c.core.createNamespace({ body: { metadata: { name } } });
}

/** makeInformer's ListWatch knows its resourceVersion; the Informer type does not say so. */
const latestRv = (i: k8s.Informer<CronTab>): string => (i as unknown as k8s.ListWatch<CronTab>).latestResourceVersion();

const collectionPath = (ns: string): string => `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${PLURAL}`;

interface Seen {
  verb: 'add' | 'update' | 'delete';
  name: string;
  rv: string;
  obj: CronTab;
}

interface Event {
  type: string;
  object: Record<string, any>;
}

/** Starts a k8s.Watch on a namespace's crontabs, collecting events until the server ends it. */
async function watch(ns: string, params: Record<string, string | number | boolean | undefined>) {
  const events: Event[] = [];
  let resolveDone!: (err: unknown) => void;
  const done = new Promise<unknown>((r) => (resolveDone = r));
  const controller = await new k8s.Watch(c.kc).watch(
    collectionPath(ns),
    params,
    (type, object) => events.push({ type, object }),
    (err) => resolveDone(err),
  );
  return { events, done, stop: () => controller.abort() };
}

/** A Watch that records every raw event (bookmarks aside) and the resourceVersion each watch starts from. */
class SpyWatch extends k8s.Watch {
  readonly events: Array<{ type: string; object: CronTab }> = [];
  readonly starts: string[] = [];
  override watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: any, watchObj?: any) => void,
    done: (err: any) => void,
  ): Promise<AbortController> {
    this.starts.push(String(queryParams['resourceVersion'] ?? ''));
    return super.watch(
      path,
      queryParams,
      (phase, obj, watchObj) => {
        if (phase !== 'BOOKMARK') this.events.push({ type: phase, object: obj as CronTab });
        callback(phase, obj, watchObj);
      },
      done,
    );
  }
}

// Each test has its own namespace, so they run side by side (the watch timeouts dominate their time).
describe('watches the server ends', { concurrency: true }, () => {
  test('sees every add, update and delete in order, across server-closed watches', async () => {
    const ns = 'informer';
    await makeNamespace(ns);
    const nsBase = { ...base, namespace: ns };
    // Something that exists before the informer starts arrives through the initial list.
    await c.custom.createNamespacedCustomObject({ ...nsBase, body: crontab('pre', { image: 'p' }) });

    const informer = k8s.makeInformer<CronTab>(
      c.kc,
      collectionPath(ns),
      () => c.custom.listNamespacedCustomObject({ ...nsBase }) as Promise<k8s.KubernetesListObject<CronTab>>,
    );
    const seen: Seen[] = [];
    let connects = 0;
    const errors: unknown[] = [];
    const record = (verb: Seen['verb']) => (obj: CronTab) => seen.push({ verb, name: obj.metadata.name!, rv: obj.metadata.resourceVersion!, obj });
    informer.on('add', record('add'));
    informer.on('update', record('update'));
    informer.on('delete', record('delete'));
    informer.on('connect', () => connects++);
    informer.on('error', (e) => errors.push(e));
    // The informer's own cache would hide a replayed event (same resourceVersion), so a second list-watch
    // over a spying Watch records the raw stream and where each watch resumed.
    const spy = new SpyWatch(c.kc);
    const raw = new k8s.ListWatch<CronTab>(
      collectionPath(ns),
      spy,
      () => c.custom.listNamespacedCustomObject({ ...nsBase }) as Promise<k8s.KubernetesListObject<CronTab>>,
      false,
    );
    await informer.start();
    await raw.start();

    try {
      await eventually('the initial list', () => (seen.length === 1 ? true : undefined));
      assert.deepEqual(seen.map((s) => `${s.verb} ${s.name}`), ['add pre']);

      // The writes, with what the informer must report for each. Pauses spread them over several
      // server-side watch timeouts, so some land while the informer is between watches.
      const expected: string[] = ['add pre'];
      const write = async (what: string, op: () => Promise<unknown>): Promise<void> => {
        await op();
        expected.push(what);
      };
      const mergePatch = (name: string, body: unknown) =>
        c.custom.patchNamespacedCustomObject({ ...nsBase, name, body }, patchAs(k8s.PatchStrategy.MergePatch));
      const deadline = Date.now() + 3 * MIN_REQUEST_TIMEOUT_S * 1000 + 500;
      let round = 0;
      while (Date.now() < deadline) {
        const a = `a${round}`;
        await write(`add ${a}`, () => c.custom.createNamespacedCustomObject({ ...nsBase, body: crontab(a, { image: 'one' }) }));
        await write(`update ${a}`, () => mergePatch(a, { spec: { image: 'two' } }));
        await write(`update ${a}`, () => mergePatch(a, { metadata: { labels: { round: String(round) } } }));
        await write(`update pre`, () => mergePatch('pre', { spec: { replicas: round } }));
        await write(`delete ${a}`, () => c.custom.deleteNamespacedCustomObject({ ...nsBase, name: a }));
        await sleep(150 + (round % 3) * 100);
        round++;
      }

      // An object with a finalizer: delete marks it (MODIFIED with deletionTimestamp), removing the
      // finalizer completes the delete.
      await write('add held', () =>
        c.custom.createNamespacedCustomObject({ ...nsBase, body: crontab('held', { image: 'h' }, { finalizers: ['example.com/hold'] }) }),
      );
      await write('update held', () => c.custom.deleteNamespacedCustomObject({ ...nsBase, name: 'held' }));
      await sleep(MIN_REQUEST_TIMEOUT_S * 1000);
      await write('delete held', () => mergePatch('held', { metadata: { finalizers: null } }));
      await write('delete pre', () => c.custom.deleteNamespacedCustomObject({ ...nsBase, name: 'pre' }));

      await eventually(`${expected.length} informer events (have ${seen.length})`, () => (seen.length >= expected.length ? true : undefined));
      await sleep(300); // nothing more may come
      assert.deepEqual(
        seen.map((s) => `${s.verb} ${s.name}`),
        expected,
      );
      // Resource versions only grow: nothing replayed, nothing reordered.
      for (let i = 1; i < seen.length; i++) assert.ok(Number(seen[i]!.rv) > Number(seen[i - 1]!.rv), `event ${i} goes back in time`);

      const marked = seen.find((s) => s.verb === 'update' && s.name === 'held')!;
      assert.match(String(marked.obj.metadata.deletionTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.deepEqual(marked.obj.metadata.finalizers, ['example.com/hold']);
      // DELETED carries the last stored state (etcd's previous value), at the deletion's revision.
      const gone = seen.find((s) => s.verb === 'delete' && s.name === 'held')!;
      assert.equal(gone.obj.metadata.deletionTimestamp, marked.obj.metadata.deletionTimestamp);
      assert.deepEqual(gone.obj.metadata.finalizers, ['example.com/hold']);

      // The server ended the watch several times and the informer came back each time without a relist error.
      assert.ok(connects >= 3, `expected reconnects, saw ${connects} connects`);
      assert.deepEqual(errors, []);
      assert.deepEqual(informer.list(ns), []);

      // On the wire: each watch resumed where the previous one ended, and no event came twice.
      await eventually('the raw stream', () => (spy.events.length >= expected.length - 1 ? true : undefined));
      assert.ok(spy.starts.length >= 3, `expected several watches, saw ${spy.starts.length}`);
      assert.deepEqual(
        spy.events.map((e) => `${e.type} ${e.object.metadata!.name}`),
        expected.slice(1).map((x) => x.replace(/^add /, 'ADDED ').replace(/^update /, 'MODIFIED ').replace(/^delete /, 'DELETED ')),
      );
      for (let i = 1; i < spy.events.length; i++) {
        assert.ok(Number(spy.events[i]!.object.metadata!.resourceVersion) > Number(spy.events[i - 1]!.object.metadata!.resourceVersion));
      }
      for (const start of spy.starts.slice(1)) assert.notEqual(start, '', 'a watch restarted without a resourceVersion (a relist)');
    } finally {
      await informer.stop();
      await raw.stop();
    }
  });

  test('resumes from a resourceVersion and sends bookmarks carrying the newest revision', async () => {
    const ns = 'bookmarks';
    await makeNamespace(ns);
    const nsBase = { ...base, namespace: ns };
    const made = (await c.custom.createNamespacedCustomObject({ ...nsBase, body: crontab('b1', { image: 'one' }) })) as CronTab;
    const w = await watch(ns, { resourceVersion: made.metadata.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 10 });
    try {
      const changed = (await c.custom.patchNamespacedCustomObject(
        { ...nsBase, name: 'b1', body: { spec: { image: 'two' } } },
        patchAs(k8s.PatchStrategy.MergePatch),
      )) as CronTab;
      const bookmark = await eventually('a bookmark after the change', () => {
        const at = w.events.findIndex((e) => e.type === 'MODIFIED');
        return w.events.find((e, i) => e.type === 'BOOKMARK' && at >= 0 && i > at);
      });
      // Nothing from before the resourceVersion is replayed: the first object event is the patch.
      const modified = w.events.findIndex((e) => e.type !== 'BOOKMARK');
      assert.equal(w.events[modified]!.type, 'MODIFIED');
      assert.equal(w.events[modified]!.object['metadata']['resourceVersion'], changed.metadata.resourceVersion);
      assert.equal(w.events[modified]!.object['spec']['image'], 'two');
      // Bookmarks carry the watch cache's revision of the resource (changes in other namespaces move it too),
      // never one at or below where the watch started.
      for (const e of w.events.slice(0, modified)) assert.ok(Number(e.object['metadata']['resourceVersion']) > Number(made.metadata.resourceVersion));
      assert.ok(Number(bookmark.object['metadata']['resourceVersion']) >= Number(changed.metadata.resourceVersion));
      assert.equal(bookmark.object['kind'], 'CronTab');
      assert.equal(bookmark.object['apiVersion'], `${GROUP}/${VERSION}`);
      assert.deepEqual(Object.keys(bookmark.object['metadata']).filter((k) => k !== 'creationTimestamp'), ['resourceVersion']);
      assert.ok(!w.events.some((e) => e.type === 'ADDED'));
    } finally {
      w.stop();
    }

    // Without allowWatchBookmarks there are none.
    const quiet = await watch(ns, { resourceVersion: made.metadata.resourceVersion, timeoutSeconds: 1 });
    assert.equal(await quiet.done, null);
    assert.deepEqual(quiet.events.map((e) => e.type), ['MODIFIED']);
  });

  test('the server ends a watch after timeoutSeconds, or within twice the minimum request timeout', async () => {
    const ns = 'timeouts';
    await makeNamespace(ns);
    await c.custom.createNamespacedCustomObject({ ...base, namespace: ns, body: crontab('there') });
    const started = Date.now();
    const short = await watch(ns, { timeoutSeconds: 1 });
    assert.equal(await short.done, null);
    const shortMs = Date.now() - started;
    assert.ok(shortMs >= 900 && shortMs < 1900, `timeoutSeconds=1 watch lasted ${shortMs} ms`);

    const started2 = Date.now();
    const dflt = await watch(ns, {});
    assert.equal(await dflt.done, null);
    const ms = Date.now() - started2;
    assert.ok(ms >= MIN_REQUEST_TIMEOUT_S * 1000 - 100 && ms < 2 * MIN_REQUEST_TIMEOUT_S * 1000 + 900, `default watch lasted ${ms} ms`);
    // A watch without a resourceVersion starts with the current objects as ADDED.
    assert.deepEqual(dflt.events.map((e) => `${e.type} ${e.object['metadata']['name']}`), ['ADDED there']);
  });
});

// Compaction affects every watch, so these run on their own.
describe('compacted history', () => {

  test('watching from a compacted revision gets a 410 Expired ERROR event, then the stream ends', async () => {
    const ns = 'compacted';
    await makeNamespace(ns);
    const nsBase = { ...base, namespace: ns };
    const kv = c.server.kv;
    assert.ok(kv, 'the harness exposes the store');
    const first = (await c.custom.createNamespacedCustomObject({ ...nsBase, body: crontab('old-1') })) as CronTab;
    const oldRv = first.metadata.resourceVersion!;
    await c.custom.createNamespacedCustomObject({ ...nsBase, body: crontab('old-2') });
    const list = (await c.custom.listNamespacedCustomObject({ ...nsBase })) as CronTabList;
    const head = Number(list.metadata.resourceVersion);
    await kv.compact(head - 1);

    const w = await watch(ns, { resourceVersion: oldRv, allowWatchBookmarks: true });
    const err = await w.done;
    assert.equal(err, null, 'the stream ends normally after the ERROR event');
    assert.equal(w.events.length, 1, JSON.stringify(w.events));
    const ev = w.events[0]!;
    assert.equal(ev.type, 'ERROR');
    assert.equal(ev.object['kind'], 'Status');
    assert.equal(ev.object['apiVersion'], 'v1');
    assert.equal(ev.object['status'], 'Failure');
    assert.equal(ev.object['reason'], 'Expired');
    assert.equal(ev.object['code'], 410);
    assert.match(ev.object['message'], new RegExp(`^too old resource version: ${oldRv} \\(\\d+\\)$`));

    // The list's own revision is still watchable, and an informer that lost its place relists.
    const fresh = await watch(ns, { resourceVersion: list.metadata.resourceVersion, timeoutSeconds: 1 });
    await c.custom.deleteNamespacedCustomObject({ ...nsBase, name: 'old-2' });
    assert.equal(await fresh.done, null);
    assert.deepEqual(fresh.events.map((e) => `${e.type} ${e.object['metadata']['name']}`), ['DELETED old-2']);
  });

  test('an informer whose resourceVersion was compacted away gets 410, relists, and reports the difference', async () => {
    const ns2 = 'relisting';
    await makeNamespace(ns2);
    const nsBase2 = { ...base, namespace: ns2 };
    for (const n of ['change', 'drop', 'keep']) await c.custom.createNamespacedCustomObject({ ...nsBase2, body: crontab(n) });
    const informer = k8s.makeInformer<CronTab>(
      c.kc,
      collectionPath(ns2),
      () => c.custom.listNamespacedCustomObject({ ...nsBase2 }) as Promise<k8s.KubernetesListObject<CronTab>>,
    );
    const seen: string[] = [];
    let connects = 0;
    informer.on('add', (o) => seen.push(`add ${o.metadata!.name}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata!.name}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata!.name}`));
    informer.on('connect', () => connects++);
    await informer.start();
    try {
      await eventually('the initial list', () => (seen.length === 3 ? true : undefined));
      assert.deepEqual(seen, ['add change', 'add drop', 'add keep']);
      const rv = latestRv(informer);
      await informer.stop();
      await sleep(100); // let the aborted watch report its end before restarting

      // While it is away, things change and history is compacted past where it stopped.
      await c.custom.deleteNamespacedCustomObject({ ...nsBase2, name: 'drop' });
      await c.custom.createNamespacedCustomObject({ ...nsBase2, body: crontab('new') });
      await c.custom.patchNamespacedCustomObject({ ...nsBase2, name: 'change', body: { spec: { image: 'changed' } } }, patchAs(k8s.PatchStrategy.MergePatch));
      const head = Number(((await c.custom.listNamespacedCustomObject({ ...nsBase2 })) as CronTabList).metadata.resourceVersion);
      await c.server.kv.compact(head - 1);
      assert.ok(Number(rv) < head - 1);

      connects = 0;
      await informer.start();
      await eventually('the relist', () => (seen.length === 6 ? true : undefined));
      // The resumed watch got 410 Expired, so the informer listed again and diffed against its cache.
      assert.deepEqual(seen.slice(3), ['delete drop', 'update change', 'add new']);
      assert.ok(connects >= 2, `expected a watch and a relist, saw ${connects} connects`);
      assert.deepEqual(
        informer.list(ns2).map((o) => o.metadata!.name).sort(),
        ['change', 'keep', 'new'],
      );
      assert.ok(Number(latestRv(informer)) >= head);
    } finally {
      await informer.stop();
    }
  });
});
