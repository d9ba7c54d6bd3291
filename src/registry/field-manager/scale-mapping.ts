// The managed fields of a /scale write (managedfields.ScaleHandler): the parent's entries that own its spec
// replicas become Scale entries owning .spec.replicas for the Scale's field manager, and what that manager
// decides is carried back, each Scale manager owning the parent's replicas path at the request's version.
import { fieldElement } from '../../smd/path-element.js';
import { FieldSet, type Path } from '../../smd/set.js';
import type { ManagedFields } from '../../smd/managers.js';
import { decodeManagedFields, encodeManagedFields, type ManagedFieldsEntry } from '../managed-fields.js';

const SCALE_API_VERSION = 'autoscaling/v1';
const REPLICAS_IN_SCALE: Path = [fieldElement('spec'), fieldElement('replicas')];

/** The replicas path of each API version of the parent; null for versions without a scale subresource. */
export type ReplicasPaths = ReadonlyMap<string, Path | null>;

/** A CRD's specReplicasPath (`.spec.replicas`) as a field path. */
export const replicasPath = (jsonPath: string): Path => jsonPath.replace(/^\./, '').split('.').map(fieldElement);

/** ToSubresource: the parent's owners of its replicas, as owners of the Scale's. */
export function toSubresource(parent: readonly ManagedFieldsEntry[], mappings: ReplicasPaths): ManagedFieldsEntry[] | Error {
  const managed = decodeManagedFields(parent);
  if (managed instanceof Error) return managed;
  const fields: ManagedFields = new Map();
  const times = new Map<string, string | undefined>();
  for (const [manager, vs] of managed.fields) {
    const path = mappings.get(vs.apiVersion);
    if (!path || !vs.set.has(path)) continue;
    fields.set(manager, { set: FieldSet.of(REPLICAS_IN_SCALE), apiVersion: SCALE_API_VERSION, applied: vs.applied });
    times.set(manager, managed.times.get(manager));
  }
  return encodeManagedFields({ fields, times }) ?? [];
}

/** ToParent: the Scale's entries merged back into the parent's at `apiVersion`. */
export function toParent(parent: readonly ManagedFieldsEntry[], scale: readonly ManagedFieldsEntry[], mappings: ReplicasPaths, apiVersion: string): ManagedFieldsEntry[] | undefined | Error {
  const parentManaged = decodeManagedFields(parent);
  if (parentManaged instanceof Error) return parentManaged;
  const scaleManaged = decodeManagedFields(scale);
  if (scaleManaged instanceof Error) return scaleManaged;
  const scaleFields = new Map(scaleManaged.fields);
  const fields: ManagedFields = new Map();
  const times = new Map<string, string | undefined>();
  for (const [manager, vs] of parentManaged.fields) {
    // Entries at versions the parent does not have are dropped.
    if (!mappings.has(vs.apiVersion)) continue;
    const path = mappings.get(vs.apiVersion);
    if (!path || !vs.set.has(path)) {
      fields.set(manager, vs);
      times.set(manager, parentManaged.times.get(manager));
      continue;
    }
    if (scaleFields.has(manager)) {
      // The manager still owns the replicas through the Scale: its entry stays as it is.
      fields.set(manager, vs);
      times.set(manager, parentManaged.times.get(manager));
      scaleFields.delete(manager);
      continue;
    }
    // The Scale write took the replicas from this manager.
    const set = vs.set.difference(FieldSet.of(path));
    if (!set.empty()) {
      fields.set(manager, { ...vs, set });
      times.set(manager, parentManaged.times.get(manager));
    }
  }
  const target = mappings.get(apiVersion);
  for (const [manager, vs] of scaleFields) {
    if (!vs.set.has(REPLICAS_IN_SCALE) || !target) continue;
    fields.set(manager, { set: FieldSet.of(target), apiVersion, applied: vs.applied });
    // As kube: the time comes from the parent's entry of that manager, which a new one does not have.
    times.set(manager, parentManaged.times.get(manager));
  }
  return encodeManagedFields({ fields, times });
}
