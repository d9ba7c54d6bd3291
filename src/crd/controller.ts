// The CRD controllers, run in-process over one CRD informer: the serving table, naming (accepted names,
// NamesAccepted), NonStructuralSchema, establishing (Established), API approval
// (KubernetesAPIApprovalPolicyConformant) and finalizing (instance cleanup on delete), each its own
// controller on the shared runtime in src/controllers.
//
// With several replicas every one serves what the CRDs say (crdServingInformer), while the writing
// controllers run on the replica holding the controllers' Lease: they then share its informer.
import type { Clock } from '../controllers/clock.js';
import type { Controller } from '../controllers/controller.js';
import { waitForIdle } from '../controllers/idle.js';
import { Informer, scopedInformer } from '../controllers/informer.js';
import type { GenericStore } from '../registry/store.js';
import { APIApprovalController } from './apiapproval-controller.js';
import { EstablishingController } from './establishing-controller.js';
import { FinalizerController, type FinalizerTiming } from './finalizer-controller.js';
import { NamingController } from './naming-controller.js';
import { NonStructuralSchemaController } from './non-structural-controller.js';
import type { CrdServing } from './serving.js';
import { reuseUnchangedSpec, servingHandlers } from './serving-handler.js';

export type { FinalizerTiming } from './finalizer-controller.js';

/** An informer over the CRDs that keeps serving in step with them (not started). */
export function crdServingInformer(crds: GenericStore, serving: CrdServing, opts: { clock?: Clock } = {}): Informer {
  const informer = new Informer(crds, { name: 'customresourcedefinitions', reuse: reuseUnchangedSpec, ...opts });
  informer.addEventHandler(servingHandlers(serving));
  return informer;
}

export interface CrdControllerSetOptions {
  clock?: Clock;
  /** A started serving informer (crdServingInformer) to share: it outlives these controllers. */
  informer?: Informer;
}

export class CrdController {
  private readonly informer: Informer;
  private readonly owned: boolean;
  private readonly view: ReturnType<typeof scopedInformer>;
  readonly naming: NamingController;
  readonly nonStructural: NonStructuralSchemaController;
  readonly establishing: EstablishingController;
  readonly apiApproval: APIApprovalController;
  readonly finalizer: FinalizerController;

  constructor(crds: GenericStore, serving: CrdServing, timing: Partial<FinalizerTiming> = {}, opts: CrdControllerSetOptions = {}) {
    this.owned = !opts.informer;
    // The status writes below take the CRD the watch event brought as the object read (updateCrdStatus's readAs).
    crds.rememberEventObjects();
    // An own informer serves first, so that the controllers' syncs find the CRD's storage already served.
    this.informer = opts.informer ?? crdServingInformer(crds, serving, { clock: opts.clock });
    this.view = scopedInformer(this.informer);
    const own = { clock: opts.clock };
    // Names and Established in one write: the serving informer above sees the names first all the same.
    this.naming = new NamingController(crds, this.view, { ...own, establish: true });
    this.nonStructural = new NonStructuralSchemaController(crds, this.view, own);
    this.establishing = new EstablishingController(crds, this.view, own);
    this.apiApproval = new APIApprovalController(crds, this.view, own);
    this.finalizer = new FinalizerController(crds, this.view, serving, timing, own);
  }

  /**
   * Starts the controllers and waits until the stored CRDs are named and established. The NonStructuralSchema
   * condition, which serving does not read, starts after that pass and is not waited for.
   */
  async start(): Promise<void> {
    if (this.owned) await this.informer.start();
    for (const c of this.controllers()) c.controller.run();
    await waitForIdle([this.informer], this.servingControllers());
    this.nonStructural.controller.run();
  }

  stop(): void {
    if (this.owned) this.informer.stop();
    this.view.removeHandlers();
    for (const c of [...this.controllers(), this.nonStructural]) void c.controller.stop();
  }

  /** Naming, NonStructuralSchema, establishing and API approval done, and their writes seen. The finalizer's waits are not awaited: they may last a minute. */
  idle(): Promise<void> {
    return waitForIdle([this.informer], [...this.servingControllers(), this.nonStructural.controller]);
  }

  /** What a stored CRD needs before its resources are served. */
  private servingControllers(): Controller[] {
    return [this.naming.controller, this.establishing.controller, this.apiApproval.controller];
  }

  private controllers(): Array<{ controller: { run(): void; stop(): Promise<void> } }> {
    return [this.naming, this.establishing, this.apiApproval, this.finalizer];
  }
}
