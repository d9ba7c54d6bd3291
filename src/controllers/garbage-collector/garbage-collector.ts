// The garbage collector (kube-controller-manager's pkg/controller/garbagecollector): informers over every
// resource keep a dependency graph by uid; a dependent whose owners are all gone is deleted (with the policy its
// owners' deletion asks for), references to gone owners are dropped while others remain, an owner deleted with
// the orphan finalizer has its dependents' references removed before it goes, and one deleted in the foreground
// waits until its blocking dependents are gone. Everything is decided from storage as it is now, so a restart
// in the middle of a cascade picks it up where it was.
import { setImmediate as nextTurn } from 'node:timers/promises';
import * as S from '../../api/status.js';
import type { JSONObject } from '../../util/json.js';
import { metaOf, type GenericStore } from '../../registry/store.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../registry/deletion.js';
import { Controller, RequeueAfter, type ControllerOptions } from '../controller.js';
import { Informer } from '../informer.js';
import { DependencyGraph } from './dependency-graph.js';
import { metadataSource } from './metadata-source.js';
import { decide, groupOf, ownerRefsOf, ownerState, type OwnerState } from './owner-refs.js';

/** kube-controller-manager's writes are recorded for it. */
const MANAGER = 'kube-controller-manager';
/** How often the set of resources is looked at again (CRDs come and go). */
const RESOURCE_RESYNC_MS = 1000;
/** How soon an owner waiting for its dependents is looked at again if no event brings it back. */
const FOREGROUND_RECHECK_MS = 2000;
/** How soon a dependent whose owner's kind is not served is looked at again. */
const UNRESOLVED_RECHECK_MS = 10_000;
const SEP = '\u0000';

const isNotFound = (e: unknown): boolean => e instanceof S.StatusError && e.code === 404;
const isConflict = (e: unknown): boolean => e instanceof S.StatusError && e.code === 409;

interface Watched {
  store: GenericStore;
  informer: Informer;
}

type GarbageCollectorOptions = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'>;

export class GarbageCollector {
  readonly controller: Controller;
  readonly graph = new DependencyGraph();
  private readonly watched = new Map<string, Watched>();
  private timer?: ReturnType<typeof setInterval>;
  private stopped = false;

  constructor(
    /** One store per kind (at its storage version), built-in and custom, as they are now. */
    private readonly resources: () => GenericStore[],
    private readonly opts: GarbageCollectorOptions = {},
  ) {
    this.controller = new Controller({ ...opts, name: 'garbage collector', workers: 2, sync: (key) => this.sync(key) });
  }

  async start(): Promise<void> {
    await this.refresh();
    if (this.stopped) return;
    this.controller.run();
    this.timer = setInterval(() => void this.refresh().catch((e: unknown) => console.error('garbage collector:', e)), RESOURCE_RESYNC_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const w of this.watched.values()) w.informer.stop();
    this.watched.clear();
    void this.controller.stop();
  }

  /** Starts informers for resources that appeared (or were rebuilt) and stops those of resources gone. */
  async refresh(): Promise<void> {
    if (this.stopped) return;
    const current = new Map(this.resources().map((s) => [s.type.keyPrefix, s]));
    for (const [prefix, w] of this.watched) {
      if (current.get(prefix) === w.store) continue;
      w.informer.stop();
      this.watched.delete(prefix);
    }
    // One resource's informer after another, with a turn of the event loop between them: lists answered from the
    // watch cache's memory resolve at once, and a start's (a score of resources, every object of each) would otherwise
    // be one run of work that the first requests after the listeners open wait behind.
    for (const [prefix, store] of current) {
      if (this.stopped) return;
      if (this.watched.has(prefix)) continue;
      const informer = new Informer(metadataSource(store, GC_METADATA), {
        name: `gc ${prefix}`,
        transform: gcView,
        compact: gcCompact,
        // An owner without owners or finalizers of its own is not kept: one deleted while the watch was down is
        // found by checking every dependent again, as their owners are checked (live) before anything is deleted.
        onRelisted: () => {
          for (const key of this.graph.dependentKeys()) this.controller.enqueue(key);
        },
        ...(this.opts.clock ? { clock: this.opts.clock } : {}),
      });
      informer.addEventHandler({
        add: (obj) => this.observed(prefix, obj),
        update: (_old, obj) => this.observed(prefix, obj),
        delete: (obj) => this.gone(prefix, obj),
      });
      this.watched.set(prefix, { store, informer });
      await informer.start();
      await nextTurn();
    }
    // Stopped while the lists ran: what started meanwhile stops too.
    if (this.stopped) for (const w of this.watched.values()) w.informer.stop();
  }

  /** Resolves once every informer is synced and no work is queued. */
  async idle(): Promise<void> {
    await Promise.all([...this.watched.values()].map((w) => w.informer.waitForStore()));
    await this.controller.idle();
  }

  private itemKey(prefix: string, obj: JSONObject): string {
    const m = metaOf(obj);
    return `${prefix}${SEP}${m.namespace ?? ''}${SEP}${m.name ?? ''}`;
  }

  private observed(prefix: string, obj: JSONObject): void {
    const key = this.itemKey(prefix, obj);
    this.graph.observe(key, obj);
    const m = metaOf(obj);
    const finalizers = m.finalizers ?? [];
    const pending = m.deletionTimestamp && (finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS) || finalizers.includes(FINALIZER_DELETE_DEPENDENTS));
    if (pending || ownerRefsOf(obj).length > 0) this.controller.enqueue(key);
  }

  private gone(prefix: string, obj: JSONObject): void {
    const key = this.itemKey(prefix, obj);
    this.graph.observe(key, undefined);
    // Its dependents may now be dangling; owners waiting for it (foreground) may now go.
    const uid = metaOf(obj).uid;
    if (uid) for (const d of this.graph.dependents(uid)) this.controller.enqueue(d);
    const namespace = metaOf(obj).namespace ?? '';
    for (const ref of ownerRefsOf(obj)) {
      const store = this.resolve(ref.apiVersion, ref.kind);
      if (!store) continue;
      const ns = store.type.served.namespaced ? namespace : '';
      this.controller.enqueue(`${store.type.keyPrefix}${SEP}${ns}${SEP}${ref.name}`);
    }
  }

  private parse(key: string): { store: GenericStore; namespace: string; name: string } | undefined {
    const [prefix, namespace, name] = key.split(SEP) as [string, string, string];
    const w = this.watched.get(prefix);
    return w && { store: w.store, namespace, name };
  }

  /** The store serving an owner reference's group and kind (any version: they share the objects). */
  private resolve(apiVersion: string, kind: string): GenericStore | undefined {
    const group = groupOf(apiVersion);
    for (const w of this.watched.values()) if (w.store.type.served.group === group && w.store.type.served.kind === kind) return w.store;
    return undefined;
  }

  private async sync(key: string): Promise<void> {
    const at = this.parse(key);
    if (!at) return;
    let obj: JSONObject;
    try {
      obj = await at.store.get(at.namespace, at.name);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    const m = metaOf(obj);
    if (m.deletionTimestamp) {
      const finalizers = m.finalizers ?? [];
      if (finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS)) return this.orphanDependents(at, obj);
      if (finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) return this.deleteDependentsFirst(at, obj);
      return;
    }
    await this.attemptToDelete(at, obj);
  }

  /** attemptToDeleteItem: a dependent whose owners are all gone or going goes too. */
  private async attemptToDelete(at: { store: GenericStore; namespace: string; name: string }, item: JSONObject): Promise<void> {
    const refs = ownerRefsOf(item);
    if (refs.length === 0) return;
    const states: OwnerState[] = [];
    for (const ref of refs) {
      const ownerStore = this.resolve(ref.apiVersion, ref.kind);
      // Not (yet) served (a CRD still to come, or a kind this server does not serve): looked at again later, as
      // kube retries a failed REST mapping, without logging an error each time.
      if (!ownerStore) throw new RequeueAfter(UNRESOLVED_RECHECK_MS, `no resource serves ${ref.apiVersion}, Kind=${ref.kind}`);
      const namespaced = ownerStore.type.served.namespaced;
      // A cluster-scoped object cannot have a namespaced owner: the reference never resolves, nothing is done.
      if (namespaced && !at.namespace) return;
      let owner: JSONObject | undefined;
      try {
        // A namespaced owner is looked for in the dependent's namespace: one elsewhere is not its owner.
        owner = await ownerStore.get(namespaced ? at.namespace : '', ref.name);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      states.push(ownerState(ref, owner));
    }
    const uid = metaOf(item).uid ?? '';
    const decision = decide(refs, states, item, this.graph.dependents(uid).length > 0);
    if (decision.action === 'keep') return;
    if (decision.action === 'removeRefs') {
      const gone = new Set(decision.uids);
      await this.updateIgnoringGone(at, (cur) => {
        const meta = metaOf(cur);
        meta.ownerReferences = (meta.ownerReferences ?? []).filter((r) => !gone.has(r.uid));
        if (meta.ownerReferences.length === 0) delete meta.ownerReferences;
        return cur;
      });
      return;
    }
    try {
      await at.store.delete(at.namespace, at.name, { propagationPolicy: decision.propagationPolicy, preconditions: { uid } });
    } catch (e) {
      // Gone already, or another object under the name now: nothing of ours to delete.
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  }

  /** The orphan finalizer: every dependent's references to the owner go, then the finalizer. */
  private async orphanDependents(at: { store: GenericStore; namespace: string; name: string }, owner: JSONObject): Promise<void> {
    const uid = metaOf(owner).uid ?? '';
    for (const dep of this.graph.dependents(uid)) {
      const d = this.parse(dep);
      if (!d) continue;
      await this.updateIgnoringGone(d, (cur) => {
        const meta = metaOf(cur);
        meta.ownerReferences = (meta.ownerReferences ?? []).filter((r) => r.uid !== uid);
        if (meta.ownerReferences.length === 0) delete meta.ownerReferences;
        return cur;
      });
    }
    await this.removeFinalizer(at, uid, FINALIZER_ORPHAN_DEPENDENTS);
  }

  /**
   * The foregroundDeletion finalizer: the owner stays until no dependent blocks it (blockOwnerDeletion); the
   * dependents are deleted meanwhile (they see their owner waiting for them).
   */
  private async deleteDependentsFirst(at: { store: GenericStore; namespace: string; name: string }, owner: JSONObject): Promise<void> {
    const uid = metaOf(owner).uid ?? '';
    const blocking: string[] = [];
    for (const dep of this.graph.dependents(uid)) {
      const d = this.parse(dep);
      if (!d) continue;
      let obj: JSONObject;
      try {
        obj = await d.store.get(d.namespace, d.name);
      } catch (e) {
        if (isNotFound(e)) continue;
        throw e;
      }
      const ref = ownerRefsOf(obj).find((r) => r.uid === uid);
      if (!ref) continue;
      this.controller.enqueue(dep);
      if (ref.blockOwnerDeletion) blocking.push(dep);
    }
    if (blocking.length > 0) throw new RequeueAfter(FOREGROUND_RECHECK_MS, `waiting for ${blocking.length} dependents`);
    await this.removeFinalizer(at, uid, FINALIZER_DELETE_DEPENDENTS);
  }

  private async removeFinalizer(at: { store: GenericStore; namespace: string; name: string }, uid: string, finalizer: string): Promise<void> {
    await this.updateIgnoringGone(at, (cur) => {
      const meta = metaOf(cur);
      if (meta.uid !== uid) throw new S.StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'uid changed', reason: 'NotFound', code: 404 });
      const left = (meta.finalizers ?? []).filter((f) => f !== finalizer);
      if (left.length > 0) meta.finalizers = left;
      else delete meta.finalizers;
      return cur;
    });
  }

  /** An update of the current object; one that is gone meanwhile needs nothing. */
  private async updateIgnoringGone(at: { store: GenericStore; namespace: string; name: string }, mutate: (cur: JSONObject) => JSONObject): Promise<void> {
    try {
      await at.store.update(
        at.namespace,
        at.name,
        (cur) => {
          if (!cur) throw S.notFound(at.store.type.gr, at.name);
          return mutate(cur);
        },
        '',
        { manager: MANAGER },
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}

/**
 * The metadata the collector's handlers read (kube's collector uses metadata-only informers): its informers over every
 * resource keep no more, and their lists read no more of the stored objects.
 */
export const GC_METADATA = ['name', 'namespace', 'uid', 'resourceVersion', 'ownerReferences', 'finalizers', 'deletionTimestamp'] as const;
export function gcView(obj: JSONObject): JSONObject {
  const meta = metaOf(obj) as JSONObject;
  const kept: JSONObject = {};
  for (const k of GC_METADATA) if (meta[k] !== undefined) kept[k] = meta[k]!;
  const out: JSONObject = { metadata: kept };
  if (obj['apiVersion'] !== undefined) out['apiVersion'] = obj['apiVersion'];
  if (obj['kind'] !== undefined) out['kind'] = obj['kind'];
  return out;
}

/**
 * What the collector's informers hold of an object (they cover every object of every resource): nothing, when its
 * handlers could need no more of it again, having no owners, finalizers or deletion (its DELETED event carries
 * the uid that finds its dependents). Packed as its uid, which its handlers get with its name and namespace.
 * At a million objects the live heap was 348 MiB smaller than with their metadata views kept.
 */
export const gcCompact = {
  keepStrings: false,
  pack(obj: JSONObject): JSONObject | string {
    const m = metaOf(obj);
    const plain = m.ownerReferences === undefined && m.finalizers === undefined && m.deletionTimestamp === undefined;
    return plain && typeof m.uid === 'string' ? m.uid : obj;
  },
  /** An informer key (namespace/name, or name) and uid as the object's metadata. */
  expand(key: string, uid: string): JSONObject {
    const slash = key.indexOf('/');
    return { metadata: slash < 0 ? { name: key, uid } : { name: key.slice(slash + 1), namespace: key.slice(0, slash), uid } };
  },
};
