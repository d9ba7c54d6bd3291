// The establishing controller (apiextensions' pkg/controller/establish): a CRD whose names are accepted
// becomes Established, unless its conversion webhook's CA bundle is invalid.
import { Controller } from '../controllers/controller.js';
import type { InformerView } from '../controllers/informer.js';
import { realClock, type Clock } from '../controllers/clock.js';
import type { GenericStore } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { deepEqual } from '../util/json.js';
import { establishingSync, isConditionTrue } from './names.js';
import type { CrdControllerOptions } from './naming-controller.js';
import { CRD_STATUS_WORKERS, updateCrdStatus } from './status-update.js';
import { asCRD } from './types.js';

export class EstablishingController {
  readonly controller: Controller;
  private readonly clock: Clock;

  constructor(
    private readonly crds: GenericStore,
    private readonly informer: InformerView,
    opts: CrdControllerOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    // Each CRD on its own: several writes in flight share the storage's commits instead of waiting one behind another.
    this.controller = new Controller({ ...opts, name: 'crd establishing controller', workers: CRD_STATUS_WORKERS, sync: (key) => this.sync(key) });
    // Kube's CRD handler queues a CRD here when it sees its names accepted and it not yet established.
    const consider = (o: JSONObject): void => {
      const crd = asCRD(o);
      if (isConditionTrue(crd.status, 'NamesAccepted') && !isConditionTrue(crd.status, 'Established')) this.controller.enqueue(crd.metadata.name ?? '');
    };
    informer.addEventHandler({ add: consider, update: (_old, o) => consider(o) });
  }

  async sync(name: string): Promise<void> {
    const cached = this.informer.get(name);
    if (!cached) return;
    const crd = asCRD(cached);
    // A CRD deleted before it was established stays so: its finalizer then has no instances to remove.
    if (crd.metadata.deletionTimestamp) return;
    const status = establishingSync(crd, new Date(this.clock.now()));
    if (!status || deepEqual(status, crd.status ?? {})) return;
    await updateCrdStatus(this.crds, crd, status);
  }
}
