// WithHTTPLogging (k8s.io/apiserver httplog): at -v=3 and above, one line per request once its response is done,
// `"HTTP" verb="LIST" URI="/api/v1/pods?limit=500" latency="1.2ms" userAgent="kubectl/..." audit-ID="..."
// srcIP="127.0.0.1:53124" resp=200`. Just inside request info, as in kube's chain, so refused requests (401, 403,
// 429) are logged too. Only the request line and headers named here are logged: never a body or a credential.
import type { Filter, RequestContext } from '../context.js';
import { goDuration, type Logger } from '../../util/klog.js';
import { cleanScope, normalizedVerb } from '../metrics/request-labels.js';
import { responseHeader } from '../response.js';

const LEVEL = 3;
const CALLER = 'httplog/httplog.go:134';
/** GetAuditIDTruncated: an audit ID longer than this is cut. */
const MAX_AUDIT_ID = 64;

export function withHttpLogging(logger: Logger): Filter {
  return (ctx, next) => {
    // Logged when the response is done (a watch: when it ends), with the code written, thrown errors included.
    ctx.res.once('close', () => log(logger, ctx));
    return next();
  };
}

function log(logger: Logger, ctx: RequestContext): void {
  const { req, res } = ctx;
  const auditID = String(responseHeader(res, 'audit-id') ?? '').slice(0, MAX_AUDIT_ID);
  const verb = normalizedVerb({ method: req.method ?? 'GET', info: ctx.info, query: ctx.query, contentType: req.headers['content-type'] }, cleanScope(ctx.info));
  logger.info(LEVEL, CALLER, 'HTTP', [
    ['verb', verb],
    ['URI', req.url ?? ''],
    ['latency', goDuration((performance.now() - ctx.receivedAt) * 1e6)],
    ['userAgent', req.headers['user-agent'] ?? ''],
    ['audit-ID', auditID],
    ['srcIP', remoteAddr(ctx)],
    ['resp', res.headersSent ? res.statusCode : 0],
  ]);
}

/** Go's Request.RemoteAddr: host:port, an IPv6 host in brackets. */
function remoteAddr(ctx: RequestContext): string {
  const s = ctx.req.socket;
  const host = s.remoteAddress ?? '';
  return `${host.includes(':') ? `[${host}]` : host}:${s.remotePort ?? ''}`;
}
