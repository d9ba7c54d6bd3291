// API Priority and Fairness' configuration and classification (k8s.io/apiserver pkg/util/flowcontrol's
// config controller): the FlowSchemas and PriorityLevelConfigurations in force are digested into one queue
// set per priority level, each with its share of the server's concurrency limit, and an ordered list of
// schemas to classify requests by. Without an exempt or catch-all object the mandatory one is imagined, so
// the server classifies every request from its first one on.
import type { UserInfo } from '../../api/user.js';
import type { RequestInfo } from '../request-info.js';
import { matchesFlowSchema } from './match.js';
import { QueueSet, type QueueSetConfig } from './queue-set.js';
import { hashFlowID, MAX_HASH_BITS, requiredEntropyBits } from './shuffle-sharding.js';
import { CATCH_ALL, EXEMPT, type FlowSchema, type PriorityLevelConfiguration } from './types.js';

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
  /** Seats the level may use at once (its nominal concurrency limit). */
  readonly concurrencyLimit: number;
  /** The most seats one request may take. */
  readonly maxSeats: number;
}

export interface Classification {
  schema: FlowSchema;
  level: PriorityLevelState;
  /** 0 when the level has one queue or none (the distinguisher then does not matter). */
  hashValue: bigint;
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

function sharesOf(pl: PriorityLevelConfiguration): number {
  if (pl.spec.limited) return pl.spec.limited.nominalConcurrencyShares ?? DEFAULT_SHARES;
  return pl.spec.exempt?.nominalConcurrencyShares ?? 0;
}

/** kube's FlowSchemaSequence order: matching precedence, then name. */
const bySchemaOrder = (a: FlowSchema, b: FlowSchema): number =>
  (a.spec.matchingPrecedence ?? 1000) - (b.spec.matchingPrecedence ?? 1000) || (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);

export class Dispatcher {
  private levels = new Map<string, PriorityLevelState>();
  private schemas: FlowSchema[] = [];

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
    for (const [name, state] of this.levels) if (!wanted.has(name) && !state.queues.idle) wanted.set(name, state.config);

    let shareSum = 0;
    for (const pl of wanted.values()) shareSum += sharesOf(pl);
    const next = new Map<string, PriorityLevelState>();
    for (const [name, pl] of wanted) {
      const concurrencyLimit = shareSum > 0 ? Math.ceil((this.serverConcurrencyLimit * sharesOf(pl)) / shareSum) : 0;
      const qsc = queueSetConfig(pl, concurrencyLimit) as QueueSetConfig;
      const old = this.levels.get(name);
      const queues = old ? (old.queues.configure(qsc), old.queues) : new QueueSet(qsc, this.nowMs);
      const handSize = qsc.kind === 'queue' ? qsc.queuing.handSize : 1;
      const maxSeats = Math.max(1, Math.min(Math.ceil(concurrencyLimit * MAX_SEATS_PERCENT), Math.floor(concurrencyLimit / handSize)));
      next.set(name, { config: pl, queues, concurrencyLimit, maxSeats });
    }
    this.levels = next;

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
    if (queues > 1) {
      const method = schema.spec.distinguisherMethod?.type;
      const distinguisher = method === 'ByUser' ? user.name : method === 'ByNamespace' ? info.namespace : '';
      hashValue = hashFlowID(schema.metadata.name, distinguisher);
    }
    return { schema, level, hashValue };
  }

  level(name: string): PriorityLevelState | undefined {
    return this.levels.get(name);
  }

  /** The schemas in force, in matching order. */
  get flowSchemas(): readonly FlowSchema[] {
    return this.schemas;
  }
}
