// The serviceaccounts controller of kube-controller-manager (pkg/controller/serviceaccount): every active
// namespace has a `default` ServiceAccount, created when the namespace appears and again when it is deleted.
import type { JSONObject } from '../util/json.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import { Controller, type ControllerOptions } from './controller.js';
import { Informer } from './informer.js';
import { KUBE_CONTROLLER_MANAGER, isActive, settledRefusal } from './namespace-defaults.js';

/** The service accounts ensured in every namespace (DefaultServiceAccountsControllerOptions). */
export const DEFAULT_SERVICE_ACCOUNTS = ['default'] as const;

type Options = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'>;

export class ServiceAccountsController {
  readonly controller: Controller;
  private readonly namespaceInformer: Informer;
  private readonly saInformer: Informer;

  constructor(
    namespaces: GenericStore,
    private readonly serviceAccounts: GenericStore,
    opts: Options = {},
  ) {
    this.controller = new Controller({ ...opts, name: 'serviceaccount controller', sync: (ns) => this.sync(ns) });
    this.namespaceInformer = new Informer(namespaces, { name: 'namespaces', clock: opts.clock });
    this.saInformer = new Informer(serviceAccounts, { name: 'serviceaccounts', clock: opts.clock });
    const enqueueNamespace = (ns: JSONObject): void => this.controller.enqueue(metaOf(ns).name ?? '');
    this.namespaceInformer.addEventHandler({ add: enqueueNamespace, update: (_old, ns) => enqueueNamespace(ns) });
    // serviceAccountDeleted: a deleted default account is recreated in its namespace.
    this.saInformer.addEventHandler({
      delete: (sa) => {
        const m = metaOf(sa);
        if ((DEFAULT_SERVICE_ACCOUNTS as readonly string[]).includes(m.name ?? '')) this.controller.enqueue(m.namespace ?? '');
      },
    });
  }

  async start(): Promise<void> {
    // The account informer first: the namespaces' first sync sees the accounts already there.
    await this.controller.runAfter([this.saInformer, this.namespaceInformer]);
  }

  stop(): void {
    this.controller.stopWith([this.saInformer, this.namespaceInformer]);
  }

  /** syncNamespace: create the missing accounts of an active namespace. */
  async sync(namespace: string): Promise<void> {
    const ns = this.namespaceInformer.get(namespace);
    if (!ns || !isActive(ns)) return;
    for (const name of DEFAULT_SERVICE_ACCOUNTS) {
      if (this.saInformer.get(`${namespace}/${name}`)) continue;
      try {
        await this.serviceAccounts.createStored(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } }, { manager: KUBE_CONTROLLER_MANAGER, givenAway: true });
      } catch (e) {
        if (!settledRefusal(e)) throw e;
      }
    }
  }
}
