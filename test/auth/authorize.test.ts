import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alwaysAllow, alwaysDeny, checkWith, forbiddenError, forbiddenMessage, privilegedGroups, unionAuthorizer, type RequestAttributes } from '../../src/auth/authorize.js';
import { anonymousUser, type UserInfo } from '../../src/auth/authenticate.js';

const admin: UserInfo = { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };
const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };
const anon = anonymousUser();

function path(user: UserInfo, verb: string, p: string): RequestAttributes {
  return { user, verb, isResourceRequest: false, path: p, group: '', resource: '', subresource: '', namespace: '', name: '' };
}

function resource(
  user: UserInfo,
  verb: string,
  r: Partial<Pick<RequestAttributes, 'group' | 'resource' | 'subresource' | 'namespace' | 'name'>>,
): RequestAttributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '/irrelevant',
    group: r.group ?? '',
    version: 'v1',
    resource: r.resource ?? '',
    subresource: r.subresource ?? '',
    namespace: r.namespace ?? '',
    name: r.name ?? '',
  };
}

const crontabs = { group: 'stable.example.com', resource: 'crontabs' };

// The server's union with no mode that allows anything: every denial below is the 403 of kube's wording.
const authorize = unionAuthorizer([privilegedGroups]);
const checkAuthorized = checkWith({ authorize });

test('system:masters may do anything, before any mode is asked', () => {
  for (const user of [admin, { name: 'm', groups: ['system:masters'] }]) {
    assert.equal(authorize(resource(user, 'delete', { ...crontabs, namespace: 'default', name: 'x' })).allowed, true);
    assert.equal(unionAuthorizer([privilegedGroups, alwaysDeny])(path(user, 'post', '/anything')).allowed, true);
    assert.equal(checkAuthorized(path(user, 'post', '/anything')), undefined);
  }
  assert.equal(authorize(resource(alice, 'get', { resource: 'namespaces', name: 'default' })).allowed, false);
});

test('the union: the first mode that allows decides; otherwise the reasons, one per line', () => {
  assert.equal(unionAuthorizer([privilegedGroups, alwaysAllow])(path(anon, 'delete', '/x')).allowed, true);
  const reasonable = (reason: string) => () => ({ allowed: false, reason });
  assert.deepEqual(unionAuthorizer([privilegedGroups, reasonable('a'), reasonable(''), reasonable('b')])(path(alice, 'get', '/x')), { allowed: false, reason: 'a\nb' });
  assert.equal(
    checkWith({ authorize: unionAuthorizer([privilegedGroups, alwaysDeny]) })(path(alice, 'get', '/apis'))?.status.message,
    'forbidden: User "alice" cannot get path "/apis": Everything is forbidden.',
  );
});

test('forbidden non-resource request: kube wording, empty details', () => {
  const err = checkAuthorized(path(anon, 'get', '/apis'));
  assert.ok(err);
  assert.deepEqual(err.status, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'forbidden: User "system:anonymous" cannot get path "/apis"',
    reason: 'Forbidden',
    details: {},
    code: 403,
  });
});

test('forbidden namespaced list', () => {
  const err = checkAuthorized(resource(anon, 'list', { ...crontabs, namespace: 'default' }));
  assert.ok(err);
  assert.equal(err.code, 403);
  assert.equal(err.status.reason, 'Forbidden');
  assert.equal(
    err.status.message,
    'crontabs.stable.example.com is forbidden: User "system:anonymous" cannot list resource "crontabs" in API group "stable.example.com" in the namespace "default"',
  );
  assert.equal(err.status.details?.group, 'stable.example.com');
  assert.equal(err.status.details?.kind, 'crontabs');
  assert.equal(err.status.details?.name, undefined);
});

test('forbidden at the cluster scope', () => {
  const err = checkAuthorized(resource(anon, 'list', { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }));
  assert.equal(
    err?.status.message,
    'customresourcedefinitions.apiextensions.k8s.io is forbidden: User "system:anonymous" cannot list resource "customresourcedefinitions" in API group "apiextensions.k8s.io" at the cluster scope',
  );
  // All-namespaces list of a namespaced resource is also "at the cluster scope".
  assert.equal(
    checkAuthorized(resource(anon, 'watch', crontabs))?.status.message,
    'crontabs.stable.example.com is forbidden: User "system:anonymous" cannot watch resource "crontabs" in API group "stable.example.com" at the cluster scope',
  );
});

test('forbidden named request with a subresource', () => {
  const err = checkAuthorized(resource(anon, 'update', { ...crontabs, subresource: 'status', namespace: 'ns1', name: 'my-cron' }));
  assert.equal(
    err?.status.message,
    'crontabs.stable.example.com "my-cron" is forbidden: User "system:anonymous" cannot update resource "crontabs/status" in API group "stable.example.com" in the namespace "ns1"',
  );
  assert.equal(err?.status.details?.name, 'my-cron');
  assert.equal(err?.status.details?.kind, 'crontabs');
});

test('forbidden core-group resource names the empty group', () => {
  const err = checkAuthorized(resource(anon, 'get', { resource: 'namespaces', name: 'default' }));
  assert.equal(
    err?.status.message,
    'namespaces "default" is forbidden: User "system:anonymous" cannot get resource "namespaces" in API group "" at the cluster scope',
  );
  assert.equal(err?.status.details?.group, undefined);
});

test('a denial reason is appended; HTML-significant characters are escaped', () => {
  assert.equal(
    forbiddenError(path(anon, 'get', '/apis'), 'no RBAC policy matched').status.message,
    'forbidden: User "system:anonymous" cannot get path "/apis": no RBAC policy matched',
  );
  assert.equal(
    forbiddenError(path(anon, 'get', '/<script>&')).status.message,
    'forbidden: User "system:anonymous" cannot get path "/&lt;script&gt;&amp;"',
  );
  assert.equal(forbiddenMessage(path({ name: 'a"b', groups: [] }, 'get', '/x')), 'User "a\\"b" cannot get path "/x"');
});
