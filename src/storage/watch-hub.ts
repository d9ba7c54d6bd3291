import { EventRing, eventRevision } from './event-ring.js';
import { StorageError, type KeyValue, type StoreEvent, type WatchOptions, type Watcher } from './types.js';
import { PrefixWatchers } from './prefix-watchers.js';

/** Where a watch that starts behind the in-memory ring reads its backlog from. */
export interface HistoryReader {
  /**
   * Events with after < revision <= upTo whose key starts with prefix, oldest first, at most limit.
   * Throws StorageError('compacted') when part of that range has been compacted away.
   */
  readEvents(prefix: string, after: number, upTo: number, limit: number): StoreEvent[];
}

interface WatchHubOptions {
  /** Events kept in memory for resuming watches. */
  ringSize: number;
  /** The value text those events may hold (DEFAULT_RING_BYTES unless given). */
  ringBytes?: number;
  /** Events read from history per replay step (each step yields to the event loop). */
  replayBatch: number;
  /** Revisions scanned per replay step, so a rare prefix cannot make one step scan everything. */
  replayWindow: number;
}

/**
 * Fans committed events out to watchers. A watcher first replays what it missed (from the ring or,
 * if older, from history), one step per turn of the event loop, and goes live once it has caught
 * up with the newest published revision. A live watcher receives events synchronously from
 * publish(). Each watcher tracks the last revision it was given, which rules out both gaps and
 * duplicates across the switch.
 */
export class WatchHub {
  private readonly ring: EventRing;
  private readonly watchers = new PrefixWatchers<HubWatcher>();

  constructor(
    head: number,
    private readonly history: HistoryReader,
    private readonly opts: WatchHubOptions,
  ) {
    this.ring = new EventRing(opts.ringSize, head, opts.ringBytes);
  }

  get head(): number {
    return this.ring.head;
  }

  get size(): number {
    return this.watchers.size;
  }

  /** The key-value a published put of `key` at `rev` wrote, while the ring holds it (to share its strings). */
  heldPut(rev: number, key: string): KeyValue | undefined {
    return this.ring.heldPut(rev, key);
  }

  /** Record freshly committed events (consecutive revisions, oldest first) and deliver them. */
  publish(events: readonly StoreEvent[]): void {
    for (const ev of events) this.ring.push(ev);
    for (const ev of events) {
      // A watcher added by a callback during this loop may be visited too; its cursor filters out what it
      // already replayed.
      this.watchers.forKey(ev.kv.key, (w) => w.offerLive(ev));
    }
  }

  watch(prefix: string, opts: WatchOptions): Watcher {
    const w = new HubWatcher(this, prefix, opts);
    this.watchers.add(w);
    if (w.cursor >= this.head) w.live = true;
    else queueMicrotask(() => this.replay(w));
    return w;
  }

  /** Stop every watcher with err (the store is closing). */
  failAll(err: StorageError): void {
    for (const w of this.watchers.all()) w.fail(err);
  }

  remove(w: HubWatcher): void {
    this.watchers.delete(w);
  }

  private replay(w: HubWatcher): void {
    if (w.closed) return;
    try {
      // Serving from the ring is cheap, so catch up in one go; history is read a bounded step at a
      // time, and between steps new events may arrive, which the next step picks up.
      if (this.ring.covers(w.cursor)) {
        const head = this.head;
        for (const ev of this.ring.since(w.cursor, w.prefix)) {
          if (!w.deliver(ev)) return;
        }
        w.cursor = head;
        w.live = true;
        return;
      }
      const upTo = Math.min(this.head, w.cursor + this.opts.replayWindow);
      const batch = this.history.readEvents(w.prefix, w.cursor, upTo, this.opts.replayBatch);
      for (const ev of batch) {
        if (!w.deliver(ev)) return;
      }
      w.cursor = batch.length === this.opts.replayBatch ? eventRevision(batch[batch.length - 1]!) : upTo;
    } catch (err) {
      w.fail(err instanceof StorageError ? err : new StorageError('unavailable', `watch replay failed: ${String(err)}`));
      return;
    }
    // The consumer's output full: the next batch waits for it to drain (reading history is faster than a socket).
    const full = w.backlogFull();
    if (full) void full.then(() => setImmediate(() => this.replay(w)));
    else setImmediate(() => this.replay(w));
  }
}

class HubWatcher implements Watcher {
  /** The newest revision this watcher has been given (or skipped as not matching). */
  cursor: number;
  live = false;
  closed = false;

  constructor(
    private readonly hub: WatchHub,
    readonly prefix: string,
    private readonly opts: WatchOptions,
  ) {
    this.cursor = Math.max(0, opts.fromRevision);
  }

  backlogFull(): Promise<void> | undefined {
    return this.opts.backlogFull?.();
  }

  offerLive(ev: StoreEvent): void {
    if (!this.live || this.closed) return;
    const rev = eventRevision(ev);
    if (rev <= this.cursor) return;
    this.deliver(ev);
  }

  /** Hand one event to the callback; false when the watcher is (now) closed. */
  deliver(ev: StoreEvent): boolean {
    if (this.closed) return false;
    this.cursor = eventRevision(ev);
    if (!ev.kv.key.startsWith(this.prefix)) return true;
    try {
      this.opts.onEvent(ev);
    } catch (err) {
      // A throwing consumer must not break delivery to the others; it loses its watch instead.
      this.fail(new StorageError('closed', `watch stopped: event handler threw: ${String(err)}`));
      return false;
    }
    return !this.closed;
  }

  fail(err: StorageError): void {
    if (this.closed) return;
    this.close();
    this.opts.onError?.(err);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.hub.remove(this);
  }
}
