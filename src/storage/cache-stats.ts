// What the watch cache counts as it works, for kube's apiserver_watch_cache_* and apiserver_cache_list_*
// metrics: by key directory and list prefix rather than by resource (the cache holds the whole keyspace and
// knows no resources); the metrics add them up per resource's key prefix when scraped.
export class CacheStats {
  /** Events applied, by the key's directory (the key up to its last '/'). */
  readonly events = new Map<string, number>();
  /** Current lists answered from memory, and the keys they read, by the prefix listed. */
  readonly lists = new Map<string, { count: number; fetched: number }>();
  /** Times the cache loaded the keyspace (at start, and again after its watch broke). */
  loads = 0;

  noteEvent(key: string): void {
    const dir = key.slice(0, key.lastIndexOf('/') + 1);
    this.events.set(dir, (this.events.get(dir) ?? 0) + 1);
  }

  noteList(prefix: string, fetched: number): void {
    const s = this.lists.get(prefix);
    if (s) {
      s.count++;
      s.fetched += fetched;
    } else {
      this.lists.set(prefix, { count: 1, fetched });
    }
  }

  /** Events under a key prefix. */
  eventsUnder(prefix: string): number {
    let n = 0;
    for (const [dir, count] of this.events) if (dir.startsWith(prefix)) n += count;
    return n;
  }

  /** Lists of a key prefix or below it (a namespace's), and the keys they read. */
  listsUnder(prefix: string): { count: number; fetched: number } {
    const out = { count: 0, fetched: 0 };
    for (const [p, s] of this.lists) {
      if (!p.startsWith(prefix)) continue;
      out.count += s.count;
      out.fetched += s.fetched;
    }
    return out;
  }
}
