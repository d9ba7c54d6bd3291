// Which FlowSchema a request belongs to: kube's rule.go over plain JSON. A schema matches when one of its
// rules has a subject naming the user (by name, group or ServiceAccount) and a resource rule (resource
// requests) or non-resource rule (other paths) covering the request.
import type { UserInfo } from '../../api/user.js';
import type { RequestInfo } from '../request-info.js';
import type { FlowSchema, NonResourcePolicyRule, PolicyRulesWithSubjects, ResourcePolicyRule, Subject } from './types.js';

const SA_PREFIX = 'system:serviceaccount:';

export function matchesFlowSchema(info: RequestInfo, user: UserInfo, fs: FlowSchema): boolean {
  return (fs.spec.rules ?? []).some((rule) => matchesPolicyRule(info, user, rule));
}

function matchesPolicyRule(info: RequestInfo, user: UserInfo, rule: PolicyRulesWithSubjects): boolean {
  if (!rule.subjects.some((s) => matchesSubject(user, s))) return false;
  return info.isResourceRequest
    ? (rule.resourceRules ?? []).some((r) => matchesResourceRule(info, r))
    : (rule.nonResourceRules ?? []).some((r) => matchesNonResourceRule(info, r));
}

function matchesSubject(user: UserInfo, s: Subject): boolean {
  switch (s.kind) {
    case 'User':
      return s.user !== undefined && (s.user.name === '*' || s.user.name === user.name);
    case 'Group':
      return s.group !== undefined && (s.group.name === '*' || user.groups.includes(s.group.name));
    case 'ServiceAccount': {
      const sa = s.serviceAccount;
      if (!sa) return false;
      // "*" names every ServiceAccount of the namespace; kube checks only the prefix up to the separator.
      if (sa.name === '*') return user.name.startsWith(`${SA_PREFIX}${sa.namespace}:`);
      return user.name === `${SA_PREFIX}${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

/** A list naming the value, or holding only the wildcard. */
const contains = (x: string, list: readonly string[] | undefined, wildcard: string): boolean =>
  list !== undefined && ((list.length === 1 && list[0] === wildcard) || list.includes(x));

function matchesResourceRule(info: RequestInfo, r: ResourcePolicyRule): boolean {
  if (!contains(info.verb, r.verbs, '*')) return false;
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  if (!contains(resource, r.resources, '*')) return false;
  if (!contains(info.apiGroup, r.apiGroups, '*')) return false;
  if (info.namespace === '') return r.clusterScope === true;
  return contains(info.namespace, r.namespaces, '*');
}

function matchesNonResourceRule(info: RequestInfo, r: NonResourcePolicyRule): boolean {
  if (!contains(info.verb, r.verbs, '*')) return false;
  return r.nonResourceURLs.some((url) => {
    if (url === '*' || url === info.path) return true;
    // "/healthz/*" and "/healthz/" both cover what lies under /healthz/.
    let prefix = url.endsWith('*') ? url.slice(0, -1) : url;
    if (!prefix.endsWith('/')) prefix += '/';
    return info.path.startsWith(prefix);
  });
}
