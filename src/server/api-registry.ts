// Every resource endpoint the server has: the built-ins and whatever the CRDs serve right now.
import type { ServedResource } from '../api/resource.js';
import type { Endpoint } from '../registry/endpoint.js';
import type { CrdServing } from '../crd/serving.js';
import type { GenericStore } from '../registry/store.js';
import type { RequestContext } from './context.js';

/** Serves a subresource declared with its own handler (served.subresources.others), given the parent's store. */
export type SubresourceHandler = (ctx: RequestContext, parent: GenericStore) => Promise<void>;

export class ApiRegistry {
  private builtins = new Map<string, Endpoint>();
  private subresourceHandlers = new Map<string, SubresourceHandler>();

  constructor(readonly crds: CrdServing) {}

  addBuiltin(ep: Endpoint): void {
    const s = ep.store.type.served;
    this.builtins.set(`${s.group}/${s.version}/${s.resource}`, ep);
  }

  /** The handler of a declared subresource of a built-in resource (the ServiceAccount's token). */
  addSubresourceHandler(group: string, version: string, resource: string, subresource: string, handler: SubresourceHandler): void {
    this.subresourceHandlers.set(`${group}/${version}/${resource}/${subresource}`, handler);
  }

  subresourceHandler(group: string, version: string, resource: string, subresource: string): SubresourceHandler | undefined {
    return this.subresourceHandlers.get(`${group}/${version}/${resource}/${subresource}`);
  }

  lookup(group: string, version: string, resource: string): Endpoint | undefined {
    const b = this.builtins.get(`${group}/${version}/${resource}`);
    if (b) return b;
    return this.crds.lookup(group, version, resource)?.endpoint;
  }

  /** Everything discovery and OpenAPI publish. */
  served(): ServedResource[] {
    return [...[...this.builtins.values()].map((e) => e.store.type.served), ...this.crds.served()];
  }

  /** A cache key for documents derived from served(). */
  generation(): number {
    return this.crds.generation;
  }
}
