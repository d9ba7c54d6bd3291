// What both flowcontrol kinds declare alike.
import type { JSONObject } from '../../../util/json.js';
import { metaOf } from '../../../registry/store.js';

/** flowcontrol.apiserver.k8s.io's groupPriorityMinimum in kube-aggregator's table of built-in APIServices. */
export const FLOWCONTROL_GROUP_PRIORITY = 16100;

/** DefaultClusterScopedAttr's fields: the name (a namespace selector compares against ""). */
export const clusterScopedFields = (obj: JSONObject): Record<string, string> => ({
  'metadata.name': String(metaOf(obj).name ?? ''),
  'metadata.namespace': '',
});
