// What the ValidatingAdmissionPolicy plugin reads through the API registry: the store serving a paramKind
// (a ConfigMap, a custom resource), and the other served versions of a requested resource (matchPolicy
// Equivalent, as kube's EquivalentResourceMapper).
import type { JSONObject } from '../util/json.js';
import * as S from '../api/status.js';
import type { ParamSource } from '../admission/validating-policy/plugin.js';
import type { ApiRegistry } from './api-registry.js';
import type { TypeResolver } from '../admission/validating-policy/type-checking.js';
import { DYN, INT, STRING, TIMESTAMP, listOf, mapOf, type CelType } from '../cel/types.js';
import { newStructural } from '../schema/structural-model.js';
import { celTypeOf, schemaDeclType } from '../crd/cel-types.js';
import { BUILTIN_KINDS } from '../apis/index.js';
import { goStructCelType } from '../apis/cel-type.js';

const splitApiVersion = (apiVersion: string): { group: string; version: string } => {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
};

export function paramSource(registry: ApiRegistry, apiVersion: string, kind: string): ParamSource | undefined {
  const { group, version } = splitApiVersion(apiVersion);
  const served = registry.served().find((r) => r.group === group && r.version === version && r.kind === kind && !r.resource.includes('/'));
  if (!served) return undefined;
  const ep = registry.lookup(group, version, served.resource);
  if (!ep) return undefined;
  const store = ep.store;
  return {
    namespaced: served.namespaced,
    get: (ns, name) => store.get(ns, name).then((o): JSONObject | undefined => o, (e: unknown) => (e instanceof S.StatusError && e.code === 404 ? undefined : Promise.reject(e))),
    list: async (ns) => (await store.list({ namespace: ns })).items,
  };
}

/** ObjectMeta as type checking sees it at a resource's root (kube's resolved OpenAPI schema carries all of it). */
const OBJECT_META: CelType = {
  kind: 'object',
  name: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  fields: new Map(
    Object.entries({
      name: STRING,
      generateName: STRING,
      namespace: STRING,
      uid: STRING,
      resourceVersion: STRING,
      generation: INT,
      creationTimestamp: TIMESTAMP,
      deletionTimestamp: TIMESTAMP,
      deletionGracePeriodSeconds: INT,
      labels: mapOf(STRING, STRING),
      annotations: mapOf(STRING, STRING),
      finalizers: listOf(STRING),
      ownerReferences: listOf(DYN),
      managedFields: listOf(DYN),
    }).map(([k, type]) => [k, { type, jsonName: k }]),
  ),
};

let typeNameSeq = 0;

/** What type checking needs from the registry: kinds by resource, and a custom resource's schema as a CEL type. */
export function policyTypeResolver(registry: ApiRegistry): TypeResolver {
  return {
    kindsFor: (group, version, resource) =>
      registry
        .served()
        .filter((r) => r.group === group && r.version === version && r.resource === resource)
        .map((r) => ({ group, version, kind: r.kind })),
    schemaType: (gvk) => {
      const served = registry.served().find((r) => r.group === gvk.group && r.version === gvk.version && r.kind === gvk.kind && !r.resource.includes('/'));
      if (!served) return undefined;
      const name = `${gvk.kind}${(typeNameSeq = (typeNameSeq + 1) % 1_000_000_000)}`;
      const builtin = BUILTIN_KINDS.find((k) => k.served.group === gvk.group && k.served.version === gvk.version && k.served.kind === gvk.kind);
      if (builtin) return goStructCelType(builtin.object, name);
      const crd = registry.crds.lookup(gvk.group, gvk.version, served.resource)?.crd;
      const schema = crd?.spec.versions.find((v) => v.name === gvk.version)?.schema?.openAPIV3Schema;
      if (!schema) return undefined;
      const s = newStructural(schema as never);
      if ('error' in s) return undefined;
      const decl = schemaDeclType(s.structural, true);
      if (!decl) return undefined;
      // generateUniqueTypeName: the kind and a number rule authors cannot depend on.
      const t = celTypeOf(decl, name);
      if (t.kind === 'object') t.fields.set('metadata', { type: OBJECT_META, jsonName: 'metadata' });
      return t;
    },
  };
}
