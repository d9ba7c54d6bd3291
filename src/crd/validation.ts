// Static validation of apiextensions.k8s.io/v1 CustomResourceDefinitions, as kube-apiserver 1.33's
// apiextensions validation package does it: same checks, order, field paths and messages.
// Validation runs on the internal form (see internal.ts), so paths of hoisted fields read
// `spec.validation...`, `spec.subresources...`, `spec.additionalPrinterColumns[i]...`.
//
// Not here: the schema rules below the root (structural schema, OpenAPI keyword restrictions,
// defaults, list/map types, CEL). Pass `validateSchemaStructure` to plug the schema engine in.
import { type FieldError, forbidden, invalid, notSupported, required, tooMany, duplicate } from '../api/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../schema/names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../schema/objectmeta.js';
import {
  JSON_SCHEMA_PROPS_FIELDS,
  JSONSchemaPropsType,
  invalidGo,
  StringSliceType,
  VersionsType,
  ValidationPtrType,
  SubresourcesPtrType,
  ColumnsType,
  goRepr,
  semanticEqual,
  semanticEqualLarge,
} from './go-types.js';
import { apiApprovalState, isProtectedCommunityGroup } from './api-approval.js';
import { type InternalConversion, type InternalSpec, schemaForVersion, subresourcesForVersion, toInternalSpec } from './internal.js';
import { selectableFieldErrors } from './selectable-fields.js';
import { newStructural } from '../schema/structural-model.js';
import { validateStructural } from './structural-validate.js';
import {
  type CustomResourceColumnDefinition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionNames,
  type CustomResourceDefinitionVersion,
  type CustomResourceSubresources,
  type CustomResourceValidation,
  type JSONSchemaProps,
  KUBE_API_APPROVED_ANNOTATION,
} from './types.js';
import { validateCABundle, validateWebhookService, validateWebhookURL, caBundleError } from './webhook.js';
import { isPrintChar } from '../util/unicode-print.js';

/** What the schema engine is told about the schema it checks. */
export interface SchemaCheckContext {
  /** The status subresource is enabled for the version(s) this schema serves. */
  statusEnabled: boolean;
  /** Structural schema rules apply (always true for CRDs this server can store). */
  requireStructuralSchema: boolean;
  /** Defaults are allowed in the schema (kube: always on create and update). */
  allowDefaults: boolean;
  /** Why defaults are not allowed, appended to "must not be set". */
  disallowDefaultsReason?: string;
  /** Property types must be valid OpenAPI types (relaxed for v1beta1 requests). */
  requireValidPropertyType?: boolean;
  /** Set on update: the old internal spec, and whether this schema is unchanged from it (kube ratchets CEL cost then). */
  update?: { oldSpec: InternalSpec; schemaUnchanged: boolean };
}

/**
 * The schema engine's checks of one openAPIV3Schema (structural rules, OpenAPI restrictions,
 * defaults, CEL compile and cost, building the validator). `path` is the schema's field path,
 * e.g. `spec.validation.openAPIV3Schema` or `spec.versions[1].schema.openAPIV3Schema`.
 */
export type SchemaStructureValidator = (schema: JSONSchemaProps, path: string, ctx: SchemaCheckContext) => FieldError[];

interface CRDValidationOptions {
  validateSchemaStructure?: SchemaStructureValidator;
  /**
   * The CRD API version of the request. apiextensions.k8s.io/v1beta1 requests (served for compatibility)
   * get the options kube 1.21 gave them: no required or structural schema, no defaults, any property type,
   * no API-approval or preserveUnknownFields checks.
   */
  requestVersion?: 'v1' | 'v1beta1';
  /**
   * A v1beta1 body's top-level spec.version, which kube's internal form keeps as sent (and refuses when it
   * is not versions[0].name); v1 has none, so it is versions[0].name.
   */
  specVersion?: string;
}

const V1BETA1_DEFAULTS_REASON = '(cannot set default values in apiextensions.k8s.io/v1beta1 CRDs, must use apiextensions.k8s.io/v1)';

interface Opts {
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
  allowInvalidCABundle: boolean;
  /** Structural schemas required (before the defaults and x-kubernetes-* rules tighten it). */
  requireStructuralSchema: boolean;
  allowDefaults: boolean;
  disallowDefaultsReason?: string;
  requireValidPropertyType?: boolean;
  hook?: SchemaStructureValidator;
  update?: { oldSpec: InternalSpec; unchangedSchemas: Set<string> };
}

const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const ACCEPTED_CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const MAX_SELECTABLE_FIELDS = 8;
const ALLOWED_AT_ROOT_WITH_STATUS = [
  'Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength',
  'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties',
  'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations',
];

// ---------------------------------------------------------------------------------------------
// Entry points

/** ValidateCustomResourceDefinition: a CRD being created (after defaulting and PrepareForCreate). */
export function validateCRD(crd: CustomResourceDefinition, options: CRDValidationOptions = {}): FieldError[] {
  const spec = toInternalSpec(crd.spec);
  if (options.specVersion !== undefined) spec.version = options.specVersion;
  const beta = options.requestVersion === 'v1beta1';
  const opts: Opts = {
    requireRecognizedConversionReviewVersion: true,
    requireImmutableNames: false,
    requireOpenAPISchema: !beta,
    // The CRD is not established yet.
    allowInvalidCABundle: true,
    requireStructuralSchema: !beta,
    allowDefaults: !beta,
    ...(beta ? { disallowDefaultsReason: V1BETA1_DEFAULTS_REASON, requireValidPropertyType: false } : {}),
    hook: options.validateSchemaStructure,
  };
  return [
    ...validateObjectMeta(crd.metadata, { namespaced: false, nameValidator: crdNameValidator(spec) }),
    ...validateSpec(spec, opts, 'spec'),
    ...validateCRDStatus(crd),
    ...validateStoredVersions(crd.status?.storedVersions, spec.versions, 'status.storedVersions'),
    ...(beta ? [] : [...validateAPIApproval(crd, undefined), ...validatePreserveUnknownFields(crd, undefined)]),
  ];
}

/** ValidateCustomResourceDefinitionUpdate: a CRD replacing old (after PrepareForUpdate). */
export function validateCRDUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition, options: CRDValidationOptions = {}): FieldError[] {
  const spec = toInternalSpec(crd.spec);
  if (options.specVersion !== undefined) spec.version = options.specVersion;
  const oldSpec = toInternalSpec(old.spec);
  const established = isConditionTrue(old, 'Established');
  const beta = options.requestVersion === 'v1beta1';
  // Validation never tightens on what is already stored; v1beta1 requests get kube 1.21's relaxations.
  const oldHasDefaults = specHasSchemaWith(oldSpec, (s) => s['default'] !== undefined && s['default'] !== null);
  const opts: Opts = {
    requireRecognizedConversionReviewVersion: !oldSpec.conversion || hasValidConversionReviewVersionOrEmpty(oldSpec.conversion.conversionReviewVersions),
    requireImmutableNames: established,
    requireOpenAPISchema: !beta && allVersionsSpecifyOpenAPISchema(oldSpec),
    allowInvalidCABundle: allowInvalidCABundle(old, oldSpec),
    requireStructuralSchema: !beta && !specHasNonStructuralSchema(oldSpec),
    allowDefaults: !beta || oldHasDefaults,
    ...(beta && !oldHasDefaults ? { disallowDefaultsReason: V1BETA1_DEFAULTS_REASON } : {}),
    ...(beta ? { requireValidPropertyType: false } : {}),
    hook: options.validateSchemaStructure,
    update: { oldSpec, unchangedSchemas: versionsWithUnchangedSchemas(spec, oldSpec) },
  };
  const errs = [
    ...validateObjectMetaUpdate(crd.metadata, old.metadata),
    ...validateSpec(spec, opts, 'spec'),
  ];
  if (opts.requireImmutableNames) {
    // These affect storage, so they are fixed once the CRD is served.
    errs.push(...immutable(spec.scope, oldSpec.scope, 'spec.scope'));
    errs.push(...immutable(spec.names.kind ?? '', oldSpec.names.kind ?? '', 'spec.names.kind'));
  }
  // Part of the CRD's name, which never changes.
  errs.push(...immutable(spec.group, oldSpec.group, 'spec.group'));
  errs.push(...immutable(spec.names.plural ?? '', oldSpec.names.plural ?? '', 'spec.names.plural'));
  errs.push(
    ...validateCRDStatus(crd),
    ...validateStoredVersions(crd.status?.storedVersions, spec.versions, 'status.storedVersions'),
    ...(beta ? [] : [...validateAPIApproval(crd, old), ...validatePreserveUnknownFields(crd, old)]),
  );
  return errs;
}

/** ValidateUpdateCustomResourceDefinitionStatus: the /status subresource update. */
export function validateCRDStatusUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  return [...validateObjectMetaUpdate(crd.metadata, old.metadata), ...validateCRDStatus(crd)];
}

/** ValidateCustomResourceDefinitionStatus. */
function validateCRDStatus(crd: CustomResourceDefinition): FieldError[] {
  return validateCRDNames(crd.status?.acceptedNames ?? {}, 'status.acceptedNames');
}

// ---------------------------------------------------------------------------------------------
// metadata

function crdNameValidator(spec: InternalSpec) {
  const requiredName = `${spec.names.plural ?? ''}.${spec.group}`;
  return (name: string, prefix: boolean): string[] => {
    const errs = nameIsDNSSubdomain(name, prefix);
    if (name !== requiredName) errs.push('must be spec.names.plural+"."+spec.group');
    return errs;
  };
}

// ---------------------------------------------------------------------------------------------
// spec

function validateSpec(spec: InternalSpec, opts: Opts, path: string): FieldError[] {
  const errs: FieldError[] = [];

  if (spec.group.length === 0) {
    errs.push(required(`${path}.group`));
  } else {
    const groupErrs = isDNS1123Subdomain(spec.group);
    if (groupErrs.length > 0) errs.push(invalid(`${path}.group`, spec.group, groupErrs.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(invalid(`${path}.group`, spec.group, 'should be a domain with at least one dot'));
  }

  errs.push(...validateEnum(`${path}.scope`, spec.scope, ['Cluster', 'Namespaced'], true));

  const puf = spec.preserveUnknownFields;
  const hasDefaults = specHasSchemaWith(spec, (s) => s['default'] !== undefined && s['default'] !== null);
  // Pruning (preserveUnknownFields false), defaults and x-kubernetes-* extensions need a structural schema.
  const requireStructuralSchema =
    opts.requireStructuralSchema || !puf || (opts.allowDefaults && hasDefaults) || specHasSchemaWith(spec, hasKubernetesExtensions);

  if (opts.requireOpenAPISchema) {
    if (!spec.validation?.openAPIV3Schema) {
      spec.versions.forEach((v, i) => {
        if (!v.schema?.openAPIV3Schema) errs.push(required(`${path}.versions[${i}].schema.openAPIV3Schema`, 'schemas are required'));
      });
    }
  } else if (!puf && !spec.validation?.openAPIV3Schema) {
    spec.versions.forEach((v, i) => {
      if (v.served && !v.schema?.openAPIV3Schema) {
        errs.push(required(`${path}.versions[${i}].schema.openAPIV3Schema`, 'because otherwise all fields are pruned'));
      }
    });
  }
  if (opts.allowDefaults && hasDefaults && puf) {
    errs.push(invalid(`${path}.preserveUnknownFields`, true, 'must be false in order to use defaults in the schema'));
  }

  let storageCount = 0;
  const seen = new Set<string>();
  let uniqueNames = true;
  spec.versions.forEach((version, i) => {
    if (version.storage === true) storageCount++;
    const name = String(version.name ?? '');
    if (seen.has(name)) uniqueNames = false;
    else seen.add(name);
    const nameErrs = isDNS1035Label(name);
    if (nameErrs.length > 0) errs.push(invalid(`${path}.versions[${i}].name`, name, nameErrs.join(',')));
    const statusEnabled = subresourcesForVersion(spec, name)?.status != null;
    errs.push(...validateVersion(version, `${path}.versions[${i}]`, statusEnabled, requireStructuralSchema, opts));
  });

  // Never true for v1 input (conversion hoists identical values), kept for the internal form's sake.
  if (spec.validation !== undefined && spec.versions.some((v) => v.schema !== undefined)) {
    errs.push(forbidden(`${path}.validation`, 'top-level and per-version schemas are mutually exclusive'));
  }
  if (spec.subresources !== undefined && spec.versions.some((v) => v.subresources !== undefined)) {
    errs.push(forbidden(`${path}.subresources`, 'top-level and per-version subresources are mutually exclusive'));
  }
  if ((spec.additionalPrinterColumns?.length ?? 0) > 0 && spec.versions.some((v) => (v.additionalPrinterColumns?.length ?? 0) > 0)) {
    errs.push(forbidden(`${path}.additionalPrinterColumns`, 'top-level and per-version additionalPrinterColumns are mutually exclusive'));
  }
  const versionsRepr = () => goRepr(spec.versionsAbsent ? undefined : spec.versions, VersionsType);
  if (identicalPerVersion(spec.versions, (v) => v.schema, (a, b) => semanticEqualLarge(a, b, ValidationPtrType))) {
    errs.push(invalidGo(`${path}.versions`, versionsRepr(), 'per-version schemas may not all be set to identical values (top-level validation should be used instead)'));
  }
  if (identicalPerVersion(spec.versions, (v) => v.subresources, (a, b) => semanticEqual(a, b, SubresourcesPtrType))) {
    errs.push(
      invalidGo(`${path}.versions`, versionsRepr(), 'per-version subresources may not all be set to identical values (top-level subresources should be used instead)'),
    );
  }
  if (
    identicalPerVersion(
      spec.versions,
      (v) => ((v.additionalPrinterColumns?.length ?? 0) > 0 ? v.additionalPrinterColumns : undefined),
      (a, b) => semanticEqual(a, b, ColumnsType),
    )
  ) {
    errs.push(
      invalidGo(
        `${path}.versions`,
        versionsRepr(),
        'per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)',
      ),
    );
  }

  if (!uniqueNames) errs.push(invalidGo(`${path}.versions`, versionsRepr(), 'must contain unique version names'));
  if (storageCount !== 1) errs.push(invalidGo(`${path}.versions`, versionsRepr(), 'must have exactly one version marked as storage version'));
  if (spec.version.length !== 0) {
    // spec.version is versions[0].name after conversion: its name errors show up twice, as in kube.
    const vErrs = isDNS1035Label(spec.version);
    if (vErrs.length > 0) errs.push(invalid(`${path}.version`, spec.version, vErrs.join(',')));
    if (spec.versions.length >= 1 && spec.versions[0]!.name !== spec.version) {
      errs.push(invalid(`${path}.version`, spec.version, 'must match the first version in spec.versions'));
    }
  }

  const names = spec.names;
  if (!names.plural) errs.push(required(`${path}.names.plural`));
  if (!names.singular) errs.push(required(`${path}.names.singular`));
  if (!names.kind) errs.push(required(`${path}.names.kind`));
  if (!names.listKind) errs.push(required(`${path}.names.listKind`));
  errs.push(...validateCRDNames(names, `${path}.names`));

  const anyStatus = spec.subresources?.status != null || spec.versions.some((v) => v.subresources?.status != null);
  errs.push(...validateSchemaRoot(spec.validation, anyStatus, requireStructuralSchema, opts, `${path}.validation`, spec.version));
  errs.push(...validateSubresources(spec.subresources, `${path}.subresources`));
  (spec.additionalPrinterColumns ?? []).forEach((col, i) => errs.push(...validateColumn(col, `${path}.additionalPrinterColumns[${i}]`)));

  if ((spec.selectableFields?.length ?? 0) > 0) {
    if (spec.validation === undefined) {
      errs.push(invalid(`${path}.selectableFields`, '', 'selectableFields may only be set when validations.schema is included'));
    } else {
      errs.push(...validateSelectableFields(spec.selectableFields!, spec.validation.openAPIV3Schema, `${path}.selectableFields`));
    }
  }

  if (spec.conversion && spec.conversion.strategy !== 'None' && puf) {
    errs.push(invalid(`${path}.conversion.strategy`, spec.conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec.conversion, opts, `${path}.conversion`));
  return errs;
}

function validateEnum(path: string, value: string, accepted: string[], isRequired: boolean): FieldError[] {
  if (value === '') return isRequired ? [required(path)] : [];
  return accepted.includes(value) ? [] : [notSupported(path, value, accepted)];
}

function immutable(value: string, old: string, path: string): FieldError[] {
  return value === old ? [] : [invalid(path, value, 'field is immutable')];
}

/** hasIdenticalPerVersion*: every version sets a value, all equal to the first. */
function identicalPerVersion<T>(versions: CustomResourceDefinitionVersion[], get: (v: CustomResourceDefinitionVersion) => T | undefined, eq: (a: T, b: T) => boolean): boolean {
  if (versions.length === 0) return false;
  const first = get(versions[0]!);
  return versions.every((v) => {
    const x = get(v);
    return x !== undefined && first !== undefined && eq(x, first);
  });
}

// ---------------------------------------------------------------------------------------------
// versions

function validateVersion(version: CustomResourceDefinitionVersion, path: string, statusEnabled: boolean, requireStructuralSchema: boolean, opts: Opts): FieldError[] {
  const errs: FieldError[] = [];
  const warning = typeof version.deprecationWarning === 'string' ? version.deprecationWarning : undefined;
  for (const msg of deprecationWarningErrors(version.deprecated === true, warning)) {
    errs.push(invalid(`${path}.deprecationWarning`, warning ?? null, msg));
  }
  errs.push(...validateSchemaRoot(version.schema, statusEnabled, requireStructuralSchema, opts, `${path}.schema`, String(version.name ?? '')));
  errs.push(...validateSubresources(version.subresources, `${path}.subresources`));
  (version.additionalPrinterColumns ?? []).forEach((col, i) => errs.push(...validateColumn(col, `${path}.additionalPrinterColumns[${i}]`)));
  if ((version.selectableFields?.length ?? 0) > 0) {
    if (!version.schema?.openAPIV3Schema) {
      // kube's wording; it is also what happens when the schema was hoisted to spec.validation.
      errs.push(invalid(`${path}.selectableFields`, '', 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'));
    } else {
      errs.push(...validateSelectableFields(version.selectableFields!, version.schema.openAPIV3Schema, `${path}.selectableFields`));
    }
  }
  return errs;
}

function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const errs: string[] = [];
  const bytes = Buffer.byteLength(warning);
  if (bytes > 256) errs.push('must be <= 256 characters long');
  if (bytes === 0) errs.push('must not be an empty string');
  let offset = 0;
  let invalidUTF8 = false;
  for (const ch of warning) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) invalidUTF8 = true;
    // unicode.IsPrint is checked first, so control characters report as non-printable.
    if (!isPrintChar(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${offset}`);
      break;
    }
    offset += Buffer.byteLength(ch);
  }
  if (invalidUTF8) errs.push('must only contain printable UTF-8 characters');
  return errs;
}

// ---------------------------------------------------------------------------------------------
// schema root

function validateSchemaRoot(
  validation: CustomResourceValidation | undefined,
  statusEnabled: boolean,
  requireStructuralSchema: boolean,
  opts: Opts,
  path: string,
  version: string,
): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (validation === undefined || validation === null || !schema) return [];
  const errs: FieldError[] = [];
  if (statusEnabled) {
    // Status validation is taken from properties.status: only fields that survive that split are allowed at the root.
    for (const [goName, key, type] of JSON_SCHEMA_PROPS_FIELDS) {
      const value = schema[key];
      if (isZero(value, type.k)) continue;
      if (goName === 'Type') {
        if (value !== 'object') {
          errs.push(invalid(`${path}.openAPIV3Schema.type`, value, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!ALLOWED_AT_ROOT_WITH_STATUS.includes(goName)) {
        errs.push(
          invalidGo(
            `${path}.openAPIV3Schema`,
            goRepr(schema, JSONSchemaPropsType),
            `only [${ALLOWED_AT_ROOT_WITH_STATUS.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
          ),
        );
        break;
      }
    }
  }
  if (schema['nullable'] === true) errs.push(forbidden(`${path}.openAPIV3Schema.nullable`, 'nullable cannot be true at the root'));
  if (opts.hook) {
    const ctx: SchemaCheckContext = { statusEnabled, requireStructuralSchema, allowDefaults: opts.allowDefaults };
    if (opts.disallowDefaultsReason) ctx.disallowDefaultsReason = opts.disallowDefaultsReason;
    if (opts.requireValidPropertyType !== undefined) ctx.requireValidPropertyType = opts.requireValidPropertyType;
    if (opts.update) ctx.update = { oldSpec: opts.update.oldSpec, schemaUnchanged: opts.update.unchangedSchemas.has(version) };
    errs.push(...opts.hook(schema, `${path}.openAPIV3Schema`, ctx));
  }
  return errs;
}

/** reflect zero value of a JSONSchemaProps field, from its JSON form. */
function isZero(value: unknown, kind: string): boolean {
  if (value === undefined || value === null) return true;
  switch (kind) {
    case 'string':
      return value === '';
    case 'bool':
      return value !== true;
    default:
      // Pointers, slices and maps are non-zero once present, even when empty.
      return false;
  }
}

type SchemaPred = (s: Record<string, unknown>) => boolean;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** SchemaHas: pred holds somewhere in the schema tree. */
export function schemaHas(s: unknown, pred: SchemaPred): boolean {
  if (!isObj(s)) return false;
  if (pred(s)) return true;
  const items = s['items'];
  if (Array.isArray(items) ? items.some((x) => schemaHas(x, pred)) : schemaHas(items, pred)) return true;
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = s[key];
    if (Array.isArray(list) && list.some((x) => schemaHas(x, pred))) return true;
  }
  if (schemaHas(s['not'], pred)) return true;
  for (const key of ['properties', 'patternProperties', 'definitions']) {
    const m = s[key];
    if (isObj(m) && Object.values(m).some((x) => schemaHas(x, pred))) return true;
  }
  for (const key of ['additionalProperties', 'additionalItems']) if (schemaHas(s[key], pred)) return true;
  const deps = s['dependencies'];
  if (isObj(deps) && Object.values(deps).some((x) => schemaHas(x, pred))) return true;
  return false;
}

function specHasSchemaWith(spec: InternalSpec, pred: SchemaPred): boolean {
  if (schemaHas(spec.validation?.openAPIV3Schema, pred)) return true;
  return spec.versions.some((v) => schemaHas(v.schema?.openAPIV3Schema, pred));
}

const hasKubernetesExtensions: SchemaPred = (s) =>
  s['x-kubernetes-embedded-resource'] === true ||
  (s['x-kubernetes-preserve-unknown-fields'] !== undefined && s['x-kubernetes-preserve-unknown-fields'] !== null) ||
  s['x-kubernetes-int-or-string'] === true ||
  (Array.isArray(s['x-kubernetes-list-map-keys']) && s['x-kubernetes-list-map-keys'].length > 0) ||
  (s['x-kubernetes-list-type'] !== undefined && s['x-kubernetes-list-type'] !== null) ||
  (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0);

/** A schema kube's structural conversion or validation refuses (one stored through v1beta1). */
function specHasNonStructuralSchema(spec: InternalSpec): boolean {
  const nonStructural = (schema: JSONSchemaProps | undefined): boolean => {
    if (!schema) return false;
    const r = newStructural(schema);
    return 'error' in r || validateStructural('', r.structural).length > 0;
  };
  return nonStructural(spec.validation?.openAPIV3Schema) || spec.versions.some((v) => nonStructural(v.schema?.openAPIV3Schema));
}

function allVersionsSpecifyOpenAPISchema(spec: InternalSpec): boolean {
  if (spec.validation?.openAPIV3Schema) return true;
  return spec.versions.every((v) => !!v.schema?.openAPIV3Schema);
}

function versionsWithUnchangedSchemas(spec: InternalSpec, oldSpec: InternalSpec): Set<string> {
  const out = new Set<string>();
  for (const v of spec.versions) {
    const n = schemaForVersion(spec, v.name);
    const o = schemaForVersion(oldSpec, v.name);
    if (n.found && o.found && semanticEqualLarge(n.schema, o.schema, ValidationPtrType)) out.add(v.name);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// names

/** ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames). */
function validateCRDNames(names: Partial<CustomResourceDefinitionNames>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const plural = names.plural ?? '';
  const singular = names.singular ?? '';
  const kind = names.kind ?? '';
  const listKind = names.listKind ?? '';
  const label = (v: string) => isDNS1035Label(v);
  if (plural && label(plural).length) errs.push(invalid(`${path}.plural`, plural, label(plural).join(',')));
  if (singular && label(singular).length) errs.push(invalid(`${path}.singular`, singular, label(singular).join(',')));
  if (kind && label(kind.toLowerCase()).length) {
    errs.push(invalid(`${path}.kind`, kind, 'may have mixed case, but should otherwise match: ' + label(kind.toLowerCase()).join(',')));
  }
  if (listKind && label(listKind.toLowerCase()).length) {
    errs.push(invalid(`${path}.listKind`, listKind, 'may have mixed case, but should otherwise match: ' + label(listKind.toLowerCase()).join(',')));
  }
  (names.shortNames ?? []).forEach((s, i) => {
    const e = label(s);
    if (e.length) errs.push(invalid(`${path}.shortNames[${i}]`, s, e.join(',')));
  });
  // Otherwise parsing a kind would be ambiguous.
  if (kind && kind === listKind) errs.push(invalid(`${path}.listKind`, listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => {
    const e = label(c);
    if (e.length) errs.push(invalid(`${path}.categories[${i}]`, c, e.join(',')));
  });
  return errs;
}

// ---------------------------------------------------------------------------------------------
// subresources, printer columns, selectable fields

/** validateSimpleJSONPath: only the leading dot is checked. */
function simpleJSONPathErrors(s: string, path: string): FieldError[] {
  if (s.length === 0) return [invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceDefinitionSubresources. */
function validateSubresources(sub: CustomResourceSubresources | undefined, path: string): FieldError[] {
  const scale = sub?.scale;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const spec = scale.specReplicasPath ?? '';
  if (!spec) {
    errs.push(required(`${path}.scale.specReplicasPath`));
  } else {
    const e = simpleJSONPathErrors(spec, `${path}.scale.specReplicasPath`);
    if (e.length) errs.push(...e);
    else if (!spec.startsWith('.spec.')) errs.push(invalid(`${path}.scale.specReplicasPath`, spec, 'should be a json path under .spec'));
  }
  const status = scale.statusReplicasPath ?? '';
  if (!status) {
    errs.push(required(`${path}.scale.statusReplicasPath`));
  } else {
    const e = simpleJSONPathErrors(status, `${path}.scale.statusReplicasPath`);
    if (e.length) errs.push(...e);
    else if (!status.startsWith('.status.')) errs.push(invalid(`${path}.scale.statusReplicasPath`, status, 'should be a json path under .status'));
  }
  const selector = scale.labelSelectorPath;
  if (typeof selector === 'string' && selector.length > 0) {
    const e = simpleJSONPathErrors(selector, `${path}.scale.labelSelectorPath`);
    if (e.length) errs.push(...e);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.')) {
      errs.push(invalid(`${path}.scale.labelSelectorPath`, selector, 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}

/** ValidateCustomResourceColumnDefinition. Note kube's capitalised `JSONPath` path segment. */
export function validateColumn(col: CustomResourceColumnDefinition, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const types = 'must be one of ' + PRINTER_COLUMN_TYPES.join(',');
  if (!col.name) errs.push(required(`${path}.name`));
  if (!col.type) errs.push(required(`${path}.type`, types));
  else if (!PRINTER_COLUMN_TYPES.includes(col.type)) errs.push(invalid(`${path}.type`, col.type, types));
  if (col.format && !PRINTER_COLUMN_FORMATS.includes(col.format)) {
    errs.push(invalid(`${path}.format`, col.format, 'must be one of ' + PRINTER_COLUMN_FORMATS.join(',')));
  }
  if (!col.jsonPath) errs.push(required(`${path}.JSONPath`));
  else errs.push(...simpleJSONPathErrors(col.jsonPath, `${path}.JSONPath`));
  return errs;
}

/** ValidateCustomResourceSelectableFields, resolving paths in the raw schema as the structural schema would. */
function validateSelectableFields(fields: Array<{ jsonPath: string }>, schema: JSONSchemaProps | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const p = `${path}[${i}].jsonPath`;
    const jsonPath = f?.jsonPath ?? '';
    if (!jsonPath) {
      errs.push(required(p));
      return;
    }
    const r = selectableFieldErrors(jsonPath, schema);
    if ('error' in r) {
      errs.push(invalid(p, jsonPath, `is an invalid path: ${r.error}`));
      return;
    }
    if (r.root === 'metadata') errs.push(invalid(p, jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(r.type ?? '')) {
      errs.push(invalid(p, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(r.path)) errs.push(duplicate(p, jsonPath));
    else unique.add(r.path);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// conversion

function hasValidConversionReviewVersionOrEmpty(versions: string[] | undefined): boolean {
  if (!versions || versions.length === 0) return true;
  return versions.some((v) => ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v));
}

function allowInvalidCABundle(old: CustomResourceDefinition, oldSpec: InternalSpec): boolean {
  if (!isConditionTrue(old, 'Established')) return true;
  const ca = oldSpec.conversion?.webhookClientConfig?.caBundle;
  if (!ca) return false;
  return caBundleError(Buffer.from(ca, 'base64')) !== undefined;
}

function validateConversionReviewVersions(versions: string[] | undefined, requireRecognized: boolean, path: string): FieldError[] {
  const list = versions ?? [];
  if (list.length < 1) return [required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasAccepted = false;
  list.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(invalid(`${path}[${i}]`, v, msg));
    if (ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v)) hasAccepted = true;
  });
  if (requireRecognized && !hasAccepted) {
    errs.push(invalidGo(path, goRepr(list, StringSliceType), `must include at least one of ${ACCEPTED_CONVERSION_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

function validateConversion(conversion: InternalConversion | undefined, opts: Opts, path: string): FieldError[] {
  if (!conversion) return [];
  const errs = validateEnum(`${path}.strategy`, conversion.strategy, ['None', 'Webhook'], true);
  const cc = conversion.webhookClientConfig;
  if (conversion.strategy === 'Webhook') {
    if (!cc) {
      errs.push(required(`${path}.webhookClientConfig`, 'required when strategy is set to Webhook'));
    } else {
      if ((cc.url === undefined) === (cc.service === undefined)) {
        errs.push(required(`${path}.webhookClientConfig`, 'exactly one of url or service is required'));
      } else if (cc.url !== undefined) {
        errs.push(...validateWebhookURL(`${path}.webhookClientConfig.url`, cc.url, true));
      } else if (cc.service) {
        // kube passes (name, namespace) into a (namespace, name) signature; see validateWebhookService.
        errs.push(...validateWebhookService(`${path}.webhookClientConfig.service`, cc.service.name, cc.service.namespace, cc.service.path, cc.service.port));
      }
      if (cc.caBundle && !opts.allowInvalidCABundle) errs.push(...validateCABundle(`${path}.webhookClientConfig.caBundle`, cc.caBundle));
    }
    errs.push(...validateConversionReviewVersions(conversion.conversionReviewVersions, opts.requireRecognizedConversionReviewVersion, `${path}.conversionReviewVersions`));
  } else {
    if (cc) errs.push(forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
    if ((conversion.conversionReviewVersions?.length ?? 0) > 0) {
      errs.push(forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}

// ---------------------------------------------------------------------------------------------
// status.storedVersions, API approval, preserveUnknownFields

/** ValidateCustomResourceDefinitionStoredVersions. */
function validateStoredVersions(storedVersions: string[] | undefined, versions: CustomResourceDefinitionVersion[], path: string): FieldError[] {
  const stored = storedVersions ?? [];
  if (stored.length === 0) return [invalidGo(path, goRepr(storedVersions, StringSliceType), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  // Last index wins for duplicates, as kube's map does.
  const remaining = new Map<string, number>();
  stored.forEach((v, i) => remaining.set(v, i));
  for (const v of versions) {
    const has = remaining.has(v.name);
    if (v.storage === true && !has) errs.push(invalidGo(path, goRepr(stored, StringSliceType), 'must have the storage version ' + v.name));
    if (has) remaining.delete(v.name);
  }
  for (const [v, i] of [...remaining].sort((a, b) => a[1] - b[1])) {
    errs.push(
      invalid(
        `${path}[${i}]`,
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

function validateAPIApproval(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  if (!isProtectedCommunityGroup(crd.spec?.group ?? '')) return [];
  const next = apiApprovalState(crd.metadata?.annotations);
  // An unchanged approval state never fails, so controllers that only touch spec keep working.
  if (old && apiApprovalState(old.metadata?.annotations).state === next.state) return [];
  const path = `metadata.annotations[${KUBE_API_APPROVED_ANNOTATION}]`;
  switch (next.state) {
    case 'Missing':
      return [required(path, next.reason)];
    case 'Invalid':
      return [invalid(path, crd.metadata?.annotations?.[KUBE_API_APPROVED_ANNOTATION] ?? '', next.reason)];
    default:
      return [];
  }
}

function validatePreserveUnknownFields(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  // Tolerated on CRDs that already have it, for compatibility with existing data.
  if (old?.spec?.preserveUnknownFields === true) return [];
  if (crd.spec?.preserveUnknownFields === true) {
    return [invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return (crd.status?.conditions ?? []).find((c) => c.type === type)?.status === 'True';
}
