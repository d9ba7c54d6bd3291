// The bootstrap RBAC policy end to end: what kubectl lists after a start is exactly the set in the policy files
// (kube's testdata layout), rules, aggregation selectors, labels, annotations, roleRefs and subjects alike;
// the node, proxy and scheduler roles grant what kube grants them (`kubectl auth can-i --as`); a restart
// reconciles as kube's rbac/bootstrap-roles hook does (a removed rule comes back, autoupdate "false" is left alone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';
import { covers } from '../../src/auth/rbac/policy-rule.js';

const policyFile = (name: string): any[] => parse(readFileSync(new URL(`../../policy/rbac-bootstrap/${name}`, import.meta.url), 'utf8')).items;
const BOOTSTRAP = ['-l', 'kubernetes.io/bootstrapping=rbac-defaults', '-o', 'json'];
const byName = (items: any[]): Map<string, any> => new Map(items.map((i) => [i.metadata.name, i]));

async function listed(s: TestServer, resource: string): Promise<Map<string, any>> {
  const r = await s.kubectl(['get', resource, ...BOOTSTRAP]);
  assert.equal(r.code, 0, r.stderr);
  return byName(JSON.parse(r.stdout).items);
}

test('kubectl lists exactly the policy files\' ClusterRoles and ClusterRoleBindings, as the files have them', async () => {
  requireKubectl();
  const s = await startTestServer();
  try {
    const roles = await listed(s, 'clusterroles');
    const expectedRoles = policyFile('cluster-roles.yaml');
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
    const expectedBindings = policyFile('cluster-role-bindings.yaml');
    assert.deepEqual([...bindings.keys()].sort(), expectedBindings.map((b) => b.metadata.name).sort());
    for (const want of expectedBindings) {
      const got = bindings.get(want.metadata.name);
      assert.deepEqual(got.roleRef, want.roleRef, want.metadata.name);
      assert.deepEqual(got.subjects, want.subjects, want.metadata.name);
      assert.deepEqual(got.metadata.labels, want.metadata.labels, want.metadata.name);
    }
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
    // system:node has no subjects (the Node authorizer's job in kube): a node user gets nothing from RBAC.
    assert.equal(await canI(['get', 'configmaps', '--as=system:node:n1', '--as-group=system:nodes', '-n', 'default']), 'no');
  } finally {
    await s.close();
  }
});

test('restart reconciles: a removed rule comes back, an object marked autoupdate "false" is left as it is', async () => {
  requireKubectl();
  const dataDir = mkdtempSync(join(tmpdir(), 'crd-apiserver-rbac-'));
  try {
    let s = await startTestServer({ dataDir });
    try {
      let r = await s.kubectl(['patch', 'clusterrole', 'system:kube-dns', '--type=json', '-p', '[{"op":"replace","path":"/rules","value":[]}]']);
      assert.equal(r.code, 0, r.stderr);
      r = await s.kubectl(['patch', 'clusterrole', 'system:heapster', '--type=json', '-p', '[{"op":"replace","path":"/rules","value":[]}]']);
      assert.equal(r.code, 0, r.stderr);
      r = await s.kubectl(['annotate', '--overwrite', 'clusterrole', 'system:heapster', 'rbac.authorization.kubernetes.io/autoupdate=false']);
      assert.equal(r.code, 0, r.stderr);
    } finally {
      await s.close();
    }
    s = await startTestServer({ dataDir });
    try {
      const roles = await listed(s, 'clusterroles');
      const files = byName(policyFile('cluster-roles.yaml'));
      // The missing rules are added back broken down, one verb and resource each, as kube's Covers reports them.
      const dns = roles.get('system:kube-dns').rules;
      assert.ok(dns.length > 0);
      assert.deepEqual(covers(dns, files.get('system:kube-dns').rules).missing, []);
      assert.deepEqual(roles.get('system:heapster').rules, []);
    } finally {
      await s.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
