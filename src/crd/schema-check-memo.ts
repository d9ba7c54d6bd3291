// CRD schema checks remembered by content: a schema that passed them passes them again, so the same
// openAPIV3Schema created again (another version of the same CRD, the same CRD in another logical cluster,
// the same CRD set in another group) skips its OpenAPI walk and CEL compiles (most of a create's CPU).
// Creates only: an update's checks depend on the old spec (ratcheting, stored expressions). Failures are not
// remembered (they are rare, and their errors are the caller's to keep).
import { createHash } from 'node:crypto';
import { stringifyJSON } from '../util/json-int64.js';
import type { SchemaStructureValidator } from './validation.js';

/** Distinct passing schemas remembered (SHA-256 keys, oldest out first). */
const REMEMBERED = 4096;

export function passedByContent(validate: SchemaStructureValidator, remembered = REMEMBERED): SchemaStructureValidator {
  const passed = new Set<string>();
  return (schema, path, ctx) => {
    if (ctx.update) return validate(schema, path, ctx);
    // Everything the checks read: the schema, where it is (errors and cost limits name the path) and the options.
    const input = [path, ctx.statusEnabled, ctx.requireStructuralSchema, ctx.allowDefaults, ctx.disallowDefaultsReason ?? '', ctx.requireValidPropertyType ?? null, schema];
    const key = createHash('sha256').update(stringifyJSON(input)).digest('base64');
    if (passed.has(key)) return [];
    const errs = validate(schema, path, ctx);
    if (errs.length === 0) {
      if (passed.size >= remembered) passed.delete(passed.values().next().value!);
      passed.add(key);
    }
    return errs;
  };
}
