// kube-apiserver's bootstrap RBAC policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), as data: the
// ClusterRoles and ClusterRoleBindings kept in policy/rbac-bootstrap/ in the layout of kube's testdata
// (cluster-roles.yaml, cluster-role-bindings.yaml: a v1 List sorted by name), read once and handed out as
// objects to create. policy/rbac-bootstrap/README.md says where each file comes from.
import { readFileSync } from 'node:fs';
import type { JSONObject } from '../../util/json.js';
import { isObject } from '../../util/json.js';
import { parseBlockYaml } from '../../util/block-yaml.js';

export const AUTO_UPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

/** The policy files: beside src/ in the repository, and beside dist/ in a build (both three levels up). */
export const BOOTSTRAP_POLICY_DIR = new URL('../../../policy/rbac-bootstrap/', import.meta.url);

/** The items of one policy file, as the server writes them: no creationTimestamp, `rules: null` as []. */
export function readPolicyFile(name: string): JSONObject[] {
  const list: unknown = parseBlockYaml(readFileSync(new URL(name, BOOTSTRAP_POLICY_DIR), 'utf8'));
  const items = isObject(list) && Array.isArray(list['items']) ? (list['items'] as JSONObject[]) : [];
  return items.map((item) => {
    const obj = structuredClone(item);
    if (isObject(obj['metadata'])) delete obj['metadata']['creationTimestamp'];
    if (obj['kind'] === 'ClusterRole' || obj['kind'] === 'Role') obj['rules'] ??= [];
    return obj;
  });
}

let cache: { roles: JSONObject[]; bindings: JSONObject[] } | undefined;
const policy = (): { roles: JSONObject[]; bindings: JSONObject[] } =>
  (cache ??= { roles: readPolicyFile('cluster-roles.yaml'), bindings: readPolicyFile('cluster-role-bindings.yaml') });

/** The bootstrap ClusterRoles, as the server creates them (fresh copies). */
export function bootstrapClusterRoles(): JSONObject[] {
  return structuredClone(policy().roles);
}

/** The bootstrap ClusterRoleBindings. */
export function bootstrapClusterRoleBindings(): JSONObject[] {
  return structuredClone(policy().bindings);
}
