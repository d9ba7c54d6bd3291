// One structural model per openAPIV3Schema while a CRD's schema is being validated: the structural checks
// and the x-kubernetes-validations checks both need it, and converting a large schema is not cheap. Only
// within a validation (withStructuralScope), so a schema object changed between validations is converted again.
import { newStructural, type Raw, type Structural } from '../schema/structural-model.js';

type Result = { structural: Structural } | { error: string };

const scoped = new WeakMap<Raw, Result | null>();

/** Runs fn with root's structural model converted at most once (by structuralOnce) meanwhile. */
export function withStructuralScope<T>(root: Raw, fn: () => T): T {
  if (scoped.has(root)) return fn();
  scoped.set(root, null);
  try {
    return fn();
  } finally {
    scoped.delete(root);
  }
}

/** newStructural(root), shared within root's validation scope. */
export function structuralOnce(root: Raw): Result {
  const known = scoped.get(root);
  if (known) return known;
  const r = newStructural(root);
  if (known === null) scoped.set(root, r);
  return r;
}
