// RBAC's rule resolver (pkg/registry/rbac/validation/rule.go, DefaultRuleResolver) over in-memory caches of
// the four RBAC kinds: the rules a user holds in a namespace are those of the ClusterRoleBindings naming
// them, then those of the RoleBindings in that namespace. Bindings are indexed by subject (user name,
// group, ServiceAccount), so a decision looks at the bindings that name the user and no others, however
// many there are.
import type { UserInfo } from '../../api/user.js';
import type { JSONObject } from '../../util/json.js';
import { isObject } from '../../util/json.js';
import { rulesOf, type PolicyRule } from './policy-rule.js';

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

interface Subject {
  kind?: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}

/** Read access to the cached objects (an informer's cache), keyed namespace/name or name. */
export interface ObjectCache {
  get(key: string): JSONObject | undefined;
}

/** Where a rule came from, for errors and logs (kube's clusterRoleBindingDescriber and roleBindingDescriber). */
export interface RuleSource {
  binding: JSONObject;
  namespace: string;
}

/** Returns false to stop visiting. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, err: string | undefined) => boolean;

const SA_PREFIX = 'system:serviceaccount:';

const metaOf = (o: JSONObject): { name?: string; namespace?: string } => (isObject(o['metadata']) ? (o['metadata'] as { name?: string; namespace?: string }) : {});
export const roleRefOf = (binding: JSONObject): RoleRef => {
  const r = isObject(binding['roleRef']) ? binding['roleRef'] : {};
  const str = (k: string): string => (typeof r[k] === 'string' ? (r[k] as string) : '');
  return { apiGroup: str('apiGroup'), kind: str('kind'), name: str('name') };
};
const subjectsOf = (binding: JSONObject): Subject[] => (Array.isArray(binding['subjects']) ? (binding['subjects'] as Subject[]).filter(isObject) : []);

/**
 * Where a subject is found: users by name (a ServiceAccount by its user name), groups by name. A
 * ServiceAccount subject of a RoleBinding without a namespace names the binding's own namespace
 * (appliesToUser); one of a ClusterRoleBinding without one names nobody.
 */
function subjectSlot(s: Subject, bindingNamespace: string): { kind: 'user' | 'group'; name: string } | undefined {
  switch (s.kind) {
    case 'User':
      return { kind: 'user', name: s.name ?? '' };
    case 'Group':
      return { kind: 'group', name: s.name ?? '' };
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns ? { kind: 'user', name: `${SA_PREFIX}${ns}:${s.name ?? ''}` } : undefined;
    }
    default:
      return undefined;
  }
}

type Bindings = Map<string, JSONObject>;

interface NamespaceIndex {
  users: Map<string, Bindings>;
  groups: Map<string, Bindings>;
}

/**
 * Bindings by namespace ('' for ClusterRoleBindings), then by user or group name. A decision looks up the
 * user's name and each of their groups: no strings are made per request.
 */
export class BindingIndex {
  private readonly byNamespace = new Map<string, NamespaceIndex>();

  private static each(binding: JSONObject, fn: (slot: Map<string, Bindings>, name: string) => void, index: NamespaceIndex): void {
    const ns = metaOf(binding).namespace ?? '';
    for (const s of subjectsOf(binding)) {
      const slot = subjectSlot(s, ns);
      if (slot) fn(slot.kind === 'user' ? index.users : index.groups, slot.name);
    }
  }

  add(binding: JSONObject): void {
    const ns = metaOf(binding).namespace ?? '';
    let index = this.byNamespace.get(ns);
    if (!index) this.byNamespace.set(ns, (index = { users: new Map(), groups: new Map() }));
    const id = metaOf(binding).name ?? '';
    BindingIndex.each(
      binding,
      (slot, name) => {
        let m = slot.get(name);
        if (!m) slot.set(name, (m = new Map()));
        m.set(id, binding);
      },
      index,
    );
  }

  delete(binding: JSONObject): void {
    const ns = metaOf(binding).namespace ?? '';
    const index = this.byNamespace.get(ns);
    if (!index) return;
    const id = metaOf(binding).name ?? '';
    BindingIndex.each(
      binding,
      (slot, name) => {
        const m = slot.get(name);
        if (!m) return;
        m.delete(id);
        if (m.size === 0) slot.delete(name);
      },
      index,
    );
    if (index.users.size === 0 && index.groups.size === 0) this.byNamespace.delete(ns);
  }

  update(old: JSONObject, binding: JSONObject): void {
    this.delete(old);
    this.add(binding);
  }

  /**
   * The bindings in a namespace naming the user, each once (kube's listers have no order either: the
   * decision does not depend on it).
   */
  bindingsFor(user: UserInfo, namespace: string): Iterable<JSONObject> {
    const index = this.byNamespace.get(namespace);
    if (!index) return [];
    let single = index.users.get(user.name);
    let found: Bindings | undefined;
    for (const g of user.groups) {
      const m = index.groups.get(g);
      if (!m) continue;
      if (!single) {
        single = m;
        continue;
      }
      if (!found) found = new Map(single);
      for (const [id, b] of m) found.set(id, b);
    }
    return (found ?? single)?.values() ?? [];
  }

  /** Event handlers that keep the index in step with an informer. */
  handlers(): { add(o: JSONObject): void; update(old: JSONObject, o: JSONObject): void; delete(o: JSONObject): void } {
    return { add: (o) => this.add(o), update: (old, o) => this.update(old, o), delete: (o) => this.delete(o) };
  }
}

/** kube's NotFound wording for a role a binding refers to: its listers name the resource by the singular kind. */
const notFound = (resource: string, name: string): string => `${resource.replace(/s$/, '')}.rbac.authorization.k8s.io ${JSON.stringify(name)} not found`;

export class RuleResolver {
  constructor(
    private readonly roles: ObjectCache,
    private readonly clusterRoles: ObjectCache,
    private readonly roleBindings: BindingIndex,
    private readonly clusterRoleBindings: BindingIndex,
  ) {}

  /** GetRoleReferenceRules: the rules of the role a binding in `namespace` ('' for a ClusterRoleBinding) refers to. */
  roleReferenceRules(ref: RoleRef, namespace: string): { rules: PolicyRule[]; error?: string; missing?: { resource: string; name: string } } {
    switch (ref.kind) {
      case 'Role': {
        const role = namespace ? this.roles.get(`${namespace}/${ref.name}`) : undefined;
        return role ? { rules: rulesOf(role) } : { rules: [], error: notFound('roles', ref.name), missing: { resource: 'roles', name: ref.name } };
      }
      case 'ClusterRole': {
        const role = this.clusterRoles.get(ref.name);
        return role ? { rules: rulesOf(role) } : { rules: [], error: notFound('clusterroles', ref.name), missing: { resource: 'clusterroles', name: ref.name } };
      }
      default:
        return { rules: [], error: `unsupported role reference kind: ${JSON.stringify(ref.kind)}` };
    }
  }

  /** VisitRulesFor: cluster-wide rules first, then the namespace's. */
  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void {
    if (this.visitScope(this.clusterRoleBindings, user, '', visitor) && namespace) this.visitScope(this.roleBindings, user, namespace, visitor);
  }

  /** The rules of one scope's bindings naming the user; false when the visitor stopped. */
  private visitScope(index: BindingIndex, user: UserInfo, namespace: string, visitor: RuleVisitor): boolean {
    for (const binding of index.bindingsFor(user, namespace)) {
      const { rules, error } = this.roleReferenceRules(roleRefOf(binding), namespace);
      if (error !== undefined) {
        if (!visitor(undefined, undefined, error)) return false;
        continue;
      }
      const source = { binding, namespace };
      for (const rule of rules) if (!visitor(source, rule, undefined)) return false;
    }
    return true;
  }

  /** RulesFor: every rule, and the errors met resolving them (the rules are then possibly incomplete). */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_s, rule, err) => {
      if (rule) rules.push(rule);
      if (err !== undefined) errors.push(err);
      return true;
    });
    return { rules, errors };
  }
}
