// kube-apiserver's legacy_token_tracking_controller (pkg/controlplane/controller/legacytokentracking): the
// ConfigMap kube-system/kube-apiserver-legacy-service-account-token-tracking records, in `since`, the day
// legacy token tracking began, so that the last-used labels of token Secrets can be read against it. It is
// created when missing (at most once per 30 minutes, as kube's rate limiter allows) and its date put back
// when it is not one.
import type { JSONObject } from '../util/json.js';
import { isObject, deepCopyJSON } from '../util/json.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import * as S from '../api/status.js';
import { Controller, RequeueAfter, type ControllerOptions } from './controller.js';
import { Informer } from './informer.js';
import { realClock } from './clock.js';

export const TRACKING_CONFIG_MAP = 'kube-apiserver-legacy-service-account-token-tracking';
export const TRACKING_NAMESPACE = 'kube-system';
const SINCE_KEY = 'since';
const CREATION_INTERVAL_MS = 30 * 60_000;
const KEY = `${TRACKING_NAMESPACE}/${TRACKING_CONFIG_MAP}`;

type Options = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'>;

/** time.Parse("2006-01-02", s) succeeds. */
function isDate(s: unknown): boolean {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

export class LegacyTokenTrackingController {
  readonly controller: Controller;
  private readonly informer: Informer;
  private readonly now: () => number;
  private lastCreation = -Infinity;

  constructor(
    private readonly configMaps: GenericStore,
    opts: Options = {},
  ) {
    this.now = () => (opts.clock ?? realClock).now();
    this.controller = new Controller({ ...opts, name: 'legacy_token_tracking_controller', sync: () => this.sync() });
    this.informer = new Informer(configMaps, { name: 'configmaps', clock: opts.clock });
    const ours = (cm: JSONObject): void => {
      const m = metaOf(cm);
      if (m.namespace === TRACKING_NAMESPACE && m.name === TRACKING_CONFIG_MAP) this.controller.enqueue(KEY);
    };
    this.informer.addEventHandler({ add: ours, update: (_old, cm) => ours(cm), delete: ours });
  }

  async start(): Promise<void> {
    await this.controller.runAfter([this.informer]);
    this.controller.enqueue(KEY);
  }

  stop(): void {
    this.controller.stopWith([this.informer]);
  }

  private today(): string {
    return new Date(this.now()).toISOString().slice(0, 10);
  }

  async sync(): Promise<void> {
    const cm = this.informer.get(KEY);
    if (!cm) {
      const wait = this.lastCreation + CREATION_INTERVAL_MS - this.now();
      if (wait > 0) throw new RequeueAfter(wait);
      try {
        await this.configMaps.createStored(
          TRACKING_NAMESPACE,
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: TRACKING_CONFIG_MAP, namespace: TRACKING_NAMESPACE }, data: { [SINCE_KEY]: this.today() } },
          { manager: 'kube-apiserver', givenAway: true },
        );
        this.lastCreation = this.now();
      } catch (e) {
        if (!(e instanceof S.StatusError && e.code === 409)) throw e;
      }
      return;
    }
    const data = isObject(cm['data']) ? cm['data'] : {};
    if (isDate(data[SINCE_KEY])) return;
    const desired = deepCopyJSON(cm);
    desired['data'] = { ...data, [SINCE_KEY]: this.today() };
    try {
      await this.configMaps.updateStored(TRACKING_NAMESPACE, TRACKING_CONFIG_MAP, () => desired, '', { manager: 'kube-apiserver', givenAway: true });
    } catch (e) {
      if (!(e instanceof S.StatusError && (e.code === 404 || e.code === 409))) throw e;
    }
  }
}
