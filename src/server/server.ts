// The API server: one request path from HTTP to storage, as kube-apiserver's handler chain.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as S from '../api/status.js';
import type { KVStore } from '../storage/types.js';
import { GenericStore } from '../registry/store.js';
import { namespaceLifecycle, ensureInitialNamespaces, NamespaceController } from '../registry/namespaces.js';
import { BUILTIN_KINDS } from '../apis/index.js';
import { namespaceKind } from '../apis/core/v1/namespace.js';
import { crdKind } from '../apis/apiextensions/v1/custom-resource-definition.js';
import { builtinEndpoint, builtinResourceType } from './builtin-kinds.js';
import { CrdServing } from '../crd/serving.js';
import { CrdController, type FinalizerTiming } from '../crd/controller.js';
import { ApiRegistry, type Endpoint } from './api-registry.js';
import { requestInfo, type RequestInfo } from './request-info.js';
import { writeError, writeNotFoundPage, writeRaw } from './http.js';
import { serveResource } from './resource-handler.js';
import { serveScale } from './scale-handler.js';
import { serveDiscovery } from './discovery-handler.js';
import { serveOpenAPI } from './openapi-handler.js';
import { authenticate, type UserInfo } from '../auth/authenticate.js';
import { checkAuthorized } from '../auth/authorize.js';
import type { Subresource } from '../registry/resource-type.js';
import { defaultServiceResolver, type ServiceResolver } from '../conversion/types.js';
import { webhookConverter } from '../conversion/webhook-converter.js';

export interface ServerOptions {
  kv: KVStore;
  /** TLS material for the secure port; absent: plain HTTP only. */
  tls?: { cert: string; key: string; ca: string };
  securePort?: number;
  insecurePort?: number;
  bindAddress?: string;
  /** Watches last between this and twice this (kube's --min-request-timeout, 1800 s). */
  minRequestTimeoutSeconds?: number;
  bookmarkIntervalMs?: number;
  /** How the CRD finalizer polls for instances to go (tests shorten its one-minute wait). */
  crdFinalizerTiming?: Partial<FinalizerTiming>;
  /** Where conversion webhooks' service references are reached (default: `<name>.<namespace>.svc`). */
  serviceResolver?: ServiceResolver;
}

export interface RunningServer {
  /** https://host:port of the secure port, when serving TLS. */
  secureUrl?: string;
  /** http://127.0.0.1:port of the insecure port, when asked for. */
  insecureUrl?: string;
  registry: ApiRegistry;
  close(): Promise<void>;
}

export const VERSION_INFO = {
  major: '1',
  minor: '33',
  gitVersion: 'v1.33.0',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-11-22T00:00:00Z',
  goVersion: 'go1.24.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const kv = opts.kv;
  const stores = new Map(BUILTIN_KINDS.map((k) => [k, new GenericStore(kv, builtinResourceType(k))]));
  const namespaces = stores.get(namespaceKind)!;
  const crds = stores.get(crdKind)!;
  const admission = namespaceLifecycle(namespaces);
  const resolver = opts.serviceResolver ?? defaultServiceResolver;
  const serving = new CrdServing(kv, admission, (crd) => webhookConverter(crd, resolver));
  const registry = new ApiRegistry(serving);
  for (const [kind, store] of stores) registry.addBuiltin(builtinEndpoint(kind, store));

  await ensureInitialNamespaces(namespaces);
  const crdController = new CrdController(crds, serving, opts.crdFinalizerTiming);
  await crdController.start();
  const nsController = new NamespaceController(namespaces, () => serving.storageStores((c) => c.spec.scope === 'Namespaced'));
  await nsController.start();

  const ctx: HandlerContext = {
    registry,
    minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds ?? 1800,
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
    ready: true,
  };
  const servers: http.Server[] = [];
  const out: RunningServer = {
    registry,
    close: async () => {
      ctx.ready = false;
      crdController.stop();
      nsController.stop();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
  const host = opts.bindAddress ?? '127.0.0.1';
  if (opts.tls) {
    const s = https.createServer(
      { cert: opts.tls.cert, key: opts.tls.key, ca: opts.tls.ca, requestCert: true, rejectUnauthorized: false },
      (req, res) => void handle(ctx, req, res, true),
    );
    const port = await listen(s, opts.securePort ?? 6443, host);
    servers.push(s);
    out.secureUrl = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }
  if (opts.insecurePort !== undefined) {
    const s = http.createServer((req, res) => void handle(ctx, req, res, false));
    const port = await listen(s, opts.insecurePort, '127.0.0.1');
    servers.push(s);
    out.insecureUrl = `http://127.0.0.1:${port}`;
  }
  for (const s of servers) {
    s.keepAliveTimeout = 65_000;
    s.headersTimeout = 66_000;
    s.requestTimeout = 0; // watches are long-lived
  }
  return out;
}

function listen(s: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => {
      s.off('error', reject);
      resolve((s.address() as AddressInfo).port);
    });
  });
}

export interface HandlerContext {
  registry: ApiRegistry;
  minRequestTimeoutSeconds: number;
  bookmarkIntervalMs: number;
  ready: boolean;
}

const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz']);

async function handle(ctx: HandlerContext, req: IncomingMessage, res: ServerResponse, secure: boolean): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const info = requestInfo(req.method ?? 'GET', path, url.searchParams);
    if (secure) {
      const user = authenticate(req);
      if (!user) throw S.unauthorized();
      const denied = checkAuthorized(attributes(user, info));
      if (denied) throw denied;
    }
    if (HEALTH_PATHS.has(path) || /^\/(healthz|livez|readyz)\//.test(path)) return serveHealth(ctx, res, path, url.searchParams);
    if (path === '/version' || path === '/version/') return writeRaw(res, 200, 'application/json', JSON.stringify(VERSION_INFO, null, 2));
    if (path.startsWith('/openapi/')) return serveOpenAPI(ctx.registry, req, res, path, url.searchParams);
    if (!info.isResourceRequest) {
      if (serveDiscovery(ctx.registry, req, res, path, secure ? `${req.socket.localAddress ?? ''}:${req.socket.localPort ?? ''}` : '')) return;
      return writeNotFoundPage(res);
    }
    return await serveResourceRequest(ctx, req, res, info, url.searchParams);
  } catch (e) {
    writeError(res, e);
  }
}

function attributes(user: UserInfo, info: RequestInfo) {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    group: info.apiGroup,
    version: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
  };
}

function serveHealth(ctx: HandlerContext, res: ServerResponse, path: string, q: URLSearchParams): void {
  const ok = ctx.ready || path.startsWith('/livez') || path.startsWith('/healthz');
  if (q.has('verbose')) {
    const checks = ['ping', 'log', 'etcd', 'poststarthook/crd-informer-synced', 'poststarthook/start-apiextensions-controllers'];
    const lines = checks.map((c) => `[+]${c} ok`).join('\n');
    const kind = path.slice(1).split('/')[0];
    return writeRaw(res, ok ? 200 : 500, 'text/plain; charset=utf-8', `${lines}\n${kind} check ${ok ? 'passed' : 'failed'}\n`);
  }
  writeRaw(res, ok ? 200 : 500, 'text/plain; charset=utf-8', ok ? 'ok' : 'not ready');
}

async function serveResourceRequest(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  rawInfo: RequestInfo,
  query: URLSearchParams,
): Promise<void> {
  let info = rawInfo;
  // /api/v1/namespaces/<name>[/status|/finalize]: the namespace is the object, not a scope.
  if (info.apiPrefix === 'api' && info.resource === 'namespaces' && info.parts[0] === 'namespaces') info = { ...info, namespace: '' };
  if ((info.apiPrefix === 'api') !== (info.apiGroup === '')) return writeNotFoundPage(res);
  const ep: Endpoint | undefined = ctx.registry.lookup(info.apiGroup, info.apiVersion, info.resource);
  if (!ep) return writeNotFoundPage(res);
  const served = ep.store.type.served;
  // Scope mismatches fall through to 404, as crdHandler delegates them.
  if (!served.namespaced && info.namespace) return writeNotFoundPage(res);
  if (served.namespaced && !info.namespace && info.verb !== 'list' && info.verb !== 'watch') return writeNotFoundPage(res);
  const sub = info.subresource as Subresource;
  if (sub && !ep.subresources.has(sub)) throw S.notFound(ep.store.type.gr, info.name);
  if (info.parts.length > 3) return writeNotFoundPage(res);
  if (info.verb === 'delete' && ep.beforeDelete) ep.beforeDelete(info.name);
  if (info.verb === 'create' && !sub && ep.beforeCreate) ep.beforeCreate();
  if (sub === 'scale' && ep.scale) return serveScale({ req, res, info, query }, ep.store, ep.scale, { patchTypes: ep.patchTypes, warnings: ep.warnings });
  await serveResource({ req, res, info, query }, ep.store, sub, {
    patchTypes: ep.patchTypes,
    minRequestTimeoutSeconds: ctx.minRequestTimeoutSeconds,
    bookmarkIntervalMs: ctx.bookmarkIntervalMs,
    warnings: ep.warnings,
  });
}
