// Watches served from the watch cache's memory, as kube-apiserver's watch cache serves them: the recent
// events the cache applied, in a ring, and the watchers fed from it as the cache applies more. Revisions
// need not be contiguous (etcd's count every key, ours or not): the ring knows the revision after which
// it holds every event of the keys it follows, because the cache follows them all from one watch.
// The cache's events carry its own key-values (value-slabs.ts: bytes in slabs, not strings); the ring holds
// them, one hold each, until it drops the event.
import { StorageError, type StoreEvent, type WatchOptions, type Watcher } from './types.js';
import { PrefixWatchers } from './prefix-watchers.js';
import { DEFAULT_RING_BYTES, copyEvent, eventBytes } from './event-ring.js';
import { releaseValue, slabBytes } from './value-slabs.js';

interface CacheWatcher {
  prefix: string;
  opts: WatchOptions;
  /** The newest revision delivered (or the revision it started after). */
  cursor: number;
  /** Replayed its backlog; from now on gets events as they are pushed. */
  live: boolean;
  open: boolean;
}

export class CacheWatchers {
  private readonly buf: Array<StoreEvent | undefined>;
  private readonly bytesAt: Float64Array;
  /** Index of the oldest event, the number held and their value text (see DEFAULT_RING_BYTES). */
  private first = 0;
  private count = 0;
  private bytes = 0;
  /** The newest key-value of each key among the events held, to count a shared previous value once. */
  private readonly newest = new Map<string, StoreEvent>();
  /** Every event with a revision above this is in the ring. */
  private completeAfter: number;
  private readonly watchers = new PrefixWatchers<CacheWatcher>();

  constructor(
    readonly capacity: number,
    revision: number,
    readonly maxBytes = DEFAULT_RING_BYTES,
  ) {
    this.buf = new Array<StoreEvent | undefined>(Math.max(1, capacity));
    this.bytesAt = new Float64Array(this.buf.length);
    this.completeAfter = revision;
  }

  get size(): number {
    return this.watchers.size;
  }

  /** Whether a watch from `after` can be served: every event since is held. */
  covers(after: number): boolean {
    return after >= this.completeAfter;
  }

  /**
   * The cache starts over (a reload) at revision: what the ring held no longer connects to what comes,
   * so its watchers end (their clients resume from the last revision they saw, or list again).
   */
  reset(revision: number, why: StorageError): void {
    for (const ev of this.buf) if (ev !== undefined) release(ev);
    this.buf.fill(undefined);
    this.newest.clear();
    this.first = 0;
    this.count = 0;
    this.bytes = 0;
    this.completeAfter = revision;
    this.failAll(why);
  }

  failAll(why: StorageError): void {
    for (const w of this.watchers.all()) this.end(w, why);
  }

  /**
   * An event the cache has just applied, in revision order: kept (a copy), and delivered to live watchers. The
   * ring takes over one hold of each of its key-values held in slabs.
   */
  push(ev: StoreEvent): void {
    if (this.count === this.buf.length) this.dropOldest();
    const n = this.bytesOf(ev);
    const held = copyEvent(ev);
    const slot = (this.first + this.count) % this.buf.length;
    this.buf[slot] = held;
    this.bytesAt[slot] = n;
    this.bytes += n;
    this.count++;
    this.newest.set(ev.kv.key, held);
    while (this.bytes > this.maxBytes && this.count > 1) this.dropOldest();
    this.watchers.forKey(ev.kv.key, (w) => w.live && this.offer(w, ev));
  }

  /** The value bytes ev adds to the ring: its values', less a previous value the ring holds already (shared). */
  private bytesOf(ev: StoreEvent): number {
    const kv = ev.kv;
    const prev = ev.prev;
    const shared = (p: typeof prev & {}) => this.newest.get(p.key)?.kv === p;
    // Values not in slabs (tests push plain events): their text, as the stores' rings count it.
    if (slabBytes(kv) === 0 && (!prev || slabBytes(prev) === 0)) return eventBytes(ev, (p) => this.newest.get(p.key)?.kv.value === p.value);
    return slabBytes(kv) + (prev && !shared(prev) ? slabBytes(prev) : 0);
  }

  private dropOldest(): void {
    const dropped = this.buf[this.first]!;
    release(dropped);
    this.buf[this.first] = undefined;
    this.bytes -= this.bytesAt[this.first]!;
    if (this.newest.get(dropped.kv.key) === dropped) this.newest.delete(dropped.kv.key);
    this.first = (this.first + 1) % this.buf.length;
    this.count--;
    this.completeAfter = Math.max(this.completeAfter, dropped.kv.modRevision);
  }

  /** Serve a watch from the ring; the caller has checked covers(opts.fromRevision). */
  watch(prefix: string, opts: WatchOptions): Watcher {
    const w: CacheWatcher = { prefix, opts, cursor: opts.fromRevision, live: false, open: true };
    this.watchers.add(w);
    // Never from within watch(): the backlog goes out on the next turn, then the watcher is live.
    setImmediate(() => this.replay(w));
    return { close: () => this.close(w) };
  }

  private replay(w: CacheWatcher): void {
    if (!w.open) return;
    if (!this.covers(w.cursor)) {
      // The ring moved past it before the first turn (a burst larger than the ring).
      this.end(w, new StorageError('compacted', `too old resource version: ${w.cursor} (${this.completeAfter})`, this.completeAfter));
      return;
    }
    // Copies: what a watcher's consumer remembers by event object goes with the delivery, not with the ring.
    for (let i = 0; i < this.count && w.open; i++) {
      const ev = this.buf[(this.first + i) % this.buf.length]!;
      if (ev.kv.modRevision > w.cursor && ev.kv.key.startsWith(w.prefix)) this.offer(w, copyEvent(ev));
    }
    w.live = true;
  }

  private offer(w: CacheWatcher, ev: StoreEvent): void {
    if (!w.open || ev.kv.modRevision <= w.cursor || !ev.kv.key.startsWith(w.prefix)) return;
    w.cursor = ev.kv.modRevision;
    try {
      w.opts.onEvent(ev);
    } catch (err) {
      // As the stores do: a throwing handler ends its own watch only.
      this.end(w, new StorageError('closed', `watch ended: its event handler failed: ${err instanceof Error ? err.message : String(err)}`));
    }
  }

  private close(w: CacheWatcher): void {
    w.open = false;
    this.watchers.delete(w);
  }

  private end(w: CacheWatcher, why: StorageError): void {
    if (!w.open) return;
    this.close(w);
    w.opts.onError?.(why);
  }
}

function release(ev: StoreEvent): void {
  releaseValue(ev.kv);
  if (ev.prev) releaseValue(ev.prev);
}
