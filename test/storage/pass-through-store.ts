// A KVStore that hands every call to the store it wraps; test wrappers override what they change.
import type { KVStore, KeyValue, ListOptions, ListResult, WatchOptions, Watcher, WriteResult } from '../../src/storage/index.js';

export class PassThroughStore<S extends KVStore = KVStore> implements KVStore {
  constructor(readonly inner: S) {}

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
  watch(prefix: string, opts: WatchOptions): Watcher {
    return this.inner.watch(prefix, opts);
  }
  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
