// WithAuthorization: the authorizer decides on the request's attributes (user, verb, resource or path);
// a denial ends the request with kube's 403.
import type { StatusError } from '../../api/status.js';
import type { UserInfo } from '../../api/user.js';
import type { RequestAttributes } from '../../auth/authorize.js';
import type { Filter } from '../context.js';
import type { AuthMetrics } from '../metrics/auth-metrics.js';
import { addAuditAnnotation } from '../../audit/record.js';
import type { RequestInfo } from '../request-info.js';

/** undefined when allowed, else the Status to answer with. */
export type Authorizer = (attrs: RequestAttributes) => StatusError | undefined;

function attributesOf(user: UserInfo, info: RequestInfo): RequestAttributes {
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

export function withAuthorization(authorize: Authorizer, metrics?: AuthMetrics): Filter {
  // Not an async function: a filter that only decides before the next step adds no promise of its own.
  return (ctx, next) => {
    // Authentication runs first in every chain; a chain without it is a wiring mistake, not a client's.
    if (!ctx.user) return Promise.reject(new Error('authorization filter reached without an authenticated user'));
    const start = metrics ? performance.now() : 0;
    const denied = authorize(attributesOf(ctx.user, ctx.info));
    // Our authorizers (RBAC, AlwaysDeny) refuse as kube's do: with no opinion, never an explicit deny.
    metrics?.authorization(denied ? 'no-opinion' : 'allowed', (performance.now() - start) / 1000);
    // The decision as kube's WithAuthorization annotates the audit event (a no-op when nothing is audited).
    addAuditAnnotation(ctx.req, 'authorization.k8s.io/decision', denied ? 'forbid' : 'allow');
    if (denied) return Promise.reject(denied);
    return next();
  };
}
