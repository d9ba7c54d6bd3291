// LIST and WATCH of one resource across every logical cluster, at /clusters/*/... (kcp's wildcard requests), for
// privileged controllers: a read-only store of the resource's type over a view that merges root's keys with every
// cluster's, each object carrying its cluster's name in the tenancy.crd-apiserver.io/cluster annotation.
//
// The view presents a cluster's key as root's key followed by \u0001 and the cluster's name, so every key stays
// under the resource's prefix (namespace filters and continue tokens work unchanged), keys are unique across
// clusters, and their order is root's order with each cluster's object right after root's of the same name.
import type { KeyValue, KVStore, ListOptions, ListResult, StoreEvent, WatchOptions, Watcher } from '../storage/types.js';
import { clusterKey, clusterOfKey } from '../storage/prefixed-store.js';
import { STORAGE_ROOT } from '../storage/copy-store.js';
import { GenericStore } from '../registry/store.js';
import type { Admission } from '../registry/admission.js';
import * as S from '../api/status.js';
import { parseJSON, stringifyJSON } from '../util/json-int64.js';
import { ObjectMeta } from '../apis/meta/v1/object-meta.js';
import { ROOT_CLUSTER, TENANCY_GROUP } from '../apis/tenancy/v1alpha1/logical-cluster.js';

export const CLUSTER_ANNOTATION = `${TENANCY_GROUP}/cluster`;
const SEP = '\u0001';
const META_ORDER = ObjectMeta.fields.map((f) => f.json);

const readOnly: Admission = {
  admit: () => Promise.reject(S.methodNotAllowed()),
  validate: () => Promise.reject(S.methodNotAllowed()),
};

/** The resource's store, read across every cluster (root and clusters() at the time of each call). */
export function allClustersStore(store: GenericStore, kv: KVStore, clusters: () => readonly string[]): GenericStore {
  return new GenericStore(allClustersView(kv, clusters), store.type, readOnly);
}

/** The stored object with its cluster's name among its annotations, metadata's keys in ObjectMeta's order. */
function annotate(value: string, cluster: string): string {
  const obj = parseJSON(value) as Record<string, unknown>;
  const meta = (obj['metadata'] ?? {}) as Record<string, unknown>;
  const annotations = { ...((meta['annotations'] as Record<string, string> | undefined) ?? {}), [CLUSTER_ANNOTATION]: cluster };
  const out: Record<string, unknown> = {};
  for (const k of META_ORDER) if (k === 'annotations') out[k] = annotations;
  else if (meta[k] !== undefined) out[k] = meta[k];
  for (const k of Object.keys(meta)) if (!(k in out)) out[k] = meta[k];
  obj['metadata'] = out;
  return stringifyJSON(obj);
}

const present = (x: KeyValue, cluster: string, local: string): KeyValue => ({
  ...x,
  key: cluster === ROOT_CLUSTER ? local : `${local}${SEP}${cluster}`,
  value: annotate(x.value, cluster),
});

/** The key just before `key` in order among keys of printable characters: listing after it includes `key`. */
function justBefore(key: string): string {
  const last = key.charCodeAt(key.length - 1);
  return `${key.slice(0, -1)}${String.fromCharCode(last - 1)}\uffff`;
}

function allClustersView(kv: KVStore, clusters: () => readonly string[]): KVStore {
  const refuse = (): Promise<never> => Promise.reject(S.methodNotAllowed());
  return {
    currentRevision: () => kv.currentRevision(),
    compactedRevision: () => kv.compactedRevision(),
    get: () => refuse(),
    create: () => refuse(),
    update: () => refuse(),
    delete: () => refuse(),
    compact: async () => {},
    close: async () => {},
    count: async (prefix) => {
      let n = 0;
      for (const c of [ROOT_CLUSTER, ...clusters()]) n += await kv.count(clusterKey(c, prefix));
      return n;
    },
    list: async (prefix: string, opts: ListOptions = {}): Promise<ListResult> => {
      // Each cluster's keys from the one a presented `after` names on, all read at one revision, merged in order.
      const after = opts.after;
      const base = after === undefined ? undefined : after.split(SEP)[0]!.replace(/\0+$/, '');
      let revision = opts.revision;
      const found: KeyValue[] = [];
      let more = false;
      for (const c of [ROOT_CLUSTER, ...clusters()]) {
        const real = clusterKey(c, prefix);
        const fromKey = base !== undefined && base.length > prefix.length ? real + justBefore(base.slice(prefix.length)) : undefined;
        const page = await kv.list(real, { ...(fromKey !== undefined ? { after: fromKey } : {}), ...(revision !== undefined ? { revision } : {}), ...(opts.limit ? { limit: opts.limit + 1 } : {}) });
        revision ??= page.revision;
        more ||= page.more;
        for (const item of page.items) {
          const p = present(item, c, clusterOfKey(item.key).local);
          if (after === undefined || p.key > after) found.push(p);
        }
      }
      found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const limit = opts.limit ?? 0;
      const items = limit > 0 ? found.slice(0, limit) : found;
      more ||= items.length < found.length;
      return { items, revision: revision ?? (await kv.currentRevision()), more };
    },
    watch: (prefix: string, opts: WatchOptions): Watcher =>
      kv.watch(STORAGE_ROOT, {
        ...opts,
        onEvent: (ev: StoreEvent) => {
          const { cluster, local } = clusterOfKey(ev.kv.key);
          if (!local.startsWith(prefix)) return;
          const prev = ev.prev && present(ev.prev, cluster, local);
          opts.onEvent({ type: ev.type, kv: present(ev.kv, cluster, local), ...(prev ? { prev } : {}) });
        },
      }),
  };
}
