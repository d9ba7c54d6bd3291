import assert from './kv-assert.js';
import { describe, it } from 'node:test';
import { createCachedStore, startCachedStore, type CachedKVStore } from '../../src/storage/cache.js';
import {
  NOT_AT_HAND,
  openSqliteStore,
  StorageError,
  type KVStore,
  type ListOptions,
  type ListResult,
  type SqliteStore,
  type StoreEvent,
  type WatchOptions,
  type Watcher,
  type WriteResult,
} from '../../src/storage/index.js';
import { prng, record, waitFor } from './helpers.js';
import { PassThroughStore } from './pass-through-store.js';
import { SlowLoadStore } from './slow-load-store.js';

const mem = (): SqliteStore => openSqliteStore(':memory:', { compactionIntervalMs: 0 });

async function rejectsWith(p: Promise<unknown>, code: StorageError['code']): Promise<void> {
  await assert.rejects(p, (err: unknown) => err instanceof StorageError && err.code === code);
}

interface ProbeWatch {
  opts: WatchOptions;
  inner: Watcher;
  open: boolean;
}

/**
 * Wraps a SQLite store to misbehave on demand: deliver watch events late or hold them back, fail
 * watches, fail lists. Everything else passes through.
 */
class ProbeStore extends PassThroughStore<SqliteStore> {
  /** sync: as the inner store does; late: each event after a timer; held: buffered until releaseHeld(). */
  delivery: 'sync' | 'late' | 'held' = 'sync';
  /** The next this many list calls fail with this error. */
  listFailures = 0;
  listError = (): StorageError => new StorageError('unavailable', 'list failed (probe)');
  listCalls = 0;
  readonly watches: ProbeWatch[] = [];
  private held: [ProbeWatch, StoreEvent][] = [];

  override async list(prefix: string, opts?: ListOptions): Promise<ListResult> {
    this.listCalls++;
    if (this.listFailures > 0) {
      this.listFailures--;
      throw this.listError();
    }
    return this.inner.list(prefix, opts);
  }
  override watch(prefix: string, opts: WatchOptions): Watcher {
    const w: ProbeWatch = { opts, open: true, inner: undefined as unknown as Watcher };
    w.inner = this.inner.watch(prefix, {
      fromRevision: opts.fromRevision,
      onEvent: (ev) => this.deliver(w, ev),
      onError: (err) => {
        if (!w.open) return;
        w.open = false;
        opts.onError?.(err);
      },
    });
    this.watches.push(w);
    return {
      close: () => {
        w.open = false;
        w.inner.close();
      },
    };
  }

  private deliver(w: ProbeWatch, ev: StoreEvent): void {
    if (this.delivery === 'sync') w.opts.onEvent(ev);
    else if (this.delivery === 'late') setTimeout(() => w.open && w.opts.onEvent(ev), 3);
    else this.held.push([w, ev]);
  }

  releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const [w, ev] of held) if (w.open) w.opts.onEvent(ev);
  }

  /** Fail every open watch with err, as the inner store would when it can no longer follow. */
  failWatches(err: StorageError): void {
    this.held = [];
    for (const w of this.watches) {
      if (!w.open) continue;
      w.open = false;
      w.inner.close();
      w.opts.onError?.(err);
    }
  }

  get openWatches(): number {
    return this.watches.filter((w) => w.open).length;
  }
}

/** The current state of both stores for one prefix, read through the public API. */
async function sameView(cache: KVStore, inner: KVStore, prefix: string, opts: ListOptions, context: string): Promise<void> {
  assert.deepEqual(await cache.list(prefix, opts), await inner.list(prefix, opts), `list ${context}`);
  assert.equal(await cache.count(prefix), await inner.count(prefix), `count ${context}`);
}

describe('cached store: loading', () => {
  it('loads everything the inner store holds, in pages at one revision', async () => {
    const probe = new ProbeStore(mem());
    for (let i = 0; i < 57; i++) await probe.inner.create(`/r/${String(i).padStart(3, '0')}`, `v${i}`);
    await probe.inner.delete('/r/010');
    await probe.inner.update('/r/020', 'changed', 21);
    const cache = await createCachedStore(probe, { loadPageSize: 10 });
    assert.equal(probe.listCalls, 6);
    assert.equal(cache.size, 56);
    assert.equal(cache.cachedRevision, 59);
    assert.equal(cache.serving, true);
    await sameView(cache, probe.inner, '/r/', {}, 'all');
    await sameView(cache, probe.inner, '/r/0', { limit: 7, after: '/r/005' }, 'page');
    assert.deepEqual(await cache.get('/r/020'), await probe.inner.get('/r/020'));
    assert.equal(await cache.get('/r/010'), undefined);
    await cache.close();
  });

  it('starts over when the revision it loads at is compacted between pages', async () => {
    const probe = new ProbeStore(mem());
    for (let i = 0; i < 30; i++) await probe.inner.create(`/r/${i}`, 'v');
    let calls = 0;
    const list = probe.list.bind(probe);
    probe.list = async (prefix, opts) => {
      // The second page of the first attempt finds its revision compacted.
      if (++calls === 2) throw new StorageError('compacted', 'compacted (probe)', 30);
      return list(prefix, opts);
    };
    const cache = await createCachedStore(probe, { loadPageSize: 20 });
    assert.equal(calls, 4);
    assert.equal(cache.size, 30);
    await cache.close();
  });

  it('closes the inner store when loading fails', async () => {
    const probe = new ProbeStore(mem());
    probe.listFailures = 1;
    await assert.rejects(createCachedStore(probe), /list failed/);
    await rejectsWith(probe.inner.currentRevision(), 'closed');
  });
});

describe('cached store: loading in the background (startCachedStore)', () => {
  /** 30 keys under /r/ (three load pages of 10), at revisions 1–30. */
  async function filled(inner: KVStore): Promise<void> {
    for (let i = 0; i < 30; i++) await inner.create(`/r/${String(i).padStart(3, '0')}`, `v${i}`);
  }

  it('answers from the inner store while loading, a write included, then from memory once loaded and caught up', async () => {
    const slow = new SlowLoadStore(mem());
    await filled(slow.inner);
    const cache = startCachedStore(slow, { loadPageSize: 10 });
    // The first page fixed the load's revision (30); the rest is held.
    await waitFor(() => slow.loadPages === 1, 'the first page');
    assert.equal(cache.serving, false);
    await sameView(cache, slow.inner, '/r/', {}, 'while loading');
    await sameView(cache, slow.inner, '/r/', { limit: 4, after: '/r/010' }, 'a page while loading');
    const watch = record(cache, '/r/', 30);
    // A write acknowledged during the load is read back at once, by get, list, count and currentRevision.
    const upd = await cache.update('/r/005', 'changed', 6);
    const created = await cache.create('/r/100', 'new');
    assert.ok(upd.ok && created.ok);
    assert.deepEqual(await cache.get('/r/005'), upd.kv);
    assert.equal(cache.getAtHand('/r/005'), NOT_AT_HAND, 'memory is not current while loading');
    assert.equal(await cache.currentRevision(), 32);
    await sameView(cache, slow.inner, '/r/', {}, 'after writes while loading');
    // Older revisions too (read at the load's revision, from the inner store).
    assert.equal((await cache.list('/r/', { revision: 30 })).items.find((kv) => kv.key === '/r/005')?.value, 'v5');
    await waitFor(() => watch.events.length === 2, 'the watch opened during the load');
    assert.deepEqual(watch.revs(), [31, 32]);

    slow.release();
    await waitFor(() => cache.serving, 'the cache to serve');
    assert.equal(slow.loadPages, 3);
    // Loaded at 30, caught up to 32 from the watch: memory has the writes made meanwhile.
    assert.equal(cache.cachedRevision, 32);
    assert.equal(cache.size, 31);
    const reads = slow.reads;
    assert.deepEqual(await cache.get('/r/005'), upd.kv);
    assert.deepEqual(await cache.get('/r/100'), created.kv);
    assert.deepEqual(await cache.list('/r/'), await slow.inner.list('/r/'));
    assert.equal(slow.reads, reads, 'answered from memory');
    assert.deepEqual(cache.getAtHand('/r/100'), created.kv, 'at hand once serving (the cache holds its own copy: written while it loaded)');
    assert.equal(cache.getAtHand('/r/nothing'), undefined);
    // The watch goes on across the switch: the next write once, in order.
    const del = await cache.delete('/r/000');
    assert.ok(del.ok);
    assert.equal(await cache.get('/r/000'), undefined);
    await waitFor(() => watch.events.length === 3, 'the delete');
    assert.deepEqual(watch.revs(), [31, 32, 33]);
    assert.deepEqual(watch.errors, []);
    await cache.close();
  });

  it('keeps reads on the inner store after the load until the cache has caught up with the writes made during it', async () => {
    const probe = new ProbeStore(mem());
    const slow = new SlowLoadStore(probe);
    await filled(probe.inner);
    const cache = startCachedStore(slow, { loadPageSize: 10 });
    await waitFor(() => slow.loadPages === 1, 'the first page');
    const upd = await cache.update('/r/007', 'changed', 8);
    assert.ok(upd.ok);
    // The cache's watch from the load's revision will not deliver the write yet.
    probe.delivery = 'held';
    slow.release();
    await waitFor(() => slow.loadPages === 3 && probe.watches.length === 1, 'the load and its watch');
    assert.equal(cache.cachedRevision, 30);
    assert.equal(cache.serving, false);
    // Never older than the acknowledged write.
    assert.deepEqual(await cache.get('/r/007'), upd.kv);
    assert.equal((await cache.list('/r/')).revision, 31);
    probe.delivery = 'sync';
    probe.releaseHeld();
    assert.equal(cache.serving, true);
    assert.deepEqual(await cache.get('/r/007'), upd.kv);
    await cache.close();
  });

  it('retries a failed load, serving from the inner store meanwhile', async () => {
    const probe = new ProbeStore(mem());
    await filled(probe.inner);
    probe.listFailures = 3;
    const failures: string[] = [];
    const cache = startCachedStore(probe, { loadPageSize: 10, reloadRetryMs: 1, onLoadError: (err) => failures.push((err as Error).message) });
    assert.equal((await cache.get('/r/003'))?.value, 'v3');
    await waitFor(() => cache.serving, 'the cache to serve');
    assert.equal(cache.size, 30);
    assert.deepEqual(failures, ['list failed (probe)', 'list failed (probe)', 'list failed (probe)']);
    await cache.close();
  });

  it('firstLoad settles when the first load ends: loaded, failed once, or closed', async () => {
    const settled = (p: Promise<void>): Promise<boolean> => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20))]);
    const slow = new SlowLoadStore(mem());
    await filled(slow.inner);
    const cache = startCachedStore(slow, { loadPageSize: 10 });
    assert.equal(await settled(cache.firstLoad), false);
    slow.release();
    assert.equal(await settled(cache.firstLoad), true);
    assert.equal(cache.serving, true);
    await cache.close();

    const failing = new ProbeStore(mem());
    failing.listFailures = 100;
    const failed = startCachedStore(failing, { reloadRetryMs: 1_000, onLoadError: () => {} });
    assert.equal(await settled(failed.firstLoad), true);
    assert.equal(failed.serving, false);
    await failed.close();

    const held = new SlowLoadStore(mem(), { holdFirst: true });
    const closed = startCachedStore(held);
    await closed.close();
    assert.equal(await settled(closed.firstLoad), true);
  });

  it('closes while loading: the load stops, calls fail as closed', async () => {
    const slow = new SlowLoadStore(mem());
    await filled(slow.inner);
    const cache = startCachedStore(slow, { loadPageSize: 10 });
    await waitFor(() => slow.loadPages === 1, 'the first page');
    await cache.close();
    slow.release();
    await rejectsWith(cache.get('/r/001'), 'closed');
    await rejectsWith(slow.inner.currentRevision(), 'closed');
    assert.equal(cache.serving, false);
  });
});

describe('cached store: reads at the newest revision', () => {
  it('answers exactly like the inner store under a random sequence of writes', async () => {
    const segments = ['a', 'b', 'ab', 'a-b', 'z', '\uffff', '\u{1F600}', 'é'];
    for (const seed of [7, 8]) {
      const rand = prng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const randomKey = (): string => `/${pick(segments)}/${pick(segments)}${Math.floor(rand() * 12)}`;
      const inner = mem();
      // A low merge threshold exercises the key index's merges and tombstones.
      const cache = await createCachedStore(inner, { indexMergeAt: 4 });
      for (let round = 0; round < 150; round++) {
        // A handful of writes at once, so they share commits and some conflict.
        const writes: Promise<WriteResult>[] = [];
        for (let n = 1 + Math.floor(rand() * 6); n > 0; n--) {
          const key = randomKey();
          const cur = await cache.get(key);
          const r = rand();
          if (!cur || r < 0.2) writes.push(cache.create(key, `${round}-${n}`));
          else if (r < 0.7) writes.push(cache.update(key, `${round}-${n}`, rand() < 0.9 ? cur.modRevision : cur.modRevision - 1));
          else writes.push(cache.delete(key, rand() < 0.5 ? undefined : cur.modRevision));
        }
        await Promise.all(writes);
        const rev = await inner.currentRevision();
        assert.equal(await cache.currentRevision(), rev);
        for (let q = 0; q < 3; q++) {
          const prefix = pick(['', '/', `/${pick(segments)}`, `/${pick(segments)}/`, `/${pick(segments)}/${pick(segments)}`]);
          const after = rand() < 0.5 ? undefined : pick([randomKey(), '', '/', '0', '\u{10FFFF}']);
          const limit = pick([undefined, 0, 1, 2, 3, 10]);
          const opts: ListOptions = { after, limit, ...(rand() < 0.3 ? { revision: rev } : {}) };
          await sameView(cache, inner, prefix, opts, `seed ${seed} round ${round} ${JSON.stringify({ prefix, ...opts })}`);
        }
        const key = randomKey();
        assert.deepEqual(await cache.get(key), await inner.get(key));
      }
      assert.equal(cache.serving, true);
      await cache.close();
    }
  });

  it('serves reads from memory and shares the stored key-values', async () => {
    const probe = new ProbeStore(mem());
    const cache = await createCachedStore(probe);
    const res = await cache.create('/a/x', 'one');
    assert.ok(res.ok);
    const calls = probe.listCalls;
    assert.equal(await cache.get('/a/x'), res.kv);
    assert.equal((await cache.list('/a/')).items[0], res.kv);
    assert.equal(probe.listCalls, calls);
    await cache.close();
  });
});

describe('cached store: delegated operations', () => {
  it('reads older revisions, compacts and watches through the inner store', async () => {
    const inner = mem();
    const cache = await createCachedStore(inner);
    await cache.create('/a/1', 'one');
    await cache.create('/a/2', 'two');
    await cache.update('/a/1', 'uno', 1);
    await cache.delete('/a/2');
    const old = await cache.list('/a/', { revision: 2 });
    assert.deepEqual(old.items.map((kv) => [kv.key, kv.value]), [
      ['/a/1', 'one'],
      ['/a/2', 'two'],
    ]);
    assert.deepEqual(await cache.list('/a/', { revision: 2, limit: 1, after: '/a/1' }), await inner.list('/a/', { revision: 2, limit: 1, after: '/a/1' }));
    await assert.rejects(cache.list('/a/', { revision: 99 }), (e: unknown) => e instanceof StorageError && e.code === 'future');

    const rec = record(cache, '/a/', 1);
    await waitFor(() => rec.events.length === 3, 'replayed events');
    assert.deepEqual(rec.revs(), [2, 3, 4]);
    await cache.compact(4);
    assert.equal(await cache.compactedRevision(), 4);
    // Compacted even though it is the cache's own revision.
    await rejectsWith(cache.list('/a/', { revision: 4 }), 'compacted');
    await rejectsWith(cache.list('/a/', { revision: 3 }), 'compacted');
    assert.deepEqual((await cache.list('/a/')).items.map((kv) => kv.value), ['uno']);
    await cache.create('/a/3', 'three');
    await waitFor(() => rec.events.length === 4, 'live event');
    rec.watcher.close();
    await cache.close();
  });
});

describe('cached store: read-your-writes', () => {
  /** Concurrent writes; in each write's continuation, the cache must already show it. */
  async function hammer(cache: CachedKVStore, inner: KVStore): Promise<void> {
    const checks: Promise<void>[] = [];
    const check = async (key: string, res: WriteResult, deleted: boolean): Promise<void> => {
      assert.ok(res.ok);
      // Issued synchronously in the continuation, before anything else can run.
      const [got, rev, listed] = await Promise.all([cache.get(key), cache.currentRevision(), cache.list(key)]);
      assert.ok(rev >= res.revision, `currentRevision ${rev} behind write ${res.revision}`);
      if (deleted) {
        assert.ok(got === undefined || got.createRevision > res.revision, `deleted ${key} still visible`);
      } else {
        assert.ok(got !== undefined && got.modRevision >= res.revision, `${key} at ${got?.modRevision} behind write ${res.revision}`);
        assert.ok(listed.revision >= res.revision && listed.items.some((kv) => kv.key === key));
      }
    };
    for (let i = 0; i < 300; i++) {
      const key = `/ryw/${i % 40}`;
      checks.push(
        cache.create(key, `c${i}`).then(async (res) => {
          if (!res.ok) return;
          await check(key, res, false);
          const upd = await cache.update(key, `u${i}`, res.kv.modRevision);
          if (upd.ok) await check(key, upd, false);
          const del = await cache.delete(key, upd.ok ? upd.kv.modRevision : undefined);
          if (del.ok) await check(key, del, true);
        }),
      );
      // Let a few writes share each commit, and others land in later ones.
      if (i % 7 === 0) await new Promise((r) => setImmediate(r));
    }
    await Promise.all(checks);
    assert.equal(await cache.currentRevision(), await inner.currentRevision());
    assert.deepEqual(await cache.list('/'), await inner.list('/'));
  }

  it('holds with the SQLite store (its events arrive before the write resolves)', async () => {
    const inner = mem();
    const cache = await createCachedStore(inner);
    await hammer(cache, inner);
    assert.equal(cache.serving, true);
    await cache.close();
  });

  it('holds when the inner watch delivers events after the writes resolve', async () => {
    const probe = new ProbeStore(mem());
    probe.delivery = 'late';
    const cache = await createCachedStore(probe);
    await hammer(cache, probe.inner);
    assert.equal(cache.serving, true);
    await cache.close();
  });

  it('falls back to the inner store when a write gives up waiting for its event', async () => {
    const probe = new ProbeStore(mem());
    const cache = await createCachedStore(probe, { catchUpTimeoutMs: 20 });
    await cache.create('/a/1', 'one');
    probe.delivery = 'held';
    const t0 = performance.now();
    const res = await cache.create('/a/2', 'two');
    assert.ok(res.ok && performance.now() - t0 >= 15);
    assert.equal(cache.serving, false);
    assert.equal(cache.cachedRevision, 1);
    // Answers come from the inner store, which has the write.
    assert.deepEqual(await cache.get('/a/2'), res.kv);
    assert.equal(await cache.currentRevision(), 2);
    assert.equal(await cache.count('/a/'), 2);
    assert.equal((await cache.list('/a/')).revision, 2);
    probe.delivery = 'sync';
    probe.releaseHeld();
    assert.equal(cache.serving, true);
    assert.equal(cache.cachedRevision, 2);
    assert.deepEqual(await cache.get('/a/2'), res.kv);
    await cache.close();
  });
});

describe('cached store: writes in flight', () => {
  it('keeps serving reads from memory while a write waits for its event, and shows the write once it resolves', async () => {
    // On etcd a stream of writes always has one waiting for its event: reads must not go to etcd meanwhile.
    const probe = new ProbeStore(mem());
    const cache = await createCachedStore(probe);
    const first = await cache.create('/a/1', 'one');
    probe.delivery = 'held';
    const pending = cache.create('/a/2', 'two');
    for (let i = 0; i < 500 && (await probe.inner.currentRevision()) < 2; i++) await new Promise((r) => setTimeout(r, 2));
    assert.equal(await probe.inner.currentRevision(), 2);
    const calls = probe.listCalls;
    assert.equal(cache.serving, true);
    assert.deepEqual((await cache.list('/a/')).items, [first.ok && first.kv]);
    assert.equal(await cache.get('/a/2'), undefined);
    assert.equal(await cache.currentRevision(), 1);
    assert.equal(probe.listCalls, calls);
    probe.delivery = 'sync';
    probe.releaseHeld();
    const res = await pending;
    assert.deepEqual(await cache.get('/a/2'), res.ok ? res.kv : undefined);
    assert.equal(await cache.currentRevision(), 2);
    await cache.close();
  });
});

describe('cached store: inner watch failures', () => {
  it('reloads when the watch reports compacted, picking up what it missed', async () => {
    const probe = new ProbeStore(mem());
    const cache = await createCachedStore(probe);
    await cache.create('/a/1', 'one');
    probe.delivery = 'held';
    // Writes the cache has not seen (straight to the inner store), then the watch gives up.
    await probe.inner.create('/a/2', 'two');
    await probe.inner.delete('/a/1');
    assert.deepEqual((await cache.list('/a/')).items.map((kv) => kv.key), ['/a/1']);
    probe.delivery = 'sync';
    probe.failWatches(new StorageError('compacted', 'required revision has been compacted', 2));
    assert.equal(cache.serving, false);
    // While reloading, reads go to the inner store.
    assert.deepEqual((await cache.list('/a/')).items.map((kv) => kv.key), ['/a/2']);
    await waitFor(() => cache.serving, 'reload');
    assert.equal(cache.cachedRevision, 3);
    assert.deepEqual(await cache.list('/a/'), await probe.inner.list('/a/'));
    assert.equal(probe.openWatches, 1);
    // And it follows the new watch.
    await cache.update('/a/2', 'dos', 2);
    assert.equal((await cache.get('/a/2'))?.value, 'dos');
    await cache.close();
  });

  it('retries a reload that fails, serving from the inner store meanwhile', async () => {
    const probe = new ProbeStore(mem());
    const cache = await createCachedStore(probe, { reloadRetryMs: 5 });
    await cache.create('/a/1', 'one');
    const before = probe.listCalls;
    probe.listFailures = 3;
    probe.failWatches(new StorageError('compacted', 'compacted'));
    const res = await cache.create('/a/2', 'two');
    assert.deepEqual(await cache.get('/a/2'), res.ok ? res.kv : undefined);
    await waitFor(() => cache.serving, 'reload after failures');
    assert.equal(probe.listCalls - before, 4);
    assert.equal(cache.size, 2);
    await cache.close();
  });

  it('stops following an inner store closed under it', async () => {
    const inner = mem();
    const cache = await createCachedStore(inner);
    await cache.create('/a/1', 'one');
    await inner.close();
    await waitFor(() => !cache.serving, 'cache to notice');
    await rejectsWith(cache.get('/a/1'), 'closed');
    await rejectsWith(cache.list('/a/'), 'closed');
    await rejectsWith(cache.create('/a/2', 'two'), 'closed');
    await cache.close();
  });
});

describe('cached store: close', () => {
  it('closes its watch and the inner store; later calls fail with closed', async () => {
    const probe = new ProbeStore(mem());
    const cache = await createCachedStore(probe);
    await cache.create('/a/1', 'one');
    // A write still queued in the inner store completes during close.
    const pending = cache.create('/a/2', 'two');
    const closing = cache.close();
    assert.equal(probe.openWatches, 0);
    assert.ok((await pending).ok);
    await closing;
    await cache.close();
    await rejectsWith(probe.inner.currentRevision(), 'closed');
    await rejectsWith(cache.get('/a/1'), 'closed');
    await rejectsWith(cache.list('/a/'), 'closed');
    await rejectsWith(cache.count('/a/'), 'closed');
    await rejectsWith(cache.currentRevision(), 'closed');
    await rejectsWith(cache.compactedRevision(), 'closed');
    await rejectsWith(cache.create('/a/3', 'three'), 'closed');
  });
});
