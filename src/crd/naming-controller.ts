// The naming controller (apiextensions' pkg/controller/status/naming_controller.go): which requested
// names a CRD may hold, with the NamesAccepted condition. Names held or freed by one CRD matter to the
// others in its group, so they are looked at again after a change or a deletion.
import { Controller, type ControllerOptions } from '../controllers/controller.js';
import type { InformerView } from '../controllers/informer.js';
import { realClock, type Clock } from '../controllers/clock.js';
import type { GenericStore } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { deepEqual } from '../util/json.js';
import { namingSync } from './names.js';
import { CRD_STATUS_WORKERS, updateCrdStatus } from './status-update.js';
import { asCRD } from './types.js';

export type CrdControllerOptions = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'>;

const nameOf = (o: JSONObject): string => asCRD(o).metadata.name ?? '';
/** A CRD's name is <plural>.<group>. */
const groupOfName = (name: string): string => name.slice(name.indexOf('.') + 1);

export class NamingController {
  readonly controller: Controller;
  private readonly clock: Clock;
  /** The last sync queued per group. */
  private readonly groups = new Map<string, Promise<void>>();

  constructor(
    private readonly crds: GenericStore,
    private readonly informer: InformerView,
    opts: CrdControllerOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    // Several workers, one sync per group at a time: names conflict only within a group, and kube's single worker
    // (its conflict resolution is not thread-safe) made a thousand CRDs' status writes wait one behind another.
    this.controller = new Controller({ ...opts, name: 'crd naming controller', workers: CRD_STATUS_WORKERS, sync: (key) => this.inGroupOrder(key) });
    informer.addEventHandler({
      add: (o) => this.controller.enqueue(nameOf(o)),
      update: (_old, o) => this.controller.enqueue(nameOf(o)),
      delete: (o) => this.requeueOthersInGroup(nameOf(o)),
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
    const status = namingSync(crd, () => this.informer.list().map(asCRD), now);
    if (!status || deepEqual(status, crd.status ?? {})) return;
    // Names this CRD gave up may be what another in the group waits for.
    if (await updateCrdStatus(this.crds, crd, status)) this.requeueOthersInGroup(name);
  }

  private requeueOthersInGroup(name: string): void {
    const group = groupOfName(name);
    for (const o of this.informer.list()) {
      const c = asCRD(o);
      if (c.spec?.group === group && c.metadata.name !== name) this.controller.enqueue(c.metadata.name ?? '');
    }
  }
}
