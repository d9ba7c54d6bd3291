// Starts a real server with `serve` itself (TLS, generated certificates and kubeconfig, the watch cache over SQLite in a temporary data dir)
// in-process, and runs kubectl against it with a private HOME so discovery caches do not leak between tests.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { clusterKubeconfig } from '../../src/cli/cluster.js';
import { LOGICAL_CLUSTERS_PATH } from '../../src/apis/tenancy/v1alpha1/logical-cluster.js';
import { connectionFromKubeconfig, request } from '../../src/cli/kube-client.js';
import { serve, type Served } from '../../src/cli/serve.js';
import type { KVStore } from '../../src/storage/types.js';
import type { ServiceResolver } from '../../src/conversion/types.js';
import type { ServeOptions } from '../../src/cli/serve.js';
import { startEtcd, type EtcdProcess } from '../storage/etcd-process.js';

export interface TestServer {
  served: Served;
  /** The server's storage, as `serve` assembles it (tests compact it to provoke 410 Gone). */
  kv: KVStore;
  dataDir: string;
  home: string;
  kubeconfig: string;
  url: string;
  kubectl(args: string[], opts?: KubectlOptions): Promise<KubectlResult>;
  /** kubectl with a kubeconfig whose only credential is the given one (a bearer token, or a client certificate's PEM). */
  kubectlAs(credential: { token: string } | { cert: string; key: string }, args: string[], opts?: KubectlOptions): Promise<KubectlResult>;
  /** Writes a file into the test's temporary directory and returns its path. */
  file(name: string, content: string): string;
  close(): Promise<void>;
}

export interface KubectlOptions {
  stdin?: string;
  bin?: string;
  timeoutMs?: number;
  env?: Record<string, string>;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Fails loudly when kubectl is missing: these tests never skip. */
export function requireKubectl(bin = 'kubectl'): string {
  try {
    execFileSync(bin, ['version', '--client', '-o', 'json'], { stdio: 'pipe' });
  } catch (e) {
    throw new Error(`${bin} is required for the end-to-end tests and was not found or failed: ${(e as Error).message}`);
  }
  return bin;
}

export interface TestServerOptions {
  /** kube's --client-ca-file. */
  clientCaFile?: string;
  /** Watches end after this many seconds (to twice that); kube's --min-request-timeout. */
  minRequestTimeoutSeconds?: number;
  bookmarkIntervalMs?: number;
  /** Where conversion webhooks' service references are reached. */
  serviceResolver?: ServiceResolver;
  /** ServiceAccount token issuing and authentication (issuers, audiences, the success cache's TTL). */
  serviceAccountTokens?: ServeOptions['serviceAccountTokens'];
  /** Bearer tokens (--token-auth-file) and --authorization-mode. */
  tokens?: ServeOptions['tokens'];
  authorizationModes?: ServeOptions['authorizationModes'];
  /** Time between passes of the APF bootstrap configuration ensurer. */
  apfEnsureIntervalMs?: number;
  /** Run on etcd (serve --storage etcd) instead of SQLite in the data directory. */
  etcd?: ServeOptions['etcd'];
  /** --storage-media-type: how built-ins are stored on etcd. */
  storageMediaType?: ServeOptions['storageMediaType'];
  /** kube's --encryption-provider-config. */
  encryptionProviderConfig?: string;
  /** --leader-elect and its timings (default: on with etcd, as serve's flags). */
  leaderElection?: ServeOptions['leaderElection'];
  /** Reuse this data directory (a restart); close() then leaves it in place for the caller to remove. */
  dataDir?: string;
  /** --audit-policy-file, --audit-log-* and --audit-webhook-*. */
  audit?: ServeOptions['audit'];
  /** --authentication-config (JWT authenticators, anonymous), and how quickly its changes are picked up. */
  authenticationConfig?: string;
  jwtAuthentication?: ServeOptions['jwtAuthentication'];
  /** The legacy --oidc-* flags, and whether they count as given on the command line. */
  oidc?: ServeOptions['oidc'];
  oidcFlagsSet?: boolean;
  /** Whether --anonymous-auth counts as given on the command line. */
  anonymousAuthFlagSet?: boolean;
  /** --anonymous-auth (default true): false answers requests without credentials 401. */
  anonymousAuth?: boolean;
}

/**
 * With CRD_APISERVER_TEST_STORAGE=etcd, every test server runs on a fresh etcd of its own (as `serve
 * --storage etcd`), so the end-to-end and client suites can be run against the etcd backend.
 */
const storageUnderTest = process.env.CRD_APISERVER_TEST_STORAGE ?? 'sqlite';

/**
 * With CRD_APISERVER_TEST_CLUSTER=<name>, every test server gets a logical cluster of that name and the tests
 * talk to it (their kubeconfig's server ends in /clusters/<name>): the suites run again inside a non-root cluster.
 */
const clusterUnderTest = process.env.CRD_APISERVER_TEST_CLUSTER;

/** Creates the logical cluster through root's API, waits for Ready, and writes a kubeconfig for it beside root's. */
async function logicalClusterKubeconfig(rootKubeconfig: string, name: string): Promise<string> {
  const conn = connectionFromKubeconfig(rootKubeconfig);
  const path = LOGICAL_CLUSTERS_PATH;
  const created = await request(conn, 'POST', path, { metadata: { name } });
  // 409: a restart on the same data directory, where the cluster is already there.
  if (created.status !== 201 && created.status !== 409) throw new Error(`creating logical cluster ${name}: ${JSON.stringify(created.body)}`);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = await request(conn, 'GET', `${path}/${name}`);
    if (got.body?.status?.phase === 'Ready') break;
    if (Date.now() > deadline) throw new Error(`logical cluster ${name} not Ready: ${JSON.stringify(got.body)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const out = join(dirname(rootKubeconfig), `kubeconfig-${name}`);
  writeFileSync(out, clusterKubeconfig(readFileSync(rootKubeconfig, 'utf8'), name));
  return out;
}

export async function startTestServer({ dataDir: reuse, ...opts }: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = reuse ?? mkdtempSync(join(tmpdir(), 'crd-apiserver-test-'));
  const home = join(dataDir, 'home');
  let etcd: EtcdProcess | undefined;
  if (storageUnderTest === 'etcd' && !opts.etcd) {
    etcd = await startEtcd();
    opts = { ...opts, etcd: { servers: [etcd.url] } };
  } else if (storageUnderTest !== 'sqlite' && storageUnderTest !== 'etcd') {
    throw new Error(`CRD_APISERVER_TEST_STORAGE must be sqlite or etcd, not ${storageUnderTest}`);
  }
  // `serve --storage etcd` elects a leader for its controllers by default.
  if (opts.etcd && !('leaderElection' in opts)) opts = { ...opts, leaderElection: {} };
  // Exactly what `crd-apiserver serve` runs (the watch cache over SQLite or etcd included), with the tunables.
  const served = await serve({ dataDir, securePort: 0, bindAddress: '127.0.0.1', hosts: [], ...opts });
  // With CRD_APISERVER_TEST_CLUSTER=<name>, the tests' kubeconfig is that logical cluster's, made for them.
  const kubeconfig = clusterUnderTest ? await logicalClusterKubeconfig(served.kubeconfigPath, clusterUnderTest) : served.kubeconfigPath;
  const serverUrl = clusterUnderTest ? `${served.server.secureUrl!}/clusters/${clusterUnderTest}` : served.server.secureUrl!;
  return {
    served,
    kv: served.kv,
    dataDir,
    home,
    kubeconfig,
    url: serverUrl,
    kubectl: (args, opts = {}) => runKubectl(kubeconfig, home, args, opts),
    kubectlAs: (credential, args, opts = {}) => {
      const ca = readFileSync(join(dataDir, 'pki', 'ca.crt')).toString('base64');
      const b64 = (pem: string): string => Buffer.from(pem).toString('base64');
      const user = 'token' in credential ? `{token: "${credential.token}"}` : `{client-certificate-data: ${b64(credential.cert)}, client-key-data: ${b64(credential.key)}}`;
      const path = join(dataDir, `as-${Math.random().toString(36).slice(2)}.kubeconfig`);
      writeFileSync(
        path,
        [
          'apiVersion: v1',
          'kind: Config',
          `clusters: [{name: c, cluster: {server: "${serverUrl}", certificate-authority-data: ${ca}}}]`,
          `users: [{name: u, user: ${user}}]`,
          'contexts: [{name: x, context: {cluster: c, user: u, namespace: default}}]',
          'current-context: x',
        ].join('\n'),
      );
      return runKubectl(path, home, args, opts);
    },
    file: (name, content) => {
      const p = join(dataDir, name);
      writeFileSync(p, content);
      return p;
    },
    close: async () => {
      await served.close();
      await etcd?.destroy();
      if (!reuse) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function runKubectl(kubeconfig: string, home: string, args: string[], opts: KubectlOptions): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(
      opts.bin ?? 'kubectl',
      ['--kubeconfig', kubeconfig, ...args],
      { env: { ...process.env, HOME: home, KUBECONFIG: kubeconfig, ...opts.env }, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException).code === 'number' ? Number((err as NodeJS.ErrnoException).code) : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
    else child.stdin?.end();
  });
}

/** Collapses runs of spaces so kubectl's column padding does not matter in assertions. */
export const squeeze = (s: string): string =>
  s
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
