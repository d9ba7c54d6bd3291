// What the generic store hands admission on every write (k8s.io/apiserver admission.Attributes), and the
// two calls it makes: mutating admission before the strategy runs, validating admission after the
// strategy's validation, just before storage. The chain and its plugins live in src/admission; the store
// only knows this interface.
import type { UserInfo } from '../api/user.js';
import type { ServedResource } from '../api/resource.js';
import type { JSONObject } from '../util/json.js';
import type { Subresource } from './resource-type.js';
import type { DeleteOptions } from './deletion.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionAttributes {
  operation: Operation;
  /** The endpoint written through: group, version, resource, kind, scope. */
  resource: ServedResource;
  subresource: Subresource;
  namespace: string;
  /** '' for a create whose name is still to be generated, and for a deletecollection. */
  name: string;
  /** The object being written; mutating plugins may change it. Absent on delete. */
  object?: JSONObject;
  /** The current object on update and delete (absent when admission runs before it is read). */
  oldObject?: JSONObject;
  /** The request's delete options (on delete). */
  options?: DeleteOptions;
  dryRun: boolean;
  /** Who asks; absent for the server's own writes (controllers, start-up). */
  user?: UserInfo;
  /** Where plugins add the response's Warning headers (ValidatingAdmissionPolicy's Warn action). */
  warnings?: string[];
  /** The request's latency tracker, where webhooks note the time they took. */
  latency?: LatencyTracker;
}

/** kube's webhook LatencyTrackers: mutating webhooks run one after another (summed), validating ones at once (the longest). */
export interface LatencyTracker {
  mutatingWebhookSeconds: number;
  validatingWebhookSeconds: number;
}

/**
 * Both steps answer at once (undefined) when nothing had to wait, else with a promise; a refusal is a thrown
 * StatusError or a rejection. Callers await what they get (a write takes no turn of the microtask queue per
 * step for plugins that answer at once).
 */
export interface Admission {
  /** Mutating admission: may change attrs.object; throws a StatusError to refuse. */
  admit(attrs: AdmissionAttributes): Promise<void> | void;
  /** Validating admission: may only refuse. */
  validate(attrs: AdmissionAttributes): Promise<void> | void;
}

/** For stores no admission guards (tests of the store itself). */
export const NO_ADMISSION: Admission = {
  admit: () => undefined,
  validate: () => undefined,
};
