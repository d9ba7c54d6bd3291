// Keeps the serving table (which custom resources are routed, and how) in step with the CRDs, as kube's
// CRD handler does from its informer: every change rebuilds what changed, a deletion stops serving.
import type { EventHandlers } from '../controllers/informer.js';
import type { CrdServing } from './serving.js';
import { asCRD } from './types.js';
import type { JSONObject } from '../util/json.js';

export function servingHandlers(serving: Pick<CrdServing, 'update' | 'remove'>): EventHandlers {
  return {
    add: (o) => serving.update(asCRD(o)),
    update: (_old, o) => serving.update(asCRD(o)),
    delete: (o) => serving.remove(asCRD(o).metadata.name ?? ''),
  };
}

/**
 * A CRD's new state with the spec the informer held when uid and generation say the spec is unchanged (every
 * change of the spec through the API bumps generation): a new CRD's three status writes would otherwise leave
 * three decoded copies of its schemas alive, held by what each state built (its compiled-schema sources, its
 * endpoints' served types, the informer's cache).
 */
export function reuseUnchangedSpec(held: JSONObject, next: JSONObject): JSONObject {
  const a = held['metadata'] as JSONObject | undefined;
  const b = next['metadata'] as JSONObject | undefined;
  const same = a && b && typeof a['uid'] === 'string' && a['uid'] === b['uid'] && typeof a['generation'] === 'number' && a['generation'] === b['generation'];
  return same && held['spec'] !== undefined && held['spec'] !== next['spec'] ? { ...next, spec: held['spec'] } : next;
}
