import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePolicy, parsePolicy, type AuditAttributes, type Policy } from '../../src/audit/policy.js';

const policy = (yaml: string): Policy => {
  const p = parsePolicy(yaml);
  if ('error' in p) throw new Error(p.error);
  return p;
};

const req = (o: Partial<AuditAttributes>): AuditAttributes => ({
  user: { name: 'alice', groups: ['dev', 'system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/default/pods/p',
  apiGroup: '',
  namespace: 'default',
  resource: 'pods',
  subresource: '',
  name: 'p',
  ...o,
});

const P = policy(`
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  users: ["system:kube-proxy"]
- level: None
  nonResourceURLs: ["/healthz*", "/version"]
- level: RequestResponse
  resources:
  - group: ""
    resources: ["pods/log", "*/status"]
- level: Metadata
  resources:
  - group: ""
    resources: ["secrets", "configmaps"]
  omitManagedFields: true
- level: Request
  userGroups: ["dev"]
  verbs: ["create", "update"]
  namespaces: ["team-a"]
  omitStages: [ResponseStarted]
- level: Metadata
  resources:
  - group: "apps"
    resources: ["deployments/*"]
- level: Request
  resources:
  - group: "stable.example.com"
    resources: ["crontabs"]
    resourceNames: ["only-this"]
- level: Metadata
  nonResourceURLs: ["/apis*"]
- level: Metadata
  omitStages: [Panic]
`);

test('the first matching rule decides the level', () => {
  assert.equal(evaluatePolicy(P, req({ user: { name: 'system:kube-proxy', groups: [] } })).level, 'None');
  assert.equal(evaluatePolicy(P, req({ resource: 'secrets' })).level, 'Metadata');
  // Not in team-a: falls through to the catch-all.
  assert.equal(evaluatePolicy(P, req({ verb: 'create', resource: 'widgets' })).level, 'Metadata');
  assert.equal(evaluatePolicy(P, req({ verb: 'create', resource: 'widgets', namespace: 'team-a' })).level, 'Request');
  // The group does not match.
  assert.equal(evaluatePolicy(P, req({ verb: 'create', namespace: 'team-a', resource: 'widgets', user: { name: 'bob', groups: ['ops'] } })).level, 'Metadata');
});

test('subresources: "pods/log", "*/status" and "deployments/*"', () => {
  assert.equal(evaluatePolicy(P, req({ subresource: 'log' })).level, 'RequestResponse');
  assert.equal(evaluatePolicy(P, req({ resource: 'services', subresource: 'status' })).level, 'RequestResponse');
  // "pods/log" does not match the pods themselves.
  assert.equal(evaluatePolicy(P, req({ resource: 'pods', subresource: '' })).level, 'Metadata');
  const d = { apiGroup: 'apps', resource: 'deployments' };
  assert.equal(evaluatePolicy(P, req({ ...d, subresource: 'scale' })).level, 'Metadata');
  assert.deepEqual(evaluatePolicy(P, req({ ...d, subresource: 'scale' })).omitStages, ['RequestReceived']);
});

test('resourceNames narrow a resource rule', () => {
  const cr = { apiGroup: 'stable.example.com', resource: 'crontabs' };
  assert.equal(evaluatePolicy(P, req({ ...cr, name: 'only-this' })).level, 'Request');
  assert.deepEqual(evaluatePolicy(P, req({ ...cr, name: 'other' })).omitStages, ['RequestReceived', 'Panic']);
});

test('nonResourceURLs: exact paths and trailing-* prefixes; never resource requests', () => {
  const nr = (path: string) => req({ isResourceRequest: false, path, resource: '', namespace: '', name: '' });
  assert.equal(evaluatePolicy(P, nr('/healthz')).level, 'None');
  assert.equal(evaluatePolicy(P, nr('/healthz/etcd')).level, 'None');
  assert.equal(evaluatePolicy(P, nr('/version')).level, 'None');
  assert.equal(evaluatePolicy(P, nr('/version/x')).level, 'Metadata');
  assert.equal(evaluatePolicy(P, nr('/apis')).level, 'Metadata');
  // A resource rule never matches a non-resource request.
  const only = policy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Request\n  resources: [{group: ""}]\n');
  assert.equal(evaluatePolicy(only, nr('/api')).level, 'None');
  assert.equal(evaluatePolicy(only, req({})).level, 'Request');
});

test('omitStages are the policy\'s and the rule\'s together; omitManagedFields: the rule\'s over the policy\'s', () => {
  const c = evaluatePolicy(P, req({ verb: 'update', resource: 'widgets', namespace: 'team-a' }));
  assert.deepEqual(c.omitStages, ['RequestReceived', 'ResponseStarted']);
  assert.equal(c.omitManagedFields, false);
  assert.equal(evaluatePolicy(P, req({ resource: 'configmaps' })).omitManagedFields, true);
  const p2 = policy('apiVersion: audit.k8s.io/v1\nkind: Policy\nomitManagedFields: true\nrules:\n- level: Request\n  resources: [{group: "", resources: [secrets]}]\n  omitManagedFields: false\n- level: Request\n');
  assert.equal(evaluatePolicy(p2, req({ resource: 'secrets' })).omitManagedFields, false);
  assert.equal(evaluatePolicy(p2, req({})).omitManagedFields, true);
});

test('no matching rule: None; namespaces [""] matches cluster-scoped requests', () => {
  const p = policy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  namespaces: [""]\n');
  assert.equal(evaluatePolicy(p, req({ namespace: '', resource: 'namespaces' })).level, 'Metadata');
  assert.equal(evaluatePolicy(p, req({})).level, 'None');
  // A rule with users never matches a request without a user (failed authentication).
  const u = policy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Request\n  users: [alice]\n- level: Metadata\n');
  assert.equal(evaluatePolicy(u, req({ user: undefined })).level, 'Metadata');
});

test('invalid policies are refused', () => {
  assert.match((parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n') as { error: string }).error, /rules\[0\]\.level: Unsupported value: "Everything"/);
  assert.match((parsePolicy('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\n') as { error: string }).error, /audit\.k8s\.io\/v1/);
  assert.match(
    (parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  nonResourceURLs: [/x]\n  resources: [{group: ""}]\n') as { error: string }).error,
    /cannot apply to both/,
  );
});
