// The root-ca-cert-publisher of kube-controller-manager (pkg/controller/certificates/rootcacertpublisher):
// every namespace has a `kube-root-ca.crt` ConfigMap holding the cluster's CA bundle, recreated when it is
// deleted and put back (data and description) when it is changed.
import type { JSONObject } from '../util/json.js';
import { isObject, deepCopyJSON } from '../util/json.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import * as S from '../api/status.js';
import { Controller, type ControllerOptions } from './controller.js';
import { Informer } from './informer.js';
import { KUBE_CONTROLLER_MANAGER, isActive, settledRefusal } from './namespace-defaults.js';

export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

type Options = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'>;

/** reflect.DeepEqual(cm.Data, {"ca.crt": rootCA}). */
function sameData(cm: JSONObject, rootCA: string): boolean {
  const data = cm['data'];
  return isObject(data) && Object.keys(data).length === 1 && data['ca.crt'] === rootCA;
}

export class RootCAPublisher {
  readonly controller: Controller;
  private readonly namespaceInformer: Informer;
  private readonly cmInformer: Informer;

  constructor(
    namespaces: GenericStore,
    private readonly configMaps: GenericStore,
    /** The CA bundle (PEM) published: the one kube-controller-manager's client trusts the apiserver by. */
    private readonly rootCA: string,
    opts: Options = {},
  ) {
    this.controller = new Controller({ ...opts, name: 'root CA cert publisher', sync: (ns) => this.sync(ns) });
    this.namespaceInformer = new Informer(namespaces, { name: 'namespaces', clock: opts.clock });
    this.cmInformer = new Informer(configMaps, { name: 'configmaps', clock: opts.clock });
    const enqueueNamespace = (ns: JSONObject): void => this.controller.enqueue(metaOf(ns).name ?? '');
    // namespaceAdded enqueues every namespace; namespaceUpdated only active ones.
    this.namespaceInformer.addEventHandler({ add: enqueueNamespace, update: (_old, ns) => isActive(ns) && enqueueNamespace(ns) });
    const ours = (cm: JSONObject): void => {
      if (metaOf(cm).name === ROOT_CA_CONFIG_MAP) this.controller.enqueue(metaOf(cm).namespace ?? '');
    };
    this.cmInformer.addEventHandler({ update: (_old, cm) => ours(cm), delete: ours });
  }

  async start(): Promise<void> {
    await this.controller.runAfter([this.cmInformer, this.namespaceInformer]);
  }

  stop(): void {
    this.controller.stopWith([this.cmInformer, this.namespaceInformer]);
  }

  /** syncNamespace: create the ConfigMap, or put its data and description back. */
  async sync(namespace: string): Promise<void> {
    const cm = this.cmInformer.get(`${namespace}/${ROOT_CA_CONFIG_MAP}`);
    if (!cm) {
      try {
        await this.configMaps.createStored(
          namespace,
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: ROOT_CA_CONFIG_MAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
            data: { 'ca.crt': this.rootCA },
          },
          { manager: KUBE_CONTROLLER_MANAGER, givenAway: true },
        );
      } catch (e) {
        if (!settledRefusal(e)) throw e;
      }
      return;
    }
    if (sameData(cm, this.rootCA) && (metaOf(cm).annotations?.[DESCRIPTION_ANNOTATION] ?? '') !== '') return;
    // An Update of the cached object: a conflict (it changed meanwhile) is retried with backoff.
    const desired = deepCopyJSON(cm);
    desired['data'] = { 'ca.crt': this.rootCA };
    const meta = metaOf(desired);
    meta.annotations = { ...(meta.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION };
    try {
      await this.configMaps.updateStored(namespace, ROOT_CA_CONFIG_MAP, () => desired, '', { manager: KUBE_CONTROLLER_MANAGER, givenAway: true });
    } catch (e) {
      // Deleted meanwhile: its delete event brings the namespace back.
      if (!(e instanceof S.StatusError && e.code === 404)) throw e;
    }
  }
}
