// A logical cluster's view of the one store: every key it reads or writes lives under the cluster's prefix
// (`/clusters/<name>`), so the same registry code serves each cluster unchanged, while revisions stay the
// store's own (a resourceVersion from one cluster is a revision of the whole store, as kcp's are).
import type { KeyValue, KVStore, ListOptions, ListResult, StoreEvent, Watcher, WatchOptions, WriteResult } from './types.js';

/** The key prefix of a logical cluster's objects: root keeps kube's layout (no prefix). */
export const clusterKeyPrefix = (cluster: string): string => `/clusters/${cluster}`;

/** A key as its cluster's server sees it: `/clusters/<name>/registry/...` → `/registry/...`; root's as they are. */
export function clusterLocalKey(key: string): string {
  if (!key.startsWith('/clusters/')) return key;
  const end = key.indexOf('/', '/clusters/'.length);
  return end < 0 ? key : key.slice(end);
}

export function prefixedStore(kv: KVStore, prefix: string): KVStore {
  const strip = (x: KeyValue): KeyValue => ({ ...x, key: x.key.slice(prefix.length) });
  const write = (r: WriteResult): WriteResult => (r.ok ? { ...r, kv: strip(r.kv) } : r.current ? { ok: false, current: strip(r.current) } : r);
  return {
    currentRevision: () => kv.currentRevision(),
    compactedRevision: () => kv.compactedRevision(),
    get: async (key) => {
      const x = await kv.get(prefix + key);
      return x && strip(x);
    },
    list: async (p: string, opts?: ListOptions): Promise<ListResult> => {
      const r = await kv.list(prefix + p, opts?.after === undefined ? opts : { ...opts, after: prefix + opts.after });
      return { ...r, items: r.items.map(strip) };
    },
    count: (p) => kv.count(prefix + p),
    create: async (key, value) => write(await kv.create(prefix + key, value)),
    update: async (key, value, expected) => write(await kv.update(prefix + key, value, expected)),
    delete: async (key, expected) => write(await kv.delete(prefix + key, expected)),
    watch: (p: string, opts: WatchOptions): Watcher =>
      kv.watch(prefix + p, {
        ...opts,
        onEvent: (ev: StoreEvent) => opts.onEvent({ type: ev.type, kv: strip(ev.kv), ...(ev.prev ? { prev: strip(ev.prev) } : {}) }),
      }),
    // History is the whole store's: the root server's compactor compacts it, never a cluster.
    compact: async () => {},
    // The store outlives each cluster; closing a cluster's server leaves it open.
    close: async () => {},
  };
}
