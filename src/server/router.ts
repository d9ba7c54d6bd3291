// The API handlers behind the filter chain: health, version, OpenAPI, discovery, and every resource
// endpoint the registry holds (kube's NonGoRestfulMux and go-restful container, in one place).
import * as S from '../api/status.js';
import type { Subresource } from '../registry/resource-type.js';
import type { ApiRegistry } from './api-registry.js';
import type { Handler, RequestContext } from './context.js';
import { writeNotFoundPage, writeRaw } from './http.js';
import { serveResource } from './resource-handler.js';
import { serveScale } from './scale-handler.js';
import { serveDiscovery } from './discovery-handler.js';
import { serveOpenAPI } from './openapi-handler.js';
import { verbRefusal } from './served-verbs.js';
import { servedByCrdHandler, type Endpoint } from '../registry/endpoint.js';
import type { ServedResource } from '../api/resource.js';
import type { WatchBufferLimits } from './watch.js';
import { JWKS_PATH, OPENID_CONFIG_PATH, discoverableIssuer, jwks, openIDConfiguration } from '../auth/openid-metadata.js';
import type { ServiceAccountTokenConfig } from '../auth/service-account-token.js';
import type { ServerMetrics } from './metrics/server-metrics.js';
import type { GenericStore } from '../registry/store.js';

interface RouterOptions {
  registry: ApiRegistry;
  /** Watches last between this and twice this (kube's --min-request-timeout). */
  minRequestTimeoutSeconds: number;
  bookmarkIntervalMs: number;
  watchBuffer?: WatchBufferLimits;
  /** False once the server is shutting down: /readyz fails. */
  ready(): boolean;
  /** The ServiceAccount token issuer, whose discovery documents are served when its issuer is an https URL. */
  serviceAccountIssuer?: { config: ServiceAccountTokenConfig; jwksUri?: string };
  /** API Priority and Fairness' /debug/api_priority_and_fairness/ dumps (when it is on): the text for a path, if it is one. */
  flowControlDebug?(path: string, query: URLSearchParams): string | undefined;
  /** The server's metrics: /metrics, and the watch events they count. */
  metrics?: ServerMetrics;
  /** For requests under /clusters/* (every cluster). */
  acrossClusters?: AcrossClusters;
}

/** What requests under /clusters/* read (kcp's wildcard requests). */
export interface AcrossClusters {
  /** The resource's store read across every logical cluster. */
  store(store: GenericStore): GenericStore;
  /** A custom resource root does not serve, as the clusters define it (a 409 Status when two differ); undefined when none serves it. */
  endpoint(group: string, version: string, resource: string): Promise<Endpoint | undefined>;
  /** What the clusters serve besides these (root's) resources, for discovery. */
  served(root: readonly ServedResource[]): Promise<ServedResource[]>;
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

const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz']);

export function apiRouter(opts: RouterOptions): Handler {
  const other = async (ctx: RequestContext): Promise<void> => {
    const { path, req, res } = ctx;
    if (HEALTH_PATHS.has(path) || /^\/(healthz|livez|readyz)\//.test(path)) return serveHealth(ctx, opts.ready());
    if (path === '/version' || path === '/version/') return writeRaw(res, 200, 'application/json', JSON.stringify(VERSION_INFO, null, 2));
    if (path.startsWith('/openapi/')) return serveOpenAPI(opts.registry, req, res, path, ctx.query);
    if (path === '/metrics' && opts.metrics) return writeRaw(res, 200, opts.metrics.contentType, await opts.metrics.expose());
    const dump = opts.flowControlDebug?.(path, ctx.query);
    // Go's http.ResponseWriter sniffs the dumps' text as text/plain.
    if (dump !== undefined) return writeRaw(res, 200, 'text/plain; charset=utf-8', dump);
    if ((path === OPENID_CONFIG_PATH || path === JWKS_PATH) && opts.serviceAccountIssuer && discoverableIssuer(opts.serviceAccountIssuer.config.issuers[0]!)) {
      await opts.serviceAccountIssuer.config.whenReady?.();
      return serveIssuerDiscovery(ctx, opts.serviceAccountIssuer);
    }
    if (ctx.allClusters && opts.acrossClusters && (path === '/api' || path.startsWith('/api/') || path === '/apis' || path.startsWith('/apis/'))) {
      // Discovery across clusters: root's resources and what the logical clusters' CRDs serve besides.
      const root = opts.registry.served();
      const resources = [...root, ...(await opts.acrossClusters.served(root))];
      if (serveDiscovery({ served: () => resources }, req, res, path, ctx.serverAddress)) return;
      return writeNotFoundPage(res);
    }
    if (serveDiscovery(opts.registry, req, res, path, ctx.serverAddress)) return;
    return writeNotFoundPage(res);
  };
  // Most requests are resource requests (none of the paths `other` serves is under /api/ or /apis/): handed on
  // without an async function of the router's own around them.
  return (ctx) => (ctx.info.isResourceRequest ? serveResourceRequest(ctx, opts) : other(ctx));
}

/** The issuer's OIDC discovery document or key set, cacheable for an hour as kube serves them. */
function serveIssuerDiscovery(ctx: RequestContext, issuer: NonNullable<RouterOptions['serviceAccountIssuer']>): void {
  const keys = issuer.config.signingKeys().verifying;
  const headers = { 'Cache-Control': 'public, max-age=3600' };
  if (ctx.path === JWKS_PATH) return writeRaw(ctx.res, 200, 'application/jwk-set+json', JSON.stringify(jwks(keys)), headers);
  // kube's default jwks_uri is its own external address; here, the address of the port that was asked.
  const host = ctx.serverAddress || ctx.req.headers.host || '';
  const jwksUri = issuer.jwksUri ?? `https://${host}${JWKS_PATH}`;
  writeRaw(ctx.res, 200, 'application/json', JSON.stringify(openIDConfiguration(issuer.config.issuers[0]!, jwksUri, keys)), headers);
}

function serveHealth(ctx: RequestContext, ready: boolean): void {
  const { path, res } = ctx;
  const ok = ready || path.startsWith('/livez') || path.startsWith('/healthz');
  if (ctx.query.has('verbose')) {
    const checks = ['ping', 'log', 'etcd', 'poststarthook/crd-informer-synced', 'poststarthook/start-apiextensions-controllers'];
    const lines = checks.map((c) => `[+]${c} ok`).join('\n');
    const kind = path.slice(1).split('/')[0];
    return writeRaw(res, ok ? 200 : 500, 'text/plain; charset=utf-8', `${lines}\n${kind} check ${ok ? 'passed' : 'failed'}\n`);
  }
  writeRaw(res, ok ? 200 : 500, 'text/plain; charset=utf-8', ok ? 'ok' : 'not ready');
}

async function serveResourceRequest(ctx: RequestContext, opts: RouterOptions): Promise<void> {
  let info = ctx.info;
  // /api/v1/namespaces/<name>[/status|/finalize]: the namespace is the object, not a scope.
  if (info.apiPrefix === 'api' && info.resource === 'namespaces' && info.parts[0] === 'namespaces') ctx.info = info = { ...info, namespace: '' };
  const { res } = ctx;
  if ((info.apiPrefix === 'api') !== (info.apiGroup === '')) return writeNotFoundPage(res);
  let ep = opts.registry.lookup(info.apiGroup, info.apiVersion, info.resource);
  // Across clusters, a custom resource root does not serve is read as the clusters that serve it define it.
  if (!ep && ctx.allClusters && opts.acrossClusters) ep = await opts.acrossClusters.endpoint(info.apiGroup, info.apiVersion, info.resource);
  if (!ep) return writeNotFoundPage(res);
  const served = ep.store.type.served;
  // Scope mismatches fall through to 404, as crdHandler delegates them.
  if (!served.namespaced && info.namespace) return writeNotFoundPage(res);
  if (served.namespaced && !info.namespace && info.verb !== 'list' && info.verb !== 'watch') return writeNotFoundPage(res);
  const sub = info.subresource as Subresource;
  if (sub && !ep.subresources.has(sub)) throw S.notFound(ep.store.type.gr, info.name);
  if (info.parts.length > 3) return writeNotFoundPage(res);
  const refused = verbRefusal(ep, info, sub);
  if (refused) throw refused;
  const declared = sub ? opts.registry.subresourceHandler(served.group, served.version, served.resource, sub) : undefined;
  if (ctx.allClusters) {
    // Across clusters a resource is only listed and watched (kcp's wildcard requests).
    if (!opts.acrossClusters || sub || (info.verb !== 'list' && info.verb !== 'watch')) throw S.methodNotAllowed();
    return serveResource(ctx, opts.acrossClusters.store(ep.store), '', {
      patchTypes: ep.patchTypes,
      builtIn: !servedByCrdHandler(ep),
      minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds,
      bookmarkIntervalMs: opts.bookmarkIntervalMs,
      watchBuffer: opts.watchBuffer,
      warnings: ep.warnings,
    });
  }
  if (declared) return declared(ctx, ep.store);
  if (sub === 'scale' && ep.scale) return serveScale(ctx, ep.store, ep.scale, { patchTypes: ep.patchTypes, warnings: ep.warnings, replicasPaths: ep.replicasPaths });
  await serveResource(ctx, ep.store, sub, {
    patchTypes: ep.patchTypes,
    builtIn: !servedByCrdHandler(ep),
    minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds,
    bookmarkIntervalMs: opts.bookmarkIntervalMs,
    watchBuffer: opts.watchBuffer,
    onWatchEvent: opts.metrics && ((group, version, kind, bytes) => opts.metrics!.observeWatchEvent(group, version, kind, bytes)),
    warnings: ep.warnings,
    creater: ep.creater,
  });
}
