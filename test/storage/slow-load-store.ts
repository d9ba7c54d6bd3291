// A store whose watch cache load is held back: the cache's load lists every key (prefix '', remaining not
// counted), and its pages after the first (which fixes the load's revision) wait until the test lets them
// through; with holdFirst, the first too. Everything else passes through and answers at once.
import type { KVStore, KeyValue, ListOptions, ListResult } from '../../src/storage/index.js';
import { PassThroughStore } from './pass-through-store.js';

export interface SlowLoadOptions {
  /** Hold the first page too: the load has not even fixed its revision. */
  holdFirst?: boolean;
  /** With the gate open, each held page still waits this long: a load that takes a while. */
  pageDelayMs?: number;
}

export class SlowLoadStore<S extends KVStore = KVStore> extends PassThroughStore<S> {
  /** Load pages read so far. */
  loadPages = 0;
  /** Other lists and gets that reached this store: reads the cache did not answer from memory. */
  reads = 0;
  private readonly gate: Promise<void>;
  private openGate!: () => void;

  constructor(
    inner: S,
    private readonly opts: SlowLoadOptions = {},
  ) {
    super(inner);
    this.gate = new Promise((r) => (this.openGate = r));
  }

  /** Let the load's pages through (now and from here on). */
  release(): void {
    this.openGate();
  }

  override async list(prefix: string, opts?: ListOptions): Promise<ListResult> {
    if (prefix !== '' || opts?.countRemaining !== false) {
      this.reads++;
      return this.inner.list(prefix, opts);
    }
    if (opts.after !== undefined || this.opts.holdFirst) {
      await this.gate;
      if (this.opts.pageDelayMs) await new Promise((r) => setTimeout(r, this.opts.pageDelayMs));
    }
    this.loadPages++;
    return this.inner.list(prefix, opts);
  }

  override get(key: string): Promise<KeyValue | undefined> {
    this.reads++;
    return this.inner.get(key);
  }
}
