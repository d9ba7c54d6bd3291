// Built-in (typed) objects print their fields in Go struct order, as kube-apiserver's typed encoder does.
import type { JSONObject } from '../util/json.js';

const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

export function orderKeys(obj: JSONObject, order: readonly string[]): JSONObject {
  const out: JSONObject = {};
  for (const k of order) if (obj[k] !== undefined) out[k] = obj[k];
  for (const k of Object.keys(obj)) if (!(k in out) && obj[k] !== undefined) out[k] = obj[k];
  return out;
}

/** kind, apiVersion, metadata (struct order), then the rest in the given order. */
export function typedOrder(obj: JSONObject, rest: readonly string[] = ['spec', 'status']): JSONObject {
  const out = orderKeys(obj, ['kind', 'apiVersion', 'metadata', ...rest]);
  if (out['metadata'] && typeof out['metadata'] === 'object') out['metadata'] = orderKeys(out['metadata'] as JSONObject, META_ORDER);
  return out;
}
