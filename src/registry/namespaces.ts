// Core v1 Namespaces beyond their declaration (src/apis/core/v1/namespace.ts): the initial and immortal
// namespaces, the lifecycle admission that guards content creation, and the controller that empties a
// terminating namespace and then removes it.
import * as S from '../api/status.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { rfc3339 } from '../util/time.js';
import { GenericStore, metaOf, type Admission } from './store.js';

export const NAMESPACE_GR: S.GroupResource = { group: '', resource: 'namespaces' };
/** Namespaces that exist from the start and may not be deleted. */
export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];
export const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** The spec of a namespace, created empty when missing. */
export const namespaceSpec = (obj: JSONObject): JSONObject => {
  if (!isObject(obj['spec'])) obj['spec'] = {};
  return obj['spec'] as JSONObject;
};

/** Ensures the initial namespaces exist (idempotent, on every start). */
export async function ensureInitialNamespaces(store: GenericStore): Promise<void> {
  for (const name of INITIAL_NAMESPACES) {
    try {
      await store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (e) {
      if (!(e instanceof S.StatusError && e.code === 409)) throw e;
    }
  }
}

/** NamespaceLifecycle admission: content goes only into namespaces that exist and are not terminating. */
export function namespaceLifecycle(namespaces: GenericStore): Admission {
  return {
    async admitCreate(type, namespace, obj) {
      if (!type.served.namespaced) return;
      let ns: JSONObject;
      try {
        ns = await namespaces.get('', namespace);
      } catch (e) {
        if (e instanceof S.StatusError && e.code === 404) throw S.notFound(NAMESPACE_GR, namespace);
        throw e;
      }
      if ((ns['status'] as JSONObject | undefined)?.['phase'] === 'Terminating' || metaOf(ns).deletionTimestamp) {
        // admission.NewForbidden names the object as admission sees it: before generateName is applied.
        const m = metaOf(obj);
        const name = m.name || m.generateName || 'Unknown';
        throw S.forbidden(type.gr, name, `unable to create new content in namespace ${namespace} because it is being terminated`, [
          { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' },
        ]);
      }
    },
  };
}

export function forbidImmortalDelete(name: string): void {
  if (IMMORTAL_NAMESPACES.includes(name)) throw S.forbidden(NAMESPACE_GR, name, 'this namespace may not be deleted');
}

const CONDITIONS: Array<[string, string, string]> = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  ['NamespaceDeletionContentFailure', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
];

interface Remaining {
  total: number;
  /** "<resource>.<group>" to how many objects of it remain. */
  byResource: Map<string, number>;
  /** Finalizer name to how many remaining objects carry it. */
  byFinalizer: Map<string, number>;
}

/**
 * The namespace controller: for each terminating namespace, delete its content in every namespaced
 * resource, wait until it is gone (objects with finalizers linger), then finalize and remove the namespace.
 */
export class NamespaceController {
  private running = new Set<string>();
  private stopped = false;
  private watcher?: { close(): void };
  private retry = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly namespaces: GenericStore,
    private readonly contentStores: () => GenericStore[],
  ) {}

  async start(): Promise<void> {
    const all = await this.namespaces.list({ namespace: '' });
    for (const ns of all.items) this.enqueue(ns);
    this.watcher = this.namespaces.watch(
      '',
      Number(all.resourceVersion),
      {},
      (ev) => {
        if (ev.type !== 'DELETED') this.enqueue(ev.object);
      },
      () => {
        if (!this.stopped) void this.start();
      },
    );
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    for (const t of this.retry.values()) clearTimeout(t);
  }

  private enqueue(ns: JSONObject): void {
    const name = metaOf(ns).name;
    if (!name || !metaOf(ns).deletionTimestamp || this.running.has(name) || this.stopped) return;
    this.running.add(name);
    void this.finalize(name)
      .catch((e: unknown) => {
        if (!(e instanceof S.StatusError && e.code === 404)) console.error(`namespace controller: ${name}:`, e);
        return true;
      })
      .then((done) => {
        this.running.delete(name);
        if (!done && !this.stopped) {
          // Content with finalizers remains: look again shortly.
          this.retry.set(
            name,
            setTimeout(() => {
              this.retry.delete(name);
              void this.namespaces.get('', name).then((n) => this.enqueue(n), () => undefined);
            }, 500).unref(),
          );
        }
      });
  }

  /** Returns true when done with the namespace: finalized by us (or by others before). */
  private async finalize(name: string): Promise<boolean> {
    // Finalized already (no spec finalizers): only metadata finalizers keep it, and they are not ours.
    const before = await this.namespaces.get('', name);
    if (((namespaceSpec(before)['finalizers'] as string[] | undefined) ?? []).length === 0) return true;
    let deleted = 0;
    for (const store of this.contentStores()) {
      const items = await store.list({ namespace: name });
      for (const obj of items.items) {
        deleted++;
        try {
          // As the namespace deleter: background propagation, so no orphan finalizer holds the content.
          await store.delete(name, metaOf(obj).name ?? '', { propagationPolicy: 'Background' });
        } catch (e) {
          if (!(e instanceof S.StatusError && e.code === 404)) throw e;
        }
      }
    }
    const ns = await this.namespaces.get('', name);
    const left = deleted > 0 ? await this.remaining(name) : { total: 0, byResource: new Map(), byFinalizer: new Map() };
    await this.setConditions(name, ns, left);
    if (left.total > 0) return false;
    // Finalize: drop our spec finalizer. The finalize that leaves no finalizers (spec or metadata) removes
    // the namespace; other finalizers' owners, or a client, remove the rest.
    await this.namespaces.update(
      '',
      name,
      (cur) => {
        if (!cur) throw S.notFound(NAMESPACE_GR, name);
        const spec = namespaceSpec(cur);
        spec['finalizers'] = ((spec['finalizers'] as string[] | undefined) ?? []).filter((f) => f !== 'kubernetes');
        return cur;
      },
      'finalize',
    );
    return true;
  }

  /** What is left in the namespace after a deletion pass, counted as the namespace deleter words it. */
  private async remaining(ns: string): Promise<Remaining> {
    const out: Remaining = { total: 0, byResource: new Map(), byFinalizer: new Map() };
    for (const store of this.contentStores()) {
      const items = (await store.list({ namespace: ns })).items;
      if (items.length === 0) continue;
      out.total += items.length;
      const gr = `${store.type.gr.resource}.${store.type.gr.group}`;
      out.byResource.set(gr, (out.byResource.get(gr) ?? 0) + items.length);
      for (const obj of items) {
        for (const f of metaOf(obj).finalizers ?? []) out.byFinalizer.set(f, (out.byFinalizer.get(f) ?? 0) + 1);
      }
    }
    return out;
  }

  private async setConditions(name: string, ns: JSONObject, left: Remaining): Promise<void> {
    const now = rfc3339();
    // Sorted as Go's sort.Strings sorts: by UTF-16 code units here, which agrees for these ASCII names.
    const sorted = (xs: string[]): string[] => xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const conditions = CONDITIONS.map(([type, reason, message]) => {
      let status = 'False';
      let r = reason;
      let m = message;
      if (type === 'NamespaceContentRemaining' && left.byResource.size > 0) {
        status = 'True';
        r = 'SomeResourcesRemain';
        const parts = sorted([...left.byResource].map(([gr, n]) => `${gr} has ${n} resource instances`));
        m = `Some resources are remaining: ${parts.join(', ')}`;
      }
      if (type === 'NamespaceFinalizersRemaining' && left.byFinalizer.size > 0) {
        status = 'True';
        r = 'SomeFinalizersRemain';
        const parts = sorted([...left.byFinalizer].map(([f, n]) => `${f} in ${n} resource instances`));
        m = `Some content in the namespace has finalizers remaining: ${parts.join(', ')}`;
      }
      return { type, status, lastTransitionTime: now, reason: r, message: m };
    });
    const status = (ns['status'] as JSONObject | undefined) ?? {};
    const old = (status['conditions'] as JSONObject[] | undefined) ?? [];
    const same =
      old.length === conditions.length &&
      conditions.every((c, i) => old[i]?.['type'] === c.type && old[i]?.['status'] === c.status && old[i]?.['message'] === c.message);
    if (same) return;
    // Keep transition times of conditions whose status did not change.
    for (const c of conditions) {
      const prev = old.find((o) => o['type'] === c.type);
      if (prev && prev['status'] === c.status && typeof prev['lastTransitionTime'] === 'string') c.lastTransitionTime = prev['lastTransitionTime'];
    }
    await this.namespaces.update(
      '',
      name,
      (cur) => {
        if (!cur) throw S.notFound(NAMESPACE_GR, name);
        cur['status'] = { ...((cur['status'] as JSONObject) ?? {}), phase: 'Terminating', conditions };
        return cur;
      },
      'status',
    );
  }
}
