// core/v1 Namespace: its Go type, the namespace REST's strategy (defaults, validation, the first delete
// that marks it terminating), its printer and field selectors.
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import type { FieldError } from '../../../api/field-error.js';
import { invalid as invalidField } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { rfc3339 } from '../../../util/time.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import type { Subresource } from '../../../registry/resource-type.js';
import { metaOf } from '../../../registry/store.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS, type DeleteOptions } from '../../../registry/deletion.js';
import { namespaceSpec as specOf } from '../../../registry/namespaces.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION, metadataField } from '../../meta/v1/object-meta.js';
import type { KindDeclaration } from '../../kind.js';

const NAME_LABEL = 'kubernetes.io/metadata.name';

const CORE_V1 = 'io.k8s.api.core.v1';
const SPEC_AND_STATUS = 'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status';
const NAMESPACES_TASK = 'More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/';

const NamespaceSpec = struct(
  'NamespaceSpec',
  [f(1, 'finalizers', 'string', 'slice omit', { named: 'FinalizerName', doc: `Finalizers is an opaque list of values that must be empty to permanently remove object from storage. ${NAMESPACES_TASK}` })],
  { openapi: CORE_V1, doc: 'NamespaceSpec describes the attributes on a Namespace.' },
);

const NamespaceCondition = struct(
  'NamespaceCondition',
  [
    f(1, 'type', 'string', '', { named: 'NamespaceConditionType', doc: 'Type of namespace controller condition.' }),
    f(2, 'status', 'string', '', { named: 'ConditionStatus', doc: 'Status of the condition, one of True, False, Unknown.' }),
    f(4, 'lastTransitionTime', 'time', 'omit', { doc: 'Last time the condition transitioned from one status to another.' }),
    f(5, 'reason', 'string', 'omit', { doc: "Unique, one-word, CamelCase reason for the condition's last transition." }),
    f(6, 'message', 'string', 'omit', { doc: 'Human-readable message indicating details about last transition.' }),
  ],
  { openapi: CORE_V1, doc: 'NamespaceCondition contains details about state of namespace.' },
);

const NamespaceStatus = struct(
  'NamespaceStatus',
  [
    f(1, 'phase', 'string', 'omit', {
      named: 'NamespacePhase',
      doc: `Phase is the current lifecycle phase of the namespace. ${NAMESPACES_TASK}\n\nPossible enum values:\n - \`"Active"\` means the namespace is available for use in the system\n - \`"Terminating"\` means the namespace is undergoing graceful termination`,
    }),
    f(2, 'conditions', NamespaceCondition, 'slice omit', {
      patchStrategy: 'merge',
      patchMergeKey: 'type',
      doc: "Represents the latest available observations of a namespace's current state.",
    }),
  ],
  { openapi: CORE_V1, doc: 'NamespaceStatus is information about the current status of a Namespace.' },
);

export const Namespace = kindStruct(
  'Namespace',
  [
    metadataField("Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"),
    f(2, 'spec', NamespaceSpec, 'omit', { doc: `Spec defines the behavior of the Namespace. ${SPEC_AND_STATUS}` }),
    f(3, 'status', NamespaceStatus, 'omit', { doc: `Status describes the current status of a Namespace. ${SPEC_AND_STATUS}` }),
  ],
  { openapi: CORE_V1, doc: 'Namespace provides a scope for Names. Use of multiple namespaces is optional.' },
);

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

const strategy: KindDeclaration['strategy'] = {
  // GetResetFields of the namespace, status and finalize strategies.
  resetFields: (sub) => (sub === 'status' ? ['spec'] : ['status']),
  // The decoder defaults every body it reads (SetDefaults_Namespace), before the field manager sees it.
  admitBody(obj, fieldValidation, warnings, decodeErrors = []) {
    reportStrictDecoding(decodeErrors, fieldValidation, warnings, 'Namespace', 'v1');
    setDefaults(obj);
  },
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
    // namespaceStatusStrategy resets spec only, namespaceFinalizeStrategy status only: metadata written through
    // either is kept, managedFields included (which the field manager has just computed for this write).
    if (sub === 'status') {
      obj['spec'] = old['spec'];
    } else if (sub === ('finalize')) {
      const spec = specOf(obj);
      obj['status'] = old['status'];
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

export const namespaceKind: KindDeclaration = {
  served: {
    group: '',
    version: 'v1',
    resource: 'namespaces',
    singularName: 'namespace',
    kind: 'Namespace',
    listKind: 'NamespaceList',
    namespaced: false,
    // No deletecollection: kube serves none for namespaces.
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['ns'],
    categories: [],
    subresources: { status: true },
  },
  storageVersion: 'v1',
  keyPrefix: '/registry/namespaces/',
  object: Namespace,
  protobuf: true,
  strategy,
  // The Namespace printer of kube-apiserver: NAME, STATUS, AGE.
  table: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' },
    { name: 'Status', type: 'string', format: '', description: 'The status of the namespace', priority: 0, field: ['status', 'phase'], render: 'string' },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' },
  ],
  selectableFields: (obj) => ({
    'metadata.name': String(metaOf(obj).name ?? ''),
    'status.phase': String((obj['status'] as JSONObject | undefined)?.['phase'] ?? ''),
  }),
  subresources: ['status', 'finalize'],
};
