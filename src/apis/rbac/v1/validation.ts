// pkg/apis/rbac/validation: roles' rules, bindings' roleRef and subjects, with kube's messages and field
// paths. Names are path segments only (minimalNameRequirements), not DNS names.
import type { FieldError } from '../../../api/field-error.js';
import { invalid, notSupported, required } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { goRendered, goStringSlice, validateObjectMeta, validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { isValidPathSegmentName, nameIsDNSSubdomain, type NameValidateFn } from '../../../schema/names.js';
import { validateLabelSelector } from '../../../registry/selectors.js';
import { metaOf } from '../../../registry/store.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

const minimalNameRequirements: NameValidateFn = (name) => isValidPathSegmentName(name);

const strings = (v: unknown): string[] => (Array.isArray(v) ? (v as unknown[]).filter((s): s is string => typeof s === 'string') : []);
const str = (o: JSONObject, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
const objects = (v: unknown): JSONObject[] => (Array.isArray(v) ? (v as unknown[]).map((o) => (isObject(o) ? o : {})) : []);
const goSlice = (list: string[]): string[] => goRendered(list, goStringSlice(list));

function validatePolicyRule(rule: JSONObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const [verbs, groups, resources, names, urls] = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'].map((k) => strings(rule[k])) as [
    string[],
    string[],
    string[],
    string[],
    string[],
  ];
  if (verbs.length === 0) errs.push(required(`${path}.verbs`, 'verbs must contain at least one value'));
  if (urls.length > 0) {
    if (namespaced) errs.push(invalid(`${path}.nonResourceURLs`, goSlice(urls), 'namespaced rules cannot apply to non-resource URLs'));
    if (groups.length > 0 || resources.length > 0 || names.length > 0) {
      errs.push(invalid(`${path}.nonResourceURLs`, goSlice(urls), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (groups.length === 0) errs.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (resources.length === 0) errs.push(required(`${path}.resources`, 'resource rules must supply at least one resource'));
  if (names.length > 0 && resources.length > 1) errs.push(required(`${path}.resourceNames`, 'resource names cannot apply to multiple resources'));
  return errs;
}

const validateRules = (obj: JSONObject, namespaced: boolean): FieldError[] => objects(obj['rules']).flatMap((r, i) => validatePolicyRule(r, namespaced, `rules[${i}]`));

export const validateRole = (obj: JSONObject): FieldError[] => [
  ...validateObjectMeta(metaOf(obj), { namespaced: true, nameValidator: minimalNameRequirements }, 'metadata'),
  ...validateRules(obj, true),
];

/** A LabelSelector as Go holds it: absent strings are "", null requirements zero values. */
const goSelector = (s: JSONObject): { matchLabels?: Record<string, string>; matchExpressions: { key: string; operator: string; values: string[] }[] } => ({
  ...(isObject(s['matchLabels']) ? { matchLabels: s['matchLabels'] as Record<string, string> } : {}),
  matchExpressions: objects(s['matchExpressions']).map((e) => ({ key: str(e, 'key'), operator: str(e, 'operator'), values: strings(e['values']) })),
});

/** ValidateClusterRole, with its aggregationRule's selectors. */
export function validateClusterRole(obj: JSONObject, allowInvalidLabelValueInSelector = false): FieldError[] {
  const errs = [...validateObjectMeta(metaOf(obj), { namespaced: false, nameValidator: minimalNameRequirements }, 'metadata'), ...validateRules(obj, false)];
  const rule = obj['aggregationRule'];
  if (isObject(rule)) {
    const selectors = objects(rule['clusterRoleSelectors']);
    if (selectors.length === 0) errs.push(required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((s, i) => errs.push(...validateLabelSelector(goSelector(s), `aggregationRule.clusterRoleSelectors[${i}]`, { allowInvalidLabelValueInSelector })));
  }
  return errs;
}

export const validateRoleUpdate = (obj: JSONObject, old: JSONObject): FieldError[] => [
  ...validateRole(obj),
  ...validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata'),
];

export function validateClusterRoleUpdate(obj: JSONObject, old: JSONObject): FieldError[] {
  // An old role whose selectors kube would refuse now may keep them (AllowInvalidLabelValueInSelector).
  const oldInvalid = isObject(old['aggregationRule']) && validateClusterRole({ ...old, metadata: { name: 'x' } }).length > 0;
  return [...validateClusterRole(obj, oldInvalid), ...validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata')];
}

const roleRefOf = (obj: JSONObject): JSONObject => (isObject(obj['roleRef']) ? obj['roleRef'] : {});

function validateSubject(s: JSONObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(s, 'name');
  const apiGroup = str(s, 'apiGroup');
  if (!name) errs.push(required(`${path}.name`, ''));
  switch (str(s, 'kind')) {
    case 'ServiceAccount':
      if (name) for (const msg of nameIsDNSSubdomain(name, false)) errs.push(invalid(`${path}.name`, name, msg));
      if (apiGroup) errs.push(notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !str(s, 'namespace')) errs.push(required(`${path}.namespace`, ''));
      break;
    case 'User':
    case 'Group':
      if (!name) errs.push(invalid(`${path}.name`, name, `${str(s, 'kind') === 'User' ? 'user' : 'group'} name cannot be empty`));
      if (apiGroup !== RBAC_GROUP) errs.push(notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(notSupported(`${path}.kind`, str(s, 'kind'), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(obj: JSONObject, namespaced: boolean): FieldError[] {
  const errs = validateObjectMeta(metaOf(obj), { namespaced, nameValidator: minimalNameRequirements }, 'metadata');
  const ref = roleRefOf(obj);
  if (str(ref, 'apiGroup') !== RBAC_GROUP) errs.push(notSupported('roleRef.apiGroup', str(ref, 'apiGroup'), [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(str(ref, 'kind'))) errs.push(notSupported('roleRef.kind', str(ref, 'kind'), kinds));
  const name = str(ref, 'name');
  if (!name) errs.push(required('roleRef.name', ''));
  else for (const msg of isValidPathSegmentName(name)) errs.push(invalid('roleRef.name', name, msg));
  objects(obj['subjects']).forEach((s, i) => errs.push(...validateSubject(s, namespaced, `subjects[${i}]`)));
  return errs;
}

/** Go's %#v of an rbac.RoleRef, as the "cannot change roleRef" error prints it. */
const goRoleRef = (ref: JSONObject): JSONObject =>
  goRendered({ ...ref }, `rbac.RoleRef{APIGroup:${JSON.stringify(str(ref, 'apiGroup'))}, Kind:${JSON.stringify(str(ref, 'kind'))}, Name:${JSON.stringify(str(ref, 'name'))}}`);

const sameRoleRef = (a: JSONObject, b: JSONObject): boolean => ['apiGroup', 'kind', 'name'].every((k) => str(a, k) === str(b, k));

function validateBindingUpdate(obj: JSONObject, old: JSONObject, namespaced: boolean): FieldError[] {
  const errs = [...validateBinding(obj, namespaced), ...validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata')];
  if (!sameRoleRef(roleRefOf(obj), roleRefOf(old))) errs.push(invalid('roleRef', goRoleRef(roleRefOf(obj)), 'cannot change roleRef'));
  return errs;
}

export const validateRoleBinding = (obj: JSONObject): FieldError[] => validateBinding(obj, true);
export const validateClusterRoleBinding = (obj: JSONObject): FieldError[] => validateBinding(obj, false);
export const validateRoleBindingUpdate = (obj: JSONObject, old: JSONObject): FieldError[] => validateBindingUpdate(obj, old, true);
export const validateClusterRoleBindingUpdate = (obj: JSONObject, old: JSONObject): FieldError[] => validateBindingUpdate(obj, old, false);
