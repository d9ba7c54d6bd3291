// The NonStructuralSchema condition by CRD uid and generation (which every change of the spec bumps): every
// status write brings a CRD back to the naming controller, and converting its schemas each time costs more
// than the write. A CRD created through apiextensions.k8s.io/v1 had its schemas proven structural by
// validation just before it was stored (v1 refuses anything else), so its first generation is noted without
// converting them again. Bounded: oldest out first.
import { nonStructuralSchemaCondition } from './structural-validate.js';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from './types.js';

const bySpec = new Map<string, CustomResourceDefinitionCondition | undefined>();
const CACHE_SIZE = 4096;

function remember(key: string, cond: CustomResourceDefinitionCondition | undefined): void {
  if (bySpec.size >= CACHE_SIZE) bySpec.delete(bySpec.keys().next().value!);
  bySpec.set(key, cond);
}

export function cachedNonStructuralCondition(crd: CustomResourceDefinition): CustomResourceDefinitionCondition | undefined {
  const { uid, generation } = crd.metadata;
  if (!uid || generation === undefined) return nonStructuralSchemaCondition(crd);
  const key = `${uid}/${generation}`;
  if (bySpec.has(key)) return bySpec.get(key);
  const cond = nonStructuralSchemaCondition(crd);
  remember(key, cond);
  return cond;
}

/** A CRD that passed v1 create validation: its schemas are structural, so it has no such condition. */
export function noteStructuralAtCreate(crd: CustomResourceDefinition): void {
  const { uid, generation } = crd.metadata;
  if (uid && generation !== undefined) remember(`${uid}/${generation}`, undefined);
}
