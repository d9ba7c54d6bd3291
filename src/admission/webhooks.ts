// The MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins (k8s.io/apiserver pkg/admission/plugin/webhook
// {generic,mutating,validating}): the webhooks of the stored configurations (read through informers, in name
// order) that a request concerns are called, mutating ones one after the other with their JSONPatches applied
// (IfNeeded ones called once more when a later webhook changed the object), validating ones all at once.
import type { JSONObject } from '../util/json.js';
import { deepEqual, isObject, deepCopyJSON } from '../util/json.js';
import * as S from '../api/status.js';
import type { ServedResource } from '../api/resource.js';
import type { AdmissionAttributes } from '../registry/admission.js';
import { applyJsonPatch } from '../registry/patch.js';
import type { GenericStore } from '../registry/store.js';
import { metaOf } from '../registry/store.js';
import type { ServiceResolver } from '../conversion/types.js';
import { Informer } from '../controllers/informer.js';
import type { AdmissionPlugin } from './chain.js';
import { isExemptAdmissionConfigurationResource, matchingResource, namespaceSelectorMatches, objectSelectorMatches, type GVR, type NamespaceLabels, type RuleRequest } from './webhook-rules.js';
import { celAdmissionRequest, requestKind, type Invocation } from './webhook-review.js';
import { callWebhook, type CallOutcome } from './webhook-call.js';
import { evaluateMatchConditions } from './webhook-match-conditions.js';
import { AuthorizerValue, requestResourceCheck, type AuthorizeFn } from '../cel/lib/authz.js';

/** One webhook of a configuration, with kube's accessor uid `<configuration>/<webhook>/<index>`. */
interface WebhookAccessor {
  uid: string;
  hook: JSONObject;
}

/** What the plugins need of the rest of the server. */
export interface WebhookDependencies {
  resolver: ServiceResolver;
  namespaceLabels: NamespaceLabels;
  /** Every served version of the same resource (custom resources: the CRD's served versions), for matchPolicy Equivalent. */
  equivalents(resource: ServedResource): ServedResource[];
  /** An object of `from`'s version converted to `to`'s (another version of the same resource). */
  convert(obj: JSONObject, from: ServedResource, to: ServedResource): Promise<JSONObject>;
  /** Decodes a patched object as a request body of the resource is decoded (defaults; a custom resource's pruning). */
  decode?(obj: JSONObject, resource: ServedResource): void;
  /** The server's authorizer, for matchConditions' `authorizer`; absent: every check has no opinion. */
  authorize?: AuthorizeFn;
  /** Told of each call, as kube's dispatchers record apiserver_admission_webhook_* metrics. */
  observe?: WebhookCallObserver;
}

/** One webhook call: type "admit" (mutating) or "validating"; the code is 200, the refusal's, or the call error's. */
export interface WebhookCall {
  name: string;
  type: 'admit' | 'validating';
  operation: string;
  rejected: boolean;
  code: number;
  seconds: number;
  /** Set when the call failed the request (kube's rejection count). */
  rejection?: 'calling_webhook_error' | 'no_error';
}
export type WebhookCallObserver = (call: WebhookCall) => void;

/** callWebhook, timed and reported as kube's dispatchers do: a call error counts as a rejection unless the policy is Ignore. */
async function observedCall(hook: JSONObject, a: AdmissionAttributes, inv: Invocation, mutating: boolean, deps: WebhookDependencies): Promise<CallOutcome> {
  if (!deps.observe) return callWebhook(hook, a, inv, mutating, deps.resolver);
  const start = performance.now();
  const outcome = await callWebhook(hook, a, inv, mutating, deps.resolver);
  const seconds = (performance.now() - start) / 1000;
  if (a.latency) {
    if (mutating) a.latency.mutatingWebhookSeconds += seconds;
    else a.latency.validatingWebhookSeconds = Math.max(a.latency.validatingWebhookSeconds, seconds);
  }
  const base = { name: String(hook['name'] ?? ''), type: mutating ? ('admit' as const) : ('validating' as const), operation: a.operation, seconds };
  if (outcome.kind === 'ok') deps.observe({ ...base, rejected: false, code: 200 });
  else if (outcome.kind === 'refused') deps.observe({ ...base, rejected: true, code: outcome.error.code, rejection: 'no_error' });
  else {
    const rejected = hook['failurePolicy'] !== 'Ignore';
    deps.observe({ ...base, rejected, code: outcome.code, ...(rejected ? { rejection: 'calling_webhook_error' as const } : {}) });
  }
  return outcome;
}

/** The stored configurations, from informers over their stores. */
export class WebhookConfigurations {
  private readonly mutatingInformer: Informer;
  private readonly validatingInformer: Informer;

  /**
   * The accessors of each kind, made on the first write after the configurations changed (every write asks for
   * both, and they seldom change); the informer tells of every change as it makes it.
   */
  private mutatingAccessors: readonly WebhookAccessor[] | undefined;
  private validatingAccessors: readonly WebhookAccessor[] | undefined;

  constructor(mutating: GenericStore, validating: GenericStore) {
    this.mutatingInformer = new Informer(mutating, { name: 'mutatingwebhookconfigurations' });
    this.validatingInformer = new Informer(validating, { name: 'validatingwebhookconfigurations' });
    const forgetMutating = (): void => void (this.mutatingAccessors = undefined);
    const forgetValidating = (): void => void (this.validatingAccessors = undefined);
    this.mutatingInformer.addEventHandler({ add: forgetMutating, update: forgetMutating, delete: forgetMutating });
    this.validatingInformer.addEventHandler({ add: forgetValidating, update: forgetValidating, delete: forgetValidating });
  }

  async start(): Promise<void> {
    await Promise.all([this.mutatingInformer.start(), this.validatingInformer.start()]);
  }

  stop(): void {
    this.mutatingInformer.stop();
    this.validatingInformer.stop();
  }

  /** Resolves once both caches hold what the stores hold now (tests; a write right after a configuration). */
  async waitForStores(): Promise<void> {
    await Promise.all([this.mutatingInformer.waitForStore(), this.validatingInformer.waitForStore()]);
  }

  mutating(): readonly WebhookAccessor[] {
    return (this.mutatingAccessors ??= accessors(this.mutatingInformer.list()));
  }

  validating(): readonly WebhookAccessor[] {
    return (this.validatingAccessors ??= accessors(this.validatingInformer.list()));
  }
}

/** Configurations sorted by name, as kube's configuration managers sort them, each webhook in order. */
function accessors(configs: JSONObject[]): WebhookAccessor[] {
  const named = configs.map((c) => ({ name: metaOf(c).name ?? '', c })).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return named.flatMap(({ name, c }) =>
    (Array.isArray(c['webhooks']) ? c['webhooks'] : []).filter(isObject).map((hook, i) => ({ uid: `${name}/${String(hook['name'] ?? '')}/${i}`, hook })),
  );
}


const gvrOf = (r: ServedResource): GVR => ({ group: r.group, version: r.version, resource: r.resource });
const ruleRequest = (a: AdmissionAttributes): RuleRequest => ({ operation: a.operation, resource: gvrOf(a.resource), subresource: a.subresource, namespace: a.namespace, name: a.name });

/**
 * ShouldCallHook: the resource the webhook is called for, with the object at its version, or undefined when the
 * webhook does not apply; a StatusError for a missing namespace or failing match conditions.
 */
async function shouldCallHook(hook: JSONObject, a: AdmissionAttributes, deps: WebhookDependencies): Promise<{ invocation: Invocation; served: ServedResource } | undefined> {
  const req = ruleRequest(a);
  // As kube's ShouldCallHook: a selector's error (a missing namespace, one that does not parse) only counts for a
  // webhook whose rules match.
  const ns = await namespaceSelectorMatches(hook, { ...req, object: a.object, oldObject: a.oldObject }, deps.namespaceLabels);
  if (!ns.matches && ns.notFound === undefined && ns.error === undefined) return undefined;
  const objectMatch = objectSelectorMatches(hook, a.object, a.oldObject);
  if (objectMatch === false) return undefined;
  const equivalents = hook['matchPolicy'] === 'Equivalent' ? deps.equivalents(a.resource) : [];
  const gvr = matchingResource(hook, req, equivalents.map(gvrOf));
  if (!gvr) return undefined;
  if (ns.error !== undefined) throw S.internal(ns.error);
  if (ns.notFound !== undefined) throw S.notFound({ group: '', resource: 'namespaces' }, ns.notFound);
  if (objectMatch !== true) throw S.internal(objectMatch.error);
  const served = equivalents.find((e) => e.group === gvr.group && e.version === gvr.version && e.resource === gvr.resource) ?? a.resource;
  const same = served === a.resource || (served.group === a.resource.group && served.version === a.resource.version);
  const at = async (obj: JSONObject | undefined): Promise<JSONObject | undefined> => (obj === undefined || same ? obj : deps.convert(deepCopyJSON(obj), a.resource, served));
  const kind = same ? requestKind(a) : { group: served.group, version: served.version, kind: served.kind };
  const invocation: Invocation = { resource: gvr, kind, object: await at(a.object), oldObject: await at(a.oldObject) };
  const authorizer = new AuthorizerValue(a.user ?? { name: '', groups: [] }, deps.authorize ?? (() => ({ decision: 'noOpinion', reason: '' })));
  const requestResource = requestResourceCheck(authorizer, { group: a.resource.group, version: a.resource.version, resource: a.resource.resource, subresource: a.subresource, namespace: a.namespace, name: a.name });
  const conditions = evaluateMatchConditions(hook, { object: invocation.object, oldObject: invocation.oldObject, request: celAdmissionRequest(a, invocation), authorizer, requestResource });
  if ('error' in conditions) throw S.forbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, conditions.error);
  if (!conditions.matches) return undefined;
  return { invocation, served };
}

/** Replaces the object's content in place: the store holds references to it (and to its metadata). */
function replaceContent(target: JSONObject, source: JSONObject): void {
  const targetMeta = target['metadata'];
  const sourceMeta = source['metadata'];
  for (const k of Object.keys(target)) if (!(k in source)) delete target[k];
  for (const [k, v] of Object.entries(source)) {
    if (k === 'metadata' && isObject(targetMeta) && isObject(sourceMeta)) {
      for (const mk of Object.keys(targetMeta)) if (!(mk in sourceMeta)) delete targetMeta[mk];
      Object.assign(targetMeta, sourceMeta);
      target[k] = targetMeta;
    } else target[k] = v;
  }
}

/** How the dispatcher treats an outcome; undefined to go on. */
function failureOf(hook: JSONObject, outcome: CallOutcome): S.StatusError | undefined {
  if (outcome.kind === 'ok') return undefined;
  if (outcome.kind === 'refused') return outcome.error;
  // A call error: failurePolicy Ignore fails open, Fail closed with an internal error.
  if (hook['failurePolicy'] === 'Ignore') return undefined;
  return S.internal(outcome.message);
}

interface ReinvocationState {
  /** IfNeeded webhooks called since the object last changed. */
  previouslyInvoked: Set<string>;
  /** Webhooks to call again in the second round. */
  reinvoke: Set<string>;
  shouldReinvoke: boolean;
}

export function mutatingWebhooks(configs: () => readonly WebhookAccessor[], deps: WebhookDependencies): AdmissionPlugin {
  /** One round of the mutating dispatcher. */
  const round = async (a: AdmissionAttributes, state: ReinvocationState, reinvoking: boolean): Promise<void> => {
    for (const { uid, hook } of configs()) {
      const call = await shouldCallHook(hook, a, deps);
      if (!call) continue;
      if (reinvoking && !state.reinvoke.has(uid)) continue;
      const outcome = await observedCall(hook, a, call.invocation, true, deps);
      let changed = false;
      if (outcome.kind === 'ok' && outcome.response.patch && outcome.response.patch.length > 0) {
        const versioned = call.invocation.object;
        if (!versioned) throw S.internal(`admission webhook "${String(hook['name'])}" attempted to modify the object, which is not supported for this operation`);
        const patched = applyJsonPatch(versioned, outcome.response.patch);
        if (patched instanceof S.StatusError) throw S.internal(patched.status.details?.causes?.[0]?.message ?? patched.message);
        if (!isObject(patched)) throw S.internal('the patched object is not an object');
        changed = !deepEqual(patched, versioned);
        if (changed) {
          const back = call.served === a.resource ? deepCopyJSON(patched) : await deps.convert(patched, call.served, a.resource);
          deps.decode?.(back, a.resource);
          replaceContent(a.object!, back);
        }
      }
      if (changed) {
        for (const id of state.previouslyInvoked) state.reinvoke.add(id);
        state.previouslyInvoked.clear();
        state.shouldReinvoke = true;
      }
      if (hook['reinvocationPolicy'] === 'IfNeeded') state.previouslyInvoked.add(uid);
      const failure = failureOf(hook, outcome);
      if (failure) throw failure;
    }
  };
  return {
    name: 'MutatingAdmissionWebhook',
    operations: ['CREATE', 'UPDATE', 'DELETE'],
    admit(a) {
      // Without webhooks (most servers, most of the time) nothing to wait for.
      if (isExemptAdmissionConfigurationResource(a.resource) || configs().length === 0) return;
      return (async () => {
        const state: ReinvocationState = { previouslyInvoked: new Set(), reinvoke: new Set(), shouldReinvoke: false };
        await round(a, state, false);
        // kube's reinvoker runs the mutating chain once more; only webhooks marked for it are called again.
        if (state.shouldReinvoke && state.reinvoke.size > 0) await round(a, state, true);
      })();
    },
  };
}

export function validatingWebhooks(configs: () => readonly WebhookAccessor[], deps: WebhookDependencies): AdmissionPlugin {
  return {
    name: 'ValidatingAdmissionWebhook',
    operations: ['CREATE', 'UPDATE', 'DELETE'],
    validate(a) {
      if (isExemptAdmissionConfigurationResource(a.resource) || configs().length === 0) return;
      return validateWith(a);
    },
  };

  async function validateWith(a: AdmissionAttributes): Promise<void> {
    const calls: { hook: JSONObject; invocation: Invocation }[] = [];
    for (const { hook } of configs()) {
      const call = await shouldCallHook(hook, a, deps);
      if (call) calls.push({ hook, invocation: call.invocation });
    }
    if (calls.length === 0) return;
    // All at once; the first failure (in webhook order, as kube's error channel mostly yields it) refuses the request.
    const outcomes = await Promise.all(calls.map((c) => observedCall(c.hook, a, c.invocation, false, deps)));
    for (let i = 0; i < calls.length; i++) {
      const failure = failureOf(calls[i]!.hook, outcomes[i]!);
      if (failure) throw failure;
    }
  }
}
