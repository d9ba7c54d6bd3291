// The bootstrap policy's reconcile on every start (kube's rbac/bootstrap-roles hook): a first start creates it, a
// later one writes nothing; a bootstrap role read back as stored (Go's field order) counts as unchanged without
// working out rule coverage, and one that lost a rule does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GenericStore } from '../../src/registry/store.js';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { BUILTIN_KINDS } from '../../src/apis/index.js';
import { createCachedStore } from '../../src/storage/cache.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { ensureBootstrapPolicy, unchangedRole } from '../../src/auth/rbac/reconcile.js';
import { bootstrapPolicy, sharedBootstrapPolicy } from '../../src/auth/rbac/bootstrap-policy.js';
import type { JSONObject } from '../../src/util/json.js';
import { covers, rulesOf } from '../../src/auth/rbac/policy-rule.js';

const kind = (resource: string) => BUILTIN_KINDS.find((k) => k.served.group === 'rbac.authorization.k8s.io' && k.served.resource === resource)!;

test('a second start writes nothing; stored bootstrap roles count as unchanged whatever their key order', async () => {
  const kv = await createCachedStore(openSqliteStore(':memory:'));
  try {
    const store = (r: string): GenericStore => new GenericStore(kv, builtinResourceType(kind(r)), NO_ADMISSION);
    const stores = { clusterRoles: store('clusterroles'), clusterRoleBindings: store('clusterrolebindings'), roles: store('roles'), roleBindings: store('rolebindings') };
    // The namespaced Roles live in kube-system and kube-public: the store does not check namespaces exist.
    await ensureBootstrapPolicy(stores);
    const after = await kv.currentRevision();
    assert.ok(after > 100, `${after} writes`);
    await ensureBootstrapPolicy(stores);
    assert.equal(await kv.currentRevision(), after, 'a restart writes nothing');

    const policy = bootstrapPolicy();
    let unchanged = 0;
    for (const expected of policy.clusterRoles) {
      const stored = await stores.clusterRoles.get('', String((expected['metadata'] as JSONObject)['name']));
      // Stored rules read back with verbs first, the policy's with apiGroups first.
      const rules = (stored['rules'] as JSONObject[]) ?? [];
      if (rules.length > 0 && !expected['aggregationRule']) assert.equal(Object.keys(rules[0]!)[0], 'verbs');
      if (unchangedRole(stored, expected)) unchanged++;
    }
    // Every role but the three aggregated ones (admin, edit, view), whose rules the aggregation adds.
    const aggregated = policy.clusterRoles.filter((r) => r['aggregationRule']).length;
    assert.equal(unchanged, policy.clusterRoles.length - aggregated);
    const basicUser = policy.clusterRoles.find((r) => (r['metadata'] as JSONObject)['name'] === 'system:basic-user')!;
    const stored = await stores.clusterRoles.get('', 'system:basic-user');
    assert.equal(unchangedRole({ ...stored, rules: (stored['rules'] as unknown[]).slice(1) }, basicUser), false, 'a rule missing');
    assert.equal(unchangedRole({ ...stored, metadata: { ...(stored['metadata'] as JSONObject), labels: {} } }, basicUser), false, 'a label missing');

    // A bootstrap role and binding that lost a rule, a label and a subject get them back from the next start (the
    // policy it reads is shared and frozen: what it writes must be copies), and the policy stays as it was.
    await stores.clusterRoles.update('', 'system:basic-user', (o) => ({ ...o!, rules: (o!['rules'] as unknown[]).slice(1), metadata: { ...(o!['metadata'] as JSONObject), labels: {} } }), '');
    await stores.clusterRoleBindings.update('', 'system:basic-user', (o) => ({ ...o!, subjects: [] }), '');
    await ensureBootstrapPolicy(stores);
    const role = await stores.clusterRoles.get('', 'system:basic-user');
    // What was missing is added back (as kube's reconcile adds it: the uncovered rules broken down).
    assert.deepEqual(covers(rulesOf(role), rulesOf(basicUser)).missing, []);
    assert.equal((role['metadata'] as JSONObject)['labels'] !== undefined && Object.keys((role['metadata'] as { labels: object }).labels).length > 0, true);
    const binding = await stores.clusterRoleBindings.get('', 'system:basic-user');
    assert.deepEqual(binding['subjects'], policy.clusterRoleBindings.find((b) => (b['metadata'] as JSONObject)['name'] === 'system:basic-user')!['subjects']);
    assert.deepEqual(sharedBootstrapPolicy(), bootstrapPolicy());
    assert.ok(Object.isFrozen(sharedBootstrapPolicy().clusterRoles[0]!['rules']));
  } finally {
    await kv.close();
  }
});

test('a reconcile reading from a cache older than the store reads again when its write conflicts', async () => {
  const kv = await createCachedStore(openSqliteStore(':memory:'));
  try {
    const store = (r: string): GenericStore => new GenericStore(kv, builtinResourceType(kind(r)), NO_ADMISSION);
    const stores = { clusterRoles: store('clusterroles'), clusterRoleBindings: store('clusterrolebindings'), roles: store('roles'), roleBindings: store('rolebindings') };
    await ensureBootstrapPolicy(stores);
    const meta = (o: JSONObject | undefined): JSONObject => o!['metadata'] as JSONObject;
    // A role that lost a rule, and a binding recreated with another roleRef (roleRef cannot be updated).
    await stores.clusterRoles.update('', 'system:basic-user', (o) => ({ ...o!, rules: (o!['rules'] as unknown[]).slice(1) }), '');
    await stores.clusterRoleBindings.delete('', 'system:discovery');
    await stores.clusterRoleBindings.create('', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:discovery' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [],
    });
    // What a cache would hold now; then both are written again (another replica's writes, as it were).
    const cached = {
      role: await stores.clusterRoles.get('', 'system:basic-user'),
      binding: await stores.clusterRoleBindings.get('', 'system:discovery'),
    };
    await stores.clusterRoles.update('', 'system:basic-user', (o) => ({ ...o!, metadata: { ...meta(o), annotations: { ...(meta(o)['annotations'] as object), later: 'yes' } } }), '');
    // The binding is protected since: it must be read again before it is deleted, and then left alone.
    await stores.clusterRoleBindings.update('', 'system:discovery', (o) => ({ ...o!, metadata: { ...meta(o), annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } } }), '');
    const stale = (live: GenericStore, name: string, held: JSONObject) => (ns: string, n: string) => (n === name ? held : live.find(ns, n));
    await ensureBootstrapPolicy(stores, {
      clusterRoles: stale(stores.clusterRoles, 'system:basic-user', cached.role),
      clusterRoleBindings: stale(stores.clusterRoleBindings, 'system:discovery', cached.binding),
      roles: (ns, n) => stores.roles.find(ns, n),
      roleBindings: (ns, n) => stores.roleBindings.find(ns, n),
    });
    const basicUser = bootstrapPolicy().clusterRoles.find((r) => meta(r)['name'] === 'system:basic-user')!;
    const role = await stores.clusterRoles.get('', 'system:basic-user');
    assert.deepEqual(covers(rulesOf(role), rulesOf(basicUser)).missing, [], 'the rule is back');
    assert.equal((meta(role)['annotations'] as JSONObject)['later'], 'yes', 'and the later write kept');
    const binding = await stores.clusterRoleBindings.get('', 'system:discovery');
    assert.equal((binding['roleRef'] as JSONObject)['name'], 'view', 'the protected binding is left as it is');
  } finally {
    await kv.close();
  }
});
