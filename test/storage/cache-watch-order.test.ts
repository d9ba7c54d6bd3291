// The watch cache holds a watch's events back until it has applied them itself: a controller that
// reads the cache when an event comes sees at least that event's state. With etcd, the cache's own
// watch can hear of a write after another watcher does.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCachedStore, openSqliteStore, StorageError, type KVStore, type WatchOptions, type Watcher } from '../../src/storage/index.js';
import { PassThroughStore } from './pass-through-store.js';
import { waitFor } from './helpers.js';

/** Delays the events of the first watch (the cache's own) by delayMs; later watches get theirs at once. */
class SlowFirstWatchStore extends PassThroughStore {
  private watches = 0;
  constructor(
    inner: KVStore,
    private readonly delayMs: number,
  ) {
    super(inner);
  }

  override watch(prefix: string, opts: WatchOptions): Watcher {
    if (this.watches++ > 0) return this.inner.watch(prefix, opts);
    return this.inner.watch(prefix, {
      fromRevision: opts.fromRevision,
      onEvent: (ev) => void setTimeout(() => opts.onEvent(ev), this.delayMs),
      onError: (err: StorageError) => void setTimeout(() => opts.onError?.(err), this.delayMs),
    });
  }
}

it('a watcher reading the cache from its event handler sees that event’s state', async () => {
  const cache = await createCachedStore(new SlowFirstWatchStore(openSqliteStore(':memory:', { compactionIntervalMs: 0 }), 30), {
    catchUpTimeoutMs: 0,
  });
  try {
    const seen: string[] = [];
    const w = cache.watch('/o/', {
      fromRevision: await cache.currentRevision(),
      onEvent: (ev) => {
        // Read right here, as a controller's handler does.
        void cache.get(ev.kv.key).then((kv) => {
          assert.ok(kv && kv.modRevision >= ev.kv.modRevision, `read ${kv?.modRevision} older than event ${ev.kv.modRevision}`);
          seen.push(`${ev.type} ${ev.kv.key}=${ev.kv.value}@${ev.kv.modRevision}`);
        });
        assert.ok(cache.cachedRevision >= ev.kv.modRevision, `event ${ev.kv.modRevision} before the cache applied it (${cache.cachedRevision})`);
      },
    });
    const a = await cache.create('/o/a', 'one');
    const b = await cache.update('/o/a', 'two', a.ok ? a.revision : 0);
    await cache.create('/o/b', 'x');
    await waitFor(() => seen.length === 3, 'three events');
    assert.ok(b.ok);
    assert.deepEqual(seen.sort(), [`put /o/a=one@${a.ok && a.revision}`, `put /o/a=two@${b.revision}`, `put /o/b=x@${b.revision + 1}`].sort());
    w.close();
  } finally {
    await cache.close();
  }
});
