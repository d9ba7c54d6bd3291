// Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection package does it for
// kube-controller-manager: with several replicas on one etcd, the controllers that write (CRD conditions,
// namespace and CRD finalization, garbage collection, ...) run on one replica at a time.
//
// A candidate takes the Lease when it is free or its holder has not renewed it for leaseDuration, as
// measured by the candidate's own clock from when it last saw the Lease change (client-go's
// observedTime: clocks of different machines are never compared). The leader renews every
// retryPeriod; if no renewal succeeds for renewDeadline it steps down, before another candidate may
// take over (renewDeadline < leaseDuration). On a clean stop the leader releases the Lease (client-go's
// ReleaseOnCancel), so a restart or another replica takes over at once.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { JSONObject } from '../util/json.js';
import * as S from '../api/status.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import { realClock, type Clock, type TimerHandle } from './clock.js';

export interface LeaderElectionTiming {
  /** kube's --leader-elect-lease-duration (15 s). */
  leaseDurationMs: number;
  /** --leader-elect-renew-deadline (10 s). */
  renewDeadlineMs: number;
  /** --leader-elect-retry-period (2 s). */
  retryPeriodMs: number;
}

export const DEFAULT_LEADER_ELECTION: LeaderElectionTiming = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** client-go's JitterFactor for the retry period. */
const JITTER = 1.2;

export interface LeaderElectorOptions extends Partial<LeaderElectionTiming> {
  leases: GenericStore;
  namespace: string;
  name: string;
  /** Who holds the Lease: kube's `<hostname>_<uuid>` by default. */
  identity?: string;
  /** Called on taking the Lease; the term's work may start asynchronously (awaited before renewing starts). */
  onStartedLeading(): Promise<void> | void;
  /** Called when the term ends: lost, or stopped. */
  onStoppedLeading(): void;
  clock?: Clock;
  /** Wall-clock time for the Lease's acquireTime and renewTime (ms since the epoch). */
  now?: () => number;
  onError?: (err: unknown) => void;
}

/** client-go's checks of the three durations (NewLeaderElector), with its messages. */
export function validateLeaderElection(t: LeaderElectionTiming): string | undefined {
  if (t.leaseDurationMs <= t.renewDeadlineMs) return 'leaseDuration must be greater than renewDeadline';
  if (t.renewDeadlineMs <= JITTER * t.retryPeriodMs) return 'renewDeadline must be greater than retryPeriod*JitterFactor';
  if (t.retryPeriodMs < 1) return 'retryPeriod must be greater than zero';
  return undefined;
}

interface Observed {
  /** The Lease's spec as last read, serialised: a change of any field is a sign of life. */
  record: string;
  holder: string;
  /** Local (monotonic) time it was last seen to change. */
  at: number;
  transitions: number;
}

/** RFC 3339 with microseconds, as metav1.MicroTime is written. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Whether this replica leads now, and word when that changes (a logical cluster's controllers follow root's). */
export interface Leadership {
  readonly isLeader: boolean;
  /** Calls listener with each change; returns what unsubscribes it. */
  onChange(listener: (leading: boolean) => void): () => void;
}

export class LeaderElector implements Leadership {
  readonly identity: string;
  private readonly listeners = new Set<(leading: boolean) => void>();
  private readonly timing: LeaderElectionTiming;
  private readonly clock: Clock;
  private readonly now: () => number;
  private readonly onError: (err: unknown) => void;
  private observed: Observed | undefined;
  private leading = false;
  private stopped = false;
  private timer: TimerHandle | undefined;
  /** Local time of the last successful acquire or renew. */
  private renewedAt = 0;
  /** The acquire-or-renew under way (stop waits for it). */
  private inflight: Promise<void> = Promise.resolve();

  constructor(private readonly opts: LeaderElectorOptions) {
    this.identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
    this.timing = {
      leaseDurationMs: opts.leaseDurationMs ?? DEFAULT_LEADER_ELECTION.leaseDurationMs,
      renewDeadlineMs: opts.renewDeadlineMs ?? DEFAULT_LEADER_ELECTION.renewDeadlineMs,
      retryPeriodMs: opts.retryPeriodMs ?? DEFAULT_LEADER_ELECTION.retryPeriodMs,
    };
    const bad = validateLeaderElection(this.timing);
    if (bad) throw new Error(bad);
    this.clock = opts.clock ?? realClock;
    this.now = opts.now ?? Date.now;
    this.onError = opts.onError ?? ((err) => console.error(`leader election ${opts.namespace}/${opts.name}:`, err));
  }

  get isLeader(): boolean {
    return this.leading;
  }

  onChange(listener: (leading: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(leading: boolean): void {
    for (const l of [...this.listeners]) l(leading);
  }

  /**
   * Makes the first attempt and, if it takes the Lease, waits for the term's start; then keeps
   * trying (or renewing) in the background.
   */
  async start(): Promise<void> {
    this.inflight = this.attempt();
    await this.inflight;
  }

  /** Ends the term (releasing the Lease) and stops trying. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    // An attempt under way may be renewing (or taking) the Lease: releasing before it lands would conflict
    // with it and leave the Lease held until it expires.
    await this.inflight.catch(() => {});
    this.endTerm();
    await this.release().catch((e: unknown) => this.onError(e));
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.inflight = this.attempt();
    }, delayMs);
  }

  /** One acquire-or-renew, then the next in a retry period (jittered while a candidate, as client-go's). */
  private async attempt(): Promise<void> {
    if (this.stopped) return;
    let ok = false;
    try {
      ok = await this.tryAcquireOrRenew();
    } catch (e) {
      this.onError(e);
    }
    if (this.stopped) return;
    const t = this.clock.now();
    if (ok) {
      this.renewedAt = t;
      // Renewing goes on while the term's controllers start (client-go runs OnStartedLeading beside it): a
      // slow start must not let the Lease lapse.
      this.schedule(this.timing.retryPeriodMs);
      if (!this.leading) {
        this.leading = true;
        this.tell(true);
        await Promise.resolve(this.opts.onStartedLeading()).catch((e: unknown) => this.onError(e));
      }
      return;
    }
    if (this.leading && t - this.renewedAt >= this.timing.renewDeadlineMs) this.endTerm();
    const period = this.timing.retryPeriodMs;
    this.schedule(this.leading ? period : period * (1 + Math.random() * JITTER));
  }

  private endTerm(): void {
    if (!this.leading) return;
    this.leading = false;
    this.opts.onStoppedLeading();
    this.tell(false);
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const { leases, namespace, name } = this.opts;
    const nowWall = this.now();
    let current: JSONObject | undefined;
    try {
      current = await leases.get(namespace, name);
    } catch (e) {
      if (!(e instanceof S.StatusError && e.code === 404)) throw e;
    }
    const durationSeconds = Math.max(1, Math.round(this.timing.leaseDurationMs / 1000));
    if (!current) {
      const lease: JSONObject = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace },
        spec: { holderIdentity: this.identity, leaseDurationSeconds: durationSeconds, acquireTime: microTime(nowWall), renewTime: microTime(nowWall), leaseTransitions: 0 },
      };
      try {
        await leases.create(namespace, lease, { manager: this.identity.split('_')[0] ?? 'crd-apiserver' });
      } catch (e) {
        if (e instanceof S.StatusError && e.code === 409) return false;
        throw e;
      }
      this.observe(lease);
      return true;
    }
    this.observe(current);
    const observed = this.observed!;
    const held = observed.holder !== '' && observed.holder !== this.identity;
    if (held && this.clock.now() < observed.at + this.heldForMs(current)) return false;
    const spec = (current['spec'] ?? {}) as JSONObject;
    const mine = observed.holder === this.identity;
    const next: JSONObject = {
      holderIdentity: this.identity,
      leaseDurationSeconds: durationSeconds,
      acquireTime: mine && typeof spec['acquireTime'] === 'string' ? spec['acquireTime'] : microTime(nowWall),
      renewTime: microTime(nowWall),
      leaseTransitions: mine ? observed.transitions : observed.transitions + 1,
    };
    const updated = await this.write(current, next);
    if (!updated) return false;
    this.observe(updated);
    return true;
  }

  /** The holder's own lease duration, as client-go reads it from the record (ours if absent). */
  private heldForMs(lease: JSONObject): number {
    const d = ((lease['spec'] ?? {}) as JSONObject)['leaseDurationSeconds'];
    return typeof d === 'number' && d > 0 ? d * 1000 : this.timing.leaseDurationMs;
  }

  /** Replace the Lease's spec if it is still what was read; undefined when someone else wrote first. */
  private async write(current: JSONObject, spec: JSONObject): Promise<JSONObject | undefined> {
    const { leases, namespace, name } = this.opts;
    const rv = metaOf(current).resourceVersion;
    try {
      const res = await leases.update(
        namespace,
        name,
        (obj) => {
          if (!obj) throw S.notFound({ group: 'coordination.k8s.io', resource: 'leases' }, name);
          return { ...obj, metadata: { ...(obj['metadata'] as JSONObject), resourceVersion: rv }, spec };
        },
        '',
        { manager: this.identity.split('_')[0] ?? 'crd-apiserver' },
      );
      return res.object;
    } catch (e) {
      if (e instanceof S.StatusError && (e.code === 409 || e.code === 404)) return undefined;
      throw e;
    }
  }

  private observe(lease: JSONObject): void {
    const spec = (lease['spec'] ?? {}) as JSONObject;
    const record = JSON.stringify(spec);
    if (this.observed?.record === record) return;
    this.observed = {
      record,
      holder: typeof spec['holderIdentity'] === 'string' ? spec['holderIdentity'] : '',
      at: this.clock.now(),
      transitions: typeof spec['leaseTransitions'] === 'number' ? spec['leaseTransitions'] : 0,
    };
  }

  /** client-go's release: no holder, a one-second duration, so the next candidate takes it at once. */
  private async release(): Promise<void> {
    const { leases, namespace, name } = this.opts;
    // A few tries: a write of ours that raced the read (or the store's own retry) is a conflict, not a refusal.
    for (let attempt = 0; attempt < 3; attempt++) {
      let current: JSONObject;
      try {
        current = await leases.get(namespace, name);
      } catch (e) {
        if (e instanceof S.StatusError && e.code === 404) return;
        throw e;
      }
      const spec = (current['spec'] ?? {}) as JSONObject;
      if (spec['holderIdentity'] !== this.identity) return;
      const nowWall = this.now();
      const released = await this.write(current, {
        holderIdentity: '',
        leaseDurationSeconds: 1,
        acquireTime: microTime(nowWall),
        renewTime: microTime(nowWall),
        leaseTransitions: typeof spec['leaseTransitions'] === 'number' ? spec['leaseTransitions'] : 0,
      });
      if (released) return;
    }
  }
}

/** Where the server's controllers' Lease lives (kube-controller-manager's is kube-system/kube-controller-manager). */
export const CONTROLLERS_LEASE = { namespace: 'kube-system', name: 'crd-apiserver-controllers' } as const;

export interface LeaderElectionConfig extends Partial<LeaderElectionTiming> {
  identity?: string;
}

type Started = Array<{ stop(): void }>;

/** What runs only while this replica leads: stop() ends it; stopped() also releases what it holds. */
export interface ElectedControllers {
  stop(): void;
  stopped(): Promise<void>;
  readonly leading: boolean;
  /** What a logical cluster's controllers follow. */
  readonly leadership: Leadership;
}

/** Terms of what `start` starts: a term that ends while its controllers start stops them once started. */
function terms(start: () => Promise<Started>): { begin(): Promise<void>; end(): void } {
  let running: Started = [];
  let term = 0;
  const stopAll = (cs: Started): void => {
    for (const c of [...cs].reverse()) c.stop();
  };
  return {
    begin: async () => {
      const mine = ++term;
      const started = await start();
      if (mine === term) running = started;
      else stopAll(started);
    },
    end: () => {
      term++;
      stopAll(running);
      running = [];
    },
  };
}

/**
 * Runs what `start` starts while this replica holds the controllers' Lease, and stops it when the term
 * ends. The first attempt is awaited (with its term's start when it wins), so a lone server is
 * ready with its controllers as without election. stop() ends the term; stopped() also releases the Lease.
 */
export async function leaderElectedControllers(
  leases: GenericStore,
  config: LeaderElectionConfig,
  start: () => Promise<Started>,
  onError?: (err: unknown) => void,
): Promise<ElectedControllers> {
  const t = terms(start);
  const elector = new LeaderElector({ ...config, ...CONTROLLERS_LEASE, leases, onError, onStartedLeading: t.begin, onStoppedLeading: t.end });
  await elector.start();
  let stopping: Promise<void> | undefined;
  const stopped = (): Promise<void> => (stopping ??= elector.stop().finally(t.end));
  return {
    stop: () => void stopped(),
    stopped,
    get leading() {
      return elector.isLeader;
    },
    leadership: elector,
  };
}

/**
 * Runs what `start` starts while `leader` leads: a logical cluster's writing controllers run on the replica that
 * holds root's Lease, so that with several replicas each cluster's controllers run on one of them. Awaits the
 * start when it leads now, as leaderElectedControllers does.
 */
export async function followLeadership(leader: Leadership, start: () => Promise<Started>, onError: (err: unknown) => void = console.error): Promise<ElectedControllers> {
  const t = terms(start);
  let leading = leader.isLeader;
  const unsubscribe = leader.onChange((now) => {
    if (now === leading) return;
    leading = now;
    if (now) t.begin().catch(onError);
    else t.end();
  });
  try {
    if (leading) await t.begin();
  } catch (e) {
    unsubscribe();
    throw e;
  }
  const stopped = async (): Promise<void> => {
    unsubscribe();
    leading = false;
    t.end();
  };
  return {
    stop: () => void stopped(),
    stopped,
    get leading() {
      return leading;
    },
    leadership: leader,
  };
}
