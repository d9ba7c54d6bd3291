// Escalation prevention: kube's policybased storage wrappers of the four RBAC registries
// (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased, escalation_check.go),
// here a step of admission that runs after the mutating plugins and before the strategy, where kube's
// wrappers sit. A user may write a role only with rules they hold themselves, unless they may `escalate`
// roles; a binding only to a role they may `bind` or whose rules they hold. system:masters and the
// server's own writes are exempt. Updates that only touch what the garbage collector writes pass.
import * as S from '../../api/status.js';
import type { UserInfo } from '../../api/user.js';
import type { AdmissionAttributes, Operation } from '../../registry/admission.js';
import type { JSONObject } from '../../util/json.js';
import { isObject } from '../../util/json.js';
import { MASTERS_GROUP } from '../authenticate.js';
import type { Authorize } from '../authorize.js';
import { compactRules, compactString, covers, goQuotedList, goRulesOf, type PolicyRule } from './policy-rule.js';
import { roleRefOf, type RuleResolver } from './rule-resolver.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const ROLE_RESOURCES = new Set(['roles', 'clusterroles']);
const BINDING_RESOURCES = new Set(['rolebindings', 'clusterrolebindings']);

/** What it takes to set an aggregationRule: everything (it can gather any rule). */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** ConfirmNoEscalation: undefined when the user's rules in the namespace cover `rules`, else kube's message. */
export function confirmNoEscalation(resolver: RuleResolver, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const { rules: owned, errors } = resolver.rulesFor(user, namespace);
  const { covered, missing } = covers(owned, rules);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.name)} (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  if (errors.length) msg += `; resolution errors: [${errors.join(' ')}]`;
  return msg;
}

/** IsOnlyMutatingGCFields: equal but for owner references, finalizers and managed fields (and what the server keeps). */
function onlyGCFieldsChange(obj: JSONObject, old: JSONObject): boolean {
  const strip = (o: JSONObject): string => {
    const copy = structuredClone(o);
    const meta = isObject(copy['metadata']) ? copy['metadata'] : {};
    for (const k of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields', 'resourceVersion', 'uid', 'creationTimestamp', 'generation']) delete meta[k];
    copy['metadata'] = meta;
    return JSON.stringify(normalize(copy));
  };
  return strip(obj) === strip(old);
}

/** Semantic equality's view: empty and absent lists and maps are equal; keys in order. */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = v[k];
    if (x === null || x === undefined || (Array.isArray(x) && x.length === 0) || (isObject(x) && Object.keys(x).length === 0)) continue;
    out[k] = normalize(x);
  }
  return out;
}

interface EscalationDeps {
  /** The server's whole authorizer (privileged groups and the modes), for the `escalate` and `bind` checks. */
  authorize: Authorize;
  resolver: () => RuleResolver | undefined;
  /**
   * Resolves once the resolver's caches hold what the stores hold: kube's storage wrappers read roles and
   * bindings from storage, so a role or binding written a moment ago must count.
   */
  synced?: () => Promise<void>;
}

/** As an admission plugin (src/admission/chain.ts's shape): refuses creates and updates that escalate. */
export function rbacEscalationCheck(deps: EscalationDeps): { name: string; operations: readonly Operation[]; admit(a: AdmissionAttributes): Promise<void> | undefined } {
  return {
    name: 'RBACEscalation',
    operations: ['CREATE', 'UPDATE'],
    // Not an async function: a write of anything but RBAC's objects passes without a promise to await.
    admit(a) {
      if (a.resource.group !== RBAC_GROUP || a.subresource !== '' || !a.object) return;
      return checkEscalation(deps, a, a.object);
    },
  };
}

async function checkEscalation(deps: EscalationDeps, a: AdmissionAttributes, obj: JSONObject): Promise<void> {
  const user = a.user;
  // EscalationAllowed: the server's own writes, and system:masters.
  if (!user || user.groups.includes(MASTERS_GROUP)) return;
  const resolver = deps.resolver();
  if (!resolver) return;
  await deps.synced?.();
  const resource = a.resource.resource;
  const gr = { group: RBAC_GROUP, resource };
  const name = isObject(obj['metadata']) && typeof obj['metadata']['name'] === 'string' ? obj['metadata']['name'] : '';
  const authorize = deps.authorize;
  if (a.operation === 'UPDATE' && a.oldObject && onlyGCFieldsChange(obj, a.oldObject)) return;
  if (ROLE_RESOURCES.has(resource)) {
    // RoleEscalationAuthorized: `escalate` on the role resource (named by the URL: none on a create).
    const escalate = authorize({
      user,
      verb: 'escalate',
      isResourceRequest: true,
      path: '',
      group: RBAC_GROUP,
      version: '*',
      resource,
      subresource: '',
      namespace: a.namespace,
      name: a.operation === 'CREATE' ? '' : a.name,
    });
    if (escalate.allowed) return;
    const why = confirmNoEscalation(resolver, user, a.namespace, goRulesOf(obj));
    if (why) throw S.forbidden(gr, name, why);
    const aggregated = isObject(obj['aggregationRule']) || (a.operation === 'UPDATE' && isObject(a.oldObject?.['aggregationRule']));
    if (resource === 'clusterroles' && aggregated) {
      const changed = a.operation === 'CREATE' || JSON.stringify(obj['aggregationRule'] ?? null) !== JSON.stringify(a.oldObject?.['aggregationRule'] ?? null);
      if (changed && confirmNoEscalation(resolver, user, a.namespace, FULL_AUTHORITY)) {
        throw S.forbidden(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    }
    return;
  }
  if (!BINDING_RESOURCES.has(resource)) return;
  const ref = roleRefOf(obj);
  // BindingAuthorized: `bind` on the role, checked in the binding's namespace ('' for ClusterRoleBindings).
  const roleResource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : '';
  if (roleResource) {
    const bind = authorize({
      user,
      verb: 'bind',
      isResourceRequest: true,
      path: '',
      group: ref.apiGroup,
      resource: roleResource,
      subresource: '',
      namespace: a.namespace,
      name: ref.name,
    });
    if (bind.allowed) return;
  }
  const { rules, error, missing } = resolver.roleReferenceRules(ref, a.namespace);
  if (error !== undefined) throw missing ? S.notFound({ group: RBAC_GROUP, resource: missing.resource }, missing.name) : S.plainError(error);
  const why = confirmNoEscalation(resolver, user, a.namespace, rules);
  if (why) throw S.forbidden(gr, name, why);
}
