// apiextensions.k8s.io/v1 CustomResourceDefinitions as a resource of the generic store: defaulting,
// validation, status handling, and the deletion that first cleans up the custom resources.
import type { JSONObject } from '../util/json.js';
import { rfc3339 } from '../util/time.js';
import type { ResourceType, Strategy } from '../registry/resource-type.js';
import { metaOf } from '../registry/store.js';
import { defaultTableConvertor } from '../server/table.js';
import { storageVersionHash } from '../server/discovery.js';
import { validateObjectMetaUpdate } from '../schema/objectmeta.js';
import { defaultCRD } from './defaults.js';
import { specsSemanticallyEqual } from './internal.js';
import { validateCRD, validateCRDUpdate, validateCRDStatusUpdate } from './validation.js';
import { CRD_CLEANUP_FINALIZER, CRD_GROUP, type CustomResourceDefinition } from './types.js';
import { setCondition } from './conditions.js';
import { crdSchemaValidator } from './schema-checks.js';
import { typedOrder, orderKeys } from '../registry/typed-order.js';

const asCRD = (obj: JSONObject): CustomResourceDefinition => obj as unknown as CustomResourceDefinition;

/** Apply v1 defaults in place (the store hands us a private copy). */
function applyDefaults(obj: JSONObject): void {
  const d = defaultCRD(asCRD(obj)) as unknown as JSONObject;
  obj['spec'] = d['spec'];
}

function addStoredVersion(crd: CustomResourceDefinition): void {
  const storage = crd.spec.versions?.find((v) => v.storage);
  if (!storage) return;
  crd.status ??= {};
  const stored = crd.status.storedVersions ?? [];
  if (!stored.includes(storage.name)) crd.status.storedVersions = [...stored, storage.name];
}

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  prepareForCreate(obj) {
    applyDefaults(obj);
    const crd = asCRD(obj);
    crd.status = { acceptedNames: { plural: '', kind: '' } };
    crd.metadata.generation = 1;
    addStoredVersion(crd);
  },
  validate: (obj) => validateCRD(asCRD(obj), { validateSchemaStructure: crdSchemaValidator }),
  prepareForUpdate(obj, old, sub) {
    const crd = asCRD(obj);
    const prev = asCRD(old);
    if (sub === 'status') {
      // Status writes change status only (kube resets metadata from the object itself, i.e. keeps it).
      crd.spec = prev.spec;
      return;
    }
    applyDefaults(obj);
    crd.status = prev.status;
    crd.metadata.generation = prev.metadata.generation ?? 1;
    if (!specsSemanticallyEqual(crd.spec, prev.spec)) crd.metadata.generation += 1;
    addStoredVersion(crd);
  },
  validateUpdate(obj, old, sub) {
    if (sub === 'status') {
      return [...validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata'), ...validateCRDStatusUpdate(asCRD(obj), asCRD(old))];
    }
    return validateCRDUpdate(asCRD(obj), asCRD(old), { validateSchemaStructure: crdSchemaValidator });
  },
  canonicalize(obj) {
    const out = typedOrder(obj);
    if (out['spec']) out['spec'] = orderKeys(out['spec'] as JSONObject, ['group', 'names', 'scope', 'versions', 'conversion', 'preserveUnknownFields']);
    if (out['status']) out['status'] = orderKeys(out['status'] as JSONObject, ['conditions', 'acceptedNames', 'storedVersions']);
    return out;
  },
  // The CRD REST words its precondition failures as storage does, against customresourcedefinitions.
  storagePreconditionMessages: true,
  beforeDelete(obj) {
    const crd = asCRD(obj);
    // Once terminating, deletes go to the generic store (which waits for the finalizers).
    if (crd.metadata.deletionTimestamp) return undefined;
    // First delete: mark terminating (a timestamp, no grace period) and add the cleanup finalizer; the
    // finalizer controller removes the instances, then the finalizer.
    crd.metadata.deletionTimestamp = rfc3339();
    if (!crd.metadata.finalizers?.includes(CRD_CLEANUP_FINALIZER)) {
      crd.metadata.finalizers = [...(crd.metadata.finalizers ?? []), CRD_CLEANUP_FINALIZER];
    }
    setCondition(crd, {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
    return { update: obj };
  },
};

export function crdResourceType(): ResourceType {
  return {
    served: {
      group: CRD_GROUP,
      version: 'v1',
      resource: 'customresourcedefinitions',
      singularName: 'customresourcedefinition',
      kind: 'CustomResourceDefinition',
      listKind: 'CustomResourceDefinitionList',
      namespaced: false,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      subresources: { status: true },
      // kube-apiserver still stores CRDs at v1beta1, and discovery publishes that hash.
      storageVersionHash: storageVersionHash(CRD_GROUP, 'v1beta1', 'CustomResourceDefinition'),
    },
    gr: { group: CRD_GROUP, resource: 'customresourcedefinitions' },
    keyPrefix: `/registry/${CRD_GROUP}/customresourcedefinitions/`,
    strategy,
    table: defaultTableConvertor,
    selectableFields: (obj) => ({ 'metadata.name': String(metaOf(obj).name ?? '') }),
    storedBytesPrefix: '{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1",',
    fromStorage: (obj) => obj,
    toStorage: (obj) => obj,
  };
}
