// The schema engine bound into CRD validation: structural and keyword rules, plus defaults that must be
// pruned and valid, checked with the same compiled validator and pruner custom resources use, and the
// x-kubernetes-validations rules compiled with their cost limits; a schema that passed is known by content.
import { type JSONSchemaProps, pruneOnlyWith, validateValueOnce } from '../schema/compile.js';
import { createCRDSchemaValidator } from './crd-schema-validate.js';
import { checkValidationRules, withRuleCostTotal } from './cel-crd-checks.js';
import type { SchemaStructureValidator } from './validation.js';
import { passedByContent } from './schema-check-memo.js';
import { deepCopyJSON } from '../util/json.js';

/** Pruning that leaves its input as it is: a copy is pruned (compiled once, on the first object or array). */
function copyPruner(schema: JSONSchemaProps, isResourceRoot: boolean): (value: unknown) => unknown {
  const prune = pruneOnlyWith(schema, isResourceRoot);
  return (value) => {
    const copy = deepCopyJSON(value);
    prune(copy);
    return copy;
  };
}

export const crdSchemaValidator: SchemaStructureValidator = passedByContent(
  withRuleCostTotal(
    createCRDSchemaValidator({
      // Each compiles only the part of compileSchema it runs (test/schema/compile-once.test.ts: the same answers).
      validateValue: (schema: JSONSchemaProps, value: unknown, path: string) => validateValueOnce(schema, value, path),
      pruneValue: (schema: JSONSchemaProps, value: unknown, isResourceRoot: boolean) => copyPruner(schema, isResourceRoot)(value),
      valuePruner: copyPruner,
      checkRules: checkValidationRules,
    }),
  ),
);
