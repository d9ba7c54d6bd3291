// Time as the controllers see it: real timers in the server, a fake clock in tests so that backoff
// and polling run instantly and in a fixed order.

export type TimerHandle = { readonly id: unknown };

export interface Clock {
  now(): number;
  /** Runs fn once after ms; the timer does not keep the process alive. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => ({ id: setTimeout(fn, ms).unref() }),
  clearTimeout: (handle) => clearTimeout(handle.id as NodeJS.Timeout),
};

/** Waits ms on the clock; resolves false at once if the signal aborts first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      resolve(false);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
