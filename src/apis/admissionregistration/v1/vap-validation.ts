// kube's validation of ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding
// (pkg/apis/admissionregistration/validation): the match rules, selectors, param references and
// validation actions, and every CEL expression compiled as it is written. Expressions new to the
// object compile in the NewExpressions environment; those already in the old object (an update) in the
// StoredExpressions one, as kube ratchets them.
import { GO_VALUE, goQuote, type FieldError, duplicate, forbidden, internalError, invalid, notSupported, required, tooMany } from '../../../api/field-error.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain, validatePathSegmentName } from '../../../schema/names.js';
import { validateLabelSelector } from '../../../registry/selectors.js';
import { metaOf } from '../../../registry/store.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { admissionEnv, compileExpression, compileVariables, newVariablesType, type CelCompileError, type EnvMode, type ReturnTypes } from './vap-cel.js';

const obj = (v: unknown): JSONObject => (isObject(v) ? (v as JSONObject) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const SUPPORTED_FAILURE_POLICIES = ['Fail', 'Ignore'];
const SUPPORTED_MATCH_POLICIES = ['Equivalent', 'Exact'];
const SUPPORTED_OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const VALID_SCOPES = ['*', 'Cluster', 'Namespaced'];
const SUPPORTED_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH = 5 * 1024;

const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const isCELIdentifier = (s: string): boolean => /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(s) && !CEL_RESERVED.has(s);

/** A slice as field errors print it (%#v of kube's internal type). */
const goSlice = (type: string, xs: readonly unknown[]): object => ({ [GO_VALUE]: `[]${type}{${xs.map((x) => goQuote(str(x))).join(', ')}}` });

const hasWildcard = (xs: readonly unknown[]): boolean => xs.includes('*');

function validateResources(resources: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const resWithWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((r, i) => {
    const rs = str(r);
    if (rs === '') return void errs.push(required(`${path}[${i}]`));
    if (rs === '*/*') doubleWildcard = true;
    if (rs === '*') singleWildcard = true;
    const slash = rs.indexOf('/');
    if (slash < 0) {
      withoutSub = rs !== '*';
      return;
    }
    const res = rs.slice(0, slash);
    const sub = rs.slice(slash + 1);
    if (resWithWildcardSub.has(res)) errs.push(invalid(`${path}[${i}]`, rs, `if '${res}/*' is present, must not specify ${rs}`));
    if (subWithWildcardRes.has(sub)) errs.push(invalid(`${path}[${i}]`, rs, `if '*/${sub}' is present, must not specify ${rs}`));
    if (sub === '*') resWithWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(path, goSlice('string', resources), "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(invalid(path, goSlice('string', resources), "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

function validateRuleWithOperations(r: JSONObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = arr(r['operations']);
  if (ops.length === 0) errs.push(required(`${path}.operations`));
  if (ops.length > 1 && hasWildcard(ops)) errs.push(invalid(`${path}.operations`, goSlice('admissionregistration.OperationType', ops), "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!SUPPORTED_OPERATIONS.includes(str(op))) errs.push(notSupported(`${path}.operations[${i}]`, op, SUPPORTED_OPERATIONS));
  });
  const groups = arr(r['apiGroups']);
  if (groups.length === 0) errs.push(required(`${path}.apiGroups`));
  if (groups.length > 1 && hasWildcard(groups)) errs.push(invalid(`${path}.apiGroups`, goSlice('string', groups), "if '*' is present, must not specify other API groups"));
  const versions = arr(r['apiVersions']);
  if (versions.length === 0) errs.push(required(`${path}.apiVersions`));
  if (versions.length > 1 && hasWildcard(versions)) errs.push(invalid(`${path}.apiVersions`, goSlice('string', versions), "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (str(v) === '') errs.push(required(`${path}.apiVersions[${i}]`));
  });
  errs.push(...validateResources(arr(r['resources']), `${path}.resources`));
  if (typeof r['scope'] === 'string' && !VALID_SCOPES.includes(r['scope'])) errs.push(notSupported(`${path}.scope`, r['scope'], VALID_SCOPES));
  return errs;
}

function validateNamedRule(r: JSONObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arr(r['resourceNames']).forEach((n, i) => {
    const name = str(n);
    for (const msg of validatePathSegmentName(name, false)) errs.push(invalid(`${path}.resourceNames[${i}]`, name, msg));
    if (seen.has(name)) errs.push(duplicate(`${path}.resourceNames[${i}]`, name));
    else seen.add(name);
  });
  return [...errs, ...validateRuleWithOperations(r, path)];
}

function validateMatchResources(mr: unknown, path: string): FieldError[] {
  if (!isObject(mr)) return [];
  const m = mr as JSONObject;
  const errs: FieldError[] = [];
  if (typeof m['matchPolicy'] !== 'string') errs.push(required(`${path}.matchPolicy`));
  else if (!SUPPORTED_MATCH_POLICIES.includes(m['matchPolicy'])) errs.push(notSupported(`${path}.matchPolicy`, m['matchPolicy'], SUPPORTED_MATCH_POLICIES));
  for (const sel of ['namespaceSelector', 'objectSelector'] as const) {
    if (!isObject(m[sel])) errs.push(required(`${path}.${sel}`));
    else errs.push(...validateLabelSelector(m[sel] as never, `${path}.${sel}`));
  }
  arr(m['resourceRules']).forEach((r, i) => errs.push(...validateNamedRule(obj(r), `${path}.resourceRules[${i}]`)));
  arr(m['excludeResourceRules']).forEach((r, i) => errs.push(...validateNamedRule(obj(r), `${path}.excludeResourceRules[${i}]`)));
  return errs;
}

function parseGroupVersion(gv: string): { group: string; version: string } | string {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return `unexpected GroupVersion string: ${gv}`;
}

function validateParamKind(pk: JSONObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(pk['apiVersion']);
  if (apiVersion === '') errs.push(required(`${path}.apiVersion`));
  else {
    const gv = parseGroupVersion(apiVersion);
    if (typeof gv === 'string') errs.push(invalid(`${path}.apiVersion`, apiVersion, gv));
    else {
      if (gv.group !== '') {
        const e = isDNS1123Subdomain(gv.group);
        if (e.length) errs.push(invalid(`${path}.apiVersion`, gv.group, e.join(',')));
      }
      if (gv.version === '') errs.push(invalid(`${path}.apiVersion`, apiVersion, 'version must be specified'));
      else {
        const e = isDNS1035Label(gv.version);
        if (e.length) errs.push(invalid(`${path}.apiVersion`, gv.version, e.join(',')));
      }
    }
  }
  const kind = str(pk['kind']);
  if (kind === '') errs.push(required(`${path}.kind`));
  else {
    const e = isDNS1035Label(kind.toLowerCase());
    if (e.length) errs.push(invalid(`${path}.kind`, kind, 'may have mixed case, but should otherwise match: ' + e.join(',')));
  }
  return errs;
}

/** convertCELErrorToValidationError. */
function celError(path: string, expression: string, e: CelCompileError): FieldError {
  return e.type === 'Invalid' ? invalid(path, expression, e.detail) : internalError(path, e.detail);
}

const validateQualifiedName = (value: string, path: string): FieldError[] => isQualifiedName(value).map((m) => invalid(path, value, m));

/** The expressions of the old policy, which compile in the StoredExpressions environment (preexistingExpressions). */
interface Preexisting {
  matchConditions: Set<string>;
  validations: Set<string>;
  messageExpressions: Set<string>;
  auditAnnotations: Set<string>;
}

function preexistingOf(old: JSONObject | undefined): Preexisting {
  const p: Preexisting = { matchConditions: new Set(), validations: new Set(), messageExpressions: new Set(), auditAnnotations: new Set() };
  if (!old) return p;
  const spec = obj(old['spec']);
  for (const mc of arr(spec['matchConditions'])) p.matchConditions.add(str(obj(mc)['expression']));
  for (const v of arr(spec['validations'])) {
    p.validations.add(str(obj(v)['expression']));
    if (str(obj(v)['messageExpression'])) p.messageExpressions.add(str(obj(v)['messageExpression']));
  }
  for (const a of arr(spec['auditAnnotations'])) p.auditAnnotations.add(str(obj(a)['valueExpression']));
  return p;
}

const modeOf = (set: Set<string>) => (expr: string): EnvMode => (set.has(expr) ? 'stored' : 'new');

interface SpecOptions {
  ignoreMatchConditions: boolean;
  preexisting: Preexisting;
}

function validatePolicySpec(name: string, spec: JSONObject, opts: SpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  const path = 'spec';
  const hasParams = isObject(spec['paramKind']);
  // kube's composited compiler exists only when there are variables: without, `variables` is undeclared.
  const variablesType = arr(spec['variables']).length > 0 ? newVariablesType() : undefined;
  const compileIn = (mode: EnvMode, expr: string, returns: ReturnTypes, authorizer: boolean, params = hasParams) =>
    compileExpression(admissionEnv(mode, { hasParams: params, hasAuthorizer: authorizer, ...(variablesType ? { variables: variablesType } : {}) }), expr, returns);

  const fp = spec['failurePolicy'];
  if (typeof fp !== 'string') errs.push(required(`${path}.failurePolicy`));
  else if (!SUPPORTED_FAILURE_POLICIES.includes(fp)) errs.push(notSupported(`${path}.failurePolicy`, fp, SUPPORTED_FAILURE_POLICIES));
  if (hasParams) errs.push(...validateParamKind(obj(spec['paramKind']), `${path}.paramKind`));
  if (!isObject(spec['matchConstraints'])) errs.push(required(`${path}.matchConstraints`));
  else {
    errs.push(...validateMatchResources(spec['matchConstraints'], `${path}.matchConstraints`));
    // At least one resource rule: it gives type checking its types.
    if (arr(obj(spec['matchConstraints'])['resourceRules']).length === 0) errs.push(required(`${path}.matchConstraints.resourceRules`));
  }
  if (!opts.ignoreMatchConditions) {
    const mcs = arr(spec['matchConditions']);
    if (mcs.length > 64) errs.push(tooMany(`${path}.matchConditions`, mcs.length, 64));
    const names = new Set<string>();
    mcs.forEach((raw, i) => {
      const mc = obj(raw);
      const p = `${path}.matchConditions[${i}]`;
      const expr = str(mc['expression']).trim();
      if (expr === '') errs.push(required(`${p}.expression`));
      else {
        // The stateless compiler: no `variables`, params when the policy has a paramKind.
        const c = compileExpression(admissionEnv(modeOf(opts.preexisting.matchConditions)(expr), { hasParams, hasAuthorizer: true }), expr, 'bool');
        if (c.error) errs.push(celError(`${p}.expression`, expr, c.error));
      }
      const n = str(mc['name']);
      if (n === '') errs.push(required(`${p}.name`));
      else errs.push(...validateQualifiedName(n, `${p}.name`));
      if (n !== '') {
        if (names.has(n)) errs.push(duplicate(`${p}.name`, n));
        else names.add(n);
      }
    });
  }
  arr(spec['variables']).forEach((raw, i) => {
    const v = obj(raw);
    const p = `${path}.variables[${i}]`;
    const vname = str(v['name']);
    if (vname.trim() === '') errs.push(required(`${p}.name`, 'name is not specified'));
    else if (!isCELIdentifier(vname)) errs.push(invalid(`${p}.name`, vname, 'name is not a valid CEL identifier'));
    const expr = str(v['expression']);
    if (expr.trim() === '') errs.push(required(`${p}.expression`, 'expression is not specified'));
    else {
      const { results } = compileVariables([{ name: vname, expression: expr }], modeOf(opts.preexisting.validations), { hasParams, hasAuthorizer: true }, variablesType);
      const c = results[0]!;
      if (c.error) errs.push(celError(`${p}.expression`, expr, c.error));
    }
  });
  const validations = arr(spec['validations']);
  const audits = arr(spec['auditAnnotations']);
  if (validations.length === 0 && audits.length === 0) {
    errs.push(required(`${path}.validations`, 'validations or auditAnnotations must contain at least one item'));
    errs.push(required(`${path}.auditAnnotations`, 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((raw, i) => {
    const v = obj(raw);
    const p = `${path}.validations[${i}]`;
    const expr = str(v['expression']);
    if (expr.trim() === '') errs.push(required(`${p}.expression`, 'expression is not specified'));
    else {
      const c = compileIn(modeOf(opts.preexisting.validations)(expr), expr, 'bool', true);
      if (c.error) errs.push(celError(`${p}.expression`, expr, c.error));
    }
    const me = str(v['messageExpression']);
    if (me.length > 0 && me.trim() === '') errs.push(invalid(`${p}.messageExpression`, me, 'must be non-empty if specified'));
    else if (me.trim() !== '') {
      // kube compiles messageExpressions with params only where match conditions may use them: with a paramKind.
      const c = compileIn(modeOf(opts.preexisting.messageExpressions)(me), me, 'string', false);
      if (c.error) errs.push(celError(`${p}.messageExpression`, me, c.error));
    }
    const msg = str(v['message']);
    const trimmed = msg.trim();
    if (msg.length > 0 && trimmed === '') errs.push(invalid(`${p}.message`, msg, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(trimmed)) errs.push(invalid(`${p}.message`, msg, 'message must not contain line breaks'));
    if (typeof v['reason'] === 'string' && !SUPPORTED_REASONS.includes(v['reason'])) errs.push(notSupported(`${p}.reason`, v['reason'], SUPPORTED_REASONS));
  });
  if (audits.length > 0) {
    if (audits.length > MAX_AUDIT_ANNOTATIONS) errs.push(invalid(`${path}.auditAnnotations`, audits, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
    const keys = new Set<string>();
    audits.forEach((raw, i) => {
      const a = obj(raw);
      const p = `${path}.auditAnnotations[${i}]`;
      const key = str(a['key']);
      if (name !== '') errs.push(...validateQualifiedName(`${name}/${key}`, `${p}.key`));
      else errs.push(invalid(`${p}.key`, key, 'requires metadata.name be non-empty'));
      const ve = str(a['valueExpression']);
      const tv = ve.trim();
      if (tv === '') errs.push(required(`${p}.valueExpression`, 'valueExpression is not specified'));
      else if (Buffer.byteLength(tv) > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH) {
        errs.push(required(`${p}.valueExpression`, `must not exceed ${MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH} bytes in length`));
      } else {
        const c = compileIn(modeOf(opts.preexisting.auditAnnotations)(ve), tv, 'stringOrNull', true);
        if (c.error) errs.push(c.error.type === 'Invalid' ? invalid(`${p}.valueExpression`, ve, c.error.detail) : internalError(`${p}.valueExpression`, c.error.detail));
      }
      if (keys.has(key)) errs.push(duplicate(`${p}.key`, key));
      keys.add(key);
    });
  }
  return errs;
}

const metaErrors = (o: JSONObject): FieldError[] => validateObjectMeta(metaOf(o), { namespaced: false, nameValidator: 'dns1123Subdomain' }, 'metadata');

export function validatePolicy(o: JSONObject): FieldError[] {
  return [...metaErrors(o), ...validatePolicySpec(metaOf(o).name ?? '', obj(o['spec']), { ignoreMatchConditions: false, preexisting: preexistingOf(undefined) })];
}

/** ValidateValidatingAdmissionPolicyUpdate: match conditions unchanged (with the paramKind) are not compiled again. */
export function validatePolicyUpdate(o: JSONObject, old: JSONObject): FieldError[] {
  const spec = obj(o['spec']);
  const oldSpec = obj(old['spec']);
  const same = (k: string): boolean => JSON.stringify(spec[k] ?? null) === JSON.stringify(oldSpec[k] ?? null);
  return [
    ...validateObjectMetaUpdate(metaOf(o), metaOf(old), 'metadata'),
    ...validatePolicySpec(metaOf(o).name ?? '', spec, { ignoreMatchConditions: same('paramKind') && same('matchConditions'), preexisting: preexistingOf(old) }),
  ];
}

/** validateValidatingAdmissionPolicyStatus. */
export function validatePolicyStatus(o: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const tc = obj(obj(o['status'])['typeChecking']);
  arr(tc['expressionWarnings']).forEach((raw, i) => {
    const w = obj(raw);
    const p = `status.typeChecking.expressionWarnings[${i}]`;
    if (str(w['fieldRef']) === '') errs.push(required(`${p}.fieldRef`));
    if (str(w['warning']) === '') errs.push(required(`${p}.warning`));
  });
  return errs;
}

function validateParamRef(pr: unknown, path: string): FieldError[] {
  if (!isObject(pr)) return [];
  const r = pr as JSONObject;
  const errs: FieldError[] = [];
  const name = str(r['name']);
  const hasSelector = isObject(r['selector']);
  if (name.length > 0) {
    for (const msg of validatePathSegmentName(name, false)) errs.push(invalid(`${path}.name`, name, msg));
    if (hasSelector) errs.push(forbidden(`${path}.name`, 'name and selector are mutually exclusive'));
  }
  if (hasSelector) {
    errs.push(...validateLabelSelector(r['selector'] as never, `${path}.selector`));
    if (name.length > 0) errs.push(forbidden(`${path}.selector`, 'name and selector are mutually exclusive'));
  }
  if (name.length === 0 && !hasSelector) errs.push(required(path, 'one of name or selector must be specified'));
  const action = str(r['parameterNotFoundAction']);
  if (action === '') errs.push(required(`${path}.parameterNotFoundAction`));
  else if (action !== 'Deny' && action !== 'Allow') errs.push(notSupported(`${path}.parameterNotFoundAction`, action, ['Deny', 'Allow']));
  return errs;
}

function validateBindingSpec(spec: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const policyName = str(spec['policyName']);
  if (policyName === '') errs.push(required('spec.policyName'));
  else for (const msg of nameIsDNSSubdomain(policyName, false)) errs.push(invalid('spec.policyName', policyName, msg));
  errs.push(...validateParamRef(spec['paramRef'], 'spec.paramRef'));
  // kube's path is misspelt so: "matchResouces".
  errs.push(...validateMatchResources(spec['matchResources'], 'spec.matchResouces'));
  const actions = arr(spec['validationActions']);
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    const s = str(a);
    if (!VALIDATION_ACTIONS.includes(s)) errs.push(notSupported(`spec.validationActions[${i}]`, a, VALIDATION_ACTIONS));
    if (seen.has(s)) errs.push(duplicate(`spec.validationActions[${i}]`, a));
    seen.add(s);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(invalid('spec.validationActions', goSlice('admissionregistration.ValidationAction', actions), 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(required('spec.validationActions', 'at least one validation action is required'));
  return errs;
}

export const validateBinding = (o: JSONObject): FieldError[] => [...metaErrors(o), ...validateBindingSpec(obj(o['spec']))];

export const validateBindingUpdate = (o: JSONObject, old: JSONObject): FieldError[] => [
  ...validateObjectMetaUpdate(metaOf(o), metaOf(old), 'metadata'),
  ...validateBindingSpec(obj(o['spec'])),
];
