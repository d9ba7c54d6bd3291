// The CRD controllers, run in-process off the CRD watch: naming (accepted names, NamesAccepted),
// establishing (Established), serving (routing table updates) and finalizing (instance cleanup on delete).
import * as S from '../api/status.js';
import type { GenericStore } from '../registry/store.js';
import { metaOf } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { deepEqual } from '../util/json.js';
import { computeAcceptedNames } from './names.js';
import { nonStructuralSchemaCondition } from '../schema/structural-validate.js';
import { setCondition, isConditionTrue } from './conditions.js';
import type { CrdServing } from './serving.js';
import { CRD_CLEANUP_FINALIZER, type CustomResourceDefinition } from './types.js';

const asCRD = (o: JSONObject): CustomResourceDefinition => o as unknown as CustomResourceDefinition;

export class CrdController {
  private all = new Map<string, CustomResourceDefinition>();
  private queue = new Set<string>();
  private draining = false;
  private watcher?: { close(): void };
  private stopped = false;
  private retryTimer?: NodeJS.Timeout;
  /** Resolves when the current queue is drained (tests and start-up wait on it). */
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly crds: GenericStore,
    private readonly serving: CrdServing,
  ) {}

  async start(): Promise<void> {
    const list = await this.crds.list({ namespace: '' });
    for (const obj of list.items) this.observe(obj, false);
    this.watcher = this.crds.watch(
      '',
      Number(list.resourceVersion),
      {},
      (ev) => this.observe(ev.object, ev.type === 'DELETED'),
      () => {
        if (!this.stopped) {
          this.watcher?.close();
          void this.start();
        }
      },
    );
    await this.idle();
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  idle(): Promise<void> {
    if (!this.draining && this.queue.size === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private observe(obj: JSONObject, deleted: boolean): void {
    const crd = asCRD(obj);
    const name = crd.metadata.name ?? '';
    if (deleted) {
      this.all.delete(name);
      this.serving.remove(name);
      // Names held by the deleted CRD may now be free for others.
      for (const other of this.all.keys()) this.queue.add(other);
    } else {
      this.all.set(name, crd);
      this.serving.update(crd);
      this.queue.add(name);
    }
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.size > 0 && !this.stopped) {
        const name = this.queue.values().next().value as string;
        this.queue.delete(name);
        try {
          await this.reconcile(name);
        } catch (e) {
          if (e instanceof S.StatusError && (e.code === 404 || e.code === 409)) {
            if (e.code === 409) this.queue.add(name);
            continue;
          }
          console.error(`crd controller: ${name}:`, e);
          this.retryTimer = setTimeout(() => {
            this.queue.add(name);
            void this.drain();
          }, 1000).unref();
        }
      }
    } finally {
      this.draining = false;
      const waiters = this.idleWaiters.splice(0);
      for (const w of waiters) w();
    }
  }

  private async reconcile(name: string): Promise<void> {
    const crd = this.all.get(name);
    if (!crd) return;
    await this.reconcileStatus(crd);
    if (crd.metadata.deletionTimestamp && crd.metadata.finalizers?.includes(CRD_CLEANUP_FINALIZER)) {
      await this.finalize(name);
    }
  }

  /** Naming and establishing: accepted names and the NamesAccepted and Established conditions. */
  private async reconcileStatus(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata.name ?? '';
    const others = [...this.all.values()].filter((c) => c.metadata.name !== name);
    const { acceptedNames, namesAccepted } = computeAcceptedNames(crd, others);
    const next = structuredClone(crd);
    next.status ??= {};
    next.status.acceptedNames = acceptedNames;
    setCondition(next, namesAccepted);
    // The nonstructuralschema controller: violations (possible only through v1beta1) in a condition.
    const nonStructural = nonStructuralSchemaCondition(crd);
    if (nonStructural) setCondition(next, nonStructural);
    else if (next.status.conditions?.some((c) => c.type === 'NonStructuralSchema')) {
      next.status.conditions = next.status.conditions.filter((c) => c.type !== 'NonStructuralSchema');
    }
    // Established once names are accepted; it stays even if a later names change conflicts.
    if (namesAccepted.status === 'True' && !isConditionTrue(next, 'Established') && !crd.metadata.deletionTimestamp) {
      setCondition(next, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
    }
    if (deepEqual(next.status, crd.status)) return;
    await this.writeStatus(name, (cur) => {
      cur.status ??= {};
      cur.status.acceptedNames = next.status!.acceptedNames;
      for (const c of next.status!.conditions ?? []) setCondition(cur, c);
      if (!nonStructural && cur.status.conditions) cur.status.conditions = cur.status.conditions.filter((c) => c.type !== 'NonStructuralSchema');
    });
  }

  private async writeStatus(name: string, mutate: (crd: CustomResourceDefinition) => void): Promise<void> {
    await this.crds.update(
      '',
      name,
      (cur) => {
        if (!cur) throw S.notFound(this.crds.type.gr, name);
        mutate(asCRD(cur));
        return cur;
      },
      'status',
    );
  }

  /** The finalizer: delete every instance, wait until none remain, then drop the finalizer. */
  private async finalize(name: string): Promise<void> {
    const store = this.serving.storageStoreFor(name);
    await this.writeStatus(name, (c) =>
      setCondition(c, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }),
    );
    if (store) {
      const items = await store.list({ namespace: '' });
      for (const obj of items.items) {
        const m = metaOf(obj);
        try {
          await store.delete(m.namespace ?? '', m.name ?? '');
        } catch (e) {
          if (!(e instanceof S.StatusError && e.code === 404)) throw e;
        }
      }
      const left = await store.list({ namespace: '', limit: 1 });
      if (left.items.length > 0) {
        await this.writeStatus(name, (c) =>
          setCondition(c, {
            type: 'Terminating',
            status: 'True',
            reason: 'InstanceDeletionCheck',
            message: 'could not confirm zero CustomResources remaining: some instances are still present',
          }),
        );
        // Instances with finalizers remain: try again shortly.
        this.retryTimer = setTimeout(() => {
          this.queue.add(name);
          void this.drain();
        }, 500).unref();
        return;
      }
    }
    await this.crds.update(
      '',
      name,
      (cur) => {
        if (!cur) throw S.notFound(this.crds.type.gr, name);
        const crd = asCRD(cur);
        setCondition(crd, { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' });
        crd.metadata.finalizers = (crd.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
        return cur;
      },
      'status',
    );
  }
}
