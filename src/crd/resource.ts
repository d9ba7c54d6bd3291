// The strategy of CustomResourceDefinitions in the generic store (declared in src/apis/apiextensions):
// defaulting, validation, status handling, and the deletion that first cleans up the custom resources.
import { isObject, type JSONObject } from '../util/json.js';
import { rfc3339 } from '../util/time.js';
import type { Strategy } from '../registry/resource-type.js';
import { metaOf } from '../registry/store.js';
import { validateObjectMetaUpdate } from '../schema/objectmeta.js';
import { defaultCRDSpec } from './defaults.js';
import { specsSemanticallyEqual } from './internal.js';
import { validateCRD, validateCRDUpdate, validateCRDStatusUpdate } from './validation.js';
import { asCRD, CRD_CLEANUP_FINALIZER, type CustomResourceDefinition } from './types.js';
import { setCondition } from './conditions.js';
import { crdSchemaValidator } from './schema-checks.js';
import { noteStructuralAtCreate } from './non-structural-cache.js';
import { crdToV1, crdToV1beta1 } from './v1beta1.js';

/** A strategy without the key order, which the kind declarations derive from their Go structs. */
type CrdStrategy = Omit<Strategy, 'canonicalize'>;

/** Apply v1's spec defaults in place (the store hands us a private copy: no copy of a CRD of hundreds of KB here). */
function applyDefaults(obj: JSONObject): void {
  const crd = asCRD(obj);
  if (crd.spec) defaultCRDSpec(crd.spec);
}

function addStoredVersion(crd: CustomResourceDefinition): void {
  const storage = crd.spec.versions?.find((v) => v.storage);
  if (!storage) return;
  crd.status ??= {};
  const stored = crd.status.storedVersions ?? [];
  if (!stored.includes(storage.name)) crd.status.storedVersions = [...stored, storage.name];
}

/** The CRD REST's strategy for requests at apiextensions.k8s.io/v1 (v1beta1 requests validate with other options). */
function crdStrategy(requestVersion: 'v1' | 'v1beta1'): CrdStrategy {
  const options = { validateSchemaStructure: crdSchemaValidator, requestVersion };
  return {
    // GetResetFields of the CRD and its status strategies.
    resetFields: (sub) => (sub === 'status' ? ['spec'] : ['status']),
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    prepareForCreate(obj) {
      applyDefaults(obj);
      const crd = asCRD(obj);
      crd.status = { acceptedNames: { plural: '', kind: '' } };
      crd.metadata.generation = 1;
      addStoredVersion(crd);
    },
    validate: (obj) => {
      const errs = validateCRD(asCRD(obj), options);
      if (errs.length === 0 && requestVersion === 'v1') noteStructuralAtCreate(asCRD(obj));
      return errs;
    },
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

export const crdV1Strategy: CrdStrategy = crdStrategy('v1');

/**
 * The strategy of the apiextensions.k8s.io/v1beta1 endpoint: the same objects (stored as v1), converted at
 * the endpoint, validated with the options kube 1.21 gave v1beta1 requests.
 */
export function crdV1beta1Strategy(): CrdStrategy {
  const v1 = crdStrategy('v1beta1');
  const options = { validateSchemaStructure: crdSchemaValidator, requestVersion: 'v1beta1' as const };
  // Runs a v1 step on the v1 form of a v1beta1 object and writes the result back in place; the top-level
  // spec.version is kept as sent, as kube's internal form keeps it for validation.
  const inV1 = (obj: JSONObject, step: (o: JSONObject) => void): void => {
    const version = specVersion(obj);
    const converted = crdToV1(obj);
    step(converted);
    const back = crdToV1beta1(converted);
    if (version !== undefined && isObject(back['spec'])) back['spec']['version'] = version;
    for (const k of Object.keys(obj)) delete obj[k];
    Object.assign(obj, back);
  };
  return {
    ...v1,
    prepareForCreate: (obj) => inV1(obj, (o) => v1.prepareForCreate(o)),
    validate: (obj) => validateCRD(asCRD(crdToV1(obj)), { ...options, specVersion: specVersion(obj) }),
    prepareForUpdate: (obj, old, sub) => inV1(obj, (o) => v1.prepareForUpdate(o, crdToV1(old), sub)),
    validateUpdate: (obj, old, sub) =>
      sub === 'status'
        ? v1.validateUpdate(crdToV1(obj), crdToV1(old), sub)
        : validateCRDUpdate(asCRD(crdToV1(obj)), asCRD(crdToV1(old)), { ...options, specVersion: specVersion(obj) }),
    beforeDelete(obj, opts) {
      const r = v1.beforeDelete!(crdToV1(obj), opts);
      return r && r !== 'keep' ? { update: crdToV1beta1(r.update) } : r;
    },
  };
}

/** A v1beta1 body's top-level spec.version when set (otherwise defaulting makes it versions[0].name). */
function specVersion(obj: JSONObject): string | undefined {
  const spec = obj['spec'];
  const v = isObject(spec) ? spec['version'] : undefined;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The warning kube 1.19-1.21 sent with every v1beta1 CRD request. */
export const V1BETA1_CRD_WARNING =
  'apiextensions.k8s.io/v1beta1 CustomResourceDefinition is deprecated in v1.16+, unavailable in v1.22+; use apiextensions.k8s.io/v1 CustomResourceDefinition';

