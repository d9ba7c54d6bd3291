// The namespace controller (kube's pkg/controller/namespace): for each terminating namespace, delete its
// content in every namespaced resource, wait until it is gone (objects with finalizers linger), then
// finalize the namespace, which removes it once no other finalizer holds it.
import * as S from '../api/status.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { rfc3339 } from '../util/time.js';
import { NAMESPACE_GR } from '../registry/namespaces.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import { realClock, type Clock } from './clock.js';
import { Controller, RequeueAfter, type ControllerOptions } from './controller.js';
import { Informer } from './informer.js';
import { KUBE_CONTROLLER_MANAGER } from './namespace-defaults.js';

/** How soon a namespace whose content remains is looked at again. */
export const CONTENT_REMAINING_RETRY_MS = 500;

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

const specFinalizers = (ns: JSONObject): string[] => {
  const spec = ns['spec'];
  const fins = isObject(spec) ? spec['finalizers'] : undefined;
  return Array.isArray(fins) ? (fins as string[]) : [];
};

type NamespaceControllerOptions = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'>;

export class NamespaceController {
  readonly controller: Controller;
  private readonly informer: Informer;
  private readonly clock: Clock;

  constructor(
    private readonly namespaces: GenericStore,
    /** The stores of every namespaced resource, as they are now. */
    private readonly contentStores: () => GenericStore[],
    opts: NamespaceControllerOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.controller = new Controller({ ...opts, name: 'namespace controller', sync: (key) => this.sync(key) });
    this.informer = new Informer(namespaces, { name: 'namespaces', clock: this.clock });
    const consider = (ns: JSONObject): void => {
      if (metaOf(ns).deletionTimestamp) this.controller.enqueue(metaOf(ns).name ?? '');
    };
    this.informer.addEventHandler({ add: consider, update: (_old, ns) => consider(ns) });
  }

  async start(): Promise<void> {
    await this.controller.runAfter([this.informer]);
  }

  stop(): void {
    this.controller.stopWith([this.informer]);
  }

  /**
   * One pass over a terminating namespace. Read from the store, not the cache, as kube's namespace
   * deleter reads it: the pass acts on what is there now. Content left over brings it back shortly.
   */
  async sync(name: string): Promise<void> {
    let before: JSONObject;
    try {
      before = await this.namespaces.get('', name);
    } catch (e) {
      if (e instanceof S.StatusError && e.code === 404) return;
      throw e;
    }
    // Not terminating, or finalized already (no spec finalizers): only metadata finalizers keep it, and they are not ours.
    if (!metaOf(before).deletionTimestamp || specFinalizers(before).length === 0) return;
    let deleted = 0;
    for (const store of this.contentStores()) {
      // As the namespace deleter: a deletecollection per resource, background propagation so that no orphan
      // finalizer holds the content.
      deleted += (await store.deleteCollection(name, {}, { propagationPolicy: 'Background' })).items.length;
    }
    const ns = await this.namespaces.get('', name);
    const left = deleted > 0 ? await this.remaining(name) : { total: 0, byResource: new Map(), byFinalizer: new Map() };
    await this.setConditions(name, ns, left);
    if (left.total > 0) throw new RequeueAfter(CONTENT_REMAINING_RETRY_MS, `content remains in namespace ${name}`);
    // Finalize: drop our spec finalizer. The finalize that leaves no finalizers (spec or metadata) removes
    // the namespace; other finalizers' owners, or a client, remove the rest.
    await this.namespaces.update(
      '',
      name,
      (cur) => {
        if (!cur) throw S.notFound(NAMESPACE_GR, name);
        const spec = isObject(cur['spec']) ? cur['spec'] : (cur['spec'] = {});
        spec['finalizers'] = specFinalizers(cur).filter((f) => f !== 'kubernetes');
        return cur;
      },
      'finalize',
      { manager: KUBE_CONTROLLER_MANAGER },
    );
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
    const now = rfc3339(new Date(this.clock.now()));
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
      { manager: KUBE_CONTROLLER_MANAGER },
    );
  }
}
