// kube-apiserver's bootstrap RBAC policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), as data: the
// ClusterRoles, ClusterRoleBindings and the kube-system / kube-public Roles and RoleBindings kept in
// policy/rbac-bootstrap/ in the layout of kube's testdata (a v1 List sorted by name per file), read once and
// handed out as objects to create. policy/rbac-bootstrap/README.md says where each file comes from. The
// server reads them from policy.json, the same files parsed by scripts/rbac-bootstrap-json.mjs (a test
// checks that it matches them).
import { readFileSync } from 'node:fs';
import type { JSONObject } from '../../util/json.js';
import { isObject, deepCopyJSON } from '../../util/json.js';
import { PACKAGE_ROOT } from '../../util/package-root.js';

export const AUTO_UPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

/** The policy files: beside src/ in the repository, and beside dist/ in a build (both three levels up). */
export const BOOTSTRAP_POLICY_DIR = new URL('policy/rbac-bootstrap/', PACKAGE_ROOT);

/** policy.json: each policy file's v1 List, by file name. */
const readPolicyJson = (): Record<string, unknown> => JSON.parse(readFileSync(new URL('policy.json', BOOTSTRAP_POLICY_DIR), 'utf8')) as Record<string, unknown>;

/** One file's items from policy.json, as the server writes them: no creationTimestamp, `rules: null` as []. Changes the parsed items. */
function policyItems(parsed: Record<string, unknown>, name: string): JSONObject[] {
  const list = parsed[name];
  const items = isObject(list) && Array.isArray(list['items']) ? (list['items'] as JSONObject[]) : [];
  for (const obj of items) {
    if (isObject(obj['metadata'])) delete obj['metadata']['creationTimestamp'];
    if (obj['kind'] === 'ClusterRole' || obj['kind'] === 'Role') obj['rules'] ??= [];
  }
  return items;
}

/** The items of one policy file, as the server writes them (read anew: the caller's to change). */
export function readPolicyFile(name: string): JSONObject[] {
  return policyItems(readPolicyJson(), name);
}

/** Which file holds what, as kube splits them: its own policy, then the controllers' (system:controller:*). */
export const POLICY_FILES = {
  clusterRoles: ['cluster-roles.yaml', 'controller-roles.yaml'],
  clusterRoleBindings: ['cluster-role-bindings.yaml', 'controller-role-bindings.yaml'],
  roles: ['namespace-roles.yaml'],
  roleBindings: ['namespace-role-bindings.yaml'],
} as const;

export type BootstrapPolicy = { [K in keyof typeof POLICY_FILES]: JSONObject[] };

const deepFreeze = <T>(v: T): T => {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
};

/** Read once and frozen: callers that change what they get have copies (deepCopyJSON's are not frozen). */
let cache: Readonly<BootstrapPolicy> | undefined;
/** Parsed once, each file's items taken as parsed (a copy of each was half of a restart's cost of reading the policy). */
function policy(): Readonly<BootstrapPolicy> {
  if (cache) return cache;
  const parsed = readPolicyJson();
  const items = (files: readonly string[]): JSONObject[] => files.flatMap((f) => policyItems(parsed, f));
  return (cache = deepFreeze({
    clusterRoles: items(POLICY_FILES.clusterRoles),
    clusterRoleBindings: items(POLICY_FILES.clusterRoleBindings),
    roles: items(POLICY_FILES.roles),
    roleBindings: items(POLICY_FILES.roleBindings),
  }));
}

/** The whole bootstrap policy, as the server creates it (fresh copies). */
export function bootstrapPolicy(): BootstrapPolicy {
  return deepCopyJSON(policy());
}

/**
 * The bootstrap policy shared, not copied, for reading: frozen, so that a caller who would change it fails rather
 * than change every later start's policy. (Every start reconciles it and a restart writes none of it: copying
 * the whole policy each time was most of what a restart's reconcile cost.)
 */
export function sharedBootstrapPolicy(): Readonly<BootstrapPolicy> {
  return policy();
}

/** The bootstrap ClusterRoles: kube's own and the controllers'. */
export function bootstrapClusterRoles(): JSONObject[] {
  return deepCopyJSON(policy().clusterRoles);
}

/** The bootstrap ClusterRoleBindings. */
export function bootstrapClusterRoleBindings(): JSONObject[] {
  return deepCopyJSON(policy().clusterRoleBindings);
}
