// pkg/apis/rbac/validation's messages and field paths, as a 422 prints them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../src/api/status.js';
import type { JSONObject } from '../../src/util/json.js';
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
} from '../../src/apis/rbac/v1/validation.js';

const message = (kind: string, obj: unknown, errs: ReturnType<typeof validateRole>): string =>
  S.invalid('rbac.authorization.k8s.io', kind, String(((obj as JSONObject)['metadata'] as JSONObject)['name']), errs).status.message ?? '';

const RBAC = 'rbac.authorization.k8s.io';

test('Role rules: verbs required, resource rules need groups and resources, names only for one resource, no URLs in namespaces', () => {
  const role = {
    metadata: { name: 'r', namespace: 'default' },
    rules: [
      { verbs: [], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get'] },
      { verbs: ['get'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['x'] },
      { verbs: ['get'], nonResourceURLs: ['/healthz'] },
    ],
  } as unknown as JSONObject;
  assert.equal(
    message('Role', role, validateRole(role)),
    'Role.rbac.authorization.k8s.io "r" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, ' +
      'rules[1].apiGroups: Required value: resource rules must supply at least one api group, ' +
      'rules[1].resources: Required value: resource rules must supply at least one resource, ' +
      'rules[2].resourceNames: Required value: resource names cannot apply to multiple resources, ' +
      'rules[3].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs]',
  );
});

test('ClusterRole: URLs but not with resources; names are path segments; aggregationRule needs a selector', () => {
  const role = {
    metadata: { name: 'a/b' },
    rules: [{ verbs: ['get'], nonResourceURLs: ['/x'], resources: ['pods'] }],
    aggregationRule: { clusterRoleSelectors: [] },
  } as unknown as JSONObject;
  assert.equal(
    message('ClusterRole', role, validateClusterRole(role)),
    'ClusterRole.rbac.authorization.k8s.io "a/b" is invalid: [metadata.name: Invalid value: "a/b": may not contain \'/\', ' +
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs, ' +
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil]',
  );
  // Names kube would refuse as DNS names are fine: system:aggregate-to-view.
  assert.deepEqual(validateClusterRole({ metadata: { name: 'system:aggregate-to-view' }, rules: [] } as unknown as JSONObject), []);
  const badSelector = { metadata: { name: 'x' }, aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Bad' }] }] } } as unknown as JSONObject;
  assert.equal(validateClusterRole(badSelector)[0]?.field, 'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator');
});

test('bindings: roleRef group, kind and name; subjects by kind', () => {
  const rb = {
    metadata: { name: 'b', namespace: 'default' },
    roleRef: { apiGroup: 'x', kind: 'Thing', name: '' },
    subjects: [
      { kind: 'User', name: 'bob' },
      { kind: 'Group', apiGroup: RBAC, name: '' },
      { kind: 'ServiceAccount', apiGroup: RBAC, name: 'Robot' },
      { kind: 'Robot', name: 'r' },
    ],
  } as unknown as JSONObject;
  assert.equal(
    message('RoleBinding', rb, validateRoleBinding(rb)),
    'RoleBinding.rbac.authorization.k8s.io "b" is invalid: [roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io", ' +
      'roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole", ' +
      'roleRef.name: Required value, ' +
      'subjects[0].apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io", ' +
      'subjects[1].name: Required value, subjects[1].name: Invalid value: "": group name cannot be empty, ' +
      "subjects[2].name: Invalid value: \"Robot\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), " +
      'subjects[2].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: "", ' +
      'subjects[3].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]',
  );
  // ClusterRoleBindings refer to ClusterRoles only, and their ServiceAccounts need a namespace.
  const crb = { metadata: { name: 'c' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'robot' }] } as unknown as JSONObject;
  assert.deepEqual(
    validateClusterRoleBinding(crb).map((e) => `${e.field}: ${e.detail}`),
    ['roleRef.kind: supported values: "ClusterRole"', 'subjects[0].namespace: '],
  );
});

test('roleRef cannot change', () => {
  const old = { metadata: { name: 'b', namespace: 'default', resourceVersion: '1' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' } } as unknown as JSONObject;
  const changed = { ...old, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'edit' } } as JSONObject;
  assert.equal(
    message('RoleBinding', changed, validateRoleBindingUpdate(changed, old)),
    'RoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
  );
  assert.deepEqual(validateRoleBindingUpdate(old, old), []);
});
