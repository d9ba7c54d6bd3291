// A KVStore that delivers the watch events of the store it wraps later, on a timer, as a networked
// store (etcd) does: a write resolves before its event arrives. Everything else passes through.
// Running the conformance suite over it keeps the suite honest about timing, and running the watch
// cache over it exercises the cache's waiting for its own writes.
import { StorageError, type KVStore, type WatchOptions, type Watcher } from '../../src/storage/index.js';
import { PassThroughStore } from './pass-through-store.js';

export class LateWatchStore extends PassThroughStore {
  constructor(
    inner: KVStore,
    private readonly delayMs = 1,
  ) {
    super(inner);
  }

  override watch(prefix: string, opts: WatchOptions): Watcher {
    let open = true;
    // Timers of one duration fire in the order they were set, so events keep their order.
    const later = (fn: () => void): void => void setTimeout(() => open && fn(), this.delayMs);
    const fail = (err: StorageError): void => {
      open = false;
      inner.close();
      opts.onError?.(err);
    };
    const inner = this.inner.watch(prefix, {
      fromRevision: opts.fromRevision,
      onEvent: (ev) =>
        later(() => {
          try {
            opts.onEvent(ev);
          } catch (err) {
            fail(new StorageError('closed', `watch stopped: event handler threw: ${String(err)}`));
          }
        }),
      onError: (err) => later(() => fail(err)),
    });
    return {
      close: () => {
        open = false;
        inner.close();
      },
    };
  }
}
