// The schema engine bound into CRD validation: structural and keyword rules, plus defaults that must be
// pruned and valid, checked with the same compiled validator and pruner custom resources use.
import { compileSchema, type JSONSchemaProps } from '../schema/compile.js';
import { createCRDSchemaValidator } from '../schema/crd-schema-validate.js';
import type { SchemaStructureValidator } from './validation.js';

export const crdSchemaValidator: SchemaStructureValidator = createCRDSchemaValidator({
  validateValue: (schema: JSONSchemaProps, value: unknown, path: string) => compileSchema(schema, { fieldPathPrefix: path }).validateValue(value),
  pruneValue: (schema: JSONSchemaProps, value: unknown, isResourceRoot: boolean) => {
    const copy = structuredClone(value);
    compileSchema(schema).prune(copy, { resourceRoot: isResourceRoot });
    return copy;
  },
});
