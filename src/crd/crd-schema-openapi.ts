// ValidateCustomResourceDefinitionOpenAPISchema (apiextensions validation.go): the restrictions CRDs
// put on OpenAPI v3 keywords and on the x-kubernetes-* extensions, walked over the JSON schema.
// Schema errors come first, then the errors of x-kubernetes-validations compilation (CEL), which is
// delegated to an optional hook and only attempted where no schema error was found at or below.
import { type FieldError, forbidden, invalid, notSupported, required } from '../api/field-error.js';
import { type GoType, goRepr, invalidGo, StringSliceType } from './go-types.js';
import type { InternalSpec } from './internal.js';
import type { JSONSchemaProps } from './types.js';
import { child, index, key } from '../schema/structural-path.js';
import { scanFieldPath, unescapeSingleQuote } from './cel-field-path.js';
import {
  type Raw,
  isObj,
  newStructural,
  present,
  rawAdditionalProperties,
  rawBool,
  rawItems,
  rawMapLen,
  rawSchemaMap,
  rawSchemaSlice,
  rawString,
  rawStringPtr,
  rawStringSlice,
  type Structural,
} from '../schema/structural-model.js';

export const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const SUPPORTED_RULE_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
const PROPS_OR_ARRAY: GoType = { k: 'either', name: 'apiextensions.JSONSchemaPropsOrArray', shape: 'propsOrArray' };

/** What kube hands a rule compiler for one schema node carrying x-kubernetes-validations. */
export interface ValidationRulesContext {
  /** The node whose x-kubernetes-validations are compiled. */
  schema: JSONSchemaProps;
  /** The node's field path, e.g. `spec.validation.openAPIV3Schema.properties[spec]`. */
  path: string;
  /** Nodes from the root down to the node's parent, with the edge taken (for cardinality estimates). */
  ancestors: Array<{ schema: JSONSchemaProps; via: 'properties' | 'additionalProperties' | 'items'; name?: string }>;
  /** Set when oldSelf cannot be used here: the first ancestor path that is not correlatable. */
  uncorrelatablePath?: string;
  /**
   * On update: the old spec (rules already in it compile in the stored-expressions environment)
   * and whether this version's schema is unchanged (then kube skips the per-expression cost limit).
   */
  update?: { oldSpec: InternalSpec; schemaUnchanged: boolean };
}

/** Compiles a node's x-kubernetes-validations; returns kube's errors under `<path>.x-kubernetes-validations[i]...`. */
export type ValidationRulesCheck = (ctx: ValidationRulesContext) => FieldError[];

interface OpenAPISchemaOptions {
  allowDefaults: boolean;
  disallowDefaultsReason?: string;
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  /** Present when CEL compilation is attempted: the structural and default checks passed. */
  checkRules?: ValidationRulesCheck;
  update?: { oldSpec: InternalSpec; schemaUnchanged: boolean };
}

/** specStandardValidatorV3's state, narrowed as the walk descends. */
interface Standard {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
  uncorrelatablePath?: string;
}

interface Result {
  schemaErrors: FieldError[];
  celErrors: FieldError[];
}

/** The schema and CEL errors of one openAPIV3Schema at `path`. */
export function validateOpenAPISchema(schema: JSONSchemaProps, path: string, opts: OpenAPISchemaOptions): FieldError[] {
  const ssv: Standard = {
    allowDefaults: opts.allowDefaults,
    disallowDefaultsReason: opts.disallowDefaultsReason ?? '',
    insideResourceMeta: false,
    requireValidPropertyType: opts.requireValidPropertyType,
  };
  const out: Result = { schemaErrors: [], celErrors: [] };
  walk(schema, path, ssv, true, opts, [], out);
  return [...out.schemaErrors, ...out.celErrors];
}

type Ancestors = ValidationRulesContext['ancestors'];

function forbidDefaults(ssv: Standard, reason: string): Standard {
  return { ...ssv, allowDefaults: false, disallowDefaultsReason: reason };
}

function forbidOldSelf(ssv: Standard, path: string): Standard {
  // The highest uncorrelatable ancestor is the one reported.
  return ssv.uncorrelatablePath !== undefined ? ssv : { ...ssv, uncorrelatablePath: path };
}

/**
 * One node. `celAncestors` is undefined where kube has no CEL context (inside junctors,
 * definitions and dependencies), so rules there are never compiled. Errors are appended to `out`
 * in walk order (schema errors of a node, then its children's, then its own; CEL errors children
 * first); `celAncestors` is one stack for the whole walk, copied only for a node with rules.
 */
function walk(s: Raw, path: string, ssv: Standard, isRoot: boolean, opts: OpenAPISchemaOptions, celAncestors: Ancestors | undefined, out: Result): void {
  const errsBefore = out.schemaErrors.length;
  const std = standardErrors(s, path, ssv);
  if (std.length > 0) out.schemaErrors.push(...std);

  const type = rawString(s, 'type');
  const props = rawSchemaMap(s, 'properties') ?? [];

  if (rawBool(s, 'uniqueItems')) {
    out.schemaErrors.push(forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  }

  // properties are for structs, additionalProperties for maps: both at once would contradict the
  // convention of ignoring unknown fields. `additionalProperties: true` next to properties is allowed.
  const ap = rawAdditionalProperties(s);
  if (ap) {
    if (props.length > 0 && (!ap.allows || ap.schema)) {
      out.schemaErrors.push(forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    // Pruning a default without its key is ambiguous inside metadata maps.
    const sub = ssv.insideResourceMeta ? forbidDefaults(ssv, 'inside additionalProperties applying to object metadata') : ssv;
    if (ap.schema) descend(s, 'additionalProperties', undefined, ap.schema, child(path, 'additionalProperties'), sub, opts, celAncestors, out);
  }

  const mapType = rawStringPtr(s, 'x-kubernetes-map-type');
  const embedded = rawBool(s, 'x-kubernetes-embedded-resource');
  for (const [name, p] of props) {
    let sub = ssv;
    if (!(mapType === undefined || mapType === 'granular' || mapType === 'atomic')) sub = forbidOldSelf(sub, path);
    if ((isRoot || embedded) && META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = forbidDefaults(sub, `in top-level ${name}`);
    }
    descend(s, 'properties', name, p, key(child(path, 'properties'), name), sub, opts, celAncestors, out);
  }

  if (isObj(s['not'])) walk(s['not'], child(path, 'not'), ssv, false, opts, undefined, out);
  for (const junctor of ['allOf', 'oneOf', 'anyOf']) {
    rawSchemaSlice(s, junctor).forEach((x, i) => walk(x, index(child(path, junctor), i), ssv, false, opts, undefined, out));
  }
  for (const [name, d] of rawSchemaMap(s, 'definitions') ?? []) walk(d, key(child(path, 'definitions'), name), ssv, false, opts, undefined, out);

  const listType = rawStringPtr(s, 'x-kubernetes-list-type');
  const items = rawItems(s);
  if (items) {
    // Only items of map lists can be correlated between old and new objects.
    const sub = listType !== 'map' ? forbidOldSelf(ssv, path) : ssv;
    if (items.schema) descend(s, 'items', undefined, items.schema, child(path, 'items'), sub, opts, celAncestors, out);
    (items.array ?? []).forEach((x, i) => descend(s, 'items', undefined, x, index(child(path, 'items'), i), sub, opts, celAncestors, out));
  }

  for (const [name, d] of rawSchemaMap(s, 'dependencies') ?? []) walk(d, key(child(path, 'dependencies'), name), ssv, false, opts, undefined, out);

  const ext = extensionErrors(s, path, type, mapType, listType, items, opts);
  if (ext.length > 0) out.schemaErrors.push(...ext);
  if (opts.requireMapListKeysMapSetValidation) {
    const mlk = mapListKeysMapSetErrors(s, path);
    if (mlk.length > 0) out.schemaErrors.push(...mlk);
  }

  const rules = Array.isArray(s['x-kubernetes-validations']) ? (s['x-kubernetes-validations'] as unknown[]) : [];
  if (rules.length > 0) {
    rules.forEach((rule, i) => out.schemaErrors.push(...ruleErrors(isObj(rule) ? rule : {}, s, index(child(path, 'x-kubernetes-validations'), i))));
    // Rules are not compiled when the schema around them is broken: the errors would not be actionable.
    if (out.schemaErrors.length === errsBefore && celAncestors && opts.checkRules) {
      const ctx: ValidationRulesContext = { schema: s, path, ancestors: celAncestors.slice() };
      if (ssv.uncorrelatablePath !== undefined) ctx.uncorrelatablePath = ssv.uncorrelatablePath;
      if (opts.update) ctx.update = opts.update;
      out.celErrors.push(...opts.checkRules(ctx));
    }
  }
}

/** walk of a child of `parent` reached through `via` (and `name`), with the parent on the CEL ancestors' stack meanwhile. */
function descend(
  parent: Raw,
  via: Ancestors[number]['via'],
  name: string | undefined,
  x: Raw,
  path: string,
  ssv: Standard,
  opts: OpenAPISchemaOptions,
  celAncestors: Ancestors | undefined,
  out: Result,
): void {
  if (!celAncestors) return walk(x, path, ssv, false, opts, undefined, out);
  celAncestors.push(name === undefined ? { schema: parent, via } : { schema: parent, via, name });
  walk(x, path, ssv, false, opts, celAncestors, out);
  celAncestors.pop();
}

/** specStandardValidatorV3.validate: keywords CRD schemas do not support. */
function standardErrors(s: Raw, path: string, ssv: Standard): FieldError[] {
  const errs: FieldError[] = [];
  const type = rawString(s, 'type');
  if (ssv.requireValidPropertyType && type !== '' && !OPENAPI_V3_TYPES.includes(type)) {
    errs.push(notSupported(child(path, 'type'), type, OPENAPI_V3_TYPES));
  }
  if (present(s['default']) && !ssv.allowDefaults) {
    errs.push(forbidden(child(path, 'default'), ssv.disallowDefaultsReason ? `must not be set ${ssv.disallowDefaultsReason}` : 'must not be set'));
  }
  if (rawString(s, 'id') !== '') errs.push(forbidden(child(path, 'id'), 'id is not supported'));
  if (typeof s['additionalItems'] === 'boolean' || isObj(s['additionalItems'])) {
    errs.push(forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
  }
  if (rawMapLen(s, 'patternProperties') > 0) errs.push(forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
  if (rawMapLen(s, 'definitions') > 0) errs.push(forbidden(child(path, 'definitions'), 'definitions is not supported'));
  // A non-nil map, even an empty one.
  if (isObj(s['dependencies'])) errs.push(forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
  if (rawStringPtr(s, '$ref') !== undefined) errs.push(forbidden(child(path, '$ref'), '$ref is not supported'));
  if (type === 'null') errs.push(forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  const items = rawItems(s);
  if (items?.array && items.array.length > 0) errs.push(forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (ssv.insideResourceMeta && rawBool(s, 'x-kubernetes-embedded-resource')) {
    errs.push(forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

function extensionErrors(
  s: Raw,
  path: string,
  type: string,
  mapType: string | undefined,
  listType: string | undefined,
  items: ReturnType<typeof rawItems>,
  opts: OpenAPISchemaOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }

  if (mapType !== undefined && type !== 'object') {
    if (type === '') errs.push(required(child(path, 'type'), 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(invalid(child(path, 'type'), type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }

  if (listType !== undefined && type !== 'array') {
    if (type === '') errs.push(required(child(path, 'type'), 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(invalid(child(path, 'type'), type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && listType === 'set' && items?.schema) {
    const is = items.schema;
    const itemListType = rawStringPtr(is, 'x-kubernetes-list-type');
    const itemMapType = rawStringPtr(is, 'x-kubernetes-map-type');
    switch (rawString(is, 'type')) {
      case 'array':
        // Unset means atomic for lists.
        if (itemListType !== undefined && itemListType !== 'atomic') {
          errs.push(invalid(child(path, 'items', 'x-kubernetes-list-type'), itemListType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
        }
        break;
      case 'object':
        // Unset means granular for maps. kube reports the item's list type here (usually nil).
        if (itemMapType !== 'atomic') {
          errs.push(invalid(child(path, 'items', 'x-kubernetes-map-type'), itemListType ?? 'null', 'must be atomic as item of a list with x-kubernetes-list-type=set'));
        }
        break;
    }
  }

  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }

  const mapKeys = rawStringSlice(s, 'x-kubernetes-list-map-keys') ?? [];
  if (mapKeys.length > 0) {
    if (listType === undefined) errs.push(required(child(path, 'x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalid(child(path, 'x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }

  if (listType === 'map') {
    if (mapKeys.length === 0) errs.push(required(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (!items) errs.push(required(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (items && !items.schema) {
      errs.push(invalidGo(child(path, 'items'), goRepr(s['items'], PROPS_OR_ARRAY), 'must only have a single schema if x-kubernetes-list-type is map'));
    }
    const itemType = items?.schema ? rawString(items.schema, 'type') : undefined;
    if (items?.schema && itemType !== 'object') {
      errs.push(invalid(child(path, 'items', 'type'), itemType, "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (items?.schema && itemType === 'object') {
      const itemProps = isObj(items.schema['properties']) ? (items.schema['properties'] as Raw) : {};
      const keysRepr = goRepr(s['x-kubernetes-list-map-keys'], StringSliceType);
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const p = Object.hasOwn(itemProps, k) ? itemProps[k] : undefined;
        if (isObj(p)) {
          const pType = rawString(p, 'type');
          if (pType === 'array' || pType === 'object') {
            // kube reports the item's type ("object") as the bad value.
            errs.push(invalid(child(key(child(path, 'items', 'properties'), k), 'type'), itemType, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(invalidGo(child(path, 'x-kubernetes-list-map-keys'), keysRepr, 'entries must all be names of item properties'));
        }
        if (seen.has(k)) errs.push(invalidGo(child(path, 'x-kubernetes-list-map-keys'), keysRepr, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  return errs;
}

/** validateMapListKeysMapSet: set/map list items and map keys must not be nullable; keys must be required or defaulted. */
export function mapListKeysMapSetErrors(s: Raw, path: string): FieldError[] {
  const items = rawItems(s);
  const listType = rawStringPtr(s, 'x-kubernetes-list-type');
  if (!items?.schema || (listType !== 'set' && listType !== 'map')) return [];
  const is = items.schema;
  const errs: FieldError[] = [];
  if (rawBool(is, 'nullable')) errs.push(forbidden(child(path, 'items', 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const requiredKeys = new Set(rawStringSlice(is, 'required') ?? []);
    const itemProps = isObj(is['properties']) ? (is['properties'] as Raw) : {};
    for (const k of rawStringSlice(s, 'x-kubernetes-list-map-keys') ?? []) {
      const p = Object.hasOwn(itemProps, k) ? itemProps[k] : undefined;
      // Unknown keys are reported by the list-map-keys check.
      if (!isObj(p)) continue;
      const keyPath = key(child(path, 'items', 'properties'), k);
      if (!requiredKeys.has(k) && !present(p['default'])) {
        errs.push(required(child(keyPath, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (rawBool(p, 'nullable')) errs.push(forbidden(child(keyPath, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}

const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

/** The static checks of one x-kubernetes-validations entry (everything but compiling it). */
function ruleErrors(rule: Raw, s: Raw, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ruleText = rawString(rule, 'rule');
  const message = rawString(rule, 'message');
  const messageExpression = rawString(rule, 'messageExpression');
  const trimmedRule = ruleText.trim();
  const trimmedMsg = message.trim();
  if (trimmedRule.length === 0) {
    errs.push(required(child(path, 'rule'), 'rule is not specified'));
  } else if (message.length > 0 && trimmedMsg.length === 0) {
    errs.push(invalid(child(path, 'message'), message, 'message must be non-empty if specified'));
  } else if (hasNewlines(trimmedMsg)) {
    errs.push(invalid(child(path, 'message'), message, 'message must not contain line breaks'));
  } else if (hasNewlines(trimmedRule) && trimmedMsg.length === 0) {
    errs.push(required(child(path, 'message'), 'message must be specified if rule contains line breaks'));
  }
  if (messageExpression.length > 0 && messageExpression.trim().length === 0) {
    errs.push(required(child(path, 'messageExpression'), 'messageExpression must be non-empty if specified'));
  }
  const reason = rawStringPtr(rule, 'reason');
  if (reason !== undefined && !SUPPORTED_RULE_REASONS.includes(reason)) {
    errs.push(notSupported(child(path, 'reason'), reason, SUPPORTED_RULE_REASONS));
  }
  const fieldPath = rawString(rule, 'fieldPath');
  if (fieldPath.length > 0 && fieldPath.trim().length === 0) {
    errs.push(invalid(child(path, 'fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
  }
  if (hasNewlines(fieldPath)) errs.push(invalid(child(path, 'fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
  if (fieldPath.length > 0 && !fieldPathValid(s, fieldPath)) {
    errs.push(invalid(child(path, 'fieldPath'), fieldPath, 'fieldPath must be a valid path'));
  }
  return errs;
}

/** pathValid: resolvable in the node's structural schema (anything goes if that cannot be built). */
function fieldPathValid(s: Raw, fieldPath: string): boolean {
  const r = newStructural(s);
  if ('error' in r) return true;
  return resolveFieldPath(fieldPath, r.structural) === undefined;
}

/** cel.ValidFieldPath with array notation allowed: undefined when valid, else kube's error text. */
function resolveFieldPath(jsonPath: string, schema: Structural): string | undefined {
  const tokens = scanFieldPath(jsonPath);
  let node: Structural | undefined = schema;
  const step = (name: string): string | undefined => {
    // Descending past `additionalProperties: true` leaves no schema; kube would fail there.
    if (!node) return 'does not refer to a valid field';
    if (node.properties) {
      node = node.properties.get(name);
      return node ? undefined : 'does not refer to a valid field';
    }
    if (node.additionalProperties) {
      node = node.additionalProperties.structural;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  let t = 0;
  while (t < tokens.length) {
    const tok = tokens[t++]!;
    if (tok === '[') {
      if (t >= tokens.length) return 'unexpected end of JSON path';
      const quoted = tokens[t++]!;
      if (quoted.length < 2 || quoted[0] !== "'" || quoted[quoted.length - 1] !== "'") return `expected single quoted string but got ${quoted}`;
      const unescaped = unescapeSingleQuote(quoted.slice(1, -1));
      if (typeof unescaped !== 'string') return `invalid string literal: ${unescaped.error}`;
      const err = step(unescaped);
      if (err) return err;
      if (t >= tokens.length) return 'unexpected end of JSON path';
      const close = tokens[t++]!;
      if (close !== ']') return `expected ] but got ${close}`;
    } else if (tok === '.') {
      if (t >= tokens.length) return 'unexpected end of JSON path';
      const err = step(tokens[t++]!);
      if (err) return err;
    } else {
      return `expected [ or . but got: ${tok}`;
    }
  }
  return undefined;
}

