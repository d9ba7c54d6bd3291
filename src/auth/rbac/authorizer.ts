// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac/rbac.go) over informers on the server's own RBAC
// stores: a request is allowed when a rule the user holds in its namespace (cluster-wide rules included)
// allows it. Decisions read memory only, so `authorize` stays synchronous. A denial has no reason unless
// resolving the user's bindings failed (a binding naming a missing role): "RBAC: <errors>".
import type { UserInfo } from '../../api/user.js';
import type { JSONObject } from '../../util/json.js';
import { Informer, type InformerSource } from '../../controllers/informer.js';
import type { AuthorizerHooks, Decision, RequestAttributes, SubjectRules } from '../authorize.js';
import { ruleAllows, type PolicyRule } from './policy-rule.js';
import { BindingIndex, RuleResolver } from './rule-resolver.js';

export interface RbacStores {
  roles: InformerSource;
  roleBindings: InformerSource;
  clusterRoles: InformerSource;
  clusterRoleBindings: InformerSource;
}


/** utilerrors.NewAggregate(errs).Error(): one message alone, several as [a, b], duplicates once. */
export function aggregateMessage(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

export class RbacAuthorizer implements AuthorizerHooks {
  readonly resolver: RuleResolver;
  /** The caches, by kind: shared with what else reads these kinds on this server (the bootstrap policy's reconcile, aggregation). */
  readonly caches: { readonly [K in keyof RbacStores]: Informer };
  private readonly informers: Informer[];

  constructor(stores: RbacStores) {
    const roles = new Informer(stores.roles, { name: 'roles' });
    const clusterRoles = new Informer(stores.clusterRoles, { name: 'clusterroles' });
    const roleBindings = new Informer(stores.roleBindings, { name: 'rolebindings' });
    const clusterRoleBindings = new Informer(stores.clusterRoleBindings, { name: 'clusterrolebindings' });
    const rbIndex = new BindingIndex();
    const crbIndex = new BindingIndex();
    roleBindings.addEventHandler(rbIndex.handlers());
    clusterRoleBindings.addEventHandler(crbIndex.handlers());
    this.resolver = new RuleResolver(roles, clusterRoles, rbIndex, crbIndex);
    this.caches = { roles, clusterRoles, roleBindings, clusterRoleBindings };
    this.informers = [roles, clusterRoles, roleBindings, clusterRoleBindings];
  }

  /** Lists the four kinds and starts watching them; resolves once the caches are full. */
  async start(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.start()));
  }

  stop(): void {
    for (const i of this.informers) i.stop();
  }

  /** An object as the cache of its kind holds it (namespace empty for the cluster kinds): shared, read-only. */
  cached(kind: keyof RbacStores, namespace: string, name: string): JSONObject | undefined {
    return this.caches[kind].get(namespace ? `${namespace}/${name}` : name);
  }

  /** Resolves once the caches hold what the stores hold now (after the server's own writes). */
  async waitForStores(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.waitForStore()));
  }

  readonly authorize = (attrs: RequestAttributes): Decision => {
    let allowed = false;
    let errors: string[] | undefined;
    this.resolver.visitRulesFor(attrs.user, attrs.namespace, (_source, rule, err) => {
      if (rule && ruleAllows(attrs, rule)) {
        allowed = true;
        return false;
      }
      if (err !== undefined) (errors ??= []).push(err);
      return true;
    });
    if (allowed) return { allowed: true, reason: '' };
    return { allowed: false, reason: errors ? `RBAC: ${aggregateMessage(errors)}` : '' };
  };

  /** The rules a user holds in a namespace (RBAC's RulesFor as SelfSubjectRulesReview shows them). */
  readonly rulesFor = (user: UserInfo, namespace: string): SubjectRules => {
    const { rules, errors } = this.resolver.rulesFor(user, namespace);
    const out: SubjectRules = { resourceRules: [], nonResourceRules: [], incomplete: errors.length > 0 };
    for (const r of rules as PolicyRule[]) {
      if (r.nonResourceURLs?.length) out.nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] });
      else out.resourceRules.push({ verbs: [...r.verbs], apiGroups: [...(r.apiGroups ?? [])], resources: [...(r.resources ?? [])], resourceNames: [...(r.resourceNames ?? [])] });
    }
    if (errors.length) out.error = aggregateMessage(errors);
    return out;
  };
}
