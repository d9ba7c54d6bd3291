// CRD-level conveniences over the condition bookkeeping in names.ts.
import { isConditionTrue as statusConditionTrue, setCRDCondition, type Condition } from './names.js';
import type { CustomResourceDefinition } from './types.js';

export const isConditionTrue = (crd: CustomResourceDefinition, type: string): boolean => statusConditionTrue(crd.status, type);

/** Sets a condition on crd.status in place (lastTransitionTime moves only when the status changes). */
export function setCondition(crd: CustomResourceDefinition, cond: Condition): void {
  crd.status ??= {};
  crd.status.conditions = setCRDCondition(crd.status.conditions, cond);
}
