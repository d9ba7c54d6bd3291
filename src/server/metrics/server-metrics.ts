// One server's Prometheus metrics under kube-apiserver 1.33's names, labels, types and buckets, and the process
// and Node.js runtime metrics of prom-client (in a Registry of this server's own: tests run many servers in
// one process, and prom-client's global registry is never used). Label names are sorted and families exposed
// sorted by name, as Go's client writes them; help texts carry the stability prefix component-base adds.
import type { Registry } from 'prom-client';
import { CounterVec, exponentialBuckets, GaugeVec, HistogramVec, type CounterSeries, type HistogramSeries } from './vec.js';
import { AuthMetrics } from './auth-metrics.js';
import { FlowcontrolMetrics, type LevelLimits } from './flowcontrol-metrics.js';
import { importPackage } from '../../util/import-package.js';

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

/** request_sli_duration_seconds's: request_duration_seconds's from 0.05 s. */
const SLI_BUCKETS = [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const ADMISSION_STEP_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
const ADMISSION_WEBHOOK_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];

/** A request label set's series, found once per label set rather than once per request. */
interface RequestSeries {
  duration: HistogramSeries;
  sli: HistogramSeries;
  codes: Map<number, CounterSeries>;
}

export class ServerMetrics {
  /** prom-client's registry, for the process and Node.js runtime metrics. */
  private runtime: Promise<Registry> | undefined;

  private readonly requestTotal = new CounterVec(
    'apiserver_request_total',
    '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
    ['code', 'component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
  );
  private readonly requestDuration = new HistogramVec(
    'apiserver_request_duration_seconds',
    '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
    ['component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
    REQUEST_DURATION_BUCKETS,
  );
  // Its successor apiserver_request_slo_duration_seconds, deprecated in 1.27, is hidden in 1.33.
  private readonly sliDuration = new HistogramVec(
    'apiserver_request_sli_duration_seconds',
    '[ALPHA] Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
    ['component', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
    SLI_BUCKETS,
  );
  private readonly terminations = new CounterVec(
    'apiserver_request_terminations_total',
    '[ALPHA] Number of requests which apiserver terminated in self-defense.',
    ['code', 'component', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
  );
  private readonly longRunning = new GaugeVec(
    'apiserver_longrunning_requests',
    '[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
    ['component', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
  );
  private readonly inflight: GaugeVec;
  private readonly inqueue: GaugeVec;
  /** authentication_* and authorization_* of the two filters. */
  readonly auth = new AuthMetrics();
  /** apiserver_flowcontrol_*, noted by priority and fairness. */
  readonly flowcontrol: FlowcontrolMetrics;
  private readonly storageObjects: GaugeVec;
  private readonly watchEvents = new CounterVec('apiserver_watch_events_total', '[ALPHA] Number of events sent in watch clients', ['group', 'kind', 'version']);
  private readonly watchEventSizes = new HistogramVec('apiserver_watch_events_sizes', '[ALPHA] Watch event size distribution in bytes', ['group', 'kind', 'version'], exponentialBuckets(1024, 2, 8));
  private readonly admissionStep = new HistogramVec(
    'apiserver_admission_step_admission_duration_seconds',
    '[STABLE] Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
    ['operation', 'rejected', 'type'],
    ADMISSION_STEP_BUCKETS,
  );
  private readonly webhookDuration = new HistogramVec(
    'apiserver_admission_webhook_admission_duration_seconds',
    '[STABLE] Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    ['name', 'operation', 'rejected', 'type'],
    ADMISSION_WEBHOOK_BUCKETS,
  );
  private readonly webhookRequests = new CounterVec(
    'apiserver_admission_webhook_request_total',
    '[ALPHA] Admission webhook request total, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    ['code', 'name', 'operation', 'rejected', 'type'],
  );
  private readonly webhookRejections = new CounterVec(
    'apiserver_admission_webhook_rejection_count',
    '[ALPHA] Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    ['error_type', 'name', 'operation', 'rejection_code', 'type'],
  );
  private readonly conversionWebhook = new HistogramVec(
    'apiserver_crd_conversion_webhook_duration_seconds',
    '[ALPHA] CRD webhook conversion duration in seconds',
    ['crd_name', 'from_version', 'succeeded', 'to_version'],
    exponentialBuckets(0.001, 2, 15),
  );
  private readonly ratchetingTime = new HistogramVec(
    'apiextensions_apiserver_validation_ratcheting_seconds',
    '[ALPHA] Time for comparison of old to new for the purposes of CRDValidationRatcheting during an UPDATE in seconds.',
    [],
    exponentialBuckets(0.00001, 4, 10),
  );
  private readonly families: Array<{ name: string; expose(): string }>;

  /** More families, exposed with the rest (the watch cache's, made once the server knows its storage). */
  addFamilies(...families: Array<{ name: string; expose(): string }>): void {
    this.families.push(...families);
  }

  private readonly requestSeries: SeriesTree<RequestSeries> = new Map();
  private readonly watchSeries = new Map<string, { count: CounterSeries; size: HistogramSeries }>();

  /** Requests executing now, and the most at once since the gauge was last read (kube's watermark). */
  private readonly executing = { readOnly: 0, mutating: 0 };
  private readonly highWater = { readOnly: 0, mutating: 0 };
  /** Requests in priority and fairness queues now, and the most at once since last read. */
  private readonly waiting = { readOnly: 0, mutating: 0 };
  private readonly waitingHighWater = { readOnly: 0, mutating: 0 };

  /**
   * @param objectCounts what each resource holds (group, resource, count), as priority and fairness last
   *   counted it; read when scraped.
   * @param priorityLevels the seat limits of priority and fairness' levels, read when scraped.
   */
  constructor(objectCounts?: () => Iterable<[group: string, resource: string, count: number]>, priorityLevels?: () => Iterable<LevelLimits>) {
    const { executing, highWater, waiting, waitingHighWater } = this;
    this.inflight = new GaugeVec(
      'apiserver_current_inflight_requests',
      '[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      ['request_kind'],
      (g) => {
        for (const kind of ['mutating', 'readOnly'] as const) {
          g.with(kind).value = highWater[kind];
          highWater[kind] = executing[kind];
        }
      },
    );
    this.inqueue = new GaugeVec(
      'apiserver_current_inqueue_requests',
      '[ALPHA] Maximal number of queued requests in this apiserver per request kind in last second.',
      ['request_kind'],
      (g) => {
        for (const kind of ['mutating', 'readOnly'] as const) {
          g.with(kind).value = waitingHighWater[kind];
          waitingHighWater[kind] = waiting[kind];
        }
      },
    );
    this.flowcontrol = new FlowcontrolMetrics(priorityLevels ?? (() => []), (kind, delta) => {
      const n = (waiting[kind] += delta);
      if (n > waitingHighWater[kind]) waitingHighWater[kind] = n;
    });
    this.storageObjects = new GaugeVec(
      'apiserver_storage_objects',
      '[STABLE] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      ['resource'],
      (g) => {
        g.reset();
        // kube's label is the GroupResource as a string: "crontabs.stable.example.com", "pods".
        for (const [group, resource, count] of objectCounts?.() ?? []) g.with(group ? `${resource}.${group}` : resource).value = count;
      },
    );
    this.families = [
      this.requestTotal, this.requestDuration, this.sliDuration, this.terminations, this.longRunning, this.inflight, this.inqueue,
      this.storageObjects, this.watchEvents, this.watchEventSizes, this.admissionStep, this.webhookDuration, this.webhookRequests,
      this.webhookRejections, this.conversionWebhook, this.ratchetingTime, ...this.auth.families, ...this.flowcontrol.families,
    ];
  }

  /**
   * A request an instrumented handler served (MonitorRequest): its count by code, its latency, and its latency
   * less what it spent in webhooks and in a priority and fairness queue (the SLI).
   */
  observeRequest(l: RequestLabels, code: number, seconds: number, sliSeconds: number): void {
    // A tree by label rather than one key joined per request: no long string to build, hash and compare each time.
    const leaves = branch(branch(branch(branch(branch(branch(branch(this.requestSeries, l.verb), l.dryRun), l.group), l.version), l.resource), l.subresource), l.scope);
    let s = leaves.get(l.component) as RequestSeries | undefined;
    if (!s) {
      s = {
        duration: this.requestDuration.with(l.component, l.dryRun, l.group, l.resource, l.scope, l.subresource, l.verb, l.version),
        sli: this.sliDuration.with(l.component, l.group, l.resource, l.scope, l.subresource, l.verb, l.version),
        codes: new Map(),
      };
      leaves.set(l.component, s);
    }
    s.duration.observe(seconds);
    s.sli.observe(sliSeconds);
    let counter = s.codes.get(code);
    if (!counter) {
      counter = this.requestTotal.with(String(code), l.component, l.dryRun, l.group, l.resource, l.scope, l.subresource, l.verb, l.version);
      s.codes.set(code, counter);
    }
    counter.value++;
  }

  /** A request refused before it ran (429 by priority and fairness or the in-flight limits; RecordDroppedRequest and RecordRequestTermination). */
  observeDropped(l: RequestLabels, code: number): void {
    this.requestTotal.with(String(code), l.component, l.dryRun, l.group, l.resource, l.scope, l.subresource, l.verb, l.version).value++;
    this.terminations.with(String(code), l.component, l.group, l.resource, l.scope, l.subresource, l.verb, l.version).value++;
  }

  /** A long-running request (a watch) began; the returned function ends it. */
  startLongRunning(l: RequestLabels): () => void {
    const g = this.longRunning.with(l.component, l.group, l.resource, l.scope, l.subresource, l.verb, l.version);
    g.value++;
    return () => void g.value--;
  }

  /** A request began or ended executing (delta ±1), for the in-flight high-water mark. */
  noteExecuting(kind: InflightKind, delta: number): void {
    const n = (this.executing[kind] += delta);
    if (n > this.highWater[kind]) this.highWater[kind] = n;
  }

  /** One watch event written to a client, of the watch's group, version and kind. */
  observeWatchEvent(group: string, version: string, kind: string, bytes: number): void {
    const key = `${group}\0${version}\0${kind}`;
    let s = this.watchSeries.get(key);
    if (!s) {
      s = { count: this.watchEvents.with(group, kind, version), size: this.watchEventSizes.with(group, kind, version) };
      this.watchSeries.set(key, s);
    }
    s.count.value++;
    s.size.observe(bytes);
  }

  /** The whole mutating ("admit") or validating ("validate") admission phase of a write. */
  observeAdmissionStep(type: 'admit' | 'validate', operation: string, rejected: boolean, seconds: number): void {
    this.admissionStep.with(operation, String(rejected), type).observe(seconds);
  }

  /** One admission webhook call; type "admit" (mutating) or "validating", as kube's dispatchers name them. */
  observeWebhook(name: string, type: 'admit' | 'validating', operation: string, rejected: boolean, code: number, seconds: number): void {
    this.webhookRequests.with(String(Math.min(code, 600)), name, operation, String(rejected), type).value++;
    this.webhookDuration.with(name, operation, String(rejected), type).observe(seconds);
  }

  observeWebhookRejection(name: string, type: 'admit' | 'validating', operation: string, errorType: 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error', code: number): void {
    this.webhookRejections.with(errorType, name, operation, String(Math.min(code, 600)), type).value++;
  }

  /** One call of a CRD's conversion webhook between two different versions. */
  observeConversionWebhook(crdName: string, fromVersion: string, toVersion: string, succeeded: boolean, seconds: number): void {
    this.conversionWebhook.with(crdName, fromVersion, String(succeeded), toVersion).observe(seconds);
  }

  /** One schema validation of an update with ratcheting. */
  observeRatcheting(seconds: number): void {
    this.ratchetingTime.with().observe(seconds);
  }

  /** The exposition in Prometheus text format 0.0.4, families sorted by name. */
  async expose(): Promise<string> {
    // Process and Node.js runtime metrics, started with the first scrape: each collector keeps observers for good.
    // prom-client is loaded then too (a twentieth of the server's start-up otherwise).
    this.runtime ??= importPackage<typeof import('prom-client')>('prom-client').then(({ collectDefaultMetrics, Registry }) => {
      const registry = new Registry();
      collectDefaultMetrics({ register: registry });
      return registry;
    });
    // prom-client writes NaN (an event-loop figure before its first sample) as "Nan"; the format's spelling is "NaN".
    const runtime = (await (await this.runtime).metrics()).replace(/ Nan$/gm, ' NaN');
    const blocks = [...this.families.map((f) => ({ name: f.name, text: f.expose() })), ...runtime.split(/\n(?=# HELP )/).filter((b) => b.trim()).map((b) => ({ name: familyName(b), text: b.trimEnd() }))];
    // Byte order, as Go sorts names.
    blocks.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return blocks.map((b) => b.text).join('\n') + '\n';
  }

  get contentType(): string {
    return 'text/plain; version=0.0.4; charset=utf-8';
  }
}

const familyName = (block: string): string => block.slice('# HELP '.length, block.indexOf(' ', '# HELP '.length));

/** Series by their label values, one level per label. */
type SeriesTree<T> = Map<string, SeriesTree<T> | T>;

/** The level under `value`, made on first use. */
function branch<T>(tree: SeriesTree<T>, value: string): SeriesTree<T> {
  let next = tree.get(value) as SeriesTree<T> | undefined;
  if (!next) tree.set(value, (next = new Map()));
  return next;
}
