// kube's watchTracker (pkg/util/flowcontrol/watch_tracker.go): the watches open now, by group, resource,
// namespace and name, so a write can be charged for the watchers it will notify.
import type { RequestInfo } from '../request-info.js';

/** Open watches by group, resource, namespace and name ('' for all): found without making a key per write. */
type Counts = Map<string, Map<string, Map<string, Map<string, number>>>>;

export class WatchTracker {
  /** Emptied maps are removed, so that a server nobody watches through the API holds none at all. */
  private readonly counts: Counts = new Map();

  /** Counts a watch while it is open; call the returned function once when it ends. */
  register(info: Pick<RequestInfo, 'apiGroup' | 'resource' | 'namespace' | 'name'>, fieldSelector?: string | null): () => void {
    // A watch of one object by `metadata.name=` selects it as a name in the path would (kube's RequestInfo).
    const name = info.name || nameFromFieldSelector(fieldSelector);
    const namespace = info.namespace ?? '';
    const byResource = getOrMake(this.counts, info.apiGroup);
    const byNamespace = getOrMake(byResource, info.resource);
    const byName = getOrMake(byNamespace, namespace);
    byName.set(name, (byName.get(name) ?? 0) + 1);
    let forgotten = false;
    return () => {
      if (forgotten) return;
      forgotten = true;
      const n = (byName.get(name) ?? 1) - 1;
      if (n > 0) return void byName.set(name, n);
      // The emptied maps go, from the inside out, so that watches come and go without leaving keys behind.
      byName.delete(name);
      if (byName.size > 0) return;
      byNamespace.delete(namespace);
      if (byNamespace.size > 0) return;
      byResource.delete(info.resource);
      if (byResource.size === 0) this.counts.delete(info.apiGroup);
    };
  }

  /**
   * The watches a write to this object would send an event to: those of the whole resource, of its namespace,
   * and of the object by name.
   */
  interestedCount(info: Pick<RequestInfo, 'apiGroup' | 'resource' | 'namespace' | 'name'>): number {
    const byNamespace = this.counts.get(info.apiGroup)?.get(info.resource);
    if (byNamespace === undefined) return 0;
    let n = byNamespace.get('')?.get('') ?? 0;
    if (!info.namespace) return info.name ? n + (byNamespace.get('')?.get(info.name) ?? 0) : n;
    const inNamespace = byNamespace.get(info.namespace);
    if (inNamespace === undefined) return n;
    n += inNamespace.get('') ?? 0;
    if (info.name) n += inNamespace.get(info.name) ?? 0;
    return n;
  }

  /** Keys held (tests: nothing is left once every watch has ended). */
  get size(): number {
    return this.counts.size;
  }
}

function getOrMake<V>(m: Map<string, Map<string, V>>, k: string): Map<string, V> {
  let inner = m.get(k);
  if (inner === undefined) m.set(k, (inner = new Map()));
  return inner;
}

function nameFromFieldSelector(selector: string | null | undefined): string {
  if (!selector) return '';
  for (const term of selector.split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m) return m[1]!;
  }
  return '';
}
