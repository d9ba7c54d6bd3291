// The resource type of one served version of a CRD: strategy (metadata, generation, status
// handling), printing, field selectors and version mapping. Built once per CRD version.
import { selectableFieldSet } from './selectable-field-set.js';
import type { ServedResource } from '../api/resource.js';
import { invalid as invalidField, type FieldError } from '../api/field-error.js';
import type { JSONObject } from '../util/json.js';
import { deepEqual, sortKeysDeep } from '../util/json.js';
import { finalizerWarnings, validateObjectMeta, validateObjectMetaUpdate } from '../schema/objectmeta.js';
import { customResourceTableConvertor } from '../registry/table-convertors.js';
import type { ResourceType, Strategy, Subresource } from '../registry/resource-type.js';
import { metaOf } from '../registry/store.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from './types.js';
import { compileSchema, SchemaCoercionError, type CompiledSchema } from '../schema/compile.js';
import { cannotBeHandledAs, unknownFieldError } from '../schema/unknown-fields.js';
import { reportStrictDecoding } from '../schema/unknown-fields.js';
import { badRequest } from '../api/status.js';
import { newStructural, type Structural } from '../schema/structural-model.js';
import { compileEmbeddedValidation } from '../schema/value-embedded.js';
import { compileListTypeValidation } from '../schema/list-types.js';
import { type CelValidator, compileCelValidator } from './cel-validator.js';
import { Correlated } from './cel-correlation.js';
import { ratchetSchemaErrors } from './cel-ratcheting.js';
import { validateScaleSpec, validateScaleStatus, type ScalePaths } from './scale.js';
import { versionCodec } from './cr-codec.js';
import { coerceObjectMeta } from '../schema/prune-objectmeta.js';
import type { ConvertObjects } from '../conversion/types.js';
import { stringifyJSON } from '../util/json-int64.js';
import { createHash } from 'node:crypto';

/**
 * Whether the bodies without metadata (and status, when it has its own endpoint), what generation tracks, are
 * deepEqual: as comparing the two copies without those members would, without making them.
 */
export function sameContent(a: JSONObject, b: JSONObject, withStatus: boolean): boolean {
  const counted = (o: JSONObject): number => {
    let n = 0;
    for (const k of Object.keys(o)) if (k !== 'metadata' && k !== 'status') n++;
    return n;
  };
  if (counted(a) !== counted(b)) return false;
  for (const k of Object.keys(a)) {
    if (k === 'metadata' || k === 'status') continue;
    if (!Object.hasOwn(b, k) || !deepEqual(a[k], b[k])) return false;
  }
  return !withStatus || deepEqual(a['status'], b['status']);
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

/**
 * A CRD version's schema compiled once: the whole object, status alone for /status writes, the
 * structural model updates correlate old and new values through, and the validation rules.
 */
interface Schemas {
  object: CompiledSchema;
  status?: CompiledSchema;
  hasDefaults: boolean;
  structural?: Structural;
  /** Embedded-resource metadata and list-type checks, run apart from value validation on updates. */
  embedded: ((obj: unknown) => FieldError[]) | null;
  lists: ((obj: unknown) => readonly FieldError[]) | null;
  cel?: CelValidator;
}

function compileSchemas(schema: Record<string, unknown>, hasStatus: boolean, hasDefaults: boolean): Schemas {
  const props = schema['properties'] as Record<string, Record<string, unknown>> | undefined;
  const statusSchema = hasStatus ? props?.['status'] : undefined;
  const object = compileSchema(schema);
  const s = newStructural(schema);
  const structural = 'structural' in s ? s.structural : undefined;
  return {
    object,
    status: statusSchema ? compileSchema(statusSchema, { fieldPathPrefix: 'status' }) : undefined,
    hasDefaults,
    structural,
    embedded: compileEmbeddedValidation(object.structural),
    lists: compileListTypeValidation(object.structural),
    cel: structural ? compileCelValidator(structural) : undefined,
  };
}

/**
 * Compiled schemas by content (schema text and whether status has its own endpoint), shared by every CRD
 * version that has the same schema: compiled schemas hold nothing of the CRD they came from, and each is
 * used synchronously, one call at a time. Held weakly, so that they go with the last CRD using them.
 */
const compiledByContent = new Map<string, WeakRef<Schemas>>();
const forgetCompiled = new FinalizationRegistry<string>((key) => {
  if (compiledByContent.get(key)?.deref() === undefined) compiledByContent.delete(key);
});

/** How many schemas have been compiled in this process (identical ones, in any CRD or logical cluster, once). */
let compilations = 0;
export const schemaCompilations = (): number => compilations;

function sharedSchemas(key: string, schema: Record<string, unknown>, hasStatus: boolean, hasDefaults: boolean): Schemas {
  const known = compiledByContent.get(key)?.deref();
  if (known) return known;
  const compiled = compileSchemas(schema, hasStatus, hasDefaults);
  compilations++;
  compiledByContent.set(key, new WeakRef(compiled));
  forgetCompiled.register(compiled, key);
  return compiled;
}

/** hasBlockingErr: errors after which validation rules are not run (their input is broken). */
const BLOCKING: ReadonlySet<string> = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);
const RULES_NOT_CHECKED = invalidField('<nil>', null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');

// Warnings of ratcheted rule failures, from validateUpdate to the warnings the store asks for next.
const ratchetWarnings = new WeakMap<JSONObject, string[]>();

/** Runs the validation rules unless earlier errors block them (then says so). */
function runRules(schemas: Schemas | undefined, errs: FieldError[], obj: JSONObject, old?: JSONObject): void {
  if (!schemas?.cel) return;
  // The store reports a missing name itself (kube's ObjectMeta validation would, as a Required error).
  if (errs.some((e) => BLOCKING.has(e.type)) || !metaOf(obj).name) {
    errs.push(RULES_NOT_CHECKED);
    return;
  }
  if (!old) {
    errs.push(...schemas.cel.validate(obj, undefined).errors);
    return;
  }
  const r = schemas.cel.validate(obj, old, { current: new Correlated(obj, old, schemas.structural) });
  errs.push(...r.errors);
  if (r.warnings.length > 0) ratchetWarnings.set(obj, r.warnings);
}

function customResourceStrategy(
  apiVersion: string,
  kind: string,
  namespaced: boolean,
  hasStatus: boolean,
  scale: ScalePaths | undefined,
  /** The version's schemas, compiled on first use. */
  schemasOf: () => Schemas | undefined,
  preserveUnknownFields: boolean,
  observeRatcheting?: (seconds: number) => void,
): Strategy {
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  const validateTypeMeta = (obj: JSONObject): FieldError[] => {
    const errs: FieldError[] = [];
    if (obj['kind'] !== kind) errs.push(invalidField('kind', obj['kind'] ?? '', `must be ${kind}`));
    if (obj['apiVersion'] !== apiVersion) errs.push(invalidField('apiVersion', obj['apiVersion'] ?? '', `must be ${apiVersion}`));
    return errs;
  };
  return {
    // GetResetFields of the main and status strategies.
    resetFields: (sub) => (sub === 'status' ? ['spec'] : sub === '' && hasStatus ? ['status'] : []),
    allowCreateOnUpdate: false,
    // customResourceStrategy: a PUT must carry metadata.resourceVersion.
    allowUnconditionalUpdate: false,
    prepareForCreate(obj) {
      if (hasStatus) delete obj['status'];
      metaOf(obj).generation = 1;
      dropEmptyMetadata(obj);
    },
    validate(obj) {
      const tm = validateTypeMeta(obj);
      if (tm.length) return tm;
      const schemas = schemasOf();
      // customResourceValidator.Validate (metadata, schema, the scale paths), then embedded resources and list types.
      const errs = [
        ...validateObjectMeta(metaOf(obj), { namespaced, nameValidator: 'dns1123Subdomain' }, 'metadata'),
        ...(schemas?.object.validateValue(obj) ?? []),
        ...validateScaleSpec(obj, scale),
        ...validateScaleStatus(obj, scale),
        ...(schemas?.embedded?.(obj) ?? []),
        ...(schemas?.lists?.(obj) ?? []),
      ];
      runRules(schemas, errs, obj);
      return errs;
    },
    prepareForUpdate(obj, old, sub: Subresource) {
      const meta = metaOf(obj);
      const oldMeta = metaOf(old);
      if (sub === 'status') {
        // Only status changes through /status: everything else is the stored object's, except the managed
        // fields, which the field manager updated for this status write.
        const status = obj['status'];
        const managedFields = meta.managedFields;
        for (const k of Object.keys(obj)) delete obj[k];
        // The stored object's members themselves, not copies: nothing changes them after this (what is written is
        // serialized from them), and a large spec's stored text is then taken as it was (stored-text-reuse.ts).
        // Its metadata is copied, since the write sets members of it.
        Object.assign(obj, old, { metadata: { ...oldMeta } });
        metaOf(obj).resourceVersion = meta.resourceVersion;
        if (managedFields === undefined) delete metaOf(obj).managedFields;
        else metaOf(obj).managedFields = managedFields;
        if (status === undefined) delete obj['status'];
        else obj['status'] = status;
        return;
      }
      if (hasStatus) {
        if (old['status'] === undefined) delete obj['status'];
        else obj['status'] = old['status'];
      }
      meta.generation = oldMeta.generation ?? 1;
      if (!sameContent(obj, old, !hasStatus)) meta.generation += 1;
      dropEmptyMetadata(obj);
    },
    validateUpdate(obj, old, sub) {
      const tm = validateTypeMeta(obj);
      if (tm.length) return tm;
      const errs = validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata');
      const schemas = schemasOf();
      if (!schemas) {
        if (sub !== 'status') errs.push(...validateScaleSpec(obj, scale));
        errs.push(...validateScaleStatus(obj, scale));
        return errs;
      }
      // Ratcheting: schema errors of values left as they were do not fail the update.
      const ratchetStart = observeRatcheting ? performance.now() : 0;
      const correlated = schemas.structural ? new Correlated(obj, old, schemas.structural) : undefined;
      const listErrs = (o: JSONObject) => schemas.lists?.(o) ?? [];
      if (sub === 'status') {
        // The status schema alone validates status writes; lists and rules look at the whole object.
        if (obj['status'] !== undefined && schemas.status) {
          errs.push(...ratchetSchemaErrors(schemas.status.validateValue(obj['status']), correlated?.key('status'), 'status'));
        }
        errs.push(...validateScaleStatus(obj, scale));
        const newLists = listErrs(obj);
        if (newLists.length > 0 && listErrs(old).length === 0) errs.push(...newLists);
      } else {
        errs.push(...ratchetSchemaErrors(schemas.object.validateValue(obj), correlated, ''));
        errs.push(...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale));
        errs.push(...(schemas.embedded?.(obj) ?? []));
        // List invariants the stored object already broke are not enforced.
        if (listErrs(old).length === 0) errs.push(...listErrs(obj));
      }
      // kube's RatchetingSchemaValidator.ValidateUpdate is timed: the schema part, before the rules.
      observeRatcheting?.((performance.now() - ratchetStart) / 1000);
      runRules(schemas, errs, obj, old);
      return errs;
    },
    warnings: (obj, old) => [
      ...(ratchetWarnings.get(obj) ?? []),
      ...finalizerWarnings(metaOf(obj).finalizers ?? [], old ? (metaOf(old).finalizers ?? []) : undefined),
    ],
    canonicalize: sortKeysDeep,
    admitBody(obj, fieldValidation, warnings, decodeErrors = []) {
      const schemas = schemasOf();
      if (!schemas) return reportStrictDecoding(decodeErrors, fieldValidation, warnings, kind, version);
      if (preserveUnknownFields) {
        // Nothing is pruned; metadata still decodes as ObjectMeta (its unknown fields are reported).
        const meta = Object.hasOwn(obj, 'metadata')
          ? coerceObjectMeta(obj['metadata'], { dropMalformedFields: false, returnUnknownFieldPaths: fieldValidation !== 'Ignore', pathPrefix: 'metadata' })
          : undefined;
        if (meta?.error !== undefined) throw badRequest(cannotBeHandledAs(kind, version, kind, meta.error));
        if (meta?.meta !== undefined) obj['metadata'] = meta.meta;
        return reportStrictDecoding([...decodeErrors, ...(meta?.unknownFields ?? []).map(unknownFieldError)], fieldValidation, warnings, kind, version);
      }
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

/**
 * Every version's schemas, shared by all the CRD's endpoints. Compiled when a request first needs them, not
 * when the CRD changes: installing many CRDs then costs their validation alone, and a CRD whose resources are
 * never written or read costs no compile at all.
 */
export class CrdSchemas {
  private readonly byVersion = new Map<string, { schema: Record<string, unknown>; hasStatus: boolean; digest?: SchemaDigest; compiled?: Schemas }>();
  private readonly versions = new Set<string>();

  constructor(crd: CustomResourceDefinition) {
    for (const v of crd.spec.versions) {
      this.versions.add(v.name);
      const schema = v.schema?.openAPIV3Schema as Record<string, unknown> | undefined;
      if (schema) this.byVersion.set(v.name, { schema, hasStatus: Boolean(v.subresources?.status) });
    }
  }

  /** Whether spec.versions lists the version (with or without a schema). */
  has(version: string): boolean {
    return this.versions.has(version);
  }

  /** Any default keyword (a property named "default" only costs the read fast path); known without compiling. */
  hasDefaults(version: string): boolean {
    const entry = this.byVersion.get(version);
    return entry ? this.digest(entry).hasDefaults : false;
  }

  /** Whether the version has a schema; known without compiling. */
  hasSchema(version: string): boolean {
    return this.byVersion.has(version);
  }

  /** The version's compiled schemas (compiled now if no request needed them yet); undefined without a schema. */
  get(version: string): Schemas | undefined {
    const entry = this.byVersion.get(version);
    if (!entry) return undefined;
    return (entry.compiled ??= sharedSchemas(this.digest(entry).key, entry.schema, entry.hasStatus, this.digest(entry).hasDefaults));
  }

  /**
   * The schema's text, read once when first needed and not kept (a CRD's text is tens or hundreds of KB,
   * and a restart with a thousand CRDs serialised every one of them before it was ready).
   */
  private digest(entry: { schema: Record<string, unknown>; hasStatus: boolean; digest?: SchemaDigest }): SchemaDigest {
    if (entry.digest) return entry.digest;
    const text = stringifyJSON(entry.schema);
    return (entry.digest = { key: `${entry.hasStatus ? 's' : '-'}${createHash('sha256').update(text).digest('base64')}`, hasDefaults: text.includes('"default":') });
  }
}

interface SchemaDigest {
  /** What identical schemas share their compiled form by: whether status has its endpoint, and the text's SHA-256. */
  key: string;
  hasDefaults: boolean;
}

export function compileCrdSchemas(crd: CustomResourceDefinition): CrdSchemas {
  return new CrdSchemas(crd);
}

interface CustomResourceTypeOptions {
  schemas: CrdSchemas;
  /** The webhook converter, for strategy Webhook. */
  convert?: ConvertObjects;
  /** The CRD's revision when these schemas were compiled: objects written later need no pruning on reads. */
  schemaRevision?: number;
  /** Told how long each update's ratcheting schema validation took (apiextensions_apiserver_validation_ratcheting_seconds). */
  observeRatcheting?: (seconds: number) => void;
}

export function customResourceType(
  crd: CustomResourceDefinition,
  v: CustomResourceDefinitionVersion,
  served: ServedResource,
  opts: CustomResourceTypeOptions = { schemas: compileCrdSchemas(crd) },
): ResourceType {
  const group = crd.spec.group;
  const apiVersion = `${group}/${v.name}`;
  const namespaced = crd.spec.scope === 'Namespaced';
  const hasStatus = Boolean(v.subresources?.status);
  const schemasOf = (): Schemas | undefined => opts.schemas.get(v.name);
  let storedBytesPrefix: string | null | undefined;
  const codec = versionCodec(
    { group, preserveUnknownFields: crd.spec.preserveUnknownFields === true, schemas: opts.schemas },
    v.name,
    storageVersionOf(crd),
    opts.convert,
  );
  return {
    served,
    gr: { group, resource: crd.spec.names.plural },
    keyPrefix: `/registry/${group}/${crd.spec.names.plural}/`,
    strategy: customResourceStrategy(apiVersion, served.kind, namespaced, hasStatus, v.subresources?.scale, schemasOf, crd.spec.preserveUnknownFields === true, opts.observeRatcheting),
    table: customResourceTableConvertor(v.additionalPrinterColumns),
    selectableFields: selectableFieldSet(namespaced, v.selectableFields),
    // Sorted keys: stored custom resources begin with apiVersion then kind. With defaults in the schema,
    // reads must default what is stored, so they cannot pass the bytes through. Decided on the first read:
    // a CRD whose resources are never read costs no look at its schema.
    get storedBytesPrefix(): string | undefined {
      return (storedBytesPrefix ??= opts.schemas.hasDefaults(v.name) ? null : `{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(served.kind)},`) ?? undefined;
    },
    rawSinceRevision: opts.schemaRevision,
    fromStorage: codec.fromStorage,
    toStorage: codec.toStorage,
    ...(codec.asyncCodec ? { asyncCodec: codec.asyncCodec } : {}),
  };
}
