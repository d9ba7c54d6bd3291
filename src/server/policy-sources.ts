// What the ValidatingAdmissionPolicy plugin reads through the API registry: the store serving a paramKind
// (a ConfigMap, a custom resource), and the other served versions of a requested resource (matchPolicy
// Equivalent, as kube's EquivalentResourceMapper).
import type { JSONObject } from '../util/json.js';
import * as S from '../api/status.js';
import type { AdmissionAttributes } from '../registry/admission.js';
import type { ParamSource } from '../admission/validating-policy/plugin.js';
import type { GVK, GVR } from '../admission/validating-policy/matching.js';
import type { ApiRegistry } from './api-registry.js';

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

export function equivalentResources(registry: ApiRegistry, a: AdmissionAttributes): { resource: GVR; kind: GVK }[] {
  const { group, version, resource } = a.resource;
  return registry
    .served()
    .filter((r) => r.group === group && r.resource === resource && r.version !== version)
    .map((r) => ({ resource: { group, version: r.version, resource }, kind: { group, version: r.version, kind: r.kind } }));
}
