// The naming controller (apiextensions' pkg/controller/status/naming_controller.go): which requested
// names a CRD may hold, with the NamesAccepted condition. Names held or freed by one CRD matter to the
// others in its group, so they are looked at again after a change or a deletion.
import { Controller, type ControllerOptions } from '../controllers/controller.js';
import type { InformerView } from '../controllers/informer.js';
import { realClock, type Clock } from '../controllers/clock.js';
import type { GenericStore } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { deepEqual } from '../util/json.js';
import { establishingSync, isConditionTrue, namingSync } from './names.js';
import { CRD_STATUS_WORKERS, updateCrdStatus } from './status-update.js';
import { asCRD, type CustomResourceDefinition, type CustomResourceDefinitionStatus } from './types.js';

export type CrdControllerOptions = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'>;

export interface NamingControllerOptions extends CrdControllerOptions {
  /**
   * Also decide Established (as the establishing controller would) in the write that accepts the names: one status
   * write per new CRD instead of two. Kube's naming controller writes Established False/Installing and leaves True to
   * the establishing controller; off, this one does the same.
   */
  establish?: boolean;
}

const nameOf = (o: JSONObject): string => asCRD(o).metadata.name ?? '';
/** A CRD's name is <plural>.<group>. */
const groupOfName = (name: string): string => name.slice(name.indexOf('.') + 1);

export class NamingController {
  readonly controller: Controller;
  private readonly clock: Clock;
  private readonly establish: boolean;
  /** The last sync queued per group. */
  private readonly groups = new Map<string, Promise<void>>();
  /**
   * The informer's CRDs by spec.group, kept from its events: a sync reads its group's CRDs, not the list of all
   * (a thousand CRDs installed made that a thousand lists of a thousand).
   */
  private readonly byGroup = new Map<string, Set<string>>();

  constructor(
    private readonly crds: GenericStore,
    private readonly informer: InformerView,
    opts: NamingControllerOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.establish = opts.establish === true;
    // Several workers, one sync per group at a time: names conflict only within a group, and kube's single worker
    // (its conflict resolution is not thread-safe) made a thousand CRDs' status writes wait one behind another.
    this.controller = new Controller({ ...opts, name: 'crd naming controller', workers: CRD_STATUS_WORKERS, sync: (key) => this.inGroupOrder(key) });
    informer.addEventHandler({
      add: (o) => {
        this.index(o);
        this.controller.enqueue(nameOf(o));
      },
      update: (old, o) => {
        this.unindex(old);
        this.index(o);
        this.controller.enqueue(nameOf(o));
      },
      delete: (o) => {
        this.unindex(o);
        this.requeueOthersInGroup(nameOf(o));
      },
    });
  }

  /** Syncs of CRDs of one group in turn: each sees the names the one before it accepted. */
  private inGroupOrder(name: string): Promise<void> {
    const group = groupOfName(name);
    const run = (this.groups.get(group) ?? Promise.resolve()).then(() => this.sync(name));
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.groups.set(group, settled);
    void settled.then(() => {
      if (this.groups.get(group) === settled) this.groups.delete(group);
    });
    return run;
  }

  async sync(name: string): Promise<void> {
    const cached = this.informer.get(name);
    if (!cached) {
      // Deleted: the names it held are free for the others.
      this.requeueOthersInGroup(name);
      return;
    }
    const crd = asCRD(cached);
    const now = new Date(this.clock.now());
    // The other groups' CRDs hold none of the names this one may take.
    const status = namingSync(crd, () => this.inGroup(crd.spec?.group ?? ''), now);
    if (!status || deepEqual(status, crd.status ?? {})) return;
    // Names this CRD gave up may be what another in the group waits for.
    if (await updateCrdStatus(this.crds, crd, this.establish ? withEstablished(crd, status, now) : status)) this.requeueOthersInGroup(name);
  }

  private requeueOthersInGroup(name: string): void {
    for (const c of this.inGroup(groupOfName(name))) if (c.metadata.name !== name) this.controller.enqueue(c.metadata.name ?? '');
  }

  /** The cached CRDs whose spec.group is `group`. */
  private inGroup(group: string): CustomResourceDefinition[] {
    const out: CustomResourceDefinition[] = [];
    for (const name of this.byGroup.get(group) ?? []) {
      const o = this.informer.get(name);
      if (o) out.push(asCRD(o));
    }
    return out;
  }

  private index(o: JSONObject): void {
    const group = asCRD(o).spec?.group ?? '';
    let names = this.byGroup.get(group);
    if (!names) this.byGroup.set(group, (names = new Set()));
    names.add(nameOf(o));
  }

  private unindex(o: JSONObject): void {
    const group = asCRD(o).spec?.group ?? '';
    const names = this.byGroup.get(group);
    if (!names) return;
    names.delete(nameOf(o));
    if (names.size === 0) this.byGroup.delete(group);
  }
}

/**
 * The naming status with the establishing controller's decision applied: the serving informer sees the accepted
 * names in the same event that makes the CRD Established, so it serves them before anyone can see Established.
 * A CRD being deleted is left unestablished, as the establishing controller leaves it.
 */
export function withEstablished(crd: CustomResourceDefinition, status: CustomResourceDefinitionStatus, now: Date): CustomResourceDefinitionStatus {
  if (crd.metadata.deletionTimestamp || !isConditionTrue(status, 'NamesAccepted')) return status;
  return establishingSync({ ...crd, status }, now) ?? status;
}
