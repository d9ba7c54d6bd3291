// The schema engine's part of CRD create/update validation (apiextensions validation.go
// validateCustomResourceDefinitionValidation, below the root checks src/crd/validation.ts does):
// structural schema rules, defaults, OpenAPI keyword and x-kubernetes-* restrictions, with the
// update-time ratcheting kube applies when the old CRD already broke a rule.
import { type FieldError, invalid } from '../api/field-error.js';
import { JSON_SCHEMA_PROPS_FIELDS } from './go-types.js';
import type { InternalSpec } from './internal.js';
import type { JSONSchemaProps } from './types.js';
import { type SchemaCheckContext, type SchemaStructureValidator, schemaHas } from './validation.js';
import { type SchemaValueChecks, schemaHasUnprunedDefaults, validateDefaults } from './crd-schema-defaults.js';
import { OPENAPI_V3_TYPES, type ValidationRulesCheck, mapListKeysMapSetErrors, validateOpenAPISchema } from './crd-schema-openapi.js';
import { isObj, rawItems, rawString, rawStringPtr } from '../schema/structural-model.js';
import { structuralOnce } from './structural-scope.js';
import { validateStructural } from './structural-validate.js';

export type { SchemaValueChecks } from './crd-schema-defaults.js';
export type { ValidationRulesCheck, ValidationRulesContext } from './crd-schema-openapi.js';

export interface CRDSchemaDeps extends SchemaValueChecks {
  /** Compiles x-kubernetes-validations (CEL); without it rules get only their static checks. */
  checkRules?: ValidationRulesCheck;
}

/** Defaults are neither value-validated nor prune-checked: for callers without the value engine. */
export const NO_VALUE_CHECKS: CRDSchemaDeps = {
  validateValue: () => [],
  pruneValue: (_schema, value) => value,
};

/** The `validateSchemaStructure` hook for validateCRD / validateCRDUpdate, bound to the value engine. */
export function createCRDSchemaValidator(deps: CRDSchemaDeps): SchemaStructureValidator {
  return (schema, path, ctx) => validateCRDSchema(schema, path, ctx, deps);
}

/**
 * Everything kube checks on one openAPIV3Schema at `path` beyond the root restrictions
 * (status-subresource root fields, root nullable) that src/crd/validation.ts reports itself.
 */
export function validateCRDSchema(schema: JSONSchemaProps, path: string, ctx: SchemaCheckContext, deps: CRDSchemaDeps = NO_VALUE_CHECKS): FieldError[] {
  const opts: CRDSchemaOptions = {
    ...(ctx.update ? ratchets(ctx.update.oldSpec, deps) : CREATE_OPTIONS),
    statusEnabled: ctx.statusEnabled,
    requireStructuralSchema: ctx.requireStructuralSchema,
    allowDefaults: ctx.allowDefaults,
  };
  if (ctx.requireValidPropertyType !== undefined) opts.requireValidPropertyType = ctx.requireValidPropertyType;
  if (ctx.disallowDefaultsReason) opts.disallowDefaultsReason = ctx.disallowDefaultsReason;
  if (ctx.update) opts.update = ctx.update;
  return checkCRDSchema(schema, path, opts, deps);
}

/** kube's validationOptions as far as one schema is concerned (requirePrunedDefaults possibly asked when needed). */
interface CRDSchemaOptions extends Omit<SchemaOptions, 'requirePrunedDefaults'> {
  requirePrunedDefaults: boolean | (() => boolean);
  statusEnabled: boolean;
  requireStructuralSchema: boolean;
  allowDefaults: boolean;
  disallowDefaultsReason?: string;
  update?: SchemaCheckContext['update'];
}

/** validateCustomResourceDefinitionValidation below the root checks, with explicit options. */
export function checkCRDSchema(schema: JSONSchemaProps, path: string, opts: CRDSchemaOptions, deps: CRDSchemaDeps = NO_VALUE_CHECKS): FieldError[] {
  const errs: FieldError[] = [];
  let conversionError: FieldError | undefined;
  let compileRules = false;
  if (opts.requireStructuralSchema) {
    const r = structuralOnce(schema);
    if ('error' in r) {
      conversionError = invalid(path, '', r.error);
    } else {
      const structuralErrs = validateStructural(path, r.structural);
      if (structuralErrs.length > 0) {
        errs.push(...structuralErrs);
      } else {
        const defaultErrs = validateDefaults(path, r.structural, opts.requirePrunedDefaults, deps);
        errs.push(...defaultErrs);
        // Rules are compiled only against a schema that is structural with valid defaults.
        compileRules = defaultErrs.length === 0;
      }
    }
  }
  const openAPIOpts: Parameters<typeof validateOpenAPISchema>[2] = {
    allowDefaults: opts.allowDefaults,
    ...(opts.disallowDefaultsReason ? { disallowDefaultsReason: opts.disallowDefaultsReason } : {}),
    requireValidPropertyType: opts.requireValidPropertyType,
    requireAtomicSetType: opts.requireAtomicSetType,
    requireMapListKeysMapSetValidation: opts.requireMapListKeysMapSetValidation,
  };
  if (compileRules && deps.checkRules) openAPIOpts.checkRules = deps.checkRules;
  if (opts.update) openAPIOpts.update = opts.update;
  errs.push(...validateOpenAPISchema(schema, path, openAPIOpts));
  // The converter's errors overlap with the keyword checks: kube shows them only when nothing
  // else (including the root checks done outside) was reported.
  if (conversionError && errs.length === 0 && !rootChecksFail(schema, opts.statusEnabled)) errs.push(conversionError);
  return errs;
}

// ---------------------------------------------------------------------------------------------
// options and ratcheting

interface SchemaOptions {
  requireValidPropertyType: boolean;
  requirePrunedDefaults: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

const CREATE_OPTIONS: SchemaOptions = {
  requireValidPropertyType: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
};

/**
 * An old spec's ratchets, requirePrunedDefaults a question answered once when first asked: its answer prunes every
 * default of every old schema, and it matters only to a new default that pruning changes (most updates have none).
 */
type Ratchets = Omit<SchemaOptions, 'requirePrunedDefaults'> & { requirePrunedDefaults: () => boolean };

// validation.ts hands the same old spec to every schema of one update: compute its ratchets once.
const ratchetCache = new WeakMap<CRDSchemaDeps, WeakMap<InternalSpec, Ratchets>>();

function ratchets(oldSpec: InternalSpec, deps: CRDSchemaDeps): Ratchets {
  let byDeps = ratchetCache.get(deps);
  if (!byDeps) ratchetCache.set(deps, (byDeps = new WeakMap()));
  const cached = byDeps.get(oldSpec);
  if (cached) return cached;
  const schemas = oldSchemas(oldSpec);
  const any = (pred: (s: Record<string, unknown>) => boolean) => schemas.some((s) => schemaHas(s, pred));
  let prunedDefaults: boolean | undefined;
  const opts: Ratchets = {
    requireValidPropertyType: !any((s) => {
      const t = rawString(s, 'type');
      return t !== '' && !OPENAPI_V3_TYPES.includes(t);
    }),
    requirePrunedDefaults: () => (prunedDefaults ??= !schemas.some((s) => schemaHasUnprunedDefaults(s, deps))),
    requireAtomicSetType: !any(hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !any((s) => mapListKeysMapSetErrors(s, '').length > 0),
  };
  byDeps.set(oldSpec, opts);
  return opts;
}

/** Rules the old CRD already broke stay relaxed on update, so stored CRDs remain updatable. */
export function ratchetedOptions(oldSpec: InternalSpec, deps: CRDSchemaDeps = NO_VALUE_CHECKS): SchemaOptions {
  const r = ratchets(oldSpec, deps);
  return { ...r, requirePrunedDefaults: r.requirePrunedDefaults() };
}

function oldSchemas(spec: InternalSpec): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  const top = spec.validation?.openAPIV3Schema;
  if (isObj(top)) out.push(top);
  for (const v of spec.versions ?? []) {
    const s = v?.schema?.openAPIV3Schema;
    if (isObj(s)) out.push(s);
  }
  return out;
}

/** A set list whose items are lists or maps that are not atomic. */
function hasNonAtomicSetType(s: Record<string, unknown>): boolean {
  const items = rawItems(s);
  if (rawStringPtr(s, 'x-kubernetes-list-type') !== 'set' || !items?.schema) return false;
  const is = items.schema;
  switch (rawString(is, 'type')) {
    case 'array': {
      const lt = rawStringPtr(is, 'x-kubernetes-list-type');
      return lt !== undefined && lt !== 'atomic';
    }
    case 'object':
      return rawStringPtr(is, 'x-kubernetes-map-type') !== 'atomic';
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// the root checks validation.ts performs (only whether they fail)

const ALLOWED_AT_ROOT_WITH_STATUS = new Set([
  'Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength',
  'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties',
  'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations',
]);

function rootChecksFail(schema: JSONSchemaProps, statusEnabled: boolean): boolean {
  if (schema['nullable'] === true) return true;
  if (!statusEnabled) return false;
  for (const [goName, k, type] of JSON_SCHEMA_PROPS_FIELDS) {
    const v = schema[k];
    const zero = v === undefined || v === null || (type.k === 'string' && v === '') || (type.k === 'bool' && v !== true);
    if (zero) continue;
    if (goName === 'Type') {
      if (v !== 'object') return true;
      continue;
    }
    if (!ALLOWED_AT_ROOT_WITH_STATUS.has(goName)) return true;
  }
  return false;
}
