// apiextensions.k8s.io/v1 CustomResourceDefinitions as a resource of the generic store: defaulting,
// validation, status handling, and the deletion that first cleans up the custom resources.
import type { JSONObject } from '../util/json.js';
import { rfc3339 } from '../util/time.js';
import type { ResourceType, Strategy } from '../registry/resource-type.js';
import { metaOf } from '../registry/store.js';
import { defaultTableConvertor } from '../registry/table-convertors.js';
import { storageVersionHash } from '../api/versions.js';
import { validateObjectMetaUpdate } from '../schema/objectmeta.js';
import { defaultCRD } from './defaults.js';
import { specsSemanticallyEqual } from './internal.js';
import { validateCRD, validateCRDUpdate, validateCRDStatusUpdate } from './validation.js';
import { CRD_CLEANUP_FINALIZER, CRD_GROUP, type CustomResourceDefinition } from './types.js';
import { setCondition } from './conditions.js';
import { crdSchemaValidator } from './schema-checks.js';
import { typedOrder, orderKeys } from '../registry/typed-order.js';
import { crdToV1, crdToV1beta1 } from './v1beta1.js';

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

function crdStrategy(requestVersion: 'v1' | 'v1beta1'): Strategy {
  const options = { validateSchemaStructure: crdSchemaValidator, requestVersion };
  return {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    prepareForCreate(obj) {
      applyDefaults(obj);
      const crd = asCRD(obj);
      crd.status = { acceptedNames: { plural: '', kind: '' } };
      crd.metadata.generation = 1;
      addStoredVersion(crd);
    },
    validate: (obj) => validateCRD(asCRD(obj), options),
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
      return validateCRDUpdate(asCRD(obj), asCRD(old), options);
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
}

const strategy = crdStrategy('v1');

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

/**
 * apiextensions.k8s.io/v1beta1 CustomResourceDefinitions: the same objects (stored as v1), converted at the
 * endpoint, validated with the options kube 1.21 gave v1beta1 requests.
 */
export function crdV1beta1ResourceType(): ResourceType {
  const v1 = crdStrategy('v1beta1');
  const v1Type = crdResourceType();
  // Runs a v1 step on the v1 form of a v1beta1 object and writes the result back in place.
  const inV1 = (obj: JSONObject, step: (o: JSONObject) => void): void => {
    const converted = crdToV1(obj);
    step(converted);
    const back = crdToV1beta1(converted);
    for (const k of Object.keys(obj)) delete obj[k];
    Object.assign(obj, back);
  };
  const strategy: Strategy = {
    ...v1,
    prepareForCreate: (obj) => inV1(obj, (o) => v1.prepareForCreate(o)),
    validate: (obj) => v1.validate(crdToV1(obj)),
    prepareForUpdate: (obj, old, sub) => inV1(obj, (o) => v1.prepareForUpdate(o, crdToV1(old), sub)),
    validateUpdate: (obj, old, sub) => v1.validateUpdate(crdToV1(obj), crdToV1(old), sub),
    canonicalize(obj) {
      const out = typedOrder(obj);
      if (out['spec']) {
        out['spec'] = orderKeys(out['spec'] as JSONObject, [
          'group', 'version', 'names', 'scope', 'validation', 'subresources', 'versions', 'additionalPrinterColumns', 'conversion', 'preserveUnknownFields',
        ]);
      }
      if (out['status']) out['status'] = orderKeys(out['status'] as JSONObject, ['conditions', 'acceptedNames', 'storedVersions']);
      return out;
    },
    beforeDelete(obj, opts) {
      const r = v1.beforeDelete!(crdToV1(obj), opts);
      return r && r !== 'keep' ? { update: crdToV1beta1(r.update) } : r;
    },
  };
  return {
    ...v1Type,
    served: { ...v1Type.served, version: 'v1beta1' },
    strategy,
    // Stored as v1: every read converts.
    storedBytesPrefix: undefined,
    fromStorage: (obj) => crdToV1beta1(obj),
    toStorage: (obj) => crdToV1(obj),
  };
}

/** The warning kube 1.19-1.21 sent with every v1beta1 CRD request. */
export const V1BETA1_CRD_WARNING =
  'apiextensions.k8s.io/v1beta1 CustomResourceDefinition is deprecated in v1.16+, unavailable in v1.22+; use apiextensions.k8s.io/v1 CustomResourceDefinition';

