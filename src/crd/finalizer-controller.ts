// The CRD finalizer (apiextensions' pkg/controller/finalizer/crd_finalizer.go): for a terminating CRD,
// mark the deletion in progress, delete every instance (objects with finalizers are only marked), wait
// until none remain, then record the outcome and drop the cleanup finalizer, whose removal deletes the
// CRD. A wait that times out is recorded (InstanceDeletionCheck) and the CRD comes back later.
import * as S from '../api/status.js';
import { Controller, RequeueAfter } from '../controllers/controller.js';
import type { InformerView } from '../controllers/informer.js';
import { realClock, sleep, type Clock } from '../controllers/clock.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { setCondition, isConditionTrue } from './conditions.js';
import type { Condition } from './names.js';
import type { CrdControllerOptions } from './naming-controller.js';
import type { CrdServing } from './serving.js';
import { asCRD, CRD_CLEANUP_FINALIZER, type CustomResourceDefinition } from './types.js';

/**
 * How the CRD finalizer waits for instances to go. Kube polls every 5 s for up to a minute, then records
 * the timeout and retries; here the poll is shorter, so a deletion completes soon after the last instance.
 */
export interface FinalizerTiming {
  pollMs: number;
  waitMs: number;
  /** Before a run whose wait timed out starts again. */
  retryMs: number;
}

const DEFAULT_FINALIZER_TIMING: FinalizerTiming = { pollMs: 250, waitMs: 60_000, retryMs: 100 };

const pending = (crd: CustomResourceDefinition | undefined): boolean =>
  Boolean(crd?.metadata.deletionTimestamp && crd.metadata.finalizers?.includes(CRD_CLEANUP_FINALIZER));

export class FinalizerController {
  readonly controller: Controller;
  private readonly clock: Clock;
  private readonly timing: FinalizerTiming;

  constructor(
    private readonly crds: GenericStore,
    private readonly informer: InformerView,
    private readonly serving: Pick<CrdServing, 'storageStoreFor'>,
    timing: Partial<FinalizerTiming> = {},
    opts: CrdControllerOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.timing = { ...DEFAULT_FINALIZER_TIMING, ...timing };
    // Waits are long: several CRDs are finalized at once, as kube runs several workers.
    this.controller = new Controller({ ...opts, name: 'crd finalizer', workers: 5, sync: (key, signal) => this.sync(key, signal) });
    const consider = (o: JSONObject): void => {
      if (pending(asCRD(o))) this.controller.enqueue(asCRD(o).metadata.name ?? '');
    };
    informer.addEventHandler({ add: consider, update: (_old, o) => consider(o) });
  }

  async sync(name: string, signal: AbortSignal = new AbortController().signal): Promise<void> {
    if (!pending(this.cached(name))) return;
    await this.writeStatus(name, (c) =>
      setCondition(c, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }),
    );
    const crd = this.cached(name);
    if (!crd) return;
    let outcome: Condition;
    if (!isConditionTrue(crd, 'Established')) {
      outcome = { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
    } else {
      const store = this.serving.storageStoreFor(name);
      const failed = store ? await deleteInstances(store) : undefined;
      if (failed) {
        await this.writeStatus(name, (c) => setCondition(c, failed));
        throw new Error(failed.message);
      }
      const gone = store ? await this.waitForNoInstances(name, store, signal) : true;
      if (!gone) {
        if (signal.aborted || !this.cached(name)) return;
        await this.writeStatus(name, (c) =>
          setCondition(c, {
            type: 'Terminating',
            status: 'True',
            reason: 'InstanceDeletionCheck',
            message: 'could not confirm zero CustomResources remaining: context deadline exceeded',
          }),
        );
        throw new RequeueAfter(this.timing.retryMs);
      }
      outcome = { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
    }
    await this.writeStatus(name, (c) => {
      setCondition(c, outcome);
      c.metadata.finalizers = (c.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
    });
  }

  private cached(name: string): CustomResourceDefinition | undefined {
    const o = this.informer.get(name);
    return o ? asCRD(o) : undefined;
  }

  /** Applied to the CRD as stored: the finalizer's conditions do not depend on the rest of its status. */
  private async writeStatus(name: string, mutate: (crd: CustomResourceDefinition) => void): Promise<void> {
    try {
      await this.crds.update(
        '',
        name,
        (cur) => {
          if (!cur) throw S.notFound(this.crds.type.gr, name);
          mutate(asCRD(cur));
          return cur;
        },
        'status',
        { manager: 'kube-apiserver' },
      );
    } catch (e) {
      // Gone: nothing left to finalize.
      if (e instanceof S.StatusError && e.code === 404) return;
      throw e;
    }
  }

  /** Polls until no instance is left (true) or the wait ends (false): timed out, stopped, or no longer finalizing. */
  private async waitForNoInstances(name: string, store: GenericStore, signal: AbortSignal): Promise<boolean> {
    const deadline = this.clock.now() + this.timing.waitMs;
    for (;;) {
      const left = await store.list({ namespace: '', limit: 1 });
      if (left.items.length === 0) return true;
      if (signal.aborted || !pending(this.cached(name)) || this.clock.now() >= deadline) return false;
      if (!(await sleep(this.clock, this.timing.pollMs, signal))) return false;
    }
  }
}

/** Deletes every instance, as DeleteCollection per namespace with no options; a failure as a condition. */
async function deleteInstances(store: GenericStore): Promise<Condition | undefined> {
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
