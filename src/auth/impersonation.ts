// Impersonation as k8s.io/apiserver's WithImpersonation decides it: the Impersonate-* headers become a list of
// things to act as (a user or ServiceAccount, groups, extra values, a uid), each of which the requester must be
// allowed to `impersonate`; the request then runs as the user they describe.
import type { UserInfo } from '../api/user.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../schema/names.js';
import type { RequestAttributes } from './authorize.js';

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const ANONYMOUS = 'system:anonymous';
const ALL_AUTHENTICATED = 'system:authenticated';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';
const EXTRA_PREFIX = 'impersonate-extra-';
const AUTHENTICATION_V1 = 'authentication.k8s.io/v1';

/** One thing the request asks to act as: kube's v1.ObjectReference, with the extra key in fieldPath. */
export interface ImpersonationRequest {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  apiVersion: string;
  fieldPath: string;
}

/** Request headers by lower-case name, every value of a repeated header kept (Node's headersDistinct). */
export type HeaderValues = Readonly<Record<string, readonly string[] | undefined>>;

const ref = (kind: ImpersonationRequest['kind'], name: string, extra: Partial<ImpersonationRequest> = {}): ImpersonationRequest => ({
  kind,
  namespace: '',
  name,
  apiVersion: '',
  fieldPath: '',
  ...extra,
});

/** serviceaccount.SplitUsername: `system:serviceaccount:<namespace>:<name>` with a valid namespace and name. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}

/** Go's url.PathUnescape; a malformed escape leaves the key as sent, as kube records it anyway. */
function unescapeExtraKey(key: string): string {
  if (/%(?![0-9a-fA-F]{2})/.test(key)) return key;
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * buildImpersonationRequests: what the headers ask to act as, in kube's order (user, groups, extras, uid), or
 * the error kube answers with 500 when groups, extras or a uid come without a user.
 */
export function impersonationRequests(headers: HeaderValues): ImpersonationRequest[] | { error: string } {
  const out: ImpersonationRequest[] = [];
  // http.Header.Get: the first value.
  const user = headers['impersonate-user']?.[0] ?? '';
  if (user !== '') {
    const sa = splitServiceAccountUsername(user);
    out.push(sa ? ref('ServiceAccount', sa.name, { namespace: sa.namespace }) : ref('User', user));
  }
  const groups = headers['impersonate-group'] ?? [];
  for (const g of groups) out.push(ref('Group', g));
  let hasExtra = false;
  for (const [name, values] of Object.entries(headers)) {
    if (!name.startsWith(EXTRA_PREFIX) || !values) continue;
    hasExtra = true;
    const key = unescapeExtraKey(name.slice(EXTRA_PREFIX.length));
    for (const v of values) out.push(ref('UserExtra', v, { apiVersion: AUTHENTICATION_V1, fieldPath: key }));
  }
  const uid = headers['impersonate-uid']?.[0] ?? '';
  if (uid !== '') out.push(ref('UID', uid, { apiVersion: AUTHENTICATION_V1 }));
  if ((groups.length > 0 || hasExtra || uid !== '') && user === '') {
    return { error: `requested [${out.map(goObjectReference).join(' ')}] without impersonating a user` };
  }
  return out;
}

/** %v of a v1.ObjectReference: its seven fields in order, space separated, in braces. */
function goObjectReference(r: ImpersonationRequest): string {
  return `{${[r.kind, r.namespace, r.name, '', r.apiVersion, '', r.fieldPath].join(' ')}}`;
}

/** The attributes the requester needs `impersonate` on for one request (users, groups, serviceaccounts, userextras/<key>, uids). */
export function impersonationAttributes(requestor: UserInfo, r: ImpersonationRequest): RequestAttributes {
  const authn = r.apiVersion === AUTHENTICATION_V1;
  const resource = { User: 'users', ServiceAccount: 'serviceaccounts', Group: 'groups', UserExtra: 'userextras', UID: 'uids' }[r.kind];
  return {
    user: requestor,
    verb: 'impersonate',
    isResourceRequest: true,
    path: '',
    group: authn ? 'authentication.k8s.io' : '',
    version: authn ? 'v1' : '',
    resource,
    subresource: r.kind === 'UserExtra' ? r.fieldPath : '',
    namespace: r.namespace,
    name: r.name,
  };
}

/**
 * The user the requests describe, as WithImpersonation builds it: a ServiceAccount's groups unless groups were
 * given, then system:authenticated (or, for system:anonymous, system:unauthenticated) unless already there.
 */
export function impersonatedUser(requests: readonly ImpersonationRequest[]): UserInfo {
  let name = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  let uid = '';
  const groupsSpecified = requests.some((r) => r.kind === 'Group');
  for (const r of requests) {
    switch (r.kind) {
      case 'ServiceAccount':
        name = `${SERVICE_ACCOUNT_PREFIX}${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
        break;
      case 'User':
        name = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UserExtra':
        (extra[r.fieldPath] ??= []).push(r.name);
        break;
      case 'UID':
        uid = r.name;
        break;
    }
  }
  if (name !== ANONYMOUS) {
    if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) {
    groups.push(ALL_UNAUTHENTICATED);
  }
  const user: UserInfo = { name, groups };
  if (uid !== '') user.uid = uid;
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}
