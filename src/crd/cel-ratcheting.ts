// Validation ratcheting of OpenAPI schema errors on updates (CRDValidationRatcheting, on in 1.33;
// apiextensions pkg/apiserver/validation/ratcheting.go): kube validates each correlatable node
// with a validator that turns its errors into (unreported) warnings when the node is unchanged
// from its correlated old value. Errors are attributed here by their field path: an error is
// dropped when it lies within (or on) a correlated node that is deep-equal to the old one.
import type { FieldError } from '../api/field-error.js';
import { isObject } from '../util/json.js';
import type { Correlated } from './cel-correlation.js';

/** The paths (as kube-openapi names them: `.key` for fields and map keys, `[i]` for items) of unchanged subtrees. */
function unchangedPaths(c: Correlated, path: string, isRoot: boolean, out: string[]): void {
  if (c.deepEqual()) {
    out.push(path);
    return;
  }
  const v = c.value;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const child = c.index(i);
      if (child) unchangedPaths(child, `${path}[${i}]`, false, out);
    }
  } else if (isObject(v)) {
    for (const k of Object.keys(v)) {
      // apiVersion and kind at the root are never ratcheted: their changes are invisible.
      if (isRoot && (k === 'apiVersion' || k === 'kind')) continue;
      const child = c.key(k);
      if (child) unchangedPaths(child, path ? `${path}.${k}` : k, false, out);
    }
  }
}

const within = (field: string, p: string): boolean =>
  field === p || (field.length > p.length && field.startsWith(p) && (field[p.length] === '.' || field[p.length] === '['));

/**
 * The schema errors of an update that survive ratcheting. `root` correlates the validated value
 * with its old value; `prefix` is the field path the value stands for ('' for the whole object,
 * 'status' for status updates).
 */
export function ratchetSchemaErrors(errs: FieldError[], root: Correlated | undefined, prefix: string): FieldError[] {
  if (errs.length === 0 || !root) return errs;
  const unchanged: string[] = [];
  unchangedPaths(root, prefix, prefix === '', unchanged);
  if (unchanged.length === 0) return errs;
  // An unchanged root keeps nothing, including the errors kube reports at <nil>.
  if (unchanged.includes(prefix)) return [];
  return errs.filter((e) => !unchanged.some((p) => within(e.field, p)));
}
