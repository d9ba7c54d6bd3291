// Copying every key of one KVStore into another, as `migrate-backend` does: the source is read at one
// revision (a consistent cut, also while servers still write to an etcd source), page by page, and each key
// is created in the target with its value as read. Values carry the objects' uids, creation timestamps and
// generations; revisions are the target's own (as after an etcd restore), so resourceVersions change.
import { StorageError, type KVStore, type KeyValue } from './types.js';

/** Every key the servers write starts with this (an etcd store maps it to its --etcd-prefix). */
export const STORAGE_ROOT = '/registry/';

export interface CopyProgress {
  copied: number;
  /** Keys at the source revision. */
  total: number;
  revision: number;
}

export interface CopyOptions {
  /** Keys per source page (default 500). */
  pageSize?: number;
  /** Creates in flight in the target at once (default 64). */
  concurrency?: number;
  /** After each page. */
  onProgress?(p: CopyProgress): void;
  /** The value to write for a source key (e.g. decrypted); its error fails the copy, naming the key. */
  mapValue?(kv: KeyValue): string;
}

export interface CopyResult {
  copied: number;
  /** The source revision every key was read at. */
  sourceRevision: number;
}

/** Keys the target already holds (under the root). */
export function countKeys(store: KVStore): Promise<number> {
  return store.count(STORAGE_ROOT);
}

/**
 * Deletes every key under the root of the target, page by page (for --force: the target ends up holding
 * exactly the source's keys, not a mixture). Returns how many went.
 */
export async function clearKeys(store: KVStore, opts: Pick<CopyOptions, 'pageSize' | 'concurrency'> = {}): Promise<number> {
  let deleted = 0;
  for (;;) {
    const page = await store.list(STORAGE_ROOT, { limit: opts.pageSize ?? 500 });
    if (page.items.length === 0) return deleted;
    await inParallel(page.items, opts.concurrency ?? 64, async (kv) => {
      const r = await store.delete(kv.key);
      if (r.ok) deleted++;
    });
  }
}

/** Copy every key under the root of `from` into `to`; a key that already exists in `to` fails the copy. */
export async function copyKeys(from: KVStore, to: KVStore, opts: CopyOptions = {}): Promise<CopyResult> {
  const pageSize = Math.max(1, opts.pageSize ?? 500);
  const concurrency = Math.max(1, opts.concurrency ?? 64);
  let copied = 0;
  let after: string | undefined;
  let revision = 0;
  let total = 0;
  for (;;) {
    const page = await from.list(STORAGE_ROOT, { limit: pageSize, ...(after !== undefined && { after }), ...(revision > 0 && { revision }) });
    if (revision === 0) {
      revision = page.revision;
      total = page.items.length + (page.remaining ?? 0);
    }
    await inParallel(page.items, concurrency, async (kv) => {
      let value = kv.value;
      if (opts.mapValue) {
        try {
          value = opts.mapValue(kv);
        } catch (err) {
          throw new StorageError('unavailable', `${kv.key}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      const r = await to.create(kv.key, value);
      if (!r.ok) throw new StorageError('unavailable', `${kv.key} already exists in the target (is something else writing to it?)`);
      copied++;
    });
    opts.onProgress?.({ copied, total, revision });
    if (!page.more || page.items.length === 0) break;
    after = page.items[page.items.length - 1]!.key;
  }
  return { copied, sourceRevision: revision };
}

/** Run fn over items with at most `limit` calls pending; the first failure rejects (after the pending ones settle). */
async function inParallel<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure;
}
