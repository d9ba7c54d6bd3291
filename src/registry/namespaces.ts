// Core v1 Namespaces: the resource, and the controller that empties a terminating namespace and then
// removes it. The admission that guards their content is src/admission/namespace-lifecycle.ts.
import type { FieldError } from '../api/field-error.js';
import { invalid as invalidField } from '../api/field-error.js';
import * as S from '../api/status.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { rfc3339 } from '../util/time.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../schema/objectmeta.js';
import { namespaceTableConvertor } from './table-convertors.js';
import type { ResourceType, Strategy, Subresource } from './resource-type.js';
import { GenericStore, metaOf } from './store.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS, type DeleteOptions } from './deletion.js';
import { typedOrder } from './typed-order.js';
import { storageVersionHash } from '../api/versions.js';

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
