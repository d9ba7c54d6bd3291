// JWT authentication from an external OIDC issuer, end to end: a local HTTPS issuer (node:https, a certificate
// from a CA made with openssl, discovery and a key set that can rotate) mints ID tokens; the server, started
// with --authentication-config (and, separately, the legacy --oidc-* flags), maps them to users that kubectl,
// client-node and the python client see, that RBAC authorizes, and refuses with 401 when kube would. The file is
// reloaded when it changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { generateKeyPairSync, createPublicKey, sign, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireKubectl, startTestServer, type KubectlResult, type TestServer } from './harness.js';

requireKubectl();
const dir = mkdtempSync(join(tmpdir(), 'oidc-'));
const f = (n: string): string => join(dir, n);
const openssl = (args: string[]): void => void execFileSync('openssl', args, { stdio: 'pipe' });
const UNAUTHORIZED = /error: You must be logged in to the server \(Unauthorized\)/;

/** The issuer: its URL, its signing key (replaceable: a rotation) and the kid it publishes it under. */
const issuer = { url: '', key: undefined as unknown as KeyObject, kid: 'key-1', server: undefined as unknown as https.Server, jwksFetches: 0 };

function startIssuer(): Promise<void> {
  issuer.key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  issuer.server = https.createServer({ key: readFileSync(f('issuer.key')), cert: readFileSync(f('issuer.crt')) }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer: issuer.url, jwks_uri: `${issuer.url}/keys`, id_token_signing_alg_values_supported: ['RS256'] }));
    } else if (req.url === '/keys') {
      issuer.jwksFetches++;
      res.end(JSON.stringify({ keys: [{ ...createPublicKey(issuer.key).export({ format: 'jwk' }), kid: issuer.kid, use: 'sig', alg: 'RS256' }] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  return new Promise((resolve) =>
    issuer.server.listen(0, '127.0.0.1', () => {
      issuer.url = `https://127.0.0.1:${(issuer.server.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

/** An ID token from the issuer (or signed by another key), valid for ten minutes unless the claims say otherwise. */
function mint(claims: Record<string, unknown>, key = issuer.key, kid = issuer.kid): string {
  const now = Math.floor(Date.now() / 1000);
  const all = { iss: issuer.url, aud: 'crd-apiserver', sub: 'u-123', exp: now + 600, iat: now, jti: randomUUID(), ...claims };
  const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${enc({ alg: 'RS256', kid, typ: 'JWT' })}.${enc(all)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/** The configuration file: JSON is YAML too, which keeps the PEM CA simple to embed. */
function authenticationConfig(usernamePrefix: string): string {
  return JSON.stringify({
    apiVersion: 'apiserver.config.k8s.io/v1beta1',
    kind: 'AuthenticationConfiguration',
    jwt: [
      {
        issuer: { url: issuer.url, audiences: ['crd-apiserver'], certificateAuthority: readFileSync(f('ca.crt'), 'utf8') },
        claimValidationRules: [{ expression: "claims.?hd.orValue('') == 'example.com'", message: 'not from example.com' }],
        claimMappings: {
          username: { expression: `'${usernamePrefix}' + claims.preferred_username` },
          groups: { claim: 'groups', prefix: 'oidc:' },
          uid: { claim: 'sub' },
          extra: [{ key: 'example.com/tier', valueExpression: "claims.?tier.orValue('')" }],
        },
        userValidationRules: [{ expression: "!user.username.startsWith('oidc:system:')", message: 'system users come from elsewhere' }],
      },
    ],
  });
}

let s: TestServer;
const configPath = f('authn.json');

before(async () => {
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.crt'), '-subj', '/CN=oidc-test-ca', '-days', '1']);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('issuer.key'), '-out', f('issuer.csr'), '-subj', '/CN=issuer']);
  writeFileSync(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl(['x509', '-req', '-in', f('issuer.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('issuer.crt'), '-days', '1', '-extfile', f('ext.cnf')]);
  await startIssuer();
  writeFileSync(configPath, authenticationConfig('oidc:'));
  s = await startTestServer({ authenticationConfig: configPath, jwtAuthentication: { reloadIntervalMs: 200 } });
  // RBAC for the issuer's users: the group oidc:devs may view the default namespace.
  const r = await s.kubectl(['create', 'rolebinding', 'oidc-devs', '--clusterrole=view', '--group=oidc:devs', '-n', 'default']);
  assert.equal(r.code, 0, r.stderr);
  await s.served.server.rbac.waitForStores();
});

after(async () => {
  await s?.close();
  issuer.server?.close();
  issuer.server?.closeAllConnections();
  rmSync(dir, { recursive: true, force: true });
});

const as = (token: string, args: string[]): Promise<KubectlResult> => s.kubectlAs({ token }, args);
const alice = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ preferred_username: 'alice', groups: ['devs', 'qa'], hd: 'example.com', tier: 'gold', ...extra });

test('kubectl auth whoami: the user, groups, uid and extra as the claim mappings make them', async () => {
  const token = mint(alice({ jti: 'id-1' }));
  const r = await as(token, ['auth', 'whoami', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).status.userInfo, {
    username: 'oidc:alice',
    uid: 'u-123',
    groups: ['oidc:devs', 'oidc:qa', 'system:authenticated'],
    extra: { 'authentication.kubernetes.io/credential-id': ['JTI=id-1'], 'example.com/tier': ['gold'] },
  });
  // kubectl --token, with no kubeconfig credential at all; the table form kubectl prints by default.
  writeFileSync(f('empty.kubeconfig'), 'apiVersion: v1\nkind: Config\n');
  const t = await promisify(execFile)('kubectl', ['--kubeconfig', f('empty.kubeconfig'), '--server', s.url, '--certificate-authority', join(s.dataDir, 'pki', 'ca.crt'), '--token', token, 'auth', 'whoami'], {
    env: { ...process.env, HOME: s.home },
  });
  assert.match(t.stdout, /Username\s+oidc:alice/);
  assert.match(t.stdout, /UID\s+u-123/);
  assert.match(t.stdout, /Groups\s+\[oidc:devs oidc:qa system:authenticated\]/);
});

test('RBAC authorizes the mapped groups: view in default, and kube\'s 403 beyond it', async () => {
  const token = mint(alice());
  const ok = await as(token, ['get', 'configmaps', '-n', 'default']);
  assert.equal(ok.code, 0, ok.stderr);
  const denied = await as(token, ['create', 'configmap', 'x', '-n', 'default']);
  assert.notEqual(denied.code, 0);
  assert.match(denied.stderr, /User "oidc:alice" cannot create resource "configmaps" in API group "" in the namespace "default"/);
});

test('401 for a wrong audience, an expired token, a bad signature, a failed claim or user validation rule', async () => {
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const refused: [string, string][] = [
    ['wrong audience', mint(alice({ aud: 'someone-else' }))],
    ['expired', mint(alice({ exp: Math.floor(Date.now() / 1000) - 60 }))],
    ['bad signature', mint(alice(), stranger)],
    ['claim validation rule', mint(alice({ hd: 'evil.example' }))],
    ['user validation rule', mint(alice({ preferred_username: 'system:admin' }))],
    ['not yet valid', mint(alice({ nbf: Math.floor(Date.now() / 1000) + 3600 }))],
  ];
  for (const [what, token] of refused) {
    const r = await as(token, ['get', 'configmaps', '-n', 'default']);
    assert.notEqual(r.code, 0, what);
    assert.match(r.stderr, UNAUTHORIZED, what);
  }
});

test('client-node and the python client with an ID token as their credential', async () => {
  const token = mint(alice());
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: s.url, caData: readFileSync(join(s.dataDir, 'pki', 'ca.crt')).toString('base64') }],
    users: [{ name: 'u', token }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const review = await kc.makeApiClient(k8s.AuthenticationV1Api).createSelfSubjectReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
  assert.equal(review.status?.userInfo?.username, 'oidc:alice');
  assert.deepEqual(review.status?.userInfo?.groups, ['oidc:devs', 'oidc:qa', 'system:authenticated']);
  await kc.makeApiClient(k8s.CoreV1Api).listNamespacedConfigMap({ namespace: 'default' });

  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const script = `
import json, sys
from kubernetes import client
def api(token):
    cfg = client.Configuration(); cfg.host = sys.argv[1]; cfg.ssl_ca_cert = sys.argv[2]; cfg.api_key = {'authorization': 'Bearer ' + token}
    return client.CoreV1Api(client.ApiClient(cfg))
names = [cm.metadata.name for cm in api(sys.argv[3]).list_namespaced_config_map('default').items]
try:
    api(sys.argv[4]).list_namespaced_config_map('default'); status = None
except client.exceptions.ApiException as e:
    status = e.status
print(json.dumps({'listed': 'kube-root-ca.crt' in names, 'expired': status}))
`;
  const expired = mint(alice({ exp: Math.floor(Date.now() / 1000) - 60 }));
  const r = await promisify(execFile)(python, ['-c', script, s.url, join(s.dataDir, 'pki', 'ca.crt'), token, expired], { timeout: 60_000 });
  assert.deepEqual(JSON.parse(r.stdout), { listed: true, expired: 401 });
});

test('TokenReview reports the user, or kube\'s oidc error', async () => {
  const review = (token: string): Promise<KubectlResult> =>
    s.kubectl(['create', '-o', 'json', '-f', '-'], { stdin: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } }) });
  const good = JSON.parse((await review(mint(alice()))).stdout).status;
  assert.equal(good.authenticated, true);
  assert.equal(good.user.username, 'oidc:alice');
  const bad = JSON.parse((await review(mint(alice({ hd: 'evil.example' })))).stdout).status;
  assert.equal(bad.authenticated, undefined);
  assert.equal(bad.error, "oidc: error evaluating claim validation expression: validation expression 'claims.?hd.orValue('') == 'example.com'' failed: not from example.com");
});

test('key rotation: a token signed with the issuer\'s new key works once the key set is fetched again', async () => {
  const oldKey = issuer.key;
  const before = issuer.jwksFetches;
  issuer.key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  issuer.kid = 'key-2';
  const r = await as(mint(alice()), ['auth', 'whoami', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).status.userInfo.username, 'oidc:alice');
  assert.ok(issuer.jwksFetches > before, 'the unknown kid made the server fetch the key set again');
  // The retired key is no longer in the set.
  const old = await as(mint(alice(), oldKey, 'key-1'), ['auth', 'whoami']);
  assert.match(old.stderr, UNAUTHORIZED);
});

test('the configuration file is reloaded when it changes; an invalid one is refused and the last good one kept', async () => {
  const reloaded = s.served.jwt!.reloaded();
  writeFileSync(configPath, authenticationConfig('corp:'));
  await reloaded;
  const r = await as(mint(alice()), ['auth', 'whoami', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).status.userInfo.username, 'corp:alice');
  // An invalid version is logged and ignored.
  const refused = s.served.jwt!.reloaded();
  writeFileSync(configPath, authenticationConfig('corp:').replace('https://127.0.0.1', 'http://127.0.0.1'));
  await refused;
  const still = await as(mint(alice()), ['auth', 'whoami', '-o', 'json']);
  assert.equal(JSON.parse(still.stdout).status.userInfo.username, 'corp:alice');
});

test('startup refuses an invalid configuration, and the --oidc-* flags with it, with kube\'s messages', async () => {
  const bad = f('bad.yaml');
  writeFileSync(bad, 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: "https://x.example", audiences: []}\n  claimMappings: {username: {claim: sub}}\n');
  await assert.rejects(
    startTestServer({ dataDir: f('refused-1'), authenticationConfig: bad }),
    {
      message:
        'invalid authentication configuration: [jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required, jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing]',
    },
  );
  await assert.rejects(startTestServer({ dataDir: f('refused-2'), authenticationConfig: configPath, oidc: { issuerURL: issuer.url, clientID: 'x' }, oidcFlagsSet: true }), {
    message: 'authentication-config file and oidc-* flags are mutually exclusive',
  });
});

test('the legacy --oidc-* flags: sub prefixed with the issuer URL, groups from a claim, a required claim', async () => {
  const legacy = await startTestServer({
    oidc: { issuerURL: issuer.url, clientID: 'crd-apiserver', caFile: f('ca.crt'), groupsClaim: 'groups', groupsPrefix: 'corp:', requiredClaims: { hd: 'example.com' } },
    oidcFlagsSet: true,
  });
  try {
    const r = await legacy.kubectlAs({ token: mint(alice()) }, ['auth', 'whoami', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const info = JSON.parse(r.stdout).status.userInfo;
    assert.equal(info.username, `${issuer.url}#u-123`);
    assert.deepEqual(info.groups, ['corp:devs', 'corp:qa', 'system:authenticated']);
    const missing = await legacy.kubectlAs({ token: mint(alice({ hd: 'other.example' })) }, ['auth', 'whoami']);
    assert.match(missing.stderr, UNAUTHORIZED);
  } finally {
    await legacy.close();
  }
});

test('anonymous in the configuration file: only for its paths; --anonymous-auth with it is refused', async () => {
  const path = f('anonymous.yaml');
  writeFileSync(path, 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt: []\nanonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n');
  await assert.rejects(startTestServer({ dataDir: f('refused-3'), authenticationConfig: path, anonymousAuthFlagSet: true }), {
    message: 'anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file',
  });
  const anon = await startTestServer({ authenticationConfig: path });
  try {
    const ca = readFileSync(join(anon.dataDir, 'pki', 'ca.crt'));
    const status = (p: string): Promise<number> =>
      new Promise((resolve, reject) => https.get(`${anon.url}${p}`, { ca }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on('error', reject));
    assert.equal(await status('/livez'), 200);
    assert.equal(await status('/readyz'), 401);
    assert.equal(await status('/api'), 401);
  } finally {
    await anon.close();
  }
});
