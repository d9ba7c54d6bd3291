// The labels kube-apiserver's request metrics and HTTP log give a request (k8s.io/apiserver endpoints/metrics:
// CleanScope, CanonicalVerb, CleanVerb, cleanDryRun), as pure functions of the request's method, query,
// headers and RequestInfo.
import type { RequestInfo } from '../request-info.js';

/** CleanScope: "resource" for one object (or a create), "namespace", "cluster", or "" outside the resource API. */
export function cleanScope(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  if (info.isResourceRequest) return 'cluster';
  return '';
}

/** The subresources kube reports as CONNECT (validConnectRequests). */
const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);

/** The verbs the metrics report as they are; any other method is "other" (validRequestMethods). */
const VALID_VERBS = new Set(['APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST']);

interface VerbSource {
  method: string;
  info: RequestInfo;
  query: URLSearchParams;
  contentType: string | undefined;
}

/**
 * NormalizedVerb, as the HTTP log prints it: the method upper-cased, GET of a collection LIST, a GET with
 * watch=true (or the /watch/ prefix) WATCH, an apply patch APPLY, a connect subresource CONNECT.
 */
export function normalizedVerb(r: VerbSource, scope = cleanScope(r.info)): string {
  let verb = r.method.toUpperCase();
  if (verb === 'GET' || verb === 'HEAD') verb = scope !== 'resource' && scope !== '' ? 'LIST' : 'GET';
  if ((verb === 'GET' || verb === 'LIST') && isWatchQuery(r.query)) verb = 'WATCH';
  if (verb === 'PATCH' && r.contentType === 'application/apply-patch+yaml') verb = 'APPLY';
  if (r.info.isResourceRequest && CONNECT_SUBRESOURCES.has(r.info.subresource)) verb = 'CONNECT';
  return verb;
}

/** The verb label of apiserver_request_total and its kin: normalizedVerb, WATCH for a watch route, else "other". */
export function metricsVerb(r: VerbSource, scope = cleanScope(r.info)): string {
  if (r.info.isResourceRequest && r.info.verb === 'watch') return 'WATCH';
  const verb = normalizedVerb(r, scope);
  return VALID_VERBS.has(verb) ? verb : 'other';
}

function isWatchQuery(query: URLSearchParams): boolean {
  const w = query.get('watch');
  if (w === null) return false;
  const v = w.toLowerCase();
  return v !== '0' && v !== 'false';
}

/** cleanDryRun: "" without dryRun, "invalid" for anything but All, else the distinct values sorted and joined. */
export function cleanDryRun(rawQuery: string, query: URLSearchParams): string {
  if (!rawQuery.includes('dryRun')) return '';
  const values = query.getAll('dryRun');
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}
