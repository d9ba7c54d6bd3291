// WithAuthentication: the authenticator names the user, or the request ends with kube's 401.
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../../api/user.js';
import * as S from '../../api/status.js';
import type { Filter } from '../context.js';

/**
 * The user a request is made by; undefined when it must be refused (a bad credential, or none and no anonymous
 * access). A promise only when the credential needs a lookup (a ServiceAccount token): the common path
 * (certificates, static tokens, anonymous) answers at once, without an extra turn of the event loop.
 */
export type Authenticator = (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined>;

export function withAuthentication(authenticate: Authenticator): Filter {
  return async (ctx, next) => {
    const found = authenticate(ctx.req);
    const user = found instanceof Promise ? await found : found;
    if (!user) throw S.unauthorized();
    ctx.user = user;
    await next();
  };
}
