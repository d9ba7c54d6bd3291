// WithImpersonation: a request carrying Impersonate-* headers runs as the user they describe, once the
// authenticated user has been allowed the `impersonate` verb on each thing asked for. Between authentication
// and authorization, as kube's chain has it: flow control and authorization then see the impersonated user.
import * as S from '../../api/status.js';
import { impersonatedUser, impersonationAttributes, impersonationRequests } from '../../auth/impersonation.js';
import type { Filter, RequestContext } from '../context.js';
import { writeRaw } from '../http.js';
import type { Authorizer } from './authorization.js';

export function withImpersonation(authorize: Authorizer): Filter {
  const impersonate = async (ctx: RequestContext, next: () => Promise<void>): Promise<void> => {
    // Every value of a repeated header (Impersonate-Group), which req.headers would join.
    const requests = impersonationRequests(ctx.req.headersDistinct);
    if ('error' in requests) {
      // responsewriters.InternalError: Go's http.Error, plain text quoting the request URI.
      const msg = `Internal Server Error: ${JSON.stringify(ctx.req.url ?? '')}: ${requests.error}`;
      return writeRaw(ctx.res, 500, 'text/plain; charset=utf-8', `${sanitize(msg)}\n`, { 'X-Content-Type-Options': 'nosniff' });
    }
    if (requests.length === 0) return next();
    const requestor = ctx.user;
    if (!requestor) throw S.internal('no user found for request');
    for (const r of requests) {
      const denied = authorize(impersonationAttributes(requestor, r));
      if (denied) throw denied;
    }
    ctx.user = impersonatedUser(requests);
    // The headers are spent: nothing behind this filter acts on them again.
    for (const h of Object.keys(ctx.req.headers)) if (isImpersonationHeader(h)) delete ctx.req.headers[h];
    await next();
  };
  // Most requests carry no Impersonate-* header: look no further, without a promise of this filter's own.
  return (ctx, next) => (Object.keys(ctx.req.headers).some(isImpersonationHeader) ? impersonate(ctx, next) : next());
}

const isImpersonationHeader = (h: string): boolean => h.startsWith('impersonate-');

// kube's sanitizer escapes &, < and > in every error body.
const sanitize = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
