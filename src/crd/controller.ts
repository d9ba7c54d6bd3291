// The CRD controllers, run in-process over one CRD informer: the serving table, naming (accepted names,
// NamesAccepted, NonStructuralSchema), establishing (Established), API approval
// (KubernetesAPIApprovalPolicyConformant) and finalizing (instance cleanup on delete), each its own
// controller on the shared runtime in src/controllers.
import type { Clock } from '../controllers/clock.js';
import { waitForIdle } from '../controllers/idle.js';
import { Informer } from '../controllers/informer.js';
import type { GenericStore } from '../registry/store.js';
import { APIApprovalController } from './apiapproval-controller.js';
import { EstablishingController } from './establishing-controller.js';
import { FinalizerController, type FinalizerTiming } from './finalizer-controller.js';
import { NamingController } from './naming-controller.js';
import type { CrdServing } from './serving.js';
import { servingHandlers } from './serving-handler.js';

export type { FinalizerTiming } from './finalizer-controller.js';

export class CrdController {
  private readonly informer: Informer;
  readonly naming: NamingController;
  readonly establishing: EstablishingController;
  readonly apiApproval: APIApprovalController;
  readonly finalizer: FinalizerController;

  constructor(crds: GenericStore, serving: CrdServing, timing: Partial<FinalizerTiming> = {}, opts: { clock?: Clock } = {}) {
    this.informer = new Informer(crds, { name: 'customresourcedefinitions', ...opts });
    // First, so that the controllers' syncs find the CRD's storage already served.
    this.informer.addEventHandler(servingHandlers(serving));
    this.naming = new NamingController(crds, this.informer, opts);
    this.establishing = new EstablishingController(crds, this.informer, opts);
    this.apiApproval = new APIApprovalController(crds, this.informer, opts);
    this.finalizer = new FinalizerController(crds, this.informer, serving, timing, opts);
  }

  /** Starts the controllers and waits until the stored CRDs are named and established. */
  async start(): Promise<void> {
    await this.informer.start();
    for (const c of this.controllers()) c.controller.run();
    await this.idle();
  }

  stop(): void {
    this.informer.stop();
    for (const c of this.controllers()) void c.controller.stop();
  }

  /** Naming, establishing and API approval done, and their writes seen. The finalizer's waits are not awaited: they may last a minute. */
  idle(): Promise<void> {
    return waitForIdle([this.informer], [this.naming.controller, this.establishing.controller, this.apiApproval.controller]);
  }

  private controllers(): Array<{ controller: { run(): void; stop(): Promise<void> } }> {
    return [this.naming, this.establishing, this.apiApproval, this.finalizer];
  }
}
