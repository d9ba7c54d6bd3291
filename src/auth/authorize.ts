// Authorization: a decision per request on its attributes. The server's authorizer is kube's union: the
// privileged-group authorizer first (system:masters may do anything, as kube-apiserver's loopback and
// admin clients rely on), then the modes of --authorization-mode in order (RBAC by default: rbac/authorizer.ts;
// AlwaysAllow; AlwaysDeny). The first to allow decides; when none does, their reasons are joined.
// Denials produce kube-apiserver's exact 403 Status (responsewriters.Forbidden + errors.NewForbidden).
import { StatusError, forbidden } from '../api/status.js';
import { ALL_AUTHENTICATED, MASTERS_GROUP, type UserInfo } from './authenticate.js';

/** What a request asks to do; the server fills it from its request-info parser. */
export interface RequestAttributes {
  user: UserInfo;
  /** Resource requests: get, list, watch, create, update, patch, delete, deletecollection.
   *  Non-resource requests: the lower-cased HTTP method (get, post, put, ...). */
  verb: string;
  isResourceRequest: boolean;
  /** URL path, without the query. */
  path: string;
  /** API group; '' for the core group and for non-resource requests. */
  group: string;
  version?: string;
  /** Plural resource; '' for non-resource requests. */
  resource: string;
  subresource: string;
  /** '' for cluster-scoped resources and for requests across all namespaces. */
  namespace: string;
  /** '' for collection requests. */
  name: string;
}

export interface Decision {
  allowed: boolean;
  /** Why it was denied, appended to the message as kube does; '' for none. */
  reason: string;
  /** An explicit deny (kube's DecisionDeny) rather than no opinion; SubjectAccessReview reports it as status.denied. */
  denied?: boolean;
}

/** An authorizer: synchronous, on the attributes alone (RBAC reads its in-memory caches). */
export type Authorize = (attrs: RequestAttributes) => Decision;

const ALLOW: Decision = { allowed: true, reason: '' };

/** kube's AlwaysAllow mode. */
export const alwaysAllow: Authorize = () => ALLOW;

/** kube's AlwaysDeny mode (no opinion, with its reason). */
export const alwaysDeny: Authorize = () => ({ allowed: false, reason: 'Everything is forbidden.' });

/** authorizerfactory.NewPrivilegedGroups(system:masters): allows members, has no opinion on anyone else. */
export const privilegedGroups: Authorize = (attrs) => (attrs.user.groups.includes(MASTERS_GROUP) ? ALLOW : { allowed: false, reason: '' });

/** union.New: the first authorizer that allows decides; otherwise the non-empty reasons, one per line. */
export function unionAuthorizer(authorizers: readonly Authorize[]): Authorize {
  return (attrs) => {
    let reasons: string[] | undefined;
    for (const a of authorizers) {
      const d = a(attrs);
      if (d.allowed) return d;
      if (d.reason) (reasons ??= []).push(d.reason);
    }
    return { allowed: false, reason: reasons ? reasons.join('\n') : '' };
  };
}

/** A rule of a SelfSubjectRulesReview: what an authorizer grants on resources (authorizer.ResourceRuleInfo). */
export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

/** What an authorizer grants on non-resource URLs (authorizer.NonResourceRuleInfo). */
export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs: string[];
}

/** authorizer.RuleResolver's answer: the rules a user holds in a namespace, and whether the list may be partial. */
export interface SubjectRules {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  incomplete: boolean;
  /** Why listing failed, when it did (evaluationError). */
  error?: string;
}

/**
 * The authorizer as the server holds it: a decision per request, and the rules listing behind
 * SelfSubjectRulesReview (subject-rules.ts). The request filter, impersonation and the access reviews only
 * see this; the server builds it from --authorization-mode.
 */
export interface AuthorizerHooks {
  authorize(attrs: RequestAttributes): Decision;
  rulesFor(user: UserInfo, namespace: string): SubjectRules;
}

const PUBLIC_INFO_PATHS: ReadonlySet<string> = new Set(['/healthz', '/livez', '/readyz', '/version', '/version/']);

/**
 * A fixed policy for tests that hand the server an authorizer of their own: system:masters and every
 * authenticated user may do everything, anyone else only `get` the public-info paths (what
 * system:public-info-viewer grants). The server itself runs RBAC.
 */
export const fixedPolicy: AuthorizerHooks = {
  authorize(attrs) {
    const groups = attrs.user.groups;
    if (groups.includes(MASTERS_GROUP) || groups.includes(ALL_AUTHENTICATED)) return ALLOW;
    if (!attrs.isResourceRequest && attrs.verb === 'get' && PUBLIC_INFO_PATHS.has(attrs.path)) return ALLOW;
    return { allowed: false, reason: '' };
  },
  rulesFor(user) {
    if (user.groups.includes(MASTERS_GROUP) || user.groups.includes(ALL_AUTHENTICATED)) {
      return {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      };
    }
    return { resourceRules: [], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: [...PUBLIC_INFO_PATHS] }], incomplete: false };
  },
};

/** The filter's check: undefined when allowed, otherwise the 403 to send. */
export const checkWith =
  (hooks: Pick<AuthorizerHooks, 'authorize'>) =>
  (attrs: RequestAttributes): StatusError | undefined => {
    const d = hooks.authorize(attrs);
    return d.allowed ? undefined : forbiddenError(attrs, d.reason);
  };

/**
 * kube's 403 for a denied request, e.g.
 *   forbidden: User "system:anonymous" cannot get path "/apis"
 *   crontabs.stable.example.com is forbidden: User "system:anonymous" cannot list resource "crontabs" in API group "stable.example.com" in the namespace "default"
 */
export function forbiddenError(attrs: RequestAttributes, reason = ''): StatusError {
  const msg = sanitize(forbiddenMessage(attrs));
  const why = reason ? `${msg}: ${reason}` : msg;
  const gr = { group: attrs.group, resource: attrs.resource };
  if (!gr.group && !gr.resource) {
    // errors.NewForbidden with an empty GroupResource: "forbidden: ..." and empty (but present) details.
    return new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `forbidden: ${why}`,
      reason: 'Forbidden',
      details: {},
      code: 403,
    });
  }
  return forbidden(gr, attrs.name, why);
}

/** The sentence after "forbidden: " (responsewriters.forbiddenMessage). */
export function forbiddenMessage(attrs: RequestAttributes): string {
  const user = goQuote(attrs.user.name);
  if (!attrs.isResourceRequest) {
    return `User ${user} cannot ${attrs.verb} path ${goQuote(attrs.path)}`;
  }
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const head = `User ${user} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(attrs.group)}`;
  return attrs.namespace ? `${head} in the namespace ${goQuote(attrs.namespace)}` : `${head} at the cluster scope`;
}

// Go's %q for the plain strings that appear here; JSON escaping agrees with it for printable text.
function goQuote(s: string): string {
  return JSON.stringify(s);
}

// kube escapes &, < and > so an error body can never be mistaken for HTML.
function sanitize(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
