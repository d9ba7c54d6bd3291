// ServiceAccount tokens end to end: `kubectl create token` (with --audience, --duration, --bound-object-kind)
// against the real server, the token then used by kubectl as its only credential; refused (401) once the
// ServiceAccount or the bound Secret is gone, when expired, for another audience, or when not a token at all.
// The python client and @kubernetes/client-node request tokens through their typed APIs and use them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPrivateKey } from 'node:crypto';
import * as k8s from '@kubernetes/client-node';
import { requireKubectl, startTestServer, type KubectlResult, type TestServer } from './harness.js';
import { keyId, parseJwt, signJwt } from '../../src/auth/jwt.js';

const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const ISSUER = 'https://kubernetes.default.svc.cluster.local';

let s: TestServer;
before(async () => {
  requireKubectl();
  const probe = await promisify(execFile)(PYTHON, ['-c', 'import kubernetes']).catch((e: Error) => e);
  if (probe instanceof Error) throw new Error(`python3-kubernetes is required by this test (apt-get install -y python3-kubernetes): ${probe.message}`);
  // kube remembers a token's success for 10 s; shortened here so that revocations show quickly.
  s = await startTestServer({ serviceAccountTokens: { successCacheTtlMs: 300 } });
  // Under RBAC the ServiceAccounts of `default` may do what `edit` grants there, as an admin would bind them.
  const r = await s.kubectl(['create', 'rolebinding', 'sa-edit', '--clusterrole=edit', '--group=system:serviceaccounts:default', '-n', 'default']);
  assert.equal(r.code, 0, r.stderr);
  await s.served.server.rbac.waitForStores();
});
after(async () => {
  await s?.close();
});

/** kubectl with only the token as credential. */
const kubectlAs = (token: string, args: string[]): Promise<KubectlResult> => s.kubectlAs({ token }, args);

/** Polls until kubectl with the token is refused (within the success cache's TTL, as on kube). */
async function refusedEventually(token: string): Promise<KubectlResult> {
  for (let i = 0; ; i++) {
    const r = await kubectlAs(token, ['get', 'sa']);
    if (r.code !== 0 || i >= 20) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
}

const claims = (token: string): Record<string, any> => parseJwt(token)!.claims as Record<string, any>;
const UNAUTHORIZED = /error: You must be logged in to the server \(Unauthorized\)/;

async function createToken(args: string[]): Promise<string> {
  const r = await s.kubectl(['create', 'token', ...args]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

test('kubectl create token: a token for the ServiceAccount that kubectl then authenticates with', async () => {
  const sa = JSON.parse((await s.kubectl(['get', 'sa', 'default', '-n', 'default', '-o', 'json'])).stdout);
  // A first start makes its signing key when first needed: here, for this first token.
  const keyFile = join(s.dataDir, 'pki', 'sa.key');
  assert.equal(existsSync(keyFile), false, 'no key made before a token was asked for');
  const token = await createToken(['default', '-n', 'default']);
  assert.equal(statSync(keyFile).mode & 0o777, 0o600);
  const c = claims(token);
  assert.equal(c['sub'], 'system:serviceaccount:default:default');
  assert.deepEqual(c['aud'], [ISSUER]);
  assert.equal(c['exp'] - c['iat'], 3600);
  assert.deepEqual(c['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'default', uid: sa.metadata.uid } });

  let r = await kubectlAs(token, ['get', '--raw', '/api']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).kind, 'APIVersions');
  r = await kubectlAs(token, ['create', 'configmap', 'made-by-sa', '--from-literal=a=b']);
  assert.equal(r.code, 0, r.stderr);
  r = await kubectlAs(token, ['get', 'configmap', 'made-by-sa', '-o', 'jsonpath={.data.a}']);
  assert.equal(r.stdout, 'b');

  // --duration and --audience: a token for another audience is not one for this API server.
  const short = await createToken(['default', '-n', 'default', '--duration', '10m']);
  assert.equal(claims(short)['exp'] - claims(short)['iat'], 600);
  assert.equal((await kubectlAs(short, ['get', '--raw', '/api'])).code, 0);
  const vault = await createToken(['default', '-n', 'default', '--audience', 'vault', '--audience', 'other']);
  assert.deepEqual(claims(vault)['aud'], ['vault', 'other']);
  r = await kubectlAs(vault, ['get', '--raw', '/api']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, UNAUTHORIZED);

  r = await s.kubectl(['create', 'token', 'default', '-n', 'default', '--duration', '1m']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim(), 'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
  r = await s.kubectl(['create', 'token', 'nobody', '-n', 'default']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim(), 'error: failed to create token: serviceaccounts "nobody" not found');
});

test('deleting the ServiceAccount (or the Secret a token is bound to) ends its tokens; a recreated one does not revive them', async () => {
  assert.equal((await s.kubectl(['create', 'sa', 'robot', '-n', 'default'])).code, 0);
  assert.equal((await s.kubectl(['create', 'secret', 'generic', 'robot-binding', '-n', 'default'])).code, 0);
  const token = await createToken(['robot', '-n', 'default']);
  const bound = await createToken(['robot', '-n', 'default', '--bound-object-kind', 'Secret', '--bound-object-name', 'robot-binding']);
  assert.equal(claims(bound)['kubernetes.io'].secret.name, 'robot-binding');
  assert.equal((await kubectlAs(token, ['get', 'sa'])).code, 0);
  assert.equal((await kubectlAs(bound, ['get', 'sa'])).code, 0);

  assert.equal((await s.kubectl(['delete', 'secret', 'robot-binding', '-n', 'default'])).code, 0);
  let r = await refusedEventually(bound);
  assert.equal(r.code, 1);
  assert.match(r.stderr, UNAUTHORIZED);
  assert.equal((await kubectlAs(token, ['get', 'sa'])).code, 0);

  assert.equal((await s.kubectl(['delete', 'sa', 'robot', '-n', 'default'])).code, 0);
  r = await refusedEventually(token);
  assert.equal(r.code, 1);
  assert.match(r.stderr, UNAUTHORIZED);
  // Same name, new UID: the old token still names the old one.
  assert.equal((await s.kubectl(['create', 'sa', 'robot', '-n', 'default'])).code, 0);
  r = await kubectlAs(token, ['get', 'sa']);
  assert.match(r.stderr, UNAUTHORIZED);
});

test('expired, forged and garbage tokens are 401', async () => {
  const token = await createToken(['default', '-n', 'default']);
  // The same claims, signed with the server's own key (pki/sa.key), but expired more than the leeway ago.
  const key = createPrivateKey(readFileSync(join(s.dataDir, 'pki', 'sa.key')));
  const now = Math.floor(Date.now() / 1000);
  const c = claims(token);
  const expired = signJwt({ ...c, iat: now - 7200, nbf: now - 7200, exp: now - 120 }, key, keyId(key));
  let r = await kubectlAs(expired, ['get', '--raw', '/api']);
  assert.match(r.stderr, UNAUTHORIZED);
  // Still good a moment after expiry (a minute of leeway, as kube's go-jose allows).
  const justExpired = signJwt({ ...c, exp: now - 10 }, key, keyId(key));
  assert.equal((await kubectlAs(justExpired, ['get', '--raw', '/api'])).code, 0);

  const [h, p] = token.split('.');
  const forged = `${h}.${p}.${Buffer.alloc(256, 1).toString('base64url')}`;
  r = await kubectlAs(forged, ['get', '--raw', '/api']);
  assert.match(r.stderr, UNAUTHORIZED);
  r = await kubectlAs('not-a-token', ['get', '--raw', '/api']);
  assert.match(r.stderr, UNAUTHORIZED);
});

test('python client: create_namespaced_service_account_token, then the token as the only credential', async () => {
  const script = `
import json, sys, kubernetes
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
core = client.CoreV1Api()
tr = core.create_namespaced_service_account_token('default', 'default', client.AuthenticationV1TokenRequest(spec=client.V1TokenRequestSpec(audiences=[], expiration_seconds=1200)))
cfg = client.Configuration()
cfg.host = client.Configuration.get_default_copy().host
cfg.ssl_ca_cert = sys.argv[2]
cfg.api_key = {'authorization': 'Bearer ' + tr.status.token}
as_sa = client.CoreV1Api(client.ApiClient(cfg))
names = [sa.metadata.name for sa in as_sa.list_namespaced_service_account('default').items]
try:
    bad = client.Configuration(); bad.host = cfg.host; bad.ssl_ca_cert = sys.argv[2]; bad.api_key = {'authorization': 'Bearer nope'}
    client.CoreV1Api(client.ApiClient(bad)).list_namespaced_service_account('default')
    status = None
except client.exceptions.ApiException as e:
    status = e.status
print(json.dumps({'exp': tr.spec.expiration_seconds, 'aud': tr.spec.audiences, 'kind': tr.kind, 'names': 'default' in names, 'bad': status}))
`;
  const r = await promisify(execFile)(PYTHON, ['-c', script, s.kubeconfig, join(s.dataDir, 'pki', 'ca.crt')], { timeout: 60_000 });
  assert.deepEqual(JSON.parse(r.stdout), { exp: 1200, aud: [ISSUER], kind: 'TokenRequest', names: true, bad: 401 });
});

test('client-node: createNamespacedServiceAccountToken, then a client authenticated by the token', async () => {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(s.kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const tr = await core.createNamespacedServiceAccountToken({ name: 'default', namespace: 'default', body: { spec: { audiences: [ISSUER, 'extra'] } } });
  assert.deepEqual(tr.spec.audiences, [ISSUER, 'extra']);
  assert.equal(tr.spec.expirationSeconds, 3600);
  assert.ok(tr.status?.expirationTimestamp instanceof Date);

  const asSa = new k8s.KubeConfig();
  asSa.loadFromOptions({
    clusters: [{ name: 'c', server: s.url, caData: readFileSync(join(s.dataDir, 'pki', 'ca.crt')).toString('base64') }],
    users: [{ name: 'u', token: tr.status!.token }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const list = await asSa.makeApiClient(k8s.CoreV1Api).listNamespacedServiceAccount({ namespace: 'default' });
  assert.ok(list.items.some((sa) => sa.metadata?.name === 'default'));
});

test('TokenReview: a ServiceAccount token authenticates to its account, for the audiences asked; whoami with it', async () => {
  const token = await createToken(['default', '--audience=vault', '--audience=https://kubernetes.default.svc.cluster.local']);
  const review = (spec: string): Promise<KubectlResult> =>
    s.kubectl(['create', '-o', 'json', '-f', '-'], { stdin: `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":${spec}}` });
  const api = await review(`{"token":"${token}"}`);
  assert.equal(api.code, 0, api.stderr);
  const status = JSON.parse(api.stdout).status;
  assert.equal(status.authenticated, true);
  assert.equal(status.user.username, 'system:serviceaccount:default:default');
  assert.deepEqual(status.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
  assert.deepEqual(status.audiences, ['https://kubernetes.default.svc.cluster.local']);
  const vault = JSON.parse((await review(`{"token":"${token}","audiences":["vault"]}`)).stdout).status;
  assert.equal(vault.authenticated, true);
  assert.deepEqual(vault.audiences, ['vault']);
  const other = JSON.parse((await review(`{"token":"${token}","audiences":["elsewhere"]}`)).stdout).status;
  assert.equal(other.authenticated, undefined);
  assert.match(other.error, /invalid for the target audiences \["elsewhere"\]/);
  const who = await kubectlAs(token, ['auth', 'whoami', '-o', 'json']);
  assert.equal(who.code, 0, who.stderr);
  assert.equal(JSON.parse(who.stdout).status.userInfo.username, 'system:serviceaccount:default:default');
});

test('a first start whose key cannot be written: kubectl create token fails, and succeeds once the data directory allows it', async () => {
  const fresh = await startTestServer();
  const log = console.error;
  console.error = () => {};
  try {
    // A directory where the public key goes: the key's making fails after writing pki/sa.key.
    const blocker = join(fresh.dataDir, 'pki', 'sa.pub');
    mkdirSync(blocker);
    const failed = await fresh.kubectl(['create', 'token', 'default', '-n', 'default']);
    assert.notEqual(failed.code, 0);
    assert.match(failed.stderr, /sa\.pub/);
    rmSync(blocker, { recursive: true });
    const r = await fresh.kubectl(['create', 'token', 'default', '-n', 'default']);
    assert.equal(r.code, 0, r.stderr);
    // Signed with the key in the data directory.
    const key = createPrivateKey(readFileSync(join(fresh.dataDir, 'pki', 'sa.key')));
    assert.equal(parseJwt(r.stdout.trim())!.header.kid, keyId(key));
  } finally {
    console.error = log;
    await fresh.close();
  }
});
