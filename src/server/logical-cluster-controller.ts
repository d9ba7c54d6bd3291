// The LogicalCluster controller (one replica at a time, with the other writing controllers): a new cluster is
// marked Ready at once (its server starts on its first request); a deleted one's server is stopped, everything
// stored under its prefix removed, and then its finalizer, so the object goes last (as a namespace's deletion ends).
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import type { KVStore } from '../storage/types.js';
import { clusterKeyPrefix } from '../storage/prefixed-store.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import { Controller } from '../controllers/controller.js';
import type { Informer } from '../controllers/informer.js';
import { rfc3339 } from '../util/time.js';
import * as S from '../api/status.js';
import { LOGICAL_CLUSTER_FINALIZER, TENANCY_GROUP } from '../apis/tenancy/v1alpha1/logical-cluster.js';
import type { LogicalClusters } from './logical-clusters.js';

const MANAGER = 'crd-apiserver';
const GR = { group: TENANCY_GROUP, resource: 'logicalclusters' };
/** Keys removed per list of a deleted cluster's contents. */
const DELETE_PAGE = 500;

export class LogicalClusterController {
  readonly controller: Controller;
  private removeHandler?: () => void;

  constructor(
    private readonly store: GenericStore,
    private readonly informer: Informer,
    private readonly clusters: LogicalClusters,
    /** The whole store, where each cluster's keys live under its prefix. */
    private readonly kv: KVStore,
  ) {
    this.controller = new Controller({ name: 'logical_cluster_controller', sync: (name) => this.sync(name), workers: 4 });
  }

  async start(): Promise<void> {
    const enqueue = (o: JSONObject): void => this.controller.enqueue(metaOf(o).name ?? '');
    // The informer is the dispatcher's too, already started; its handler replays what it holds.
    this.removeHandler = this.informer.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: enqueue });
    this.controller.run();
  }

  stop(): void {
    this.removeHandler?.();
    void this.controller.stop();
  }

  private async sync(name: string): Promise<void> {
    const lc = this.informer.get(name);
    if (!lc) return this.clusters.stopInstance(name);
    const meta = metaOf(lc);
    if (meta.deletionTimestamp !== undefined) return this.finalize(name, meta.finalizers ?? []);
    // Creating a cluster is a metadata write: its server starts on the first request for it, on each replica.
    const status = isObject(lc['status']) ? (lc['status'] as JSONObject) : {};
    if (status['phase'] === 'Ready') return;
    await this.store.update(
      '',
      name,
      (cur) => {
        if (!cur) throw S.notFound(GR, name);
        const generation = metaOf(cur).generation;
        cur['status'] = {
          phase: 'Ready',
          conditions: [
            { type: 'Ready', status: 'True', ...(typeof generation === 'number' ? { observedGeneration: generation } : {}), lastTransitionTime: rfc3339(new Date()), reason: 'Serving', message: `served under /clusters/${name}/` },
          ],
        };
        return cur;
      },
      'status',
      { manager: MANAGER },
    );
  }

  /** The cluster's server stopped, its keys gone, then the finalizer (the store deletes the object with the last one). */
  private async finalize(name: string, finalizers: readonly string[]): Promise<void> {
    if (!finalizers.includes(LOGICAL_CLUSTER_FINALIZER)) return;
    await this.clusters.stopInstance(name);
    const prefix = `${clusterKeyPrefix(name)}/`;
    for (;;) {
      const page = await this.kv.list(prefix, { limit: DELETE_PAGE });
      for (const item of page.items) await this.kv.delete(item.key);
      if (!page.more) break;
    }
    await this.store.update(
      '',
      name,
      (cur) => {
        if (!cur) throw S.notFound(GR, name);
        const m = metaOf(cur);
        m.finalizers = (m.finalizers ?? []).filter((f) => f !== LOGICAL_CLUSTER_FINALIZER);
        return cur;
      },
      '',
      { manager: MANAGER },
    ).catch((e: unknown) => {
      // Gone already: another finalizer's holder removed it last.
      if (!(e instanceof S.StatusError && e.code === 404)) throw e;
    });
  }
}
