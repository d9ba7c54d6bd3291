// kube-apiserver 1.33's bootstrap API Priority and Fairness configuration (k8s.io/apiserver
// pkg/apis/flowcontrol/bootstrap/default.go) as v1 JSON: the mandatory objects every server keeps in place,
// and the suggested ones operators may change or delete. Each carries `apf.kubernetes.io/autoupdate-spec:
// "true"`, as the ensurer creates them. Defaulting leaves every one of them unchanged.
import type { JSONObject } from '../../../util/json.js';

export const FLOWCONTROL_V1 = 'flowcontrol.apiserver.k8s.io/v1';
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';

type Subject = JSONObject;
interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  clusterScope?: true;
  namespaces: string[];
}
interface Rules {
  subjects: Subject[];
  resourceRules?: ResourceRule[];
  nonResourceRules?: { verbs: string[]; nonResourceURLs: string[] }[];
}

const meta = (name: string): JSONObject => ({ name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } });

function priorityLevel(name: string, spec: JSONObject): JSONObject {
  return { apiVersion: FLOWCONTROL_V1, kind: 'PriorityLevelConfiguration', metadata: meta(name), spec };
}

const queued = (ncs: number, lendablePercent: number, queues: number, handSize: number): JSONObject => ({
  type: 'Limited',
  limited: {
    nominalConcurrencyShares: ncs,
    limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
    lendablePercent,
  },
});

function flowSchema(name: string, plName: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | '', ...rules: Rules[]): JSONObject {
  return {
    apiVersion: FLOWCONTROL_V1,
    kind: 'FlowSchema',
    metadata: meta(name),
    spec: {
      priorityLevelConfiguration: { name: plName },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  };
}

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemServiceAccounts = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } }));

function resourceRule(verbs: string[], apiGroups: string[], resources: string[], clusterScope: boolean): ResourceRule {
  return { verbs, apiGroups, resources, ...(clusterScope ? { clusterScope: true as const } : {}), namespaces: ['*'] };
}
const nonResourceRule = (verbs: string[], nonResourceURLs: string[]): { verbs: string[]; nonResourceURLs: string[] } => ({ verbs, nonResourceURLs });

/** Every verb on everything, cluster-wide and in every namespace, and every non-resource URL. */
const everything = (subjects: Subject[]): Rules => ({
  subjects,
  resourceRules: [resourceRule(['*'], ['*'], ['*'], true)],
  nonResourceRules: [nonResourceRule(['*'], ['*'])],
});

const KUBE_CONTROLLER_MANAGER = 'system:kube-controller-manager';
const KUBE_SCHEDULER = 'system:kube-scheduler';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';
const ALL_AUTHENTICATED = 'system:authenticated';

export const MANDATORY_PRIORITY_LEVELS: readonly JSONObject[] = [
  priorityLevel('catch-all', {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' }, lendablePercent: 0 },
  }),
  priorityLevel('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
];

export const MANDATORY_FLOW_SCHEMAS: readonly JSONObject[] = [
  flowSchema('exempt', 'exempt', 1, '', everything(groups('system:masters'))),
  flowSchema('catch-all', 'catch-all', 10000, 'ByUser', everything(groups(ALL_UNAUTHENTICATED, ALL_AUTHENTICATED))),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly JSONObject[] = [
  priorityLevel('system', queued(30, 33, 64, 6)),
  priorityLevel('node-high', queued(40, 25, 64, 6)),
  priorityLevel('leader-election', queued(10, 0, 16, 4)),
  priorityLevel('workload-high', queued(40, 50, 128, 6)),
  priorityLevel('workload-low', queued(100, 90, 128, 6)),
  priorityLevel('global-default', queued(20, 50, 128, 6)),
];

const leases = resourceRule(['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'], false);

export const SUGGESTED_FLOW_SCHEMAS: readonly JSONObject[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', everything(groups('system:nodes'))),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups('system:nodes'),
    resourceRules: [resourceRule(['*'], [''], ['nodes', 'nodes/status'], true), resourceRule(['*'], ['coordination.k8s.io'], ['leases'], false)],
  }),
  flowSchema('probes', 'exempt', 2, '', {
    subjects: groups(ALL_UNAUTHENTICATED, ALL_AUTHENTICATED),
    nonResourceRules: [nonResourceRule(['get'], ['/healthz', '/readyz', '/livez'])],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users(KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER), ...kubeSystemServiceAccounts('*')],
    resourceRules: [leases],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: kubeSystemServiceAccounts('*'),
    resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], false), leases],
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [...users(KUBE_CONTROLLER_MANAGER), ...kubeSystemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller')],
    resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], false)],
  }),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything(users(KUBE_CONTROLLER_MANAGER))),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(users(KUBE_SCHEDULER))),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything(kubeSystemServiceAccounts('*'))),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', everything(groups('system:serviceaccounts'))),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', everything(groups(ALL_UNAUTHENTICATED, ALL_AUTHENTICATED))),
];

/** Deep copies of every bootstrap object, priority levels first (as the ensurer creates them). */
export function bootstrapObjects(): { priorityLevels: JSONObject[]; flowSchemas: JSONObject[] } {
  return {
    priorityLevels: [...SUGGESTED_PRIORITY_LEVELS, ...MANDATORY_PRIORITY_LEVELS].map((o) => structuredClone(o)),
    flowSchemas: [...SUGGESTED_FLOW_SCHEMAS, ...MANDATORY_FLOW_SCHEMAS].map((o) => structuredClone(o)),
  };
}

const byName = (objs: readonly JSONObject[], name: string): JSONObject | undefined => objs.find((o) => (o['metadata'] as JSONObject)['name'] === name);
export const mandatoryPriorityLevel = (name: string): JSONObject | undefined => byName(MANDATORY_PRIORITY_LEVELS, name);
export const mandatoryFlowSchema = (name: string): JSONObject | undefined => byName(MANDATORY_FLOW_SCHEMAS, name);
