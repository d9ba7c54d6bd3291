// The CRD controllers, run in-process off the CRD watch: naming (accepted names, NamesAccepted),
// establishing (Established), serving (routing table updates) and finalizing (instance cleanup on delete).
import * as S from '../api/status.js';
import type { GenericStore } from '../registry/store.js';
import { metaOf } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { deepEqual } from '../util/json.js';
import { computeAcceptedNames } from './names.js';
import { nonStructuralSchemaCondition } from './structural-validate.js';
import { setCondition, isConditionTrue } from './conditions.js';
import type { Condition } from './names.js';
import type { CrdServing } from './serving.js';
import { CRD_CLEANUP_FINALIZER, type CustomResourceDefinition } from './types.js';

const asCRD = (o: JSONObject): CustomResourceDefinition => o as unknown as CustomResourceDefinition;

/**
 * How the CRD finalizer waits for instances to go. Kube polls every 5 s for up to a minute, then records
 * the timeout and retries; here the poll is shorter, so a deletion completes soon after the last instance.
 */
export interface FinalizerTiming {
  pollMs: number;
  waitMs: number;
  /** Before a run that ended early (timed out, or the CRD changed under it) starts again. */
  retryMs: number;
}

const DEFAULT_FINALIZER_TIMING: FinalizerTiming = { pollMs: 250, waitMs: 60_000, retryMs: 100 };

export class CrdController {
  private all = new Map<string, CustomResourceDefinition>();
  private queue = new Set<string>();
  private draining = false;
  private watcher?: { close(): void };
  private stopped = false;
  private retryTimer?: NodeJS.Timeout;
  /** Resolves when the current queue is drained (tests and start-up wait on it). */
  private idleWaiters: Array<() => void> = [];

  /** CRDs whose finalizer is running, and its timers. */
  private finalizing = new Set<string>();
  private finalizerTimers = new Set<NodeJS.Timeout>();
  private readonly timing: FinalizerTiming;

  constructor(
    private readonly crds: GenericStore,
    private readonly serving: CrdServing,
    timing: Partial<FinalizerTiming> = {},
  ) {
    this.timing = { ...DEFAULT_FINALIZER_TIMING, ...timing };
  }

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
    for (const t of this.finalizerTimers) clearTimeout(t);
    this.finalizerTimers.clear();
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
    // The finalizer waits on instances for long: it runs on its own, not in this queue.
    if (this.pendingFinalizer(name)) this.startFinalizer(name);
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

  /**
   * The CRD finalizer (crd_finalizer.go), one run per terminating CRD beside the status work: mark the
   * deletion in progress, delete every instance (objects with finalizers are only marked), wait until
   * none remain, then record the outcome and drop the cleanup finalizer, whose removal deletes the CRD.
   * A wait that times out is recorded (InstanceDeletionCheck) and the run starts over, as kube requeues.
   */
  private startFinalizer(name: string): void {
    if (this.finalizing.has(name) || this.stopped) return;
    this.finalizing.add(name);
    void this.finalize(name)
      .catch((e: unknown) => {
        if (!(e instanceof S.StatusError && (e.code === 404 || e.code === 409))) console.error(`crd finalizer: ${name}:`, e);
      })
      .finally(() => {
        this.finalizing.delete(name);
        // Changed meanwhile (or timed out): look again.
        if (!this.stopped && this.pendingFinalizer(name)) this.retryFinalizer(name);
      });
  }

  private retryFinalizer(name: string): void {
    const t = setTimeout(() => {
      this.finalizerTimers.delete(t);
      if (this.pendingFinalizer(name)) this.startFinalizer(name);
    }, this.timing.retryMs).unref();
    this.finalizerTimers.add(t);
  }

  private pendingFinalizer(name: string): boolean {
    const crd = this.all.get(name);
    return Boolean(crd?.metadata.deletionTimestamp && crd.metadata.finalizers?.includes(CRD_CLEANUP_FINALIZER));
  }

  private async finalize(name: string): Promise<void> {
    if (!this.pendingFinalizer(name)) return;
    await this.writeStatus(name, (c) =>
      setCondition(c, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }),
    );
    const crd = this.all.get(name);
    if (!crd) return;
    let outcome: Condition;
    if (!isConditionTrue(crd, 'Established')) {
      outcome = { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
    } else {
      const store = this.serving.storageStoreFor(name);
      const failed = store ? await this.deleteInstances(store) : undefined;
      if (failed) {
        await this.writeStatus(name, (c) => setCondition(c, failed));
        return;
      }
      const gone = store ? await this.waitForNoInstances(name, store) : true;
      if (!gone) {
        if (!this.stopped && this.all.has(name)) {
          await this.writeStatus(name, (c) =>
            setCondition(c, {
              type: 'Terminating',
              status: 'True',
              reason: 'InstanceDeletionCheck',
              message: 'could not confirm zero CustomResources remaining: context deadline exceeded',
            }),
          );
        }
        return;
      }
      outcome = { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
    }
    await this.writeStatus(name, (c) => {
      setCondition(c, outcome);
      c.metadata.finalizers = (c.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
    });
  }

  /** Deletes every instance, as DeleteCollection per namespace with no options; a failure as a condition. */
  private async deleteInstances(store: GenericStore): Promise<Condition | undefined> {
    const errors: string[] = [];
    try {
      const items = await store.list({ namespace: '' });
      for (const obj of items.items) {
        const m = metaOf(obj);
        try {
          await store.delete(m.namespace ?? '', m.name ?? '');
        } catch (e) {
          if (!(e instanceof S.StatusError && e.code === 404)) errors.push(e instanceof Error ? e.message : String(e));
        }
      }
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return { type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message: `could not list instances: ${why}` };
    }
    if (errors.length === 0) return undefined;
    // utilerrors.NewAggregate: one error as is, several in brackets.
    const agg = errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`;
    return { type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message: `could not issue all deletes: ${agg}` };
  }

  /** Polls until no instance is left (true) or the wait times out (false), as kube's one-minute poll. */
  private async waitForNoInstances(name: string, store: GenericStore): Promise<boolean> {
    const deadline = Date.now() + this.timing.waitMs;
    for (;;) {
      const left = await store.list({ namespace: '', limit: 1 });
      if (left.items.length === 0) return true;
      if (this.stopped || !this.pendingFinalizer(name) || Date.now() >= deadline) return false;
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          this.finalizerTimers.delete(t);
          resolve();
        }, this.timing.pollMs).unref();
        this.finalizerTimers.add(t);
      });
    }
  }
}
