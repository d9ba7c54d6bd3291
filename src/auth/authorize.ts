// Authorization. There is no RBAC yet (it comes later), so the policy is fixed:
//   - system:masters is allowed everything (kube's privileged-group authorizer);
//   - every other authenticated user is allowed everything too — a stand-in for RBAC, which would
//     grant per role bindings;
//   - anyone else (system:anonymous / system:unauthenticated) gets only what the default
//     system:public-info-viewer ClusterRole grants: `get` on /healthz, /livez, /readyz, /version
//     and /version/ (exact paths, as RBAC non-resource URLs match). Discovery is not included:
//     kube binds system:discovery to system:authenticated only.
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

const PUBLIC_INFO_PATHS: ReadonlySet<string> = new Set(['/healthz', '/livez', '/readyz', '/version', '/version/']);

export function authorize(attrs: RequestAttributes): Decision {
  const groups = attrs.user.groups;
  if (groups.includes(MASTERS_GROUP)) return { allowed: true, reason: '' };
  if (groups.includes(ALL_AUTHENTICATED)) return { allowed: true, reason: '' };
  if (!attrs.isResourceRequest && attrs.verb === 'get' && PUBLIC_INFO_PATHS.has(attrs.path)) {
    return { allowed: true, reason: '' };
  }
  // RBAC denies with no reason when no rule matched.
  return { allowed: false, reason: '' };
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
 * The rules `authorize` grants a user in a namespace (kube's RuleResolver.RulesFor, what `kubectl auth can-i
 * --list` shows): the fixed policy's `*` for masters and authenticated users, the public-info paths for anyone.
 */
export function rulesFor(user: UserInfo, _namespace: string): SubjectRules {
  const groups = user.groups;
  if (groups.includes(MASTERS_GROUP) || groups.includes(ALL_AUTHENTICATED)) {
    return {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    };
  }
  return { resourceRules: [], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: [...PUBLIC_INFO_PATHS] }], incomplete: false };
}

/**
 * The authorizer as the server holds it: a decision per request, and the rules listing behind
 * SelfSubjectRulesReview. RBAC replaces both; the request filters and the access reviews only see this.
 */
export interface AuthorizerHooks {
  authorize(attrs: RequestAttributes): Decision;
  rulesFor(user: UserInfo, namespace: string): SubjectRules;
}

export const fixedPolicy: AuthorizerHooks = { authorize, rulesFor };

/** The 403 for a denied request, or undefined when the hooks allow it. */
export const checkWith =
  (hooks: AuthorizerHooks) =>
  (attrs: RequestAttributes): StatusError | undefined => {
    const d = hooks.authorize(attrs);
    return d.allowed ? undefined : forbiddenError(attrs, d.reason);
  };

/** undefined when allowed, otherwise the 403 to send. */
export function checkAuthorized(attrs: RequestAttributes): StatusError | undefined {
  const d = authorize(attrs);
  return d.allowed ? undefined : forbiddenError(attrs, d.reason);
}

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
