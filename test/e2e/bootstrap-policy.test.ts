// The bootstrap RBAC policy end to end: what kubectl lists after a start is exactly the set in the policy files
// (kube's testdata layout), rules, aggregation selectors, labels, annotations, roleRefs and subjects alike, for
// the ClusterRoles and ClusterRoleBindings (kube's own and the system:controller:* ones) and the Roles and
// RoleBindings of kube-system and kube-public; the node, proxy, scheduler and controller roles grant what kube
// grants them (`kubectl auth can-i --as`); a restart reconciles as kube's rbac/bootstrap-roles hook does (a
// removed rule or subject comes back, a changed roleRef is put back, autoupdate "false" is left alone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';
import { covers } from '../../src/auth/rbac/policy-rule.js';

const policyFile = (name: string): any[] => parse(readFileSync(new URL(`../../policy/rbac-bootstrap/${name}`, import.meta.url), 'utf8')).items;
const policyFiles = (...names: string[]): any[] => names.flatMap(policyFile);
const CLUSTER_ROLES = ['cluster-roles.yaml', 'controller-roles.yaml'];
const CLUSTER_ROLE_BINDINGS = ['cluster-role-bindings.yaml', 'controller-role-bindings.yaml'];
const BOOTSTRAP = ['-l', 'kubernetes.io/bootstrapping=rbac-defaults', '-o', 'json'];
const byName = (items: any[]): Map<string, any> => new Map(items.map((i) => [i.metadata.name, i]));

async function listed(s: TestServer, resource: string, ...args: string[]): Promise<Map<string, any>> {
  const r = await s.kubectl(['get', resource, ...BOOTSTRAP, ...args]);
  assert.equal(r.code, 0, r.stderr);
  return byName(JSON.parse(r.stdout).items);
}

/** A namespace's bootstrap Roles and RoleBindings as one `kubectl get roles,rolebindings` lists them, by kind/name. */
async function listedNamespaced(s: TestServer, namespace: string): Promise<Map<string, any>> {
  const r = await s.kubectl(['get', 'roles,rolebindings', '-n', namespace, ...BOOTSTRAP]);
  assert.equal(r.code, 0, r.stderr);
  return new Map(JSON.parse(r.stdout).items.map((i: any) => [`${i.kind}/${i.metadata.name}`, i]));
}

const namespacedFromFiles = (namespace: string): Map<string, any> =>
  new Map(
    policyFiles('namespace-roles.yaml', 'namespace-role-bindings.yaml')
      .filter((i) => i.metadata.namespace === namespace)
      .map((i) => [`${i.kind}/${i.metadata.name}`, i]),
  );

test('kubectl lists exactly the policy files\' ClusterRoles, ClusterRoleBindings, Roles and RoleBindings, as the files have them', async () => {
  requireKubectl();
  const s = await startTestServer();
  try {
    const roles = await listed(s, 'clusterroles');
    const expectedRoles = policyFiles(...CLUSTER_ROLES);
    assert.deepEqual([...roles.keys()].sort(), expectedRoles.map((r) => r.metadata.name).sort());
    for (const want of expectedRoles) {
      const got = roles.get(want.metadata.name);
      assert.deepEqual(got.metadata.labels, want.metadata.labels, want.metadata.name);
      assert.deepEqual(got.metadata.annotations, want.metadata.annotations, want.metadata.name);
      assert.deepEqual(got.aggregationRule, want.aggregationRule, want.metadata.name);
      // Aggregated roles hold what the aggregation controller gathered; the others exactly the file's rules.
      if (!want.aggregationRule) assert.deepEqual(got.rules, want.rules, want.metadata.name);
    }
    const bindings = await listed(s, 'clusterrolebindings');
    const expectedBindings = policyFiles(...CLUSTER_ROLE_BINDINGS);
    assert.deepEqual([...bindings.keys()].sort(), expectedBindings.map((b) => b.metadata.name).sort());
    for (const want of expectedBindings) {
      const got = bindings.get(want.metadata.name);
      assert.deepEqual(got.roleRef, want.roleRef, want.metadata.name);
      assert.deepEqual(got.subjects, want.subjects, want.metadata.name);
      assert.deepEqual(got.metadata.labels, want.metadata.labels, want.metadata.name);
    }
    // The controllers' roles are there, with their bindings to kube-system ServiceAccounts.
    assert.ok(roles.has('system:controller:namespace-controller'));
    assert.deepEqual(bindings.get('system:controller:namespace-controller').subjects, [{ kind: 'ServiceAccount', name: 'namespace-controller', namespace: 'kube-system' }]);

    // The namespaced Roles and RoleBindings: exactly the files' set in each namespace, as the files have them.
    for (const ns of ['kube-system', 'kube-public']) {
      const got = await listedNamespaced(s, ns);
      const want = namespacedFromFiles(ns);
      assert.ok(want.size > 0, ns);
      assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), ns);
      for (const [k, w] of want) {
        const g = got.get(k);
        for (const field of ['rules', 'roleRef', 'subjects'] as const) assert.deepEqual(g[field], w[field], `${ns} ${k} ${field}`);
        assert.deepEqual(g.metadata.labels, w.metadata.labels, `${ns} ${k}`);
        assert.deepEqual(g.metadata.annotations, w.metadata.annotations, `${ns} ${k}`);
      }
    }
    // No other namespace gets any.
    const r = await s.kubectl(['get', 'roles,rolebindings', '-n', 'default', ...BOOTSTRAP]);
    assert.deepEqual(JSON.parse(r.stdout).items, []);

    // `view` aggregates `system:aggregate-to-view`'s rules.
    assert.deepEqual(roles.get('view').rules, byName(expectedRoles).get('system:aggregate-to-view').rules);

    // What the system users are bound to, through the authorizer.
    await s.served.server.rbac.waitForStores();
    const canI = async (args: string[]): Promise<string> => (await s.kubectl(['auth', 'can-i', ...args])).stdout.trim();
    assert.equal(await canI(['create', 'pods', '--subresource=binding', '--as=system:kube-scheduler']), 'yes');
    assert.equal(await canI(['list', 'persistentvolumes', '--as=system:kube-scheduler']), 'yes');
    assert.equal(await canI(['create', 'secrets', '--as=system:kube-scheduler', '-n', 'kube-system']), 'no');
    // (Resources of groups this server does not serve are resolved by kubectl only in the core group.)
    assert.equal(await canI(['watch', 'nodes', '--as=system:kube-proxy']), 'yes');
    assert.equal(await canI(['delete', 'nodes', '--as=system:kube-proxy']), 'no');
    assert.equal(await canI(['list', 'services', '--as=system:serviceaccount:kube-system:kube-dns']), 'yes');
    assert.equal(await canI(['create', 'serviceaccounts', '--subresource=token', '--as=system:kube-controller-manager', '-n', 'default']), 'yes');
    // The controllers' ServiceAccounts hold their roles, and no more.
    const nsController = '--as=system:serviceaccount:kube-system:namespace-controller';
    assert.equal(await canI(['delete', 'namespaces', nsController]), 'yes');
    assert.equal(await canI(['deletecollection', 'configmaps', nsController, '-n', 'default']), 'yes');
    assert.equal(await canI(['create', 'namespaces', nsController]), 'no');
    assert.equal(await canI(['create', 'pods', nsController, '-n', 'default']), 'no');
    assert.equal(await canI(['update', 'namespaces', '--subresource=finalize', nsController]), 'yes');
    // A namespaced Role grants in its namespace only.
    const tokenCleaner = '--as=system:serviceaccount:kube-system:token-cleaner';
    assert.equal(await canI(['delete', 'secrets', tokenCleaner, '-n', 'kube-system']), 'yes');
    assert.equal(await canI(['delete', 'secrets', tokenCleaner, '-n', 'default']), 'no');
    const signer = '--as=system:serviceaccount:kube-system:bootstrap-signer';
    assert.equal(await canI(['update', 'configmaps/cluster-info', signer, '-n', 'kube-public']), 'yes');
    assert.equal(await canI(['update', 'configmaps/other', signer, '-n', 'kube-public']), 'no');
    assert.equal(await canI(['get', 'configmaps/extension-apiserver-authentication', '--as=system:kube-scheduler', '-n', 'kube-system']), 'yes');
    // system:node has no subjects (the Node authorizer's job in kube): a node user gets nothing from RBAC.
    assert.equal(await canI(['get', 'configmaps', '--as=system:node:n1', '--as-group=system:nodes', '-n', 'default']), 'no');
  } finally {
    await s.close();
  }
});

test('restart reconciles: removed rules and subjects come back, a changed roleRef is put back, autoupdate "false" is left as it is', async () => {
  requireKubectl();
  const dataDir = mkdtempSync(join(tmpdir(), 'crd-apiserver-rbac-'));
  const emptyRules = ['--type=json', '-p', '[{"op":"replace","path":"/rules","value":[]}]'];
  try {
    let s = await startTestServer({ dataDir });
    try {
      const run = async (args: string[]): Promise<void> => {
        const r = await s.kubectl(args);
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      };
      await run(['patch', 'clusterrole', 'system:kube-dns', ...emptyRules]);
      await run(['patch', 'clusterrole', 'system:heapster', ...emptyRules]);
      await run(['annotate', '--overwrite', 'clusterrole', 'system:heapster', 'rbac.authorization.kubernetes.io/autoupdate=false']);
      // A controller's ClusterRole and a namespaced Role lose their rules; a RoleBinding a subject.
      await run(['patch', 'clusterrole', 'system:controller:namespace-controller', ...emptyRules]);
      await run(['patch', 'role', 'system:controller:token-cleaner', '-n', 'kube-system', ...emptyRules]);
      await run(['patch', 'rolebinding', 'system::leader-locking-kube-scheduler', '-n', 'kube-system', '--type=json', '-p', '[{"op":"remove","path":"/subjects/1"}]']);
      // A RoleBinding recreated with another roleRef (roleRef cannot be updated), and one deleted.
      await run(['delete', 'rolebinding', 'system:controller:cloud-provider', '-n', 'kube-system']);
      await run(['create', 'rolebinding', 'system:controller:cloud-provider', '-n', 'kube-system', '--role=extension-apiserver-authentication-reader', '--user=someone']);
      await run(['delete', 'rolebinding', 'system:controller:bootstrap-signer', '-n', 'kube-public']);
      // A Role marked autoupdate "false" keeps what its owner made of it.
      await run(['patch', 'role', 'system:controller:cloud-provider', '-n', 'kube-system', ...emptyRules]);
      await run(['annotate', '--overwrite', 'role', 'system:controller:cloud-provider', '-n', 'kube-system', 'rbac.authorization.kubernetes.io/autoupdate=false']);
      await s.served.server.rbac.waitForStores();
      const r = await s.kubectl(['auth', 'can-i', 'delete', 'namespaces', '--as=system:serviceaccount:kube-system:namespace-controller']);
      assert.equal(r.stdout.trim(), 'no');
    } finally {
      await s.close();
    }
    s = await startTestServer({ dataDir });
    try {
      const roles = await listed(s, 'clusterroles');
      const files = byName(policyFiles(...CLUSTER_ROLES));
      // The missing rules are added back broken down, one verb and resource each, as kube's Covers reports them.
      for (const name of ['system:kube-dns', 'system:controller:namespace-controller']) {
        const rules = roles.get(name).rules;
        assert.ok(rules.length > 0, name);
        assert.deepEqual(covers(rules, files.get(name).rules).missing, [], name);
      }
      // Emptied rules come back null, as kube's typed (protobuf round-tripped) Role gives them.
      assert.equal(roles.get('system:heapster').rules, null);

      const ns = await listedNamespaced(s, 'kube-system');
      const want = namespacedFromFiles('kube-system');
      const cleaner = ns.get('Role/system:controller:token-cleaner').rules;
      assert.ok(cleaner.length > 0);
      assert.deepEqual(covers(cleaner, want.get('Role/system:controller:token-cleaner').rules).missing, []);
      assert.deepEqual(ns.get('RoleBinding/system::leader-locking-kube-scheduler').subjects, want.get('RoleBinding/system::leader-locking-kube-scheduler').subjects);
      // Recreated with the files' roleRef and subjects (the old binding's subjects go with it, as in kube).
      const cloud = ns.get('RoleBinding/system:controller:cloud-provider');
      assert.deepEqual([cloud.roleRef, cloud.subjects], [want.get('RoleBinding/system:controller:cloud-provider').roleRef, want.get('RoleBinding/system:controller:cloud-provider').subjects]);
      assert.equal(ns.get('Role/system:controller:cloud-provider').rules, null);
      assert.equal(ns.get('Role/system:controller:cloud-provider').metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'], 'false');
      const pub = await listedNamespaced(s, 'kube-public');
      assert.deepEqual(pub.get('RoleBinding/system:controller:bootstrap-signer').subjects, [{ kind: 'ServiceAccount', name: 'bootstrap-signer', namespace: 'kube-system' }]);

      await s.served.server.rbac.waitForStores();
      const canI = async (args: string[]): Promise<string> => (await s.kubectl(['auth', 'can-i', ...args])).stdout.trim();
      assert.equal(await canI(['delete', 'namespaces', '--as=system:serviceaccount:kube-system:namespace-controller']), 'yes');
      assert.equal(await canI(['delete', 'secrets', '--as=system:serviceaccount:kube-system:token-cleaner', '-n', 'kube-system']), 'yes');
      assert.equal(await canI(['get', 'configmaps/extension-apiserver-authentication', '--as=someone', '-n', 'kube-system']), 'no');
    } finally {
      await s.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
