// A watch cache over a store other writers share (replicas on one etcd): a current read sees every write
// acknowledged before it began, wherever it was made, and still comes from memory when the cache is current.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCachedStore, openSqliteStore, type KVStore, type WatchOptions, type Watcher } from '../../src/storage/index.js';
import { PassThroughStore } from './pass-through-store.js';

/** Delivers watch events delayMs late, as a replica hears of another's write; counts revision probes and reads. */
class LaggingStore extends PassThroughStore {
  probes = 0;
  gets = 0;
  /** Added to the revision reported: writes to keys no watch here follows (another prefix, kube's compactor). */
  outside = 0;
  constructor(
    inner: KVStore,
    private readonly delayMs: number,
  ) {
    super(inner);
  }

  override watch(prefix: string, opts: WatchOptions): Watcher {
    return this.inner.watch(prefix, { ...opts, onEvent: (ev) => void setTimeout(() => opts.onEvent(ev), this.delayMs) });
  }

  override async currentRevision(): Promise<number> {
    this.probes++;
    await new Promise((r) => setTimeout(r, 2));
    return (await this.inner.currentRevision()) + this.outside;
  }

  override get(key: string): ReturnType<KVStore['get']> {
    this.gets++;
    return this.inner.get(key);
  }
}

async function setup(shared: boolean): Promise<{ other: KVStore; lagging: LaggingStore; cache: Awaited<ReturnType<typeof createCachedStore>>; close(): Promise<void> }> {
  const other = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
  const lagging = new LaggingStore(other, 20);
  const cache = await createCachedStore(lagging, { sharedStore: shared, freshWaitMs: 500 });
  return { other, lagging, cache, close: () => cache.close() };
}

it('a read through one replica sees a write just acknowledged by another', async () => {
  const { other, lagging, cache, close } = await setup(true);
  try {
    await other.create('/o/a', 'one');
    lagging.gets = 0;
    assert.equal((await cache.get('/o/a'))?.value, 'one');
    const listed = await cache.list('/o/');
    assert.deepEqual(listed.items.map((kv) => kv.value), ['one']);
    assert.equal(lagging.gets, 0, 'answered from memory once caught up');
  } finally {
    await close();
  }
});

it('without sharedStore the same read is stale (what the option is for)', async () => {
  const { other, cache, close } = await setup(false);
  try {
    await other.create('/o/a', 'one');
    assert.equal(await cache.get('/o/a'), undefined);
  } finally {
    await close();
  }
});

it('concurrent reads share a probe of the store revision', async () => {
  const { lagging, cache, close } = await setup(true);
  try {
    lagging.probes = 0;
    await Promise.all(Array.from({ length: 100 }, () => cache.get('/o/x')));
    assert.ok(lagging.probes <= 2, `${lagging.probes} probes for 100 concurrent reads`);
  } finally {
    await close();
  }
});

it('a revision the cache cannot reach sends reads to the store, waiting only once', async () => {
  const { other, lagging, cache, close } = await setup(true);
  try {
    await other.create('/o/a', 'one');
    assert.equal((await cache.get('/o/a'))?.value, 'one');
    lagging.outside = 100;
    lagging.gets = 0;
    let t = Date.now();
    assert.equal((await cache.get('/o/a'))?.value, 'one');
    assert.ok(Date.now() - t >= 450, 'the first read waited for the cache');
    t = Date.now();
    assert.equal((await cache.get('/o/a'))?.value, 'one');
    assert.ok(Date.now() - t < 400, 'the second did not wait again');
    assert.equal(lagging.gets, 2, 'both read the store');
    // A write the cache follows brings it past that revision: memory again.
    lagging.outside = 0;
    await other.update('/o/a', 'two', (await other.get('/o/a'))!.modRevision);
    lagging.gets = 0;
    assert.equal((await cache.get('/o/a'))?.value, 'two');
    assert.equal(lagging.gets, 0);
  } finally {
    await close();
  }
});

it('with serveWatches, watches are fed from memory: no watch of their own on the store', async () => {
  const inner = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
  let watches = 0;
  const counting = new (class extends PassThroughStore {
    override watch(prefix: string, opts: WatchOptions): Watcher {
      watches++;
      return super.watch(prefix, opts);
    }
  })(inner);
  const cache = await createCachedStore(counting, { serveWatches: true, watchCacheEvents: 8 });
  try {
    assert.equal(watches, 1, "the cache's own");
    const from = await cache.currentRevision();
    await cache.create('/o/before', 'x');
    const seen: string[][] = Array.from({ length: 50 }, () => []);
    const ws = seen.map((log) => cache.watch('/o/', { fromRevision: from, onEvent: (ev) => log.push(`${ev.type} ${ev.kv.key}@${ev.kv.modRevision}`) }));
    const a = await cache.create('/o/a', '1');
    assert.ok(a.ok);
    await cache.delete('/o/a');
    await cache.create('/p/other', 'not watched');
    await new Promise((r) => setImmediate(r));
    assert.equal(watches, 1, 'fifty watches, still one on the store');
    for (const log of seen) assert.deepEqual(log, [`put /o/before@${from + 1}`, `put /o/a@${from + 2}`, `delete /o/a@${from + 3}`]);
    // Older than the last 8 events: the store serves it.
    for (let i = 0; i < 10; i++) await cache.create(`/o/n${i}`, 'x');
    const old: string[] = [];
    const w = cache.watch('/o/', { fromRevision: from, onEvent: (ev) => old.push(ev.kv.key) });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(watches, 2);
    assert.equal(old.length, 13);
    w.close();
    for (const x of ws) x.close();
  } finally {
    await cache.close();
  }
});

it('a list at an explicit revision is that snapshot, also when the wait for freshness moved the cache past it', async () => {
  const { other, cache, close } = await setup(true);
  try {
    await other.create('/o/a', 'one');
    // The cache at the store's revision: a page's list, as a continue token would name it.
    const at = (await cache.list('/o/')).revision;
    // Another replica's write, whose event reaches this cache while a list at `at` waits for freshness.
    await other.create('/o/b', 'two');
    const page = await cache.list('/o/', { revision: at });
    assert.equal(page.revision, at);
    assert.deepEqual(page.items.map((kv) => kv.value), ['one'], 'not the later write');
  } finally {
    await close();
  }
});
