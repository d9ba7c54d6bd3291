// An in-process server on plain HTTP, for API-level tests with fetch. Its storage is assembled as
// `serve` assembles it (the watch cache over SQLite), only in memory; with CRD_APISERVER_TEST_STORAGE=etcd,
// the watch cache over a fresh etcd of its own.
import assert from 'node:assert/strict';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/server.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { createCachedStore } from '../../src/storage/cache.js';
import type { KVStore } from '../../src/storage/types.js';
import { openEtcdStore } from '../../src/storage/etcd-store.js';
import { etcdCodec } from '../../src/cli/serve.js';
import { startEtcd, type EtcdProcess } from '../storage/etcd-process.js';

export interface Api {
  server: RunningServer;
  kv: KVStore;
  url: string;
  req(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; text: string; json: any }>;
  close(): Promise<void>;
}

export async function startApi(opts: Omit<ServerOptions, 'kv'> = {}): Promise<Api> {
  let etcd: EtcdProcess | undefined;
  if (process.env.CRD_APISERVER_TEST_STORAGE === 'etcd') etcd = await startEtcd();
  // Values as `serve --storage etcd` stores them (built-ins as kube's protobuf).
  const kv = etcd
    ? await createCachedStore(await openEtcdStore({ servers: [etcd.url], codec: etcdCodec() }), { sharedStore: true, serveWatches: true })
    : await createCachedStore(openSqliteStore(':memory:'));
  // On etcd as `serve --storage etcd` runs: the writing controllers under their Lease.
  return startApiOn(kv, { ...(etcd ? { leaderElection: {} } : {}), ...opts }, async () => await etcd?.destroy());
}

/** A server on plain HTTP over kv; closing it closes kv too, then runs `after`. */
export async function startApiOn(kv: KVStore, opts: Omit<ServerOptions, 'kv'> = {}, after?: () => Promise<void>): Promise<Api> {
  const server = await startServer({ kv, insecurePort: 0, ...opts });
  const url = server.insecureUrl!;
  return {
    server,
    kv,
    url,
    req: requester(url),
    async close() {
      await server.close();
      await kv.close();
      await after?.();
    },
  };
}

type WidgetsVersion = 'v1beta1' | 'v1';

/** example.com's Widgets CRD, served at v1beta1 and v1 and stored at `storage`; `version` adds each one's schema and the rest. */
export function widgetsCrd(storage: WidgetsVersion, version: (name: WidgetsVersion) => Record<string, unknown>): any {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: (['v1beta1', 'v1'] as const).map((name) => ({ name, served: true, storage: name === storage, ...version(name) })),
    },
  };
}

/** Api.req against a server's base URL: a JSON body as JSON, the answer's text and (when it parses) JSON. */
export function requester(url: string): Api['req'] {
  return async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(url + path, init);
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
}

export const CRONTAB_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' } } },
            },
          },
        },
      },
    ],
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
  },
};

/** Creates the CronTab CRD and waits until its resources are served. */
export async function installCronTab(api: Api, crd: any = CRONTAB_CRD): Promise<void> {
  const r = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  if (r.status !== 201) throw new Error(`CRD create: ${r.status} ${r.text}`);
  const plural = crd.spec.names.plural;
  const v = crd.spec.versions[0].name;
  // Served once its names are accepted; in discovery and OpenAPI once Established (the condition written after).
  for (let i = 0; i < 200; i++) {
    const l = await api.req('GET', `/apis/${crd.spec.group}/${v}/${plural}`);
    const got = await api.req('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
    const established = got.json?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True');
    if (l.status === 200 && established) return;
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error('CRD never served and Established');
}

export const cronTab = (name: string, extra: Record<string, unknown> = {}): any => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name, ...extra },
  spec: { cronSpec: '* * * * */5', image: 'img' },
});

/**
 * Makes the Widgets of example.com stored at v1 (a PUT of their CRD as `v1Crd` says) and waits until a create
 * is stored so (objects named probe-<i>, made by `widget`).
 */
export async function storeWidgetsAtV1(api: Api, v1Crd: Record<string, unknown>, widget: (version: string, name: string) => unknown): Promise<void> {
  const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com';
  const cur = await api.req('GET', path);
  const put = await api.req('PUT', path, { ...v1Crd, metadata: { name: 'widgets.example.com', resourceVersion: cur.json.metadata.resourceVersion } });
  assert.equal(put.status, 200, put.text);
  for (let i = 0; ; i++) {
    const r = await api.req('POST', '/apis/example.com/v1/namespaces/default/widgets', widget('v1', `probe-${i}`));
    assert.equal(r.status, 201, r.text);
    const kv = await api.kv.get(`/registry/example.com/widgets/default/probe-${i}`);
    if (JSON.parse(kv!.value).apiVersion === 'example.com/v1') break;
    assert.ok(i < 300, 'storage version never changed');
    await new Promise((res) => setTimeout(res, 10));
  }
}
