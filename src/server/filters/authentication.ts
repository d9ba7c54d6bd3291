// WithAuthentication: the authenticator names the user, or the request ends with kube's 401.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { UserInfo } from '../../api/user.js';
import * as S from '../../api/status.js';
import type { Filter, RequestContext } from '../context.js';
import type { AuthMetrics } from '../metrics/auth-metrics.js';

/**
 * The user a request is made by; undefined when it must be refused (a bad credential, or none and no anonymous
 * access). A promise only when the credential needs a lookup (a ServiceAccount token): the common path
 * (certificates, static tokens, anonymous) answers at once, without an extra turn of the event loop.
 */
export type Authenticator = (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined>;

export function withAuthentication(authenticate: Authenticator, metrics?: AuthMetrics): Filter {
  const decide = (ctx: RequestContext, next: () => Promise<void>, user: UserInfo | undefined, start: number): Promise<void> => {
    if (metrics) {
      const seconds = (performance.now() - start) / 1000;
      // kube: a credential refused is an error; no credential (and no anonymous access) a failure.
      if (user) metrics.authentication('success', seconds, user.name);
      else metrics.authentication(presentsCredential(ctx.req) ? 'error' : 'failure', seconds);
    }
    if (!user) return Promise.reject(S.unauthorized());
    ctx.user = user;
    return next();
  };
  // No promise of its own on the common path, where the user is known at once.
  return (ctx, next) => {
    const start = metrics ? performance.now() : 0;
    let found: ReturnType<Authenticator>;
    try {
      found = authenticate(ctx.req);
    } catch (e) {
      return Promise.reject(e);
    }
    return found instanceof Promise ? found.then((user) => decide(ctx, next, user, start)) : decide(ctx, next, found, start);
  };
}

function presentsCredential(req: IncomingMessage): boolean {
  if (req.headers.authorization !== undefined) return true;
  const socket = req.socket as Partial<TLSSocket>;
  const cert = socket.getPeerCertificate?.();
  return cert !== undefined && Object.keys(cert).length > 0;
}
