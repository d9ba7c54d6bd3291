// The test kit: what envtest gives Go operator authors, for Node tests. startTestEnv() starts a server with its
// state in memory, installs CRDs from files or directories and waits until they are Established, installs
// webhook configurations pointing at the test's own webhook server (with a CA and serving certificate made
// for it, as envtest's WebhookInstallOptions do), and hands back a kubeconfig. reset() puts the state back
// as it was when the environment was ready (every namespace and object made since gone, CRDs kept);
// stop() ends it all.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { startServer, type RunningServer } from '../server/server.js';
import { createCachedStore } from '../storage/cache.js';
import { openSqliteStore } from '../storage/sqlite-store.js';
import { ensureCertificates, issueClientCertificate, issueServingCertificate, type Certs } from '../auth/certs.js';
import { kubeconfigYaml } from '../auth/kubeconfig.js';
import { readManifests } from '../util/manifests.js';
import { readManifestsInWorker, type ManifestReading, type ManifestText } from '../util/manifest-stream.js';
import { isObject, type JSONObject } from '../util/json.js';
import type { KVStore, KeyValue } from '../storage/types.js';
import { clusterStore } from '../storage/prefixed-store.js';
import { LOGICAL_CLUSTERS_PATH } from '../apis/tenancy/v1alpha1/logical-cluster.js';
import { STORAGE_ROOT } from '../storage/copy-store.js';
import { importPackage } from '../util/import-package.js';
import { TEST_ENV_READY_EVENT } from '../util/code-cache.js';

export interface TestEnvOptions {
  /** CRD manifests: files or directories (walked recursively), multi-document YAML or JSON, Lists. */
  crds?: readonly string[];
  /** How long to wait for the CRDs to be Established (envtest's CRDInstallOptions.MaxTime: 10 s). */
  crdInstallTimeoutMs?: number;
  /** Webhook configurations for a webhook server the test runs itself (envtest's WebhookInstallOptions). */
  webhooks?: WebhookOptions;
  /** The server's HTTPS port (default: a free one). */
  port?: number;
  /**
   * 'server' (default): a server of its own. 'cluster': a new logical cluster in a server the process's
   * environments share (started by the first, stopped with the last), much cheaper to start; stop() deletes it.
   */
  isolation?: 'server' | 'cluster';
}

export interface WebhookOptions {
  /** Mutating- and ValidatingWebhookConfiguration manifests: files or directories. */
  paths: readonly string[];
  /** Where the test's webhook server listens (envtest's LocalServingHost, default 127.0.0.1). */
  host?: string;
  /** Its port (LocalServingPort; default: a free one). */
  port?: number;
}

export interface TestEnv {
  /** https://127.0.0.1:PORT */
  url: string;
  /** A kubeconfig of the cluster admin (system:masters), as YAML, and the same in a file (for subprocesses). */
  kubeconfig: string;
  kubeconfigPath: string;
  /** The admin kubeconfig loaded into @kubernetes/client-node (which the test must have installed). */
  kubeConfig(): Promise<KubeConfig>;
  /** A kubeconfig (YAML and file) for another identity: a client certificate for user and groups, for RBAC tests. */
  user(name: string, groups?: readonly string[]): { kubeconfig: string; kubeconfigPath: string };
  /** The webhook server's address and certificate, when webhooks were asked for. */
  webhook?: WebhookServing;
  /** Back to the state the environment was ready in: objects and namespaces made since gone, CRDs kept. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export interface WebhookServing {
  host: string;
  port: number;
  /** tls.crt and tls.key (envtest's LocalServingCertDir), and the same PEM text. */
  certDir: string;
  certPem: string;
  keyPem: string;
  /** The CA that signed them, in every installed webhook's caBundle. */
  caPem: string;
}

const WEBHOOK_KINDS: Record<string, string> = {
  MutatingWebhookConfiguration: 'mutatingwebhookconfigurations',
  ValidatingWebhookConfiguration: 'validatingwebhookconfigurations',
};

/** What the kit runs: the server over an in-memory store, and the certificates in its temporary directory. */
interface Served {
  server: RunningServer;
  kv: KVStore;
  certs: Certs;
  close(): Promise<void>;
}

export async function startTestEnv(opts: TestEnvOptions = {}): Promise<TestEnv> {
  if (opts.isolation === 'cluster') return startClusterEnv(opts);
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-testenv-'));
  // The CRDs are parsed on a worker while the server starts, and installed as they come.
  const crds = opts.crds?.length ? readManifestsInWorker(opts.crds) : undefined;
  let served: Served | undefined;
  try {
    served = await startInMemory(dir, opts.port ?? 0);
    const own = served;
    const env = await prepare({ url: own.server.secureUrl!, kv: own.kv, certs: own.certs, close: () => own.close() }, dir, opts, crds);
    return env;
  } catch (e) {
    await served?.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    throw e;
  } finally {
    await crds?.close();
  }
}

/** The server the process's cluster-isolated environments share, with how many use it. */
let shared: { served: Promise<Served>; dir: string; users: number } | undefined;
let clusterSeq = 0;
const LOGICAL_CLUSTERS = LOGICAL_CLUSTERS_PATH;

/** An environment in a new logical cluster of the shared server (started by the first such environment). */
async function startClusterEnv(opts: TestEnvOptions): Promise<TestEnv> {
  const crds = opts.crds?.length ? readManifestsInWorker(opts.crds) : undefined;
  if (!shared) {
    const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-testenv-'));
    shared = { served: startInMemory(dir, opts.port ?? 0), dir, users: 0 };
  }
  const server = shared;
  server.users++;
  const release = async (): Promise<void> => {
    if (--server.users > 0) return;
    if (shared === server) shared = undefined;
    await (await server.served.catch(() => undefined))?.close();
    rmSync(server.dir, { recursive: true, force: true });
  };
  const envDir = mkdtempSync(join(tmpdir(), 'crd-apiserver-testenv-cluster-'));
  const name = `test-${process.pid}-${++clusterSeq}`;
  let api: ApiClient | undefined;
  try {
    const served = await server.served;
    const rootUrl = served.server.secureUrl!;
    const admin = (api = apiClient(rootUrl, served.certs.caCert, served.certs.adminCert, served.certs.adminKey));
    await admin.create(LOGICAL_CLUSTERS, JSON.stringify({ metadata: { name } }), '(test kit)', 'LogicalCluster');
    for (;;) {
      const lc = await admin.get(`${LOGICAL_CLUSTERS}/${name}`);
      if ((lc?.['status'] as { phase?: string } | undefined)?.phase === 'Ready') break;
      await new Promise((r) => setTimeout(r, 1));
    }
    // Its server starts on its first request: before prepare() takes what reset() returns to, so that the
    // cluster's own start-up objects (bootstrap RBAC, the initial namespaces and their ServiceAccounts) are in it.
    await admin.get(`/clusters/${name}/api/v1/namespaces/default`);
    const target: Target = {
      url: `${rootUrl}/clusters/${name}`,
      kv: clusterStore(served.kv, name),
      certs: served.certs,
      // The cluster goes (its server stopped, its contents removed), then the shared server if this was the last.
      close: async () => {
        await admin.delete(`${LOGICAL_CLUSTERS}/${name}`);
        for (let i = 0; i < 500 && (await admin.get(`${LOGICAL_CLUSTERS}/${name}`)); i++) await new Promise((r) => setTimeout(r, 10));
        await release();
      },
    };
    return await prepare(target, envDir, opts, crds);
  } catch (e) {
    await api?.delete(`${LOGICAL_CLUSTERS}/${name}`).catch(() => {});
    await release().catch(() => {});
    rmSync(envDir, { recursive: true, force: true });
    throw e;
  } finally {
    await crds?.close();
  }
}

/** The server `serve` runs (the watch cache over SQLite, TLS, RBAC), with SQLite in memory: nothing to fsync, nothing left. */
async function startInMemory(dir: string, port: number): Promise<Served> {
  // No ring of its own, as `serve`: the watch cache in front keeps the recent events (see eventRingSize).
  const kv = await createCachedStore(openSqliteStore(':memory:', { sync: 'normal', eventRingSize: 0 }));
  try {
    const certs = await ensureCertificates(dir, { hosts: [] });
    // No service-account key given: the server makes one when a token is first signed (RSA-2048 takes up to
    // a few hundred milliseconds, which most tests would pay for nothing).
    const server = await startServer({
      kv,
      tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.caCert },
      securePort: port,
      bindAddress: '127.0.0.1',
    });
    return {
      server,
      kv,
      certs,
      close: async () => {
        await server.close();
        await kv.close();
      },
    };
  } catch (e) {
    await kv.close();
    throw e;
  }
}

/** What an environment is served by: its URL (a logical cluster's under /clusters/), its view of the storage, and how it ends. */
interface Target {
  url: string;
  kv: KVStore;
  certs: Certs;
  close(): Promise<void>;
}

async function prepare(served: Target, dir: string, opts: TestEnvOptions, crds: ManifestReading | undefined): Promise<TestEnv> {
  const url = served.url;
  const certs = served.certs;
  const api = apiClient(url, certs.caCert, certs.adminCert, certs.adminKey);

  if (crds) await waitEstablished(api, await installCrds(api, crds), opts.crdInstallTimeoutMs ?? 10_000);

  let webhook: WebhookServing | undefined;
  if (opts.webhooks) {
    const host = opts.webhooks.host ?? '127.0.0.1';
    const port = opts.webhooks.port ?? (await freePort(host));
    const pair = issueServingCertificate([host, 'localhost', '127.0.0.1']);
    const certDir = join(dir, 'webhook-certs');
    writeFiles(certDir, { 'tls.crt': pair.certPem, 'tls.key': pair.keyPem, 'ca.crt': pair.caPem });
    webhook = { host, port, certDir, ...pair };
    for (const m of readManifests(opts.webhooks.paths)) {
      const resource = WEBHOOK_KINDS[String(m.object['kind'])];
      if (!resource) throw new Error(`${m.file}: ${String(m.object['kind'])} is not a webhook configuration`);
      await api.create(`/apis/admissionregistration.k8s.io/v1/${resource}`, JSON.stringify(pointAt(m.object, webhook)), m.file, m.object['kind']);
    }
  }

  // What reset() returns to: every key as it is now.
  const baseline = new Map((await served.kv.list(STORAGE_ROOT)).items.map((kv) => [kv.key, kv] as const));
  const users = new Map<string, { kubeconfig: string; kubeconfigPath: string }>();
  const kubeconfig = kubeconfigYaml({ server: url, caPem: certs.caCert, clientCertPem: certs.adminCert, clientKeyPem: certs.adminKey });
  const kubeconfigPath = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigPath, kubeconfig, { mode: 0o600 });
  // The package's entry makes the test kit's code cache now, when it has none (entry.ts), after the caller's turn.
  setImmediate(() => (process as NodeJS.EventEmitter).emit(TEST_ENV_READY_EVENT));
  let stopped = false;
  return {
    url,
    kubeconfig,
    kubeconfigPath,
    webhook,
    kubeConfig: async () => {
      const { KubeConfig } = await importPackage<typeof import('@kubernetes/client-node')>('@kubernetes/client-node');
      const kc = new KubeConfig();
      kc.loadFromString(kubeconfig);
      return kc;
    },
    user: (name, groups = []) => {
      const key = JSON.stringify([name, groups]);
      const known = users.get(key);
      if (known) return known;
      const pair = issueClientCertificate({ certPem: certs.caCert, keyPem: certs.caKey }, name, groups);
      const yaml = kubeconfigYaml({ server: url, caPem: certs.caCert, clientCertPem: pair.certPem, clientKeyPem: pair.keyPem });
      const path = join(dir, `kubeconfig-${users.size + 1}`);
      writeFileSync(path, yaml, { mode: 0o600 });
      const out = { kubeconfig: yaml, kubeconfigPath: path };
      users.set(key, out);
      return out;
    },
    reset: () => resetTo(served.kv, baseline),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await served.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Every key back as it was: those made since deleted (newest first: a CRD's objects before the CRD), those
 * changed written back, those deleted created again. Straight on the storage, without finalizers or admission:
 * a test's leftovers must not hold the next test up. The server's informers follow as they follow any write.
 */
async function resetTo(kv: KVStore, baseline: ReadonlyMap<string, KeyValue>): Promise<void> {
  const now = (await kv.list(STORAGE_ROOT)).items;
  const present = new Set(now.map((k) => k.key));
  const extra = now.filter((k) => !baseline.has(k.key)).sort((a, b) => b.modRevision - a.modRevision);
  await Promise.all(extra.map((k) => kv.delete(k.key)));
  const changed = now.filter((k) => {
    const was = baseline.get(k.key);
    return was !== undefined && was.modRevision !== k.modRevision && was.value !== k.value;
  });
  await Promise.all(changed.map((k) => kv.update(k.key, baseline.get(k.key)!.value, k.modRevision)));
  const gone = [...baseline.values()].filter((k) => !present.has(k.key));
  await Promise.all(gone.map((k) => kv.create(k.key, k.value)));
}

/** Each webhook's clientConfig pointed at the test's server: `url` https://host:port<service.path>, and the CA. */
function pointAt(config: JSONObject, serving: WebhookServing): JSONObject {
  const out = structuredClone(config);
  const hooks = Array.isArray(out['webhooks']) ? out['webhooks'] : [];
  for (const hook of hooks) {
    if (!isObject(hook)) continue;
    const cc = isObject(hook['clientConfig']) ? hook['clientConfig'] : {};
    const service = isObject(cc['service']) ? cc['service'] : undefined;
    const path = typeof service?.['path'] === 'string' ? service['path'] : pathOf(cc['url']);
    const host = serving.host.includes(':') ? `[${serving.host}]` : serving.host;
    hook['clientConfig'] = { url: `https://${host}:${serving.port}${path}`, caBundle: Buffer.from(serving.caPem).toString('base64') };
  }
  return out;
}

function pathOf(url: unknown): string {
  if (typeof url !== 'string') return '';
  try {
    const u = new URL(url);
    return u.pathname === '/' ? '' : u.pathname + u.search;
  } catch {
    return '';
  }
}

/**
 * Creates each CRD as the worker hands it over; the names made. The errors are those of reading everything
 * first, checking every kind, then creating: a file's read error before any other, then the first object that
 * is not a CRD, then the first failed create (once one failed, no more are made).
 */
async function installCrds(api: ApiClient, reading: ManifestReading): Promise<string[]> {
  let notCrd: Error | undefined;
  let failed: unknown;
  const names: string[] = [];
  for await (const m of reading.manifests) {
    if (m.kind !== 'CustomResourceDefinition') notCrd ??= new Error(`${m.file}: ${String(m.kind)} is not a CustomResourceDefinition`);
    if (notCrd || failed) continue;
    try {
      await api.create(collectionPath(m), m.json, m.file, m.kind);
      names.push(m.name);
    } catch (e) {
      failed = e;
    }
  }
  if (notCrd) throw notCrd;
  if (failed) throw failed;
  return names;
}

function collectionPath(m: ManifestText): string {
  const apiVersion = String(m.apiVersion ?? 'apiextensions.k8s.io/v1');
  return `/apis/${apiVersion}/customresourcedefinitions`;
}

async function waitEstablished(api: ApiClient, names: readonly string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    for (;;) {
      const got = await api.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
      const conditions = (got?.['status'] as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [];
      if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} was not Established within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

interface ApiClient {
  /** POSTs body (JSON text), the object of kind read from file. */
  create(path: string, body: string, file: string, kind: unknown): Promise<void>;
  get(path: string): Promise<JSONObject | undefined>;
  /** DELETEs path; a 404 counts as done. */
  delete(path: string): Promise<void>;
}

/** Requests as the admin, over the server's own HTTPS port: what was installed went through the API. */
function apiClient(base: string, ca: string, cert: string, key: string): ApiClient {
  // A logical cluster's URL has a path (/clusters/<name>): API paths go after it.
  const root = new URL(base);
  const prefix = root.pathname.replace(/\/$/, '');
  // The body is parsed only when read: a create's answer (the whole CRD back) is not, unless it failed.
  const call = (method: string, path: string, body?: string): Promise<{ status: number; json(): JSONObject }> =>
    new Promise((resolve, reject) => {
      const req = request(new URL(prefix + path, root.origin), { method, ca, cert, key, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: () => (text ? (JSON.parse(text) as JSONObject) : {}) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  return {
    create: async (path, body, file, kind) => {
      const r = await call('POST', path, body);
      if (r.status >= 300) throw new Error(`${file}: installing ${String(kind)} failed: ${String(r.json()['message'] ?? r.status)}`);
    },
    get: async (path) => {
      const r = await call('GET', path);
      return r.status === 200 ? r.json() : undefined;
    },
    delete: async (path) => {
      const r = await call('DELETE', path);
      if (r.status >= 300 && r.status !== 404) throw new Error(`DELETE ${path}: ${String(r.json()['message'] ?? r.status)}`);
    },
  };
}

function writeFiles(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text, { mode: 0o600 });
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}
