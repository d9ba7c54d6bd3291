// One priority level's fair queuing (k8s.io/apiserver fairqueuing/queueset), in virtual time R measured in
// seat-seconds: requests wait in a flow's shuffle-sharded queues and are dispatched, while seats are free, from
// the queue whose oldest request would finish first in R. Each request is charged its initial seats times an
// estimated 3 s of service plus its final seats times its additional latency when dispatched, corrected by its
// real duration when it finishes, so a flow that sends more waits longer and one quiet flow is served promptly
// next to a noisy one. A write's final seats (its watchers' events) stay held for the additional latency after
// it has finished, as kube's finishRequestLocked holds them.
import { dealHand } from './shuffle-sharding.js';
import type { QueuingConfiguration } from './types.js';
import type { WorkEstimate } from './work-estimate.js';

/**
 * Whether queue sets take their shortcuts (dispatch at once when nothing waits; R's inputs kept rather than
 * recounted). Always on when serving; tests turn it off to check both ways give the same state.
 */
let shortcuts = true;
export function queueSetShortcuts(on: boolean): void {
  shortcuts = on;
}

/** How many flows' hands a queue set remembers. */
const HAND_CACHE_SIZE = 4096;

/** kube's estimatedServiceDuration. */
const ESTIMATED_SERVICE_SECONDS = 3;

interface Queue {
  index: number;
  waiting: Waiter[];
  executing: number;
  requestsExecuting: Set<Request>;
  seatsInUse: number;
  /** The virtual time at which this queue's next request may start. */
  nextDispatchR: number;
}

/** Who a request is, for the debug dumps (kube's RequestDump). */
export interface RequestDescriptor {
  flowSchema: string;
  flowDistinguisher: string;
  userName: string;
  info: { verb: string; path: string; namespace: string; name: string; apiGroup: string; apiVersion: string; resource: string; subresource: string };
}

/**
 * What a queue set reports of a request as it goes, where kube's queue set calls its metrics (one per priority
 * level, flow schema and request kind, shared by the requests that have those).
 */
export interface RequestObserver {
  /** Into its queue (+1) or out of it (−1, dispatched or cancelled), with the seats it asks for. */
  queued(delta: 1 | -1, seats: number): void;
  /** Began executing (+1, taking its seats: it was dispatched) or ended (−1; it holds its seats until released). */
  executing(delta: 1 | -1, seats: number): void;
  /** Its seats given back (after the final seats' additional latency). */
  released(seats: number): void;
  rejected(reason: 'concurrency-limit' | 'queue-full' | 'time-out'): void;
}

interface Request {
  estimate: WorkEstimate;
  observer: RequestObserver | undefined;
  /** max(initial, final): what the request holds from dispatch until its final seats are released. */
  seats: number;
  /** Seat-seconds charged in R: initial seats × 3 s + final seats × additional latency. */
  totalWork: number;
  descr?: RequestDescriptor;
  /** When it arrived and was dispatched, in ms since the epoch (Dates only for the dumps). */
  arrival: number;
  start?: number;
}

interface Waiter extends Request {
  arrivalR: number;
  queue: Queue;
  /** Set when dispatched. */
  ticket?: Ticket;
  resolve(ticket: Ticket | undefined): void;
}

/** An executing request: call finish once when it is done. */
export interface Ticket {
  finish(): void;
}

export type QueueSetConfig =
  /** Exempt: never waits, never refused. */
  | { kind: 'exempt' }
  /** Limited without queues: over the limit a request is refused at once. */
  | { kind: 'reject'; concurrencyLimit: number }
  | { kind: 'queue'; concurrencyLimit: number; queuing: QueuingConfiguration };

/** What start returns: run now, refuse now, or a promise that settles on dispatch (a ticket) or rejection (undefined). */
export type StartResult = { ticket: Ticket } | { rejected: true } | { waiting: Promise<Ticket | undefined>; cancel(): void };

/** kube's debug.QueueSetDump, what /debug/api_priority_and_fairness/ shows. */
export interface QueueSetDump {
  queues: { index: number; nextDispatchR: number; waiting: RequestDump[]; executing: RequestDump[]; executingCount: number; seatsInUse: number; initialSeatsSum: number; maxSeatsSum: number; totalWorkSum: number }[];
  queuelessExecuting: RequestDump[];
  waiting: number;
  executing: number;
  dispatched: number;
  rejected: number;
  timedout: number;
  cancelled: number;
  idle: boolean;
}

export interface RequestDump {
  descr?: RequestDescriptor;
  estimate: WorkEstimate;
  arrival: Date;
  start?: Date;
}

/** What the seat demand (seats in use plus seats waiting) was over a period (kube's fairqueuing Integrator). */
export interface DemandStats {
  durationMs: number;
  average: number;
  deviation: number;
  max: number;
}

export class QueueSet {
  private queues: Queue[] = [];
  private waitingSeats = 0;
  // The seat demand's integrals since the last takeDemandStats.
  private demand = 0;
  private demandSince: number;
  private demandAt: number;
  private demandSum = 0;
  private demandSquares = 0;
  private demandMax = 0;
  private config!: QueueSetConfig;
  private currentR = 0;
  private lastRealMs: number;
  private robinIndex = -1;
  private enqueues = 0;
  private seatsInUse = 0;
  private executing = 0;
  private waitingCount = 0;
  private readonly queuelessExecuting = new Set<Request>();
  private counters = { dispatched: 0, rejected: 0, cancelled: 0 };
  // What syncTime needs, kept as requests come and go rather than summed over every queue per request: the
  // queues with a request waiting or executing, and the seats the queues' executing requests hold.
  private activeQueues = 0;
  private queueSeatsInUse = 0;
  /** Each flow's hand, by its hash (dealt with BigInt arithmetic: worth remembering); emptied on configure. */
  private hands = new Map<bigint, number[]>();

  constructor(
    config: QueueSetConfig,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.lastRealMs = nowMs();
    this.demandSince = this.demandAt = this.lastRealMs;
    this.configure(config);
  }

  configure(config: QueueSetConfig): void {
    this.config = config;
    this.hands.clear();
    const want = config.kind === 'queue' ? config.queuing.queues : 0;
    const byIndex = new Map(this.queues.map((q) => [q.index, q]));
    const next: Queue[] = [];
    for (let i = 0; i < want; i++) next.push(byIndex.get(i) ?? { index: i, waiting: [], executing: 0, requestsExecuting: new Set(), seatsInUse: 0, nextDispatchR: this.currentR });
    // Queues beyond the new count are kept, after the dealt ones, until their requests are done (seats held too).
    for (const q of this.queues) if (q.index >= want && (q.waiting.length > 0 || q.executing > 0 || q.seatsInUse > 0)) next.push(q);
    this.queues = next;
    this.dispatchAsMuchAsPossible();
  }

  /** Nothing waiting or executing. */
  get idle(): boolean {
    return this.executing === 0 && this.waitingCount === 0;
  }

  get stats(): { executing: number; seatsInUse: number; waiting: number } {
    return { executing: this.executing, seatsInUse: this.seatsInUse, waiting: this.waitingCount };
  }

  /** Admits a request of the given work (a number: that many seats, nothing after). */
  start(hashValue: bigint, work: WorkEstimate | number, descr?: RequestDescriptor, observer?: RequestObserver): StartResult {
    this.syncTime();
    const estimate = typeof work === 'number' ? { initialSeats: work, finalSeats: 0, additionalLatencyMs: 0 } : work;
    const req: Request = {
      estimate,
      observer,
      seats: Math.max(estimate.initialSeats, estimate.finalSeats),
      totalWork: estimate.initialSeats * ESTIMATED_SERVICE_SECONDS + (estimate.finalSeats * estimate.additionalLatencyMs) / 1000,
      descr,
      arrival: Date.now(),
    };
    const c = this.config;
    if (c.kind === 'exempt') return { ticket: this.execute(req, undefined) };
    if (c.kind === 'reject') {
      if (this.canAccommodate(req.seats)) return { ticket: this.execute(req, undefined) };
      this.counters.rejected++;
      observer?.rejected('concurrency-limit');
      return { rejected: true };
    }
    const queue = this.shuffleShard(hashValue, c.queuing.handSize);
    if (this.seatsInUse >= c.concurrencyLimit && queue.waiting.length >= c.queuing.queueLengthLimit) {
      this.counters.rejected++;
      observer?.rejected('queue-full');
      return { rejected: true };
    }
    // An idle queue starts at the present virtual time, not at its old finish.
    if (queue.waiting.length === 0 && queue.executing === 0) queue.nextDispatchR = this.currentR;
    if (shortcuts && this.waitingCount === 0 && this.canAccommodate(req.seats)) return { ticket: this.dispatchAtOnce(req, queue) };
    let resolve!: (t: Ticket | undefined) => void;
    const waiting = new Promise<Ticket | undefined>((r) => (resolve = r));
    const w: Waiter = { ...req, arrivalR: this.currentR, queue, resolve };
    if (queue.waiting.length === 0 && queue.executing === 0) this.activeQueues++;
    queue.waiting.push(w);
    observer?.queued(1, w.seats);
    this.waitingCount++;
    this.waitingSeats += w.seats;
    this.noteDemand();
    this.boundNextDispatch(queue);
    this.dispatchAsMuchAsPossible();
    // Dispatched at once (seats were free and it was next in fair order): no wait to settle.
    if (w.ticket) return { ticket: w.ticket };
    return { waiting, cancel: () => this.cancel(w) };
  }

  /**
   * What enqueuing a request and dispatching as much as possible come to when nothing waits and its seats are
   * free: it is the only head, so it goes at once. Without the waiter, its promise and the pass over every queue
   * that the general path makes (most requests of a server that is not overloaded take this path).
   */
  private dispatchAtOnce(req: Request, queue: Queue): Ticket {
    // boundNextDispatch with the request at the head: it arrived at the present R.
    if (queue.nextDispatchR < this.currentR) queue.nextDispatchR = this.currentR;
    req.observer?.queued(1, req.seats);
    req.observer?.queued(-1, req.seats);
    // dispatchOne's round-robin pass ends on the queue it dispatched from.
    this.robinIndex = this.queues.indexOf(queue);
    queue.nextDispatchR += req.totalWork;
    return this.execute(req, queue);
  }

  /** Takes a waiting request out of its queue (its wait ran out, or its client left); it is then refused. */
  private cancel(w: Waiter): void {
    const i = w.queue.waiting.indexOf(w);
    if (i < 0) return; // already dispatched
    this.syncTime();
    w.queue.waiting.splice(i, 1);
    if (w.queue.waiting.length === 0 && w.queue.executing === 0) this.activeQueues--;
    // kube counts a request taken out of its queue as both rejected and cancelled.
    this.counters.rejected++;
    this.counters.cancelled++;
    w.observer?.rejected('time-out');
    w.observer?.queued(-1, w.seats);
    this.waitingCount--;
    this.waitingSeats -= w.seats;
    this.noteDemand();
    this.boundNextDispatch(w.queue);
    this.removeQueueIfUnused(w.queue);
    w.resolve(undefined);
  }

  private execute(req: Request, queue: Queue | undefined): Ticket {
    const startedMs = this.nowMs();
    const { seats } = req;
    req.start = Date.now();
    this.counters.dispatched++;
    this.executing++;
    this.seatsInUse += seats;
    req.observer?.executing(1, seats);
    if (queue) {
      // Dispatched from its queue, where it waited (the queue was active) or, at once, from an idle one.
      if (queue.executing === 0 && queue.waiting.length === 0) this.activeQueues++;
      queue.executing++;
      queue.requestsExecuting.add(req);
      queue.seatsInUse += seats;
      this.queueSeatsInUse += seats;
    } else {
      this.queuelessExecuting.add(req);
    }
    this.noteDemand();
    let done = false;
    return {
      finish: () => {
        if (done) return;
        done = true;
        this.finish(req, queue, (this.nowMs() - startedMs) / 1000);
      },
    };
  }

  private finish(req: Request, queue: Queue | undefined, seconds: number): void {
    this.syncTime();
    this.executing--;
    req.observer?.executing(-1, req.seats);
    if (queue) {
      queue.executing--;
      if (queue.executing === 0 && queue.waiting.length === 0) this.activeQueues--;
      queue.requestsExecuting.delete(req);
      // The queue was charged the estimate at dispatch; settle it with what the request really took.
      queue.nextDispatchR -= req.estimate.initialSeats * (ESTIMATED_SERVICE_SECONDS - seconds);
      this.boundNextDispatch(queue);
    } else {
      this.queuelessExecuting.delete(req);
    }
    const release = (): void => {
      this.syncTime();
      this.seatsInUse -= req.seats;
      req.observer?.released(req.seats);
      if (queue) {
        queue.seatsInUse -= req.seats;
        this.queueSeatsInUse -= req.seats;
        this.removeQueueIfUnused(queue);
      }
      this.noteDemand();
      this.dispatchAsMuchAsPossible();
    };
    // The request's answer is not held up: its seats alone stay taken while its watchers get their events.
    if (req.estimate.additionalLatencyMs > 0) {
      this.noteDemand();
      setTimeout(release, req.estimate.additionalLatencyMs);
    } else {
      release();
    }
  }

  private canAccommodate(seats: number): boolean {
    const c = this.config;
    if (c.kind === 'exempt') return true;
    // A request wider than the whole limit runs alone.
    if (seats > c.concurrencyLimit) return this.executing === 0;
    return this.seatsInUse + seats <= c.concurrencyLimit;
  }

  /** Of the flow's hand, the queue with the least work waiting (starting at a rotating offset, as kube does). */
  private shuffleShard(hashValue: bigint, handSize: number): Queue {
    let hand = this.hands.get(hashValue);
    if (!hand) {
      const deck = this.config.kind === 'queue' ? this.config.queuing.queues : 0;
      hand = dealHand(hashValue, deck, Math.min(handSize, deck));
      if (this.hands.size >= HAND_CACHE_SIZE) this.hands.clear();
      this.hands.set(hashValue, hand);
    }
    const offset = this.enqueues++ % hand.length;
    let best: Queue | undefined;
    let bestWork = Infinity;
    for (let i = 0; i < hand.length; i++) {
      const q = this.queues[hand[(offset + i) % hand.length]!]!;
      // kube compares the seats the waiting requests ask for (MaxSeatsSum).
      let work = 0;
      for (const w of q.waiting) work += w.seats;
      if (work < bestWork) {
        bestWork = work;
        best = q;
      }
    }
    return best!;
  }

  private dispatchAsMuchAsPossible(): void {
    while (this.waitingCount > 0 && this.dispatchOne());
  }

  private dispatchOne(): boolean {
    let min: Queue | undefined;
    let minFinish = Infinity;
    let minIndex = this.robinIndex;
    const n = this.queues.length;
    for (let k = 0; k < n; k++) {
      this.robinIndex = (this.robinIndex + 1) % n;
      const q = this.queues[this.robinIndex]!;
      const head = q.waiting[0];
      if (!head) continue;
      const finish = q.nextDispatchR + head.totalWork;
      if (finish < minFinish) {
        minFinish = finish;
        min = q;
        minIndex = this.robinIndex;
      }
    }
    if (!min) return false;
    const head = min.waiting[0]!;
    if (!this.canAccommodate(head.seats)) return false;
    min.waiting.shift();
    // Still active: it executes from here on (execute counts it again when it finds the queue idle).
    if (min.waiting.length === 0 && min.executing === 0) this.activeQueues--;
    head.observer?.queued(-1, head.seats);
    this.waitingCount--;
    this.waitingSeats -= head.seats;
    this.robinIndex = minIndex;
    min.nextDispatchR += head.totalWork;
    this.boundNextDispatch(min);
    head.ticket = this.execute(head, min);
    head.resolve(head.ticket);
    return true;
  }

  /** The queue set as kube's Dump gives it (R is brought up to now first). */
  dump(): QueueSetDump {
    this.syncTime();
    const req = (r: Request): RequestDump => ({ descr: r.descr, estimate: r.estimate, arrival: new Date(r.arrival), start: r.start === undefined ? undefined : new Date(r.start) });
    return {
      queues: this.queues.map((q) => ({
        index: q.index,
        nextDispatchR: q.nextDispatchR,
        waiting: q.waiting.map(req),
        executing: [...q.requestsExecuting].map(req),
        executingCount: q.executing,
        seatsInUse: q.seatsInUse,
        initialSeatsSum: q.waiting.reduce((n, w) => n + w.estimate.initialSeats, 0),
        maxSeatsSum: q.waiting.reduce((n, w) => n + w.seats, 0),
        totalWorkSum: q.waiting.reduce((n, w) => n + w.totalWork, 0),
      })),
      queuelessExecuting: [...this.queuelessExecuting].map(req),
      waiting: this.waitingCount,
      executing: this.executing,
      ...this.counters,
      timedout: 0,
      idle: this.idle,
    };
  }

  /** The seat demand's average, deviation and maximum since the last call; the next period starts now. */
  takeDemandStats(): DemandStats {
    this.noteDemand();
    const now = this.demandAt;
    const durationMs = now - this.demandSince;
    const average = durationMs > 0 ? this.demandSum / durationMs : this.demand;
    const variance = durationMs > 0 ? this.demandSquares / durationMs - average * average : 0;
    const out = { durationMs, average, deviation: Math.sqrt(Math.max(0, variance)), max: this.demandMax };
    this.demandSince = now;
    this.demandSum = this.demandSquares = 0;
    this.demandMax = this.demand;
    return out;
  }

  /** Integrates the demand up to now, then takes its new value. */
  private noteDemand(): void {
    const now = this.nowMs();
    const dt = now - this.demandAt;
    if (dt > 0) {
      this.demandSum += this.demand * dt;
      this.demandSquares += this.demand * this.demand * dt;
    }
    this.demandAt = Math.max(now, this.demandAt);
    this.demand = this.seatsInUse + this.waitingSeats;
    this.demandMax = Math.max(this.demandMax, this.demand);
  }

  /** A queue's next start is never before its oldest waiting request arrived. */
  private boundNextDispatch(q: Queue): void {
    const head = q.waiting[0];
    if (head && q.nextDispatchR < head.arrivalR) q.nextDispatchR = head.arrivalR;
  }

  private removeQueueIfUnused(q: Queue): void {
    const want = this.config.kind === 'queue' ? this.config.queuing.queues : 0;
    if (q.index >= want && q.waiting.length === 0 && q.executing === 0 && q.seatsInUse === 0) this.queues = this.queues.filter((x) => x !== q);
  }

  /** Advances R: it grows at the rate each active queue would be served if seats were shared evenly among them. */
  private syncTime(): void {
    const now = this.nowMs();
    const dt = (now - this.lastRealMs) / 1000;
    this.lastRealMs = now;
    if (dt <= 0 || this.config.kind !== 'queue') return;
    let active = this.activeQueues;
    let requested = this.queueSeatsInUse + this.waitingSeats;
    if (!shortcuts) ({ active, requested } = this.recount());
    if (active === 0) return;
    this.currentR += (Math.min(requested, this.config.concurrencyLimit) / active) * dt;
  }

  /** What activeQueues and the seats requested come to, counted over the queues. */
  private recount(): { active: number; requested: number } {
    let active = 0;
    let requested = 0;
    for (const q of this.queues) {
      if (q.waiting.length > 0 || q.executing > 0) active++;
      requested += q.seatsInUse;
      for (const w of q.waiting) requested += w.seats;
    }
    return { active, requested };
  }
}
