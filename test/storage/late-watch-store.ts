// A KVStore that delivers the watch events of the store it wraps later, on a timer, as a networked
// store (etcd) does: a write resolves before its event arrives. Everything else passes through.
// Running the conformance suite over it keeps the suite honest about timing, and running the watch
// cache over it exercises the cache's waiting for its own writes.
import {
  StorageError,
  type KVStore,
  type KeyValue,
  type ListOptions,
  type ListResult,
  type WatchOptions,
  type Watcher,
  type WriteResult,
} from '../../src/storage/index.js';

export class LateWatchStore implements KVStore {
  constructor(
    readonly inner: KVStore,
    private readonly delayMs = 1,
  ) {}

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }
  compactedRevision(): Promise<number> {
    return this.inner.compactedRevision();
  }
  get(key: string): Promise<KeyValue | undefined> {
    return this.inner.get(key);
  }
  list(prefix: string, opts?: ListOptions): Promise<ListResult> {
    return this.inner.list(prefix, opts);
  }
  count(prefix: string): Promise<number> {
    return this.inner.count(prefix);
  }
  create(key: string, value: string): Promise<WriteResult> {
    return this.inner.create(key, value);
  }
  update(key: string, value: string, expected: number): Promise<WriteResult> {
    return this.inner.update(key, value, expected);
  }
  delete(key: string, expected?: number): Promise<WriteResult> {
    return this.inner.delete(key, expected);
  }
  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  watch(prefix: string, opts: WatchOptions): Watcher {
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
