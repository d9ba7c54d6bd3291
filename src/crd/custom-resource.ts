// The resource type of one served version of a CRD: strategy (metadata, generation, status
// handling), printing, field selectors and version mapping. Built once per CRD version.
import type { ServedResource } from '../api/resource.js';
import { invalid as invalidField, type FieldError } from '../api/field-error.js';
import type { JSONObject } from '../util/json.js';
import { deepEqual, sortKeysDeep } from '../util/json.js';
import { finalizerWarnings, validateObjectMeta, validateObjectMetaUpdate } from '../schema/objectmeta.js';
import { customResourceTableConvertor } from '../server/table.js';
import type { ResourceType, Strategy, Subresource } from '../registry/resource-type.js';
import { metaOf } from '../registry/store.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from './types.js';

/** The body without metadata (and status, when it has its own endpoint): what generation tracks. */
function content(obj: JSONObject, withStatus: boolean): JSONObject {
  const { metadata: _m, status, ...rest } = obj;
  return withStatus ? { ...rest, status } : rest;
}

/**
 * The crd handler round-trips metadata through the typed ObjectMeta, whose omitempty maps and lists
 * vanish when empty: a patch that removes the last label leaves no `labels: {}` behind.
 */
function dropEmptyMetadata(obj: JSONObject): void {
  const meta = metaOf(obj) as Record<string, unknown>;
  for (const k of ['labels', 'annotations']) {
    const v = meta[k];
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) delete meta[k];
  }
  for (const k of ['finalizers', 'ownerReferences', 'managedFields']) {
    const v = meta[k];
    if (Array.isArray(v) && v.length === 0) delete meta[k];
  }
}

function customResourceStrategy(apiVersion: string, kind: string, namespaced: boolean, hasStatus: boolean): Strategy {
  const validateTypeMeta = (obj: JSONObject): FieldError[] => {
    const errs: FieldError[] = [];
    if (obj['kind'] !== kind) errs.push(invalidField('kind', obj['kind'] ?? '', `must be ${kind}`));
    if (obj['apiVersion'] !== apiVersion) errs.push(invalidField('apiVersion', obj['apiVersion'] ?? '', `must be ${apiVersion}`));
    return errs;
  };
  return {
    allowCreateOnUpdate: false,
    // customResourceStrategy: a PUT must carry metadata.resourceVersion.
    allowUnconditionalUpdate: false,
    validatesTypeMeta: true,
    prepareForCreate(obj) {
      if (hasStatus) delete obj['status'];
      metaOf(obj).generation = 1;
      dropEmptyMetadata(obj);
    },
    validate(obj) {
      const tm = validateTypeMeta(obj);
      if (tm.length) return tm;
      return validateObjectMeta(metaOf(obj), { namespaced, nameValidator: 'dns1123Subdomain' }, 'metadata');
    },
    prepareForUpdate(obj, old, sub: Subresource) {
      const meta = metaOf(obj);
      const oldMeta = metaOf(old);
      if (sub === 'status') {
        // Only status changes through /status: everything else is the stored object's.
        const status = obj['status'];
        for (const k of Object.keys(obj)) delete obj[k];
        Object.assign(obj, structuredClone(old));
        metaOf(obj).resourceVersion = meta.resourceVersion;
        if (status === undefined) delete obj['status'];
        else obj['status'] = status;
        return;
      }
      if (hasStatus) {
        if (old['status'] === undefined) delete obj['status'];
        else obj['status'] = old['status'];
      }
      meta.generation = oldMeta.generation ?? 1;
      if (!deepEqual(content(obj, !hasStatus), content(old, !hasStatus))) meta.generation += 1;
      dropEmptyMetadata(obj);
    },
    validateUpdate(obj, old) {
      const tm = validateTypeMeta(obj);
      if (tm.length) return tm;
      return validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata');
    },
    warnings: (obj, old) => finalizerWarnings(metaOf(obj).finalizers ?? [], old ? (metaOf(old).finalizers ?? []) : undefined),
    canonicalize: sortKeysDeep,
  };
}

export function storageVersionOf(crd: CustomResourceDefinition): string {
  return crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name ?? '';
}

export function customResourceType(crd: CustomResourceDefinition, v: CustomResourceDefinitionVersion, served: ServedResource): ResourceType {
  const group = crd.spec.group;
  const apiVersion = `${group}/${v.name}`;
  const storageApiVersion = `${group}/${storageVersionOf(crd)}`;
  const namespaced = crd.spec.scope === 'Namespaced';
  const setVersion =
    (to: string) =>
    (obj: JSONObject): JSONObject =>
      // Conversion strategy None: only apiVersion changes (webhook conversion comes with the versions work).
      obj['apiVersion'] === to ? obj : { ...obj, apiVersion: to };
  return {
    served,
    gr: { group, resource: crd.spec.names.plural },
    keyPrefix: `/registry/${group}/${crd.spec.names.plural}/`,
    strategy: customResourceStrategy(apiVersion, served.kind, namespaced, Boolean(v.subresources?.status)),
    table: customResourceTableConvertor(v.additionalPrinterColumns),
    selectableFields: (obj) => {
      const m = metaOf(obj);
      const f: Record<string, string> = { 'metadata.name': String(m.name ?? '') };
      if (namespaced) f['metadata.namespace'] = String(m.namespace ?? '');
      return f;
    },
    // Sorted keys: stored custom resources begin with apiVersion then kind.
    storedBytesPrefix: `{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(served.kind)},`,
    fromStorage: setVersion(apiVersion),
    toStorage: setVersion(storageApiVersion),
  };
}
