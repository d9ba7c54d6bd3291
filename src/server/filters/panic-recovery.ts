// Outermost filter: whatever a later step throws becomes a Status response (a StatusError as it is,
// anything else a 500), as k8s.io/apiserver's WithPanicRecovery keeps one bad request from taking the
// server down.
import type { Filter } from '../context.js';
import { writeError } from '../http.js';

export const withPanicRecovery: Filter = async (ctx, next) => {
  try {
    await next();
  } catch (e) {
    writeError(ctx.res, e);
  }
};
