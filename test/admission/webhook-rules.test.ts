// Webhook matching as kube's predicates decide (rules/rules_test.go, namespace and object matcher cases):
// operations, groups, versions, resources with subresource wildcards, scopes, Equivalent, selectors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONObject } from '../../src/util/json.js';
import { matchingResource, namespaceSelectorMatches, objectSelectorMatches, ruleMatches, type RuleRequest } from '../../src/admission/webhook-rules.js';

const req = (r: Partial<Omit<RuleRequest, 'resource'>> & { resource?: Partial<RuleRequest['resource']> } = {}): RuleRequest => ({
  operation: 'CREATE',
  subresource: '',
  namespace: 'ns',
  name: 'x',
  ...r,
  resource: { group: 'apps', version: 'v1', resource: 'deployments', ...r.resource },
});
const rule = (r: Record<string, unknown> = {}) => ({ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: '*', ...r });

test('operations, groups and versions match exactly or by "*"', () => {
  assert.equal(ruleMatches(rule(), req()), true);
  assert.equal(ruleMatches(rule(), req({ operation: 'UPDATE' })), false);
  assert.equal(ruleMatches(rule({ operations: ['*'] }), req({ operation: 'DELETE' })), true);
  assert.equal(ruleMatches(rule({ operations: ['CONNECT'] }), req()), false);
  assert.equal(ruleMatches(rule(), req({ resource: { group: 'extensions' } })), false);
  assert.equal(ruleMatches(rule({ apiGroups: ['*'] }), req({ resource: { group: 'extensions' } })), true);
  assert.equal(ruleMatches(rule(), req({ resource: { version: 'v1beta1' } })), false);
  assert.equal(ruleMatches(rule({ apiVersions: ['*'] }), req({ resource: { version: 'v1beta1' } })), true);
});

test('resources: "*" is every resource without subresources, "x/*" x and its subresources, "*/s" subresource s of any, "*/*" everything', () => {
  const cases: [string[], string, string, boolean][] = [
    [['deployments'], 'deployments', '', true],
    [['deployments'], 'deployments', 'status', false],
    [['deployments/status'], 'deployments', 'status', true],
    [['deployments/status'], 'deployments', '', false],
    [['*'], 'pods', '', true],
    [['*'], 'pods', 'status', false],
    [['deployments/*'], 'deployments', 'scale', true],
    // kube's matcher takes "*" for any subresource, none included: x/* matches x itself too.
    [['deployments/*'], 'deployments', '', true],
    [['*/scale'], 'replicasets', 'scale', true],
    [['*/scale'], 'replicasets', 'status', false],
    [['*/*'], 'pods', '', true],
    [['*/*'], 'pods', 'status', true],
  ];
  for (const [resources, resource, subresource, want] of cases) {
    assert.equal(ruleMatches(rule({ resources, apiGroups: ['*'] }), req({ resource: { resource }, subresource })), want, `${resources} vs ${resource}/${subresource}`);
  }
});

test('scope: Namespaced needs a namespace (namespaces themselves are cluster-scoped); Cluster the opposite', () => {
  const nsReq = req({ resource: { group: '', version: 'v1', resource: 'namespaces' }, namespace: '' });
  const any = { apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] };
  assert.equal(ruleMatches(rule({ ...any, scope: 'Namespaced' }), req()), true);
  assert.equal(ruleMatches(rule({ ...any, scope: 'Namespaced' }), req({ namespace: '' })), false);
  assert.equal(ruleMatches(rule({ ...any, scope: 'Namespaced' }), nsReq), false);
  assert.equal(ruleMatches(rule({ ...any, scope: 'Cluster' }), nsReq), true);
  assert.equal(ruleMatches(rule({ ...any, scope: 'Cluster' }), req({ namespace: '' })), true);
  assert.equal(ruleMatches(rule({ ...any, scope: 'Cluster' }), req()), false);
});

test('matchPolicy Equivalent tries the other served versions, rule by rule; Exact does not', () => {
  const v2 = { group: 'apps', version: 'v2', resource: 'deployments' };
  const hook = (matchPolicy: string) => ({ matchPolicy, rules: [rule({ apiVersions: ['v2'] })] });
  const equivalents = [{ group: 'apps', version: 'v1', resource: 'deployments' }, v2];
  assert.deepEqual(matchingResource(hook('Equivalent'), req(), equivalents), v2);
  assert.equal(matchingResource(hook('Exact'), req(), equivalents), undefined);
  // The request's own version first, when a rule names it.
  assert.deepEqual(matchingResource({ matchPolicy: 'Equivalent', rules: [rule({ apiVersions: ['v2'] }), rule()] }, req(), equivalents), req().resource);
});

test('objectSelector: the new or the old object matches; an absent object never does; empty matches all', () => {
  const hook = { objectSelector: { matchLabels: { a: 'b' } } };
  const labeled = { metadata: { labels: { a: 'b' } } };
  const other = { metadata: { labels: { a: 'c' } } };
  assert.equal(objectSelectorMatches(hook, labeled, undefined), true);
  assert.equal(objectSelectorMatches(hook, other, labeled), true);
  assert.equal(objectSelectorMatches(hook, other, undefined), false);
  assert.equal(objectSelectorMatches(hook, undefined, undefined), false);
  assert.equal(objectSelectorMatches({ objectSelector: {} }, undefined, undefined), true);
  assert.equal(objectSelectorMatches({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] } }, other, undefined), false);
});

test('namespaceSelector: the namespace\'s labels; a namespace by its own; other cluster-scoped objects always; a missing namespace', async () => {
  const labels: Record<string, Record<string, string>> = { prod: { env: 'prod' }, dev: {} };
  const lookup = async (n: string) => labels[n];
  const hook = { namespaceSelector: { matchLabels: { env: 'prod' } } };
  assert.deepEqual(await namespaceSelectorMatches(hook, req({ namespace: 'prod' }), lookup), { matches: true });
  assert.deepEqual(await namespaceSelectorMatches(hook, req({ namespace: 'dev' }), lookup), { matches: false });
  assert.deepEqual(await namespaceSelectorMatches(hook, req({ namespace: '' }), lookup), { matches: true });
  assert.deepEqual(await namespaceSelectorMatches(hook, req({ namespace: 'gone' }), lookup), { matches: false, notFound: 'gone' });
  const ns = (obj: JSONObject, operation = 'CREATE') => ({ ...req({ resource: { group: '', version: 'v1', resource: 'namespaces' }, namespace: '', operation }), object: obj, oldObject: obj });
  assert.deepEqual(await namespaceSelectorMatches(hook, ns({ metadata: { labels: { env: 'prod' } } }), lookup), { matches: true });
  assert.deepEqual(await namespaceSelectorMatches(hook, ns({ metadata: { labels: {} } }), lookup), { matches: false });
});
