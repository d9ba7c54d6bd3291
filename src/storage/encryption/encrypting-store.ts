// A KVStore that encrypts values on their way to the inner store and decrypts them on their way
// back, with the transformer the key's resource is configured with: kube's value transformer in the
// etcd3 store. It sits between the watch cache and SQLite, so the cache and everything above it see
// plaintext. Keys are never transformed; the storage key is the authenticated data, as in kube.
import type { KVStore, KeyValue, ListOptions, ListResult, StoreEvent, WatchOptions, Watcher, WriteResult } from '../types.js';
import type { ValueTransformer } from './transformers.js';

/** The transformer for a storage key, or undefined to store its value as is. */
export type KeyTransformerLookup = (key: string) => ValueTransformer | undefined;

export class EncryptingKVStore implements KVStore {
  constructor(
    readonly inner: KVStore,
    private readonly transformerFor: KeyTransformerLookup,
  ) {}

  /** The stored value read back; throws the transformer's error (the read then fails, as kube's does). */
  private read(kv: KeyValue): KeyValue {
    const t = this.transformerFor(kv.key);
    if (!t) return kv;
    const { value, stale } = t.fromStorage(kv.value, kv.key);
    return stale ? { ...kv, value, stale } : { ...kv, value };
  }

  private readOpt(kv: KeyValue | undefined): KeyValue | undefined {
    return kv && this.read(kv);
  }

  private write(key: string, value: string): string {
    return this.transformerFor(key)?.toStorage(value, key) ?? value;
  }

  /** A successful write's kv carries what the caller wrote, not the ciphertext. */
  private written(res: WriteResult, plain: string): WriteResult {
    return res.ok ? { ...res, kv: { ...res.kv, value: plain } } : { ok: false, current: this.readOpt(res.current) };
  }

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  compactedRevision(): Promise<number> {
    return this.inner.compactedRevision();
  }

  async get(key: string): Promise<KeyValue | undefined> {
    return this.readOpt(await this.inner.get(key));
  }

  async list(prefix: string, opts?: ListOptions): Promise<ListResult> {
    const res = await this.inner.list(prefix, opts);
    return { ...res, items: res.items.map((kv) => this.read(kv)) };
  }

  count(prefix: string): Promise<number> {
    return this.inner.count(prefix);
  }

  async create(key: string, value: string): Promise<WriteResult> {
    return this.written(await this.inner.create(key, this.write(key, value)), value);
  }

  async update(key: string, value: string, expectedModRevision: number): Promise<WriteResult> {
    return this.written(await this.inner.update(key, this.write(key, value), expectedModRevision), value);
  }

  async delete(key: string, expectedModRevision?: number): Promise<WriteResult> {
    const res = await this.inner.delete(key, expectedModRevision);
    if (!res.ok) return { ok: false, current: this.readOpt(res.current) };
    // The value is gone already: one that cannot be read comes back as stored rather than failing the delete.
    try {
      return { ...res, kv: this.read(res.kv) };
    } catch {
      return res;
    }
  }

  watch(prefix: string, opts: WatchOptions): Watcher {
    // A value that cannot be read ends this watch (onEvent throwing closes it), as a decode error ends kube's.
    return this.inner.watch(prefix, {
      ...opts,
      onEvent: (ev: StoreEvent) => opts.onEvent({ type: ev.type, kv: this.read(ev.kv), ...(ev.prev ? { prev: this.read(ev.prev) } : {}) }),
    });
  }

  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
