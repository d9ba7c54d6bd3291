// RBAC inside the server: authorization modes, the escalation checks as the store applies them to a
// user's writes, and the bootstrap policy reconciled on a restart over the same storage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../src/api/status.js';
import type { UserInfo } from '../../src/api/user.js';
import type { RequestAttributes } from '../../src/auth/authorize.js';
import type { JSONObject } from '../../src/util/json.js';
import { startServer } from '../../src/server/server.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { createCachedStore } from '../../src/storage/cache.js';
import { startApi } from './helpers.js';

const RBAC = 'rbac.authorization.k8s.io';
const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };
const listConfigMaps = (user: UserInfo): RequestAttributes => ({
  user,
  verb: 'list',
  isResourceRequest: true,
  path: '/api/v1/namespaces/default/configmaps',
  group: '',
  resource: 'configmaps',
  subresource: '',
  namespace: 'default',
  name: '',
});

test('--authorization-mode: RBAC by default; AlwaysAllow lets everyone; system:masters always', async () => {
  const rbac = await startApi();
  const open = await startApi({ authorizationModes: ['AlwaysAllow'] });
  const closed = await startApi({ authorizationModes: ['AlwaysDeny'] });
  try {
    assert.deepEqual(rbac.server.authorize(listConfigMaps(bob)), { allowed: false, reason: '' });
    assert.equal(open.server.authorize(listConfigMaps(bob)).allowed, true);
    assert.equal(open.server.authorize(listConfigMaps({ name: 'system:anonymous', groups: ['system:unauthenticated'] })).allowed, true);
    assert.deepEqual(closed.server.authorize(listConfigMaps(bob)), { allowed: false, reason: 'Everything is forbidden.' });
    assert.equal(closed.server.authorize(listConfigMaps({ name: 'admin', groups: ['system:masters'] })).allowed, true);
    // What each grants (SelfSubjectRulesReview's rules): RBAC's, and everything where AlwaysAllow is a mode.
    const rules = rbac.server.rulesFor(bob, 'default');
    assert.deepEqual(rules.resourceRules, [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], resourceNames: [] }, { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], resourceNames: [] }]);
    assert.ok(rules.nonResourceRules.some((r) => r.nonResourceURLs.includes('/apis/*')));
    assert.equal(rules.incomplete, false);
    assert.deepEqual(open.server.rulesFor(bob, 'default').resourceRules[0], { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] });
    assert.deepEqual(closed.server.rulesFor({ name: 'admin', groups: ['system:masters'] }, '').nonResourceRules, [{ verbs: ['*'], nonResourceURLs: ['*'] }]);
    // Anonymous users may read the public info paths, authenticated ones discovery too.
    const path = (user: UserInfo, p: string) => rbac.server.authorize({ ...listConfigMaps(user), verb: 'get', isResourceRequest: false, path: p, resource: '', namespace: '' }).allowed;
    const anon = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
    assert.deepEqual([path(anon, '/version'), path(anon, '/healthz'), path(anon, '/apis'), path(bob, '/apis'), path(bob, '/apis/apps/v1'), path(bob, '/metrics')], [true, true, false, true, true, false]);
  } finally {
    await Promise.all([rbac.close(), open.close(), closed.close()]);
  }
});

test('escalation: a user\'s write through the store is checked; the server\'s own and system:masters\' are not', async () => {
  const api = await startApi();
  try {
    const roles = api.server.registry.lookup(RBAC, 'v1', 'roles')!.store;
    const bindings = api.server.registry.lookup(RBAC, 'v1', 'rolebindings')!.store;
    const role = (name: string): JSONObject => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] });
    await roles.create('default', role('by-server'));
    await roles.create('default', role('by-admin'), { user: { name: 'admin', groups: ['system:masters'] } });
    await assert.rejects(roles.create('default', role('by-bob'), { user: bob }), (e: unknown) => {
      assert.ok(e instanceof S.StatusError);
      assert.equal(e.code, 403);
      assert.equal(
        e.status.message,
        'roles.rbac.authorization.k8s.io "by-bob" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
      );
      return true;
    });
    // Bodies of the wrong shape are refused, never a 500: the check reads them as Go would have decoded them.
    for (const rules of [[null], [1], [{ verbs: 'get' }], [{ verbs: [1], apiGroups: null }]]) {
      await assert.rejects(roles.create('default', { ...role('odd'), rules } as JSONObject, { user: bob }), (e: unknown) => e instanceof S.StatusError && (e.code === 403 || e.code === 422));
    }
    // A binding to a missing role, without bind: the role's 404, as kube's registry answers.
    const binding = (name: string, roleName: string): JSONObject => ({
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: { name },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: roleName },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: 'bob' }],
    });
    await assert.rejects(bindings.create('default', binding('x', 'missing'), { user: bob }), (e: unknown) => e instanceof S.StatusError && e.code === 404 && e.status.message === 'roles.rbac.authorization.k8s.io "missing" not found');
    await assert.rejects(bindings.create('default', binding('x', 'by-server'), { user: bob }), (e: unknown) => e instanceof S.StatusError && e.code === 403);
    // bob may bind by-server once he holds bind on it (by name).
    await roles.create('default', { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'binder' }, rules: [{ apiGroups: [RBAC], resources: ['roles'], verbs: ['bind'], resourceNames: ['by-server'] }] });
    await bindings.create('default', { ...binding('bob-binder', 'binder') });
    // No waiting for the caches: the check reads roles and bindings as the stores hold them, as kube's does.
    await bindings.create('default', binding('x', 'by-server'), { user: bob });
    // Only the GC's fields changing: no check, even for a role bob could not write.
    await roles.create('default', { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'pod-deleter' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }] });
    await api.server.rbac.waitForStores();
    const { object } = await roles.update(
      'default',
      'pod-deleter',
      (cur) => ({ ...cur!, metadata: { ...(cur!['metadata'] as JSONObject), finalizers: ['example.com/keep'] } }),
      '',
      { user: bob },
    );
    assert.deepEqual((object['metadata'] as JSONObject)['finalizers'], ['example.com/keep']);
    await assert.rejects(
      roles.update('default', 'pod-deleter', (cur) => ({ ...cur!, metadata: { ...(cur!['metadata'] as JSONObject), labels: { a: 'b' } } }), '', { user: bob }),
      (e: unknown) => e instanceof S.StatusError && e.code === 403,
    );
  } finally {
    await api.close();
  }
});

test('bootstrap policy: reconciled on every start; autoupdate "false" protects a role', async () => {
  const kv = await createCachedStore(openSqliteStore(':memory:'));
  try {
    let server = await startServer({ kv, insecurePort: 0 });
    const clusterRoles = () => server.registry.lookup(RBAC, 'v1', 'clusterroles')!.store;
    const crbs = () => server.registry.lookup(RBAC, 'v1', 'clusterrolebindings')!.store;
    // An admin trims system:basic-user, protects system:discovery and trims it too, and empties a binding.
    const trim = (protect: boolean) => (cur: JSONObject | undefined) => {
      const o = structuredClone(cur!);
      o['rules'] = [];
      if (protect) ((o['metadata'] as JSONObject)['annotations'] as JSONObject)['rbac.authorization.kubernetes.io/autoupdate'] = 'false';
      return o;
    };
    await clusterRoles().update('', 'system:basic-user', trim(false), '');
    await clusterRoles().update('', 'system:discovery', trim(true), '');
    await crbs().update('', 'system:public-info-viewer', (cur) => ({ ...cur!, subjects: [] }), '');
    await server.close();
    server = await startServer({ kv, insecurePort: 0 });
    const basic = await clusterRoles().get('', 'system:basic-user');
    assert.equal((basic['rules'] as unknown[]).length, 3, 'the missing rules come back, broken down');
    // Emptied (kube's typed object holds a nil slice, which Go's JSON writes as null).
    assert.deepEqual((await clusterRoles().get('', 'system:discovery'))['rules'], null);
    assert.deepEqual(
      ((await crbs().get('', 'system:public-info-viewer'))['subjects'] as JSONObject[]).map((s) => s['name']),
      ['system:authenticated', 'system:unauthenticated'],
    );
    // Aggregated roles hold their aggregated rules from the start.
    assert.ok(((await clusterRoles().get('', 'view'))['rules'] as unknown[]).length > 5);
    await server.close();
  } finally {
    await kv.close();
  }
});
