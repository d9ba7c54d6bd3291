// Every resource endpoint the server has: the built-ins and whatever the CRDs serve right now.
import type { ServedResource } from '../api/resource.js';
import type { Endpoint } from '../registry/endpoint.js';
import type { CrdServing } from '../crd/serving.js';

export class ApiRegistry {
  private builtins = new Map<string, Endpoint>();

  constructor(readonly crds: CrdServing) {}

  addBuiltin(ep: Endpoint): void {
    const s = ep.store.type.served;
    this.builtins.set(`${s.group}/${s.version}/${s.resource}`, ep);
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
