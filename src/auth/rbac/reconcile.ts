// The post-start hook rbac/bootstrap-roles (pkg/registry/rbac/rest/storage_rbac.go) with the reconciliation
// rules of pkg/registry/rbac/reconciliation: on every start each bootstrap ClusterRole and ClusterRoleBinding
// is created when missing; an existing one keeps what it has and gains what is missing (labels and
// annotations it lacks, rules it does not cover, aggregation selectors, subjects), unless its
// rbac.authorization.kubernetes.io/autoupdate annotation is "false". A binding whose roleRef changed is
// recreated. Nothing is removed (kube runs these hooks without RemoveExtraPermissions).
import * as S from '../../api/status.js';
import type { JSONObject } from '../../util/json.js';
import { isObject } from '../../util/json.js';
import type { GenericStore } from '../../registry/store.js';
import { AUTO_UPDATE_ANNOTATION, bootstrapClusterRoleBindings, bootstrapClusterRoles } from './bootstrap-policy.js';
import { covers, rulesOf } from './policy-rule.js';

const MANAGER = 'kube-apiserver';

type Meta = { labels?: Record<string, string>; annotations?: Record<string, string> };
const metaOf = (o: JSONObject): Meta => o['metadata'] as Meta;
const protectedObject = (o: JSONObject): boolean => metaOf(o).annotations?.[AUTO_UPDATE_ANNOTATION] === 'false';
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** merge(expected, existing): the existing values win. Returns whether anything was added. */
function mergeMeta(obj: JSONObject, expected: JSONObject): boolean {
  const meta = metaOf(obj);
  let changed = false;
  for (const k of ['labels', 'annotations'] as const) {
    const merged = { ...(metaOf(expected)[k] ?? {}), ...(meta[k] ?? {}) };
    if (!same(Object.keys(merged).sort(), Object.keys(meta[k] ?? {}).sort())) {
      meta[k] = merged;
      changed = true;
    }
  }
  return changed;
}

const selectorsOf = (role: JSONObject): JSONObject[] => {
  const rule = role['aggregationRule'];
  return isObject(rule) && Array.isArray(rule['clusterRoleSelectors']) ? (rule['clusterRoleSelectors'] as JSONObject[]) : [];
};

/** computeReconciledRole without RemoveExtraPermissions: the role to write, or undefined when nothing changes. */
export function reconcileClusterRole(existing: JSONObject, expected: JSONObject): JSONObject | undefined {
  const role = structuredClone(existing);
  let changed = mergeMeta(role, expected);
  const { missing } = covers(rulesOf(existing), rulesOf(expected));
  if (missing.length > 0) {
    role['rules'] = [...rulesOf(existing), ...missing];
    changed = true;
  }
  const hasExpectedRule = isObject(expected['aggregationRule']);
  if (!hasExpectedRule && isObject(existing['aggregationRule'])) {
    delete role['aggregationRule'];
    changed = true;
  } else if (hasExpectedRule) {
    const have = selectorsOf(existing);
    const missingSelectors = selectorsOf(expected).filter((s) => !have.some((h) => same(h, s)));
    if (missingSelectors.length > 0) {
      role['aggregationRule'] = { ...(isObject(existing['aggregationRule']) ? existing['aggregationRule'] : {}), clusterRoleSelectors: [...have, ...missingSelectors] };
      changed = true;
    }
  }
  return changed ? role : undefined;
}

const subjectsOf = (b: JSONObject): JSONObject[] => (Array.isArray(b['subjects']) ? (b['subjects'] as JSONObject[]) : []);
const subjectKey = (s: JSONObject): string => JSON.stringify([s['kind'] ?? '', s['apiGroup'] ?? '', s['name'] ?? '', s['namespace'] ?? '']);

/** computeReconciledRoleBinding without RemoveExtraSubjects: 'recreate' when the roleRef differs. */
export function reconcileClusterRoleBinding(existing: JSONObject, expected: JSONObject): JSONObject | 'recreate' | undefined {
  if (!same(existing['roleRef'], expected['roleRef'])) return 'recreate';
  const binding = structuredClone(existing);
  let changed = mergeMeta(binding, expected);
  const have = new Set(subjectsOf(existing).map(subjectKey));
  const missing = subjectsOf(expected).filter((s) => !have.has(subjectKey(s)));
  if (missing.length > 0) {
    binding['subjects'] = [...subjectsOf(existing), ...missing];
    changed = true;
  }
  return changed ? binding : undefined;
}

async function getOrUndefined(store: GenericStore, name: string): Promise<JSONObject | undefined> {
  try {
    return await store.get('', name);
  } catch (e) {
    if (e instanceof S.StatusError && e.code === 404) return undefined;
    throw e;
  }
}

async function createIgnoringConflict(store: GenericStore, obj: JSONObject): Promise<void> {
  try {
    await store.create('', obj, { manager: MANAGER });
  } catch (e) {
    if (!(e instanceof S.StatusError && e.code === 409)) throw e;
  }
}

/** Ensures the bootstrap ClusterRoles and ClusterRoleBindings, reconciled as kube does on every start. */
export async function ensureBootstrapPolicy(clusterRoles: GenericStore, clusterRoleBindings: GenericStore): Promise<void> {
  for (const expected of bootstrapClusterRoles()) {
    const name = String((expected['metadata'] as JSONObject)['name']);
    const existing = await getOrUndefined(clusterRoles, name);
    if (!existing) {
      await createIgnoringConflict(clusterRoles, expected);
      continue;
    }
    if (protectedObject(existing)) continue;
    const desired = reconcileClusterRole(existing, expected);
    if (desired) await clusterRoles.update('', name, () => desired, '', { manager: MANAGER });
  }
  for (const expected of bootstrapClusterRoleBindings()) {
    const name = String((expected['metadata'] as JSONObject)['name']);
    const existing = await getOrUndefined(clusterRoleBindings, name);
    if (!existing) {
      await createIgnoringConflict(clusterRoleBindings, expected);
      continue;
    }
    if (protectedObject(existing)) continue;
    const desired = reconcileClusterRoleBinding(existing, expected);
    if (desired === 'recreate') {
      await clusterRoleBindings.delete('', name);
      await createIgnoringConflict(clusterRoleBindings, expected);
    } else if (desired) await clusterRoleBindings.update('', name, () => desired, '', { manager: MANAGER });
  }
}
