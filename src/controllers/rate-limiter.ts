// Per-key exponential backoff, as client-go's ItemExponentialFailureRateLimiter: each failure of a
// key doubles its delay, from a base up to a cap; forget starts the key over.

export interface RateLimiter {
  /** The delay before the key's next try, counting this as one more failure. */
  when(key: string): number;
  forget(key: string): void;
  numRequeues(key: string): number;
}

/** client-go's DefaultControllerRateLimiter per-item part: 5 ms doubling up to 1000 s. */
const DEFAULT_BASE_DELAY_MS = 5;
const DEFAULT_MAX_DELAY_MS = 1_000_000;

export class ExponentialFailureRateLimiter implements RateLimiter {
  private failures = new Map<string, number>();

  constructor(
    private readonly baseMs = DEFAULT_BASE_DELAY_MS,
    private readonly maxMs = DEFAULT_MAX_DELAY_MS,
  ) {}

  when(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    // 2 ** n overflows to Infinity for large n, which the cap absorbs.
    return Math.min(this.baseMs * 2 ** n, this.maxMs);
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }
}
