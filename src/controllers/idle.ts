// Waiting until a set of controllers has nothing left to do: start-up waits so that stored CRDs are
// named and established before requests are served, and tests wait instead of sleeping.
import type { Controller } from './controller.js';
import type { Informer } from './informer.js';

/**
 * Resolves when every controller's queue is idle and every informer has seen the controllers' own
 * writes, with no work done meanwhile (a write's event may queue more work, which is then awaited).
 */
export async function waitForIdle(informers: readonly Informer[], controllers: readonly Controller[]): Promise<void> {
  const processed = (): number => controllers.reduce((n, c) => n + c.queue.processed, 0);
  for (;;) {
    await Promise.all(controllers.map((c) => c.idle()));
    const before = processed();
    await Promise.all(informers.map((i) => i.waitForStore()));
    if (controllers.every((c) => c.isIdle() || c.queue.isShuttingDown) && processed() === before) return;
  }
}
