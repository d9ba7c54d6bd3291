// ValidateStructural (k8s.io/apiextensions-apiserver pkg/apiserver/schema/validation.go and
// complete.go): the structural schema rules, with kube's field paths and messages, sorted as kube
// sorts them. Also the NonStructuralSchema condition of the nonstructuralschema controller.
import { RE2JS } from 're2js';
import { type FieldError, aggregate, fieldErrorString, forbidden, invalid, required } from '../api/field-error.js';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, JSONSchemaProps } from './types.js';
import { child, index, key } from '../schema/structural-path.js';
import {
  type NestedValueValidation,
  type Structural,
  type ValueValidation,
  isBareType,
  isObj,
  isZeroExtensions,
  isZeroValueValidation,
  newStructural,
} from '../schema/structural-model.js';

type Level = 'root' | 'item' | 'field';

/** ValidateStructural with kube's CRD options (no nested additionalProperties or x-kubernetes-validations). */
export function validateStructural(path: string, s: Structural): FieldError[] {
  const errs = [...invariants(s, 'root', path), ...completeness(s, path)];
  // kube sorts by the rendered error so that map iteration order does not show.
  const keyed = errs.map((e) => [fieldErrorString(e), e] as const);
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return keyed.map(([, e]) => e);
}

/** The invariants of s and below, appended to errs (one list for the whole walk: no copies at each level). */
function invariants(s: Structural | undefined, lvl: Level, path: string, errs: FieldError[] = []): FieldError[] {
  if (!s) return errs;
  const type = s.generic.type;
  const x = s.extensions;

  if (type === 'array' && !s.items) errs.push(required(child(path, 'items'), 'must be specified'));
  invariants(s.items, 'item', child(path, 'items'), errs);
  for (const [k, v] of s.properties ?? []) invariants(v, 'field', key(child(path, 'properties'), k), errs);
  if (s.additionalProperties) {
    if (lvl === 'root') errs.push(forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    if (s.additionalProperties.structural) invariants(s.additionalProperties.structural, 'field', child(path, 'additionalProperties'), errs);
  }

  if (x.intOrString && x.preserveUnknownFields) {
    errs.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (x.intOrString && x.embeddedResource) {
    errs.push(invalid(child(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }

  const vv = valueValidation(s.valueValidation, isIntOrStringAnyOf(s.valueValidation), isIntOrStringAllOf(s.valueValidation), path);
  if (vv.length > 0) errs.push(...vv);

  const checkMetadata = lvl === 'root' || x.embeddedResource;
  if (x.embeddedResource && type !== 'object') {
    if (type === '') errs.push(required(child(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(invalid(child(path, 'type'), type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !x.intOrString && !x.preserveUnknownFields) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    errs.push(required(child(path, 'type'), `must not be empty ${where}`));
  }
  if (x.embeddedResource && s.additionalProperties) {
    errs.push(forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && type !== '' && type !== 'object') errs.push(invalid(child(path, 'type'), type, 'must be object at the root'));

  if (checkMetadata) {
    for (const name of ['kind', 'apiVersion']) {
      const p = s.properties?.get(name);
      if (p && p.generic.type !== 'string') errs.push(invalid(child(key(child(path, 'properties'), name), 'type'), p.generic.type, 'must be string'));
    }
  }
  const metadata = s.properties?.get('metadata');
  if (metadata) {
    const m = metadataInvariants(metadata, checkMetadata, lvl, key(child(path, 'properties'), 'metadata'));
    if (m.length > 0) errs.push(...m);
  }

  if (x.embeddedResource && !x.preserveUnknownFields && !s.properties) {
    errs.push(required(child(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/** Root metadata may only restrict name and generateName; anything else implicitly specified is forbidden. */
function metadataInvariants(s: Structural, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.generic.type !== 'object') errs.push(invalid(child(path, 'type'), s.generic.type, 'must be object'));
  if (lvl === 'root') {
    const props = s.properties;
    const hasName = props?.has('name') ?? false;
    const hasGenerateName = props?.has('generateName') ?? false;
    const onlyNames = props === undefined || (hasName && hasGenerateName && props.size === 2) || ((hasName || hasGenerateName) && props.size === 1);
    const g = s.generic;
    const rest =
      onlyNames &&
      s.items === undefined &&
      s.additionalProperties === undefined &&
      g.description === '' &&
      g.title === '' &&
      !g.nullable &&
      isZeroExtensions(s.extensions) &&
      s.xValidations === undefined &&
      isZeroValueValidation(s.valueValidation);
    if (!rest) errs.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
  return errs;
}

function isIntOrStringAnyOf(v: ValueValidation): boolean {
  return isIntOrStringPair(v.anyOf);
}

function isIntOrStringAllOf(v: ValueValidation): boolean {
  return (v.allOf?.length ?? 0) >= 1 && isIntOrStringPair(v.allOf![0]!.valueValidation.anyOf);
}

function isIntOrStringPair(list: NestedValueValidation[] | undefined): boolean {
  return list?.length === 2 && isBareType(list[0]!, 'integer') && isBareType(list[1]!, 'string');
}

function valueValidation(v: ValueValidation, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (v.anyOf ?? []).forEach((n, i) => errs.push(...nestedValueValidation(n, false, index(child(path, 'anyOf'), i))));
  (v.allOf ?? []).forEach((n, i) => errs.push(...nestedValueValidation(n, skipFirstAllOfAnyOf && i === 0, index(child(path, 'allOf'), i))));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...nestedValueValidation(n, false, index(child(path, 'oneOf'), i))));
  if (v.not) errs.push(...nestedValueValidation(v.not, false, child(path, 'not')));
  if (v.pattern.length > 0) {
    const err = patternError(v.pattern);
    if (err !== undefined) errs.push(invalid(child(path, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${err}`));
  }
  return errs;
}

/** Go's regexp.Compile error text for an invalid RE2 pattern (re2js words errors as Go does). */
function patternError(pattern: string): string | undefined {
  if (patternErrors.has(pattern)) return patternErrors.get(pattern);
  let err: string | undefined;
  try {
    RE2JS.compile(pattern);
  } catch (e) {
    err = e instanceof Error ? e.message : String(e);
  }
  // Compiling dominates schema checking and generated CRDs repeat their patterns: remember results.
  if (patternErrors.size >= 10_000) patternErrors.clear();
  patternErrors.set(pattern, err);
  return err;
}

const patternErrors = new Map<string, string | undefined>();

function nestedValueValidation(v: NestedValueValidation, skipAnyOf: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [...valueValidation(v.valueValidation, skipAnyOf, false, path)];
  if (v.items) errs.push(...nestedValueValidation(v.items, false, child(path, 'items')));
  for (const [k, p] of v.properties ?? []) errs.push(...nestedValueValidation(p, false, key(child(path, 'properties'), k)));

  const g = v.forbiddenGenerics;
  const x = v.forbiddenExtensions;
  if (g.type !== '') errs.push(forbidden(child(path, 'type'), 'must be empty to be structural'));
  if (v.additionalProperties) errs.push(forbidden(child(path, 'additionalProperties'), 'must be undefined to be structural'));
  if (g.default !== undefined) errs.push(forbidden(child(path, 'default'), 'must be undefined to be structural'));
  if (g.title !== '') errs.push(forbidden(child(path, 'title'), 'must be empty to be structural'));
  if (g.description !== '') errs.push(forbidden(child(path, 'description'), 'must be empty to be structural'));
  if (g.nullable) errs.push(forbidden(child(path, 'nullable'), 'must be false to be structural'));
  if (x.preserveUnknownFields) errs.push(forbidden(child(path, 'x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'));
  if (x.embeddedResource) errs.push(forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must be false to be structural'));
  if (x.intOrString) errs.push(forbidden(child(path, 'x-kubernetes-int-or-string'), 'must be false to be structural'));
  if ((x.listMapKeys?.length ?? 0) > 0) errs.push(forbidden(child(path, 'x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  if (x.listType !== undefined) errs.push(forbidden(child(path, 'x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (x.mapType !== undefined) errs.push(forbidden(child(path, 'x-kubernetes-map-type'), 'must be undefined to be structural'));
  if ((v.xValidations?.length ?? 0) > 0) errs.push(forbidden(child(path, 'x-kubernetes-validations'), 'must be empty to be structural'));
  // Reasoning about metadata inside junctors could restrict it in ways the server cannot honour.
  if (v.properties?.has('metadata')) errs.push(forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// completeness: every field or item a junctor talks about is also specified structurally

function completeness(s: Structural, path: string): FieldError[] {
  return valueValidationCompleteness(s.valueValidation, s, path, path);
}

function valueValidationCompleteness(v: ValueValidation, s: Structural | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [];
  if (v.not) errs.push(...nestedCompleteness(v.not, s, sPath, child(vPath, 'not')));
  (v.allOf ?? []).forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, index(child(vPath, 'allOf'), i))));
  (v.anyOf ?? []).forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, index(child(vPath, 'anyOf'), i))));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, index(child(vPath, 'oneOf'), i))));
  return errs;
}

function nestedCompleteness(v: NestedValueValidation | undefined, s: Structural | undefined, sPath: string, vPath: string): FieldError[] {
  if (!v) return [];
  if (!s) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs = [...valueValidationCompleteness(v.valueValidation, s, sPath, vPath)];
  errs.push(...nestedCompleteness(v.items, s.items, child(sPath, 'items'), child(vPath, 'items')));
  for (const [k, vFld] of v.properties ?? []) {
    const sFld = s.properties?.get(k);
    if (!sFld) errs.push(required(key(child(sPath, 'properties'), k), `because it is defined in ${key(child(vPath, 'properties'), k)}`));
    else errs.push(...nestedCompleteness(vFld, sFld, key(child(sPath, 'properties'), k), key(child(vPath, 'properties'), k)));
  }
  return errs;
}

// ---------------------------------------------------------------------------------------------
// convenience entry points

/**
 * The structural-schema violations of one openAPIV3Schema, as rendered field errors under `path`
 * (a conversion failure yields the converter's message alone).
 */
export function structuralViolations(schema: JSONSchemaProps, path = ''): string[] {
  const r = newStructural(schema);
  if ('error' in r) return [r.error];
  return validateStructural(path, r.structural).map(fieldErrorString);
}

/**
 * The NonStructuralSchema condition the nonstructuralschema controller computes for a v1 CRD, or
 * undefined when every schema is structural (kube then removes the condition).
 * lastTransitionTime is left to the caller.
 */
export function nonStructuralSchemaCondition(crd: CustomResourceDefinition): CustomResourceDefinitionCondition | undefined {
  const errs: FieldError[] = [];
  if (crd.spec?.preserveUnknownFields === true) errs.push(invalid('spec.preserveUnknownFields', true, 'must be false'));
  const versions = Array.isArray(crd.spec?.versions) ? crd.spec.versions : [];
  for (let i = 0; i < versions.length; i++) {
    const v = versions[i]!;
    const schema = v?.schema?.openAPIV3Schema;
    if (!isObj(schema)) continue;
    const r = newStructural(schema);
    if ('error' in r) {
      return {
        type: 'NonStructuralSchema',
        status: 'Unknown',
        reason: 'StructuralError',
        message: `failed to check validation schema for version ${v.name}: ${r.error}`,
      };
    }
    errs.push(...validateStructural(`spec.versions[${i}].schema.openAPIV3Schema`, r.structural));
  }
  if (errs.length === 0) return undefined;
  return { type: 'NonStructuralSchema', status: 'True', reason: 'Violations', message: aggregate(errs) };
}
