// What the server's authorizers grant a user in a namespace (authorizer.RuleResolver, the union's RulesFor),
// as SelfSubjectRulesReview reports it: the privileged group's and AlwaysAllow's everything, RBAC's rules.
import type { UserInfo } from '../api/user.js';
import { MASTERS_GROUP } from './authenticate.js';
import type { SubjectRules } from './authorize.js';

export type RulesFor = (user: UserInfo, namespace: string) => SubjectRules;

const EVERYTHING = (): SubjectRules => ({
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
});

/** The privileged-group authorizer's rules: everything for system:masters, nothing otherwise. */
export const privilegedGroupRules: RulesFor = (user) => (user.groups.includes(MASTERS_GROUP) ? EVERYTHING() : { resourceRules: [], nonResourceRules: [], incomplete: false });
export const alwaysAllowRules: RulesFor = EVERYTHING;
export const alwaysDenyRules: RulesFor = () => ({ resourceRules: [], nonResourceRules: [], incomplete: false });

/** The union's RulesFor: every resolver's rules in order; incomplete when any is; their errors joined. */
export function unionRulesFor(resolvers: readonly RulesFor[]): RulesFor {
  return (user, namespace) => {
    const out: SubjectRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
    const errors: string[] = [];
    for (const r of resolvers) {
      const rules = r(user, namespace);
      out.resourceRules.push(...rules.resourceRules);
      out.nonResourceRules.push(...rules.nonResourceRules);
      out.incomplete ||= rules.incomplete;
      if (rules.error) errors.push(rules.error);
    }
    if (errors.length) out.error = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    return out;
  };
}
