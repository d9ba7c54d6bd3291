// kube-controller-manager's validatingadmissionpolicy-status-controller
// (pkg/controller/validatingadmissionpolicystatus): for a policy whose generation is newer than its
// status.observedGeneration, the type checking warnings and the generation are applied to its status
// (server-side apply, forced, by the controller's field manager). It sets no conditions, as kube's does not.
import type { JSONObject } from '../../util/json.js';
import * as S from '../../api/status.js';
import { metaOf, type GenericStore } from '../../registry/store.js';
import { Controller, type ControllerOptions } from '../../controllers/controller.js';
import { Informer } from '../../controllers/informer.js';
import { checkPolicy, type TypeResolver } from './type-checking.js';

export const STATUS_CONTROLLER_NAME = 'validatingadmissionpolicy-status-controller';

export class PolicyStatusController {
  readonly controller: Controller;
  private readonly informer: Informer;

  constructor(
    private readonly policies: GenericStore,
    private readonly types: TypeResolver,
    opts: Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'> = {},
  ) {
    this.controller = new Controller({ ...opts, name: STATUS_CONTROLLER_NAME, sync: (name) => this.sync(name) });
    this.informer = new Informer(policies, { name: 'validatingadmissionpolicies', clock: opts.clock });
    const enqueue = (p: JSONObject): void => this.controller.enqueue(metaOf(p).name ?? '');
    this.informer.addEventHandler({ add: enqueue, update: (_old, p) => enqueue(p) });
  }

  async start(): Promise<void> {
    await this.controller.runAfter([this.informer]);
  }

  stop(): void {
    this.controller.stopWith([this.informer]);
  }

  async sync(name: string): Promise<void> {
    const policy = this.informer.get(name);
    if (!policy) return;
    const generation = Number(metaOf(policy).generation ?? 0);
    const status = (policy['status'] ?? {}) as JSONObject;
    if (generation <= Number(status['observedGeneration'] ?? 0)) return;
    const warnings = checkPolicy(policy, this.types);
    const patch: JSONObject = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      status: { observedGeneration: generation, typeChecking: warnings.length ? { expressionWarnings: warnings.map((w) => ({ ...w })) } : {} },
    };
    const fm = this.policies.fieldManager('status');
    try {
      await this.policies.update(
        '',
        name,
        async (current) => {
          if (!current) throw S.notFound(this.policies.type.gr, name);
          const out = fm ? await fm.apply(current, patch, STATUS_CONTROLLER_NAME, true) : { ...current, status: { ...((current['status'] ?? {}) as JSONObject), ...(patch['status'] as JSONObject) } };
          // An empty typeChecking says type checking ran: it stays as `{}` (a non-nil pointer in kube's Go type).
          const status = (out['status'] ?? {}) as JSONObject;
          status['typeChecking'] ??= {};
          out['status'] = status;
          return out;
        },
        'status',
      );
    } catch (e) {
      if (e instanceof S.StatusError && e.code === 404) return;
      throw e;
    }
  }
}
