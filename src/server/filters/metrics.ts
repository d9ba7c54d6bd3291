// Request metrics as kube-apiserver records them. Its instrumented handlers (the resource endpoints, the health
// checks, aggregated discovery) count each request they serve in apiserver_request_total and its latency in
// apiserver_request_duration_seconds, watches also in apiserver_longrunning_requests while they last; requests
// refused before a handler (401 by authentication, 403 by authorization, a resource that does not exist) are
// not counted there, except the 429s of priority and fairness or the in-flight limits (RecordDroppedRequest).
// So two filters: withRequestMetrics, just inside request info, times each request and counts the dropped
// ones; withInstrumentedHandlers, just before the router, records what the handlers serve.
import * as S from '../../api/status.js';
import type { Filter, RequestContext } from '../context.js';
import { isLongRunning } from '../long-running.js';
import { cleanDryRun, cleanScope, metricsVerb } from '../metrics/request-labels.js';
import type { RequestLabels, ServerMetrics } from '../metrics/server-metrics.js';

/** Whether the registry serves a resource (the request reaches an endpoint rather than the not-found handler). */
export type IsServed = (group: string, version: string, resource: string) => boolean;

export function withRequestMetrics(metrics: ServerMetrics): Filter {
  return async (ctx, next) => {
    await next();
    // Refused by flow control before any handler: priority and fairness and max-in-flight answer 429 without throwing.
    if (!ctx.instrumented && ctx.res.statusCode === 429) metrics.observeDropped(requestLabels(ctx), 429);
  };
}

export function withInstrumentedHandlers(metrics: ServerMetrics, isServed: IsServed): Filter {
  return async (ctx, next) => {
    const instrumented = instrumentedLabels(ctx, isServed);
    if (!instrumented) return next();
    ctx.instrumented = true;
    const res = ctx.res;
    if (isLongRunning(ctx.info)) {
      // A watch's handler returns once the stream is set up; kube's returns when it ends.
      const done = metrics.startLongRunning(instrumented());
      const end = (): void => {
        done();
        const seconds = (performance.now() - ctx.receivedAt) / 1000;
        metrics.observeRequest(instrumented(), res.statusCode, seconds, sli(ctx, seconds));
      };
      if (res.destroyed) end();
      else res.once('close', end);
      return next();
    }
    const kind = ctx.info.verb === 'get' || ctx.info.verb === 'list' ? 'readOnly' : 'mutating';
    metrics.noteExecuting(kind, 1);
    let code: number | undefined;
    try {
      await next();
    } catch (e) {
      // Written by the recovery filter further out: a Status with its code, anything else a 500.
      code = e instanceof S.StatusError ? e.code : 500;
      throw e;
    } finally {
      metrics.noteExecuting(kind, -1);
      // Labels after the handler: the router may have refined the request info (a namespace's own name).
      const seconds = (performance.now() - ctx.receivedAt) / 1000;
      metrics.observeRequest(instrumented(), code ?? res.statusCode, seconds, sli(ctx, seconds));
    }
  };
}

/** kube's SLI latency: the request's, less its webhooks' and its wait in a priority and fairness queue. */
const sli = (ctx: RequestContext, seconds: number): number => seconds - (ctx.mutatingWebhookSeconds + ctx.validatingWebhookSeconds + ctx.queueWaitSeconds);

const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz']);

/** The labels of a request an instrumented handler serves, computed when asked; undefined when none serves it. */
function instrumentedLabels(ctx: RequestContext, isServed: IsServed): (() => RequestLabels) | undefined {
  const info = ctx.info;
  if (info.isResourceRequest) return isServed(info.apiGroup, info.apiVersion, info.resource) ? () => requestLabels(ctx) : undefined;
  // The health checks are instrumented as GETs of "subresource" path, component ""; aggregated discovery likewise, component apiserver.
  if (HEALTH_PATHS.has(ctx.path)) return () => nonResourceLabels(ctx, '');
  if ((ctx.path === '/api' || ctx.path === '/apis') && (ctx.req.headers.accept ?? '').includes('as=APIGroupDiscoveryList')) return () => nonResourceLabels(ctx, 'apiserver');
  return undefined;
}

function requestLabels(ctx: RequestContext): RequestLabels {
  const info = ctx.info;
  const scope = cleanScope(info);
  const url = ctx.req.url ?? '';
  const q = url.indexOf('?');
  const r = { method: ctx.req.method ?? 'GET', info, query: ctx.query, contentType: ctx.req.headers['content-type'] };
  return {
    verb: metricsVerb(r, scope),
    dryRun: q < 0 ? '' : cleanDryRun(url.slice(q + 1), ctx.query),
    group: info.isResourceRequest ? info.apiGroup : '',
    version: info.isResourceRequest ? info.apiVersion : '',
    resource: info.isResourceRequest ? info.resource : '',
    subresource: info.subresource,
    scope,
    component: 'apiserver',
  };
}

function nonResourceLabels(ctx: RequestContext, component: string): RequestLabels {
  const method = (ctx.req.method ?? 'GET').toUpperCase();
  const url = ctx.req.url ?? '';
  const q = url.indexOf('?');
  return {
    verb: method === 'HEAD' ? 'GET' : metricsVerb({ method, info: ctx.info, query: ctx.query, contentType: undefined }, ''),
    dryRun: q < 0 ? '' : cleanDryRun(url.slice(q + 1), ctx.query),
    group: '',
    version: '',
    resource: '',
    subresource: ctx.path,
    scope: '',
    component,
  };
}
