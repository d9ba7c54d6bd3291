import type { StoreEvent } from './types.js';

/** The revision an event happened at (for puts and deletes alike, kv.modRevision). */
export function eventRevision(ev: StoreEvent): number {
  return ev.kv.modRevision;
}

/**
 * The most recent events in memory, so that watches resuming from a recent revision never touch
 * the database. Every revision produces exactly one event, so the ring always holds the contiguous
 * revisions (head - size, head].
 */
export class EventRing {
  private readonly buf: (StoreEvent | undefined)[];
  private size = 0;
  /** Revision of the newest event published (also when the ring holds nothing). */
  head: number;

  constructor(
    readonly capacity: number,
    head: number,
  ) {
    this.buf = new Array<StoreEvent | undefined>(Math.max(0, capacity));
    this.head = head;
  }

  push(ev: StoreEvent): void {
    const rev = eventRevision(ev);
    if (rev !== this.head + 1) {
      // A gap means the ring no longer describes contiguous history: start over from this event.
      this.size = 0;
    }
    this.head = rev;
    if (this.capacity === 0) return;
    this.buf[rev % this.capacity] = ev;
    if (this.size < this.capacity) this.size++;
  }

  /** True when every event with a revision greater than `after` (up to head) is in the ring. */
  covers(after: number): boolean {
    return after >= this.head - this.size;
  }

  /** Events with after < revision <= head whose key starts with prefix; requires covers(after). */
  since(after: number, prefix: string): StoreEvent[] {
    const out: StoreEvent[] = [];
    for (let rev = Math.max(after, this.head - this.size) + 1; rev <= this.head; rev++) {
      const ev = this.buf[rev % this.capacity]!;
      if (ev.kv.key.startsWith(prefix)) out.push(ev);
    }
    return out;
  }
}
