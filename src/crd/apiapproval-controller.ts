// The API-approval controller (apiextensions' pkg/controller/apiapproval): a CRD in a protected group
// (`*.k8s.io`, `*.kubernetes.io`) gets the KubernetesAPIApprovalPolicyConformant condition computed from
// its `api-approved.kubernetes.io` annotation. Each annotation value is handled once per CRD.
import { Controller } from '../controllers/controller.js';
import type { InformerView } from '../controllers/informer.js';
import { realClock, type Clock } from '../controllers/clock.js';
import type { GenericStore } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { apiApprovalCondition } from './api-approval.js';
import { findCondition, setCRDCondition } from './names.js';
import type { CrdControllerOptions } from './naming-controller.js';
import { updateCrdStatus } from './status-update.js';
import { asCRD, KUBE_API_APPROVED_ANNOTATION } from './types.js';

export class APIApprovalController {
  readonly controller: Controller;
  private readonly clock: Clock;
  /** The annotation value last acted on, per CRD: the same value is not computed or written again. */
  private readonly lastSeen = new Map<string, string>();

  constructor(
    private readonly crds: GenericStore,
    private readonly informer: InformerView,
    opts: CrdControllerOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.controller = new Controller({ ...opts, name: 'KubernetesAPIApprovalPolicyConformantConditionController', sync: (key) => this.sync(key) });
    const enqueue = (o: JSONObject): void => this.controller.enqueue(asCRD(o).metadata.name ?? '');
    informer.addEventHandler({
      add: enqueue,
      update: (_old, o) => enqueue(o),
      delete: (o) => this.lastSeen.delete(asCRD(o).metadata.name ?? ''),
    });
  }

  async sync(name: string): Promise<void> {
    const cached = this.informer.get(name);
    if (!cached) return;
    const crd = asCRD(cached);
    const annotation = crd.metadata.annotations?.[KUBE_API_APPROVED_ANNOTATION] ?? '';
    if (this.lastSeen.get(name) === annotation) return;
    // The group is immutable: a CRD without a condition now never needs one removed.
    const cond = apiApprovalCondition(crd);
    if (!cond) return;
    const old = findCondition(crd.status, cond.type);
    if (old && old.status === cond.status && old.reason === cond.reason && old.message === cond.message) return;
    const status = { ...crd.status, conditions: setCRDCondition(crd.status?.conditions, cond, new Date(this.clock.now())) };
    // Deleted or changed meanwhile: the watch event brings the CRD back.
    if (!(await updateCrdStatus(this.crds, crd, status))) return;
    this.lastSeen.set(name, annotation);
  }
}
