// One resource endpoint as the router serves it: the store behind it and what the route accepts. Built-in
// kinds and every served version of every CRD produce one (the CRD handler builds those of custom resources).
import type { ScaleSubresource } from '../api/resource.js';
import type { GenericStore } from './store.js';
import type { Subresource } from './resource-type.js';
import type { ReplicasPaths } from './field-manager/scale-mapping.js';
import type { JSONObject } from '../util/json.js';
import type { UserInfo } from '../api/user.js';

/**
 * A create-only kind's REST: given the decoded object (its namespace that of the request), the object to answer
 * with, status filled in. Nothing is stored; kube's access and token reviews are such storages.
 */
export type Creater = (request: { user: UserInfo; namespace: string }, obj: JSONObject) => Promise<JSONObject> | JSONObject;

export interface Endpoint {
  store: GenericStore;
  /** Subresources served besides the main resource. */
  subresources: ReadonlySet<Subresource>;
  /** The scale subresource's paths, when it is served. */
  scale?: ScaleSubresource;
  /** The kind's replicas path at each of its versions (null where it has no scale), for /scale's managed fields. */
  replicasPaths?: ReplicasPaths;
  /** Patch content types accepted (kube's list for the kind). */
  patchTypes: readonly string[];
  warnings?: readonly string[];
  /** For create-only kinds: what a POST runs instead of storing the object. */
  creater?: Creater;
}

/**
 * Whether the CRD handler serves the endpoint rather than the built-in (go-restful) routes: unsupported verbs
 * and patch content types are then answered in crdHandler's words instead of go-restful's. Custom resources
 * are the types without a Go type.
 */
export const servedByCrdHandler = (ep: Endpoint): boolean => ep.store.type.goType === undefined;
