// UpdateStatus of a CRD as kube's controllers do it: the status computed from the cached CRD, written
// only over that same revision. A CRD changed or deleted meanwhile is left alone; its watch event
// brings the controller back to it.
import * as S from '../api/status.js';
import type { GenericStore } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import type { CustomResourceDefinition, CustomResourceDefinitionStatus } from './types.js';
import { deepCopyJSON } from '../util/json.js';

/**
 * Workers of the naming and establishing controllers. Their status writes share the CPU with whatever else is
 * under way (a thousand CRDs created 8 at a time): each write in flight gets its turn, so with 4 workers the
 * writes fell about 50 CRDs behind the creates (create → Established 0.8 s at the median, 2 s at worst), with
 * 16 about 15 (0.2 s, 0.7 s), at the same install rate. Their writes also share the storage's commits.
 */
export const CRD_STATUS_WORKERS = 16;

/**
 * The store's copy for `desired`, which replaces status and metadata.resourceVersion and nothing else: the spec (the
 * schemas) is shared with the stored object read, which a /status write keeps as it is anyway.
 */
function topLevelCopy(current: JSONObject): JSONObject {
  const meta = current['metadata'];
  return { ...current, metadata: typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? { ...meta } : {} };
}

/**
 * Whether the status was written: false when the cached CRD was stale (conflict) or is gone. The written CRD
 * is not read back (no caller looks at it: the watch event brings it to the controllers' caches).
 */
export async function updateCrdStatus(crds: GenericStore, cached: CustomResourceDefinition, status: CustomResourceDefinitionStatus): Promise<boolean> {
  // The cache's objects are shared: the write is the store's own copy of what it read, with the cached
  // resourceVersion as precondition (the same revision, hence the same object; another one is a conflict).
  // That spares a second deep copy of the CRD, schemas and all.
  const rv = cached.metadata.resourceVersion;
  const desired = (current: JSONObject | undefined): JSONObject => {
    if (!current) return deepCopyJSON({ ...cached, status }) as unknown as JSONObject;
    current['status'] = deepCopyJSON(status) as unknown as JSONObject;
    (current['metadata'] as JSONObject)['resourceVersion'] = rv;
    return current;
  };
  try {
    // The cached CRD is usually the watch event's object itself (a new CRD's): then it is the object read.
    // The write's object is the store's copy with a fresh status: given away (it shares the rest with what was read).
    const opts = { manager: 'kube-apiserver', copyCurrent: topLevelCopy, readAs: cached as unknown as JSONObject, givenAway: true };
    await crds.updateStored('', cached.metadata.name ?? '', desired, 'status', opts);
    return true;
  } catch (e) {
    if (e instanceof S.StatusError && (e.code === 404 || e.code === 409)) return false;
    throw e;
  }
}
