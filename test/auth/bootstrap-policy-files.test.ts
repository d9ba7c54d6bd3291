// The policy files hang together as kube's generators make them: every controller ClusterRole
// (system:controller:<name>) has one binding, of the same name, to the ServiceAccount kube-system/<name> and
// nothing else; every namespaced binding names a Role of its own namespace that the files hold; every object
// carries the bootstrapping label and the autoupdate annotation; no name appears twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { JSONObject } from '../../src/util/json.js';
import { BOOTSTRAP_POLICY_DIR, POLICY_FILES, bootstrapPolicy, readPolicyFile } from '../../src/auth/rbac/bootstrap-policy.js';

const meta = (o: JSONObject): { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> } =>
  o['metadata'] as never;
const key = (o: JSONObject): string => `${meta(o).namespace ?? ''}/${meta(o).name}`;

test('controller roles: one binding each, to kube-system/<name>, and no binding without its role', () => {
  const [roles, bindings] = [readPolicyFile('controller-roles.yaml'), readPolicyFile('controller-role-bindings.yaml')];
  assert.ok(roles.length > 30);
  assert.deepEqual(bindings.map((b) => meta(b).name), roles.map((r) => meta(r).name));
  for (const b of bindings) {
    const name = meta(b).name;
    assert.match(name, /^system:controller:[a-z-]+$/);
    assert.deepEqual(b['roleRef'], { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name });
    assert.deepEqual(b['subjects'], [{ kind: 'ServiceAccount', name: name.slice('system:controller:'.length), namespace: 'kube-system' }]);
  }
});

test('namespaced bindings name Roles of their own namespace, held by the files, in kube-system and kube-public only', () => {
  const policy = bootstrapPolicy();
  const roles = new Set(policy.roles.map(key));
  for (const o of [...policy.roles, ...policy.roleBindings]) assert.ok(['kube-system', 'kube-public'].includes(meta(o).namespace!), key(o));
  for (const b of policy.roleBindings) {
    const ref = b['roleRef'] as JSONObject;
    assert.equal(ref['kind'], 'Role', key(b));
    assert.ok(roles.has(`${meta(b).namespace}/${String(ref['name'])}`), key(b));
  }
});

test('every object: the rbac-defaults label, the autoupdate annotation, a unique name, sorted as kube writes the files', () => {
  for (const files of Object.values(POLICY_FILES)) {
    const seen = new Set<string>();
    for (const file of files) {
      const items = readPolicyFile(file);
      assert.deepEqual(items.map(key), [...items.map(key)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), file);
      for (const o of items) {
        assert.equal(meta(o).labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', key(o));
        assert.equal(meta(o).annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'true', key(o));
        assert.ok(!seen.has(key(o)), `${key(o)} twice`);
        seen.add(key(o));
      }
    }
  }
});

test('policy.json is the YAML files as the yaml package reads them (regenerate: node scripts/rbac-bootstrap-json.mjs)', () => {
  const json = JSON.parse(readFileSync(new URL('policy.json', BOOTSTRAP_POLICY_DIR), 'utf8')) as Record<string, unknown>;
  const files = readdirSync(BOOTSTRAP_POLICY_DIR).filter((f) => f.endsWith('.yaml')).sort();
  assert.deepEqual(Object.keys(json).sort(), files);
  for (const f of files) assert.deepEqual(json[f], parse(readFileSync(new URL(f, BOOTSTRAP_POLICY_DIR), 'utf8')), f);
});
