import type { KeyValue, StoreEvent } from './types.js';

/** The revision an event happened at (for puts and deletes alike, kv.modRevision). */
export function eventRevision(ev: StoreEvent): number {
  return ev.kv.modRevision;
}

/**
 * What a ring of recent events may hold in value text (UTF-16 code units, about bytes), besides its count:
 * 10,000 events of a 1.5 KB object and its previous value stay within it, while 10,000 events of CRDs (their
 * creates and status writes, often 100 KB to 650 KB each) would hold gigabytes. Older events are read from
 * history (SQLite) or the store's watch (etcd) instead, as for resumptions older than the count.
 */
export const DEFAULT_RING_BYTES = 64 * 1024 * 1024;

/**
 * The ring's own copy of an event, and the copy each replay hands out: objects made for one delivery (a
 * watch's decoded objects are remembered by event object) must not live as long as the ring holds the event.
 */
export function copyEvent(ev: StoreEvent): StoreEvent {
  return ev.prev ? { type: ev.type, kv: ev.kv, prev: ev.prev } : { type: ev.type, kv: ev.kv };
}

/**
 * The value text an event adds to a ring: its value, and its previous value unless `shares` says that string
 * is held already (the ring's previous event of the key).
 */
export function eventBytes(ev: StoreEvent, shares: (prev: KeyValue) => boolean): number {
  return ev.kv.value.length + (ev.prev && !shares(ev.prev) ? ev.prev.value.length : 0);
}

/**
 * The most recent events in memory, so that watches resuming from a recent revision never touch
 * the database. Every revision produces exactly one event, so the ring always holds the contiguous
 * revisions (head - size, head], at most `capacity` of them and, beyond the newest, at most
 * `maxBytes` of value text.
 */
export class EventRing {
  private readonly buf: (StoreEvent | undefined)[];
  private readonly bytesAt: Float64Array;
  private size = 0;
  private bytes = 0;
  /** Revision of the newest event published (also when the ring holds nothing). */
  head: number;

  constructor(
    readonly capacity: number,
    head: number,
    readonly maxBytes = DEFAULT_RING_BYTES,
  ) {
    this.buf = new Array<StoreEvent | undefined>(Math.max(0, capacity));
    this.bytesAt = new Float64Array(Math.max(0, capacity));
    this.head = head;
  }

  push(ev: StoreEvent): void {
    const rev = eventRevision(ev);
    if (rev !== this.head + 1) {
      // A gap means the ring no longer describes contiguous history: start over from this event.
      this.buf.fill(undefined);
      this.size = 0;
      this.bytes = 0;
    }
    if (this.capacity === 0) {
      this.head = rev;
      return;
    }
    if (this.size === this.capacity) this.dropOldest();
    const n = eventBytes(ev, (prev) => this.heldPut(prev.modRevision, prev.key)?.value === prev.value);
    this.head = rev;
    this.buf[rev % this.capacity] = copyEvent(ev);
    this.bytesAt[rev % this.capacity] = n;
    this.bytes += n;
    this.size++;
    while (this.bytes > this.maxBytes && this.size > 1) this.dropOldest();
  }

  private dropOldest(): void {
    const slot = (this.head - this.size + 1) % this.capacity;
    this.bytes -= this.bytesAt[slot]!;
    this.buf[slot] = undefined;
    this.size--;
  }

  /** True when every event with a revision greater than `after` (up to head) is in the ring. */
  covers(after: number): boolean {
    return after >= this.head - this.size;
  }

  /** Events with after < revision <= head whose key starts with prefix (copies); requires covers(after). */
  since(after: number, prefix: string): StoreEvent[] {
    const out: StoreEvent[] = [];
    for (let rev = Math.max(after, this.head - this.size) + 1; rev <= this.head; rev++) {
      const ev = this.buf[rev % this.capacity]!;
      if (ev.kv.key.startsWith(prefix)) out.push(copyEvent(ev));
    }
    return out;
  }

  /** The key-value a put of `key` at revision `rev` wrote, when the ring holds that event. */
  heldPut(rev: number, key: string): KeyValue | undefined {
    if (rev <= this.head - this.size || rev > this.head) return undefined;
    const ev = this.buf[rev % this.capacity];
    return ev?.type === 'put' && ev.kv.key === key ? ev.kv : undefined;
  }
}
