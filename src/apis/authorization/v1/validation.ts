// pkg/apis/authorization/validation (1.33) over the v1 JSON: which of the attributes a review names, who it is
// for, the selectors it carries, and empty metadata. Bad values print as kube prints its internal structs (%#v).
import { GO_VALUE, invalid, required, type FieldError } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';

const objAt = (o: JSONObject, k: string): JSONObject | undefined => (isObject(o[k]) ? (o[k] as JSONObject) : undefined);
const str = (o: JSONObject | undefined, k: string): string => (o && typeof o[k] === 'string' ? (o[k] as string) : '');
const list = (o: JSONObject | undefined, k: string): unknown[] => (o && Array.isArray(o[k]) ? (o[k] as unknown[]) : []);

const goStr = (s: string): string => JSON.stringify(s);
const goStruct = (type: string, fields: [string, string][]): string => `${type}{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
const goRendered = (text: string): object => ({ [GO_VALUE]: text });

/** %#v of the internal NonResourceAttributes a value decodes to (field.Invalid dereferences the pointer). */
function goNonResourceAttributes(a: JSONObject): object {
  return goRendered(goStruct('authorization.NonResourceAttributes', [
    ['Path', goStr(str(a, 'path'))],
    ['Verb', goStr(str(a, 'verb'))],
  ]));
}

/** %#v of kube's internal metav1.ObjectMeta, for "must be empty". */
function goObjectMeta(m: JSONObject): object {
  const s = (k: string): string => goStr(str(m, k));
  const map = (k: string): string => {
    const v = objAt(m, k);
    if (!v) return 'map[string]string(nil)';
    const entries = Object.keys(v).sort().map((key) => `${goStr(key)}:${goStr(typeof v[key] === 'string' ? (v[key] as string) : '')}`);
    return `map[string]string{${entries.join(', ')}}`;
  };
  const finalizers = list(m, 'finalizers').map((x) => goStr(String(x)));
  return goRendered(
    goStruct('v1.ObjectMeta', [
      ['Name', s('name')],
      ['GenerateName', s('generateName')],
      ['Namespace', s('namespace')],
      ['SelfLink', s('selfLink')],
      ['UID', s('uid')],
      ['ResourceVersion', s('resourceVersion')],
      ['Generation', String(typeof m['generation'] === 'number' ? m['generation'] : 0)],
      ['CreationTimestamp', 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)'],
      ['DeletionTimestamp', '<nil>'],
      ['DeletionGracePeriodSeconds', '(*int64)(nil)'],
      ['Labels', map('labels')],
      ['Annotations', map('annotations')],
      ['OwnerReferences', '[]v1.OwnerReference(nil)'],
      ['Finalizers', finalizers.length ? `[]string{${finalizers.join(', ')}}` : '[]string(nil)'],
      ['ManagedFields', '[]v1.ManagedFieldsEntry(nil)'],
    ]),
  );
}

/** Whether metadata holds anything besides managedFields (and, for LocalSubjectAccessReview, the namespace). */
function metadataSet(meta: JSONObject | undefined, except: readonly string[]): boolean {
  if (!meta) return false;
  return Object.entries(meta).some(([k, v]) => {
    if (k === 'managedFields' || except.includes(k) || v === null || v === undefined || v === '' || v === 0) return false;
    if (Array.isArray(v)) return v.length > 0;
    if (isObject(v)) return Object.keys(v).length > 0;
    return true;
  });
}

function validateSelector(kind: 'Field' | 'Label', sel: JSONObject | undefined, path: string): FieldError[] {
  if (!sel) return [];
  const errs: FieldError[] = [];
  const raw = str(sel, 'rawSelector');
  const reqs = list(sel, 'requirements');
  if (raw.length > 0 && reqs.length > 0) errs.push(invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
  if (raw.length === 0 && reqs.length === 0) errs.push(required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  reqs.forEach((r, i) => errs.push(...validateRequirement(kind, isObject(r) ? (r as JSONObject) : {}, `${path}.requirements[${i}]`)));
  return errs;
}

/** ValidateLabelSelectorRequirement / ValidateFieldSelectorRequirement with unknown operators allowed. */
function validateRequirement(kind: 'Field' | 'Label', r: JSONObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(r, 'operator');
  const values = list(r, 'values');
  if (op === 'In' || op === 'NotIn') {
    if (values.length === 0) errs.push(required(`${path}.values`, 'must be specified when `operator` is \'In\' or \'NotIn\''));
  } else if (op === 'Exists' || op === 'DoesNotExist') {
    if (values.length > 0) errs.push({ type: 'FieldValueForbidden', field: `${path}.values`, detail: 'may not be specified when `operator` is \'Exists\' or \'DoesNotExist\'' });
  }
  if (kind === 'Field' && str(r, 'key') === '') errs.push(required(`${path}.key`, 'must be specified'));
  return errs;
}

function validateResourceAttributes(ra: JSONObject | undefined): FieldError[] {
  if (!ra) return [];
  const base = 'spec.resourceAttributes';
  return [...validateSelector('Field', objAt(ra, 'fieldSelector'), `${base}.fieldSelector`), ...validateSelector('Label', objAt(ra, 'labelSelector'), `${base}.labelSelector`)];
}

/** The attributes half of ValidateSubjectAccessReviewSpec and ValidateSelfSubjectAccessReviewSpec. */
function validateAttributes(spec: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const ra = objAt(spec, 'resourceAttributes');
  const nra = objAt(spec, 'nonResourceAttributes');
  if (ra && nra) errs.push(invalid('spec.nonResourceAttributes', goNonResourceAttributes(nra), 'cannot be specified in combination with resourceAttributes'));
  if (!ra && !nra) errs.push(invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  return errs;
}

function validateSubjectAccessReviewSpec(spec: JSONObject): FieldError[] {
  const errs = validateAttributes(spec);
  const user = str(spec, 'user');
  if (user.length === 0 && list(spec, 'groups').length === 0) errs.push(invalid('spec.user', user, 'at least one of user or group must be specified'));
  errs.push(...validateResourceAttributes(objAt(spec, 'resourceAttributes')));
  return errs;
}

const specOf = (obj: JSONObject): JSONObject => objAt(obj, 'spec') ?? {};

export function validateSubjectAccessReview(obj: JSONObject): FieldError[] {
  const errs = validateSubjectAccessReviewSpec(specOf(obj));
  const meta = objAt(obj, 'metadata');
  if (metadataSet(meta, [])) errs.push(invalid('metadata', goObjectMeta(meta!), 'must be empty'));
  return errs;
}

export function validateSelfSubjectAccessReview(obj: JSONObject): FieldError[] {
  const spec = specOf(obj);
  const errs = [...validateAttributes(spec), ...validateResourceAttributes(objAt(spec, 'resourceAttributes'))];
  const meta = objAt(obj, 'metadata');
  if (metadataSet(meta, [])) errs.push(invalid('metadata', goObjectMeta(meta!), 'must be empty'));
  return errs;
}

export function validateLocalSubjectAccessReview(obj: JSONObject): FieldError[] {
  const spec = specOf(obj);
  const errs = validateSubjectAccessReviewSpec(spec);
  const meta = objAt(obj, 'metadata');
  if (metadataSet(meta, ['namespace'])) errs.push(invalid('metadata', goObjectMeta(meta!), 'must be empty except for namespace'));
  const ra = objAt(spec, 'resourceAttributes');
  const ns = str(meta, 'namespace');
  if (ra && str(ra, 'namespace') !== ns) errs.push(invalid('spec.resourceAttributes.namespace', str(ra, 'namespace'), 'must match metadata.namespace'));
  const nra = objAt(spec, 'nonResourceAttributes');
  if (nra) errs.push(invalid('spec.nonResourceAttributes', goNonResourceAttributes(nra), 'disallowed on this kind of request'));
  return errs;
}
