// WithRequestInfo: verb, group, version, resource, namespace, name and subresource from the method and path,
// for every later filter (authorization needs them) and the router.
import type { Filter } from '../context.js';
import { requestInfo } from '../request-info.js';

export const withRequestInfo: Filter = (ctx, next) => {
  ctx.info = requestInfo(ctx.req.method ?? 'GET', ctx.path, ctx.query);
  return next();
};
