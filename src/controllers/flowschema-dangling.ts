// The FlowSchema status kube-apiserver's API Priority and Fairness config controller maintains (k8s.io/apiserver
// pkg/util/flowcontrol/apf_controller.go, presyncFlowSchemaStatus): the Dangling condition says whether the
// PriorityLevelConfiguration a FlowSchema names exists, written by server-side apply of the status (forced)
// as `api-priority-and-fairness-config-consumer-v1`. The request dispatcher itself is elsewhere.
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import * as S from '../api/status.js';
import { rfc3339 } from '../util/time.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import { Controller, type ControllerOptions } from './controller.js';
import { Informer } from './informer.js';

export const APF_CONFIG_CONSUMER = 'api-priority-and-fairness-config-consumer-v1';

type Options = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'>;

export interface DanglingCondition {
  status: 'True' | 'False';
  reason: 'NotFound' | 'Found';
  message: string;
}

/** The condition a FlowSchema naming priority level `plName` should carry. */
export function danglingCondition(plName: string, plExists: boolean): DanglingCondition {
  return plExists
    ? { status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)} and it exists` }
    : { status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)} but there is no such object` };
}

const at = (v: unknown, key: string): unknown => (isObject(v) ? v[key] : undefined);
const plNameOf = (fs: JSONObject): string => String(at(at(fs['spec'], 'priorityLevelConfiguration'), 'name') ?? '');

export class FlowSchemaDanglingController {
  readonly controller: Controller;
  private readonly fsInformer: Informer;
  private readonly plInformer: Informer;

  constructor(
    private readonly flowSchemas: GenericStore,
    priorityLevels: GenericStore,
    opts: Options = {},
  ) {
    this.controller = new Controller({ ...opts, name: 'APF config consumer', sync: (name) => this.sync(name) });
    this.fsInformer = new Informer(flowSchemas, { name: 'flowschemas', clock: opts.clock });
    this.plInformer = new Informer(priorityLevels, { name: 'prioritylevelconfigurations', clock: opts.clock });
    const enqueueFs = (fs: JSONObject): void => this.controller.enqueue(metaOf(fs).name ?? '');
    this.fsInformer.addEventHandler({ add: enqueueFs, update: (_old, fs) => enqueueFs(fs) });
    // A priority level appearing or going changes the condition of the schemas that name it.
    const enqueueReferrers = (pl: JSONObject): void => {
      const name = metaOf(pl).name ?? '';
      for (const fs of this.fsInformer.list()) if (plNameOf(fs) === name) enqueueFs(fs);
    };
    this.plInformer.addEventHandler({ add: enqueueReferrers, delete: enqueueReferrers });
  }

  async start(): Promise<void> {
    await this.controller.runAfter([this.plInformer, this.fsInformer]);
  }

  stop(): void {
    this.controller.stopWith([this.plInformer, this.fsInformer]);
  }

  async sync(name: string): Promise<void> {
    const fs = this.fsInformer.get(name);
    if (!fs) return;
    const plName = plNameOf(fs);
    const want = danglingCondition(plName, this.plInformer.get(plName) !== undefined);
    const conditions = at(fs['status'], 'conditions');
    const have = Array.isArray(conditions) ? (conditions.find((c) => at(c, 'type') === 'Dangling') as JSONObject | undefined) : undefined;
    if (have && have['status'] === want.status && have['reason'] === want.reason && have['message'] === want.message) return;
    const patch: JSONObject = {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name },
      status: { conditions: [{ type: 'Dangling', status: want.status, lastTransitionTime: rfc3339(), reason: want.reason, message: want.message }] },
    };
    const fm = this.flowSchemas.fieldManager('status');
    try {
      await this.flowSchemas.update(
        '',
        name,
        (current) => {
          if (!current) throw S.notFound(this.flowSchemas.type.gr, name);
          return fm ? fm.apply(current, patch, APF_CONFIG_CONSUMER, true) : mergeCondition(current, patch);
        },
        'status',
      );
    } catch (e) {
      // Deleted meanwhile: its deletion is on its way to the informer, nothing to do.
      if (e instanceof S.StatusError && e.code === 404) return;
      throw e;
    }
  }
}

/** Without managed fields: the condition merged into the status by type. */
function mergeCondition(current: JSONObject, patch: JSONObject): JSONObject {
  const status = isObject(current['status']) ? current['status'] : {};
  const others = (Array.isArray(status['conditions']) ? status['conditions'] : []).filter((c) => at(c, 'type') !== 'Dangling');
  const cond = (at(patch['status'], 'conditions') as unknown[])[0];
  return { ...current, status: { ...status, conditions: [...others, cond] } };
}
