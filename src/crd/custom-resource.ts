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
import { compileSchema, SchemaCoercionError, type CompiledSchema } from '../schema/compile.js';
import { cannotBeHandledAs, unknownFieldError } from '../schema/unknown-fields.js';
import { reportStrictDecoding } from '../server/duplicate-fields.js';
import { badRequest } from '../api/status.js';

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

/** A CRD version's schema compiled once: the whole object, and status alone for /status writes. */
interface Schemas {
  object: CompiledSchema;
  status?: CompiledSchema;
  hasDefaults: boolean;
}

function compileSchemas(schema: Record<string, unknown> | undefined, hasStatus: boolean): Schemas | undefined {
  if (!schema) return undefined;
  const props = schema['properties'] as Record<string, Record<string, unknown>> | undefined;
  const statusSchema = hasStatus ? props?.['status'] : undefined;
  return {
    object: compileSchema(schema),
    status: statusSchema ? compileSchema(statusSchema, { fieldPathPrefix: 'status' }) : undefined,
    // Any default keyword (a property named "default" only costs the read fast path).
    hasDefaults: JSON.stringify(schema).includes('"default":'),
  };
}

function customResourceStrategy(apiVersion: string, kind: string, namespaced: boolean, hasStatus: boolean, schemas: Schemas | undefined): Strategy {
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
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
      return [
        ...validateObjectMeta(metaOf(obj), { namespaced, nameValidator: 'dns1123Subdomain' }, 'metadata'),
        ...(schemas?.object.validate(obj) ?? []),
      ];
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
    validateUpdate(obj, old, sub) {
      const tm = validateTypeMeta(obj);
      if (tm.length) return tm;
      const errs = validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata');
      if (sub === 'status') {
        // Status writes are validated against the status schema alone.
        if (obj['status'] !== undefined && schemas?.status) errs.push(...schemas.status.validateValue(obj['status']));
        return errs;
      }
      errs.push(...(schemas?.object.validate(obj) ?? []));
      return errs;
    },
    warnings: (obj, old) => finalizerWarnings(metaOf(obj).finalizers ?? [], old ? (metaOf(old).finalizers ?? []) : undefined),
    canonicalize: sortKeysDeep,
    admitBody(obj, fieldValidation, warnings, decodeErrors = []) {
      if (!schemas) return reportStrictDecoding(decodeErrors, fieldValidation, warnings, kind, version);
      // The custom resource decoder: defaults for the request version, then pruning of unknown fields.
      schemas.object.default(obj);
      let unknown: string[];
      try {
        unknown = schemas.object.prune(obj, { returnPruned: fieldValidation !== 'Ignore' });
      } catch (e) {
        if (e instanceof SchemaCoercionError) throw badRequest(cannotBeHandledAs(kind, version, kind, e.message));
        throw e;
      }
      // schemaCoercingDecoder: the JSON (or YAML) decoder's strict errors, then the pruned fields.
      reportStrictDecoding([...decodeErrors, ...unknown.map(unknownFieldError)], fieldValidation, warnings, kind, version);
    },
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
  const hasStatus = Boolean(v.subresources?.status);
  const schemas = compileSchemas(v.schema?.openAPIV3Schema, hasStatus);
  // Conversion strategy None: only apiVersion changes (webhook conversion comes with the versions work).
  const setVersion = (obj: JSONObject, to: string): JSONObject => (obj['apiVersion'] === to ? obj : { ...obj, apiVersion: to });
  return {
    served,
    gr: { group, resource: crd.spec.names.plural },
    keyPrefix: `/registry/${group}/${crd.spec.names.plural}/`,
    strategy: customResourceStrategy(apiVersion, served.kind, namespaced, hasStatus, schemas),
    table: customResourceTableConvertor(v.additionalPrinterColumns),
    selectableFields: (obj) => {
      const m = metaOf(obj);
      const f: Record<string, string> = { 'metadata.name': String(m.name ?? '') };
      if (namespaced) f['metadata.namespace'] = String(m.namespace ?? '');
      return f;
    },
    // Sorted keys: stored custom resources begin with apiVersion then kind. With defaults in the schema,
    // reads must default what is stored, so they cannot pass the bytes through.
    storedBytesPrefix: schemas?.hasDefaults ? undefined : `{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(served.kind)},`,
    fromStorage: (obj) => {
      const out = setVersion(obj, apiVersion);
      // Defaults also apply to what is read from storage (and are not written back).
      if (schemas?.hasDefaults) schemas.object.default(out);
      return out;
    },
    toStorage: (obj) => setVersion(obj, storageApiVersion),
  };
}
