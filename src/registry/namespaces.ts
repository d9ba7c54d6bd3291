// Core v1 Namespaces beyond their declaration (src/apis/core/v1/namespace.ts): the initial and immortal
// namespaces. The admission that guards their content is src/admission/namespace-lifecycle.ts, the
// controller that empties a terminating namespace src/controllers/namespace.ts.
import * as S from '../api/status.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import type { GenericStore } from './store.js';

export const NAMESPACE_GR: S.GroupResource = { group: '', resource: 'namespaces' };
/** Namespaces that exist from the start and may not be deleted. */
export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];
const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** The spec of a namespace, created empty when missing. */
export const namespaceSpec = (obj: JSONObject): JSONObject => {
  if (!isObject(obj['spec'])) obj['spec'] = {};
  return obj['spec'] as JSONObject;
};

/** Ensures the initial namespaces exist (idempotent, on every start), as kube-apiserver's own client creates them. */
export async function ensureInitialNamespaces(store: GenericStore): Promise<void> {
  for (const name of INITIAL_NAMESPACES) {
    // Read first, as kube's system namespaces controller does: every start but the first finds them, and a create
    // refused as AlreadyExists had built and checked the whole object (and its error) for nothing.
    if (await store.find('', name)) continue;
    try {
      const obj: JSONObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
      store.type.strategy.admitBody?.(obj, 'Ignore', []);
      await store.createStored('', obj, { manager: 'kube-apiserver', givenAway: true });
    } catch (e) {
      if (!(e instanceof S.StatusError && e.code === 409)) throw e;
    }
  }
}
