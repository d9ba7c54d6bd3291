// kube-apiserver's bootstrap RBAC policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), as data: the
// ClusterRoles and ClusterRoleBindings of kube 1.33's testdata/cluster-roles.yaml and
// cluster-role-bindings.yaml that this server has use for (the user-facing roles, discovery, the public
// info and self-review roles, delegation, monitoring, issuer discovery). The node, kubelet, scheduler,
// controller-manager and controller roles are left out: nothing here runs as them.
import type { JSONObject } from '../../util/json.js';
import type { PolicyRule } from './policy-rule.js';

export const AUTO_UPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';
const RBAC_GROUP = 'rbac.authorization.k8s.io';

const RW = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ = ['get', 'list', 'watch'];
const EVERYTHING = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const r = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({ apiGroups, resources, verbs });
const urls = (nonResourceURLs: string[], verbs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

const aggregateTo = (role: string): Record<string, string> => ({ [`rbac.authorization.k8s.io/aggregate-to-${role}`]: 'true' });
const aggregating = (role: string) => ({ clusterRoleSelectors: [{ matchLabels: aggregateTo(role) }] });

interface RoleData {
  name: string;
  labels?: Record<string, string>;
  rules?: PolicyRule[];
  aggregationRule?: JSONObject;
}

const ROLES: readonly RoleData[] = [
  { name: 'admin', aggregationRule: aggregating('admin') },
  { name: 'cluster-admin', rules: [r(['*'], ['*'], ['*']), urls(['*'], ['*'])] },
  { name: 'edit', labels: aggregateTo('admin'), aggregationRule: aggregating('edit') },
  {
    name: 'system:aggregate-to-admin',
    labels: aggregateTo('admin'),
    rules: [r(['authorization.k8s.io'], ['localsubjectaccessreviews'], ['create']), r([RBAC_GROUP], ['rolebindings', 'roles'], EVERYTHING)],
  },
  {
    name: 'system:aggregate-to-edit',
    labels: aggregateTo('edit'),
    rules: [
      r([''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], READ),
      r([''], ['serviceaccounts'], ['impersonate']),
      r([''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], RW),
      r([''], ['pods/eviction'], ['create']),
      r([''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy'], RW),
      r([''], ['serviceaccounts/token'], ['create']),
      r(['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'], RW),
      r(['autoscaling'], ['horizontalpodautoscalers'], RW),
      r(['batch'], ['cronjobs', 'jobs'], RW),
      r(['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale'], RW),
      r(['policy'], ['poddisruptionbudgets'], RW),
      r(['networking.k8s.io'], ['ingresses', 'networkpolicies'], RW),
      r(['coordination.k8s.io'], ['leases'], EVERYTHING),
    ],
  },
  {
    name: 'system:aggregate-to-view',
    labels: aggregateTo('view'),
    rules: [
      r([''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'], READ),
      r([''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status'], READ),
      r([''], ['namespaces'], READ),
      r(['discovery.k8s.io'], ['endpointslices'], READ),
      r(['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status'], READ),
      r(['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], READ),
      r(['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], READ),
      r(['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale'], READ),
      r(['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status'], READ),
      r(['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies'], READ),
    ],
  },
  { name: 'system:auth-delegator', rules: [r(['authentication.k8s.io'], ['tokenreviews'], ['create']), r(['authorization.k8s.io'], ['subjectaccessreviews'], ['create'])] },
  {
    name: 'system:basic-user',
    rules: [r(['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], ['create']), r(['authentication.k8s.io'], ['selfsubjectreviews'], ['create'])],
  },
  { name: 'system:discovery', rules: [urls(['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], ['get'])] },
  { name: 'system:monitoring', rules: [urls(['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'], ['get'])] },
  { name: 'system:public-info-viewer', rules: [urls(['/healthz', '/livez', '/readyz', '/version', '/version/'], ['get'])] },
  { name: 'system:service-account-issuer-discovery', rules: [urls(['/.well-known/openid-configuration', '/openid/v1/jwks'], ['get'])] },
  { name: 'view', labels: { ...aggregateTo('edit') }, aggregationRule: aggregating('view') },
];

const group = (name: string) => ({ apiGroup: RBAC_GROUP, kind: 'Group', name });

const BINDINGS: readonly { name: string; role?: string; subjects: JSONObject[] }[] = [
  { name: 'cluster-admin', subjects: [group('system:masters')] },
  { name: 'system:basic-user', subjects: [group('system:authenticated')] },
  { name: 'system:discovery', subjects: [group('system:authenticated')] },
  { name: 'system:monitoring', subjects: [group('system:monitoring')] },
  { name: 'system:public-info-viewer', subjects: [group('system:authenticated'), group('system:unauthenticated')] },
  { name: 'system:service-account-issuer-discovery', subjects: [group('system:serviceaccounts')] },
];

const metadata = (name: string, labels: Record<string, string> = {}): JSONObject => ({
  name,
  labels: { [BOOTSTRAPPING_LABEL]: 'rbac-defaults', ...labels },
  annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' },
});

/** The bootstrap ClusterRoles, as the server creates them. */
export function bootstrapClusterRoles(): JSONObject[] {
  return ROLES.map((role) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: metadata(role.name, role.labels),
    ...(role.aggregationRule ? { aggregationRule: structuredClone(role.aggregationRule) } : {}),
    rules: JSON.parse(JSON.stringify(role.rules ?? [])) as PolicyRule[],
  })) as JSONObject[];
}

/** The bootstrap ClusterRoleBindings. */
export function bootstrapClusterRoleBindings(): JSONObject[] {
  return BINDINGS.map((b) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: metadata(b.name),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: b.role ?? b.name },
    subjects: structuredClone(b.subjects),
  })) as JSONObject[];
}
