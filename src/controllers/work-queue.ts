// A keyed work queue after client-go's workqueue: a key is queued at most once; a key added while it
// is being processed is held back and queued again when its processing is done, so one key never has
// two workers. Delayed adds (addAfter) and rate-limited adds (per-key backoff) sit in timers until due.
import { realClock, type Clock, type TimerHandle } from './clock.js';
import { ExponentialFailureRateLimiter, type RateLimiter } from './rate-limiter.js';

export interface WorkQueueOptions {
  clock?: Clock;
  rateLimiter?: RateLimiter;
}

export class WorkQueue {
  private readonly clock: Clock;
  private readonly limiter: RateLimiter;
  /** Keys ready for a worker, in order. */
  private queue: string[] = [];
  /** Keys that need processing: queued ones, and ones added again while processing. */
  private dirty = new Set<string>();
  private processing = new Set<string>();
  /** Keys waiting out a delay: when they are due and their timer. */
  private waiting = new Map<string, { at: number; timer: TimerHandle }>();
  private getters: Array<(key: string | undefined) => void> = [];
  private idleWaiters: Array<() => void> = [];
  private shuttingDown = false;
  private doneCount = 0;

  constructor(opts: WorkQueueOptions = {}) {
    this.clock = opts.clock ?? realClock;
    this.limiter = opts.rateLimiter ?? new ExponentialFailureRateLimiter();
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.dispatch();
  }

  /** The next key, once there is one; undefined once the queue is shut down. Call done(key) after. */
  get(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.getters.push(resolve);
      this.dispatch();
    });
  }

  done(key: string): void {
    this.processing.delete(key);
    this.doneCount++;
    if (this.dirty.has(key) && !this.shuttingDown) {
      this.queue.push(key);
      this.dispatch();
    }
    this.notifyIdle();
  }

  /** Adds the key after ms; a key already waiting keeps the earlier of the two times. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.clock.now() + ms;
    const existing = this.waiting.get(key);
    if (existing && existing.at <= at) return;
    if (existing) this.clock.clearTimeout(existing.timer);
    const timer = this.clock.setTimeout(() => {
      this.waiting.delete(key);
      this.add(key);
    }, ms);
    this.waiting.set(key, { at, timer });
  }

  /** Adds the key after its backoff, which grows with each call until forget. */
  addRateLimited(key: string): void {
    this.addAfter(key, this.limiter.when(key));
  }

  forget(key: string): void {
    this.limiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.limiter.numRequeues(key);
  }

  /** Keys ready for a worker (not those processing or waiting out a delay). */
  len(): number {
    return this.queue.length;
  }

  /** Nothing queued and nothing processing. Keys waiting out a delay do not count: a key that keeps failing must not hold up start-up. */
  isIdle(): boolean {
    return this.queue.length === 0 && this.processing.size === 0;
  }

  idle(): Promise<void> {
    if (this.isIdle() || this.shuttingDown) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops handing out keys: waiting getters get undefined, queued and delayed keys are dropped. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.waiting.values()) this.clock.clearTimeout(timer);
    this.waiting.clear();
    this.queue = [];
    for (const g of this.getters.splice(0)) g(undefined);
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /** How many keys have been done so far: lets waitForIdle tell whether work happened meanwhile. */
  get processed(): number {
    return this.doneCount;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  private dispatch(): void {
    while (this.getters.length > 0 && this.queue.length > 0) {
      const key = this.queue.shift()!;
      this.dirty.delete(key);
      this.processing.add(key);
      this.getters.shift()!(key);
    }
  }

  private notifyIdle(): void {
    if (!this.isIdle()) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }
}
