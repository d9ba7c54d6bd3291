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
import { updateCrdStatus } from './status-update.js';
import type { CustomResourceDefinition } from './types.js';

export type CrdControllerOptions = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'>;

const asCRD = (o: JSONObject): CustomResourceDefinition => o as unknown as CustomResourceDefinition;
const nameOf = (o: JSONObject): string => asCRD(o).metadata.name ?? '';

export class NamingController {
  readonly controller: Controller;
  private readonly clock: Clock;

  constructor(
    private readonly crds: GenericStore,
    private readonly informer: InformerView,
    opts: CrdControllerOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.controller = new Controller({ ...opts, name: 'crd naming controller', sync: (key) => this.sync(key) });
    informer.addEventHandler({
      add: (o) => this.controller.enqueue(nameOf(o)),
      update: (_old, o) => this.controller.enqueue(nameOf(o)),
      delete: (o) => this.requeueOthersInGroup(nameOf(o)),
    });
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
    const group = name.slice(name.indexOf('.') + 1);
    for (const o of this.informer.list()) {
      const c = asCRD(o);
      if (c.spec?.group === group && c.metadata.name !== name) this.controller.enqueue(c.metadata.name ?? '');
    }
  }
}
