// What a delete request does to an object before (or instead of) removing it, as genericregistry.Store
// decides it: the garbage collector's orphan / foregroundDeletion finalizers from the delete options,
// and the deletion mark (deletionTimestamp, deletionGracePeriodSeconds) on objects that must wait for
// finalizers. Pure functions over plain metadata; the store does the reads and writes.
// The garbage collector (controllers/garbage-collector/) acts on those finalizers and on the dependents.
import type { ObjectMeta } from '../api/meta.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../schema/objectmeta.js';
import { rfc3339 } from '../util/time.js';

export { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS };

/** metav1.DeleteOptions as the store uses them. */
export interface DeleteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  /** Orphan, Background or Foreground (validated by the handler). */
  propagationPolicy?: string;
  /** The deprecated orphanDependents; never set together with propagationPolicy. */
  orphanDependents?: boolean;
  dryRun?: boolean;
}

/** shouldOrphanDependents, for a store with no default garbage collection policy (all of ours). */
function shouldOrphanDependents(finalizers: readonly string[], opts: DeleteOptions): boolean {
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy !== undefined) return opts.propagationPolicy === 'Orphan';
  // A finalizer already on the object decides; validation keeps the two from being set together.
  for (const f of finalizers) {
    if (f === FINALIZER_ORPHAN_DEPENDENTS) return true;
    if (f === FINALIZER_DELETE_DEPENDENTS) return false;
  }
  return false;
}

/** shouldDeleteDependents: foreground deletion. orphanDependents, either way, turns it off. */
function shouldDeleteDependents(finalizers: readonly string[], opts: DeleteOptions): boolean {
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy !== undefined) return opts.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === FINALIZER_DELETE_DEPENDENTS) return true;
    if (f === FINALIZER_ORPHAN_DEPENDENTS) return false;
  }
  return false;
}

/**
 * deletionFinalizersForGarbageCollection: the finalizers after a delete with these options, or
 * undefined when the set does not change (then the object keeps its list as it is, order included).
 */
export function gcFinalizers(finalizers: readonly string[], opts: DeleteOptions): string[] | undefined {
  const next = finalizers.filter((f) => f !== FINALIZER_ORPHAN_DEPENDENTS && f !== FINALIZER_DELETE_DEPENDENTS);
  if (shouldOrphanDependents(finalizers, opts)) next.push(FINALIZER_ORPHAN_DEPENDENTS);
  if (shouldDeleteDependents(finalizers, opts)) next.push(FINALIZER_DELETE_DEPENDENTS);
  const before = new Set(finalizers);
  const after = new Set(next);
  if (before.size === after.size && [...after].every((f) => before.has(f))) return undefined;
  return next;
}

/**
 * markAsDeleting, for objects without graceful deletion: the first mark bumps a set generation and sets
 * the timestamp; the grace period is always 0 (a later timestamp, from a graceful deletion, moves to now).
 */
export function markAsDeleting(meta: ObjectMeta, now: Date = new Date()): void {
  if (!meta.deletionTimestamp && typeof meta.generation === 'number' && meta.generation > 0) meta.generation += 1;
  const nowText = rfc3339(now);
  if (!meta.deletionTimestamp || Date.parse(meta.deletionTimestamp) > Date.parse(nowText)) meta.deletionTimestamp = nowText;
  meta.deletionGracePeriodSeconds = 0;
}

/** Sets metadata.finalizers as the typed ObjectMeta would serialize it: an empty list is omitted. */
export function setFinalizers(meta: ObjectMeta, finalizers: string[]): void {
  if (finalizers.length > 0) meta.finalizers = finalizers;
  else delete meta.finalizers;
}

/**
 * ShouldDeleteDuringUpdate: an update that leaves no finalizers on an object being deleted (with no
 * grace period left) deletes it.
 */
export function shouldDeleteDuringUpdate(next: ObjectMeta, old: ObjectMeta): boolean {
  if ((next.finalizers?.length ?? 0) > 0) return false;
  if (!old.deletionTimestamp) return false;
  return old.deletionGracePeriodSeconds === undefined || old.deletionGracePeriodSeconds === null || old.deletionGracePeriodSeconds === 0;
}
