// Kubernetes' authorization library (k8s.io/apiserver pkg/cel/library/authz.go, with the 1.31 selector
// builders): `authorizer.path(p).check(verb)`, `authorizer.group(g).resource(r).subresource(s)
// .namespace(n).name(x).check(verb)`, `authorizer.serviceAccount(ns, name)`, `authorizer.requestResource`,
// and the Decision accessors. The checks call the server's authorizer through the value they start from;
// each check costs 350,000, the builders and accessors 1, as kube prices them.
import type { Library } from '../decls.js';
import { BOOL, STRING, opaque, type CelType } from '../types.js';
import { OpaqueValue, type Val } from '../values.js';
import { member, maybeNoSuchOverload } from './support.js';

/** What a check asks, as an authorizer.AttributesRecord. */
export interface AuthzRequest {
  user: { name: string; groups: string[]; uid?: string; extra?: Record<string, string[]> };
  verb: string;
  resourceRequest: boolean;
  path: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector: string;
  labelSelector: string;
}

export interface AuthzDecision {
  decision: 'allow' | 'deny' | 'noOpinion';
  reason: string;
  error?: string;
}

export type AuthorizeFn = (req: AuthzRequest) => AuthzDecision;

export const AUTHORIZER_TYPE = opaque('kubernetes.authorization.Authorizer');
export const PATH_CHECK_TYPE = opaque('kubernetes.authorization.PathCheck');
export const GROUP_CHECK_TYPE = opaque('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK_TYPE = opaque('kubernetes.authorization.ResourceCheck');
export const DECISION_TYPE = opaque('kubernetes.authorization.Decision');

/** The cost of one authorization check: two fit in the per-call limit. */
const CHECK_COST = 350_000;

abstract class Identity extends OpaqueValue {
  equals(other: OpaqueValue): boolean {
    return other === this;
  }
}

export class AuthorizerValue extends Identity {
  readonly type = AUTHORIZER_TYPE;
  constructor(
    readonly user: AuthzRequest['user'],
    readonly authorize: AuthorizeFn,
  ) {
    super();
  }
}

class PathCheckValue extends Identity {
  readonly type = PATH_CHECK_TYPE;
  constructor(
    readonly authz: AuthorizerValue,
    readonly path: string,
  ) {
    super();
  }
}

class GroupCheckValue extends Identity {
  readonly type = GROUP_CHECK_TYPE;
  constructor(
    readonly authz: AuthorizerValue,
    readonly group: string,
  ) {
    super();
  }
}

interface ResourceFields {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector: string;
  labelSelector: string;
}

export class ResourceCheckValue extends Identity {
  readonly type = RESOURCE_CHECK_TYPE;
  constructor(
    readonly authz: AuthorizerValue,
    readonly r: ResourceFields,
  ) {
    super();
  }
  with(patch: Partial<ResourceFields>): ResourceCheckValue {
    return new ResourceCheckValue(this.authz, { ...this.r, ...patch });
  }
}

/** `authorizer.requestResource`: the request's own resource. */
export function requestResourceCheck(authz: AuthorizerValue, r: Pick<ResourceFields, 'group' | 'version' | 'resource' | 'subresource' | 'namespace' | 'name'>): ResourceCheckValue {
  return new ResourceCheckValue(authz, { ...r, fieldSelector: '', labelSelector: '' });
}

class DecisionValue extends Identity {
  readonly type = DECISION_TYPE;
  constructor(readonly d: AuthzDecision) {
    super();
  }
}

const str = (v: Val | undefined): string => (typeof v === 'string' ? v : '');

function check(authz: AuthorizerValue, req: Omit<AuthzRequest, 'user'>): DecisionValue {
  try {
    return new DecisionValue(authz.authorize({ ...req, user: authz.user }));
  } catch (e) {
    return new DecisionValue({ decision: 'noOpinion', reason: '', error: (e as Error).message });
  }
}

const builder = <T extends OpaqueValue>(id: string, recv: CelType, params: CelType[], result: CelType, cls: abstract new (...a: never[]) => T, make: (t: T, args: Val[]) => Val) =>
  member(id, [recv, ...params], result, (args) => (args[0] instanceof cls ? make(args[0] as T, args.slice(1)) : maybeNoSuchOverload(args[0]!)));

const resourceBuilder = (id: string, field: keyof ResourceFields) =>
  builder(id, RESOURCE_CHECK_TYPE, [STRING], RESOURCE_CHECK_TYPE, ResourceCheckValue, (rc, a) => rc.with({ [field]: str(a[0]) }));

const decisionAccessor = (id: string, result: CelType, get: (d: AuthzDecision) => Val) =>
  member(id, [DECISION_TYPE], result, (args) => (args[0] instanceof DecisionValue ? get(args[0].d) : maybeNoSuchOverload(args[0]!)));

export const AUTHZ_LIBRARY: Library = {
  name: 'kubernetes.authz',
  functions: [
    { name: 'path', overloads: [builder('authorizer_path', AUTHORIZER_TYPE, [STRING], PATH_CHECK_TYPE, AuthorizerValue, (a, args) => new PathCheckValue(a, str(args[0])))] },
    { name: 'group', overloads: [builder('authorizer_group', AUTHORIZER_TYPE, [STRING], GROUP_CHECK_TYPE, AuthorizerValue, (a, args) => new GroupCheckValue(a, str(args[0])))] },
    {
      name: 'serviceAccount',
      overloads: [
        builder('authorizer_serviceaccount', AUTHORIZER_TYPE, [STRING, STRING], AUTHORIZER_TYPE, AuthorizerValue, (a, args) => {
          const ns = str(args[0]);
          return new AuthorizerValue({ name: `system:serviceaccount:${ns}:${str(args[1])}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`] }, a.authorize);
        }),
      ],
    },
    {
      name: 'resource',
      overloads: [
        builder('groupcheck_resource', GROUP_CHECK_TYPE, [STRING], RESOURCE_CHECK_TYPE, GroupCheckValue, (g, args) =>
          new ResourceCheckValue(g.authz, { group: g.group, version: '*', resource: str(args[0]), subresource: '', namespace: '', name: '', fieldSelector: '', labelSelector: '' }),
        ),
      ],
    },
    { name: 'subresource', overloads: [resourceBuilder('resourcecheck_subresource', 'subresource')] },
    { name: 'namespace', overloads: [resourceBuilder('resourcecheck_namespace', 'namespace')] },
    { name: 'name', overloads: [resourceBuilder('resourcecheck_name', 'name')] },
    { name: 'fieldSelector', overloads: [resourceBuilder('resourcecheck_fieldselector', 'fieldSelector')] },
    { name: 'labelSelector', overloads: [resourceBuilder('resourcecheck_labelselector', 'labelSelector')] },
    {
      name: 'check',
      overloads: [
        member(
          'pathcheck_check',
          [PATH_CHECK_TYPE, STRING],
          DECISION_TYPE,
          (args) =>
            args[0] instanceof PathCheckValue
              ? check(args[0].authz, { verb: str(args[1]), resourceRequest: false, path: args[0].path, group: '', version: '', resource: '', subresource: '', namespace: '', name: '', fieldSelector: '', labelSelector: '' })
              : maybeNoSuchOverload(args[0]!),
          () => CHECK_COST,
        ),
        member(
          'resourcecheck_check',
          [RESOURCE_CHECK_TYPE, STRING],
          DECISION_TYPE,
          (args) => (args[0] instanceof ResourceCheckValue ? check(args[0].authz, { verb: str(args[1]), resourceRequest: true, path: '', ...args[0].r }) : maybeNoSuchOverload(args[0]!)),
          () => CHECK_COST,
        ),
      ],
    },
    { name: 'errored', overloads: [decisionAccessor('decision_errored', BOOL, (d) => d.error !== undefined)] },
    { name: 'error', overloads: [decisionAccessor('decision_error', STRING, (d) => d.error ?? '')] },
    { name: 'allowed', overloads: [decisionAccessor('decision_allowed', BOOL, (d) => d.decision === 'allow')] },
    { name: 'reason', overloads: [decisionAccessor('decision_reason', STRING, (d) => d.reason)] },
  ],
};

