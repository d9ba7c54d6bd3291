// CRD schema checks remembered by content: a schema that passed them passes them again, so the same
// openAPIV3Schema created again (another version of the same CRD, the same CRD in another logical cluster,
// the same CRD set in another group) skips its OpenAPI walk and CEL compiles (most of a create's CPU).
// Where the schema is (spec.versions[i]) is not part of the key: the path only prefixes errors, and a pass
// has none (the per-schema cost total is the schema's own), so one version's pass holds for its copies.
// Creates only: an update's checks depend on the old spec (ratcheting, stored expressions). Failures are not
// remembered (they are rare, and their errors are the caller's to keep).
import { createHash } from 'node:crypto';
import { stringifyJSON } from '../util/json-int64.js';
import type { SchemaStructureValidator } from './validation.js';

/** Distinct passing schemas remembered (SHA-256 keys, oldest out first). */
const REMEMBERED = 4096;

/** Keys of passing schemas kept beyond the process (the test kit's, per build: src/testing/schema-checks-file.ts). */
export interface PassedSchemas {
  has(key: string): boolean;
  add(key: string): void;
}

let beyondProcess: PassedSchemas | undefined;

/**
 * Also remembers passing schemas in `store` (undefined: in memory only). Only for a store whose keys were made by
 * this same code: the test kit's bundle keys its file by the bundle's identity.
 */
export function rememberPassedSchemas(store: PassedSchemas | undefined): void {
  beyondProcess = store;
}

export function passedByContent(validate: SchemaStructureValidator, remembered = REMEMBERED): SchemaStructureValidator {
  const passed = new Set<string>();
  const remember = (key: string): void => {
    if (passed.size >= remembered) passed.delete(passed.values().next().value!);
    passed.add(key);
  };
  return (schema, path, ctx) => {
    if (ctx.update) return validate(schema, path, ctx);
    // Everything a pass depends on: the schema and the options.
    const input = [ctx.statusEnabled, ctx.requireStructuralSchema, ctx.allowDefaults, ctx.disallowDefaultsReason ?? '', ctx.requireValidPropertyType ?? null, schema];
    const key = createHash('sha256').update(stringifyJSON(input)).digest('base64');
    if (passed.has(key)) return [];
    if (beyondProcess?.has(key)) {
      remember(key);
      return [];
    }
    const errs = validate(schema, path, ctx);
    if (errs.length === 0) {
      remember(key);
      beyondProcess?.add(key);
    }
    return errs;
  };
}
