// An informer over one of the server's own stores: list, then watch from the list's revision, keeping a
// local cache (key -> object) and telling handlers what changed. A watch that fails (compacted, closed)
// is replaced by a relist, whose differences from the cache reach the handlers as events too.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { JSONObject } from '../util/json.js';
import { metaOf, type GenericStore, type WatchEvent } from '../registry/store.js';
import type { Watcher } from '../storage/types.js';
import { realClock, type Clock, type TimerHandle } from './clock.js';
import { ExponentialFailureRateLimiter, type RateLimiter } from './rate-limiter.js';

/** Objects handed to handlers and kept in the cache are shared: read-only. */
export interface EventHandlers {
  add?(obj: JSONObject): void;
  update?(old: JSONObject, obj: JSONObject): void;
  delete?(obj: JSONObject): void;
}

/** client-go's MetaNamespaceKeyFunc: namespace/name, or name for cluster-scoped objects. */
export function keyOf(obj: JSONObject): string {
  const m = metaOf(obj);
  return m.namespace ? `${m.namespace}/${m.name ?? ''}` : (m.name ?? '');
}

const revisionOf = (obj: JSONObject): number => Number(metaOf(obj).resourceVersion ?? 0) || 0;

/**
 * Where an informer lists and watches: a store, or anything shaped like one (tests wrap stores). With
 * listKV, waitForStore reads revisions without decoding the objects.
 */
export type InformerSource = Pick<GenericStore, 'list'> & Partial<Pick<GenericStore, 'listKV'>> & { watch(...args: Parameters<GenericStore['watch']>): Watcher };

interface InformerOptions {
  /** Only this namespace; all when empty or absent. */
  namespace?: string;
  clock?: Clock;
  /** Backoff between failed relists. */
  relistBackoff?: RateLimiter;
  /** Names the informer in logs. */
  name?: string;
  onError?: (err: unknown) => void;
  /**
   * client-go's SetTransform: what the cache keeps and handlers get of each object, e.g. only the metadata a
   * controller reads, so that an informer over a million objects does not hold a million decoded objects.
   */
  transform?: (obj: JSONObject) => JSONObject;
  /**
   * What the cache holds of a (transformed) object: the object, or a string from which `expand` gives it back
   * with its key. For informers over every object of a kind whose handlers need little of most of them (the
   * garbage collector's: an object without owners or finalizers is its uid), so that a million objects are
   * not a million objects held. get, list and the handlers see expanded objects (a relist's handlers too:
   * its items are packed as their pages come).
   */
  compact?: {
    pack(obj: JSONObject): JSONObject | string;
    expand(key: string, packed: string): JSONObject;
    /**
     * false: what packs to a string is handed to the handlers (expanded) and not kept. get and list then do not
     * know it, a handler hears of each of its changes as an add, and a relist cannot find it gone (a watch's
     * DELETED still says so): onRelisted is the handlers' cue.
     */
    keepStrings?: boolean;
  };
  /** After each relist but the first (a watch ended): what happened meanwhile reached the handlers as a relist's differences. */
  onRelisted?: () => void;
  /**
   * An object's new state (from a watch or a relist), given the state held before: what to hold and hand on
   * instead, e.g. the new object with the old one's unchanged parts, so that a big object written again and again
   * (a CRD's status writes) is not held once per write by whatever keeps parts of each state.
   */
  reuse?: (held: JSONObject, next: JSONObject) => JSONObject;
}

/** Objects per page of a relist (client-go's reflector pages its lists by 500 too): never all decoded at once. */
const RELIST_PAGE = 500;
/** Listed objects handed to the handlers per turn of the event loop. */
const REPLACE_CHUNK = 10_000;

export class Informer {
  private cache = new Map<string, JSONObject | string>();
  private handlers: EventHandlers[] = [];
  private watcher?: Watcher;
  private synced = false;
  private stopped = false;
  private relistTimer?: TimerHandle;
  /** The newest revision the cache reflects. */
  private revision = 0;
  private revisionWaiters: Array<{ revision: number; resolve: () => void }> = [];
  private readonly namespace: string;
  private readonly clock: Clock;
  private readonly backoff: RateLimiter;
  private readonly onError: (err: unknown) => void;
  private readonly transform: (obj: JSONObject) => JSONObject;
  private readonly compact: InformerOptions['compact'];
  private readonly onRelisted: (() => void) | undefined;
  private readonly reuse: InformerOptions['reuse'];

  constructor(
    private readonly store: InformerSource,
    opts: InformerOptions = {},
  ) {
    this.namespace = opts.namespace ?? '';
    this.clock = opts.clock ?? realClock;
    this.backoff = opts.relistBackoff ?? new ExponentialFailureRateLimiter(100, 30_000);
    this.onError = opts.onError ?? ((err) => console.error(`informer ${opts.name ?? ''}:`, err));
    this.transform = opts.transform ?? ((obj) => obj);
    this.compact = opts.compact;
    this.onRelisted = opts.onRelisted;
    this.reuse = opts.reuse;
  }

  /** The object the cache holds at key as packed. */
  private expand(key: string, held: JSONObject | string): JSONObject {
    return typeof held === 'string' ? this.compact!.expand(key, held) : held;
  }

  private hold(obj: JSONObject): JSONObject | string {
    return this.compact ? this.compact.pack(obj) : obj;
  }

  /**
   * Handlers added to a synced informer first hear of every cached object as an add (client-go's
   * AddEventHandler on a started informer). Returns the handler's removal.
   */
  addEventHandler(handlers: EventHandlers): () => void {
    this.handlers.push(handlers);
    if (this.synced) for (const [key, held] of [...this.cache]) this.notifyOne(handlers, (h) => h.add?.(this.expand(key, held)));
    return () => {
      this.handlers = this.handlers.filter((h) => h !== handlers);
    };
  }

  /** Lists and starts watching; resolves once the cache holds the list (hasSynced). */
  async start(): Promise<void> {
    await this.relist();
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    if (this.relistTimer) this.clock.clearTimeout(this.relistTimer);
    for (const w of this.revisionWaiters.splice(0)) w.resolve();
  }

  hasSynced(): boolean {
    return this.synced;
  }

  get(key: string): JSONObject | undefined {
    const held = this.cache.get(key);
    return held === undefined ? undefined : this.expand(key, held);
  }

  list(): JSONObject[] {
    return Array.from(this.cache, ([key, held]) => this.expand(key, held));
  }

  /**
   * Resolves once the cache has caught up with every object the store holds now (what our own writes
   * have left there). Deletions are not waited for: their revisions are not in a list.
   */
  async waitForStore(): Promise<void> {
    // The stored revisions alone: decoding every object to read its resourceVersion took a restart with a
    // thousand corpus CRDs most of a second.
    const newest = this.store.listKV
      ? (await this.store.listKV({ namespace: this.namespace })).items.reduce((n, kv) => Math.max(n, kv.modRevision), 0)
      : (await this.store.list({ namespace: this.namespace })).items.reduce((n, obj) => Math.max(n, revisionOf(obj)), 0);
    if (this.stopped || this.revision >= newest) return;
    await new Promise<void>((resolve) => this.revisionWaiters.push({ revision: newest, resolve }));
  }

  private async relist(): Promise<void> {
    this.watcher?.close();
    this.watcher = undefined;
    // In pages, each transformed (and packed) before the next is read; the continue token keeps the first page's
    // snapshot. A million objects listed are never held whole at once.
    const keys: string[] = [];
    const held: Array<JSONObject | string> = [];
    let resourceVersion: string | undefined;
    let continueToken: string | undefined;
    do {
      // remainingItemCount is not read here (nor by client-go's reflector): not counted at each page.
      const page = await this.store.list({ namespace: this.namespace, limit: RELIST_PAGE, countRemaining: false, ...(continueToken ? { continueToken } : {}) });
      if (this.stopped) return;
      resourceVersion ??= page.resourceVersion;
      for (const obj of page.items) {
        const t = this.transform(obj);
        keys.push(keyOf(t));
        held.push(this.hold(t));
      }
      continueToken = page.continueToken;
      // A store answering from memory resolves at once: without a turn of the event loop between pages, a relist of
      // a million objects would hold every request (and /readyz) until it ends.
      if (continueToken) await nextTurn();
    } while (continueToken);
    await this.replace(keys, held);
    if (this.stopped) return;
    if (this.synced && this.onRelisted) {
      try {
        this.onRelisted();
      } catch (e) {
        this.onError(e);
      }
    }
    this.synced = true;
    const from = Number(resourceVersion);
    this.advance(from);
    this.watcher = this.store.watch(this.namespace, from, {}, (ev) => this.onEvent(ev), () => this.onWatchError());
  }

  private onWatchError(): void {
    if (this.stopped) return;
    this.watcher?.close();
    this.watcher = undefined;
    this.relistSoon(0);
  }

  private relistSoon(delayMs: number): void {
    this.relistTimer = this.clock.setTimeout(() => {
      this.relistTimer = undefined;
      if (this.stopped) return;
      this.relist().then(
        () => this.backoff.forget('relist'),
        (err: unknown) => {
          this.onError(err);
          if (!this.stopped) this.relistSoon(this.backoff.when('relist'));
        },
      );
    }, delayMs);
  }

  /**
   * A fresh list: handlers hear of what was added, updated (every listed object, as client-go's Replace) and deleted.
   * In chunks with a turn of the event loop between them, as client-go's handlers hear of a Replace's items one
   * delta at a time: a million objects' handlers would otherwise hold every request for seconds.
   */
  private async replace(keys: readonly string[], held: ReadonlyArray<JSONObject | string>): Promise<void> {
    // Nothing cached (the first list): nothing to delete, no set of the keys listed needed.
    const seen = this.cache.size > 0 ? new Set<string>() : undefined;
    for (let i = 0; i < keys.length; i++) {
      if (i > 0 && i % REPLACE_CHUNK === 0) {
        await nextTurn();
        if (this.stopped) return;
      }
      const key = keys[i]!;
      seen?.add(key);
      this.put(key, held[i]!);
    }
    if (!seen) return;
    for (const [key, old] of [...this.cache]) {
      if (seen.has(key)) continue;
      this.cache.delete(key);
      this.notify((h) => h.delete?.(this.expand(key, old)));
    }
  }

  private onEvent(ev: WatchEvent): void {
    if (this.stopped) return;
    const key = keyOf(ev.object);
    if (ev.type === 'ADDED' || ev.type === 'MODIFIED') {
      const obj = this.transform(ev.object);
      this.put(key, this.hold(obj), obj);
    }
    else if (ev.type === 'DELETED') {
      const old = this.cache.get(key);
      this.cache.delete(key);
      // What the cache held, unless it held less of it than the watch's last state.
      const last = old !== undefined && typeof old !== 'string' ? old : this.transform(ev.object);
      this.notify((h) => h.delete?.(last));
    } else return;
    this.advance(revisionOf(ev.object));
  }

  /**
   * The cache holds `held` at key now; handlers get `obj`, or what expanding it gives (a relist's packed items).
   * An object replacing an object held (by a watch event or a relist) first goes through `reuse`.
   */
  private put(key: string, held: JSONObject | string, obj: JSONObject = this.expand(key, held)): void {
    const old = this.cache.get(key);
    // What packs to an object is the object itself (see compact).
    if (this.reuse && typeof held !== 'string' && old !== undefined && typeof old !== 'string') held = obj = this.reuse(old, held);
    if (typeof held === 'string' && this.compact?.keepStrings === false) this.cache.delete(key);
    else this.cache.set(key, held);
    if (old !== undefined) this.notify((h) => h.update?.(this.expand(key, old), obj));
    else this.notify((h) => h.add?.(obj));
  }

  private notify(call: (h: EventHandlers) => void): void {
    for (const h of this.handlers) this.notifyOne(h, call);
  }

  private notifyOne(h: EventHandlers, call: (h: EventHandlers) => void): void {
    // One handler's bug must not stop the others or the watch.
    try {
      call(h);
    } catch (e) {
      this.onError(e);
    }
  }

  private advance(revision: number): void {
    if (revision <= this.revision) return;
    this.revision = revision;
    const ready = this.revisionWaiters.filter((w) => w.revision <= revision);
    this.revisionWaiters = this.revisionWaiters.filter((w) => w.revision > revision);
    for (const w of ready) w.resolve();
  }
}

/** What a controller reads from an informer it shares with others. */
export type InformerView = Pick<Informer, 'addEventHandler' | 'get' | 'list'>;

/**
 * A view of a shared informer whose handlers can all be removed at once: controllers that run for a
 * while (a leader's term) on an informer that outlives them.
 */
export function scopedInformer(informer: Informer): InformerView & { removeHandlers(): void } {
  const removers: Array<() => void> = [];
  return {
    addEventHandler: (h) => {
      const remove = informer.addEventHandler(h);
      removers.push(remove);
      return remove;
    },
    get: (key) => informer.get(key),
    list: () => informer.list(),
    removeHandlers: () => {
      for (const r of removers.splice(0)) r();
    },
  };
}
