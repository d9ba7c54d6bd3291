// What kube-controller-manager's per-namespace controllers share: the manager their writes are recorded
// for, which namespaces they keep things in, and which refusals of a create they let go.
import * as S from '../api/status.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';

/** The manager kube-controller-manager's writes are recorded for (its User-Agent's prefix). */
export const KUBE_CONTROLLER_MANAGER = 'kube-controller-manager';

/** Whether a namespace is Active (not terminating). */
export const isActive = (ns: JSONObject): boolean => isObject(ns['status']) && ns['status']['phase'] === 'Active';

/**
 * A create refused because the namespace is gone (404) or terminating (403 with a NamespaceTerminating
 * cause): the controllers do not retry it. An object created meanwhile (409) is there, as wanted.
 */
export function settledRefusal(e: unknown): boolean {
  if (!(e instanceof S.StatusError)) return false;
  if (e.code === 404 || e.code === 409) return true;
  const causes = (e.status.details?.causes ?? []) as Array<{ reason?: string }>;
  return e.code === 403 && causes.some((c) => c.reason === 'NamespaceTerminating');
}
