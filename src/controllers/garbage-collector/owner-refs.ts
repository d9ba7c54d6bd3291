// metadata.ownerReferences as the garbage collector reads them, and the decision it takes for a dependent
// once each owner has been looked up (attemptToDeleteItem's classification): solid owners keep it, dangling
// ones (gone, or another object now under that name) and owners waiting for their dependents do not.
import type { JSONObject } from '../../util/json.js';
import { isObject } from '../../util/json.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../registry/deletion.js';

export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  blockOwnerDeletion?: boolean;
}

export function ownerRefsOf(obj: JSONObject): OwnerRef[] {
  const meta = obj['metadata'];
  const refs = isObject(meta) ? meta['ownerReferences'] : undefined;
  if (!Array.isArray(refs)) return [];
  return refs.filter(isObject).map((r) => ({
    apiVersion: String(r['apiVersion'] ?? ''),
    kind: String(r['kind'] ?? ''),
    name: String(r['name'] ?? ''),
    uid: String(r['uid'] ?? ''),
    ...(r['blockOwnerDeletion'] === true ? { blockOwnerDeletion: true } : {}),
  }));
}

/** The group of an ownerReference's apiVersion ("" for the core group's "v1"). */
export const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

export type OwnerState = 'solid' | 'dangling' | 'waitingForDependentsDeletion';

/** An owner as found at its reference's coordinates. */
export function ownerState(ref: OwnerRef, owner: JSONObject | undefined): OwnerState {
  if (!owner) return 'dangling';
  const meta = isObject(owner['metadata']) ? owner['metadata'] : {};
  if (meta['uid'] !== ref.uid) return 'dangling';
  const finalizers = Array.isArray(meta['finalizers']) ? meta['finalizers'] : [];
  if (meta['deletionTimestamp'] && finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) return 'waitingForDependentsDeletion';
  return 'solid';
}

export type Decision =
  | { action: 'keep' }
  /** Some owners remain: only the references to the others go. */
  | { action: 'removeRefs'; uids: string[] }
  | { action: 'delete'; propagationPolicy: 'Foreground' | 'Background' | 'Orphan' };

/** What attemptToDeleteItem does with a dependent, given its owners' states and whether it has dependents. */
export function decide(refs: readonly OwnerRef[], states: readonly OwnerState[], item: JSONObject, hasDependents: boolean): Decision {
  const solid = states.filter((s) => s === 'solid').length;
  const gone = refs.filter((_, i) => states[i] !== 'solid').map((r) => r.uid);
  if (solid > 0) return gone.length ? { action: 'removeRefs', uids: gone } : { action: 'keep' };
  // Every owner is gone or going: so does the dependent, in the foreground when an owner waits for it and it
  // has dependents of its own, else by the policy its finalizers ask for, else in the background.
  if (states.includes('waitingForDependentsDeletion') && hasDependents) return { action: 'delete', propagationPolicy: 'Foreground' };
  const meta = isObject(item['metadata']) ? item['metadata'] : {};
  const finalizers = Array.isArray(meta['finalizers']) ? meta['finalizers'] : [];
  if (finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS)) return { action: 'delete', propagationPolicy: 'Orphan' };
  if (finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) return { action: 'delete', propagationPolicy: 'Foreground' };
  return { action: 'delete', propagationPolicy: 'Background' };
}
