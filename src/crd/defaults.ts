// Defaulting of apiextensions.k8s.io/v1 CRDs, as SetObjectDefaults_CustomResourceDefinition does.
// v1 has no schema defaulting: openAPIV3Schema is stored as sent.
import type { CustomResourceDefinition, CustomResourceDefinitionSpec } from './types.js';

/** A defaulted deep copy; the input is not modified. */
export function defaultCRD(crd: CustomResourceDefinition): CustomResourceDefinition {
  const out = structuredClone(crd);
  if (out.spec) defaultCRDSpec(out.spec);
  const storage = out.spec?.versions?.find((v) => v.storage);
  if (storage && !(out.status?.storedVersions?.length ?? 0)) {
    out.status = { ...(out.status ?? {}), storedVersions: [storage.name] };
  }
  return out;
}

/** SetDefaults_CustomResourceDefinitionSpec plus the ServiceReference port default, in place. */
export function defaultCRDSpec(spec: CustomResourceDefinitionSpec): void {
  const names = spec.names;
  if (names) {
    if (!names.singular && names.kind) names.singular = names.kind.toLowerCase();
    if (!names.listKind && names.kind) names.listKind = names.kind + 'List';
  }
  if (spec.conversion == null) spec.conversion = { strategy: 'None' };
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service && service.port == null) service.port = 443;
}
