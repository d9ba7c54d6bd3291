// plugin/pkg/audit/buffered: --audit-*-mode=batch. Events go into a bounded buffer and the request moves on at
// once; a loop takes them out in batches (maxBatchSize events, or whatever arrived within maxBatchWait),
// throttled by a token bucket, and hands each batch to the delegate. A full buffer drops the event with a
// log line, never the request.
import { consoleErrorLog, pluginErrorMessage, type AuditBackend, type AuditEvent, type ErrorLog } from './backend.js';

export interface BatchConfig {
  /** --audit-*-batch-buffer-size: events held before new ones are dropped. */
  bufferSize: number;
  /** --audit-*-batch-max-size: events in one batch. */
  maxBatchSize: number;
  /** --audit-*-batch-max-wait in ms: a batch is sent at least this often (only when maxBatchSize > 1). */
  maxBatchWaitMs: number;
  /** --audit-*-batch-throttle-enable, -qps, -burst: batches per second handed to the delegate. */
  throttleEnable: boolean;
  throttleQPS: number;
  throttleBurst: number;
  /** Whether a batch is handed over without waiting for the previous one (the webhook's; the log's is not). */
  asyncDelegate: boolean;
}

/** kube's defaults: the webhook batches 400 events or 30 s, at most 10 batches a second (bursts of 15). */
export const WEBHOOK_BATCH_DEFAULTS: BatchConfig = {
  bufferSize: 10_000,
  maxBatchSize: 400,
  maxBatchWaitMs: 30_000,
  throttleEnable: true,
  throttleQPS: 10,
  throttleBurst: 15,
  asyncDelegate: true,
};

/** The log's: no batching (one event at a time), no throttle, written in order. */
export const LOG_BATCH_DEFAULTS: BatchConfig = {
  bufferSize: 10_000,
  maxBatchSize: 1,
  maxBatchWaitMs: 0,
  throttleEnable: false,
  throttleQPS: 0,
  throttleBurst: 0,
  asyncDelegate: false,
};

/** client-go's token bucket (NewTokenBucketRateLimiter): burst tokens, refilled at qps; take() waits for one. */
function tokenBucket(qps: number, burst: number): { take(): Promise<void> } {
  let tokens = burst;
  let last = Date.now();
  return {
    async take() {
      for (;;) {
        const now = Date.now();
        tokens = Math.min(burst, tokens + ((now - last) / 1000) * qps);
        last = now;
        if (tokens >= 1) {
          tokens -= 1;
          return;
        }
        await sleep(Math.ceil(((1 - tokens) / qps) * 1000));
      }
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function bufferedBackend(delegate: AuditBackend, config: BatchConfig, log: ErrorLog = consoleErrorLog): AuditBackend {
  const buffer: AuditEvent[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const throttle = config.throttleEnable ? tokenBucket(config.throttleQPS, config.throttleBurst) : undefined;
  const batching = config.maxBatchSize > 1;
  let stopped = false;
  // Wakes the loop: a full batch is waiting, the wait timer fired, or the backend is stopping.
  let wake: (() => void) | undefined;
  let timerFired = false;

  const ready = (): boolean => stopped || buffer.length >= config.maxBatchSize || (timerFired && buffer.length > 0) || (!batching && buffer.length > 0);

  const send = async (batch: AuditEvent[]): Promise<void> => {
    if (throttle) await throttle.take();
    const p = Promise.resolve()
      .then(() => delegate.processEvents(batch))
      .catch((e: unknown) => log(pluginErrorMessage(delegate.name, e instanceof Error ? e.message : String(e), batch)));
    if (config.asyncDelegate) {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    } else {
      await p;
    }
  };

  const loop = (async () => {
    for (;;) {
      // kube resets the wait timer at the start of each collection.
      timerFired = false;
      const timer = batching ? setTimeout(() => ((timerFired = true), wake?.()), config.maxBatchWaitMs) : undefined;
      timer?.unref();
      while (!ready() && !timerFired) await new Promise<void>((r) => (wake = r));
      wake = undefined;
      clearTimeout(timer);
      if (stopped) break;
      const batch = buffer.splice(0, config.maxBatchSize);
      if (batch.length) await send(batch);
    }
    // Stopping: what the buffer still holds goes out in batches before the delegate is shut down.
    while (buffer.length) await send(buffer.splice(0, config.maxBatchSize));
  })();

  return {
    name: `buffered<${delegate.name}>`,
    processEvents(events) {
      for (const [i, ev] of events.entries()) {
        const refused = stopped ? 'audit backend shut down' : buffer.length >= config.bufferSize ? 'audit buffer queue blocked' : undefined;
        if (refused) {
          // kube logs the loss and still answers true: batch mode never fails a request.
          log(pluginErrorMessage('buffered', refused, events.slice(i)));
          break;
        }
        buffer.push(ev);
      }
      if (ready()) wake?.();
      return true;
    },
    async shutdown() {
      stopped = true;
      wake?.();
      await loop;
      await Promise.all([...inFlight]);
      await delegate.shutdown();
    },
  };
}
