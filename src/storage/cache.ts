// A KVStore that serves current reads from memory: kube-apiserver's watch cache, over the whole
// keyspace. It loads every key once, then follows the inner store's watch. Writes, reads at older
// revisions, watches and compaction go to the inner store.
//
// Consistency: the cache answers from memory only while it is "fresh": loaded, watching, and at or
// past the revision of every write it has handed back. A write's promise resolves only once the
// cache has applied that write (its event came in), so a read right after a write sees it; this
// is kube-apiserver's "wait until fresh" for consistent reads from cache. With the SQLite store the
// event arrives before the write resolves and nothing waits. Whenever the cache is not fresh
// (reloading after the watch broke, or a write gave up waiting), reads go to the inner store.
//
// Loading in the background (startCachedStore, startLoading; `serve` does so once it listens) is kube's
// ResilientWatchCacheInitialization: readiness does not wait for the cache. Until it has loaded and caught up
// with every write handed back meanwhile, the cache is not fresh and reads go to the inner store, as above;
// watches opened meanwhile go on across the switch (once it serves, each event waits until it has applied it).
// The load reads pages of 2,000 keys with a turn of the event loop between them, so requests are answered
// while it runs.
//
// With other writers on the same inner store (several replicas on one etcd), the cache's own writes are
// not all there is: a current read first asks the store for its revision (one round trip, shared by the
// reads that arrive while it is under way) and is answered from memory once the cache has applied that
// revision, as kube's consistent reads from the watch cache wait for it. A revision the cache does not
// reach soon (written outside the keys it follows: etcd's revision counts every key, and kube's
// compactor writes one of its own) sends that read to the store; later reads while the store's revision
// stays there do not wait again. (etcd's progress notifications would close that gap, but are only safe
// from etcd 3.4.31 and 3.5.13, as kube requires for its consistent lists; Debian's is older.)
//
// With serveWatches, a watch from a revision the cache's recent events cover is served from memory
// (cache-watchers.ts): fed as the cache applies each event, so it needs no watch of its own on the
// inner store, and a reader of the cache in its handler sees that event's state. Other watches (older
// revisions, or while the cache reloads) go to the inner store as below; a reload ends the watches
// served from memory (their clients resume or list again, as kube's watch cache makes them).
//
// A label-selected list of a resource (listByLabels) visits only the keys its label index gives
// (label-index.ts): built for that resource on its first such list, then kept from the events applied here,
// dropped on a reload. It answers the current revision only; older ones are the inner store's, as for list.
//
// Watches go to the inner store too, but an event is held back until the cache has applied its
// revision: whoever reacts to an event (a controller) reads at least that state from the cache. etcd
// sends one revision's events to each of its watchers separately, so the cache's own watch may
// hear of a write after another one does.
//
// Values are held as bytes in Buffer slabs outside the V8 heap (value-slabs.ts): the key-values handed out
// are SlabValues, whose `value` decodes on each read; each stays the same object while its revision is current.
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { KeyIndex } from './cache-index.js';
import { LabelIndex } from './label-index.js';
import { CacheWatchers } from './cache-watchers.js';
import { CacheStats } from './cache-stats.js';
import { ValueSlabs, deletedValue, type SlabValue } from './value-slabs.js';
import {
  NOT_AT_HAND,
  StorageError,
  type KVStore,
  type KeyValue,
  type LabelListResult,
  type LabelQuery,
  type ListOptions,
  type ListResult,
  type StoreEvent,
  type WatchOptions,
  type Watcher,
  type WriteResult,
} from './types.js';

export interface CachedStoreOptions {
  /** Keys read per list page while loading (default 10,000 for createCachedStore's load, 2,000 for loads while serving). */
  loadPageSize?: number;
  /** Longest a write waits for its event before resolving anyway (default 5 s); reads then go to the inner store until the cache catches up. */
  catchUpTimeoutMs?: number;
  /** First delay before retrying a failed reload (default 100 ms; doubles up to 5 s). */
  reloadRetryMs?: number;
  /** Pending inserts the key index tolerates before merging (default 1,024; tests lower it). */
  indexMergeAt?: number;
  /**
   * Others write to the inner store too (replicas on one etcd): a current read first asks the inner store
   * for its revision and is answered from memory once the cache has reached it (see the header).
   */
  sharedStore?: boolean;
  /** With sharedStore: how long a read waits for the cache to reach the store's revision before reading the store (default 50 ms). */
  freshWaitMs?: number;
  /**
   * Serve watches from memory (kube's watch cache): a watch from a revision the cache's recent events
   * cover is fed by the cache, not by a watch on the inner store of its own. For stores without watch
   * fan-out of their own (etcd: one etcd watch per client watch otherwise).
   */
  serveWatches?: boolean;
  /** With serveWatches: how many recent events are kept for watches to start from (default 10,000). */
  watchCacheEvents?: number;
  /** A background load or reload failed and is retried in retryMs (default: a line on stderr). */
  onLoadError?: (err: unknown, retryMs: number) => void;
}

type State = 'loading' | 'live' | 'failed' | 'closed';

interface Waiter {
  revision: number;
  done(): void;
}

/** A watch with events held back until the cache has caught up with them. */
interface HeldWatch {
  flush(): void;
}

const MAX_RETRY_MS = 5_000;
/** Loading restarts when the revision it pins is compacted under it; give up after this many tries. */
const MAX_LOAD_ATTEMPTS = 5;

/**
 * Keys per page of a load while requests are served (startLoading, reloads): each page is a turn of the event
 * loop that requests wait behind (10 ms or so for 2,000 stored CronTabs from SQLite; 10,000 take 1.5× less in
 * all, but hold the loop five times as long).
 */
const BACKGROUND_PAGE = 2_000;
/** Keys per page of createCachedStore's load, which nothing waits behind. */
const BLOCKING_PAGE = 10_000;

const logLoadError = (err: unknown, retryMs: number): void =>
  console.error(`watch cache: loading failed, retrying in ${retryMs} ms (reads go to the store meanwhile): ${err instanceof Error ? err.message : String(err)}`);

/**
 * A cache over inner that loads in the background (kube's ResilientWatchCacheInitialization): returned at
 * once, it answers current reads, lists and watches from inner until it has loaded and caught up with every
 * write handed back meanwhile, then from memory. A failed load is retried as a reload is.
 */
export function startCachedStore(inner: KVStore, opts: CachedStoreOptions = {}): CachedKVStore {
  const cache = new CachedKVStore(inner, opts);
  cache.startLoading();
  return cache;
}

/** Load every key of inner into memory and keep following it. Closes inner if the load fails. */
export async function createCachedStore(inner: KVStore, opts: CachedStoreOptions = {}): Promise<CachedKVStore> {
  const cache = new CachedKVStore(inner, opts);
  try {
    // Nothing is served while it loads: larger pages.
    await cache.load(BLOCKING_PAGE);
  } catch (err) {
    await inner.close().catch(() => {});
    throw err;
  }
  return cache;
}

/** Values returned are shared with other callers and with the cache itself: treat them as read-only. */
export class CachedKVStore implements KVStore {
  private index: KeyIndex;
  /** The bytes of the values in index and ring, since the last load (value-slabs.ts). */
  private slabs = new ValueSlabs();
  /** Keys by label, per resource listed by label since the last load (label-index.ts). */
  private labels = new LabelIndex();
  /** The revision the in-memory state is at. */
  private rev = 0;
  private state: State = 'loading';
  /** Bumped by every (re)load and by close; callbacks of an older generation are ignored. */
  private generation = 0;
  private watcher: Watcher | undefined;
  /** The newest revision a write through this cache has returned. */
  private written = 0;
  /** The newest revision compacted through this cache (the inner store may have compacted further). */
  private compacted = 0;
  private waiters: Waiter[] = [];
  private readonly holding = new Set<HeldWatch>();
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs: number;
  private closePromise: Promise<void> | undefined;
  private firstLoadEnded!: () => void;
  /**
   * Settles when the first load has ended: loaded, or failed once (it is retried; reads go to the inner store), or
   * the cache closed. For work that would read everything (a garbage collector's first lists) and is better done
   * from memory than alongside the load.
   */
  readonly firstLoad: Promise<void> = new Promise((resolve) => (this.firstLoadEnded = resolve));
  private readonly catchUpMs: number;
  private readonly mergeAt: number | undefined;
  private readonly shared: boolean;
  private readonly freshWaitMs: number;
  /** The store-revision probe under way, and the one queued behind it (started when it ends). */
  private probing: Promise<number> | undefined;
  private queuedProbe: Promise<number> | undefined;
  /** A store revision the cache did not reach in time: reads go to the store while it is the newest. */
  private unreachable = 0;
  /** Watches served from memory (serveWatches), and the recent events they start from. */
  private ring: CacheWatchers | undefined;
  /** Events, lists and loads, for the watch cache metrics. */
  readonly stats = new CacheStats();

  constructor(
    readonly inner: KVStore,
    private readonly opts: CachedStoreOptions = {},
  ) {
    this.catchUpMs = Math.max(0, opts.catchUpTimeoutMs ?? 5_000);
    this.retryMs = this.baseRetryMs;
    this.mergeAt = opts.indexMergeAt;
    this.index = new KeyIndex(this.mergeAt);
    this.shared = opts.sharedStore === true;
    this.freshWaitMs = Math.max(0, opts.freshWaitMs ?? 50);
  }

  /** The revision the cache holds (diagnostics). */
  get cachedRevision(): number {
    return this.rev;
  }

  /** Number of keys held in memory (diagnostics). */
  get size(): number {
    return this.index.size;
  }

  /** The values' slabs (diagnostics): bytes allocated outside the heap, bytes held in them, compactions run. */
  get valueSlabs(): { slabs: number; allocatedBytes: number; liveBytes: number; compactions: number } {
    const s = this.slabs;
    return { slabs: s.slabCount, allocatedBytes: s.allocatedBytes, liveBytes: s.liveBytes, compactions: s.compactions };
  }

  /** True while reads are answered from memory; false while reloading or behind a write. */
  get serving(): boolean {
    return this.state === 'live' && this.rev >= this.written;
  }

  // ---- reads ----

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return (await this.fresh()) ? this.rev : this.inner.currentRevision();
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return this.inner.compactedRevision();
  }

  async get(key: string): Promise<KeyValue | undefined> {
    this.assertOpen();
    return (await this.fresh()) ? this.index.get(key) : this.inner.get(key);
  }

  getAtHand(key: string): KeyValue | undefined | typeof NOT_AT_HAND {
    // Shared with other replicas, a read first learns the store's revision: that takes a wait. Closed: get says so.
    return this.serving && !this.shared ? this.index.get(key) : NOT_AT_HAND;
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const at = opts.revision;
    // An explicit revision equal to ours is the same snapshot, unless it has been compacted.
    const newest = at === undefined || at === 0 || (at === this.rev && at > this.compacted);
    if (!newest || !(await this.fresh())) return this.inner.list(prefix, opts);
    // The wait for freshness (shared store) may have taken the cache past an explicit revision: that snapshot is
    // the store's to give now (a continue token's page from another replica read a later revision).
    if (!this.atRevision(at)) return this.inner.list(prefix, opts);
    const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const read = this.index.range(prefix, opts.after, limit);
    this.stats.noteList(prefix, read.items.length);
    return read.more
      ? { items: read.items, revision: this.rev, more: true, remaining: read.remaining! }
      : { items: read.items, revision: this.rev, more: false };
  }

  async listByLabels(prefix: string, query: LabelQuery, opts: ListOptions = {}): Promise<LabelListResult | undefined> {
    this.assertOpen();
    const at = opts.revision;
    const newest = at === undefined || at === 0 || (at === this.rev && at > this.compacted);
    if (!newest || !(await this.fresh()) || !this.atRevision(at)) return undefined;
    const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const index = this.index;
    const found = this.labels.candidates(query.scope, prefix, opts.after, limit, query.required, () => index.range(query.scope, undefined, 0).items);
    if (found === undefined) return undefined;
    const items: KeyValue[] = [];
    for (const key of found.keys) {
      const kv = index.get(key);
      // Never so (both follow the same events); if it were, the places of `unread` would not hold: scan instead.
      if (kv === undefined) return undefined;
      items.push(kv);
    }
    this.stats.noteList(prefix, items.length);
    // As list's: whether any key follows the page (a selector's next page may find nothing, as after a scan).
    const last = items.length > 0 ? items[items.length - 1]!.key : undefined;
    const more = last !== undefined && (found.more || index.range(prefix, last, 1).items.length > 0);
    return { items, revision: this.rev, more, met: found.met, unread: found.unread };
  }

  /** Whether memory holds the snapshot asked for: the newest (none asked), or exactly this revision. */
  private atRevision(at: number | undefined): boolean {
    return at === undefined || at === 0 || at === this.rev;
  }

  async count(prefix: string): Promise<number> {
    this.assertOpen();
    return (await this.fresh()) ? this.index.count(prefix) : this.inner.count(prefix);
  }

  /**
   * Whether a current read may be answered from memory. Alone on the store: when serving. Shared: once the
   * cache has reached the store's revision as of this call (the header explains the wait and its limit).
   */
  private fresh(): boolean | Promise<boolean> {
    if (!this.serving) return false;
    if (!this.shared) return true;
    return this.storeRevision().then((target) => {
      if (this.rev >= target) return this.serving;
      if (target === this.unreachable) return false;
      return this.waitFor(target).then((reached) => {
        if (!reached) this.unreachable = target;
        return reached && this.serving;
      });
    });
  }

  /** The inner store's revision, read by a request that starts after this call (concurrent callers share one). */
  private storeRevision(): Promise<number> {
    if (!this.probing) return this.probe();
    this.queuedProbe ??= this.probing
      .catch(() => 0)
      .then(() => {
        this.queuedProbe = undefined;
        return this.probe();
      });
    return this.queuedProbe;
  }

  private probe(): Promise<number> {
    const p = this.inner.currentRevision();
    this.probing = p;
    const clear = (): void => {
      if (this.probing === p) this.probing = undefined;
    };
    p.then(clear, clear);
    return p;
  }

  /** Resolves true once the cache has applied revision, false after freshWaitMs (or when it stops serving). */
  private waitFor(revision: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, this.freshWaitMs);
      const waiter: Waiter = {
        revision,
        done: () => {
          clearTimeout(timer);
          resolve(this.rev >= revision);
        },
      };
      this.waiters.push(waiter);
    });
  }

  // ---- writes, watch, compaction: the inner store's ----

  create(key: string, value: string): Promise<WriteResult> {
    return this.inner.create(key, value).then(this.settle);
  }

  update(key: string, value: string, expectedModRevision: number): Promise<WriteResult> {
    return this.inner.update(key, value, expectedModRevision).then(this.settle);
  }

  delete(key: string, expectedModRevision?: number): Promise<WriteResult> {
    return this.inner.delete(key, expectedModRevision).then(this.settle);
  }

  /** Watches served from memory now (diagnostics). */
  get watchersInMemory(): number {
    return this.ring?.size ?? 0;
  }

  watch(prefix: string, opts: WatchOptions): Watcher {
    if (this.ring && this.state === 'live' && (this.compacted === 0 || opts.fromRevision > this.compacted) && this.ring.covers(opts.fromRevision)) {
      return this.ring.watch(prefix, opts);
    }
    const held: StoreEvent[] = [];
    let open = true;
    let inner: Watcher | undefined;
    const stop = (): void => {
      open = false;
      this.holding.delete(entry);
      inner?.close();
    };
    const emit = (ev: StoreEvent): void => {
      try {
        opts.onEvent(ev);
      } catch (err) {
        // As the inner store does: a throwing handler ends its own watch.
        if (!open) return;
        stop();
        opts.onError?.(new StorageError('closed', `watch ended: its event handler failed: ${err instanceof Error ? err.message : String(err)}`));
      }
    };
    const entry: HeldWatch = {
      flush: () => {
        while (open && held.length > 0 && this.caughtUp(held[0]!.kv.modRevision)) emit(held.shift()!);
        if (held.length === 0) this.holding.delete(entry);
      },
    };
    inner = this.inner.watch(prefix, {
      fromRevision: opts.fromRevision,
      ...(opts.backlogFull ? { backlogFull: () => opts.backlogFull!() } : {}),
      onEvent: (ev) => {
        if (!open) return;
        if (held.length === 0 && this.caughtUp(ev.kv.modRevision)) return emit(ev);
        held.push(ev);
        this.holding.add(entry);
      },
      onError: (err) => {
        if (!open) return;
        // What came before the error is delivered first, caught up or not.
        while (open && held.length > 0) emit(held.shift()!);
        if (!open) return;
        stop();
        opts.onError?.(err);
      },
    });
    if (!open) inner.close();
    return { close: stop };
  }

  /** Whether a reader of the cache sees revision's state: the cache has applied it, or reads go to the inner store. */
  private caughtUp(revision: number): boolean {
    return this.state !== 'live' || this.rev >= revision;
  }

  private flushHeld(): void {
    for (const w of [...this.holding]) w.flush();
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    await this.inner.compact(revision);
    if (revision > this.compacted) this.compacted = revision;
  }

  /** Stops following the inner store and closes it. */
  close(): Promise<void> {
    this.closePromise ??= this.shutdown();
    return this.closePromise;
  }

  private async shutdown(): Promise<void> {
    this.state = 'closed';
    this.firstLoadEnded();
    this.generation++;
    clearTimeout(this.retryTimer);
    this.watcher?.close();
    this.watcher = undefined;
    this.release(Infinity);
    this.ring?.failAll(new StorageError('closed', 'storage is closed'));
    this.index = new KeyIndex();
    this.labels = new LabelIndex();
    this.slabs.drop();
    await this.inner.close();
  }

  /** Resolve a write's result once the cache has applied it (see the header). */
  private readonly settle = (res: WriteResult): WriteResult | Promise<WriteResult> => {
    if (!res.ok) return res;
    if (this.state !== 'live' || this.rev >= res.revision) return this.resolved(res);
    return new Promise<WriteResult>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(this.resolved(res));
      }, this.catchUpMs);
      const waiter: Waiter = {
        revision: res.revision,
        done: () => {
          clearTimeout(timer);
          resolve(this.resolved(res));
        },
      };
      this.waiters.push(waiter);
    });
  };

  /**
   * A write handed back before the cache has applied it (reloading, closing, or its wait timed out): reads go
   * to the inner store until the cache is there. Only then: a write still in flight does not send reads
   * there, which under a steady stream of writes on etcd would be nearly every read.
   */
  private resolved(res: WriteResult & { ok: true }): WriteResult {
    if (this.rev < res.revision && res.revision > this.written) this.written = res.revision;
    // A create's or update's key-value as the cache holds it, when it does: what reads of it get next is the
    // same object (memos keyed on it are shared), and the write's value text is not kept by its result.
    if (res.kv.modRevision === res.revision && this.state === 'live') {
      const cached = this.index.get(res.kv.key);
      if (cached !== undefined && cached.modRevision === res.revision) return { ok: true, kv: cached, revision: res.revision };
    }
    return res;
  }

  /** Let go of writes waiting for a revision at or below `upTo`. */
  private release(upTo: number): void {
    if (this.waiters.length === 0) return;
    const keep: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.revision <= upTo) w.done();
      else keep.push(w);
    }
    this.waiters = keep;
  }

  // ---- following the inner store ----

  /**
   * Read every key at one revision, then watch from it. Restarts if that revision is compacted
   * meanwhile. Called by createCachedStore and on reloads; not for other callers.
   */
  async load(pageSize = BACKGROUND_PAGE): Promise<void> {
    const size = Math.max(1, this.opts.loadPageSize ?? pageSize);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.loadOnce(size);
      } catch (err) {
        const retry = err instanceof StorageError && err.code === 'compacted' && attempt < MAX_LOAD_ATTEMPTS;
        if (!retry) throw err;
      }
    }
  }

  private async loadOnce(pageSize: number): Promise<void> {
    const gen = ++this.generation;
    this.state = 'loading';
    // Reads go to the inner store from here on, and writes need not wait for the cache.
    this.release(Infinity);
    this.flushHeld();
    this.index = new KeyIndex(this.mergeAt);
    this.labels = new LabelIndex();
    // What the old index and ring held is let go of at once (its slabs go with the last reference to them).
    this.slabs.drop();
    const slabs = (this.slabs = new ValueSlabs());
    const index = new KeyIndex(this.mergeAt);
    // The first page fixes the revision; the rest are read at it.
    // Every page is read: how many keys remain after each is not asked (it would be counted each time).
    let page = await this.inner.list('', { limit: pageSize, countRemaining: false });
    const revision = page.revision;
    for (;;) {
      if (gen !== this.generation) return;
      // Copied into the slabs; the page's strings are garbage once it is read.
      index.putInOrder(page.items.map((kv) => slabs.make(kv)));
      if (!page.more || page.items.length === 0) break;
      // A store that answers at once (SQLite) would otherwise hold the event loop for the whole load: requests
      // served from the inner store meanwhile get their turn between pages.
      await yieldToIo();
      if (gen !== this.generation) return;
      page = await this.inner.list('', { limit: pageSize, after: page.items[page.items.length - 1]!.key, revision, countRemaining: false });
    }
    this.index = index;
    this.rev = revision;
    this.stats.loads++;
    if (this.opts.serveWatches) {
      // What was in memory does not connect to what comes now: those watches end (none on the first load).
      this.ring ??= new CacheWatchers(Math.max(1, this.opts.watchCacheEvents ?? 10_000), revision);
      this.ring.reset(revision, new StorageError('closed', 'the watch cache is reloading'));
    }
    this.state = 'live';
    this.firstLoadEnded();
    const watcher = this.inner.watch('', {
      fromRevision: revision,
      onEvent: (ev) => this.apply(gen, ev),
      onError: () => this.watchFailed(gen),
    });
    // The watch may have failed already (an inner store that reports errors synchronously).
    if (gen === this.generation) this.watcher = watcher;
    else watcher.close();
  }

  private apply(gen: number, ev: StoreEvent): void {
    if (gen !== this.generation) return;
    const revision = ev.kv.modRevision;
    // Events come in revision order; never let anything move the cache backwards.
    if (revision < this.rev) return;
    const key = ev.kv.key;
    const old = this.index.get(key) as SlabValue | undefined;
    const next = ev.type === 'put' ? this.slabs.make(ev.kv) : undefined;
    if (this.labels.active) this.labels.apply(key, old, next);
    if (next !== undefined) this.index.put(next);
    else this.index.remove(key);
    this.stats.noteEvent(key);
    this.rev = revision;
    this.release(revision);
    if (this.holding.size > 0) this.flushHeld();
    // The ring holds the event as the cache does (the same key-values, not the inner store's strings).
    if (this.ring) this.ring.push(this.ownEvent(ev, old, next));
    // The index's hold; the ring's, if it keeps old, is its own.
    if (old !== undefined) this.slabs.release(old);
  }

  /**
   * ev with the cache's key-values, one hold of each the ring's: the new one, the one it replaced as prev, for a
   * deletion the last value (not copies).
   */
  private ownEvent(ev: StoreEvent, old: SlabValue | undefined, next: SlabValue | undefined): StoreEvent {
    // The value replaced is the cache's (it follows every event), unless it was not there to replace.
    const own = (kv: KeyValue): SlabValue => {
      if (old === undefined || old.modRevision !== kv.modRevision) return this.slabs.make(kv);
      old.holds++;
      return old;
    };
    const prev = ev.prev && own(ev.prev);
    let kv: KeyValue;
    if (next !== undefined) {
      next.holds++;
      kv = next;
    } else if (old !== undefined) {
      old.holds++;
      kv = deletedValue(old, ev.kv.modRevision);
    } else kv = this.slabs.make(ev.kv);
    return prev ? { type: ev.type, kv, prev } : { type: ev.type, kv };
  }

  /** The usual cause is 'compacted': the watch fell further behind than history reaches. Start over. */
  private watchFailed(gen: number): void {
    if (gen !== this.generation || this.state === 'closed') return;
    this.watcher = undefined;
    this.reload();
  }

  /**
   * For a cache made with `new` (not loaded): load in the background, as startCachedStore does. Until loaded, every
   * read goes to the inner store.
   */
  startLoading(): void {
    if (this.generation === 0) this.reload();
  }

  private reload(): void {
    if (this.state === 'closed') return;
    this.load().then(
      () => {
        this.retryMs = this.baseRetryMs;
      },
      (err: unknown) => {
        this.firstLoadEnded();
        if (this.state === 'closed') return;
        if (err instanceof StorageError && err.code === 'closed') {
          // The inner store is gone: nothing to follow; reads go to it and fail there.
          this.state = 'failed';
          this.generation++;
          this.flushHeld();
          this.ring?.failAll(new StorageError('closed', 'storage is closed'));
          return;
        }
        // Reads go on to the inner store meanwhile (and fail there as the load did, for a value it cannot read).
        (this.opts.onLoadError ?? logLoadError)(err, this.retryMs);
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.reload(), this.retryMs);
        this.retryTimer.unref();
        this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
      },
    );
  }

  private get baseRetryMs(): number {
    return Math.max(1, this.opts.reloadRetryMs ?? 100);
  }

  private assertOpen(): void {
    if (this.state === 'closed') throw new StorageError('closed', 'storage is closed');
  }
}
