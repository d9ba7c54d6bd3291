// The schema figures, in a process of their own: validation + pruning + defaulting throughput of our
// engine (dist/schema/compile.js) against ajv compiled from the same openAPIV3Schema, on the seed's
// CronTab schema and on the corpus's Prometheus CRD (storage version); and the compile time of the
// Prometheus schema, ours against ajv's. Receives { seconds, runs }, replies with the figures, then
// exits on 'close'. See README.md ("schema") for how ajv is set up to do the same work.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { compileSchema } from '../dist/schema/compile.js';

process.on('disconnect', () => process.exit(1));

// The corpus sits beside the project (../shared/corpus, as the issues name it).
const PROMETHEUS_CRD = new URL('../../shared/corpus/prometheus-operator/crds/monitoring.coreos.com_prometheuses.yaml', import.meta.url);

// The seed's "Validation" CronTab schema and its valid example.
const CRONTAB_SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        image: { type: 'string' },
        replicas: { type: 'integer', minimum: 1, maximum: 10 },
      },
    },
  },
};
const CRONTAB = {
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name: 'my-new-cron-object', namespace: 'default' },
  spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 5 },
};

// A realistic Prometheus (~2 KB of JSON), assembled from the corpus's examples and common settings.
const PROMETHEUS = {
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'Prometheus',
  metadata: { name: 'k8s', namespace: 'monitoring', labels: { prometheus: 'k8s', 'app.kubernetes.io/name': 'prometheus' } },
  spec: {
    replicas: 2,
    version: 'v2.53.0',
    image: 'quay.io/prometheus/prometheus:v2.53.0',
    serviceAccountName: 'prometheus-k8s',
    retention: '15d',
    retentionSize: '40GB',
    scrapeInterval: '30s',
    evaluationInterval: '30s',
    enableAdminAPI: false,
    externalLabels: { cluster: 'prod-eu-1', region: 'eu-west-1' },
    podMetadata: { labels: { 'app.kubernetes.io/component': 'prometheus', 'app.kubernetes.io/part-of': 'kube-prometheus' } },
    serviceMonitorSelector: { matchLabels: { team: 'frontend' } },
    serviceMonitorNamespaceSelector: {},
    podMonitorSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['frontend', 'backend'] }] },
    podMonitorNamespaceSelector: {},
    probeSelector: {},
    ruleSelector: { matchLabels: { prometheus: 'k8s', role: 'alert-rules' } },
    ruleNamespaceSelector: {},
    alerting: { alertmanagers: [{ namespace: 'monitoring', name: 'alertmanager-main', port: 'web', apiVersion: 'v2' }] },
    additionalScrapeConfigs: { name: 'additional-scrape-configs', key: 'prometheus-additional.yaml' },
    remoteWrite: [
      {
        url: 'https://remote-write.example.com/api/v1/push',
        remoteTimeout: '30s',
        queueConfig: { capacity: 10000, maxShards: 50, maxSamplesPerSend: 2000, batchSendDeadline: '5s' },
        writeRelabelConfigs: [{ sourceLabels: ['__name__'], regex: 'go_.*', action: 'drop' }],
      },
    ],
    resources: { requests: { memory: '400Mi', cpu: '100m' }, limits: { memory: '2Gi' } },
    securityContext: { fsGroup: 2000, runAsNonRoot: true, runAsUser: 1000 },
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'monitoring', effect: 'NoSchedule' }],
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } } } },
        ],
      },
    },
    storage: {
      volumeClaimTemplate: {
        spec: { storageClassName: 'ssd', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '40Gi' } } },
      },
    },
    thanos: { version: 'v0.35.1', objectStorageConfig: { name: 'thanos-objstore', key: 'objstore.yml' } },
    web: { pageTitle: 'Prometheus (prod-eu-1)' },
  },
};

/** The storage version's openAPIV3Schema of the corpus's Prometheus CRD. */
function prometheusSchema() {
  const crd = parse(readFileSync(PROMETHEUS_CRD, 'utf8'));
  return crd.spec.versions.find((v) => v.storage).schema.openAPIV3Schema;
}

/**
 * The same schema for ajv, doing Kubernetes' pruning: ajv (removeAdditional: true) removes what
 * `additionalProperties: false` forbids, so that goes on every object of the structural skeleton
 * that Kubernetes prunes (no additionalProperties schema, no x-kubernetes-preserve-unknown-fields),
 * and the fields Kubernetes always keeps (apiVersion, kind, metadata at the root and in embedded
 * resources) are declared. Junctors (anyOf, ...) only validate in Kubernetes, so they are left as
 * they are. ajv's removeAdditional: 'all' would also empty maps (additionalProperties schemas).
 */
export function toAjvSchema(schema, root = true) {
  const s = { ...schema };
  if (s.properties) s.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toAjvSchema(v, false)]));
  if (s.items && typeof s.items === 'object') s.items = toAjvSchema(s.items, false);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') s.additionalProperties = toAjvSchema(s.additionalProperties, false);
  const isObject = s.type === 'object' || s.properties !== undefined;
  if (isObject && (root || s['x-kubernetes-embedded-resource'] === true)) {
    // ObjectMeta is kept whole here (kube coerces it to ObjectMeta rather than pruning by schema).
    s.properties = { apiVersion: { type: 'string' }, kind: { type: 'string' }, ...s.properties, metadata: { type: 'object' } };
  }
  if (isObject && s.additionalProperties === undefined && s['x-kubernetes-preserve-unknown-fields'] !== true) s.additionalProperties = false;
  return s;
}

const ajvOptions = () => ({
  strict: false, // x-kubernetes-* keywords are ignored
  allErrors: true, // as kube, and our engine, report every error
  removeAdditional: true,
  useDefaults: true,
  // `nullable` is one of ajv 8's own keywords (its `nullable` option is gone).
  // Kubernetes validates string formats only; number formats (int32, int64) pass.
  formats: { int32: true, int64: true, 'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/ },
});

const ours = (schema) => {
  const c = compileSchema(schema);
  return (obj) => {
    c.default(obj);
    c.prune(obj);
    return c.validate(obj).length === 0;
  };
};
const ajvFn = (schema) => new Ajv(ajvOptions()).compile(toAjvSchema(schema));

/** A fast copy of plain JSON, done outside the timed sections. */
function copy(v) {
  if (Array.isArray(v)) return v.map(copy);
  if (v !== null && typeof v === 'object') {
    const o = {};
    for (const k in v) o[k] = copy(v[k]);
    return o;
  }
  return v;
}

/**
 * Objects/s of fn over fresh copies of obj, for about `seconds` of timed work: copies are made in
 * batches outside the timer, so neither side pays for them. With `parsed`, each copy is JSON.parse of
 * obj's text, as the server decodes a request body: copy() adds keys one by one, which leaves an object
 * of many keys (the Prometheus spec's 29) in V8's dictionary mode, slower for either engine to walk and
 * unlike what the server validates. The CronTab's three keys are alike both ways, and a JSON.parse per
 * object would take ten times the timed work there.
 */
function throughput(fn, obj, seconds, parsed) {
  const batch = new Array(256);
  const text = parsed ? JSON.stringify(obj) : undefined;
  let timed = 0;
  let n = 0;
  while (timed < seconds * 1000) {
    for (let i = 0; i < batch.length; i++) batch[i] = text === undefined ? copy(obj) : JSON.parse(text);
    const t0 = performance.now();
    for (let i = 0; i < batch.length; i++) if (!fn(batch[i])) throw new Error('a valid object failed validation');
    timed += performance.now() - t0;
    n += batch.length;
  }
  return (n * 1000) / timed;
}

/** Mean milliseconds per compile over about `seconds` of timed compiles (at least one); schemas copied outside the timer. */
function compileTime(compile, schema, seconds) {
  let timed = 0;
  let n = 0;
  while (n === 0 || timed < seconds * 1000) {
    const s = structuredClone(schema);
    const t0 = performance.now();
    compile(s);
    timed += performance.now() - t0;
    n++;
  }
  return timed / n;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Whether every field of a is in b with the same value (b may hold more: defaults). */
function within(a, b) {
  if (a === null || typeof a !== 'object') return a === b;
  if (b === null || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && a.length !== b.length) return false;
  return Object.keys(a).every((k) => Object.hasOwn(b, k) && within(a[k], b[k]));
}

/**
 * Both engines must leave the same object behind (defaulted and pruned alike) and accept it, and
 * nothing of the benchmark object may be pruned (else that part would go unvalidated).
 */
function checkSameResult(label, schema, obj) {
  const a = copy(obj);
  const b = copy(obj);
  if (!ours(schema)(a)) throw new Error(`${label}: our engine rejects the benchmark object`);
  const v = ajvFn(schema);
  if (!v(b)) throw new Error(`${label}: ajv rejects the benchmark object: ${JSON.stringify(v.errors)}`);
  if (!isDeepStrictEqual(a, b)) throw new Error(`${label}: ours and ajv disagree on the result:\n${JSON.stringify(a)}\n${JSON.stringify(b)}`);
  if (!within(obj, a)) throw new Error(`${label}: the benchmark object has fields the schema prunes: ${JSON.stringify(a)}`);
  // With an unknown field and a null added, both must prune them.
  const extra = copy(obj);
  extra.spec.someRandomField = { x: 1 };
  const ea = copy(extra);
  const eb = copy(extra);
  ours(schema)(ea);
  ajvFn(schema)(eb);
  if (!isDeepStrictEqual(ea, eb) || 'someRandomField' in ea.spec) throw new Error(`${label}: ours and ajv prune differently`);
  return JSON.stringify(a).length;
}

function measureThroughput(label, schema, obj, { seconds, runs, parsed = false }) {
  const defaultedBytes = checkSameResult(label, schema, obj);
  const o = ours(schema);
  const a = ajvFn(schema);
  // Warm-up: a full run each (shorter ones left the first measured run of ours visibly colder).
  throughput(o, obj, seconds, parsed);
  throughput(a, obj, seconds, parsed);
  const r = { ours: [], ajv: [], ratios: [], bytes: JSON.stringify(obj).length, defaultedBytes };
  for (let i = 0; i < runs; i++) {
    const x = throughput(o, obj, seconds, parsed);
    const y = throughput(a, obj, seconds, parsed);
    r.ours.push(x);
    r.ajv.push(y);
    r.ratios.push(x / y);
  }
  return r;
}

function measureCompile(schema, { seconds, runs }) {
  const r = { ours: [], ajv: [], ratios: [] };
  let t0 = performance.now();
  compileSchema(structuredClone(schema));
  r.oursCold = performance.now() - t0;
  t0 = performance.now();
  ajvFn(structuredClone(schema));
  r.ajvCold = performance.now() - t0;
  for (let i = 0; i < runs; i++) {
    const x = compileTime(compileSchema, schema, seconds);
    const y = compileTime(ajvFn, schema, seconds);
    r.ours.push(x);
    r.ajv.push(y);
    r.ratios.push(x / y);
  }
  return r;
}

process.once('message', ({ seconds = 1, runs = 3 }) => {
  try {
    const prom = prometheusSchema();
    const opts = { seconds, runs };
    const summarize = (r) => ({ ...r, oursMedian: median(r.ours), ajvMedian: median(r.ajv), ratio: median(r.ratios) });
    const crontab = summarize(measureThroughput('CronTab', CRONTAB_SCHEMA, CRONTAB, opts));
    const prometheus = summarize(measureThroughput('Prometheus', prom, PROMETHEUS, { ...opts, parsed: true }));
    const compile = summarize(measureCompile(prom, opts));
    process.send({ crontab, prometheus, compile, schemaBytes: JSON.stringify(prom).length });
  } catch (err) {
    process.send({ error: String(err?.stack ?? err) });
  }
});
process.on('message', (m) => {
  if (m === 'close') process.exit(0);
});
