// A controller: N workers take keys off a work queue and reconcile each with sync. A failed sync is
// retried with the key's backoff; a successful one resets it. Like client-go's processNextWorkItem.
import { isStatusError } from '../api/status.js';
import { WorkQueue, type WorkQueueOptions } from './work-queue.js';

/** Reconciles one key. The signal aborts when the controller stops, for syncs that wait. */
type SyncFn = (key: string, signal: AbortSignal) => Promise<void>;

/**
 * Thrown by a sync that is not done yet but did not fail (content still being removed, a wait that
 * timed out): the key comes back after the delay, without backoff and without an error logged.
 */
export class RequeueAfter extends Error {
  constructor(
    readonly delayMs: number,
    message = `requeue after ${delayMs} ms`,
  ) {
    super(message);
  }
}

export interface ControllerOptions extends WorkQueueOptions {
  name: string;
  sync: SyncFn;
  workers?: number;
  /** Where failed syncs are reported; one line on stderr by default. */
  onError?: (key: string, err: unknown) => void;
}

export class Controller {
  readonly name: string;
  readonly queue: WorkQueue;
  private readonly sync: SyncFn;
  private readonly workers: number;
  private readonly onError: (key: string, err: unknown) => void;
  private readonly abort = new AbortController();
  private running: Promise<void>[] = [];

  constructor(opts: ControllerOptions) {
    this.name = opts.name;
    this.sync = opts.sync;
    this.workers = opts.workers ?? 1;
    this.queue = new WorkQueue(opts);
    this.onError = opts.onError ?? ((key, err) => console.error(failureLine(this.name, key, err)));
  }

  enqueue(key: string): void {
    this.queue.add(key);
  }

  /**
   * Starts the informers one after the other (each listed before the next starts, so a later one's first
   * events see the earlier caches full), then the workers.
   */
  async runAfter(informers: readonly { start(): Promise<void> }[]): Promise<void> {
    for (const i of informers) await i.start();
    this.run();
  }

  /** Stops the informers (in reverse order) and then the workers. */
  stopWith(informers: readonly { stop(): void }[]): void {
    for (const i of [...informers].reverse()) i.stop();
    void this.stop();
  }

  /** Starts the workers; keys enqueued before are processed now. */
  run(): void {
    if (this.running.length > 0 || this.queue.isShuttingDown) return;
    for (let i = 0; i < this.workers; i++) this.running.push(this.worker());
  }

  /** Stops taking keys and aborts syncs that wait; resolves when the workers have returned. */
  async stop(): Promise<void> {
    this.queue.shutDown();
    this.abort.abort();
    await Promise.all(this.running);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  isIdle(): boolean {
    return this.queue.isIdle();
  }

  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.sync(key, this.abort.signal);
        this.queue.forget(key);
      } catch (e) {
        if (e instanceof RequeueAfter) this.queue.addAfter(key, e.delayMs);
        else {
          if (!this.abort.signal.aborted) this.onError(key, e);
          this.queue.addRateLimited(key);
        }
      } finally {
        this.queue.done(key);
      }
    }
  }
}

/**
 * A failed sync as kube's controllers log it (HandleError: "<key> failed with : <err>"): one line for an API
 * error (a conflict with another writer is routine, retried with backoff), the stack for anything else.
 */
export function failureLine(name: string, key: string, err: unknown): string {
  if (isStatusError(err)) return `${name}: ${key} failed with : ${err.message}`;
  return `${name}: ${key} failed with : ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
}
