// RBAC's pure parts: rule matching as RuleAllows does it, Covers and the compact rules escalation errors
// print, the rule resolver's subject index (users, groups, ServiceAccounts, missing roles), the
// authorizer's reasons, aggregation and bootstrap reconciliation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestAttributes } from '../../src/auth/authorize.js';
import type { UserInfo } from '../../src/api/user.js';
import type { JSONObject } from '../../src/util/json.js';
import { compactRules, compactString, covers, ruleAllows, type PolicyRule } from '../../src/auth/rbac/policy-rule.js';
import { BindingIndex, RuleResolver } from '../../src/auth/rbac/rule-resolver.js';
import { aggregateMessage } from '../../src/auth/rbac/authorizer.js';
import { confirmNoEscalation } from '../../src/auth/rbac/escalation.js';
import { aggregatedRules } from '../../src/controllers/cluster-role-aggregation.js';
import { reconcileClusterRole, reconcileClusterRoleBinding } from '../../src/auth/rbac/reconcile.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from '../../src/auth/rbac/bootstrap-policy.js';

const bob: UserInfo = { name: 'bob', groups: ['team', 'system:authenticated'] };

function res(verb: string, r: Partial<RequestAttributes>): RequestAttributes {
  return { user: bob, verb, isResourceRequest: true, path: '', group: '', resource: '', subresource: '', namespace: 'default', name: '', ...r };
}
const url = (verb: string, path: string): RequestAttributes => ({ ...res(verb, {}), isResourceRequest: false, path, namespace: '' });

test('ruleAllows: verbs, groups, resources and names, each with *', () => {
  const rule: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] };
  assert.equal(ruleAllows(res('get', { resource: 'configmaps', name: 'x' }), rule), true);
  assert.equal(ruleAllows(res('delete', { resource: 'configmaps' }), rule), false);
  assert.equal(ruleAllows(res('get', { resource: 'configmaps', group: 'apps' }), rule), false);
  assert.equal(ruleAllows(res('get', { resource: 'secrets' }), rule), false);
  assert.equal(ruleAllows(res('delete', { group: 'x.io', resource: 'widgets' }), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }), true);
  const named: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] };
  assert.equal(ruleAllows(res('get', { resource: 'configmaps', name: 'a' }), named), true);
  assert.equal(ruleAllows(res('get', { resource: 'configmaps', name: 'b' }), named), false);
  // A list has no name: resourceNames never allow it.
  assert.equal(ruleAllows(res('get', { resource: 'configmaps' }), named), false);
  // A rule without apiGroups matches no resource.
  assert.equal(ruleAllows(res('get', { resource: 'configmaps' }), { verbs: ['get'], resources: ['configmaps'] }), false);
});

test('ruleAllows: subresources as resource/subresource, and */subresource', () => {
  const sa = (sub: string) => res('create', { resource: 'serviceaccounts', subresource: sub, name: 'default' });
  assert.equal(ruleAllows(sa('token'), { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts'] }), false);
  assert.equal(ruleAllows(sa('token'), { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] }), true);
  assert.equal(ruleAllows(sa('token'), { verbs: ['create'], apiGroups: [''], resources: ['*/token'] }), true);
  assert.equal(ruleAllows(sa('tokens'), { verbs: ['create'], apiGroups: [''], resources: ['*/token'] }), false);
  assert.equal(ruleAllows(sa(''), { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] }), false);
});

test('ruleAllows: non-resource URLs, exact or by a trailing *', () => {
  const rule: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] };
  assert.equal(ruleAllows(url('get', '/healthz'), rule), true);
  assert.equal(ruleAllows(url('get', '/healthz/ping'), rule), false);
  assert.equal(ruleAllows(url('get', '/apis/apps/v1'), rule), true);
  assert.equal(ruleAllows(url('get', '/apis'), rule), false);
  assert.equal(ruleAllows(url('post', '/healthz'), rule), false);
  // Resource rules never allow a path, nor URL rules a resource.
  assert.equal(ruleAllows(url('get', '/api'), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }), false);
  assert.equal(ruleAllows(res('get', { resource: 'pods' }), { verbs: ['*'], nonResourceURLs: ['*'] }), false);
});

test('covers: what an owner holds covers a servant rule by rule; the missing ones broken down', () => {
  const owner: PolicyRule[] = [
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] },
    { verbs: ['get'], apiGroups: [''], resources: ['*/status'] },
    { verbs: ['get'], nonResourceURLs: ['/logs/*'] },
  ];
  assert.equal(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }]).covered, true);
  assert.equal(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods/status'] }]).covered, true);
  assert.equal(covers(owner, [{ verbs: ['get'], nonResourceURLs: ['/logs/x'] }]).covered, true);
  const { covered, missing } = covers(owner, [{ verbs: ['get', 'list', 'watch'], apiGroups: ['', 'apps'], resources: ['configmaps'] }]);
  assert.equal(covered, false);
  assert.deepEqual(missing, [
    { verbs: ['watch'], apiGroups: [''], resources: ['configmaps'] },
    { verbs: ['get'], apiGroups: ['apps'], resources: ['configmaps'] },
    { verbs: ['list'], apiGroups: ['apps'], resources: ['configmaps'] },
    { verbs: ['watch'], apiGroups: ['apps'], resources: ['configmaps'] },
  ]);
  // Compacted per group and resource, as the escalation error prints them.
  assert.deepEqual(compactRules(missing).map(compactString), [
    '{APIGroups:[""], Resources:["configmaps"], Verbs:["watch"]}',
    '{APIGroups:["apps"], Resources:["configmaps"], Verbs:["get" "list" "watch"]}',
  ]);
  // A named owner rule does not cover an unnamed servant one.
  assert.equal(covers([{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]).covered, false);
  assert.equal(compactString({ verbs: ['get'], nonResourceURLs: ['/x'] }), '{NonResourceURLs:["/x"], Verbs:["get"]}');
});

function resolverOf(objects: { roles?: JSONObject[]; clusterRoles?: JSONObject[]; roleBindings?: JSONObject[]; clusterRoleBindings?: JSONObject[] }): RuleResolver {
  const cache = (list: JSONObject[] = []) => {
    const m = new Map(list.map((o) => [[(o['metadata'] as JSONObject)['namespace'], (o['metadata'] as JSONObject)['name']].filter(Boolean).join('/'), o]));
    return { get: (k: string) => m.get(k) };
  };
  const rb = new BindingIndex();
  const crb = new BindingIndex();
  for (const b of objects.roleBindings ?? []) rb.add(b);
  for (const b of objects.clusterRoleBindings ?? []) crb.add(b);
  return new RuleResolver(cache(objects.roles), cache(objects.clusterRoles), rb, crb);
}

const role = (ns: string, name: string, rules: PolicyRule[]): JSONObject => ({ metadata: { namespace: ns, name }, rules }) as unknown as JSONObject;
const clusterRole = (name: string, rules: PolicyRule[]): JSONObject => ({ metadata: { name }, rules }) as unknown as JSONObject;
const binding = (ns: string, name: string, kind: string, roleName: string, subjects: JSONObject[]): JSONObject =>
  ({ metadata: ns ? { namespace: ns, name } : { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName }, subjects }) as unknown as JSONObject;
const user = (name: string): JSONObject => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });
const group = (name: string): JSONObject => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name });

test('the resolver: bindings found by user, group and ServiceAccount; cluster rules everywhere, role rules in their namespace', () => {
  const cmRead: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] };
  const podRead: PolicyRule = { verbs: ['list'], apiGroups: [''], resources: ['pods'] };
  const r = resolverOf({
    roles: [role('a', 'cm', [cmRead])],
    clusterRoles: [clusterRole('pods', [podRead])],
    roleBindings: [
      binding('a', 'by-user', 'Role', 'cm', [user('bob')]),
      binding('a', 'sa-local', 'Role', 'cm', [{ kind: 'ServiceAccount', name: 'robot' }]),
      binding('b', 'by-group', 'ClusterRole', 'pods', [group('team')]),
    ],
    clusterRoleBindings: [binding('', 'sa-anywhere', 'ClusterRole', 'pods', [{ kind: 'ServiceAccount', name: 'robot', namespace: 'a' }])],
  });
  assert.deepEqual(r.rulesFor(bob, 'a').rules, [cmRead]);
  assert.deepEqual(r.rulesFor(bob, 'b').rules, [podRead]);
  assert.deepEqual(r.rulesFor(bob, '').rules, []);
  const robot: UserInfo = { name: 'system:serviceaccount:a:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:a', 'system:authenticated'] };
  // The ServiceAccount subject of a RoleBinding without a namespace names the binding's namespace.
  assert.deepEqual(r.rulesFor(robot, 'a').rules, [podRead, cmRead]);
  assert.deepEqual(r.rulesFor(robot, 'b').rules, [podRead]);
  assert.deepEqual(r.rulesFor({ name: 'system:serviceaccount:b:robot', groups: [] }, 'a').rules, []);
});

test('the resolver: a binding to a missing role is an error, as the listers word it; deletions leave the index', () => {
  const rb = binding('a', 'dangling', 'Role', 'gone', [user('bob'), group('team')]);
  const index = new BindingIndex();
  index.add(rb);
  const r = new RuleResolver({ get: () => undefined }, { get: () => undefined }, index, new BindingIndex());
  assert.deepEqual(r.rulesFor(bob, 'a'), { rules: [], errors: ['role.rbac.authorization.k8s.io "gone" not found'] });
  index.delete(rb);
  assert.deepEqual(r.rulesFor(bob, 'a'), { rules: [], errors: [] });
  assert.equal(aggregateMessage(['x']), 'x');
  assert.equal(aggregateMessage(['x', 'y', 'x']), '[x, y]');
});

test('the resolver stays fast with thousands of bindings: only the user\'s are looked at', () => {
  const index = new BindingIndex();
  for (let i = 0; i < 5000; i++) index.add(binding('ns', `b${i}`, 'Role', 'r', [user(`user-${i}`)]));
  const started = process.hrtime.bigint();
  for (let i = 0; i < 10000; i++) index.bindingsFor(bob, 'ns');
  assert.equal([...index.bindingsFor({ name: 'user-42', groups: [] }, 'ns')].length, 1);
  assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 500);
});

test('confirmNoEscalation: kube\'s message, with the groups as Go quotes them', () => {
  const r = resolverOf({ clusterRoles: [clusterRole('cm', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }])], clusterRoleBindings: [binding('', 'x', 'ClusterRole', 'cm', [user('bob')])] });
  assert.equal(confirmNoEscalation(r, bob, 'default', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]), undefined);
  assert.equal(
    confirmNoEscalation(r, bob, 'default', [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['configmaps', 'secrets'] }]),
    'user "bob" (groups=["team" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}\n' +
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
  );
});

test('aggregation: the union of the matching roles\' rules, by name, each once, without itself', () => {
  const view = { metadata: { name: 'view' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { v: 'true' } }] }, rules: [] } as unknown as JSONObject;
  const a = { metadata: { name: 'b-role', labels: { v: 'true' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] } as unknown as JSONObject;
  const b = { metadata: { name: 'a-role', labels: { v: 'true' } }, rules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }] } as unknown as JSONObject;
  const c = { metadata: { name: 'other', labels: { v: 'false' } }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] } as unknown as JSONObject;
  assert.deepEqual(aggregatedRules(view, [view, a, b, c]), [
    { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
    { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
  ]);
});

test('bootstrap reconciliation: missing rules, labels and subjects are added; nothing is removed; a changed roleRef recreates', () => {
  const expected = bootstrapClusterRoles().find((r) => (r['metadata'] as JSONObject)['name'] === 'system:basic-user')!;
  assert.equal(reconcileClusterRole(structuredClone(expected), expected), undefined);
  // The same rules with a label of the user's own: nothing to do; without a label of the policy's: it comes back.
  const extra = structuredClone(expected);
  (extra['metadata'] as { labels: Record<string, string> }).labels['mine'] = 'yes';
  assert.equal(reconcileClusterRole(extra, expected), undefined);
  const bare = structuredClone(expected);
  delete (bare['metadata'] as JSONObject)['labels'];
  assert.deepEqual((reconcileClusterRole(bare, expected)!['metadata'] as JSONObject)['labels'], { 'kubernetes.io/bootstrapping': 'rbac-defaults' });
  const edited = structuredClone(expected);
  edited['rules'] = [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] }, { verbs: ['get'], apiGroups: ['x'], resources: ['y'] }];
  (edited['metadata'] as JSONObject)['labels'] = { mine: 'yes' };
  const fixed = reconcileClusterRole(edited, expected)!;
  assert.deepEqual(fixed['rules'], [
    { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
    { verbs: ['get'], apiGroups: ['x'], resources: ['y'] },
    { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
    { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
  ]);
  assert.deepEqual((fixed['metadata'] as JSONObject)['labels'], { 'kubernetes.io/bootstrapping': 'rbac-defaults', mine: 'yes' });
  // Aggregated roles keep their controller-made rules.
  const view = bootstrapClusterRoles().find((r) => (r['metadata'] as JSONObject)['name'] === 'view')!;
  assert.equal(reconcileClusterRole({ ...structuredClone(view), rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }, view), undefined);

  const crb = bootstrapClusterRoleBindings().find((b) => (b['metadata'] as JSONObject)['name'] === 'system:public-info-viewer')!;
  const fewer = { ...structuredClone(crb), subjects: [group('extra')] };
  const reconciled = reconcileClusterRoleBinding(fewer, crb);
  assert.ok(reconciled && reconciled !== 'recreate');
  assert.deepEqual(reconciled['subjects'], [
    group('extra'),
    group('system:authenticated'),
    group('system:unauthenticated'),
  ]);
  assert.equal(reconcileClusterRoleBinding({ ...structuredClone(crb), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'other' } }, crb), 'recreate');
});
