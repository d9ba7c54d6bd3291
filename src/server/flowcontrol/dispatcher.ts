// API Priority and Fairness' configuration and classification (k8s.io/apiserver pkg/util/flowcontrol's
// config controller): the FlowSchemas and PriorityLevelConfigurations in force are digested into one queue
// set per priority level, each with its share of the server's concurrency limit, and an ordered list of
// schemas to classify requests by. Without an exempt or catch-all object the mandatory one is imagined, so
// the server classifies every request from its first one on.
import type { UserInfo } from '../../api/user.js';
import type { RequestInfo } from '../request-info.js';
import { matchesFlowSchema } from './match.js';
import { QueueSet, type QueueSetConfig } from './queue-set.js';
import { allocateConcurrency } from './allocation.js';
import { hashFlowID, MAX_HASH_BITS, requiredEntropyBits } from './shuffle-sharding.js';
import { CATCH_ALL, EXEMPT, type FlowSchema, type PriorityLevelConfiguration } from './types.js';
import { WatchTracker } from './watch-tracker.js';

/** kube's priorityLevelMaxSeatsPercent: a request may take at most this part of its level's seats. */
const MAX_SEATS_PERCENT = 0.15;
/** The v1 default of nominalConcurrencyShares for a Limited level. */
const DEFAULT_SHARES = 30;

export interface MandatoryConfiguration {
  exemptLevel: PriorityLevelConfiguration;
  catchAllLevel: PriorityLevelConfiguration;
  exemptSchema: FlowSchema;
  catchAllSchema: FlowSchema;
}

export interface PriorityLevelState {
  readonly config: PriorityLevelConfiguration;
  readonly queues: QueueSet;
  /** The level's nominal concurrency limit: its share of the server's seats. */
  readonly concurrencyLimit: number;
  /** What it may lend (nominal − lendable seats) and borrow up to (nominal + borrowing limit). */
  readonly minLimit: number;
  readonly maxLimit: number;
  /** Seats it may use now: the nominal limit adjusted by borrowing every 10 s. */
  currentLimit: number;
  /** Its seat demand's smoothed envelope (average + deviation), kube's seatDemandStats.smoothed. */
  smoothedDemand: number;
  /** The most seats one request may take. */
  readonly maxSeats: number;
  /** Its object is gone; it stays until what it holds is done (kube's quiescing). */
  readonly quiescing: boolean;
}

/** kube's seatDemandSmoothingCoefficient. */
const SMOOTHING = 0.977;

export interface Classification {
  schema: FlowSchema;
  level: PriorityLevelState;
  /** 0 when the level has one queue or none (the distinguisher then does not matter). */
  hashValue: bigint;
  /** The user name or namespace the flow is told apart by ('' when the level does not queue). */
  flowDistinguisher: string;
}

/** Why a level's spec cannot be served (kube logs and ignores such a level), or its queue set configuration. */
function queueSetConfig(pl: PriorityLevelConfiguration, concurrencyLimit: number): QueueSetConfig | string {
  const { type, limited, exempt } = pl.spec;
  if ((type === 'Limited') !== (limited !== undefined)) return 'broken union structure at the top, for Limited';
  if ((type === 'Exempt') !== (exempt !== undefined)) return 'broken union structure at the top, for Exempt';
  if ((type === 'Exempt') !== (pl.metadata.name === EXEMPT)) return 'non-alignment between name and type';
  if (!limited) return { kind: 'exempt' };
  const queuing = limited.limitResponse.queuing;
  if ((limited.limitResponse.type === 'Reject') !== (queuing === undefined)) return 'broken union structure for limit response';
  if (!queuing || queuing.queues < 1) return { kind: 'reject', concurrencyLimit };
  const { queues, handSize } = queuing;
  if (handSize <= 0 || handSize > queues || queues > 1 << 26 || requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
    return `invalid queuing configuration (queues ${queues}, handSize ${handSize})`;
  }
  return { kind: 'queue', concurrencyLimit, queuing };
}

/** lendablePercent (both kinds) and borrowingLimitPercent (Limited only; absent: no limit). */
function lendingOf(pl: PriorityLevelConfiguration): { lendablePercent: number; borrowingLimitPercent?: number } {
  if (pl.spec.limited) return { lendablePercent: pl.spec.limited.lendablePercent ?? 0, borrowingLimitPercent: pl.spec.limited.borrowingLimitPercent };
  return { lendablePercent: pl.spec.exempt?.lendablePercent ?? 0 };
}

function sharesOf(pl: PriorityLevelConfiguration): number {
  if (pl.spec.limited) return pl.spec.limited.nominalConcurrencyShares ?? DEFAULT_SHARES;
  return pl.spec.exempt?.nominalConcurrencyShares ?? 0;
}

/** kube's FlowSchemaSequence order: matching precedence, then name. */
const bySchemaOrder = (a: FlowSchema, b: FlowSchema): number =>
  (a.spec.matchingPrecedence ?? 1000) - (b.spec.matchingPrecedence ?? 1000) || (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);

/** kube's borrowingAdjustmentPeriod. */
const BORROWING_PERIOD_MS = 10_000;

export class Dispatcher {
  private levels = new Map<string, PriorityLevelState>();
  private schemas: FlowSchema[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The watches open now, across every listener (for the writes' work estimates). */
  readonly watches = new WatchTracker();

  constructor(
    /** The server's concurrency limit: --max-requests-inflight plus --max-mutating-requests-inflight. */
    private readonly serverConcurrencyLimit: number,
    private readonly mandatory: MandatoryConfiguration,
    private readonly nowMs?: () => number,
  ) {
    this.configure([], []);
  }

  /** Puts a new set of objects in force; queue sets of levels that stay are kept, with their waiting requests. */
  configure(levels: readonly PriorityLevelConfiguration[], schemas: readonly FlowSchema[]): void {
    const wanted = new Map<string, PriorityLevelConfiguration>();
    for (const pl of levels) if (typeof queueSetConfig(pl, 1) !== 'string') wanted.set(pl.metadata.name, pl);
    // Schemas naming a level with no (usable) object are dangling, and left out; imagined levels do not count.
    const objects = new Set(wanted.keys());
    if (!wanted.has(EXEMPT)) wanted.set(EXEMPT, this.mandatory.exemptLevel);
    if (!wanted.has(CATCH_ALL)) wanted.set(CATCH_ALL, this.mandatory.catchAllLevel);
    // A level that went away keeps serving the requests it holds (kube's quiescing), and keeps its share meanwhile.
    const quiescing = new Set<string>();
    for (const [name, state] of this.levels) {
      if (!wanted.has(name) && !state.queues.idle) {
        wanted.set(name, state.config);
        quiescing.add(name);
      }
    }

    let shareSum = 0;
    for (const pl of wanted.values()) shareSum += sharesOf(pl);
    const next = new Map<string, PriorityLevelState>();
    for (const [name, pl] of wanted) {
      const nominal = shareSum > 0 ? Math.ceil((this.serverConcurrencyLimit * sharesOf(pl)) / shareSum) : 0;
      const { lendablePercent, borrowingLimitPercent } = lendingOf(pl);
      const lendable = Math.round((nominal * lendablePercent) / 100);
      const borrowing = borrowingLimitPercent === undefined ? this.serverConcurrencyLimit : Math.round((nominal * borrowingLimitPercent) / 100);
      const old = this.levels.get(name);
      // A new level starts halfway into what it may lend; one that stays keeps its current limit.
      const currentLimit = old ? old.currentLimit : nominal - Math.floor(lendable / 2);
      const qsc = queueSetConfig(pl, currentLimit) as QueueSetConfig;
      const queues = old ? (old.queues.configure(qsc), old.queues) : new QueueSet(qsc, this.nowMs);
      const handSize = qsc.kind === 'queue' ? qsc.queuing.handSize : 1;
      const maxSeats = Math.max(1, Math.min(Math.ceil(nominal * MAX_SEATS_PERCENT), Math.floor(nominal / handSize)));
      next.set(name, { config: pl, queues, concurrencyLimit: nominal, minLimit: nominal - lendable, maxLimit: nominal + borrowing, currentLimit, smoothedDemand: old?.smoothedDemand ?? 0, maxSeats, quiescing: quiescing.has(name) });
    }
    this.levels = next;
    // As kube's config digestion ends: the limits are shared out again at once.
    this.adjustBorrowing();

    const inForce = schemas.filter((fs) => objects.has(fs.spec.priorityLevelConfiguration.name));
    inForce.sort(bySchemaOrder);
    if (!inForce.some((fs) => fs.metadata.name === EXEMPT)) inForce.unshift(this.mandatory.exemptSchema);
    if (!inForce.some((fs) => fs.metadata.name === CATCH_ALL)) inForce.push(this.mandatory.catchAllSchema);
    this.schemas = inForce;
  }

  /** The schema, level and flow of a request: the first schema that matches, else catch-all. */
  classify(info: RequestInfo, user: UserInfo): Classification {
    let schema: FlowSchema | undefined;
    let catchAll: FlowSchema | undefined;
    for (const fs of this.schemas) {
      if (matchesFlowSchema(info, user, fs)) {
        schema = fs;
        break;
      }
      if (fs.metadata.name === CATCH_ALL) catchAll = fs;
    }
    schema ??= catchAll ?? this.mandatory.catchAllSchema;
    const level = this.levels.get(schema.spec.priorityLevelConfiguration.name) ?? this.levels.get(CATCH_ALL)!;
    const queues = level.config.spec.limited?.limitResponse.queuing?.queues ?? 0;
    let hashValue = 0n;
    let flowDistinguisher = '';
    if (queues > 1) {
      const method = schema.spec.distinguisherMethod?.type;
      flowDistinguisher = method === 'ByUser' ? user.name : method === 'ByNamespace' ? info.namespace : '';
      hashValue = hashFlowID(schema.metadata.name, flowDistinguisher);
    }
    return { schema, level, hashValue, flowDistinguisher };
  }

  /** Adjusts borrowing every 10 s until stopped. */
  start(periodMs = BORROWING_PERIOD_MS): void {
    this.timer = setInterval(() => this.adjustBorrowing(), periodMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * kube's updateBorrowing (every 10 s): each level's seat demand since the last adjustment gives it a target
   * (the smoothed average plus deviation, at least what it used at its peak up to its nominal limit, at least
   * what it may not lend); the levels' nominal limits added up are then shared out in proportion to the targets,
   * each level between that floor and what it may borrow up to. Exempt levels are never held back; what they
   * used at their peak is taken out first.
   */
  adjustBorrowing(): void {
    let nominalSum = 0;
    for (const st of this.levels.values()) nominalSum += st.concurrencyLimit;
    let remaining = nominalSum;
    let minSum = 0;
    let minCurrentSum = 0;
    const limited: { st: PriorityLevelState; minCurrent: number }[] = [];
    for (const st of this.levels.values()) {
      const stats = st.queues.takeDemandStats();
      const highWatermark = Math.round(stats.max);
      if (stats.durationMs > 0) {
        const envelope = stats.average + (Number.isNaN(stats.deviation) ? 0 : stats.deviation);
        st.smoothedDemand = Math.max(envelope, SMOOTHING * st.smoothedDemand + (1 - SMOOTHING) * envelope);
      }
      if (st.config.spec.type === 'Exempt') {
        st.currentLimit = Math.max(st.minLimit, highWatermark);
        remaining -= st.currentLimit;
        continue;
      }
      const minCurrent = Math.max(st.minLimit, Math.min(st.concurrencyLimit, highWatermark));
      limited.push({ st, minCurrent });
      minSum += st.minLimit;
      minCurrentSum += minCurrent;
    }
    if (limited.length === 0) return;
    let limits: number[];
    if (remaining <= minSum) {
      limits = limited.map(({ st }) => st.minLimit);
    } else if (remaining <= minCurrentSum) {
      const share = (remaining - minSum) / (minCurrentSum - minSum);
      limits = limited.map(({ st, minCurrent }) => st.minLimit + Math.round((minCurrent - st.minLimit) * share));
    } else {
      const alloc = allocateConcurrency(
        nominalSum,
        limited.map(({ st, minCurrent }) => ({ lower: minCurrent, upper: st.maxLimit, target: Math.max(minCurrent, st.smoothedDemand) })),
      );
      // Unsolvable (kube logs it): the limits stay as they are.
      limits = typeof alloc === 'string' ? limited.map(({ st }) => st.currentLimit) : alloc.map((x) => Math.round(x));
    }
    for (const [i, { st }] of limited.entries()) {
      st.currentLimit = limits[i]!;
      st.queues.configure(queueSetConfig(st.config, st.currentLimit) as QueueSetConfig);
    }
  }

  level(name: string): PriorityLevelState | undefined {
    return this.levels.get(name);
  }

  /** Every level in force (and those quiescing), by name. */
  get priorityLevels(): ReadonlyMap<string, PriorityLevelState> {
    return this.levels;
  }

  /** The schemas in force, in matching order. */
  get flowSchemas(): readonly FlowSchema[] {
    return this.schemas;
  }
}
