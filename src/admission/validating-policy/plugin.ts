// The ValidatingAdmissionPolicy admission plugin (k8s.io/apiserver pkg/admission/plugin/policy/validating
// dispatcher.go over generic/policy_source.go): policies and bindings read from informers over our own
// stores, each policy compiled once per generation; for every matching policy, every matching binding,
// every param it selects, the policy is evaluated and its failures enforced as the binding's
// validationActions say (Deny: the request is refused; Warn: a Warning header; Audit: an audit annotation).
import * as S from '../../api/status.js';
import type { JSONObject } from '../../util/json.js';
import { isObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { Informer } from '../../controllers/informer.js';
import { labelSelectorAsSelector, matchesLabels } from '../../registry/selectors.js';
import type { AdmissionPlugin } from '../chain.js';
import { isExemptAdmissionConfigurationResource } from '../webhook-rules.js';
import { admissionRequest } from '../webhook-review.js';
import { compilePolicy, type CompiledPolicy } from './compile.js';
import { matches, requestGVR, type GVK, type GVR, type MatchContext } from './matching.js';
import { validate, type PolicyDecision } from './evaluate.js';
import { addCurrentAuditAnnotation } from '../../audit/record.js';
import { AuthorizerValue, requestResourceCheck, type AuthorizeFn } from '../../cel/lib/authz.js';

/** Where a paramKind's objects are read: one served resource's store. */
export interface ParamSource {
  namespaced: boolean;
  get(namespace: string, name: string): Promise<JSONObject | undefined>;
  list(namespace: string): Promise<JSONObject[]>;
}

export interface PolicyPluginOptions {
  policies: Pick<Informer, 'list' | 'addEventHandler'>;
  bindings: Pick<Informer, 'list' | 'addEventHandler'>;
  namespace(name: string): Promise<JSONObject | undefined>;
  equivalents: MatchContext['equivalents'];
  /** The store of a paramKind, or undefined when nothing serves it. */
  params(apiVersion: string, kind: string): ParamSource | undefined;
  /** The server's authorizer, for the `authorizer` variable; absent: every check has no opinion. */
  authorize?: AuthorizeFn;
}

interface Hook {
  policy: JSONObject;
  compiled: CompiledPolicy;
  bindings: JSONObject[];
}

interface Denial {
  policy: string;
  binding?: string;
  decision: PolicyDecision;
}

const specOf = (o: JSONObject): JSONObject => (isObject(o['spec']) ? (o['spec'] as JSONObject) : {});
const metaOf = (o: JSONObject): JSONObject => (isObject(o['metadata']) ? (o['metadata'] as JSONObject) : {});
const nameOf = (o: JSONObject): string => String(metaOf(o)['name'] ?? '');

/** gogo-protobuf's ParamKind.String(), as kube's "not known" error prints it. */
const paramKindString = (pk: { apiVersion: string; kind: string }): string => `&ParamKind{APIVersion:${pk.apiVersion},Kind:${pk.kind},}`;

/** reasonToCode. */
function codeOf(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}

/** admission.NewForbidden's name: the request's, else the object's name or generateName, else "Unknown". */
function admissionName(a: AdmissionAttributes): string {
  if (a.name) return a.name;
  const m = a.object ? metaOf(a.object) : undefined;
  if (!m) return 'Unknown';
  return (typeof m['name'] === 'string' && m['name']) || (typeof m['generateName'] === 'string' && m['generateName']) || 'Unknown';
}

/**
 * CreateAdmissionRequest, as ToUnstructured writes it (omitempty fields left out): the webhooks' own request
 * (a namespace's requests naming it as their namespace, the operation's options with dryRun), without the uid
 * and the objects, which the policy's CEL has as variables of their own.
 */
function policyRequest(a: AdmissionAttributes, resource: GVR, kind: GVK): JSONObject {
  const { uid: _uid, object: _object, oldObject: _oldObject, ...request } = admissionRequest('', a, { resource, kind });
  return request;
}

/** CreateNamespaceObject: the namespace's status, spec and a subset of its metadata. */
function namespaceObject(ns: JSONObject): JSONObject {
  const m = metaOf(ns);
  const meta: JSONObject = {};
  for (const k of ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers']) {
    if (m[k] !== undefined) meta[k === 'uid' ? 'UID' : k] = m[k]!;
  }
  return { metadata: meta, spec: ns['spec'] ?? {}, status: ns['status'] ?? {} };
}


export class ValidatingAdmissionPolicyPlugin implements AdmissionPlugin {
  readonly name = 'ValidatingAdmissionPolicy';
  readonly operations = ['CREATE', 'UPDATE', 'DELETE'] as const;
  /** Compiled policies by name, kept while uid and generation stay the same. */
  private readonly compiled = new Map<string, { uid: unknown; generation: unknown; compiled: CompiledPolicy }>();
  private hooks?: Hook[];

  constructor(private readonly o: PolicyPluginOptions) {
    const dirty = { add: () => (this.hooks = undefined), update: () => (this.hooks = undefined), delete: () => (this.hooks = undefined) };
    o.policies.addEventHandler(dirty);
    o.bindings.addEventHandler(dirty);
  }

  /** The policies that have bindings, by name, with their bindings by name: the dispatcher's order. */
  private currentHooks(): Hook[] {
    if (this.hooks) return this.hooks;
    const byPolicy = new Map<string, JSONObject[]>();
    for (const b of this.o.bindings.list()) {
      const p = String(specOf(b)['policyName'] ?? '');
      byPolicy.set(p, [...(byPolicy.get(p) ?? []), b]);
    }
    const hooks: Hook[] = [];
    const live = new Set<string>();
    for (const policy of this.o.policies.list()) {
      const name = nameOf(policy);
      live.add(name);
      const bindings = byPolicy.get(name);
      if (!bindings?.length) continue;
      hooks.push({ policy, compiled: this.compile(policy), bindings: bindings.sort((a, b) => nameOf(a).localeCompare(nameOf(b))) });
    }
    for (const k of [...this.compiled.keys()]) if (!live.has(k)) this.compiled.delete(k);
    hooks.sort((a, b) => a.compiled.name.localeCompare(b.compiled.name));
    return (this.hooks = hooks);
  }

  private compile(policy: JSONObject): CompiledPolicy {
    const m = metaOf(policy);
    const name = nameOf(policy);
    const c = this.compiled.get(name);
    if (c && c.uid === m['uid'] && c.generation === m['generation']) return c.compiled;
    const compiled = compilePolicy(policy);
    this.compiled.set(name, { uid: m['uid'], generation: m['generation'], compiled });
    return compiled;
  }

  /** Not an async function: with no policy to run (most servers, most writes), nothing to await. */
  validate(a: AdmissionAttributes): Promise<void> | undefined {
    if (isExemptAdmissionConfigurationResource(a.resource)) return;
    const hooks = this.currentHooks();
    if (hooks.length === 0) return;
    return this.validateWith(a, hooks);
  }

  private async validateWith(a: AdmissionAttributes, hooks: Hook[]): Promise<void> {
    const ctx: MatchContext = {
      namespaceLabels: async (name) => {
        const ns = await this.o.namespace(name);
        const labels = ns ? metaOf(ns)['labels'] : undefined;
        return isObject(labels) ? (labels as Record<string, string>) : ns ? {} : undefined;
      },
      equivalents: this.o.equivalents,
    };
    const denials: Denial[] = [];
    const auditFailures: { message: string; policy: string; binding: string; expressionIndex: number; validationActions: string[] }[] = [];
    let namespace: JSONObject | null | undefined;
    // One authorizer per request, as kube's caching authorizer (the checks are decided afresh here).
    const authorizer = new AuthorizerValue(a.user ?? { name: '', groups: [] }, this.o.authorize ?? (() => ({ decision: 'noOpinion', reason: '' })));
    const requestResource = requestResourceCheck(authorizer, { ...requestGVR(a), subresource: a.subresource, namespace: a.namespace, name: a.name });
    for (const hook of hooks) {
      const policy = hook.compiled;
      const fp = policy.failurePolicy;
      const configError = (message: string, binding?: string): void => {
        if (fp === 'Ignore') return;
        denials.push({ policy: policy.name, ...(binding !== undefined ? { binding } : {}), decision: { action: 'deny', evaluation: 'error', message } });
      };
      if (!policy.matchConstraints) continue;
      const pm = await matches(policy.matchConstraints, a, ctx);
      if (!pm.matches) {
        if (pm.error) configError(`failed to configure policy: ${pm.error.message}`);
        continue;
      }
      for (const binding of hook.bindings) {
        const bspec = specOf(binding);
        const bname = nameOf(binding);
        if (isObject(bspec['matchResources'])) {
          const bm = await matches(bspec['matchResources'] as JSONObject, a, ctx);
          if (!bm.matches) {
            if (bm.error) configError(`failed to configure binding: ${bm.error.message}`, bname);
            continue;
          }
        }
        const params = await this.collectParams(policy, bspec['paramRef'], a.namespace);
        if (typeof params === 'string') {
          configError(`failed to configure binding: ${params}`, bname);
          continue;
        }
        // A Namespace's own requests have no namespaceObject.
        const nsName = a.resource.group === '' && a.resource.kind === 'Namespace' ? '' : a.namespace;
        if (nsName && namespace === undefined) {
          const ns = await this.o.namespace(nsName);
          if (!ns) throw S.notFound({ group: '', resource: 'namespaces' }, nsName);
          namespace = ns;
        }
        const request = policyRequest(a, pm.resource, pm.kind);
        const actions = Array.isArray(bspec['validationActions']) ? (bspec['validationActions'] as string[]) : [];
        for (const param of params) {
          const result = validate(policy, {
            ...(a.object ? { object: a.object } : {}),
            ...(a.oldObject ? { oldObject: a.oldObject } : {}),
            request,
            params: param,
            ...(nsName && namespace ? { namespaceObject: namespaceObject(namespace) } : {}),
            authorizer,
            requestResource,
          });
          result.decisions.forEach((d, expressionIndex) => {
            if (d.action !== 'deny') return;
            for (const action of actions) {
              if (action === 'Deny') denials.push({ policy: policy.name, binding: bname, decision: d });
              else if (action === 'Warn') a.warnings?.push(`Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${bname}': ${d.message}`);
            }
            // Audit: the failure goes into the audit event's validation_failure annotation, as kube records it.
            if (actions.includes('Audit')) auditFailures.push({ message: d.message, policy: policy.name, binding: bname, expressionIndex, validationActions: actions });
          });
          for (const aa of result.auditAnnotations) {
            if (aa.action === 'publish') addCurrentAuditAnnotation(`${policy.name}/${aa.key}`, aa.value ?? '');
            if (aa.action === 'error') denials.push({ policy: policy.name, binding: bname, decision: { action: 'deny', evaluation: 'error', message: aa.error ?? '' } });
          }
        }
      }
    }
    if (auditFailures.length) addCurrentAuditAnnotation('validation.policy.admission.k8s.io/validation_failure', JSON.stringify(auditFailures));
    const first = denials[0];
    if (!first) return;
    const message =
      first.binding !== undefined
        ? `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.decision.message}`
        : `ValidatingAdmissionPolicy '${first.policy}' denied request: ${first.decision.message}`;
    const err = S.forbidden({ group: a.resource.group, resource: a.resource.resource }, admissionName(a), message);
    const reason = first.decision.reason || 'Invalid';
    err.status.reason = reason;
    err.status.code = codeOf(reason);
    err.status.details = { ...(err.status.details ?? {}), causes: [...(err.status.details?.causes ?? []), { message }] };
    throw err;
  }

  /** CollectParams: the params a binding selects ([null] without paramKind or paramRef), or the configuration error. */
  private async collectParams(policy: CompiledPolicy, ref: unknown, namespace: string): Promise<(JSONObject | null)[] | string> {
    const pk = policy.paramKind;
    if (!pk || !isObject(ref)) return [null];
    const source = this.o.params(pk.apiVersion, pk.kind);
    if (!source) return `paramKind kind \`${paramKindString(pk)}\` not known`;
    const r = ref as JSONObject;
    const refNs = typeof r['namespace'] === 'string' ? r['namespace'] : '';
    let ns = '';
    if (source.namespaced) {
      ns = refNs || namespace;
      if (!ns) return 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources';
    } else if (refNs) return 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`';
    let params: JSONObject[];
    if (typeof r['name'] === 'string' && r['name'] !== '') {
      const p = await source.get(ns, r['name']);
      params = p ? [p] : [];
    } else if (isObject(r['selector'])) {
      const sel = labelSelectorAsSelector(r['selector'] as never);
      params = (await source.list(ns)).filter((p) => matchesLabels(sel, (metaOf(p)['labels'] as Record<string, string> | undefined) ?? {}));
    } else return 'one of name or selector must be provided';
    if (params.length === 0 && r['parameterNotFoundAction'] === 'Deny') return 'no params found for policy binding with `Deny` parameterNotFoundAction';
    return params;
  }
}
