// Which custom resources are served, built from the CRDs as they change: one endpoint (resource type
// plus store) per served version, compiled once per CRD generation and reused by every request.
import type { ServedResource } from '../api/resource.js';
import { StatusError, plainError, type GroupResource } from '../api/status.js';
import type { JSONObject } from '../util/json.js';
import type { KVStore } from '../storage/types.js';
import { GenericStore } from '../registry/store.js';
import type { Admission } from '../registry/admission.js';
import { storageVersionHash, compareKubeVersions } from '../api/versions.js';
import { compileCrdSchemas, customResourceType, storageVersionOf, type CrdSchemas } from './custom-resource.js';
import type { ConvertObjects } from '../conversion/types.js';
import { isConditionTrue } from './conditions.js';
import { selectableFieldLabel } from './selectable-field-set.js';
import { defaultDeprecationWarning } from './deprecation-warning.js';
import type { CustomResourceDefinition } from './types.js';
import type { Subresource } from '../registry/resource-type.js';
import type { Endpoint } from '../registry/endpoint.js';
import { CUSTOM_RESOURCE_PATCH_TYPES } from '../registry/patch.js';
import { managedFieldsTypes, type TypedSchema } from '../registry/field-manager/merge-types.js';
import { replicasPath } from '../registry/field-manager/scale-mapping.js';
import { stringifyJSON } from '../util/json-int64.js';
import { deepCopyJSON } from '../util/json.js';

interface CrdEndpoint {
  crd: CustomResourceDefinition;
  store: GenericStore;
  /** What request routing needs, built with the store: once per CRD change, not per request. */
  endpoint: Endpoint;
}

interface CrdServingInfo {
  crd: CustomResourceDefinition;
  /** spec + accepted names this was built from: rebuilt when they change. */
  fingerprint: string;
  /** The spec alone: while it is unchanged its compiled schemas are reused (a names change rebuilds the rest). */
  specFingerprint: string;
  schemas: CrdSchemas;
  schemaRevision: number;
  versions: Map<string, CrdEndpoint>;
  storageStore: GenericStore;
  /** What routing reads of `crd` (routingOf), worked out once per CRD rather than per request. */
  routing?: Routing;
}

/** The endpoints crdHandler routes to (served versions, names accepted or established) and whether the CRD is terminating. */
interface Routing {
  endpoints: Map<string, CrdEndpoint>;
  terminating: boolean;
}

/** info's routing, worked out from its CRD when first asked (update() forgets it whenever it sets the CRD). */
function routingOf(info: CrdServingInfo): Routing {
  if (info.routing) return info.routing;
  const crd = info.crd;
  const endpoints = new Map<string, CrdEndpoint>();
  if (isConditionTrue(crd, 'NamesAccepted') || isConditionTrue(crd, 'Established')) {
    const seen = new Set<string>();
    for (const v of crd.spec.versions) {
      // The first version of a name decides, as a search of the list would.
      if (seen.has(v.name)) continue;
      seen.add(v.name);
      const ep = info.versions.get(v.name);
      if (v.served && ep) endpoints.set(v.name, ep);
    }
  }
  return (info.routing = { endpoints, terminating: isConditionTrue(crd, 'Terminating') });
}

const CR_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
/** What discovery lists while the CRD is terminating (apiextensions' DiscoveryController). */
const TERMINATING_VERBS = ['delete', 'deletecollection', 'get', 'list', 'watch'];

function servedResource(crd: CustomResourceDefinition, version: string, priority: number, fingerprint: string): ServedResource {
  const names = crd.status?.acceptedNames ?? {};
  const v = crd.spec.versions.find((x) => x.name === version)!;
  const kind = names.kind || crd.spec.names.kind;
  return {
    group: crd.spec.group,
    version,
    resource: names.plural || crd.spec.names.plural,
    singularName: names.singular || crd.spec.names.singular || kind.toLowerCase(),
    kind,
    listKind: names.listKind || crd.spec.names.listKind || `${kind}List`,
    namespaced: crd.spec.scope === 'Namespaced',
    verbs: CR_VERBS,
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    subresources: { status: Boolean(v.subresources?.status), scale: v.subresources?.scale },
    storageVersionHash: storageVersionHash(crd.spec.group, storageVersionOf(crd), kind),
    schema: v.schema?.openAPIV3Schema,
    ...(crd.spec.preserveUnknownFields ? { preserveUnknownFields: true } : {}),
    printerColumns: v.additionalPrinterColumns,
    ...(v.selectableFields?.length ? { selectableFields: v.selectableFields.map(selectableFieldLabel) } : {}),
    deprecated: v.deprecated,
    deprecationWarning: v.deprecationWarning,
    versionPriority: priority,
    revision: `${fingerprint}\u0000${version}`,
  };
}


/** NewMethodNotSupported with crdHandler's message for creates while the CRD is terminating. */
export function terminatingCreate(gr: GroupResource): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'create not allowed while custom resource definition is terminating',
    reason: 'MethodNotAllowed',
    details: { group: gr.group, kind: gr.resource },
    code: 405,
  });
}

/** How long crdHandler's tearDown lets in-flight requests reach the old storage before destroying it. */
const TEARDOWN_DELAY_MS = 1000;

/**
 * The storage of a CRD that changed or went away is torn down as crdHandler's removeStorage_locked does it:
 * a second later its watch cache stops, which ends every watch on it without an event. Requests from then
 * on are served by the new storage.
 */
function tearDown(info: CrdServingInfo): void {
  const timer = setTimeout(() => {
    for (const ep of info.versions.values()) ep.store.endWatches();
  }, TEARDOWN_DELAY_MS);
  timer.unref();
}

/**
 * What identifies a CRD's spec: its uid and generation, which every change of the spec through the API bumps
 * (status writes, the controllers' three per CRD, leave it), so that no event costs a serialisation of the
 * spec; the spec itself for a CRD written into storage without them.
 */
function specKey(crd: CustomResourceDefinition): string {
  const { uid, generation } = crd.metadata;
  return uid && typeof generation === 'number' ? `${uid}/${generation}` : stringifyJSON([crd.spec, uid]);
}

export class CrdServing {
  private byName = new Map<string, CrdServingInfo>();
  /** Bumped on every change, so discovery and OpenAPI documents can be cached. */
  generation = 0;

  constructor(
    private readonly kv: KVStore,
    private readonly admission: Admission,
    /** Builds the webhook converter of a CRD with strategy Webhook. */
    readonly webhookConverter?: (crd: CustomResourceDefinition) => ConvertObjects,
    /** The merge schema of a served version, for managedFields and server-side apply (absent: not tracked). */
    private readonly mergeSchema?: (served: ServedResource) => TypedSchema,
    /** Told how long each update's ratcheting schema validation took. */
    private readonly observeRatcheting?: (seconds: number) => void,
  ) {}

  /** The CRD was created or changed. */
  update(crd: CustomResourceDefinition): void {
    const name = crd.metadata.name ?? '';
    const specFingerprint = specKey(crd);
    const fingerprint = `${specFingerprint}\u0000${stringifyJSON(crd.status?.acceptedNames ?? null)}`;
    const existing = this.byName.get(name);
    if (existing && existing.fingerprint === fingerprint) {
      existing.crd = crd; // conditions may have changed: routing reads them
      existing.routing = undefined;
      for (const ep of existing.versions.values()) ep.crd = crd;
      this.generation++;
      return;
    }
    if (existing) tearDown(existing);
    const sorted = [...crd.spec.versions].sort((a, b) => compareKubeVersions(a.name, b.name));
    const versions = new Map<string, CrdEndpoint>();
    let storageStore: GenericStore | undefined;
    // Compiled once per spec: accepting the names (the naming controller's first write) changes the
    // fingerprint, not the schemas.
    const reuse = existing?.specFingerprint === specFingerprint ? existing : undefined;
    const schemas = reuse?.schemas ?? compileCrdSchemas(crd);
    const convert = crd.spec.conversion?.strategy === 'Webhook' ? this.webhookConverter?.(crd) : undefined;
    const schemaRevision = reuse?.schemaRevision ?? (Number(crd.metadata.resourceVersion ?? 0) || 0);
    const types = sorted.map((v, i) => customResourceType(crd, v, servedResource(crd, v.name, i, fingerprint), { schemas, convert, schemaRevision, observeRatcheting: this.observeRatcheting }));
    const mergeSchema = this.mergeSchema;
    if (mergeSchema) {
      // One set of merge schemas per CRD, shared by its versions' field managers (they convert between them).
      const mft = managedFieldsTypes(
        types.map((type) => {
          const apiVersion = `${crd.spec.group}/${type.served.version}`;
          return { apiVersion, type, schema: () => mergeSchema(type.served), newObject: () => ({ apiVersion, kind: type.served.kind }) };
        }),
      );
      for (const type of types) type.managedFields = mft;
    }
    const replicasPaths = new Map(sorted.map((v) => [`${crd.spec.group}/${v.name}`, v.subresources?.scale ? replicasPath(v.subresources.scale.specReplicasPath) : null]));
    sorted.forEach((v, i) => {
      const type = types[i]!;
      const store = new GenericStore(this.kv, type, this.admission);
      if (v.storage) storageStore = store;
      const deprecationWarning = v.deprecated
        ? (v.deprecationWarning ?? defaultDeprecationWarning(v.name, crd.spec))
        : undefined;
      const subresources = new Set<Subresource>();
      if (v.subresources?.status) subresources.add('status');
      if (v.subresources?.scale) subresources.add('scale');
      const served: CrdEndpoint = {
        crd,
        store,
        endpoint: {
          store,
          subresources,
          ...(v.subresources?.scale ? { scale: v.subresources.scale, replicasPaths } : {}),
          patchTypes: CUSTOM_RESOURCE_PATCH_TYPES,
          warnings: deprecationWarning ? [deprecationWarning] : undefined,
        },
      };
      versions.set(v.name, served);
    });
    storageStore ??= versions.values().next().value?.store;
    if (!storageStore) return;
    this.byName.set(name, { crd, fingerprint, specFingerprint, schemas, schemaRevision, versions, storageStore });
    this.generation++;
  }

  /** Whether the CRD serving this resource is terminating: no new objects then (reads, updates and deletes go on). */
  isTerminating(resource: { group: string; resource: string }): boolean {
    const info = this.byName.get(`${resource.resource}.${resource.group}`);
    return info !== undefined && routingOf(info).terminating;
  }

  remove(name: string): void {
    const info = this.byName.get(name);
    if (!info) return;
    this.byName.delete(name);
    tearDown(info);
    this.generation++;
  }

  /** The endpoint serving group/version/resource, as crdHandler routes: served version, names accepted or established. */
  lookup(group: string, version: string, resource: string): CrdEndpoint | undefined {
    const info = this.byName.get(`${resource}.${group}`);
    return info === undefined ? undefined : routingOf(info).endpoints.get(version);
  }

  /**
   * Established CRDs' served versions, for discovery and OpenAPI. A terminating CRD's resources list only
   * the verbs that still make sense (its endpoints still answer updates; creates get crdHandler's 405).
   */
  served(): ServedResource[] {
    const out: ServedResource[] = [];
    for (const info of this.byName.values()) {
      if (!isConditionTrue(info.crd, 'Established')) continue;
      const terminating = isConditionTrue(info.crd, 'Terminating');
      for (const [name, ep] of info.versions) {
        const v = info.crd.spec.versions.find((x) => x.name === name);
        if (!v?.served) continue;
        const served = ep.store.type.served;
        out.push(terminating ? { ...served, verbs: TERMINATING_VERBS } : served);
      }
    }
    return out;
  }

  /** One store per CRD (at its storage version), for cleanup by namespace or CRD deletion. */
  storageStores(filter?: (crd: CustomResourceDefinition) => boolean): GenericStore[] {
    return [...this.byName.values()].filter((i) => !filter || filter(i.crd)).map((i) => i.storageStore);
  }

  /** The served versions of the CRD serving group/resource, in spec order (admission's matchPolicy Equivalent). */
  servedVersions(group: string, resource: string): ServedResource[] {
    const info = this.byName.get(`${resource}.${group}`);
    if (!info) return [];
    return info.crd.spec.versions.filter((v) => v.served && info.versions.has(v.name)).map((v) => info.versions.get(v.name)!.store.type.served);
  }

  /**
   * A custom resource at one served version converted to another, through its storage form as a write and a
   * read would convert it (the CRD's None or Webhook conversion, pruning at each end).
   */
  async convert(obj: JSONObject, group: string, resource: string, fromVersion: string, toVersion: string): Promise<JSONObject> {
    const info = this.byName.get(`${resource}.${group}`);
    const from = info?.versions.get(fromVersion)?.store.type;
    const to = info?.versions.get(toVersion)?.store.type;
    if (!from || !to) throw plainError(`unable to convert to ${group}/${toVersion}, Resource=${resource}: unknown version`);
    const stored = from.asyncCodec ? await from.asyncCodec.encode(obj) : from.toStorage(obj);
    const copy = deepCopyJSON(stored);
    if (to.asyncCodec) return (await to.asyncCodec.decode([copy]))[0]!;
    return to.fromStorage(copy);
  }

  storageStoreFor(name: string): GenericStore | undefined {
    return this.byName.get(name)?.storageStore;
  }
}
