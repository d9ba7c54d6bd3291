// With several replicas, a logical cluster's writing controllers run on the replica that holds root's Lease
// (they follow its leadership), while a cluster's server starts wherever its requests arrive. So the leader
// starts, and keeps from idling, the server of every cluster whose keys change: that cluster's controllers
// then act on writes made through any replica. On taking the Lease it first replays the history the store
// still holds, so that clusters written to shortly before a handover (a namespace left terminating, say) get
// their controllers back.
import type { KVStore, Watcher } from '../storage/types.js';
import { CLUSTERS_KEY_PREFIX, clusterOfKey } from '../storage/prefixed-store.js';

export interface ClusterToucher {
  touch(name: string): void;
}

/** How long after a broken watch it is started again. */
const RETRY_MS = 1_000;

export class ClusterActivity {
  private watcher: Watcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    /** The whole store: every cluster's keys under their prefixes. */
    private readonly kv: KVStore,
    private readonly clusters: ClusterToucher,
  ) {}

  async start(): Promise<void> {
    this.watchFrom(await this.kv.compactedRevision());
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.watcher?.close();
  }

  private watchFrom(revision: number): void {
    if (this.stopped) return;
    let last = revision;
    this.watcher = this.kv.watch(CLUSTERS_KEY_PREFIX, {
      fromRevision: revision,
      onEvent: (ev) => {
        last = ev.kv.modRevision;
        this.clusters.touch(clusterOfKey(ev.kv.key).cluster);
      },
      // History compacted under the replay, or the store's watch ended: go on from now (compacted) or from the
      // last event seen.
      onError: (err) => {
        if (this.stopped) return;
        this.timer = setTimeout(() => {
          if (err.code !== 'compacted') return this.watchFrom(last);
          this.kv.currentRevision().then(
            (rev) => this.watchFrom(rev),
            () => this.watchFrom(last),
          );
        }, RETRY_MS);
        this.timer.unref();
      },
    });
  }
}
