// --token-auth-file and --anonymous-auth through kubectl: bearer tokens name users, unknown tokens are 401,
// requests without credentials are system:anonymous (and get RBAC's 403) unless anonymous access is off.
// The token's user is granted `view` through its group, so what it reads is RBAC's answer too.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type Served } from '../../src/cli/serve.js';
import { parseTokenFile } from '../../src/auth/authenticate.js';
import { ensureCertificates } from '../../src/auth/certs.js';
import { requireKubectl } from './harness.js';

requireKubectl();
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const TOKENS = 'secret-token,alice,u-1,"dev,ops"\n';

async function start(anonymousAuth: boolean): Promise<{ served: Served; kubectl: (args: string[], context: string) => Promise<{ code: number; stdout: string; stderr: string }> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crd-apiserver-auth-'));
  dirs.push(dataDir);
  const served = await serve({ dataDir, securePort: 0, bindAddress: '127.0.0.1', hosts: [], tokens: parseTokenFile(TOKENS), anonymousAuth });
  const certs = await ensureCertificates(dataDir, { hosts: ['127.0.0.1'] });
  const caFile = join(dataDir, 'ca.crt');
  writeFileSync(caFile, certs.caCert);
  // A kubeconfig without the admin certificate: the user is whatever the token (or its absence) makes it.
  // The anonymous user's basic auth only keeps kubectl from prompting for credentials: kube ignores a Basic header.
  const kubeconfig = join(dataDir, 'token-kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${served.server.secureUrl}", certificate-authority: "${caFile}"}}]\n` +
      `contexts: [{name: alice, context: {cluster: c, user: alice}}, {name: wrong, context: {cluster: c, user: wrong}}, {name: anonymous, context: {cluster: c, user: anonymous}}]\n` +
      `current-context: anonymous\n` +
      `users: [{name: alice, user: {token: secret-token}}, {name: wrong, user: {token: wrong-token}}, {name: anonymous, user: {username: nobody, password: unused}}]\n`,
  );
  // alice (group dev) may read what `view` grants, as a ClusterRoleBinding made by the admin lets her.
  await new Promise<void>((resolve, reject) =>
    execFile('kubectl', ['--kubeconfig', served.kubeconfigPath, 'create', 'clusterrolebinding', 'dev-view', '--clusterrole=view', '--group=dev'], { env: { ...process.env, HOME: dataDir } }, (err) =>
      err ? reject(err) : resolve(),
    ),
  );
  await served.server.rbac.waitForStores();
  const kubectl = (args: string[], context: string): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const child = execFile('kubectl', ['--kubeconfig', kubeconfig, '--context', context, ...args], { env: { ...process.env, HOME: dataDir }, timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? 1 : 0, stdout: String(stdout), stderr: String(stderr) }),
      );
      child.stdin?.end();
    });
  return { served, kubectl };
}

test('a token from the token file authenticates; an unknown one is 401; no credentials is system:anonymous', async () => {
  const { served, kubectl } = await start(true);
  try {
    const ok = await kubectl(['get', 'namespace', 'default', '-o', 'name'], 'alice');
    assert.equal(ok.stderr, '');
    assert.equal(ok.stdout, 'namespace/default\n');
    const bad = await kubectl(['get', 'namespaces'], 'wrong');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /error: You must be logged in to the server \(Unauthorized\)/);
    const anon = await kubectl(['get', 'namespaces'], 'anonymous');
    assert.equal(anon.code, 1);
    assert.match(
      anon.stderr,
      /Error from server \(Forbidden\): namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope/,
    );
  } finally {
    await served.close();
  }
});

test('--anonymous-auth=false: requests without credentials are 401, tokens still work', async () => {
  const { served, kubectl } = await start(false);
  try {
    const anon = await kubectl(['get', 'namespaces'], 'anonymous');
    assert.equal(anon.code, 1);
    assert.match(anon.stderr, /error: You must be logged in to the server \(the server has asked for the client to provide credentials\)/);
    const ok = await kubectl(['get', 'namespace', 'kube-system', '-o', 'name'], 'alice');
    assert.equal(ok.stdout, 'namespace/kube-system\n');
  } finally {
    await served.close();
  }
});
