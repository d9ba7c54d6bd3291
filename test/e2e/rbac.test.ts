// RBAC through kubectl: a token-file user gets kube's exact 403, the admin's `create role`/`create rolebinding`
// let them do exactly that, `create clusterrole --aggregation-rule` gathers a CRD author's role, roles and
// bindings that would grant more than the user holds are refused, and the bootstrap roles are there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTokenFile } from '../../src/auth/authenticate.js';
import { ensureCertificates } from '../../src/auth/certs.js';
import { requireKubectl, squeeze, startTestServer, type TestServer } from './harness.js';

requireKubectl();

let t: TestServer;
let bobConfig: string;

before(async () => {
  t = await startTestServer({ tokens: parseTokenFile('bob-token,bob,u-bob,"team"\ndave-token,dave,u-dave,\nmia-token,mia,u-mia,"manager"\n') });
  const certs = await ensureCertificates(t.dataDir, { hosts: ['127.0.0.1'] });
  const caFile = t.file('ca.crt', certs.caCert);
  bobConfig = join(t.dataDir, 'bob-kubeconfig');
  writeFileSync(
    bobConfig,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${t.url}", certificate-authority: "${caFile}"}}]\n` +
      `contexts: [{name: bob, context: {cluster: c, user: bob, namespace: default}}, {name: dave, context: {cluster: c, user: dave}}, {name: mia, context: {cluster: c, user: mia}}]\n` +
      `current-context: bob\nusers: [{name: bob, user: {token: bob-token}}, {name: dave, user: {token: dave-token}}, {name: mia, user: {token: mia-token}}]\n`,
  );
});
after(async () => t?.close());

function bob(args: string[], stdin?: string, context = 'bob'): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', bobConfig, '--context', context, ...args], { env: { ...process.env, HOME: join(t.dataDir, 'bob-home') }, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
    child.stdin?.end(stdin ?? '');
  });
}

async function admin(args: string[], stdin?: string): Promise<string> {
  const r = await t.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, r.stderr);
  // The authorizer's caches follow the stores by watch: wait until they hold what was just written.
  await t.served.server.rbac.waitForStores();
  return r.stdout;
}

test('a user without bindings gets kube\'s 403; a Role and RoleBinding grant exactly what they name', async () => {
  const denied = await bob(['get', 'configmaps']);
  assert.equal(denied.code, 1);
  assert.equal(
    denied.stderr.trim(),
    'Error from server (Forbidden): configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"',
  );
  await admin(['create', 'role', 'cm-reader', '--verb=get,list', '--resource=configmaps', '-n', 'default']);
  await admin(['create', 'rolebinding', 'bob-cm-reader', '--role=cm-reader', '--user=bob', '-n', 'default']);
  const allowed = await bob(['get', 'configmaps']);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(allowed.stdout, /kube-root-ca\.crt/);
  // Exactly that: not in another namespace, not another verb, not another resource.
  assert.match((await bob(['get', 'configmaps', '-n', 'kube-system'])).stderr, /User "bob" cannot list resource "configmaps" in API group "" in the namespace "kube-system"/);
  assert.match(
    (await bob(['delete', 'configmap', 'kube-root-ca.crt'])).stderr,
    /configmaps "kube-root-ca.crt" is forbidden: User "bob" cannot delete resource "configmaps" in API group "" in the namespace "default"/,
  );
  assert.match((await bob(['get', 'secrets'])).stderr, /User "bob" cannot list resource "secrets"/);
  // The printers: ROLE as kind/name, and the subjects in wide output.
  assert.equal(squeeze(await admin(['get', 'rolebinding', 'bob-cm-reader', '-n', 'default', '-o', 'wide'])).replace(/ \d+s /, ' AGE '), 'NAME ROLE AGE USERS GROUPS SERVICEACCOUNTS\nbob-cm-reader Role/cm-reader AGE bob');
  assert.match(squeeze(await admin(['get', 'role', 'cm-reader', '-n', 'default'])), /^NAME CREATED AT\ncm-reader \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});

test('a binding naming a missing role: the denial says why', async () => {
  await admin(['create', 'rolebinding', 'dangling', '--role=nonexistent', '--user=bob', '-n', 'kube-public']);
  const r = await bob(['get', 'secrets', '-n', 'kube-public']);
  assert.match(
    r.stderr,
    /User "bob" cannot list resource "secrets" in API group "" in the namespace "kube-public": RBAC: role.rbac.authorization.k8s.io "nonexistent" not found/,
  );
});

test('escalation: bob cannot create a role or binding granting more than he holds; with escalate and bind he can', async () => {
  await admin(['create', 'role', 'role-admin', '--verb=create,get,list', '--resource=roles,rolebindings', '-n', 'default']);
  await admin(['create', 'rolebinding', 'bob-role-admin', '--role=role-admin', '--user=bob', '-n', 'default']);
  // Within what he holds: fine.
  const ok = await bob(['create', 'role', 'sub-reader', '--verb=get', '--resource=configmaps']);
  assert.equal(ok.code, 0, ok.stderr);
  const refused = await bob(['create', 'role', 'secret-reader', '--verb=get,list', '--resource=secrets']);
  assert.equal(refused.code, 1);
  assert.equal(
    refused.stderr.trim(),
    'Error from server (Forbidden): roles.rbac.authorization.k8s.io "secret-reader" is forbidden: user "bob" (groups=["team" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
  );
  const binding = await bob(['create', 'rolebinding', 'bob-edit', '--clusterrole=edit', '--user=bob']);
  assert.equal(binding.code, 1);
  assert.match(binding.stderr, /rolebindings.rbac.authorization.k8s.io "bob-edit" is forbidden: user "bob" \(groups=\["team" "system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["bindings"\], Verbs:\["get" "list" "watch"\]\}\n/);
  // Each missing permission once, compacted per resource, sorted: what bob lacks of configmaps is all but get and list.
  assert.match(binding.stderr, /^\{APIGroups:\[""\], Resources:\["configmaps"\], Verbs:\["create" "delete" "deletecollection" "patch" "update" "watch"\]\}$/m);
  // A binding to a role whose rules he holds needs no bind.
  assert.equal((await bob(['create', 'rolebinding', 'team-sub-reader', '--role=sub-reader', '--group=team'])).code, 0);
  // escalate on roles and bind on the edit ClusterRole lift the refusals.
  await admin(['create', 'role', 'escalator', '--verb=escalate', '--resource=roles', '-n', 'default']);
  await admin(['create', 'role', 'edit-binder', '--verb=bind', '--resource=clusterroles', '--resource-name=edit', '-n', 'default']);
  await admin(['create', 'rolebinding', 'bob-escalator', '--role=escalator', '--user=bob', '-n', 'default']);
  await admin(['create', 'rolebinding', 'bob-edit-binder', '--role=edit-binder', '--user=bob', '-n', 'default']);
  const escalated = await bob(['create', 'role', 'secret-reader', '--verb=get,list', '--resource=secrets']);
  assert.equal(escalated.code, 0, escalated.stderr);
  const bound = await bob(['create', 'rolebinding', 'bob-edit', '--clusterrole=edit', '--user=bob']);
  assert.equal(bound.code, 0, bound.stderr);
});

test('roleRef is immutable', async () => {
  await admin(['create', 'rolebinding', 'fixed', '--clusterrole=view', '--user=carol', '-n', 'default']);
  const r = await t.kubectl(['patch', 'rolebinding', 'fixed', '-n', 'default', '--type=merge', '-p', '{"roleRef":{"name":"edit"}}']);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /The RoleBinding "fixed" is invalid: roleRef: Invalid value: rbac.RoleRef\{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"\}: cannot change roleRef/,
  );
});

test('create clusterrole --aggregation-rule, and a CRD author\'s role aggregated into view', async () => {
  await admin(['create', 'clusterrole', 'monitoring', '--aggregation-rule=rbac.example.com/aggregate-to-monitoring=true']);
  await admin(['create', 'clusterrole', 'monitoring-endpoints', '--verb=get,list,watch', '--resource=configmaps']);
  await admin(['label', 'clusterrole', 'monitoring-endpoints', 'rbac.example.com/aggregate-to-monitoring=true']);
  const crdRole =
    'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: crontabs-view\n  labels:\n    rbac.authorization.k8s.io/aggregate-to-view: "true"\n' +
    'rules:\n- apiGroups: ["stable.example.com"]\n  resources: ["crontabs"]\n  verbs: ["get", "list", "watch"]\n';
  await admin(['apply', '-f', '-'], crdRole);
  const hasRule = async (role: string, resource: string): Promise<boolean> => {
    for (let i = 0; i < 100; i++) {
      const rules = JSON.parse(await admin(['get', 'clusterrole', role, '-o', 'jsonpath={.rules}'])) as { resources?: string[] }[];
      if (rules.some((r) => r.resources?.includes(resource))) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  };
  assert.ok(await hasRule('monitoring', 'configmaps'));
  assert.ok(await hasRule('view', 'crontabs'));
  // view aggregates into edit, edit into admin.
  assert.ok(await hasRule('admin', 'crontabs'));
  // A user granted view may now read crontabs: the authorizer follows the aggregated rules.
  await admin(['create', 'clusterrolebinding', 'bob-view', '--clusterrole=view', '--user=bob']);
  const can = t.served.server.authorize({
    user: { name: 'bob', groups: ['system:authenticated'] },
    verb: 'list',
    isResourceRequest: true,
    path: '/apis/stable.example.com/v1/namespaces/x/crontabs',
    group: 'stable.example.com',
    resource: 'crontabs',
    subresource: '',
    namespace: 'x',
    name: '',
  });
  assert.equal(can.allowed, true);
  // Only cluster admins may set an aggregationRule, even with no rules of its own.
  await admin(['create', 'clusterrole', 'clusterrole-creator', '--verb=create', '--resource=clusterroles']);
  await admin(['create', 'clusterrolebinding', 'bob-clusterrole-creator', '--clusterrole=clusterrole-creator', '--user=bob']);
  const r = await bob(['create', 'clusterrole', 'sneaky', '--aggregation-rule=a=b']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /clusterroles.rbac.authorization.k8s.io "sneaky" is forbidden: must have cluster-admin privileges to use the aggregationRule/);
});

test('kubectl get clusterroles and clusterrolebindings show the bootstrap policy', async () => {
  const roles = squeeze(await admin(['get', 'clusterroles']));
  assert.match(roles, /^NAME CREATED AT\n/);
  for (const name of ['admin', 'cluster-admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:aggregate-to-view', 'system:auth-delegator']) {
    assert.match(roles, new RegExp(`^${name} \\d{4}-`, 'm'), name);
  }
  const bindings = squeeze(await admin(['get', 'clusterrolebindings', '-o', 'wide']));
  assert.match(bindings, /^cluster-admin ClusterRole\/cluster-admin \S+ system:masters$/m);
  assert.match(bindings, /^system:public-info-viewer ClusterRole\/system:public-info-viewer \S+ system:authenticated, system:unauthenticated$/m);
  const admin_ = JSON.parse(await admin(['get', 'clusterrole', 'cluster-admin', '-o', 'json'])) as { metadata: { annotations: Record<string, string>; labels: Record<string, string> } };
  assert.equal(admin_.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'], 'true');
  assert.equal(admin_.metadata.labels['kubernetes.io/bootstrapping'], 'rbac-defaults');
  const edit = JSON.parse(await admin(['get', 'clusterrole', 'edit', '-o', 'json'])) as { metadata: { labels: Record<string, string> }; aggregationRule: unknown };
  assert.equal(edit.metadata.labels['rbac.authorization.k8s.io/aggregate-to-admin'], 'true');
  assert.deepEqual(edit.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }] });
  // Discovery works for any authenticated user (system:discovery), and bob can read version.
  assert.equal((await bob(['version', '-o', 'json'])).code, 0);
});

// The examples of the Kubernetes documentation page "Using RBAC Authorization", applied as they are written.
const DOC_EXAMPLES = `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  namespace: default
  name: pod-reader
rules:
- apiGroups: [""] # "" indicates the core API group
  resources: ["pods"]
  verbs: ["get", "watch", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: secret-reader
rules:
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "watch", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-pods
  namespace: default
subjects:
- kind: User
  name: jane
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: pod-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-secrets
  namespace: development
subjects:
- kind: User
  name: dave
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: secret-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: read-secrets-global
subjects:
- kind: Group
  name: manager
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: secret-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  namespace: default
  name: configmap-updater
rules:
- apiGroups: [""]
  resources: ["configmaps"]
  resourceNames: ["my-configmap"]
  verbs: ["update", "get"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  namespace: default
  name: pod-and-pod-logs-reader
rules:
- apiGroups: [""]
  resources: ["pods", "pods/log"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: aggregate-cron-tabs-edit
  labels:
    rbac.authorization.k8s.io/aggregate-to-admin: "true"
    rbac.authorization.k8s.io/aggregate-to-edit: "true"
rules:
- apiGroups: ["stable.example.com"]
  resources: ["crontabs"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
`;

test('the "Using RBAC Authorization" examples: who may do what', async () => {
  await admin(['create', 'namespace', 'development']);
  const applied = await admin(['apply', '-f', '-'], DOC_EXAMPLES);
  assert.match(applied, /role.rbac.authorization.k8s.io\/pod-reader created/);
  assert.match(applied, /clusterrolebinding.rbac.authorization.k8s.io\/read-secrets-global created/);
  await admin(['create', 'rolebinding', 'jane-cm', '--role=configmap-updater', '--user=jane', '-n', 'default']);
  await admin(['create', 'rolebinding', 'jane-logs', '--role=pod-and-pod-logs-reader', '--user=jane', '-n', 'default']);
  const may = (user: string, groups: string[], verb: string, resource: string, namespace: string, name = '', subresource = ''): boolean =>
    t.served.server.authorize({ user: { name: user, groups: [...groups, 'system:authenticated'] }, verb, isResourceRequest: true, path: '', group: '', resource, subresource, namespace, name }).allowed;
  assert.deepEqual(
    [may('jane', [], 'list', 'pods', 'default'), may('jane', [], 'list', 'pods', 'development'), may('jane', [], 'delete', 'pods', 'default', 'p')],
    [true, false, false],
  );
  assert.deepEqual([may('jane', [], 'get', 'pods', 'default', 'p', 'log'), may('jane', [], 'get', 'pods', 'default', 'p', 'exec')], [true, false]);
  assert.deepEqual(
    [may('jane', [], 'update', 'configmaps', 'default', 'my-configmap'), may('jane', [], 'update', 'configmaps', 'default', 'other'), may('jane', [], 'list', 'configmaps', 'default')],
    [true, false, false],
  );
  assert.deepEqual([may('dave', [], 'list', 'secrets', 'development'), may('dave', [], 'list', 'secrets', 'default'), may('dave', [], 'list', 'secrets', '')], [true, false, false]);
  assert.deepEqual([may('mia', ['manager'], 'list', 'secrets', ''), may('mia', ['manager'], 'get', 'secrets', 'kube-system', 'x')], [true, true]);
  // The same through kubectl, with kube's messages.
  assert.equal((await bob(['get', 'secrets', '-n', 'development'], undefined, 'dave')).code, 0);
  assert.equal(
    (await bob(['get', 'secrets', '-n', 'default'], undefined, 'dave')).stderr.trim(),
    'Error from server (Forbidden): secrets is forbidden: User "dave" cannot list resource "secrets" in API group "" in the namespace "default"',
  );
  assert.equal((await bob(['get', 'secrets', '--all-namespaces'], undefined, 'mia')).code, 0);
  assert.equal(
    (await bob(['get', 'secrets', '--all-namespaces'], undefined, 'dave')).stderr.trim(),
    'Error from server (Forbidden): secrets is forbidden: User "dave" cannot list resource "secrets" in API group "" at the cluster scope',
  );
  // aggregate-cron-tabs-edit joins edit and admin.
  await admin(['create', 'rolebinding', 'editors', '--clusterrole=edit', '--group=editors', '-n', 'default']);
  const editorMay = (verb: string): boolean =>
    t.served.server.authorize({ user: { name: 'x', groups: ['editors'] }, verb, isResourceRequest: true, path: '', group: 'stable.example.com', resource: 'crontabs', subresource: '', namespace: 'default', name: '' }).allowed;
  for (let i = 0; i < 100 && !editorMay('create'); i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual([editorMay('create'), editorMay('deletecollection')], [true, false]);
});
