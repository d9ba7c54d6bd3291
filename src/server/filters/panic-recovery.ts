// Outermost filter: whatever a later step throws becomes a Status response (a StatusError as it is,
// anything else a 500), as k8s.io/apiserver's WithPanicRecovery keeps one bad request from taking the
// server down. The Status is written in the format the request accepts, as kube's ErrorNegotiated does.
import type { Filter } from '../context.js';
import { writeError } from '../http.js';

export const withPanicRecovery: Filter = async (ctx, next) => {
  try {
    await next();
  } catch (e) {
    writeError(ctx.res, e, ctx.req.headers.accept);
  }
};
