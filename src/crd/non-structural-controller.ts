// The NonStructuralSchema condition (apiextensions' pkg/controller/nonstructuralschema): set while a CRD's
// schemas have structural violations (possible only through v1beta1), removed after. A controller of its
// own, as in kube, so that the naming controller's pass over the stored CRDs at start-up (which readiness
// waits for) does not convert every schema: this one runs after that pass, yielding to requests between
// CRDs (about 2 ms each for the corpus CRDs).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Controller } from '../controllers/controller.js';
import type { InformerView } from '../controllers/informer.js';
import { realClock, type Clock } from '../controllers/clock.js';
import type { GenericStore } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { findCondition, removeCRDCondition, setCRDCondition } from './names.js';
import { cachedNonStructuralCondition } from './non-structural-cache.js';
import type { CrdControllerOptions } from './naming-controller.js';
import { updateCrdStatus } from './status-update.js';
import { asCRD, type CustomResourceDefinition, type CustomResourceDefinitionStatus } from './types.js';

export class NonStructuralSchemaController {
  readonly controller: Controller;
  private readonly clock: Clock;

  constructor(
    private readonly crds: GenericStore,
    private readonly informer: InformerView,
    opts: CrdControllerOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.controller = new Controller({ ...opts, name: 'NonStructuralSchemaConditionController', sync: (key) => this.sync(key) });
    const enqueue = (o: JSONObject): void => this.controller.enqueue(asCRD(o).metadata.name ?? '');
    informer.addEventHandler({ add: enqueue, update: (_old, o) => enqueue(o) });
  }

  async sync(name: string): Promise<void> {
    // The queue hands keys over in microtasks: without a turn of the event loop, a thousand CRDs' checks
    // would hold every request back until the last.
    await nextTurn();
    const cached = this.informer.get(name);
    if (!cached) return;
    const crd = asCRD(cached);
    const status = withNonStructuralCondition(crd, crd.status ?? {}, new Date(this.clock.now()));
    if (!status) return;
    // Changed or deleted meanwhile: the watch event brings the CRD back.
    await updateCrdStatus(this.crds, crd, status);
  }
}

/**
 * The status with the condition as the schemas call for it; undefined when it already is so (an existing
 * condition with the same status, reason and message is left as it is, transition time and all).
 */
function withNonStructuralCondition(crd: CustomResourceDefinition, status: CustomResourceDefinitionStatus, now: Date): CustomResourceDefinitionStatus | undefined {
  const cond = cachedNonStructuralCondition(crd);
  const old = findCondition(status, 'NonStructuralSchema');
  if (cond) {
    if (old && old.status === cond.status && old.reason === cond.reason && old.message === cond.message) return undefined;
    return { ...status, conditions: setCRDCondition(status.conditions, structuredClone(cond), now) };
  }
  if (old) return { ...status, conditions: removeCRDCondition(status.conditions, 'NonStructuralSchema') };
  return undefined;
}
