// Core v1 Namespaces: the resource, and the controller that empties a terminating namespace and then
// removes it. The admission that guards their content is src/admission/namespace-lifecycle.ts.
import type { FieldError } from '../api/field-error.js';
import { invalid as invalidField } from '../api/field-error.js';
import * as S from '../api/status.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { rfc3339 } from '../util/time.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../schema/objectmeta.js';
import { namespaceTableConvertor } from '../server/table.js';
import type { ResourceType, Strategy, Subresource } from './resource-type.js';
import { GenericStore, metaOf } from './store.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS, type DeleteOptions } from './deletion.js';
import { typedOrder } from './typed-order.js';
import { storageVersionHash } from '../server/discovery.js';

export const NAMESPACE_GR: S.GroupResource = { group: '', resource: 'namespaces' };
/** Namespaces that exist from the start and may not be deleted. */
export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];
export const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const NAME_LABEL = 'kubernetes.io/metadata.name';

const specOf = (obj: JSONObject): JSONObject => {
  if (!isObject(obj['spec'])) obj['spec'] = {};
  return obj['spec'] as JSONObject;
};

function setDefaults(obj: JSONObject): void {
  const meta = metaOf(obj);
  // SetDefaults_Namespace: the immutable name label.
  if (meta.name) meta.labels = { ...(meta.labels ?? {}), [NAME_LABEL]: meta.name };
}

function validateNamespace(obj: JSONObject): FieldError[] {
  return [...validateObjectMeta(metaOf(obj), { namespaced: false, nameValidator: 'dns1123Label', coreFinalizerNames: true }, 'metadata'), ...validateNamespaceSpec(obj)];
}

function validateNamespaceSpec(obj: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const fins = specOf(obj)['finalizers'];
  if (Array.isArray(fins)) {
    fins.forEach((f, i) => {
      if (typeof f !== 'string' || f === '') errs.push(invalidField(`spec.finalizers[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    });
  }
  return errs;
}

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  returnDeletedObject: true,
  storagePreconditionMessages: true,
  prepareForCreate(obj) {
    obj['status'] = { phase: 'Active' };
    const spec = specOf(obj);
    const fins = Array.isArray(spec['finalizers']) ? (spec['finalizers'] as string[]) : [];
    if (!fins.includes('kubernetes')) spec['finalizers'] = [...fins, 'kubernetes'];
    setDefaults(obj);
  },
  validate: validateNamespace,
  prepareForUpdate(obj, old, sub: Subresource | 'finalize') {
    setDefaults(obj);
    if (sub === 'status') {
      obj['spec'] = old['spec'];
      obj['metadata'] = { ...metaOf(old), resourceVersion: metaOf(obj).resourceVersion };
    } else if (sub === ('finalize')) {
      const spec = specOf(obj);
      obj['status'] = old['status'];
      obj['metadata'] = { ...metaOf(old), resourceVersion: metaOf(obj).resourceVersion };
      obj['spec'] = { ...(old['spec'] as JSONObject), finalizers: spec['finalizers'] };
    } else {
      obj['status'] = old['status'];
      obj['spec'] = { ...specOf(obj), finalizers: specOf(old)['finalizers'] };
      if (specOf(obj)['finalizers'] === undefined) delete specOf(obj)['finalizers'];
    }
    // Typed serialization omits empty finalizer lists (omitempty): a finalized namespace has `spec: {}`.
    const fins = specOf(obj)['finalizers'];
    if (Array.isArray(fins) && fins.length === 0) delete specOf(obj)['finalizers'];
    const meta = metaOf(obj);
    if (Array.isArray(meta.finalizers) && meta.finalizers.length === 0) delete meta.finalizers;
  },
  validateUpdate(obj, old) {
    const errs = validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata', { coreFinalizerNames: true });
    errs.push(...validateNamespaceSpec(obj));
    const phase = (obj['status'] as JSONObject | undefined)?.['phase'];
    if (metaOf(old).deletionTimestamp && phase !== 'Terminating') {
      errs.push(invalidField('status.phase', phase ?? '', 'may only be \'Terminating\' if `deletionTimestamp` is not empty'));
    }
    return errs;
  },
  canonicalize: (obj) => typedOrder(obj),
  deletableOnUpdate: (obj) => !((specOf(obj)['finalizers'] as string[] | undefined)?.length),
  beforeDelete(obj, opts) {
    const meta = metaOf(obj);
    if (!meta.deletionTimestamp) {
      // The namespace REST's first delete: the timestamp (no grace period), the phase, and the garbage
      // collector's finalizers by its own rules; then the namespace controller empties it.
      meta.deletionTimestamp = rfc3339();
      const status = (obj['status'] as JSONObject | undefined) ?? {};
      if (status['phase'] !== 'Terminating') obj['status'] = { ...status, phase: 'Terminating' };
      const fins = namespaceGcFinalizers(meta.finalizers ?? [], opts);
      if (fins) meta.finalizers = fins;
      return { update: obj };
    }
    // Terminating while the namespace finalizers (spec) remain: answered with the namespace as it is.
    if (((specOf(obj)['finalizers'] as string[] | undefined) ?? []).length > 0) return 'keep';
    return undefined;
  },
};

/**
 * shouldHaveOrphanFinalizer / shouldHaveDeleteDependentsFinalizer of the namespace REST: unlike the generic
 * store, orphanDependents=false asks for foreground deletion. The finalizers after the first delete, or
 * undefined when they stay as they are. (Kube rebuilds the list from a map, in no set order; this keeps the
 * existing order and appends.)
 */
export function namespaceGcFinalizers(finalizers: readonly string[], opts: DeleteOptions): string[] | undefined {
  const has = (f: string): boolean => finalizers.includes(f);
  const orphan = opts.orphanDependents ?? (opts.propagationPolicy !== undefined ? opts.propagationPolicy === 'Orphan' : has(FINALIZER_ORPHAN_DEPENDENTS));
  const foreground =
    opts.orphanDependents !== undefined
      ? !opts.orphanDependents
      : opts.propagationPolicy !== undefined
        ? opts.propagationPolicy === 'Foreground'
        : has(FINALIZER_DELETE_DEPENDENTS);
  if (orphan === has(FINALIZER_ORPHAN_DEPENDENTS) && foreground === has(FINALIZER_DELETE_DEPENDENTS)) return undefined;
  const next = finalizers.filter((f) => f !== FINALIZER_ORPHAN_DEPENDENTS && f !== FINALIZER_DELETE_DEPENDENTS);
  if (orphan) next.push(FINALIZER_ORPHAN_DEPENDENTS);
  if (foreground) next.push(FINALIZER_DELETE_DEPENDENTS);
  return next;
}

export function namespaceType(): ResourceType {
  return {
    served: {
      group: '',
      version: 'v1',
      resource: 'namespaces',
      singularName: 'namespace',
      kind: 'Namespace',
      listKind: 'NamespaceList',
      namespaced: false,
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ns'],
      categories: [],
      subresources: { status: true },
      storageVersionHash: storageVersionHash('', 'v1', 'Namespace'),
    },
    gr: NAMESPACE_GR,
    keyPrefix: '/registry/namespaces/',
    strategy,
    table: namespaceTableConvertor,
    selectableFields: (obj) => ({
      'metadata.name': String(metaOf(obj).name ?? ''),
      'status.phase': String((obj['status'] as JSONObject | undefined)?.['phase'] ?? ''),
    }),
    storedBytesPrefix: '{"kind":"Namespace","apiVersion":"v1",',
    fromStorage: (obj) => obj,
    toStorage: (obj) => obj,
  };
}

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
    if (((specOf(before)['finalizers'] as string[] | undefined) ?? []).length === 0) return true;
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
        const spec = specOf(cur);
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
