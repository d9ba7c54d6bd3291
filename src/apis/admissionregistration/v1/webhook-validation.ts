// kube's validation of webhook configurations (pkg/apis/admissionregistration/validation: validateMutatingWebhook,
// validateValidatingWebhook, validateRuleWithOperations, validateAdmissionReviewVersions, validateMatchConditions),
// over defaulted v1 JSON. Updates relax what the old object already broke, as kube's *Update options do.
import type { FieldError } from '../../../api/field-error.js';
import { duplicate, invalid, notSupported, required, tooMany } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName } from '../../../schema/names.js';
import { goRendered, goStringSlice, validateObjectMeta } from '../../../schema/objectmeta.js';
import { goQuote } from '../../../api/field-error.js';
import { validateLabelSelector } from '../../../registry/selectors.js';
import { metaOf } from '../../../registry/store.js';
import { validateWebhookService, validateWebhookURL } from '../../../crd/webhook.js';
import { compileMatchCondition } from './webhook-cel.js';

export const ACCEPTED_ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const MAX_MATCH_CONDITIONS = 64;

interface Options {
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
  /** Expressions the old object held compile in the stored-expressions environment. */
  preexisting: Set<string>;
}

const CREATE_OPTIONS: Options = {
  ignoreMatchConditions: false,
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
  preexisting: new Set(),
};

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : []);
const objects = (v: unknown): JSONObject[] => (Array.isArray(v) ? v.map((x) => (isObject(x) ? x : {})) : []);
const webhooksOf = (obj: JSONObject): JSONObject[] => objects(obj['webhooks']);
/** A []string bad value as kube prints it (%#v), optionally of a named string type. */
const goSlice = (values: string[], type = 'string'): string[] =>
  goRendered([...values], type === 'string' ? goStringSlice(values) : `[]${type}{${values.map(goQuote).join(', ')}}`);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** utilvalidation.IsFullyQualifiedName. */
function isFullyQualifiedName(path: string, name: string): FieldError[] {
  if (name.length === 0) return [required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length) return [invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** validateResources: resources with subresources, without overlapping wildcards. */
export function validateResources(resources: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(`${path}[${i}]`));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSub = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res)) errs.push(invalid(`${path}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) errs.push(invalid(`${path}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(path, goSlice(resources), "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(invalid(path, goSlice(resources), "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateRuleWithOperations (subresources allowed). */
export function validateRuleWithOperations(rule: JSONObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strings(rule['operations']);
  if (ops.length === 0) errs.push(required(`${path}.operations`));
  if (ops.length > 1 && ops.includes('*')) errs.push(invalid(`${path}.operations`, goSlice(ops, 'admissionregistration.OperationType'), "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = strings(rule['apiGroups']);
  if (groups.length === 0) errs.push(required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) errs.push(invalid(`${path}.apiGroups`, goSlice(groups), "if '*' is present, must not specify other API groups"));
  const versions = strings(rule['apiVersions']);
  if (versions.length === 0) errs.push(required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes('*')) errs.push(invalid(`${path}.apiVersions`, goSlice(versions), "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(`${path}.apiVersions[${i}]`));
  });
  errs.push(...validateResources(strings(rule['resources']), `${path}.resources`));
  const scope = str(rule['scope']);
  if (scope !== undefined && !SCOPES.includes(scope)) errs.push(notSupported(`${path}.scope`, scope, SCOPES));
  return errs;
}

function validateAdmissionReviewVersions(versions: string[], requireRecognized: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (versions.length < 1) return [required(path, `must specify one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(', ')}`)];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(invalid(`${path}[${i}]`, v, m));
    if (ACCEPTED_ADMISSION_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(invalid(path, goSlice(versions), `must include at least one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function validateMatchConditions(conditions: JSONObject[], opts: Options, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(path, conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const expression = str(c['expression']) ?? '';
    const trimmed = expression.trim();
    if (trimmed.length === 0) errs.push(required(`${p}.expression`));
    else {
      const compiled = compileMatchCondition(trimmed, opts.preexisting.has(trimmed));
      if ('error' in compiled) errs.push(invalid(`${p}.expression`, trimmed, compiled.error));
    }
    const name = str(c['name']) ?? '';
    if (name.length === 0) errs.push(required(`${p}.name`));
    else for (const m of isQualifiedName(name)) errs.push(invalid(`${p}.name`, name, m));
    if (name.length > 0) {
      if (names.has(name)) errs.push(duplicate(`${p}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

function validateWebhook(hook: JSONObject, mutating: boolean, opts: Options, path: string): FieldError[] {
  const errs = isFullyQualifiedName(`${path}.name`, str(hook['name']) ?? '');
  objects(hook['rules']).forEach((r, i) => errs.push(...validateRuleWithOperations(r, `${path}.rules[${i}]`)));
  const fp = str(hook['failurePolicy']);
  if (fp !== undefined && !FAILURE_POLICIES.includes(fp)) errs.push(notSupported(`${path}.failurePolicy`, fp, FAILURE_POLICIES));
  const mp = str(hook['matchPolicy']);
  if (mp !== undefined && !MATCH_POLICIES.includes(mp)) errs.push(notSupported(`${path}.matchPolicy`, mp, MATCH_POLICIES));
  const allowed = opts.requireNoSideEffects ? NO_SIDE_EFFECT_CLASSES : SIDE_EFFECT_CLASSES;
  const se = hook['sideEffects'];
  if (!isSet(se)) errs.push(required(`${path}.sideEffects`, `must specify one of ${allowed.join(', ')}`));
  else if (!allowed.includes(String(se))) errs.push(notSupported(`${path}.sideEffects`, se, allowed));
  const timeout = hook['timeoutSeconds'];
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1)) errs.push(invalid(`${path}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  const selectorOpts = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  if (isObject(hook['namespaceSelector'])) errs.push(...validateLabelSelector(hook['namespaceSelector'] as never, `${path}.namespaceSelector`, selectorOpts));
  if (isObject(hook['objectSelector'])) errs.push(...validateLabelSelector(hook['objectSelector'] as never, `${path}.objectSelector`, selectorOpts));
  if (mutating) {
    const rp = str(hook['reinvocationPolicy']);
    if (rp !== undefined && !REINVOCATION_POLICIES.includes(rp)) errs.push(notSupported(`${path}.reinvocationPolicy`, rp, REINVOCATION_POLICIES));
  }
  const cc = isObject(hook['clientConfig']) ? (hook['clientConfig'] as JSONObject) : {};
  const url = str(cc['url']);
  const service = isObject(cc['service']) ? (cc['service'] as JSONObject) : undefined;
  if ((url === undefined) === (service === undefined)) errs.push(required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  else if (url !== undefined) errs.push(...validateWebhookURL(`${path}.clientConfig.url`, url, true));
  else if (service) {
    const port = typeof service['port'] === 'number' ? service['port'] : 443;
    errs.push(...validateWebhookService(`${path}.clientConfig.service`, str(service['name']) ?? '', str(service['namespace']) ?? '', str(service['path']), port));
  }
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(objects(hook['matchConditions']), opts, `${path}.matchConditions`));
  return errs;
}

function validateConfiguration(obj: JSONObject, mutating: boolean, opts: Options): FieldError[] {
  const errs = validateObjectMeta(metaOf(obj), { namespaced: false, nameValidator: 'dns1123Subdomain' }, 'metadata');
  const names = new Set<string>();
  webhooksOf(obj).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    errs.push(...validateWebhook(hook, mutating, opts, path));
    errs.push(...validateAdmissionReviewVersions(strings(hook['admissionReviewVersions']), opts.requireRecognizedAdmissionReviewVersion, `${path}.admissionReviewVersions`));
    const name = str(hook['name']) ?? '';
    if (opts.requireUniqueWebhookNames && name.length > 0) {
      if (names.has(name)) errs.push(duplicate(`${path}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}

/** ValidateMutatingWebhookConfiguration / ValidateValidatingWebhookConfiguration. */
export const validateWebhookConfiguration = (obj: JSONObject, mutating: boolean): FieldError[] => validateConfiguration(obj, mutating, CREATE_OPTIONS);

const selectorsInvalid = (hooks: JSONObject[]): boolean =>
  hooks.some((h) => ['namespaceSelector', 'objectSelector'].some((k) => isObject(h[k]) && validateLabelSelector(h[k] as never, k).length > 0));

/** The *Update forms: what the old configuration already had is not refused again. */
export function validateWebhookConfigurationUpdate(obj: JSONObject, old: JSONObject, mutating: boolean): FieldError[] {
  const hooks = webhooksOf(obj);
  const oldHooks = webhooksOf(old);
  const conditions = (h: JSONObject): string => JSON.stringify(h['matchConditions'] ?? null);
  const oldNames = oldHooks.map((h) => str(h['name']) ?? '');
  return validateConfiguration(obj, mutating, {
    ignoreMatchConditions: hooks.length === oldHooks.length && hooks.every((h, i) => conditions(h) === conditions(oldHooks[i]!)),
    requireNoSideEffects: oldHooks.every((h) => NO_SIDE_EFFECT_CLASSES.includes(String(h['sideEffects']))),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((h) => {
      const vs = strings(h['admissionReviewVersions']);
      return vs.length === 0 || vs.some((v) => ACCEPTED_ADMISSION_REVIEW_VERSIONS.includes(v));
    }),
    requireUniqueWebhookNames: new Set(oldNames).size === oldNames.length,
    allowInvalidLabelValueInSelector: selectorsInvalid(oldHooks),
    preexisting: new Set(oldHooks.flatMap((h) => objects(h['matchConditions']).map((c) => str(c['expression']) ?? ''))),
  });
}
