// kube's watchTracker (pkg/util/flowcontrol/watch_tracker.go): the watches open now, by group, resource,
// namespace and name, so a write can be charged for the watchers it will notify.
import type { RequestInfo } from '../request-info.js';

type WatchKey = string;
const keyOf = (group: string, resource: string, namespace = '', name = ''): WatchKey => JSON.stringify([group, resource, namespace, name]);

export class WatchTracker {
  private counts = new Map<WatchKey, number>();

  /** Counts a watch while it is open; call the returned function once when it ends. */
  register(info: Pick<RequestInfo, 'apiGroup' | 'resource' | 'namespace' | 'name'>, fieldSelector?: string | null): () => void {
    // A watch of one object by `metadata.name=` selects it as a name in the path would (kube's RequestInfo).
    const name = info.name || nameFromFieldSelector(fieldSelector);
    const key = keyOf(info.apiGroup, info.resource, info.namespace, name);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let forgotten = false;
    return () => {
      if (forgotten) return;
      forgotten = true;
      const n = (this.counts.get(key) ?? 1) - 1;
      if (n > 0) this.counts.set(key, n);
      else this.counts.delete(key);
    };
  }

  /**
   * The watches a write to this object would send an event to: those of the whole resource, of its namespace,
   * and of the object by name.
   */
  interestedCount(info: Pick<RequestInfo, 'apiGroup' | 'resource' | 'namespace' | 'name'>): number {
    let n = this.counts.get(keyOf(info.apiGroup, info.resource)) ?? 0;
    if (info.namespace) n += this.counts.get(keyOf(info.apiGroup, info.resource, info.namespace)) ?? 0;
    if (info.name) n += this.counts.get(keyOf(info.apiGroup, info.resource, info.namespace, info.name)) ?? 0;
    return n;
  }
}

function nameFromFieldSelector(selector: string | null | undefined): string {
  if (!selector) return '';
  for (const term of selector.split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m) return m[1]!;
  }
  return '';
}
