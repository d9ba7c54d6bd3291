import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { ensureCertificates } from '../../src/auth/certs.js';
import { kubeconfigYaml, writeKubeconfig } from '../../src/auth/kubeconfig.js';
import { authenticate, type UserInfo } from '../../src/auth/authenticate.js';

const run = promisify(execFile);
const CA = '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nCLIENT\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nKEY\n-----END PRIVATE KEY-----\n';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'auth-kubeconfig-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

before(async () => {
  try {
    await run('kubectl', ['version', '--client', '-o', 'json']);
  } catch (e) {
    throw new Error(`kubectl must be on PATH for these tests: ${(e as Error).message}`);
  }
});

test('kubeconfigYaml embeds the CA and client credentials and selects the context', () => {
  const doc = parse(
    kubeconfigYaml({ server: 'https://127.0.0.1:6443', caPem: CA, clientCertPem: CERT, clientKeyPem: KEY }),
  ) as Record<string, unknown>;
  assert.deepEqual(doc, {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'crd-apiserver', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': b64(CA) } }],
    contexts: [{ name: 'crd-apiserver', context: { cluster: 'crd-apiserver', user: 'crd-apiserver-admin' } }],
    'current-context': 'crd-apiserver',
    preferences: {},
    users: [{ name: 'crd-apiserver-admin', user: { 'client-certificate-data': b64(CERT), 'client-key-data': b64(KEY) } }],
  });
});

test('kubeconfigYaml: custom context name, namespace, token, and the plain-HTTP variant', () => {
  const named = parse(kubeconfigYaml({ server: 'https://h:1', caPem: CA, token: 'abc', contextName: 'dev', namespace: 'team' })) as {
    'current-context': string;
    contexts: { name: string; context: Record<string, string> }[];
    users: { name: string; user: Record<string, string> }[];
  };
  assert.equal(named['current-context'], 'dev');
  assert.deepEqual(named.contexts, [{ name: 'dev', context: { cluster: 'dev', user: 'dev-admin', namespace: 'team' } }]);
  assert.deepEqual(named.users, [{ name: 'dev-admin', user: { token: 'abc' } }]);

  const text = kubeconfigYaml({ server: 'http://127.0.0.1:8080' });
  const plain = parse(text) as { clusters: unknown; users: unknown };
  assert.deepEqual(plain.clusters, [{ name: 'crd-apiserver', cluster: { server: 'http://127.0.0.1:8080' } }]);
  assert.deepEqual(plain.users, [{ name: 'crd-apiserver-admin', user: {} }]);
  assert.doesNotMatch(text, /-data/);
});

test('long base64 values stay on one line', () => {
  const long = `-----BEGIN CERTIFICATE-----\n${'A'.repeat(2000)}\n-----END CERTIFICATE-----\n`;
  const text = kubeconfigYaml({ server: 'https://x', caPem: long });
  assert.ok(text.split('\n').some((l) => l.includes(`certificate-authority-data: ${b64(long)}`)));
});

test('writeKubeconfig writes mode 0600, replacing a previous file', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'sub', 'kubeconfig');
  await writeKubeconfig(path, { server: 'https://127.0.0.1:1', caPem: CA });
  assert.equal((await stat(path)).mode & 0o777, 0o600);

  await writeFile(path, 'old', { mode: 0o644 });
  await writeKubeconfig(path, { server: 'https://127.0.0.1:2', caPem: CA, clientCertPem: CERT, clientKeyPem: KEY });
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  const doc = parse(await readFile(path, 'utf8')) as { clusters: { cluster: { server: string } }[] };
  assert.equal(doc.clusters[0]!.cluster.server, 'https://127.0.0.1:2');
});

const VERSION = { major: '1', minor: '33', gitVersion: 'v1.33.0' };

function versionHandler(users: (UserInfo | undefined)[]) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    users.push(authenticate(req));
    // kubectl appends ?timeout=... from --request-timeout.
    if (new URL(req.url ?? '/', 'http://x').pathname === '/version') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(VERSION));
    } else {
      res.writeHead(404);
      res.end();
    }
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function kubectlVersion(kubeconfig: string, home: string): Promise<{ serverVersion?: { gitVersion?: string; major?: string; minor?: string } }> {
  // Async exec: the server answering kubectl lives in this process.
  const { stdout } = await run('kubectl', ['--kubeconfig', kubeconfig, 'version', '-o', 'json', '--request-timeout', '10s'], {
    env: { ...process.env, HOME: home, KUBECONFIG: '' },
    timeout: 30_000,
  });
  return JSON.parse(stdout) as { serverVersion?: { gitVersion?: string } };
}

test('kubectl accepts the TLS kubeconfig and authenticates with the admin certificate', async (t) => {
  const dir = await tempDir(t);
  const certs = await ensureCertificates(dir, { hosts: [] });
  const users: (UserInfo | undefined)[] = [];
  const server = createHttpsServer(
    { cert: certs.serverCert, key: certs.serverKey, ca: certs.caCert, requestCert: true, rejectUnauthorized: false },
    versionHandler(users),
  );
  const port = await listen(server);
  t.after(() => new Promise<void>((r) => server.close(() => r())));

  const path = join(dir, 'admin.kubeconfig');
  await writeKubeconfig(path, {
    server: `https://127.0.0.1:${port}`,
    caPem: certs.caCert,
    clientCertPem: certs.adminCert,
    clientKeyPem: certs.adminKey,
  });
  const out = await kubectlVersion(path, dir);
  assert.equal(out.serverVersion?.gitVersion, 'v1.33.0');
  assert.equal(out.serverVersion?.minor, '33');
  assert.ok(users.length >= 1);
  for (const u of users) assert.deepEqual(u, { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
});

test('kubectl accepts the plain-HTTP kubeconfig', async (t) => {
  const dir = await tempDir(t);
  const users: (UserInfo | undefined)[] = [];
  const server = createHttpServer(versionHandler(users));
  const port = await listen(server);
  t.after(() => new Promise<void>((r) => server.close(() => r())));

  const path = join(dir, 'insecure.kubeconfig');
  await writeKubeconfig(path, { server: `http://127.0.0.1:${port}` });
  const out = await kubectlVersion(path, dir);
  assert.equal(out.serverVersion?.gitVersion, 'v1.33.0');
  for (const u of users) assert.deepEqual(u, { name: 'system:anonymous', groups: ['system:unauthenticated'] });
});

test('kubeconfigYaml: written as the YAML library writes the same document, and read back alike whatever the names', () => {
  const expected = (o: { server: string; ca?: string; cert?: string; key?: string; token?: string; name?: string; namespace?: string }): Record<string, unknown> => {
    const name = o.name ?? 'crd-apiserver';
    const b64 = (s: string): string => Buffer.from(s).toString('base64');
    return {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name, cluster: { server: o.server, ...(o.ca ? { 'certificate-authority-data': b64(o.ca) } : {}) } }],
      contexts: [{ name, context: { cluster: name, user: `${name}-admin`, ...(o.namespace ? { namespace: o.namespace } : {}) } }],
      'current-context': name,
      preferences: {},
      users: [{ name: `${name}-admin`, user: { ...(o.cert ? { 'client-certificate-data': b64(o.cert) } : {}), ...(o.key ? { 'client-key-data': b64(o.key) } : {}), ...(o.token ? { token: o.token } : {}) } }],
    };
  };
  const typical = [
    { server: 'https://127.0.0.1:6443', ca: CA, cert: CERT, key: KEY },
    { server: 'http://127.0.0.1:8080' },
    { server: 'https://localhost:1/clusters/team-a', ca: CA, token: 'abc.def-ghi', name: 'dev', namespace: 'team' },
  ];
  for (const o of typical) {
    const text = kubeconfigYaml({ server: o.server, caPem: o.ca, clientCertPem: o.cert, clientKeyPem: o.key, token: o.token, contextName: o.name, namespace: o.namespace });
    assert.equal(text, stringify(expected(o), { lineWidth: 0 }));
  }
  for (const name of ['1:20', '0x1f', 'true', 'No', 'null', '~', 'has space', 'a: b', '#x', '-x', 'ünïcode', 'quote"d', 'line\nbreak', '', '[x]', '{x}', '*x', '&x', '!x', '%x', '@x']) {
    const o = { server: 'https://h:1', ca: CA, token: name || 't', name, namespace: name };
    const text = kubeconfigYaml({ server: o.server, caPem: o.ca, token: o.token, contextName: o.name, namespace: o.namespace });
    assert.deepEqual(parse(text), expected(o), JSON.stringify(name));
    // YAML 1.1 readers (go-yaml v2, which client-go's kubeconfig loading goes through) too.
    assert.deepEqual(parse(text, { version: '1.1' }), expected(o), JSON.stringify(name));
  }
});
