// API Priority and Fairness' metrics under kube 1.33's names (k8s.io/apiserver pkg/util/flowcontrol/metrics):
// per priority level and flow schema, the requests and seats waiting and executing, the requests dispatched
// and rejected (by reason), and how long each waited; per priority level, its seat limits, read from the
// dispatcher when scraped. The queue set reports through one observer per level, schema and request kind,
// found once per request, so a request costs a few additions.
import type { RequestObserver } from '../flowcontrol/queue-set.js';
import { CounterVec, GaugeVec, HistogramVec, type CounterSeries, type GaugeSeries, type HistogramSeries } from './vec.js';

export type RequestKind = 'readOnly' | 'mutating';

/** A priority level's seat limits, as the dispatcher last computed them. */
export interface LevelLimits {
  name: string;
  nominal: number;
  lower: number;
  upper: number;
  current: number;
}

/** kube's requestDurationSecondsBuckets. */
const WAIT_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

/** One level, schema and kind's series: what the queue set and the filter note of its requests. */
export interface FlowObserver extends RequestObserver {
  /** How long a request of a limited level waited (0 when dispatched at once), and whether it then ran. */
  waited(seconds: number, executed: boolean): void;
}

export class FlowcontrolMetrics {
  private readonly inqueueRequests = new GaugeVec(
    'apiserver_flowcontrol_current_inqueue_requests',
    '[BETA] Number of requests currently pending in queues of the API Priority and Fairness subsystem',
    ['flow_schema', 'priority_level'],
  );
  private readonly inqueueSeats = new GaugeVec(
    'apiserver_flowcontrol_current_inqueue_seats',
    '[ALPHA] Number of seats currently pending in queues of the API Priority and Fairness subsystem',
    ['flow_schema', 'priority_level'],
  );
  private readonly executingRequests = new GaugeVec(
    'apiserver_flowcontrol_current_executing_requests',
    '[BETA] Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
    ['flow_schema', 'priority_level'],
  );
  private readonly executingSeats = new GaugeVec(
    'apiserver_flowcontrol_current_executing_seats',
    '[BETA] Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
    ['flow_schema', 'priority_level'],
  );
  private readonly dispatched = new CounterVec(
    'apiserver_flowcontrol_dispatched_requests_total',
    '[BETA] Number of requests executed by API Priority and Fairness subsystem',
    ['flow_schema', 'priority_level'],
  );
  private readonly rejected = new CounterVec(
    'apiserver_flowcontrol_rejected_requests_total',
    '[BETA] Number of requests rejected by API Priority and Fairness subsystem',
    ['flow_schema', 'priority_level', 'reason'],
  );
  private readonly waitDuration = new HistogramVec(
    'apiserver_flowcontrol_request_wait_duration_seconds',
    '[BETA] Length of time a request spent waiting in its queue',
    ['execute', 'flow_schema', 'priority_level'],
    WAIT_BUCKETS,
  );
  private readonly levelGauges: GaugeVec[];
  private readonly observers = new Map<string, Map<string, Partial<Record<RequestKind, FlowObserver>>>>();

  constructor(
    levels: () => Iterable<LevelLimits>,
    /** Told when a request enters (+1) or leaves (−1) a queue, for apiserver_current_inqueue_requests. */
    private readonly noteWaiting: (kind: RequestKind, delta: number) => void,
  ) {
    // SetPriorityLevelConfiguration's gauges and current_limit_seats, from the levels in force when scraped.
    const levelGauge = (name: string, help: string, value: (l: LevelLimits) => number): GaugeVec =>
      new GaugeVec(name, help, ['priority_level'], (g) => {
        g.reset();
        for (const l of levels()) g.with(l.name).value = value(l);
      });
    this.levelGauges = [
      levelGauge('apiserver_flowcontrol_nominal_limit_seats', '[BETA] Nominal number of execution seats configured for each priority level', (l) => l.nominal),
      levelGauge('apiserver_flowcontrol_lower_limit_seats', '[ALPHA] Configured lower bound on number of execution seats available to each priority level', (l) => l.lower),
      levelGauge('apiserver_flowcontrol_upper_limit_seats', '[ALPHA] Configured upper bound on number of execution seats available to each priority level', (l) => l.upper),
      levelGauge('apiserver_flowcontrol_current_limit_seats', '[ALPHA] current derived number of execution seats available to each priority level', (l) => l.current),
    ];
  }

  get families(): ReadonlyArray<{ name: string; expose(): string }> {
    return [this.inqueueRequests, this.inqueueSeats, this.executingRequests, this.executingSeats, this.dispatched, this.rejected, this.waitDuration, ...this.levelGauges];
  }

  /** The observer of the requests of a level, schema and kind (made on first use). */
  observer(level: string, flowSchema: string, kind: RequestKind): FlowObserver {
    // Nested by the names themselves (strings of the configuration objects, whose hashes V8 keeps) rather than
    // by a key joined per request, which would be hashed anew each time.
    let bySchema = this.observers.get(level);
    if (!bySchema) this.observers.set(level, (bySchema = new Map()));
    let byKind = bySchema.get(flowSchema);
    if (!byKind) bySchema.set(flowSchema, (byKind = {}));
    return (byKind[kind] ??= this.makeObserver(level, flowSchema, kind));
  }

  private makeObserver(level: string, fs: string, kind: RequestKind): FlowObserver {
    const inqueue: GaugeSeries = this.inqueueRequests.with(fs, level);
    const inqueueSeats: GaugeSeries = this.inqueueSeats.with(fs, level);
    const executing: GaugeSeries = this.executingRequests.with(fs, level);
    const seats: GaugeSeries = this.executingSeats.with(fs, level);
    const dispatched: CounterSeries = this.dispatched.with(fs, level);
    const waitedRan: HistogramSeries = this.waitDuration.with('true', fs, level);
    const waitedRefused: HistogramSeries = this.waitDuration.with('false', fs, level);
    const rejected = this.rejected;
    const noteWaiting = this.noteWaiting;
    return {
      queued(delta, n) {
        inqueue.value += delta;
        inqueueSeats.value += delta * n;
        noteWaiting(kind, delta);
      },
      executing(delta, n) {
        executing.value += delta;
        if (delta > 0) {
          seats.value += n;
          dispatched.value++;
        }
      },
      released(n) {
        seats.value -= n;
      },
      rejected(reason) {
        rejected.with(fs, level, reason).value++;
      },
      waited(secs, executed) {
        (executed ? waitedRan : waitedRefused).observe(secs);
      },
    };
  }
}
