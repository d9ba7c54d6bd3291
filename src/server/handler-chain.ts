// The request path, composed once per listener as k8s.io/apiserver's DefaultBuildHandlerChain composes it.
// Outermost first:
//   panic recovery → request info → request timeout → authentication
//   → [impersonation, flow control, audit: to come] → authorization → the API router
// Each filter is a small file under filters/; a new cross-cutting concern is a new filter in this list.
import type { Handler } from './context.js';
import { composeChain } from './context.js';
import { withPanicRecovery } from './filters/panic-recovery.js';
import { withRequestInfo } from './filters/request-info.js';
import { withAuthentication, type Authenticator } from './filters/authentication.js';
import { withAuthorization, type Authorizer } from './filters/authorization.js';
import { withRequestTimeout } from './filters/timeout.js';

interface ChainConfig {
  authenticator: Authenticator;
  authorizer: Authorizer;
  /** kube's --request-timeout, for requests that are not long-running (default 60 s). */
  requestTimeoutMs?: number;
}

export function buildHandlerChain(api: Handler, config: ChainConfig): Handler {
  return composeChain(
    [
      withPanicRecovery,
      withRequestInfo,
      withRequestTimeout(config.requestTimeoutMs ?? 60_000),
      withAuthentication(config.authenticator),
      withAuthorization(config.authorizer),
    ],
    api,
  );
}
