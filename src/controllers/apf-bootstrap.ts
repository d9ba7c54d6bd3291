// kube-apiserver's post-start hook `priority-and-fairness-config-producer` (pkg/registry/flowcontrol/rest
// and pkg/registry/flowcontrol/ensurer): keeps the bootstrap API Priority and Fairness configuration in
// place. Each pass ensures the suggested objects, then the mandatory ones (priority levels before flow
// schemas), then deletes auto-updated objects that are no longer part of the bootstrap configuration. A
// pass runs at start (retried until it succeeds) and then once a minute.
import type { JSONObject } from '../util/json.js';
import { isObject, deepCopyJSON } from '../util/json.js';
import * as S from '../api/status.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import { Controller, RequeueAfter, type ControllerOptions } from './controller.js';
import { Informer } from './informer.js';
import { ExponentialFailureRateLimiter } from './rate-limiter.js';

/** The manager the ensurer's writes are recorded for. */
export const APF_CONFIG_PRODUCER = 'api-priority-and-fairness-config-producer-v1';
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
const KEY = 'bootstrap';

/** One configuration kind as the ensurer sees it (the kinds themselves are declared above this folder). */
export interface BootstrapKind {
  /** FlowSchema or PriorityLevelConfiguration, for messages. */
  typeName: string;
  store: GenericStore;
  mandatory: readonly JSONObject[];
  suggested: readonly JSONObject[];
  /** Whether the actual spec is what the bootstrap object's defaulted spec asks for (SpecEqualish). */
  specEqualish(bootstrap: JSONObject, actual: JSONObject): boolean;
}

type Options = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'> & {
  /** Time between passes once the first succeeded (kube: one minute). */
  intervalMs?: number;
};

/** strconv.ParseBool. */
export function parseGoBool(s: string | undefined): boolean | undefined {
  if (s === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

const annotation = (obj: JSONObject): string | undefined => metaOf(obj).annotations?.[AUTO_UPDATE_ANNOTATION];

/**
 * The ensure strategies' ShouldUpdate: the object to write, or undefined when current is up to date. The
 * mandatory strategy always auto-updates the spec; the suggested one when the annotation says so, or, when it
 * is missing or not a boolean, while the object is at generation 1 (nobody has changed its spec). The
 * annotation is then set to what was decided.
 */
export function revision(current: JSONObject, bootstrap: JSONObject, mandatory: boolean, specEqualish: BootstrapKind['specEqualish']): JSONObject | undefined {
  const value = parseGoBool(annotation(current));
  const autoUpdate = mandatory || (value ?? metaOf(current).generation === 1);
  const updateAnnotation = value !== autoUpdate;
  const specChanged = autoUpdate && !specEqualish(bootstrap, current);
  if (!updateAnnotation && !specChanged) return undefined;
  const copy = deepCopyJSON(current);
  if (updateAnnotation) {
    const meta = metaOf(copy);
    meta.annotations = { ...(meta.annotations ?? {}), [AUTO_UPDATE_ANNOTATION]: String(autoUpdate) };
  }
  if (specChanged) copy['spec'] = deepCopyJSON(bootstrap['spec']);
  return copy;
}

export class ApfBootstrapEnsurer {
  readonly controller: Controller;
  private readonly informers: Map<BootstrapKind, Informer>;
  private readonly intervalMs: number;
  private markSynced!: () => void;
  /** Resolves once a pass has succeeded: kube's post-start hook returns then, and readyz passes. */
  readonly firstPass = new Promise<void>((resolve) => (this.markSynced = resolve));

  constructor(
    /** Priority levels first: flow schemas refer to them. */
    private readonly kinds: readonly BootstrapKind[],
    opts: Options = {},
  ) {
    this.intervalMs = opts.intervalMs ?? 60_000;
    // A failed pass is retried after a second (kube polls every second until the first pass succeeds), backing
    // off to the pass interval, never beyond it.
    const rateLimiter = opts.rateLimiter ?? new ExponentialFailureRateLimiter(Math.min(1000, this.intervalMs), this.intervalMs);
    this.controller = new Controller({ ...opts, rateLimiter, name: 'APF bootstrap ensurer', sync: () => this.sync() });
    this.informers = new Map(kinds.map((k) => [k, new Informer(k.store, { name: k.typeName, clock: opts.clock })]));
  }

  /**
   * The post-start hook: resolves after the first successful pass, or fails as kube's hook fails when no pass
   * succeeded within its five minutes.
   */
  waitForFirstPass(timeoutMs = 5 * 60_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      // Not unref'd: it keeps the process alive while the retries' (unref'd) timers are all that is pending.
      timer = setTimeout(() => reject(new Error('unable to initialize APF bootstrap configuration: context deadline exceeded')), timeoutMs);
    });
    return Promise.race([this.firstPass, timeout]).finally(() => clearTimeout(timer));
  }

  async start(): Promise<void> {
    this.controller.enqueue(KEY);
    await this.controller.runAfter([...this.informers.values()]);
  }

  stop(): void {
    this.controller.stopWith([...this.informers.values()]);
  }

  /** One pass; failures are retried with backoff, success schedules the next pass. */
  private async sync(): Promise<void> {
    await this.ensure();
    this.markSynced();
    // Success resets the backoff (the worker forgets a key only when its sync returns).
    this.controller.queue.forget(KEY);
    throw new RequeueAfter(this.intervalMs, 'next APF bootstrap pass');
  }

  /**
   * ensure(): suggested, then mandatory, then the removal of objects no longer in the bootstrap set, kind by kind
   * in that order; the objects of one kind and class are independent, so written concurrently (one after another,
   * a first start's ~25 creates each waited for a commit of their own: about a fifth of that start).
   */
  async ensure(): Promise<void> {
    for (const k of this.kinds) await Promise.all(k.suggested.map((b) => this.ensureObject(k, b, false)));
    for (const k of this.kinds) await Promise.all(k.mandatory.map((b) => this.ensureObject(k, b, true)));
    for (const k of this.kinds) await this.removeDangling(k);
  }

  private async ensureObject(k: BootstrapKind, bootstrap: JSONObject, mandatory: boolean): Promise<void> {
    const name = metaOf(bootstrap).name ?? '';
    const current = this.informers.get(k)!.get(name);
    if (!current) {
      // A missing configuration object is always created again.
      try {
        // A copy of the shared bootstrap object, the write's to keep (its event takes the built object); nothing reads the result.
        await k.store.createStored('', deepCopyJSON(bootstrap), { manager: APF_CONFIG_PRODUCER, givenAway: true });
      } catch (e) {
        throw new Error(`cannot create ${k.typeName} type=${mandatory ? 'mandatory' : 'suggested'} name="${name}" error=${errorText(e)}`);
      }
      return;
    }
    const next = revision(current, bootstrap, mandatory, k.specEqualish);
    if (!next) return;
    try {
      await k.store.updateStored('', name, () => next, '', { manager: APF_CONFIG_PRODUCER, givenAway: true });
    } catch (e) {
      throw new Error(`failed to update the ${k.typeName}, will retry later type=${mandatory ? 'mandatory' : 'suggested'} name="${name}" error=${errorText(e)}`);
    }
  }

  /** Objects with the annotation key that the bootstrap set no longer names go, when it parses to true. */
  private async removeDangling(k: BootstrapKind): Promise<void> {
    const names = new Set([...k.mandatory, ...k.suggested].map((o) => metaOf(o).name));
    for (const obj of this.informers.get(k)!.list()) {
      const name = metaOf(obj).name ?? '';
      const annotations = metaOf(obj).annotations;
      if (names.has(name) || !isObject(annotations) || !(AUTO_UPDATE_ANNOTATION in annotations)) continue;
      // A malformed value needs an operator: skipped without an error, as kube skips it.
      if (parseGoBool(annotation(obj)) !== true) continue;
      try {
        await k.store.delete('', name);
      } catch (e) {
        if (e instanceof S.StatusError && e.code === 404) continue;
        throw new Error(`failed to delete the ${k.typeName}, will retry later name="${name}" error=${errorText(e)}`);
      }
    }
  }
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
