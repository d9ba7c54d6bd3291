// One server's Prometheus metrics under kube-apiserver 1.33's names, labels, types and buckets: one prom-client
// Registry per server (tests run many servers in one process), never prom-client's global one. Label names are
// listed in sorted order and families are exposed sorted by name, as Go's client writes them. Help texts carry
// the stability prefix component-base adds ("[STABLE] ", "[ALPHA] ").
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The labels a request's metrics are recorded under (kube's MonitorRequest arguments). */
export interface RequestLabels {
  verb: string;
  dryRun: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

export type InflightKind = 'readOnly' | 'mutating';

/** prometheus.ExponentialBuckets. */
const exponential = (start: number, factor: number, count: number): number[] => Array.from({ length: count }, (_, i) => start * factor ** i);

const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const ADMISSION_STEP_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
const ADMISSION_WEBHOOK_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];

// Sorted, as the exposition prints them.
const REQUEST_LABELS = ['component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'] as const;
const REQUEST_COUNTER_LABELS = ['code', 'component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'] as const;
const LONG_RUNNING_LABELS = ['component', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'] as const;
const TERMINATION_LABELS = ['code', 'component', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'] as const;

type Child<T> = ReturnType<T extends Counter<string> ? Counter<string>['labels'] : T extends Histogram<string> ? Histogram<string>['labels'] : Gauge<string>['labels']>;

/** A request label set's metric children, made once: prom-client hashes a label object on every call otherwise. */
interface RequestChildren {
  duration: Child<Histogram<string>>;
  codes: Map<number, Child<Counter<string>>>;
}

export class ServerMetrics {
  readonly registry = new Registry();
  private defaultsCollected = false;

  private readonly requestTotal: Counter<(typeof REQUEST_COUNTER_LABELS)[number]>;
  private readonly requestDuration: Histogram<(typeof REQUEST_LABELS)[number]>;
  private readonly terminations: Counter<(typeof TERMINATION_LABELS)[number]>;
  private readonly longRunning: Gauge<(typeof LONG_RUNNING_LABELS)[number]>;
  private readonly watchEvents: Counter<'group' | 'kind' | 'version'>;
  private readonly watchEventSizes: Histogram<'group' | 'kind' | 'version'>;
  private readonly admissionStep: Histogram<'operation' | 'rejected' | 'type'>;
  private readonly webhookDuration: Histogram<'name' | 'operation' | 'rejected' | 'type'>;
  private readonly webhookRequests: Counter<'code' | 'name' | 'operation' | 'rejected' | 'type'>;
  private readonly webhookRejections: Counter<'error_type' | 'name' | 'operation' | 'rejection_code' | 'type'>;
  private readonly conversionWebhook: Histogram<'crd_name' | 'from_version' | 'succeeded' | 'to_version'>;
  private readonly ratchetingTime: Histogram<string>;

  private readonly requestChildren = new Map<string, RequestChildren>();
  private readonly watchChildren = new Map<string, { count: Child<Counter<string>>; size: Child<Histogram<string>> }>();

  /** Requests executing now, and the most at once since the gauge was last read (kube's watermark). */
  private readonly executing = { readOnly: 0, mutating: 0 };
  private readonly highWater = { readOnly: 0, mutating: 0 };

  /**
   * @param objectCounts what each resource holds (group, resource, count), as priority and fairness last
   *   counted it; read when scraped.
   */
  constructor(objectCounts?: () => Iterable<[group: string, resource: string, count: number]>) {
    const registers = [this.registry];
    this.requestTotal = new Counter({
      name: 'apiserver_request_total',
      help: '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: REQUEST_COUNTER_LABELS,
      registers,
    });
    this.requestDuration = new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: REQUEST_LABELS,
      buckets: REQUEST_DURATION_BUCKETS,
      registers,
    });
    this.terminations = new Counter({
      name: 'apiserver_request_terminations_total',
      help: '[ALPHA] Number of requests which apiserver terminated in self-defense.',
      labelNames: TERMINATION_LABELS,
      registers,
    });
    this.longRunning = new Gauge({
      name: 'apiserver_longrunning_requests',
      help: '[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labelNames: LONG_RUNNING_LABELS,
      registers,
    });
    const executing = this.executing;
    const highWater = this.highWater;
    new Gauge({
      name: 'apiserver_current_inflight_requests',
      help: '[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      labelNames: ['request_kind'],
      registers,
      collect() {
        for (const kind of ['mutating', 'readOnly'] as const) {
          this.labels(kind).set(highWater[kind]);
          highWater[kind] = executing[kind];
        }
      },
    });
    new Gauge({
      name: 'apiserver_storage_objects',
      help: '[STABLE] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      labelNames: ['resource'],
      registers,
      collect() {
        this.reset();
        // kube's label is the GroupResource as a string: "crontabs.stable.example.com", "pods".
        for (const [group, resource, count] of objectCounts?.() ?? []) this.labels(group ? `${resource}.${group}` : resource).set(count);
      },
    });
    this.watchEvents = new Counter({
      name: 'apiserver_watch_events_total',
      help: '[ALPHA] Number of events sent in watch clients',
      labelNames: ['group', 'kind', 'version'],
      registers,
    });
    this.watchEventSizes = new Histogram({
      name: 'apiserver_watch_events_sizes',
      help: '[ALPHA] Watch event size distribution in bytes',
      labelNames: ['group', 'kind', 'version'],
      buckets: exponential(1024, 2, 8),
      registers,
    });
    this.admissionStep = new Histogram({
      name: 'apiserver_admission_step_admission_duration_seconds',
      help: '[STABLE] Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
      labelNames: ['operation', 'rejected', 'type'],
      buckets: ADMISSION_STEP_BUCKETS,
      registers,
    });
    this.webhookDuration = new Histogram({
      name: 'apiserver_admission_webhook_admission_duration_seconds',
      help: '[STABLE] Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      labelNames: ['name', 'operation', 'rejected', 'type'],
      buckets: ADMISSION_WEBHOOK_BUCKETS,
      registers,
    });
    this.webhookRequests = new Counter({
      name: 'apiserver_admission_webhook_request_total',
      help: '[ALPHA] Admission webhook request total, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['code', 'name', 'operation', 'rejected', 'type'],
      registers,
    });
    this.webhookRejections = new Counter({
      name: 'apiserver_admission_webhook_rejection_count',
      help: '[ALPHA] Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['error_type', 'name', 'operation', 'rejection_code', 'type'],
      registers,
    });
    this.conversionWebhook = new Histogram({
      name: 'apiserver_crd_conversion_webhook_duration_seconds',
      help: '[ALPHA] CRD webhook conversion duration in seconds',
      labelNames: ['crd_name', 'from_version', 'succeeded', 'to_version'],
      buckets: exponential(0.001, 2, 15),
      registers,
    });
    this.ratchetingTime = new Histogram({
      name: 'apiextensions_apiserver_validation_ratcheting_seconds',
      help: '[ALPHA] Time for comparison of old to new for the purposes of CRDValidationRatcheting during an UPDATE in seconds.',
      buckets: exponential(0.00001, 4, 10),
      registers,
    });
  }

  /** A request an instrumented handler served (MonitorRequest): its count by code and its latency. */
  observeRequest(l: RequestLabels, code: number, seconds: number): void {
    const c = this.children(l);
    c.duration.observe(seconds);
    let counter = c.codes.get(code);
    if (!counter) {
      counter = this.requestTotal.labels(String(code), l.component, l.dryRun, l.group, l.resource, l.scope, l.subresource, l.verb, l.version);
      c.codes.set(code, counter);
    }
    counter.inc();
  }

  /** A request refused before it ran (429 by priority and fairness or the in-flight limits; RecordDroppedRequest and RecordRequestTermination). */
  observeDropped(l: RequestLabels, code: number): void {
    this.requestTotal.labels(String(code), l.component, l.dryRun, l.group, l.resource, l.scope, l.subresource, l.verb, l.version).inc();
    this.terminations.labels(String(code), l.component, l.group, l.resource, l.scope, l.subresource, l.verb, l.version).inc();
  }

  /** A long-running request (a watch) began; the returned function ends it. */
  startLongRunning(l: RequestLabels): () => void {
    const g = this.longRunning.labels(l.component, l.group, l.resource, l.scope, l.subresource, l.verb, l.version);
    g.inc();
    return () => g.dec();
  }

  /** A request began or ended executing (delta ±1), for the in-flight high-water mark. */
  noteExecuting(kind: InflightKind, delta: number): void {
    const n = (this.executing[kind] += delta);
    if (n > this.highWater[kind]) this.highWater[kind] = n;
  }

  /** One watch event written to a client, of the watch's group, version and kind. */
  observeWatchEvent(group: string, version: string, kind: string, bytes: number): void {
    const key = `${group}\0${version}\0${kind}`;
    let c = this.watchChildren.get(key);
    if (!c) {
      c = { count: this.watchEvents.labels(group, kind, version), size: this.watchEventSizes.labels(group, kind, version) };
      this.watchChildren.set(key, c);
    }
    c.count.inc();
    c.size.observe(bytes);
  }

  /** The whole mutating ("admit") or validating ("validate") admission phase of a write. */
  observeAdmissionStep(type: 'admit' | 'validate', operation: string, rejected: boolean, seconds: number): void {
    this.admissionStep.labels(operation, String(rejected), type).observe(seconds);
  }

  /** One admission webhook call; type "admit" (mutating) or "validating", as kube's dispatchers name them. */
  observeWebhook(name: string, type: 'admit' | 'validating', operation: string, rejected: boolean, code: number, seconds: number): void {
    this.webhookRequests.labels(String(Math.min(code, 600)), name, operation, String(rejected), type).inc();
    this.webhookDuration.labels(name, operation, String(rejected), type).observe(seconds);
  }

  observeWebhookRejection(name: string, type: 'admit' | 'validating', operation: string, errorType: 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error', code: number): void {
    this.webhookRejections.labels(errorType, name, operation, String(Math.min(code, 600)), type).inc();
  }

  /** One call of a CRD's conversion webhook between two different versions. */
  observeConversionWebhook(crdName: string, fromVersion: string, toVersion: string, succeeded: boolean, seconds: number): void {
    this.conversionWebhook.labels(crdName, fromVersion, String(succeeded), toVersion).observe(seconds);
  }

  /** One schema validation of an update with ratcheting. */
  observeRatcheting(seconds: number): void {
    this.ratchetingTime.observe(seconds);
  }

  /** The exposition in Prometheus text format 0.0.4, families sorted by name. */
  async expose(): Promise<string> {
    if (!this.defaultsCollected) {
      // Process and Node.js runtime metrics, started with the first scrape: each collector keeps observers for good.
      collectDefaultMetrics({ register: this.registry });
      this.defaultsCollected = true;
    }
    // prom-client writes NaN (an event-loop figure before its first sample) as "Nan"; the format's spelling is "NaN".
    const text = (await this.registry.metrics()).replace(/ Nan$/gm, ' NaN');
    const families = text.split(/\n(?=# HELP )/).map((f) => f.trimEnd()).filter(Boolean);
    // Byte order, as Go sorts names.
    families.sort((a, b) => (familyName(a) < familyName(b) ? -1 : 1));
    return families.join('\n') + '\n';
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private children(l: RequestLabels): RequestChildren {
    const key = `${l.verb}\0${l.dryRun}\0${l.group}\0${l.version}\0${l.resource}\0${l.subresource}\0${l.scope}\0${l.component}`;
    let c = this.requestChildren.get(key);
    if (!c) {
      c = { duration: this.requestDuration.labels(l.component, l.dryRun, l.group, l.resource, l.scope, l.subresource, l.verb, l.version), codes: new Map() };
      this.requestChildren.set(key, c);
    }
    return c;
  }
}

const familyName = (block: string): string => block.slice('# HELP '.length, block.indexOf(' ', '# HELP '.length));
