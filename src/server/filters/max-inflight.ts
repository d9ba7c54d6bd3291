// WithMaxInFlightLimit: at most so many read-only (get, list) and so many mutating requests at once
// (--max-requests-inflight 400, --max-mutating-requests-inflight 200; 0: no limit). Over it a request is
// refused at once with 429 and Retry-After: 1, unless its user is in system:masters (kube lets the
// super-admin through). Long-running requests (watches) are not counted, nor health probes, so a loaded
// server still answers its kubelet.
import type { Filter } from '../context.js';
import { isLongRunning } from '../long-running.js';
import { tooManyRequests } from './too-many-requests.js';

export interface InFlightLimits {
  readOnly: number;
  mutating: number;
}

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);
const PROBE = /^\/(healthz|livez|readyz)(\/|$)/;

export function withMaxInFlight(limits: InFlightLimits): Filter {
  const inFlight = { readOnly: 0, mutating: 0 };
  return async (ctx, next) => {
    if (isLongRunning(ctx.info) || PROBE.test(ctx.path)) return next();
    const kind = READ_ONLY_VERBS.has(ctx.info.verb) ? 'readOnly' : 'mutating';
    const limit = limits[kind];
    if (limit <= 0) return next();
    if (inFlight[kind] >= limit) {
      if (ctx.user?.groups.includes('system:masters')) return next();
      return tooManyRequests(ctx.res, 1);
    }
    inFlight[kind]++;
    try {
      await next();
    } finally {
      inFlight[kind]--;
    }
  };
}
