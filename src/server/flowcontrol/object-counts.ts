// How many objects each resource holds, refreshed once a minute as kube's object count tracker is from
// storage: what priority and fairness charges a list for (one seat per 100 objects it may read). A resource
// not counted yet has no figure, and its lists cost the minimum, as in kube. The same figures are
// apiserver_storage_objects.
import type { KVStore } from '../../storage/types.js';
import type { ApiRegistry } from '../api-registry.js';

const REFRESH_MS = 60_000;

export class ObjectCounts {
  private counts = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly registry: ApiRegistry,
    private readonly kv: KVStore,
  ) {}

  /**
   * Counts once `after` settles (a watch cache's first load: then from memory, not by a count query per resource
   * at start-up, ahead of the first requests), then once a minute.
   */
  start(after: Promise<unknown> = Promise.resolve()): void {
    void after.then(() => (this.stopped ? undefined : this.refresh()));
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  get(group: string, resource: string): number | undefined {
    return this.counts.get(`${group}/${resource}`);
  }

  /** Every resource counted: group, resource, objects. */
  *entries(): IterableIterator<[group: string, resource: string, count: number]> {
    for (const [key, n] of this.counts) {
      const slash = key.indexOf('/');
      yield [key.slice(0, slash), key.slice(slash + 1), n];
    }
  }

  refresh(): Promise<void> {
    this.refreshing ??= this.count().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async count(): Promise<void> {
    const next = new Map<string, number>();
    for (const r of this.registry.served()) {
      const key = `${r.group}/${r.resource}`;
      if (next.has(key)) continue;
      const ep = this.registry.lookup(r.group, r.version, r.resource);
      if (!ep) continue;
      try {
        next.set(key, await this.kv.count(ep.store.type.keyPrefix));
      } catch {
        // Storage closing or busy: keep the last figure for this one.
        const last = this.counts.get(key);
        if (last !== undefined) next.set(key, last);
      }
    }
    this.counts = next;
  }
}
