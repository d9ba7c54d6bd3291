// The post-start hook rbac/bootstrap-roles (pkg/registry/rbac/rest/storage_rbac.go) with the reconciliation
// rules of pkg/registry/rbac/reconciliation: on every start each bootstrap ClusterRole, ClusterRoleBinding and
// (in kube-system and kube-public) Role and RoleBinding is created when missing; an existing one keeps what
// it has and gains what is missing (labels and annotations it lacks, rules it does not cover, aggregation
// selectors, subjects), unless its rbac.authorization.kubernetes.io/autoupdate annotation is "false". A
// binding whose roleRef changed is recreated. Nothing is removed (kube runs these hooks without
// RemoveExtraPermissions). Roles and RoleBindings follow the same rules as the cluster kinds, as in kube.
import * as S from '../../api/status.js';
import type { JSONObject } from '../../util/json.js';
import { deepEqual, isObject, deepCopyJSON } from '../../util/json.js';
import type { GenericStore } from '../../registry/store.js';
import { AUTO_UPDATE_ANNOTATION, sharedBootstrapPolicy } from './bootstrap-policy.js';
import { covers, rulesOf } from './policy-rule.js';

const MANAGER = 'kube-apiserver';

type Meta = { labels?: Record<string, string>; annotations?: Record<string, string>; resourceVersion?: string };
const metaOf = (o: JSONObject): Meta => o['metadata'] as Meta;
const protectedObject = (o: JSONObject): boolean => metaOf(o).annotations?.[AUTO_UPDATE_ANNOTATION] === 'false';

/** merge(expected, existing): the existing values win. Returns whether anything was added. */
function mergeMeta(obj: JSONObject, expected: JSONObject): boolean {
  const meta = metaOf(obj);
  let changed = false;
  for (const k of ['labels', 'annotations'] as const) {
    const merged = { ...(metaOf(expected)[k] ?? {}), ...(meta[k] ?? {}) };
    // merged has every key meta has: it adds something when it has more.
    if (Object.keys(merged).length !== Object.keys(meta[k] ?? {}).length) {
      meta[k] = merged;
      changed = true;
    }
  }
  return changed;
}

/** obj and its metadata copied one level deep (mergeMeta and the reconcilers replace, never change, what is below). */
const shallowWithMeta = (obj: JSONObject): JSONObject => ({ ...obj, metadata: { ...metaOf(obj) } });

const selectorsOf = (role: JSONObject): JSONObject[] => {
  const rule = role['aggregationRule'];
  return isObject(rule) && Array.isArray(rule['clusterRoleSelectors']) ? (rule['clusterRoleSelectors'] as JSONObject[]) : [];
};

/** Whether every label and annotation key of expected is on obj already (mergeMeta would add nothing). */
function hasExpectedMeta(obj: JSONObject, expected: JSONObject): boolean {
  for (const k of ['labels', 'annotations'] as const) {
    const have = metaOf(obj)[k] ?? {};
    for (const key of Object.keys(metaOf(expected)[k] ?? {})) if (!Object.hasOwn(have, key)) return false;
  }
  return true;
}

/**
 * What every start finds: the role as the policy has it (the same rules and aggregation rule, its labels and
 * annotations). Nothing to reconcile then, and a start need not work out rule coverage ~70 times. Compared
 * whatever the order of keys: a stored rule reads back in Go's field order (verbs first), the policy's in its
 * file's (apiGroups first).
 */
export function unchangedRole(existing: JSONObject, expected: JSONObject): boolean {
  return hasExpectedMeta(existing, expected) && deepEqual(existing['rules'] ?? null, expected['rules'] ?? null) && deepEqual(existing['aggregationRule'] ?? null, expected['aggregationRule'] ?? null);
}

/** computeReconciledRole without RemoveExtraPermissions (ClusterRoles and Roles alike): the role to write, or undefined when nothing changes. */
export function reconcileClusterRole(existing: JSONObject, expected: JSONObject): JSONObject | undefined {
  if (unchangedRole(existing, expected)) return undefined;
  // What changes is set anew at the top of the role or its metadata, never inside: one deep copy, at the end.
  const role = shallowWithMeta(existing);
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
    const missingSelectors = selectorsOf(expected).filter((s) => !have.some((h) => deepEqual(h, s)));
    if (missingSelectors.length > 0) {
      role['aggregationRule'] = { ...(isObject(existing['aggregationRule']) ? existing['aggregationRule'] : {}), clusterRoleSelectors: [...have, ...missingSelectors] };
      changed = true;
    }
  }
  // A copy, also of what it took from the (shared, frozen) policy: the write fills in what it is given.
  return changed ? deepCopyJSON(role) : undefined;
}

const subjectsOf = (b: JSONObject): JSONObject[] => (Array.isArray(b['subjects']) ? (b['subjects'] as JSONObject[]) : []);
const subjectKey = (s: JSONObject): string => JSON.stringify([s['kind'] ?? '', s['apiGroup'] ?? '', s['name'] ?? '', s['namespace'] ?? '']);

/** computeReconciledRoleBinding without RemoveExtraSubjects (either kind of binding): 'recreate' when the roleRef differs. */
export function reconcileClusterRoleBinding(existing: JSONObject, expected: JSONObject): JSONObject | 'recreate' | undefined {
  if (!deepEqual(existing['roleRef'] ?? null, expected['roleRef'] ?? null)) return 'recreate';
  const binding = shallowWithMeta(existing);
  let changed = mergeMeta(binding, expected);
  const have = new Set(subjectsOf(existing).map(subjectKey));
  const missing = subjectsOf(expected).filter((s) => !have.has(subjectKey(s)));
  if (missing.length > 0) {
    binding['subjects'] = [...subjectsOf(existing), ...missing];
    changed = true;
  }
  return changed ? deepCopyJSON(binding) : undefined;
}

const nameOf = (o: JSONObject): { namespace: string; name: string } => {
  const meta = o['metadata'] as JSONObject;
  return { namespace: typeof meta['namespace'] === 'string' ? meta['namespace'] : '', name: String(meta['name']) };
};

async function createIgnoringConflict(store: GenericStore, namespace: string, obj: JSONObject): Promise<void> {
  try {
    // A copy: the policy is shared (and frozen), and a create fills in the object it is given. The copy is the
    // write's (given away: its event takes the built object, no decode) and nothing reads the result back.
    await store.createStored(namespace, deepCopyJSON(obj), { manager: MANAGER, givenAway: true });
  } catch (e) {
    if (!(e instanceof S.StatusError && e.code === 409)) throw e;
  }
}

/**
 * Where a start reads the existing objects: the store, or (kube reads through a client) a cache just synced with
 * it, e.g. the RBAC authorizer's informers: a restart then neither reads nor decodes its ~130 objects again.
 */
export type FindExisting = (namespace: string, name: string) => JSONObject | undefined | Promise<JSONObject | undefined>;

const isConflict = (e: unknown): boolean => e instanceof S.StatusError && e.code === 409;

/**
 * One object's reconcile with what `find` reads, run again with what the store holds when its write conflicts
 * (kube's RetryOnConflict): a cached read may be older than the store (another replica's start).
 */
async function retryingOnConflict(store: GenericStore, namespace: string, name: string, find: FindExisting, run: (existing: JSONObject | undefined) => Promise<void>): Promise<void> {
  try {
    await run(await find(namespace, name));
  } catch (e) {
    if (!isConflict(e)) throw e;
    await run(await store.find(namespace, name));
  }
}

/** ReconcileRoleOptions.Run for one role: create it, or add what it misses, or leave a protected one alone. */
async function ensureRole(store: GenericStore, expected: JSONObject, find: FindExisting): Promise<void> {
  const { namespace, name } = nameOf(expected);
  await retryingOnConflict(store, namespace, name, find, async (existing) => {
    if (!existing) return createIgnoringConflict(store, namespace, expected);
    if (protectedObject(existing)) return;
    const desired = reconcileClusterRole(existing, expected);
    if (desired) await store.updateStored(namespace, name, () => desired, '', { manager: MANAGER, givenAway: true });
  });
}

/** ReconcileRoleBindingOptions.Run for one binding: likewise, recreating it when its roleRef changed. */
async function ensureBinding(store: GenericStore, expected: JSONObject, find: FindExisting): Promise<void> {
  const { namespace, name } = nameOf(expected);
  await retryingOnConflict(store, namespace, name, find, async (existing) => {
    if (!existing) return createIgnoringConflict(store, namespace, expected);
    if (protectedObject(existing)) return;
    const desired = reconcileClusterRoleBinding(existing, expected);
    if (desired === 'recreate') {
      // Deleted as read, so that a binding changed meanwhile is read again rather than lost.
      await store.delete(namespace, name, { preconditions: { resourceVersion: metaOf(existing).resourceVersion } });
      await createIgnoringConflict(store, namespace, expected);
    } else if (desired) await store.updateStored(namespace, name, () => desired, '', { manager: MANAGER, givenAway: true });
  });
}

export interface RbacStores {
  clusterRoles: GenericStore;
  clusterRoleBindings: GenericStore;
  roles: GenericStore;
  roleBindings: GenericStore;
}

/** What ensureBootstrapPolicy reads the existing objects with, per kind (by default each store's find). */
export type RbacFinders = { [K in keyof RbacStores]: FindExisting };

/**
 * Ensures the bootstrap policy, reconciled as kube does on every start: ClusterRoles, ClusterRoleBindings,
 * then the namespaced Roles and RoleBindings (their namespaces, kube-system and kube-public, must exist).
 */
export async function ensureBootstrapPolicy(stores: RbacStores, finders?: RbacFinders): Promise<void> {
  const policy = sharedBootstrapPolicy();
  const find = (k: keyof RbacStores): FindExisting => finders?.[k] ?? ((namespace, name) => stores[k].find(namespace, name));
  // Kind by kind as kube does; within a kind the objects are independent, so written concurrently (a start
  // writes ~150 of them).
  await Promise.all(policy.clusterRoles.map((r) => ensureRole(stores.clusterRoles, r, find('clusterRoles'))));
  await Promise.all(policy.clusterRoleBindings.map((b) => ensureBinding(stores.clusterRoleBindings, b, find('clusterRoleBindings'))));
  await Promise.all(policy.roles.map((r) => ensureRole(stores.roles, r, find('roles'))));
  await Promise.all(policy.roleBindings.map((b) => ensureBinding(stores.roleBindings, b, find('roleBindings'))));
}
