// Legacy ServiceAccount token Secrets end to end, as kube's documentation has users make them ("Manually
// create a long-lived API token for a ServiceAccount"): kubectl applies a kubernetes.io/service-account-token
// Secret, the token controller fills in token, ca.crt and namespace, `kubectl --token` authenticates as the
// ServiceAccount and the Secret gets the last-used label; the token dies with its Secret or ServiceAccount,
// and a Secret naming a missing ServiceAccount is deleted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parseJwt } from '../../src/auth/jwt.js';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

let s: TestServer;
before(async () => {
  requireKubectl();
  // kube remembers a token's success for 10 s; shortened here so that revocations show quickly.
  s = await startTestServer({ serviceAccountTokens: { successCacheTtlMs: 200 } });
});
after(async () => {
  await s?.close();
});

const tokenSecret = (name: string, sa: string): string => `apiVersion: v1
kind: Secret
metadata:
  name: ${name}
  annotations:
    kubernetes.io/service-account.name: ${sa}
type: kubernetes.io/service-account-token
`;

async function until<T>(what: string, f: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function secretJson(name: string): Promise<any> {
  const r = await s.kubectl(['get', 'secret', name, '-n', 'default', '-o', 'json']);
  return r.code === 0 ? JSON.parse(r.stdout) : undefined;
}

const gone = async (name: string): Promise<true | undefined> => ((await s.kubectl(['get', 'secret', name, '-n', 'default'])).code === 1 ? true : undefined);

test('a service-account-token Secret gets its token; kubectl --token authenticates as the ServiceAccount; last-used label', async () => {
  let r = await s.kubectl(['create', 'serviceaccount', 'builder', '-n', 'default']);
  assert.equal(r.code, 0, r.stderr);
  const sa = JSON.parse((await s.kubectl(['get', 'sa', 'builder', '-n', 'default', '-o', 'json'])).stdout);
  r = await s.kubectl(['apply', '-n', 'default', '-f', '-'], { stdin: tokenSecret('builder-token', 'builder') });
  assert.equal(r.code, 0, r.stderr);
  const secret = await until('the token', async () => {
    const x = await secretJson('builder-token');
    return x?.data?.token ? x : undefined;
  });
  assert.equal(secret.metadata.annotations['kubernetes.io/service-account.uid'], sa.metadata.uid);
  assert.equal(Buffer.from(secret.data.namespace, 'base64').toString(), 'default');
  assert.match(Buffer.from(secret.data['ca.crt'], 'base64').toString(), /^-----BEGIN CERTIFICATE-----/);
  const token = Buffer.from(secret.data.token, 'base64').toString();
  assert.deepEqual(parseJwt(token)!.claims, {
    iss: 'kubernetes/serviceaccount',
    'kubernetes.io/serviceaccount/namespace': 'default',
    'kubernetes.io/serviceaccount/secret.name': 'builder-token',
    'kubernetes.io/serviceaccount/service-account.name': 'builder',
    'kubernetes.io/serviceaccount/service-account.uid': sa.metadata.uid,
    sub: 'system:serviceaccount:default:builder',
  });
  // `kubectl describe secret` shows it too, as on kube.
  r = await s.kubectl(['describe', 'secret', 'builder-token', '-n', 'default']);
  assert.match(r.stdout, /Type:\s+kubernetes\.io\/service-account-token/);
  assert.match(r.stdout, /token:\s+eyJ/);

  r = await s.kubectlAs({ token }, ['auth', 'whoami', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const who = JSON.parse(r.stdout).status.userInfo;
  assert.equal(who.username, 'system:serviceaccount:default:builder');
  assert.equal(who.uid, sa.metadata.uid);
  assert.deepEqual(who.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
  assert.equal(who.extra, undefined);
  // LegacyServiceAccountTokenTracking: the Secret carries the day of its last use (UTC).
  const used = await secretJson('builder-token');
  assert.equal(used.metadata.labels['kubernetes.io/legacy-token-last-used'], new Date().toISOString().slice(0, 10));
  // And kube-apiserver's record of since when uses are tracked.
  r = await s.kubectl(['get', 'configmap', 'kube-apiserver-legacy-service-account-token-tracking', '-n', 'kube-system', '-o', 'jsonpath={.data.since}']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^\d{4}-\d{2}-\d{2}$/);
  // Under RBAC the account may do nothing more yet: kube's 403 names it.
  r = await s.kubectlAs({ token }, ['get', 'configmaps', '-n', 'default']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /User "system:serviceaccount:default:builder" cannot list resource "configmaps" in API group "" in the namespace "default"/);

  // Changing the Secret's token (a user's edit) ends the old one: kube compares with the server's copy.
  r = await s.kubectl(['patch', 'secret', 'builder-token', '-n', 'default', '--type=merge', '-p', '{"data":{"token":"' + Buffer.from('x').toString('base64') + '"}}']);
  assert.equal(r.code, 0, r.stderr);
  await new Promise((res) => setTimeout(res, 300));
  r = await s.kubectlAs({ token }, ['auth', 'whoami']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /Unauthorized/);
});

test('deleting the Secret or the ServiceAccount ends the token; the ServiceAccount takes its token Secrets along', async () => {
  let r = await s.kubectl(['create', 'serviceaccount', 'robot', '-n', 'default']);
  assert.equal(r.code, 0, r.stderr);
  for (const name of ['robot-token-1', 'robot-token-2']) {
    r = await s.kubectl(['apply', '-n', 'default', '-f', '-'], { stdin: tokenSecret(name, 'robot') });
    assert.equal(r.code, 0, r.stderr);
  }
  const tokenOf = (name: string): Promise<string> =>
    until(`${name}'s token`, async () => {
      const x = await secretJson(name);
      return x?.data?.token ? Buffer.from(x.data.token, 'base64').toString() : undefined;
    });
  const t1 = await tokenOf('robot-token-1');
  const t2 = await tokenOf('robot-token-2');
  assert.equal((await s.kubectlAs({ token: t1 }, ['auth', 'whoami'])).code, 0);
  r = await s.kubectl(['delete', 'secret', 'robot-token-1', '-n', 'default']);
  assert.equal(r.code, 0, r.stderr);
  await new Promise((res) => setTimeout(res, 300));
  assert.match((await s.kubectlAs({ token: t1 }, ['auth', 'whoami'])).stderr, /Unauthorized/);
  assert.equal((await s.kubectlAs({ token: t2 }, ['auth', 'whoami'])).code, 0);

  r = await s.kubectl(['delete', 'serviceaccount', 'robot', '-n', 'default']);
  assert.equal(r.code, 0, r.stderr);
  await until('robot-token-2 deleted', () => gone('robot-token-2'));
  assert.match((await s.kubectlAs({ token: t2 }, ['auth', 'whoami'])).stderr, /Unauthorized/);
});

test('a token Secret naming a missing ServiceAccount is deleted; one without the annotation is refused', async () => {
  let r = await s.kubectl(['apply', '-n', 'default', '-f', '-'], { stdin: tokenSecret('orphan-token', 'nobody') });
  assert.equal(r.code, 0, r.stderr);
  await until('orphan-token deleted', () => gone('orphan-token'));
  r = await s.kubectl(['create', 'secret', 'generic', 'bare', '-n', 'default', '--type=kubernetes.io/service-account-token']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /metadata\.annotations\[kubernetes\.io\/service-account\.name\]: Required value/);
});
