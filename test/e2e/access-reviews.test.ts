// kubectl's auth commands and impersonation end to end, with several identities (the admin certificate and two
// static tokens): `auth can-i` (its yes/no and exit codes, `--list`), `auth whoami` (table and JSON), `--as`,
// `--as-group` and `--as-uid` with and without the permission to impersonate, and a TokenReview through the
// python client. The default server runs RBAC, with alice's group bound to cluster-admin; a second one has a
// policy of the test's own, whose refusals show kube's 403s.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serve, type Served } from '../../src/cli/serve.js';
import { parseTokenFile } from '../../src/auth/authenticate.js';
import { fixedPolicy, type AuthorizerHooks } from '../../src/auth/authorize.js';
import { requireKubectl, squeeze } from './harness.js';

requireKubectl();
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const TOKENS = 'alice-token,alice,u-alice,"admins"\nbob-token,bob,u-bob,"devs"\n';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
interface Started {
  served: Served;
  dir: string;
  kubeconfig: string;
  kubectl(context: string, args: string[]): Promise<Run>;
}

async function start(authorizer?: AuthorizerHooks): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-reviews-'));
  const served = await serve({ dataDir: dir, securePort: 0, bindAddress: '127.0.0.1', hosts: [], tokens: parseTokenFile(TOKENS), ...(authorizer ? { authorizer } : {}) });
  // The generated kubeconfig (the admin certificate) plus a context per token user.
  const kubeconfig = join(dir, 'multi-kubeconfig');
  const admin = served.kubeconfigPath;
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${served.server.secureUrl}", insecure-skip-tls-verify: true}}]\n` +
      `contexts: [{name: alice, context: {cluster: c, user: alice}}, {name: bob, context: {cluster: c, user: bob}}, {name: anonymous, context: {cluster: c, user: anonymous}}]\n` +
      `current-context: alice\n` +
      `users: [{name: alice, user: {token: alice-token}}, {name: bob, user: {token: bob-token}}, {name: anonymous, user: {username: nobody, password: unused}}]\n`,
  );
  const kubectl = (context: string, args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      const config = context === 'admin' ? ['--kubeconfig', admin] : ['--kubeconfig', kubeconfig, '--context', context];
      execFile('kubectl', [...config, ...args], { env: { ...process.env, HOME: dir }, timeout: 60_000 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException).code === 'number' ? Number((err as NodeJS.ErrnoException).code) : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      }).stdin?.end();
    });
  if (!authorizer) {
    // RBAC: alice's group (admins) may do anything, as a ClusterRoleBinding to cluster-admin lets it.
    const bound = await kubectl('admin', ['create', 'clusterrolebinding', 'admins', '--clusterrole=cluster-admin', '--group=admins']);
    assert.equal(bound.code, 0, bound.stderr);
    await served.server.rbac.waitForStores();
  }
  return { served, dir, kubeconfig, kubectl };
}

/**
 * The test's policy: masters and alice may do anything; bob may do anything but impersonate and create
 * ConfigMaps; jane (only ever impersonated) may get and list, in the namespace "team" alone, besides what
 * RBAC's bootstrap roles give every authenticated user (system:discovery, system:basic-user).
 */
const SELF_REVIEWS = ['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'selfsubjectreviews'];
const testPolicy: AuthorizerHooks = {
  authorize(attrs) {
    const u = attrs.user;
    if (u.groups.includes('system:authenticated')) {
      if (!attrs.isResourceRequest && attrs.verb === 'get' && /^\/(api|apis|openapi)(\/|$)/.test(attrs.path)) return { allowed: true, reason: '' };
      if (attrs.verb === 'create' && SELF_REVIEWS.includes(attrs.resource)) return { allowed: true, reason: '' };
    }
    if (u.groups.includes('system:masters') || u.name === 'alice') return { allowed: true, reason: '' };
    if (u.name === 'bob') return { allowed: attrs.verb !== 'impersonate' && !(attrs.verb === 'create' && attrs.resource === 'configmaps'), reason: '' };
    if (u.name === 'jane') return { allowed: (attrs.verb === 'get' || attrs.verb === 'list') && attrs.namespace === 'team', reason: '' };
    return fixedPolicy.authorize(attrs);
  },
  rulesFor(user, namespace) {
    if (user.name === 'jane' && namespace === 'team') {
      return { resourceRules: [{ verbs: ['get', 'list'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }], nonResourceRules: [], incomplete: false };
    }
    return user.name === 'jane' ? { resourceRules: [], nonResourceRules: [], incomplete: false } : fixedPolicy.rulesFor(user, namespace);
  },
};

let fixed: Started;
let policy: Started;
before(async () => {
  [fixed, policy] = await Promise.all([start(), start(testPolicy)]);
});
after(async () => {
  for (const s of [fixed, policy]) {
    if (!s) continue;
    await s.served.close();
    rmSync(s.dir, { recursive: true, force: true });
  }
});

test('kubectl auth can-i: yes with exit code 0, no with exit code 1; --list shows the rules', async () => {
  const yes = await fixed.kubectl('admin', ['auth', 'can-i', 'create', 'configmaps']);
  assert.deepEqual([yes.code, yes.stdout], [0, 'yes\n']);
  const bobNo = await policy.kubectl('bob', ['auth', 'can-i', 'create', 'configmaps']);
  assert.deepEqual([bobNo.code, bobNo.stdout], [1, 'no\n']);
  const bobYes = await policy.kubectl('bob', ['auth', 'can-i', 'delete', 'configmaps', '-n', 'kube-system']);
  assert.deepEqual([bobYes.code, bobYes.stdout], [0, 'yes\n']);
  // Under RBAC: cluster-admin's rules, then those every authenticated user holds (system:basic-user, system:discovery, ...).
  const list = await fixed.kubectl('alice', ['auth', 'can-i', '--list']);
  assert.equal(list.code, 0, list.stderr);
  const lines = squeeze(list.stdout).split('\n');
  assert.deepEqual(lines.slice(0, 3), ['Resources Non-Resource URLs Resource Names Verbs', '*.* [] [] [*]', '[*] [] [*]']);
  assert.ok(lines.includes('selfsubjectaccessreviews.authorization.k8s.io [] [] [create]'), list.stdout);
  assert.ok(lines.includes('[/apis/*] [] [get]'), list.stdout);
  const bobList = await fixed.kubectl('bob', ['auth', 'can-i', '--list']);
  assert.ok(!squeeze(bobList.stdout).includes('*.*'), bobList.stdout);
  const janeList = await policy.kubectl('alice', ['auth', 'can-i', '--list', '-n', 'team', '--as=jane']);
  assert.equal(squeeze(janeList.stdout), 'Resources Non-Resource URLs Resource Names Verbs\n*.* [] [] [get list]');
});

test('kubectl auth can-i --as: the review is made as the impersonated user', async () => {
  // Under RBAC jane holds nothing but the bootstrap roles every authenticated user has.
  const fixedJane = await fixed.kubectl('admin', ['auth', 'can-i', 'list', 'namespaces', '--as=jane']);
  assert.deepEqual([fixedJane.code, fixedJane.stdout, fixedJane.stderr], [1, 'no\n', "Warning: resource 'namespaces' is not namespace scoped\n\n"]);
  const janeSelf = await fixed.kubectl('admin', ['auth', 'can-i', 'create', 'selfsubjectaccessreviews.authorization.k8s.io', '--as=jane']);
  assert.deepEqual([janeSelf.code, janeSelf.stdout], [0, 'yes\n']);
  const inTeam = await policy.kubectl('alice', ['auth', 'can-i', 'list', 'configmaps', '-n', 'team', '--as=jane']);
  assert.deepEqual([inTeam.code, inTeam.stdout], [0, 'yes\n']);
  const elsewhere = await policy.kubectl('alice', ['auth', 'can-i', 'list', 'configmaps', '-n', 'default', '--as=jane']);
  assert.deepEqual([elsewhere.code, elsewhere.stdout], [1, 'no\n']);
  const asBob = await policy.kubectl('alice', ['auth', 'can-i', 'create', 'configmaps', '--as=bob']);
  assert.deepEqual([asBob.code, asBob.stdout], [1, 'no\n']);
});

test('kubectl auth whoami, as a table and as JSON, for certificates, tokens and impersonated users', async () => {
  const admin = await fixed.kubectl('admin', ['auth', 'whoami']);
  assert.equal(squeeze(admin.stdout), 'ATTRIBUTE VALUE\nUsername kubernetes-admin\nGroups [system:masters system:authenticated]');
  const bob = await fixed.kubectl('bob', ['auth', 'whoami', '-o', 'json']);
  assert.equal(bob.code, 0, bob.stderr);
  const review = JSON.parse(bob.stdout);
  assert.equal(review.kind, 'SelfSubjectReview');
  assert.equal(review.apiVersion, 'authentication.k8s.io/v1');
  assert.match(review.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(review.status, { userInfo: { username: 'bob', uid: 'u-bob', groups: ['devs', 'system:authenticated'] } });
  const sa = await fixed.kubectl('alice', ['auth', 'whoami', '--as=system:serviceaccount:default:builder']);
  assert.equal(squeeze(sa.stdout), 'ATTRIBUTE VALUE\nUsername system:serviceaccount:default:builder\nGroups [system:serviceaccounts system:serviceaccounts:default system:authenticated]');
  const full = await policy.kubectl('alice', ['auth', 'whoami', '--as=jane', '--as-group=devs', '--as-group=ops', '--as-uid=u-jane', '-o', 'json']);
  assert.deepEqual(JSON.parse(full.stdout).status, { userInfo: { username: 'jane', uid: 'u-jane', groups: ['devs', 'ops', 'system:authenticated'] } });
});

test('--as without the permission to impersonate: kube\'s 403, for each kind of thing impersonated', async () => {
  const user = await policy.kubectl('bob', ['get', 'namespaces', '--as=jane']);
  assert.equal(user.code, 1);
  assert.equal(user.stderr, 'Error from server (Forbidden): users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope\n');
  const sa = await policy.kubectl('bob', ['get', 'configmaps', '--as=system:serviceaccount:team:builder']);
  assert.equal(sa.stderr, 'Error from server (Forbidden): serviceaccounts "builder" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team"\n');
  const anonymous = await fixed.kubectl('anonymous', ['get', 'namespaces', '--as=jane']);
  assert.equal(anonymous.code, 1);
  assert.equal(anonymous.stderr, 'Error from server (Forbidden): users "jane" is forbidden: User "system:anonymous" cannot impersonate resource "users" in API group "" at the cluster scope\n');
  // kubectl words a refused SelfSubjectReview its own way.
  const whoami = await fixed.kubectl('anonymous', ['auth', 'whoami', '--as=jane']);
  assert.equal(whoami.stderr, 'error: the selfsubjectreviews API is not enabled in the cluster or you do not have permission to call it\n');
  // With the permission, the request itself is then authorized as the impersonated user.
  const janeDefault = await policy.kubectl('alice', ['get', 'configmaps', '-n', 'default', '--as=jane']);
  assert.equal(janeDefault.stderr, 'Error from server (Forbidden): configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"\n');
});

test('access reviews through kubectl create: SubjectAccessReview for another user, LocalSubjectAccessReview\'s namespace rule', async () => {
  const sar = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'jane', resourceAttributes: { namespace: 'team', verb: 'get', resource: 'pods' } } };
  const made = await policy.kubectl('alice', ['create', '-o', 'json', '-f', writeJson(policy, 'sar.json', sar)]);
  assert.equal(made.code, 0, made.stderr);
  assert.deepEqual(JSON.parse(made.stdout).status, { allowed: true });
  const lsar = { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', metadata: { namespace: 'team' }, spec: { user: 'jane', resourceAttributes: { namespace: 'other', verb: 'get', resource: 'pods' } } };
  const refused = await policy.kubectl('alice', ['create', '-f', writeJson(policy, 'lsar.json', lsar)]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /spec\.resourceAttributes\.namespace: Invalid value: "other": must match metadata\.namespace/);
  const get = await policy.kubectl('alice', ['get', 'selfsubjectaccessreviews']);
  assert.match(get.stderr, /the server does not allow this method on the requested resource/);
});

function writeJson(s: Started, name: string, obj: unknown): string {
  const p = join(s.dir, name);
  writeFileSync(p, JSON.stringify(obj));
  return p;
}

const TOKEN_REVIEW_PY = `
import json, sys
from kubernetes import client, config
config.load_kube_config(config_file=sys.argv[1], context="alice")
api = client.AuthenticationV1Api()
out = {}
for token in ["bob-token", "not-a-token"]:
    r = api.create_token_review(client.V1TokenReview(spec=client.V1TokenReviewSpec(token=token)))
    out[token] = {"authenticated": r.status.authenticated, "user": r.status.user.to_dict() if r.status.user else None, "error": r.status.error}
print(json.dumps(out))
`;

test('TokenReview through the python client: the same token chain as bearer tokens', async () => {
  const probe = await promisify(execFile)(PYTHON, ['-c', 'import kubernetes']).catch((e: Error) => e);
  if (probe instanceof Error) throw new Error(`python3-kubernetes is required by this test (apt-get install -y python3-kubernetes): ${probe.message}`);
  const script = join(fixed.dir, 'token-review.py');
  writeFileSync(script, TOKEN_REVIEW_PY);
  const r = await promisify(execFile)(PYTHON, [script, fixed.kubeconfig], { timeout: 60_000 });
  assert.deepEqual(JSON.parse(r.stdout), {
    'bob-token': { authenticated: true, user: { username: 'bob', uid: 'u-bob', groups: ['devs', 'system:authenticated'], extra: null }, error: null },
    'not-a-token': { authenticated: null, user: { username: null, uid: null, groups: null, extra: null }, error: 'invalid bearer token' },
  });
});
