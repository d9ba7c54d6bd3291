// The API server's assembly: storage → the built-in and custom-resource stores behind one admission chain
// → the controllers → the API router behind the handler chain (handler-chain.ts), on a TLS listener
// and optionally a plain one.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ServedResource } from '../api/resource.js';
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KVStore } from '../storage/types.js';
import { GenericStore, metaOf } from '../registry/store.js';
import { ensureInitialNamespaces } from '../registry/namespaces.js';
import { NamespaceController } from '../controllers/namespace.js';
import { EventTtlController } from '../controllers/event-ttl.js';
import type { Admission } from '../registry/admission.js';
import { BUILTIN_KINDS } from '../apis/index.js';
import { namespaceKind } from '../apis/core/v1/namespace.js';
import { crdKind } from '../apis/apiextensions/v1/custom-resource-definition.js';
import { eventKind } from '../apis/core/v1/event.js';
import { leaseKind } from '../apis/coordination/v1/lease.js';
import { builtinEndpoint, builtinResourceType } from '../apis/builtin-kinds.js';
import type { KindDeclaration } from '../apis/kind.js';
import type { ResourceType } from '../registry/resource-type.js';
import { CrdServing } from '../crd/serving.js';
import { GarbageCollector } from '../controllers/garbage-collector/garbage-collector.js';
import { ServiceAccountsController } from '../controllers/service-accounts.js';
import { ServiceAccountTokensController } from '../controllers/service-account-tokens.js';
import { LegacyTokenTrackingController } from '../controllers/legacy-token-tracking.js';
import { issueLegacyToken, type LabelSecret } from '../auth/legacy-service-account-token.js';
import { RootCAPublisher } from '../controllers/root-ca-publisher.js';
import { serviceAccountKind } from '../apis/core/v1/service-account.js';
import { configMapKind } from '../apis/core/v1/config-map.js';
import { flowSchemaKind } from '../apis/flowcontrol/v1/flow-schema.js';
import { priorityLevelConfigurationKind } from '../apis/flowcontrol/v1/priority-level-configuration.js';
import { flowcontrolBootstrapKinds } from '../apis/flowcontrol/v1/ensure.js';
import { ApfBootstrapEnsurer } from '../controllers/apf-bootstrap.js';
import { FlowSchemaDanglingController } from '../controllers/flowschema-dangling.js';
import { mergeSchemaFor, trackManagedFields } from './merge-schema.js';
import { CrdController, crdServingInformer, type FinalizerTiming } from '../crd/controller.js';
import { followLeadership, leaderElectedControllers, type LeaderElectionConfig, type Leadership } from '../controllers/leader-election.js';
import { ClusterActivity } from './cluster-activity.js';
import { admissionChain } from '../admission/chain.js';
import { namespaceLifecycle } from '../admission/namespace-lifecycle.js';
import { mutatingWebhooks, validatingWebhooks, WebhookConfigurations, type WebhookDependencies } from '../admission/webhooks.js';
import { mutatingWebhookConfigurationKind, validatingWebhookConfigurationKind } from '../apis/admissionregistration/v1/webhook-configurations.js';
import { crdTerminating } from '../admission/crd-terminating.js';
import { authenticate, authenticateToken, type TokenTable } from '../auth/authenticate.js';
import type { JwtAuthenticators } from '../auth/oidc.js';
import { reviewCreaters } from '../auth/reviews.js';
import type { AuthorizeFn } from '../cel/lib/authz.js';
import { DEFAULT_ISSUER, type ServiceAccountTokenConfig, type TokenObjectGetter } from '../auth/service-account-token.js';
import { generatedKeys, isDeferredKeys, type DeferredServiceAccountKeys, type ServiceAccountKeys } from '../auth/service-account-keys.js';
import { TokenCache } from '../auth/token-cache.js';
import { secretKind } from '../apis/core/v1/secret.js';
import { tokenRequestHandler } from './token-request-handler.js';
import { alwaysAllow, alwaysDeny, checkWith, privilegedGroups, unionAuthorizer, type Authorize, type AuthorizerHooks } from '../auth/authorize.js';
import { RbacAuthorizer } from '../auth/rbac/authorizer.js';
import { alwaysAllowRules, alwaysDenyRules, privilegedGroupRules, unionRulesFor, type RulesFor } from '../auth/subject-rules.js';
import { rbacEscalationCheck } from '../auth/rbac/escalation.js';
import { ensureBootstrapPolicy } from '../auth/rbac/reconcile.js';
import { ClusterRoleAggregationController } from '../controllers/cluster-role-aggregation.js';
import { clusterRoleBindingKind, clusterRoleKind, roleBindingKind, roleKind } from '../apis/rbac/v1/kinds.js';
import { tlsPolicy, type TlsPolicyFlags } from '../auth/tls-policy.js';
import type { UserInfo } from '../api/user.js';
import * as S from '../api/status.js';
import { defaultServiceResolver, type ServiceResolver } from '../conversion/types.js';
import { webhookConverter } from '../crd/webhook-converter.js';
import { ApiRegistry } from './api-registry.js';
import type { JSONObject } from '../util/json.js';
import { paramSource, policyTypeResolver } from './policy-sources.js';
import { PolicyStatusController } from '../admission/validating-policy/status-controller.js';
import { ValidatingAdmissionPolicyPlugin } from '../admission/validating-policy/plugin.js';
import { Informer } from '../controllers/informer.js';
import { validatingAdmissionPolicyBindingKind, validatingAdmissionPolicyKind } from '../apis/admissionregistration/v1/validating-admission-policy.js';
import { apiRouter, type AcrossClusters } from './router.js';
import { prebuildOpenAPI } from './openapi-handler.js';
import { Dispatcher } from './flowcontrol/dispatcher.js';
import { FlowControlConfigSource } from './flowcontrol/config-source.js';
import { mandatoryFlowControlConfiguration } from './flowcontrol/mandatory.js';
import { ObjectCounts } from './flowcontrol/object-counts.js';
import { flowControlDebugPage } from './flowcontrol/debug-dump.js';
import type { Policy } from '../audit/policy.js';
import type { AuditBackend } from '../audit/backend.js';
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_REQUEST_TIMEOUT_MS, buildHandlerChain } from './handler-chain.js';
import { newRequestContext, type Handler } from './context.js';
import type { Authenticator } from './filters/authentication.js';
import { writeError } from './http.js';
import type { WatchBufferLimits } from './watch.js';
import { defaultMaxConnections, openFileLimit } from './connection-limit.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { watchCacheFamilies } from './metrics/watch-cache-metrics.js';
import { CachedKVStore } from '../storage/cache.js';
import type { Logger } from '../util/klog.js';
import { logicalClusterKind } from '../apis/tenancy/v1alpha1/logical-cluster.js';
import { LogicalClusters } from './logical-clusters.js';
import { ApiResponse } from './response.js';
import { LogicalClusterController } from './logical-cluster-controller.js';
import { clusterStore } from '../storage/prefixed-store.js';
import { allClustersStore } from './all-clusters.js';
import { CrdsAcrossClusters } from './all-clusters-crds.js';
import { deepCopyJSON } from '../util/json.js';

export { VERSION_INFO } from './router.js';

export interface ServerOptions {
  kv: KVStore;
  /** TLS material for the secure port, and kube's --tls-min-version and --tls-cipher-suites; absent: plain HTTP only. */
  /** ca: the CAs client certificates are verified against, the server's own first (it is the one published in kube-root-ca.crt). */
  tls?: { cert: string; key: string; ca: string | string[] } & TlsPolicyFlags;
  securePort?: number;
  insecurePort?: number;
  bindAddress?: string;
  /** Watches last between this and twice this (kube's --min-request-timeout, 1800 s). */
  minRequestTimeoutSeconds?: number;
  bookmarkIntervalMs?: number;
  /** What a watch may leave unsent to a client that does not read before it is closed (watch.ts explains the default). */
  watchBuffer?: WatchBufferLimits;
  /** How the CRD finalizer polls for instances to go (tests shorten its one-minute wait). */
  crdFinalizerTiming?: Partial<FinalizerTiming>;
  /** Where conversion webhooks' service references are reached (default: `<name>.<namespace>.svc`). */
  serviceResolver?: ServiceResolver;
  /** Bearer tokens of the secure port (kube's --token-auth-file). */
  tokens?: TokenTable;
  /** The authorizer behind every request, impersonation, the access reviews and RBAC's escalation checks, instead of the one --authorization-mode makes (tests give their own). */
  authorizer?: AuthorizerHooks;
  /** Whether requests without credentials on the secure port are system:anonymous (true) or refused with 401 (kube's --anonymous-auth). */
  anonymousAuth?: boolean;
  /** With anonymous access on, the only request paths it covers (AuthenticationConfiguration's anonymous.conditions). */
  anonymousPaths?: readonly string[];
  /** JWT authenticators of external OIDC issuers, after the ServiceAccount one (--authentication-config, --oidc-*). */
  jwt?: JwtAuthenticators;
  /** How long a request that is not long-running may take before a 504 (kube's --request-timeout, 60 s). */
  requestTimeoutMs?: number;
  /** Read-only and mutating requests served at once before 429s (kube's --max-requests-inflight 400, --max-mutating-requests-inflight 200; 0: no limit). */
  maxRequestsInFlight?: number;
  maxMutatingRequestsInFlight?: number;
  /** How long a client may take to send a request's line and headers (Go's ReadHeaderTimeout, 32 s in kube). */
  headerReadTimeoutMs?: number;
  /** How long events are kept after their last write (kube's --event-ttl, one hour). */
  eventTtlMs?: number;
  /** Time between passes of the APF bootstrap configuration ensurer (kube: one minute). */
  apfEnsureIntervalMs?: number;
  /** API Priority and Fairness (kube's --enable-priority-and-fairness, default true); false: max-in-flight limits alone. */
  enablePriorityAndFairness?: boolean;
  /**
   * Connections each listener keeps open at once; past it a new one is closed on accept (0: no limit, as kube).
   * Default: connection-limit.ts's, 10,000 or less under a low open-file limit.
   */
  maxConnections?: number;
  /** ServiceAccount tokens: how they are issued (the token subresource) and which are accepted. */
  serviceAccountTokens?: ServiceAccountTokenOptions;
  /** kube's --authorization-mode, in order after the system:masters authorizer (default: RBAC). */
  authorizationModes?: readonly AuthorizationMode[];
  /**
   * Several replicas on one etcd: the controllers that write run only while this server holds the
   * kube-system/crd-apiserver-controllers Lease (kube-controller-manager's --leader-elect). Absent: always.
   */
  leaderElection?: LeaderElectionConfig;
  /** Audit (kube's --audit-policy-file with the log and/or webhook backends); shut down (flushed) on close. */
  audit?: { policy: Policy; backend: AuditBackend };
  /** The log (kube's -v and --logging-format): at -v=3 a line per request. Absent: nothing is logged per request. */
  logger?: Logger;
  /** Serve logical clusters under /clusters/<name>/, made with tenancy.crd-apiserver.io LogicalClusters (default true). */
  logicalClusters?: boolean;
  /** A logical cluster's server without requests for this long is stopped until asked again (default 10 minutes; 0: never). */
  logicalClusterIdleTimeoutMs?: number;
  /** Set when this server is a logical cluster inside another: it listens on nothing and shares the parent's serving. */
  parent?: ParentServing;
  /** Awaited once start-up's own writes are done, before the listeners open (serve: the one fsync of those writes). */
  beforeListening?: () => Promise<void>;
  /** Called once, a turn after the listeners' first response has been written. */
  onFirstResponse?: () => void;
}

/**
 * What a logical cluster's server shares with the server it runs in. Not authentication: a cluster authenticates
 * as its parent does but for ServiceAccount tokens, which name ServiceAccounts of its own.
 */
export interface ParentServing {
  metrics: ServerMetrics;
  flowControl?: { dispatcher: Dispatcher; objectCount(group: string, resource: string): number | undefined };
  /** With leader election: the cluster's writing controllers run while its parent leads. */
  leadership?: Leadership;
}

/** The modes of --authorization-mode this server has. */
export const AUTHORIZATION_MODES = ['RBAC', 'AlwaysAllow', 'AlwaysDeny'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

export interface ServiceAccountTokenOptions {
  /** --service-account-issuer (the first issues); default https://kubernetes.default.svc.cluster.local. */
  issuers?: readonly string[];
  /** --api-audiences; default: the issuers. */
  apiAudiences?: readonly string[];
  /** --service-account-max-token-expiration in seconds; default none. */
  maxExpirationSeconds?: number;
  /**
   * The signing and verification keys; default: a key generated in memory on the first TokenRequest. A promise
   * (keys being made): the server starts meanwhile, and token requests and the key set wait for it. Deferred (a
   * first start's data directory key): made by the first token request or key set asked for, which wait for it.
   */
  keys?: ServiceAccountKeys | Promise<ServiceAccountKeys> | DeferredServiceAccountKeys;
  /** The clock tokens are issued and checked by (ms since the epoch); tests move it. */
  now?: () => number;
  /** --service-account-jwks-uri: the key set's URL in the discovery document (default: this server's /openid/v1/jwks). */
  jwksUri?: string;
  /** How long a successful token authentication is remembered (kube's fixed 10 s; tests shorten it; 0: never). */
  successCacheTtlMs?: number;
}

export interface RunningServer {
  /** This server's Prometheus metrics (served at /metrics). */
  metrics: ServerMetrics;
  /** https://host:port of the secure port, when serving TLS. */
  secureUrl?: string;
  /** http://127.0.0.1:port of the insecure port, when asked for. */
  insecureUrl?: string;
  registry: ApiRegistry;
  /** The server's authorizer (system:masters, then the modes), as the request filter and the RBAC checks use it. */
  authorize: Authorize;
  /** What that authorizer grants a user in a namespace (the union's RulesFor: SelfSubjectRulesReview's answer). */
  rulesFor: RulesFor;
  /** The RBAC authorizer and rule resolver over the server's RBAC caches (also when RBAC is not a mode). */
  rbac: RbacAuthorizer;
  /** Whether this server runs the writing controllers now: always without leader election, else while it holds their Lease. */
  leading(): boolean;
  /** The handler chain of each listener (a logical cluster's server has only these, no listeners). */
  chains: { secure?: Handler; insecure?: Handler };
  /** The logical clusters served under /clusters/ (the root server's, when on). */
  clusters?: LogicalClusters;
  close(): Promise<void>;
}

/**
 * The plain port trusts whoever reaches it, as kube-apiserver's insecure port did: its requests are made by
 * this user, a member of system:masters.
 */
const INSECURE_USER: UserInfo = { name: 'system:unsecured', groups: ['system:masters', 'system:authenticated'] };

/** The issuer's configuration from the options, with kube's defaults; an embedded server's key is made when first needed. */
function serviceAccountTokenConfig(o: ServiceAccountTokenOptions): ServiceAccountTokenConfig {
  const issuers = o.issuers?.length ? [...o.issuers] : [DEFAULT_ISSUER];
  const deferred = isDeferredKeys(o.keys) ? o.keys : undefined;
  let keys = o.keys instanceof Promise || deferred ? undefined : (o.keys as ServiceAccountKeys | undefined);
  let failed: unknown;
  let making: Promise<void> | undefined;
  const awaitKeys = (pending: Promise<ServiceAccountKeys>): Promise<void> =>
    (making = pending.then(
      (k) => {
        keys = k;
        failed = undefined;
      },
      (e: unknown) => {
        failed = e;
        console.error(`service account tokens: the signing key could not be made: ${e instanceof Error ? e.message : String(e)}`);
        // A deferred key is made again when next needed (the data directory may be writable by then); a promise is final.
        if (deferred) making = undefined;
      },
    ));
  if (o.keys instanceof Promise) awaitKeys(o.keys);
  const whenReady = (): Promise<void> | undefined => making ?? (deferred && awaitKeys(deferred.make()));
  return {
    issuers,
    apiAudiences: o.apiAudiences?.length ? [...o.apiAudiences] : issuers,
    maxExpirationSeconds: o.maxExpirationSeconds ?? 0,
    verifying: () => keys?.verifying ?? deferred?.verifying ?? [],
    signingKeys: () => {
      if (keys) return keys;
      // Keys on their way (a deferred key is set on its way now): what signs retries, or waits with whenReady.
      if (whenReady()) throw failed ?? new Error('the service account signing key is being generated');
      return (keys = generatedKeys());
    },
    ...(making || deferred ? { whenReady } : {}),
  };
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const kv = opts.kv;
  const maxInFlight = {
    readOnly: opts.maxRequestsInFlight ?? DEFAULT_MAX_IN_FLIGHT.readOnly,
    mutating: opts.maxMutatingRequestsInFlight ?? DEFAULT_MAX_IN_FLIGHT.mutating,
  };
  const priorityAndFairness = opts.enablePriorityAndFairness ?? true;
  // With APF the two limits are one concurrency limit, shared out among priority levels (kube's check).
  if (priorityAndFairness && maxInFlight.readOnly + maxInFlight.mutating <= 0) {
    throw new Error(
      `invalid configuration: MaxRequestsInFlight=${maxInFlight.readOnly} and MaxMutatingRequestsInFlight=${maxInFlight.mutating}; they must add up to something positive`,
    );
  }
  // One registry of metrics per server. Object counts are APF's (counted once a minute), made further down.
  let objectCounts: ObjectCounts | undefined;
  let flowDispatcher: Dispatcher | undefined;
  const parent = opts.parent;
  const metrics =
    parent?.metrics ??
    new ServerMetrics(
      () => objectCounts?.entries() ?? [],
      () => [...(flowDispatcher?.priorityLevels.values() ?? [])].map((l) => ({ name: l.config.metadata.name, nominal: l.concurrencyLimit, lower: l.minLimit, upper: l.maxLimit, current: l.currentLimit })),
    );
  const servesLogicalClusters = !parent && opts.logicalClusters !== false;
  // LogicalClusters are the root server's alone; so is flow control, one for the whole process, configured there.
  const rootOnly = new Set<KindDeclaration>([logicalClusterKind, flowSchemaKind, priorityLevelConfigurationKind]);
  const kinds = BUILTIN_KINDS.filter((k) => !rootOnly.has(k) || (k === logicalClusterKind ? servesLogicalClusters : !parent));
  // Admission plugins look things up through the stores they guard, so the chain refers to them lazily.
  let serving: CrdServing | undefined;
  let policyPlugin: ValidatingAdmissionPolicyPlugin | undefined;
  const namespaceByName = (name: string): Promise<JSONObject | undefined> => namespaces.find('', name);
  let rbac: RbacAuthorizer | undefined;
  // The server's authorizer, bound to RBAC's caches once they are filled (before anything is served).
  let authorize: Authorize = alwaysDeny;
  let rulesFor: RulesFor = alwaysDenyRules;
  const authorizerHooks: AuthorizerHooks = opts.authorizer ?? { authorize: (a) => authorize(a), rulesFor: (u, ns) => rulesFor(u, ns) };
  // CEL's authorizer library (ValidatingAdmissionPolicy, webhook matchConditions) asks the server's authorizer.
  const celAuthorize: AuthorizeFn = (r) => {
    const d = authorizerHooks.authorize({ user: { name: r.user.name, groups: r.user.groups }, verb: r.verb, isResourceRequest: r.resourceRequest, path: r.path, group: r.group, version: r.version, resource: r.resource, subresource: r.subresource, namespace: r.namespace, name: r.name });
    return { decision: d.allowed ? 'allow' : 'noOpinion', reason: d.reason };
  };
  let webhookConfigs: WebhookConfigurations | undefined;
  const resolver = opts.serviceResolver ?? defaultServiceResolver;
  // The resource type serving a group/version/resource: a built-in kind's, or a CRD's served version's.
  const typeFor = (r: { group: string; version: string; resource: string }): ResourceType | undefined =>
    builtinTypesByGVR.get(`${r.group}/${r.version}/${r.resource}`) ?? serving?.lookup(r.group, r.version, r.resource)?.store.type;
  // kube's equivalent resources (matchPolicy Equivalent, for webhooks and policies alike): what shares the
  // storage (a CRD's served versions; events and events.k8s.io events; both CRD versions), reached by
  // converting through the stored form.
  const equivalentResources = (r: ServedResource): ServedResource[] => {
    const own = builtinTypesByGVR.get(`${r.group}/${r.version}/${r.resource}`);
    if (!own) return serving?.servedVersions(r.group, r.resource) ?? [];
    return [...builtinTypes.values()].filter((t) => t.keyPrefix === own.keyPrefix).map((t) => t.served);
  };
  const webhookDeps: WebhookDependencies = {
    resolver,
    namespaceLabels: async (name) => {
      const ns = await namespaces.find('', name);
      return ns ? ((ns['metadata'] as { labels?: Record<string, string> } | undefined)?.labels ?? {}) : undefined;
    },
    equivalents: equivalentResources,
    convert: async (obj, from, to) => {
      const f = typeFor(from);
      const t = typeFor(to);
      if (!f || !t) throw S.internal(`unable to convert to ${to.group}/${to.version}, Resource=${to.resource}: unknown kind`);
      if (!builtinTypesByGVR.has(`${from.group}/${from.version}/${from.resource}`)) return serving!.convert(obj, from.group, from.resource, from.version, to.version);
      return t.fromStorage(deepCopyJSON(f.toStorage(obj)));
    },
    // After a patch the object is decoded again as a request body of its version is (kube's defaulter; its
    // pruning at storage encoding): defaults applied, unknown fields of custom resources dropped.
    decode: (obj, r) => typeFor(r)?.strategy.admitBody?.(obj, 'Ignore', []),
    authorize: celAuthorize,
    observe: (c) => {
      metrics.observeWebhook(c.name, c.type, c.operation, c.rejected, c.code, c.seconds);
      if (c.rejection) metrics.observeWebhookRejection(c.name, c.type, c.operation, c.rejection, c.code);
    },
  };
  // kube's order: NamespaceLifecycle first; the webhooks last of the mutating plugins; of the validating ones,
  // ValidatingAdmissionPolicy, then the webhooks.
  const admission: Admission = admissionChain([
    crdTerminating((r) => serving?.isTerminating(r) ?? false),
    // It only reads the namespace's phase: the decoded namespace is shared between requests.
    namespaceLifecycle((name) => namespaces.findShared('', name)),
    // kube's RBAC storage wrappers run after mutating admission, before the strategy.
    rbacEscalationCheck({ authorize: (a) => authorizerHooks.authorize(a), resolver: () => rbac?.resolver, synced: () => rbac?.waitForStores() ?? Promise.resolve() }),
    // ValidatingAdmissionPolicy, once its informers have listed (below).
    mutatingWebhooks(() => webhookConfigs?.mutating() ?? [], webhookDeps),
    { name: 'ValidatingAdmissionPolicy', operations: ['CREATE', 'UPDATE', 'DELETE'], validate: (a) => policyPlugin?.validate(a) },
    validatingWebhooks(() => webhookConfigs?.validating() ?? [], webhookDeps),
  ], (type, operation, rejected, seconds) => metrics.observeAdmissionStep(type, operation, rejected, seconds));
  const saOpts = opts.serviceAccountTokens ?? {};
  const saTokens = serviceAccountTokenConfig(saOpts);
  const checkAuthorized = checkWith(authorizerHooks);
  const creaters = reviewCreaters({
    authorizer: authorizerHooks,
    // The token authenticators of the secure port: the token file, ServiceAccount tokens (for the API's audiences), external JWTs.
    authenticateToken: (token, audiences) => authenticateToken(token, audiences, { tokens: opts.tokens, apiAudiences: saTokens.apiAudiences, serviceAccounts, jwt: opts.jwt }),
    apiAudiences: saTokens.apiAudiences,
  });
  const builtinTypes = new Map(kinds.map((k) => [k, builtinResourceType(k)]));
  const builtinTypesByGVR = new Map([...builtinTypes.values()].map((t) => [`${t.served.group}/${t.served.version}/${t.served.resource}`, t]));
  trackManagedFields([...builtinTypes.values()]);
  const stores = new Map(kinds.map((k) => [k, new GenericStore(kv, builtinTypes.get(k)!, admission)]));
  const namespaces = stores.get(namespaceKind)!;
  const crds = stores.get(crdKind)!;
  serving = new CrdServing(
    kv,
    admission,
    (crd) => webhookConverter(crd, resolver, (name, from, to, ok, seconds) => metrics.observeConversionWebhook(name, from, to, ok, seconds)),
    (served) => mergeSchemaFor(served),
    (seconds) => metrics.observeRatcheting(seconds),
  );
  const registry = new ApiRegistry(serving);
  // The watch cache's metrics, per resource the registry keeps in storage (a store without the cache has none);
  // a logical cluster's server shares its parent's metrics, and its parent's cache.
  if (!parent) metrics.addFamilies(
    ...watchCacheFamilies(
      () => (kv instanceof CachedKVStore ? { stats: kv.stats, revision: kv.cachedRevision } : undefined),
      () =>
        registry.served().flatMap((r) => {
          const ep = registry.lookup(r.group, r.version, r.resource);
          return ep ? [{ group: r.group, resource: r.resource, keyPrefix: ep.store.type.keyPrefix }] : [];
        }),
    ),
  );
  for (const [kind, store] of stores) {
    const ep = builtinEndpoint(kind, store);
    if (kind.createOnly) ep.creater = creaters.get(kind.served.kind);
    registry.addBuiltin(ep);
  }

  await ensureInitialNamespaces(namespaces);
  // The webhook configurations the admission plugins read, cached by informers as kube's configuration managers are.
  webhookConfigs = new WebhookConfigurations(stores.get(mutatingWebhookConfigurationKind)!, stores.get(validatingWebhookConfigurationKind)!);
  await webhookConfigs.start();
  // The policies and bindings the ValidatingAdmissionPolicy plugin enforces, from informers over their stores.
  const policyInformer = new Informer(stores.get(validatingAdmissionPolicyKind)!, { name: 'validatingadmissionpolicies' });
  const bindingInformer = new Informer(stores.get(validatingAdmissionPolicyBindingKind)!, { name: 'validatingadmissionpolicybindings' });
  await Promise.all([policyInformer.start(), bindingInformer.start()]);
  policyPlugin = new ValidatingAdmissionPolicyPlugin({
    policies: policyInformer,
    bindings: bindingInformer,
    namespace: namespaceByName,
    equivalents: (a) =>
      equivalentResources(a.resource)
        .filter((r) => r.group !== a.resource.group || r.version !== a.resource.version || r.resource !== a.resource.resource)
        .map((r) => ({ resource: { group: r.group, version: r.version, resource: r.resource }, kind: { group: r.group, version: r.version, kind: r.kind } })),
    params: (apiVersion, kind) => paramSource(registry, apiVersion, kind),
    authorize: celAuthorize,
  });
  // RBAC: the authorizer's caches of the four kinds, then the bootstrap policy (rbac/bootstrap-roles), reconciled
  // on every start by every replica as kube's post-start hook does (after the initial namespaces, which hold its
  // Roles), reading the existing objects from those caches rather than reading and decoding each once more.
  const clusterRoles = stores.get(clusterRoleKind)!;
  const rbacStores = {
    clusterRoles,
    clusterRoleBindings: stores.get(clusterRoleBindingKind)!,
    roles: stores.get(roleKind)!,
    roleBindings: stores.get(roleBindingKind)!,
  };
  const rbacCaches = (rbac = new RbacAuthorizer(rbacStores));
  await rbacCaches.start();
  await ensureBootstrapPolicy(rbacStores, {
    clusterRoles: (ns, name) => rbacCaches.cached('clusterRoles', ns, name),
    clusterRoleBindings: (ns, name) => rbacCaches.cached('clusterRoleBindings', ns, name),
    roles: (ns, name) => rbacCaches.cached('roles', ns, name),
    roleBindings: (ns, name) => rbacCaches.cached('roleBindings', ns, name),
  });
  // Nothing is authorized before the caches hold what the reconcile wrote.
  await rbacCaches.waitForStores();
  const rbacAuthorizer = rbac;
  const modes = opts.authorizationModes ?? ['RBAC'];
  // Each mode's authorizer counted as kube instruments it (type the mode, name the mode in lower case); the
  // system:masters shortcut is not.
  authorize = unionAuthorizer([
    privilegedGroups,
    ...modes.map((m) => metrics.auth.instrumented(m, m.toLowerCase(), m === 'RBAC' ? rbacAuthorizer.authorize : m === 'AlwaysAllow' ? alwaysAllow : alwaysDeny)),
  ]);
  rulesFor = unionRulesFor([privilegedGroupRules, ...modes.map((m) => (m === 'RBAC' ? rbacAuthorizer.rulesFor : m === 'AlwaysAllow' ? alwaysAllowRules : alwaysDenyRules))]);
  // What every replica runs, stopped in reverse on close: the caches requests are served from, and what
  // serves the CRDs as they change.
  const controllers: { stop(): void }[] = [rbacAuthorizer, webhookConfigs, policyInformer, bindingInformer];
  // Work that waits for the listeners (controllers started later, e.g. on winning an election, run at once).
  let listening = false;
  const afterListening: Array<() => void> = [];
  const whenListening = (f: () => void): void => {
    if (listening) f();
    else afterListening.push(f);
  };
  const crdInformer = crdServingInformer(crds, serving);
  await crdInformer.start();
  controllers.push(crdInformer);
  // One store per stored kind (events.k8s.io events are core/v1 events): what a namespace holds is every
  // namespaced one and every namespaced custom resource; what the garbage collector watches, all of them.
  // Stored as served: no codec between the two (CRDs: the v1 store, not v1beta1's, which converts every object
  // the garbage collector's informer sees; their storageVersion names v1beta1 for discovery's hash alone).
  const storedAsServed = (k: (typeof BUILTIN_KINDS)[number]): boolean =>
    !k.createOnly && !k.storage && (k.storageGroup ?? k.served.group) === k.served.group;
  const storageBuiltins = [...stores.entries()].filter(([k]) => storedAsServed(k));
  const namespacedBuiltins = storageBuiltins.filter(([k]) => k.served.namespaced).map(([, s]) => s);
  const flowSchemas = stores.get(flowSchemaKind);
  const priorityLevels = stores.get(priorityLevelConfigurationKind);
  // The controllers that write (apiextensions-apiserver's and kube-controller-manager's): with leader election,
  // on one replica at a time. Started in order, each first pass awaited where clients must not see the state
  // before it; returned to be stopped in reverse.
  const startWritingControllers = async (): Promise<Array<{ stop(): void }>> => {
    const started: { stop(): void }[] = [];
    try {
      // The ClusterRole aggregation controller, its first pass done (and seen by RBAC's caches) before serving, so
      // admin, edit and view hold their rules.
      const aggregation = new ClusterRoleAggregationController(clusterRoles, { informer: rbacAuthorizer.caches.clusterRoles });
      await aggregation.start();
      started.push(aggregation);
      await aggregation.idle();
      await rbacAuthorizer.waitForStores();
      const crdController = new CrdController(crds, serving!, opts.crdFinalizerTiming, { informer: crdInformer });
      started.push(crdController);
      await crdController.start();
      const nsController = new NamespaceController(namespaces, () => [...namespacedBuiltins, ...serving!.storageStores((c) => c.spec.scope === 'Namespaced')]);
      started.push(nsController);
      await nsController.start();
      const eventTtl = new EventTtlController(stores.get(eventKind)!, opts.eventTtlMs === undefined ? {} : { ttlMs: opts.eventTtlMs });
      started.push(eventTtl);
      await eventTtl.start();
      const gc = new GarbageCollector(() => [...storageBuiltins.map(([, s]) => s), ...serving!.storageStores()]);
      started.push(gc);
      // Once the listeners are up: its informers' first lists decode every stored object, which must not hold up
      // start-up or readiness (kube runs its collector in another process); a cascade may start a moment later.
      // With the watch cache loading in the background, once it has loaded: its lists then come from memory, rather
      // than reading every object from the store a second time alongside the load.
      const loaded = kv instanceof CachedKVStore ? kv.firstLoad : Promise.resolve();
      whenListening(() => void loaded.then(() => gc.start()).catch((e: unknown) => console.error('garbage collector:', e)));
      // kube-controller-manager's per-namespace defaults: the `default` ServiceAccount and the kube-root-ca.crt
      // ConfigMap. The CA published is the one its client would trust the apiserver by: the server's CA, or,
      // on plain HTTP only, none (an insecure client config's CAData is empty, and kube publishes it as "").
      const saController = new ServiceAccountsController(namespaces, stores.get(serviceAccountKind)!);
      // The first of tls.ca is the server's own CA; the others only sign client certificates (--client-ca-file).
      const servingCa = Array.isArray(opts.tls?.ca) ? (opts.tls.ca[0] ?? '') : (opts.tls?.ca ?? '');
      const rootCAPublisher = new RootCAPublisher(namespaces, stores.get(configMapKind)!, servingCa);
      // The token controller fills kubernetes.io/service-account-token Secrets with legacy tokens signed by our key.
      const tokensController = new ServiceAccountTokensController(
        stores.get(serviceAccountKind)!,
        stores.get(secretKind)!,
        (sa, secretName) => issueLegacyToken(saTokens, sa, secretName),
        servingCa,
      );
      // kube-apiserver's own: the ConfigMap saying since when legacy tokens' use is tracked.
      const legacyTracking = new LegacyTokenTrackingController(stores.get(configMapKind)!);
      started.push(saController, rootCAPublisher, tokensController, legacyTracking);
      await Promise.all([saController.start(), rootCAPublisher.start(), tokensController.start(), legacyTracking.start()]);
      // Their first pass over the initial namespaces is done before serving: clients never see `default` without them.
      await Promise.all([saController.controller.idle(), rootCAPublisher.controller.idle()]);
      // The APF config consumer's FlowSchema Dangling conditions.
      if (flowSchemas && priorityLevels) {
        const apfConsumer = new FlowSchemaDanglingController(flowSchemas, priorityLevels);
        started.push(apfConsumer);
        await apfConsumer.start();
      }
      // kube-controller-manager's ValidatingAdmissionPolicy status controller (type checking, observedGeneration).
      const policyStatus = new PolicyStatusController(stores.get(validatingAdmissionPolicyKind)!, policyTypeResolver(registry));
      started.push(policyStatus);
      await policyStatus.start();
      // Logical clusters: each new one started and marked Ready; a deleted one's contents removed.
      if (clusters) {
        const lcController = new LogicalClusterController(stores.get(logicalClusterKind)!, clusters.informer, clusters.manager, kv);
        started.push(lcController);
        await lcController.start();
        // With several replicas: the servers of clusters written to through any of them start here, for their controllers.
        if (opts.leaderElection) {
          const activity = new ClusterActivity(kv, clusters.manager);
          started.push(activity);
          await activity.start();
        }
      }
    } catch (e) {
      for (const c of [...started].reverse()) c.stop();
      throw e;
    }
    return started;
  };
  // The logical clusters' objects, cached on every replica for the dispatcher; their servers are started below.
  let clusters: { informer: Informer; manager: LogicalClusters } | undefined;
  if (servesLogicalClusters) {
    const informer = new Informer(stores.get(logicalClusterKind)!, { name: 'logicalclusters' });
    await informer.start();
    controllers.push(informer);
    const manager = new LogicalClusters(informer, (name) => startLogicalCluster(name), opts.logicalClusterIdleTimeoutMs);
    clusters = { informer, manager };
  }
  // A cluster's server started while root's first term starts (ClusterActivity's replay) waits for its leadership.
  let electionKnown!: () => void;
  const electionSettled = new Promise<void>((resolve) => (electionKnown = resolve));
  const election = opts.leaderElection
    ? await leaderElectedControllers(stores.get(leaseKind)!, opts.leaderElection, startWritingControllers)
    : parent?.leadership
      ? await followLeadership(parent.leadership, startWritingControllers)
      : undefined;
  electionKnown();
  if (election) controllers.push(election);
  else controllers.push(...(await startWritingControllers()));
  // API Priority and Fairness (on by default, as in kube): one dispatcher for every listener, configured from
  // the stored objects; off, each listener counts its own requests against the two in-flight limits. A logical
  // cluster's requests go through its parent's.
  let flowControl: ParentServing['flowControl'] = parent?.flowControl;
  if (flowSchemas && priorityLevels) {
    // kube-apiserver's priority-and-fairness-config-producer post-start hook, on every replica: the bootstrap
    // FlowSchemas and PriorityLevelConfigurations are in place before the server is ready.
    const apfEnsurer = new ApfBootstrapEnsurer(flowcontrolBootstrapKinds(priorityLevels, flowSchemas), { intervalMs: opts.apfEnsureIntervalMs });
    await apfEnsurer.start();
    controllers.push(apfEnsurer);
    try {
      await apfEnsurer.waitForFirstPass();
    } catch (e) {
      for (const c of [...controllers].reverse()) c.stop();
      throw e;
    }
    // How many objects each resource holds, once a minute: APF's list estimates and apiserver_storage_objects.
    const counts = (objectCounts = new ObjectCounts(registry, kv));
    counts.start(kv instanceof CachedKVStore ? kv.firstLoad : undefined);
    controllers.push(counts);
    if (priorityAndFairness) {
      const dispatcher = (flowDispatcher = new Dispatcher(maxInFlight.readOnly + maxInFlight.mutating, mandatoryFlowControlConfiguration()));
      const source = new FlowControlConfigSource(dispatcher, priorityLevels, flowSchemas);
      await source.start();
      dispatcher.start();
      controllers.push(source, dispatcher);
      flowControl = { dispatcher, objectCount: (group, resource) => counts.get(group, resource) };
    }
  }

  // ServiceAccount tokens: issued by the serviceaccounts/token subresource, accepted by the secure port's
  // authenticator while the objects they name exist (read from the stores' memory: no storage round trip).
  registry.addSubresourceHandler('', 'v1', 'serviceaccounts', 'token', tokenRequestHandler({ config: saTokens, secrets: stores.get(secretKind)!, admission, now: saOpts.now }));
  const tokenObjects: TokenObjectGetter = {
    serviceAccount: (ns, name) => stores.get(serviceAccountKind)!.find(ns, name),
    secret: (ns, name) => stores.get(secretKind)!.find(ns, name),
  };

  // Requests under /clusters/*: each resource read across every cluster; custom resources root does not serve, as
  // the clusters' CRDs define them (their types built as root's CrdServing builds its own, for reading only).
  const acrossClusters = (manager: LogicalClusters): AcrossClusters => {
    const crdsAcross = new CrdsAcrossClusters(kv, crds, () => manager.names(), () => new CrdServing(kv, admission, serving.webhookConverter));
    return {
      store: (store) => allClustersStore(store, kv, () => manager.names()),
      endpoint: (group, version, resource) => crdsAcross.endpoint(group, version, resource),
      served: (root) => crdsAcross.served(root),
    };
  };
  let ready = true;
  const api = apiRouter({
    registry,
    minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds ?? 1800,
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
    watchBuffer: opts.watchBuffer,
    ready: () => ready,
    serviceAccountIssuer: { config: saTokens, jwksUri: saOpts.jwksUri },
    flowControlDebug: flowControl && ((path, query) => flowControlDebugPage(flowControl!.dispatcher.priorityLevels, path, query)),
    metrics,
    acrossClusters: clusters && acrossClusters(clusters.manager),
  });
  // A legacy token's use is recorded on its Secret as kube-apiserver's loopback client patches it (uid-checked).
  const labelSecret: LabelSecret = async (ns, name, uid, labels) => {
    await stores.get(secretKind)!.update(
      ns,
      name,
      (s) => {
        if (!s) throw S.notFound({ group: '', resource: 'secrets' }, name);
        const m = metaOf(s);
        if (m.uid !== uid) throw S.conflict({ group: '', resource: 'secrets' }, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${m.uid ?? ''}`);
        m.labels = { ...(m.labels ?? {}), ...labels };
        return s;
      },
      '',
      { manager: 'kube-apiserver' },
    );
  };
  const serviceAccounts = { config: saTokens, getter: tokenObjects, now: saOpts.now, cache: new TokenCache(saOpts.successCacheTtlMs), labelSecret };
  const secureAuthenticator: Authenticator = (req) => authenticate(req, { tokens: opts.tokens, anonymous: opts.anonymousAuth, anonymousPaths: opts.anonymousPaths, serviceAccounts, jwt: opts.jwt });
  const requestTimeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const servers: http.Server[] = [];
  const out: RunningServer = {
    metrics,
    registry,
    authorize: (a) => authorizerHooks.authorize(a),
    rulesFor: (u, ns) => authorizerHooks.rulesFor(u, ns),
    rbac: rbacAuthorizer,
    leading: () => election?.leading ?? true,
    chains: {},
    clusters: clusters?.manager,
    close: async () => {
      ready = false;
      // The Lease is released first, while the storage is still there: another replica takes over at once.
      await election?.stopped();
      await clusters?.manager.close();
      for (const c of [...controllers].reverse()) c.stop();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
      // The events of the requests just ended (their ResponseComplete waits on the connection's close).
      await nextTurn();
      // The audit backend is the parent's to flush.
      if (!parent) await opts.audit?.backend.shutdown();
    },
  };
  const audit = opts.audit;
  const chainMetrics = { metrics, isServed: (group: string, version: string, resource: string) => registry.lookup(group, version, resource) !== undefined };
  const host = opts.bindAddress ?? '127.0.0.1';
  const headerReadTimeoutMs = opts.headerReadTimeoutMs ?? HEADER_READ_TIMEOUT_MS;
  // Node checks its connections' header timeouts this often (30 s by default: too coarse for a 32 s limit).
  const connectionsCheckingInterval = Math.max(10, Math.min(30_000, Math.floor(headerReadTimeoutMs / 4)));
  const authenticators = { secure: secureAuthenticator, insecure: (): UserInfo => INSECURE_USER };
  const chainWith = (authenticator: Authenticator): Handler =>
    buildHandlerChain(api, { authenticator, authorizer: checkAuthorized, requestTimeoutMs, maxInFlight, flowControl, audit, metrics: chainMetrics, logger: opts.logger });
  out.chains = {
    ...(opts.tls ? { secure: chainWith(authenticators.secure) } : {}),
    ...(opts.insecurePort !== undefined ? { insecure: chainWith(authenticators.insecure) } : {}),
  };
  // A listener's entry: the root's chain, or a logical cluster's for /clusters/<name>/ paths.
  const entry = (listenerName: 'secure' | 'insecure'): Handler => {
    const chain = out.chains[listenerName]!;
    return clusters ? clusters.manager.dispatch(chain, listenerName) : chain;
  };
  /** A logical cluster's server: this one's configuration over the cluster's view of the store, sharing this one's serving. */
  async function startLogicalCluster(name: string): Promise<RunningServer> {
    await electionSettled;
    return startServer({ ...opts, kv: clusterStore(kv, name), leaderElection: undefined, beforeListening: undefined, parent: { metrics, flowControl, ...(election ? { leadership: election.leadership } : {}) } });
  }
  if (parent) {
    // A cluster's server has no listeners of its own: what waits for them (the garbage collector) starts now.
    listening = true;
    for (const f of afterListening.splice(0)) f();
    return out;
  }
  if (opts.beforeListening) {
    try {
      await opts.beforeListening();
    } catch (e) {
      for (const c of [...controllers].reverse()) c.stop();
      throw e;
    }
  }
  if (opts.tls) {
    const chain = entry('secure');
    // Go's defaults unless configured: TLS 1.2+, and for TLS 1.2 only Go's default suites.
    const { minVersion, ciphers } = tlsPolicy(opts.tls);
    // The handshake is bounded as Go bounds it (http.Server.tlsHandshakeTimeout: the header timeout), not by
    // Node's 120 s: a connection that never says hello is closed as soon as one that never sends headers.
    const s = https.createServer(
      {
        cert: opts.tls.cert,
        key: opts.tls.key,
        ca: opts.tls.ca,
        requestCert: true,
        rejectUnauthorized: false,
        maxHeaderSize: MAX_HEADER_BYTES,
        connectionsCheckingInterval,
        handshakeTimeout: headerReadTimeoutMs,
        minVersion,
        ciphers,
        ServerResponse: ApiResponse,
      },
      listener(chain, (req) => `${req.socket.localAddress ?? ''}:${req.socket.localPort ?? ''}`),
    );
    // https.createServer's highWaterMark option reaches only the TCP socket beneath, not the TLS socket HTTP
    // writes to: raise that one's directly.
    s.on('secureConnection', (socket: TLSSocket) => raiseWriteHighWaterMark(socket));
    const port = await listen(s, opts.securePort ?? 6443, host);
    servers.push(s);
    out.secureUrl = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }
  if (opts.insecurePort !== undefined) {
    const chain = entry('insecure');
    const s = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, connectionsCheckingInterval, ServerResponse: ApiResponse }, listener(chain, () => ''));
    const port = await listen(s, opts.insecurePort, '127.0.0.1');
    servers.push(s);
    out.insecureUrl = `http://127.0.0.1:${port}`;
  }
  const maxConnections = opts.maxConnections ?? defaultMaxConnections(openFileLimit(), servers.length);
  for (const s of servers) {
    // Node closes a connection accepted past this at once (0 leaves it unbounded).
    if (maxConnections > 0) s.maxConnections = maxConnections;
    s.keepAliveTimeout = 65_000;
    // Go's ReadHeaderTimeout as kube's secure serving sets it (32 s); the rest of a request is bounded by
    // the request-timeout filter, not here: watches are long-lived.
    s.headersTimeout = headerReadTimeoutMs;
    s.requestTimeout = 0;
    s.on('clientError', answerClientError);
  }
  if (opts.onFirstResponse) {
    const onFirstResponse = opts.onFirstResponse;
    // The first request on any listener (the others stop listening for one at once).
    const first = (_req: IncomingMessage, res: ServerResponse): void => {
      for (const s of servers) s.off('request', first);
      res.once('finish', () => setImmediate(onFirstResponse));
    };
    for (const s of servers) s.on('request', first);
  }
  listening = true;
  for (const f of afterListening.splice(0)) f();
  // The built-in OpenAPI documents, a second after the listeners are up, once per process (clusters share them).
  const prebuild = setTimeout(() => void prebuildOpenAPI(registry), OPENAPI_PREBUILD_DELAY_MS);
  prebuild.unref();
  controllers.push({ stop: () => clearTimeout(prebuild) });
  return out;
}

const OPENAPI_PREBUILD_DELAY_MS = 1000;

const HEADER_READ_TIMEOUT_MS = 32_000;

/** What Node's default clientError handling answers, by parser error; Go answers the same three. */
const CLIENT_ERROR_STATUS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Request Entity Too Large',
};

/**
 * A request the HTTP parser refused, as Go's server treats it: a status line and a closed connection, except
 * for headers that did not arrive in time, which Go closes without a word (Node would answer 408).
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const answered = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code !== 'ERR_HTTP_REQUEST_TIMEOUT' && socket.writable && !answered) {
    socket.write(`HTTP/1.1 ${CLIENT_ERROR_STATUS[err.code ?? ''] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`);
  }
  socket.destroy();
}

/**
 * Request line and headers up to Go's DefaultMaxHeaderBytes (1 MiB), which kube keeps, rather than Node's
 * 16 KiB: long label selectors and large tokens fit. Beyond it Node answers 431 and closes, as Go does.
 */
const MAX_HEADER_BYTES = 1024 * 1024;

/**
 * Node's HTTP server pauses a keep-alive connection's parser when a new request arrives while the previous
 * response is still above the socket's write high-water mark; on TLS sockets more of the request can still
 * arrive then, the parser fails with HPE_PAUSED and the connection is dropped (kubectl saw EOF creating large
 * CRDs one after the other). Responses up to this size stay below the mark.
 */
const SOCKET_HIGH_WATER_MARK = 16 * 1024 * 1024;

function raiseWriteHighWaterMark(socket: TLSSocket): void {
  const state = (socket as unknown as { _writableState?: { highWaterMark: number } })._writableState;
  if (state) state.highWaterMark = SOCKET_HIGH_WATER_MARK;
}

/** A listener's request callback: a fresh context per request, through the chain. */
function listener(chain: Handler, serverAddress: (req: IncomingMessage) => string): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    try {
      void chain(newRequestContext(req, res, serverAddress(req)));
    } catch (e) {
      // A request line the context cannot be made from (an unparsable URL) never reaches the chain's recovery.
      writeError(res, S.badRequest(e instanceof Error ? e.message : String(e)), req.headers.accept);
    }
  };
}

function listen(s: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => {
      s.off('error', reject);
      resolve((s.address() as AddressInfo).port);
    });
  });
}
