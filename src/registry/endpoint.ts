// One resource endpoint as the router serves it: the store behind it and what the route accepts. Built-in
// kinds and every served version of every CRD produce one (the CRD handler builds those of custom resources).
import type { ScaleSubresource } from '../api/resource.js';
import type { GenericStore } from './store.js';
import type { Subresource } from './resource-type.js';

export interface Endpoint {
  store: GenericStore;
  /** Subresources served besides the main resource. */
  subresources: ReadonlySet<Subresource>;
  /** The scale subresource's paths, when it is served. */
  scale?: ScaleSubresource;
  /** Patch content types accepted (servedPatchTypes of kube's list for the kind). */
  patchTypes: readonly string[];
  warnings?: readonly string[];
  /**
   * Served by the CRD handler rather than the built-in (go-restful) routes: unsupported verbs and patch
   * content types are answered in crdHandler's words instead of go-restful's.
   */
  customResource: boolean;
}
