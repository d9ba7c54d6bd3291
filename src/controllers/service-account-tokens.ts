// The token controller of kube-controller-manager (pkg/controller/serviceaccount/tokens_controller.go): a
// Secret of type kubernetes.io/service-account-token naming a ServiceAccount gets its token, ca.crt and
// namespace filled in (and the ServiceAccount's uid annotation); one naming a ServiceAccount that does not
// exist is deleted, and so are a ServiceAccount's token Secrets when it is deleted.
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import * as S from '../api/status.js';
import { Controller, type ControllerOptions } from './controller.js';
import { Informer } from './informer.js';
import { KUBE_CONTROLLER_MANAGER } from './namespace-defaults.js';

export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
export const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';
export const SERVICE_ACCOUNT_UID_KEY = 'kubernetes.io/service-account.uid';

type Options = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'>;

/** Signs the token for a Secret of a ServiceAccount. */
export type LegacyTokenIssuer = (serviceAccount: { namespace: string; name: string; uid: string }, secretName: string) => string;

// Queue keys carry what the deleted object no longer can: the uid, and for a Secret its ServiceAccount.
const SEP = '\u0000';
const saKey = (sa: JSONObject): string => ['sa', metaOf(sa).namespace ?? '', metaOf(sa).name ?? '', metaOf(sa).uid ?? ''].join(SEP);
const secretKey = (s: JSONObject): string => {
  const m = metaOf(s);
  return ['secret', m.namespace ?? '', m.name ?? '', m.uid ?? '', m.annotations?.[SERVICE_ACCOUNT_NAME_KEY] ?? '', m.annotations?.[SERVICE_ACCOUNT_UID_KEY] ?? ''].join(SEP);
};

const isTokenSecret = (s: JSONObject): boolean => s['type'] === SERVICE_ACCOUNT_TOKEN_TYPE;
const dataOf = (s: JSONObject): Record<string, unknown> => (isObject(s['data']) ? s['data'] : {});
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const notFoundOrConflict = (e: unknown): boolean => e instanceof S.StatusError && (e.code === 404 || e.code === 409);

export class ServiceAccountTokensController {
  readonly controller: Controller;
  private readonly saInformer: Informer;
  private readonly secretInformer: Informer;

  constructor(
    private readonly serviceAccounts: GenericStore,
    private readonly secrets: GenericStore,
    private readonly issue: LegacyTokenIssuer,
    /** The CA bundle written as ca.crt (kube-controller-manager's --root-ca-file); empty: none. */
    private readonly rootCA: string,
    opts: Options = {},
  ) {
    this.controller = new Controller({ ...opts, name: 'serviceaccount-token controller', sync: (key) => this.sync(key) });
    this.saInformer = new Informer(serviceAccounts, { name: 'serviceaccounts', clock: opts.clock });
    this.secretInformer = new Informer(secrets, { name: 'secrets', clock: opts.clock });
    const enqueueSa = (sa: JSONObject): void => this.controller.enqueue(saKey(sa));
    this.saInformer.addEventHandler({ add: enqueueSa, update: (_old, sa) => enqueueSa(sa), delete: enqueueSa });
    // kube's informer lists only token Secrets (a field selector on type).
    const enqueueSecret = (s: JSONObject): void => {
      if (isTokenSecret(s)) this.controller.enqueue(secretKey(s));
    };
    this.secretInformer.addEventHandler({ add: enqueueSecret, update: (_old, s) => enqueueSecret(s), delete: enqueueSecret });
  }

  async start(): Promise<void> {
    await this.controller.runAfter([this.saInformer, this.secretInformer]);
  }

  stop(): void {
    this.controller.stopWith([this.saInformer, this.secretInformer]);
  }

  async sync(key: string): Promise<void> {
    const [kind, ...rest] = key.split(SEP);
    if (kind === 'sa') await this.syncServiceAccount(rest[0]!, rest[1]!, rest[2]!);
    else await this.syncSecret(rest[0]!, rest[1]!, rest[2]!, rest[3]!, rest[4]!);
  }

  /** The cached ServiceAccount, when it exists with the uid asked for (any, when none is). */
  private serviceAccount(namespace: string, name: string, uid: string): JSONObject | undefined {
    const sa = this.saInformer.get(`${namespace}/${name}`);
    return sa && (!uid || metaOf(sa).uid === uid) ? sa : undefined;
  }

  /** syncServiceAccount: a ServiceAccount gone takes its token Secrets with it. */
  private async syncServiceAccount(namespace: string, name: string, uid: string): Promise<void> {
    if (this.serviceAccount(namespace, name, uid)) return;
    // IsServiceAccountToken: same namespace, the name annotation, and the uid annotation if set.
    const tokens = this.secretInformer.list().filter((s) => {
      const m = metaOf(s);
      const annotatedUid = m.annotations?.[SERVICE_ACCOUNT_UID_KEY] ?? '';
      return isTokenSecret(s) && m.namespace === namespace && m.annotations?.[SERVICE_ACCOUNT_NAME_KEY] === name && (!annotatedUid || annotatedUid === uid);
    });
    for (const s of tokens) await this.deleteToken(namespace, metaOf(s).name ?? '', metaOf(s).uid ?? '');
  }

  private async syncSecret(namespace: string, name: string, uid: string, saName: string, saUid: string): Promise<void> {
    if (!saName) return; // parseSecretQueueKey refuses a key without the ServiceAccount's name
    const cached = this.secretInformer.get(`${namespace}/${name}`);
    const secret = cached && metaOf(cached).uid === uid ? cached : undefined;
    if (!secret) {
      await this.removeSecretReference(namespace, saName, saUid, name);
      return;
    }
    // getServiceAccount with fetchOnCacheMiss: the cache may not have seen a ServiceAccount just created.
    const sa = this.serviceAccount(namespace, saName, saUid) ?? (await this.liveServiceAccount(namespace, saName, saUid));
    if (!sa) {
      await this.deleteToken(namespace, name, uid);
      return;
    }
    await this.generateTokenIfNeeded(sa, secret);
  }

  private async liveServiceAccount(namespace: string, name: string, uid: string): Promise<JSONObject | undefined> {
    const sa = await this.serviceAccounts.get(namespace, name).catch((e: unknown) => {
      if (e instanceof S.StatusError && e.code === 404) return undefined;
      throw e;
    });
    return sa && (!uid || metaOf(sa).uid === uid) ? sa : undefined;
  }

  /** Delete with a uid precondition: a Secret already gone, or replaced meanwhile, is left alone. */
  private async deleteToken(namespace: string, name: string, uid: string): Promise<void> {
    try {
      await this.secrets.delete(namespace, name, uid ? { preconditions: { uid } } : {});
    } catch (e) {
      if (!notFoundOrConflict(e)) throw e;
    }
  }

  /** secretUpdateNeeded: a CA other than ours, or no namespace or token. */
  private needs(secret: JSONObject): { ca: boolean; namespace: boolean; token: boolean } {
    const data = dataOf(secret);
    return {
      ca: this.rootCA !== '' && data['ca.crt'] !== b64(this.rootCA),
      namespace: !data['namespace'],
      token: !data['token'],
    };
  }

  /** generateTokenIfNeeded: fill in what is missing on the live Secret, if the cache saw its latest state. */
  private async generateTokenIfNeeded(sa: JSONObject, cached: JSONObject): Promise<void> {
    const n = this.needs(cached);
    if (!n.ca && !n.namespace && !n.token) return;
    const m = metaOf(cached);
    const saMeta = metaOf(sa);
    try {
      await this.secrets.update(
        m.namespace ?? '',
        m.name ?? '',
        (live) => {
          // A newer state than the cache's comes back as an update event: nothing to do now.
          if (!live || metaOf(live).resourceVersion !== m.resourceVersion) throw new Skip();
          const need = this.needs(live);
          if (!need.ca && !need.namespace && !need.token) throw new Skip();
          const data = { ...dataOf(live) };
          if (need.ca) data['ca.crt'] = b64(this.rootCA);
          if (need.namespace) data['namespace'] = b64(m.namespace ?? '');
          if (need.token) data['token'] = b64(this.issue({ namespace: saMeta.namespace ?? '', name: saMeta.name ?? '', uid: saMeta.uid ?? '' }, m.name ?? ''));
          live['data'] = data;
          const lm = metaOf(live);
          lm.annotations = { ...(lm.annotations ?? {}), [SERVICE_ACCOUNT_NAME_KEY]: saMeta.name ?? '', [SERVICE_ACCOUNT_UID_KEY]: saMeta.uid ?? '' };
          return live;
        },
        '',
        { manager: KUBE_CONTROLLER_MANAGER },
      );
    } catch (e) {
      if (!(e instanceof Skip) && !notFoundOrConflict(e)) throw e;
    }
  }

  /** removeSecretReference: a deleted token Secret leaves the ServiceAccount's `secrets`. */
  private async removeSecretReference(namespace: string, saName: string, saUid: string, secretName: string): Promise<void> {
    const cached = this.serviceAccount(namespace, saName, saUid);
    const refs = (sa: JSONObject): unknown[] => (Array.isArray(sa['secrets']) ? sa['secrets'] : []);
    const named = (r: unknown): boolean => isObject(r) && r['name'] === secretName;
    if (!cached || !refs(cached).some(named)) return;
    try {
      await this.serviceAccounts.update(
        namespace,
        saName,
        (live) => {
          if (!live || (saUid && metaOf(live).uid !== saUid) || !refs(live).some(named)) throw new Skip();
          live['secrets'] = refs(live).filter((r) => !named(r));
          return live;
        },
        '',
        { manager: KUBE_CONTROLLER_MANAGER },
      );
    } catch (e) {
      if (!(e instanceof Skip) && !(e instanceof S.StatusError && e.code === 404)) throw e;
    }
  }
}

/** Thrown from an update's mutation to write nothing. */
class Skip extends Error {}
