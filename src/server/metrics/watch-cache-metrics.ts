// The watch cache's metrics under kube 1.33's names (k8s.io/apiserver pkg/storage/cacher/metrics), per
// resource as kube's per-resource cachers report them. Ours is one cache over the whole keyspace: its counts,
// kept by key directory, are added up per resource's key prefix when scraped (nothing on the request path);
// its revision and its loads are every resource's. LISTs are labelled by resource_prefix, the key prefix
// without /registry ("/configmaps", "/stable.example.com/crontabs"), as kube's are.
import type { CacheStats } from '../../storage/cache-stats.js';
import { CounterVec, GaugeVec } from './vec.js';

/** A resource kept in storage: its group, its plural name and the prefix of its keys. */
export interface StoredResource {
  group: string;
  resource: string;
  keyPrefix: string;
}

export interface WatchCacheSource {
  stats: CacheStats;
  /** The revision the cache is at. */
  revision: number;
}

const groupResource = (r: StoredResource): string => (r.group ? `${r.resource}.${r.group}` : r.resource);
const resourcePrefix = (r: StoredResource): string => r.keyPrefix.replace(/^\/registry/, '').replace(/\/$/, '');

export function watchCacheFamilies(cache: () => WatchCacheSource | undefined, resources: () => Iterable<StoredResource>): Array<{ name: string; expose(): string }> {
  /** Each resource once, with the cache, when there is a cache. */
  const each = (f: (r: StoredResource, c: WatchCacheSource) => void): void => {
    const c = cache();
    if (!c) return;
    const seen = new Set<string>();
    for (const r of resources()) {
      if (seen.has(r.keyPrefix)) continue;
      seen.add(r.keyPrefix);
      f(r, c);
    }
  };
  const perResource = (value: (r: StoredResource, c: WatchCacheSource) => number) => (v: CounterVec | GaugeVec) => {
    v.reset();
    each((r, c) => (v.with(groupResource(r)).value = value(r, c)));
  };
  const events = (r: StoredResource, c: WatchCacheSource): number => c.stats.eventsUnder(r.keyPrefix);
  const lists = (pick: 'count' | 'fetched') => (v: CounterVec) => {
    v.reset();
    each((r, c) => {
      const n = c.stats.listsUnder(r.keyPrefix)[pick];
      if (n > 0) v.with('', resourcePrefix(r)).value = n;
    });
  };
  return [
    new CounterVec('apiserver_watch_cache_events_received_total', '[ALPHA] Counter of events received in watch cache broken by resource type.', ['resource'], perResource(events)),
    new CounterVec('apiserver_watch_cache_events_dispatched_total', '[ALPHA] Counter of events dispatched in watch cache broken by resource type.', ['resource'], perResource(events)),
    new GaugeVec('apiserver_watch_cache_resource_version', '[ALPHA] Current resource version of watch cache broken by resource type.', ['resource'], perResource((_, c) => c.revision)),
    new CounterVec('apiserver_watch_cache_initializations_total', '[ALPHA] Counter of watch cache initializations broken by resource type.', ['resource'], perResource((_, c) => c.stats.loads)),
    new CounterVec('apiserver_cache_list_total', '[ALPHA] Number of LIST requests served from watch cache', ['index', 'resource_prefix'], lists('count')),
    new CounterVec('apiserver_cache_list_fetched_objects_total', '[ALPHA] Number of objects read from watch cache in the course of serving a LIST request', ['index', 'resource_prefix'], lists('fetched')),
  ];
}
