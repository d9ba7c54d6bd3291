// The request path, composed once per listener as k8s.io/apiserver's DefaultBuildHandlerChain composes it.
// Outermost first:
//   audit init → panic recovery → [the web console's static shell, before authentication: see filters/console.ts]
//   → request info → [HTTP logging] → [request metrics] → request timeout
//   → [failed-authentication audit] → authentication → [audit] → impersonation → priority and fairness (or max in
//   flight) → authorization → [instrumented handlers' metrics] → the API router
// Each filter is a small file under filters/; a new cross-cutting concern is a new filter in this list.
import type { Handler } from './context.js';
import { composeChain } from './context.js';
import { withPanicRecovery } from './filters/panic-recovery.js';
import { withRequestInfo } from './filters/request-info.js';
import { withAuthentication, type Authenticator } from './filters/authentication.js';
import { withAuthorization, type Authorizer } from './filters/authorization.js';
import { withImpersonation } from './filters/impersonation.js';
import { withRequestTimeout } from './filters/timeout.js';
import { withMaxInFlight, type InFlightLimits } from './filters/max-inflight.js';
import { withAudit, withAuditInit, withFailedAuthenticationAudit, type AuditBackend } from './filters/audit.js';
import { withPriorityAndFairness, type PriorityAndFairnessOptions } from './filters/priority-and-fairness.js';
import { withInstrumentedHandlers, withRequestMetrics, type IsServed } from './filters/metrics.js';
import { withHttpLogging } from './filters/http-logging.js';
import { withConsole } from './filters/console.js';
import { consoleAssets } from './console-assets.js';
import type { ServerMetrics } from './metrics/server-metrics.js';
import type { Logger } from '../util/klog.js';

/** kube's --request-timeout default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** kube's --max-requests-inflight and --max-mutating-requests-inflight defaults. */
export const DEFAULT_MAX_IN_FLIGHT: InFlightLimits = { readOnly: 400, mutating: 200 };

interface ChainConfig {
  authenticator: Authenticator;
  authorizer: Authorizer;
  /** kube's --request-timeout, for requests that are not long-running (default 60 s). */
  requestTimeoutMs?: number;
  /** kube's --max-requests-inflight and --max-mutating-requests-inflight (default 400 and 200). */
  maxInFlight?: InFlightLimits;
  /** API Priority and Fairness, which then replaces the max-in-flight limits (kube's --enable-priority-and-fairness). */
  flowControl?: Omit<PriorityAndFairnessOptions, 'requestTimeoutMs'>;
  /** --audit-policy-file and the log backend; none: nothing is audited. */
  audit?: AuditBackend;
  /** The server's metrics, and which resources have endpoints (requests for others are not counted, as in kube). */
  metrics?: { metrics: ServerMetrics; isServed: IsServed };
  /** The server's log: a line per request at -v=3 and above. */
  logger?: Logger;
}

export function buildHandlerChain(api: Handler, config: ChainConfig): Handler {
  const requestTimeoutMs = config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return composeChain(
    [
      withAuditInit,
      withPanicRecovery,
      withConsole(consoleAssets),
      withRequestInfo,
      ...(config.logger?.enabled(3) ? [withHttpLogging(config.logger)] : []),
      ...(config.metrics ? [withRequestMetrics(config.metrics.metrics)] : []),
      withRequestTimeout(requestTimeoutMs),
      ...(config.audit ? [withFailedAuthenticationAudit(config.audit)] : []),
      withAuthentication(config.authenticator, config.metrics?.metrics.auth),
      ...(config.audit ? [withAudit(config.audit)] : []),
      withImpersonation(config.authorizer),
      config.flowControl
        ? withPriorityAndFairness({ ...config.flowControl, requestTimeoutMs, ...(config.metrics ? { metrics: config.metrics.metrics.flowcontrol } : {}) })
        : withMaxInFlight(config.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT),
      withAuthorization(config.authorizer, config.metrics?.metrics.auth),
      ...(config.metrics ? [withInstrumentedHandlers(config.metrics.metrics, config.metrics.isServed)] : []),
    ],
    api,
  );
}
