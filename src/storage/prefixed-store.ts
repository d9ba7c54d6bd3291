// A logical cluster's view of the one store: its keys are root's layout with `/registry` replaced by
// `/registry/clusters/<name>` (inside kube's key space, so under --etcd-prefix too; no built-in or custom
// resource has that prefix, core resources having no "clusters" and groups always having a dot). The same
// registry code serves each cluster unchanged, while revisions stay the store's own: a resourceVersion of
// one cluster is a revision of the whole store, as kcp's are.
import { ValueView, inSlabs } from './value-slabs.js';
import { NOT_AT_HAND, type KeyValue, type KVStore, type LabelListResult, type LabelQuery, type ListOptions, type ListResult, type StoreEvent, type Watcher, type WatchOptions, type WriteResult } from './types.js';

/** The root of every key of ours. */
const ROOT = '/registry';
const CLUSTERS = `${ROOT}/clusters/`;
/** The cluster whose keys keep kube's layout (the API's own name for it is declared with LogicalCluster). */
const ROOT_CLUSTER_NAME = 'root';

/** Where every logical cluster's keys but root's live. */
export const CLUSTERS_KEY_PREFIX = CLUSTERS;

/** Where a logical cluster's keys live: root keeps kube's layout (`/registry/...`). */
export const clusterKeyPrefix = (cluster: string): string => `${CLUSTERS}${cluster}`;

/** A key of the cluster's server (`/registry/...`) as the store holds it; root's as they are. */
export const clusterKey = (cluster: string, key: string): string => (cluster === ROOT_CLUSTER_NAME ? key : clusterKeyPrefix(cluster) + key.slice(ROOT.length));

/** The cluster a stored key belongs to, and the key its cluster's server names it by. */
export function clusterOfKey(key: string): { cluster: string; local: string } {
  const local = clusterLocalKey(key);
  if (local === key) return { cluster: ROOT_CLUSTER_NAME, local };
  return { cluster: key.slice(CLUSTERS.length, key.length - (local.length - ROOT.length)), local };
}

/** A key as its cluster's server sees it: `/registry/clusters/<name>/namespaces/x` → `/registry/namespaces/x`; root's as they are. */
export function clusterLocalKey(key: string): string {
  if (!key.startsWith(CLUSTERS)) return key;
  const end = key.indexOf('/', CLUSTERS.length);
  return end < 0 ? key : ROOT + key.slice(end);
}

/** The cluster's view: its keys (all under `/registry`) stored with that root replaced by the cluster's prefix. */
export function clusterStore(kv: KVStore, cluster: string): KVStore {
  return prefixedStore(kv, ROOT, clusterKeyPrefix(cluster));
}

/** A view of kv whose keys starting with `from` are stored with `to` in its place (no other key is valid). */
export function prefixedStore(kv: KVStore, from: string, to: string): KVStore {
  // One view object per stored key-value: a caching store hands out the same one while it is current, and
  // what the registry keeps per key-value (decoded objects, where the resourceVersion goes) is kept by identity.
  const views = new WeakMap<KeyValue, KeyValue>();
  const strip = (x: KeyValue): KeyValue => {
    let v = views.get(x);
    // A cached value's text is read from its slab by a getter (value-slabs.ts), which a spread would not copy.
    if (!v) views.set(x, (v = inSlabs(x) ? new ValueView(x, from + x.key.slice(to.length), x.modRevision) : { ...x, key: from + x.key.slice(to.length) }));
    return v;
  };
  const full = (key: string): string => {
    if (!key.startsWith(from)) throw new Error(`key ${JSON.stringify(key)} is outside ${JSON.stringify(from)}`);
    return to + key.slice(from.length);
  };
  const write = (r: WriteResult): WriteResult => (r.ok ? { ...r, kv: strip(r.kv) } : r.current ? { ok: false, current: strip(r.current) } : r);
  return {
    currentRevision: () => kv.currentRevision(),
    compactedRevision: () => kv.compactedRevision(),
    get: async (key) => {
      const x = await kv.get(full(key));
      return x && strip(x);
    },
    ...(kv.getAtHand
      ? {
          getAtHand: (key: string) => {
            const x = kv.getAtHand!(full(key));
            return x === undefined || x === NOT_AT_HAND ? x : strip(x);
          },
        }
      : {}),
    list: async (p: string, opts?: ListOptions): Promise<ListResult> => {
      const r = await kv.list(full(p), opts?.after === undefined ? opts : { ...opts, after: full(opts.after) });
      return { ...r, items: r.items.map(strip) };
    },
    ...(kv.listByLabels
      ? {
          listByLabels: async (p: string, q: LabelQuery, opts?: ListOptions): Promise<LabelListResult | undefined> => {
            const r = await kv.listByLabels!(full(p), { ...q, scope: full(q.scope) }, opts?.after === undefined ? opts : { ...opts, after: full(opts.after) });
            return r && { ...r, items: r.items.map(strip) };
          },
        }
      : {}),
    count: (p) => kv.count(full(p)),
    create: async (key, value) => write(await kv.create(full(key), value)),
    update: async (key, value, expected) => write(await kv.update(full(key), value, expected)),
    delete: async (key, expected) => write(await kv.delete(full(key), expected)),
    watch: (p: string, opts: WatchOptions): Watcher =>
      kv.watch(full(p), {
        ...opts,
        onEvent: (ev: StoreEvent) => opts.onEvent({ type: ev.type, kv: strip(ev.kv), ...(ev.prev ? { prev: strip(ev.prev) } : {}) }),
      }),
    // History is the whole store's: the root server's compactor compacts it, never a cluster.
    compact: async () => {},
    // The store outlives each cluster; closing a cluster's server leaves it open.
    close: async () => {},
  };
}
