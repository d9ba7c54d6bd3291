// Shared setup for the @kubernetes/client-node tests: a real server (TLS, client certificates) from
// the e2e harness, typed API clients from its kubeconfig, the seed CronTab CRD, and error unwrapping.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type TestServer, type TestServerOptions } from '../e2e/harness.js';

export const GROUP = 'stable.example.com';
export const VERSION = 'v1';
export const PLURAL = 'crontabs';
export const API_VERSION = `${GROUP}/${VERSION}`;

export const crontabCrd = (): k8s.V1CustomResourceDefinition =>
  parseYaml(readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8')) as k8s.V1CustomResourceDefinition;

/** A cluster-scoped sibling of the seed CRD. */
export const clusterCrontabCrd = (): k8s.V1CustomResourceDefinition => {
  const crd = crontabCrd();
  crd.metadata = { name: `clustercrontabs.${GROUP}` };
  crd.spec.scope = 'Cluster';
  crd.spec.names = { plural: 'clustercrontabs', singular: 'clustercrontab', kind: 'ClusterCronTab', listKind: 'ClusterCronTabList' };
  return crd;
};

export interface Clients {
  server: TestServer;
  kc: k8s.KubeConfig;
  ext: k8s.ApiextensionsV1Api;
  custom: k8s.CustomObjectsApi;
  core: k8s.CoreV1Api;
}

export async function startWithClients(opts?: TestServerOptions): Promise<Clients> {
  const server = await startTestServer(opts);
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(server.kubeconfig);
  return {
    server,
    kc,
    ext: kc.makeApiClient(k8s.ApiextensionsV1Api),
    custom: kc.makeApiClient(k8s.CustomObjectsApi),
    core: kc.makeApiClient(k8s.CoreV1Api),
  };
}

/** Creates a CRD and waits until the server reports it Established (as `kubectl wait` would). */
export async function installCrd(c: Clients, crd: k8s.V1CustomResourceDefinition): Promise<k8s.V1CustomResourceDefinition> {
  await c.ext.createCustomResourceDefinition({ body: crd });
  const name = crd.metadata!.name!;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = await c.ext.readCustomResourceDefinition({ name });
    if (got.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True')) return got;
    if (Date.now() > deadline) assert.fail(`CRD ${name} not established: ${JSON.stringify(got.status)}`);
    await sleep(50);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls until check returns a value other than undefined. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export interface KubeStatus {
  kind: string;
  apiVersion: string;
  metadata: Record<string, unknown>;
  status: string;
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: Array<{ reason?: string; message?: string; field?: string }> };
  code: number;
}

/** Awaits a call that must fail with an HTTP status code, and returns the Status the server sent. */
export async function expectStatus(call: Promise<unknown>, code: number): Promise<KubeStatus> {
  try {
    await call;
  } catch (e) {
    if (!(e instanceof k8s.ApiException)) throw e;
    const err = e as k8s.ApiException<unknown>;
    assert.equal(err.code, code, `expected HTTP ${code}, got ${err.code}: ${String(err.body)}`);
    const body = typeof err.body === 'string' ? (JSON.parse(err.body) as KubeStatus) : (err.body as KubeStatus);
    assert.equal(body.kind, 'Status');
    assert.equal(body.apiVersion, 'v1');
    assert.equal(body.status, 'Failure');
    assert.equal(body.code, code);
    return body;
  }
  assert.fail(`expected the call to fail with ${code}, it succeeded`);
}

/** Awaits a call that must fail with an HTTP status code, and returns the raw response body. */
export async function expectHttpError(call: Promise<unknown>, code: number): Promise<string> {
  try {
    await call;
  } catch (e) {
    if (!(e instanceof k8s.ApiException)) throw e;
    const err = e as k8s.ApiException<unknown>;
    assert.equal(err.code, code, `expected HTTP ${code}, got ${err.code}: ${String(err.body)}`);
    return String(err.body);
  }
  assert.fail(`expected the call to fail with ${code}, it succeeded`);
}

/** A CronTab manifest. */
export const crontab = (name: string, spec: Record<string, unknown> = { cronSpec: '* * * * */5', image: 'img' }, metadata: k8s.V1ObjectMeta = {}): CronTab => ({
  apiVersion: API_VERSION,
  kind: 'CronTab',
  metadata: { name, ...metadata },
  spec,
});

export interface CronTab {
  apiVersion: string;
  kind: string;
  metadata: k8s.V1ObjectMeta;
  spec?: Record<string, unknown>;
  [k: string]: unknown;
}

/** List metadata as sent: custom objects are raw JSON, so `continue` keeps its wire name (not `_continue`). */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface CronTabList {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: CronTab[];
}

/** Request options that send a patch with the given content type (client-node 1.x picks JSON patch otherwise). */
export const patchAs = (contentType: string): k8s.ConfigurationOptions => k8s.setHeaderOptions('Content-Type', contentType);
