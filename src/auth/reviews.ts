// The create-only REST of the access and token reviews (kube's pkg/registry/authorization/* and
// pkg/registry/authentication/*): each takes the decoded review, asks the authorizer or the authenticator, and
// answers with the review, status filled in.
import * as S from '../api/status.js';
import type { FieldError } from '../api/field-error.js';
import type { UserInfo } from '../api/user.js';
import type { Creater } from '../registry/endpoint.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { validateLocalSubjectAccessReview, validateSelfSubjectAccessReview, validateSubjectAccessReview } from '../apis/authorization/v1/validation.js';
import type { AuthorizerHooks, RequestAttributes } from './authorize.js';
import type { TokenAuthentication } from './authenticate.js';

export interface ReviewDeps {
  authorizer: AuthorizerHooks;
  /** The chain bearer tokens go through, for TokenReview; audiences are those the review asks for (else the API's). */
  authenticateToken(token: string, audiences: readonly string[]): TokenAuthentication | Promise<TokenAuthentication>;
  /** kube's --api-audiences: what a TokenReview without spec.audiences checks against. */
  apiAudiences: readonly string[];
}

const objAt = (o: JSONObject, k: string): JSONObject | undefined => (isObject(o[k]) ? (o[k] as JSONObject) : undefined);
const str = (o: JSONObject | undefined, k: string): string => (o && typeof o[k] === 'string' ? (o[k] as string) : '');
const strings = (o: JSONObject | undefined, k: string): string[] => (o && Array.isArray(o[k]) ? (o[k] as unknown[]).filter((x): x is string => typeof x === 'string') : []);

/** The 422 of a review that fails validation: NewInvalid with the internal object's (empty) kind, as kube words it. */
const invalidReview = (group: string, errs: FieldError[]): S.StatusError => S.invalid(group, '', '', errs);

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom: what a review's spec asks about. */
export function reviewAttributes(user: UserInfo, spec: JSONObject): RequestAttributes {
  const ra = objAt(spec, 'resourceAttributes');
  if (ra) {
    const version = str(ra, 'version');
    return {
      user,
      verb: str(ra, 'verb'),
      isResourceRequest: true,
      path: '',
      group: str(ra, 'group'),
      // An empty version matches every version.
      version: version === '' ? '*' : version,
      resource: str(ra, 'resource'),
      subresource: str(ra, 'subresource'),
      namespace: str(ra, 'namespace'),
      name: str(ra, 'name'),
    };
  }
  const nra = objAt(spec, 'nonResourceAttributes') ?? {};
  return { user, verb: str(nra, 'verb'), isResourceRequest: false, path: str(nra, 'path'), group: '', resource: '', subresource: '', namespace: '', name: '' };
}

/** The user a SubjectAccessReview names: spec.user, groups, extra and uid, nothing added. */
function specUser(spec: JSONObject): UserInfo {
  const user: UserInfo = { name: str(spec, 'user'), groups: strings(spec, 'groups') };
  const uid = str(spec, 'uid');
  if (uid) user.uid = uid;
  const extra = objAt(spec, 'extra');
  if (extra && Object.keys(extra).length > 0) user.extra = Object.fromEntries(Object.keys(extra).map((k) => [k, strings(extra, k)]));
  return user;
}

function accessStatus(deps: ReviewDeps, attrs: RequestAttributes): JSONObject {
  const d = deps.authorizer.authorize(attrs);
  const status: JSONObject = { allowed: d.allowed };
  if (d.denied) status['denied'] = true;
  if (d.reason) status['reason'] = d.reason;
  return status;
}

/** UserInfo in authentication.k8s.io's form (extra always a map, as the REST builds it). */
function userInfoOf(u: UserInfo): JSONObject {
  const out: JSONObject = { username: u.name };
  if (u.uid) out['uid'] = u.uid;
  if (u.groups.length) out['groups'] = [...u.groups];
  if (u.extra && Object.keys(u.extra).length) out['extra'] = structuredClone(u.extra);
  return out;
}

const AUTHORIZATION = 'authorization.k8s.io';

const withoutEmpty = (rule: Record<string, string[]>): JSONObject =>
  Object.fromEntries(Object.entries(rule).filter(([k, v]) => k === 'verbs' || v.length > 0)) as JSONObject;

/** The handler of each create-only kind, by kind. */
export function reviewCreaters(deps: ReviewDeps): ReadonlyMap<string, Creater> {
  return new Map<string, Creater>([
    [
      'SelfSubjectAccessReview',
      ({ user }, obj) => {
        const errs = validateSelfSubjectAccessReview(obj);
        if (errs.length) throw invalidReview(AUTHORIZATION, errs);
        obj['status'] = accessStatus(deps, reviewAttributes(user, objAt(obj, 'spec') ?? {}));
        return obj;
      },
    ],
    [
      'SubjectAccessReview',
      (_req, obj) => {
        const errs = validateSubjectAccessReview(obj);
        if (errs.length) throw invalidReview(AUTHORIZATION, errs);
        const spec = objAt(obj, 'spec') ?? {};
        obj['status'] = accessStatus(deps, reviewAttributes(specUser(spec), spec));
        return obj;
      },
    ],
    [
      'LocalSubjectAccessReview',
      ({ namespace }, obj) => {
        const errs = validateLocalSubjectAccessReview(obj);
        if (errs.length) throw invalidReview(AUTHORIZATION, errs);
        if (!namespace) throw S.badRequest(`namespace is required on this type: ${namespace}`);
        const spec = objAt(obj, 'spec') ?? {};
        obj['status'] = accessStatus(deps, reviewAttributes(specUser(spec), spec));
        return obj;
      },
    ],
    [
      'SelfSubjectRulesReview',
      ({ user }, obj) => {
        const namespace = str(objAt(obj, 'spec'), 'namespace');
        if (namespace === '') throw S.badRequest('no namespace on request');
        const rules = deps.authorizer.rulesFor(user, namespace);
        const status: JSONObject = {
          // The lists but verbs are omitempty.
          resourceRules: rules.resourceRules.map((r) => withoutEmpty({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames })),
          nonResourceRules: rules.nonResourceRules.map((r) => withoutEmpty({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
          incomplete: rules.incomplete,
        };
        if (rules.error) status['evaluationError'] = rules.error;
        // A new object: the request's metadata and spec are not echoed.
        return { apiVersion: `${AUTHORIZATION}/v1`, kind: 'SelfSubjectRulesReview', metadata: {}, spec: {}, status };
      },
    ],
    [
      'SelfSubjectReview',
      ({ user }) => ({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
        metadata: { creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
        status: { userInfo: userInfoOf(user) },
      }),
    ],
    [
      'TokenReview',
      async (_req, obj) => {
        const spec = objAt(obj, 'spec') ?? {};
        const token = str(spec, 'token');
        if (token === '') throw S.badRequest('token is required for TokenReview in authentication');
        const requested = strings(spec, 'audiences');
        const auds = requested.length > 0 ? requested : [...deps.apiAudiences];
        const result = await deps.authenticateToken(token, auds);
        const status: JSONObject = {};
        if (result.user) status['authenticated'] = true;
        if (auds.length > 0 && result.user && !(result.audiences ?? []).some((a) => auds.includes(a))) {
          throw S.internal('error validating audiences');
        }
        status['user'] = result.user ? userInfoOf(result.user) : {};
        if (result.user && result.audiences?.length) status['audiences'] = [...result.audiences];
        if (result.error) status['error'] = result.error;
        obj['status'] = status;
        return obj;
      },
    ],
  ]);
}
