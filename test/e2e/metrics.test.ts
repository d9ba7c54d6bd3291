// /metrics end to end: a scripted mix of kubectl requests (a CRD, creates, gets, lists, a 404, a 409, an update,
// a watch, a validating webhook's allow and denial, refusals by authentication and authorization), then the
// exposition read with a Prometheus text parser and checked against kube-apiserver 1.33's names, labels, types
// and buckets; and /metrics authorised as kube authorises it (the system:monitoring group).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';
import { startAdmissionWebhook, type AdmissionWebhookServer } from '../fixtures/admission-webhook.js';
import { parsePrometheusText, samples, total, type Family } from '../server/prometheus-text.js';

/** The seed's CronTab CRD (cronSpec, image, replicas). */
const CRD = readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8');

const crontab = (name: string, image: string): string => `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: ${name}, namespace: default}
spec: {cronSpec: "* * * * */5", image: ${image}}
`;

let ts: TestServer;
let hook: AdmissionWebhookServer;
let families: Map<string, Family>;
let longRunningDuringWatch: number;

const ok = async (args: string[], stdin?: string): Promise<string> => {
  const r = await ts.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
const fails = async (args: string[], stdin?: string): Promise<string> => {
  const r = await ts.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} succeeded`);
  return r.stderr;
};
const scrape = async (): Promise<Map<string, Family>> => parsePrometheusText(await ok(['get', '--raw', '/metrics']));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

before(async () => {
  requireKubectl();
  hook = await startAdmissionWebhook();
  ts = await startTestServer();
  await ok(['apply', '-f', '-'], CRD);
  await ok(['wait', '--for', 'condition=established', 'crd/crontabs.stable.example.com']);
  await ok(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: crontab-policy}
webhooks:
- name: validate.stable.example.com
  clientConfig: {url: "${hook.url('/validate')}", caBundle: "${hook.caBundle}"}
  rules:
  - {operations: [CREATE], apiGroups: [stable.example.com], apiVersions: ["*"], resources: [crontabs]}
  sideEffects: None
  admissionReviewVersions: [v1]
`);
  await sleep(300); // the webhook configuration informer

  // The scripted mix.
  await ok(['create', '-f', '-'], crontab('one', 'busybox')); // POST 201, webhook allows
  assert.match(await fails(['create', '-f', '-'], crontab('one', 'busybox')), /AlreadyExists/); // POST 409
  assert.match(await fails(['create', '-f', '-'], crontab('bad', 'forbidden')), /denied the request/); // webhook refuses (422)
  await ok(['get', 'crontab', 'one']); // GET 200
  assert.match(await fails(['get', 'crontab', 'missing']), /NotFound/); // GET 404
  await ok(['get', 'crontabs']); // LIST 200, namespace scope
  await ok(['patch', 'crontab', 'one', '--type=merge', '-p', '{"spec":{"image":"nginx"}}']); // PATCH 200, ratcheting
  await ok(['apply', '--server-side', '-f', '-'], crontab('two', 'busybox')); // APPLY 201
  await ok(['create', 'configmap', 'cm', '--dry-run=server']); // POST with dry_run=All
  assert.match(await fails(['get', 'configmaps', '--as=nobody']), /Forbidden/); // 403 by authorization: not counted
  await ok(['get', '--raw', '/version', '--as=nobody']); // allowed by RBAC (system:public-info-viewer)
  assert.match((await ts.kubectlAs({ token: 'not-a-token' }, ['get', 'namespaces'])).stderr, /Unauthorized|provide credentials/); // 401: not counted
  assert.match(await fails(['get', '--raw', '/apis/stable.example.com/v1/nothings']), /NotFound/); // no such resource: not counted
  // A watch of the crontabs (its initial events), ended by the server after a second.
  const watch = spawn('kubectl', ['get', '--raw', '/apis/stable.example.com/v1/namespaces/default/crontabs?watch=true&timeoutSeconds=2'], {
    env: { ...process.env, KUBECONFIG: ts.kubeconfig, HOME: ts.home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let streamed = '';
  watch.stdout.on('data', (d: Buffer) => (streamed += d.toString()));
  const ended = new Promise((r) => watch.on('exit', r));
  await sleep(700);
  longRunningDuringWatch = total(await scrape(), 'apiserver_longrunning_requests', { verb: 'WATCH', group: 'stable.example.com', resource: 'crontabs' });
  await ended;
  assert.match(streamed, /"type":"ADDED"/);
  await ok(['get', '--raw', '/readyz']);
  families = await scrape();
});

after(async () => {
  await ts?.close();
  await hook?.close();
});

const CR = { group: 'stable.example.com', version: 'v1', resource: 'crontabs', component: 'apiserver', dry_run: '', subresource: '' };

test('apiserver_request_total counts each request an endpoint served, by verb, scope and code, with every kube label', () => {
  const f = families.get('apiserver_request_total')!;
  assert.equal(f.type, 'counter');
  assert.match(f.help, /^\[STABLE\] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code\.$/);
  for (const s of f.samples) assert.deepEqual(Object.keys(s.labels), ['code', 'component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version']);
  const count = (labels: Record<string, string>): number => total(families, 'apiserver_request_total', { ...CR, ...labels });
  assert.equal(count({ verb: 'POST', scope: 'resource', code: '201' }), 1, 'one create');
  assert.equal(count({ verb: 'POST', scope: 'resource', code: '409' }), 1, 'the duplicate');
  assert.equal(count({ verb: 'POST', scope: 'resource', code: '422' }), 1, "the webhook's denial");
  assert.equal(count({ verb: 'GET', scope: 'resource', code: '404' }), 1, 'the missing one');
  assert.ok(count({ verb: 'GET', scope: 'resource', code: '200' }) >= 1, 'a get');
  assert.ok(count({ verb: 'LIST', scope: 'namespace', code: '200' }) >= 1, 'a list');
  assert.ok(count({ verb: 'PATCH', scope: 'resource', code: '200' }) >= 1, 'a merge patch');
  assert.equal(count({ verb: 'APPLY', scope: 'resource', code: '201' }), 1, 'a server-side apply');
  assert.equal(count({ verb: 'WATCH', scope: 'namespace', code: '200' }), 1, 'the watch, once it ended');
  assert.equal(total(families, 'apiserver_request_total', { verb: 'POST', resource: 'configmaps', dry_run: 'All', code: '201' }), 1, 'dry run');
  // Refused before any handler: not counted, as in kube.
  assert.equal(total(families, 'apiserver_request_total', { code: '403' }), 0);
  assert.equal(total(families, 'apiserver_request_total', { code: '401' }), 0);
  assert.equal(total(families, 'apiserver_request_total', { resource: 'nothings' }), 0);
  // The health checks: "subresource" the path, component "".
  assert.ok(total(families, 'apiserver_request_total', { verb: 'GET', subresource: '/readyz', component: '', scope: '', code: '200' }) >= 1);
  // Non-resource paths other than those are not instrumented.
  assert.equal(total(families, 'apiserver_request_total', { subresource: '/metrics' }), 0);
});

test("apiserver_request_duration_seconds: a histogram with kube's buckets", () => {
  const f = families.get('apiserver_request_duration_seconds')!;
  assert.equal(f.type, 'histogram');
  const buckets = samples(families, 'apiserver_request_duration_seconds_bucket', { ...CR, verb: 'POST', scope: 'resource' });
  assert.deepEqual(
    buckets.map((b) => b.labels['le']),
    ['0.005', '0.025', '0.05', '0.1', '0.2', '0.4', '0.6', '0.8', '1', '1.25', '1.5', '2', '3', '4', '5', '6', '8', '10', '15', '20', '30', '45', '60', '+Inf'],
  );
  assert.equal(buckets.at(-1)!.value, 3, 'the three creates (201, 409, 422)');
  assert.equal(total(families, 'apiserver_request_duration_seconds_count', { ...CR, verb: 'POST', scope: 'resource' }), 3);
  assert.ok(total(families, 'apiserver_request_duration_seconds_sum', { ...CR, verb: 'POST', scope: 'resource' }) > 0);
});

test('watches: long-running while open, events counted and sized by group, version and kind', () => {
  assert.equal(longRunningDuringWatch, 1);
  assert.equal(families.get('apiserver_longrunning_requests')!.type, 'gauge');
  assert.equal(total(families, 'apiserver_longrunning_requests', { verb: 'WATCH', group: 'stable.example.com', resource: 'crontabs', scope: 'namespace', component: 'apiserver' }), 0);
  const gvk = { group: 'stable.example.com', version: 'v1', kind: 'CronTab' };
  assert.equal(total(families, 'apiserver_watch_events_total', gvk), 2, 'the two crontabs, as initial events');
  assert.equal(families.get('apiserver_watch_events_sizes')!.type, 'histogram');
  assert.equal(total(families, 'apiserver_watch_events_sizes_count', gvk), 2);
  assert.deepEqual(
    samples(families, 'apiserver_watch_events_sizes_bucket', gvk).map((b) => b.labels['le']),
    ['1024', '2048', '4096', '8192', '16384', '32768', '65536', '131072', '+Inf'],
  );
});

test('admission: each phase and each webhook call timed, with the rejection', () => {
  const step = (labels: Record<string, string>): number => total(families, 'apiserver_admission_step_admission_duration_seconds_count', labels);
  assert.ok(step({ type: 'admit', operation: 'CREATE', rejected: 'false' }) >= 2);
  assert.ok(step({ type: 'validate', operation: 'CREATE', rejected: 'true' }) >= 1, "the webhook's denial");
  assert.ok(step({ type: 'validate', operation: 'UPDATE', rejected: 'false' }) >= 1);
  const hookName = { name: 'validate.stable.example.com', type: 'validating', operation: 'CREATE' };
  assert.equal(total(families, 'apiserver_admission_webhook_admission_duration_seconds_count', { ...hookName, rejected: 'false' }), 3, 'one, its duplicate (refused by storage after admission) and two');
  assert.equal(total(families, 'apiserver_admission_webhook_admission_duration_seconds_count', { ...hookName, rejected: 'true' }), 1);
  assert.deepEqual(
    samples(families, 'apiserver_admission_webhook_admission_duration_seconds_bucket', { ...hookName, rejected: 'true' }).map((b) => b.labels['le']),
    ['0.005', '0.025', '0.1', '0.5', '1', '2.5', '10', '25', '+Inf'],
  );
  assert.equal(total(families, 'apiserver_admission_webhook_request_total', { ...hookName, rejected: 'true', code: '422' }), 1);
  assert.equal(total(families, 'apiserver_admission_webhook_rejection_count', { ...hookName, error_type: 'no_error', rejection_code: '422' }), 1);
});

test('CRD validation ratcheting is timed on updates', () => {
  assert.equal(families.get('apiextensions_apiserver_validation_ratcheting_seconds')!.type, 'histogram');
  assert.ok(total(families, 'apiextensions_apiserver_validation_ratcheting_seconds_count') >= 1);
});

test('stored objects per resource, in-flight requests, and the process and Node.js runtime metrics', () => {
  assert.equal(families.get('apiserver_storage_objects')!.type, 'gauge');
  // Counted at start and once a minute: the built-in resources' figures are there.
  assert.ok(total(families, 'apiserver_storage_objects', { resource: 'namespaces' }) >= 4);
  assert.ok(total(families, 'apiserver_storage_objects', { resource: 'clusterroles.rbac.authorization.k8s.io' }) > 10);
  assert.deepEqual(samples(families, 'apiserver_current_inflight_requests').map((s) => s.labels['request_kind']).sort(), ['mutating', 'readOnly']);
  for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_start_time_seconds', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
    assert.ok(families.has(name), name);
  }
  // Families come sorted by name, as Go's registry writes them.
  const names = [...families.keys()];
  assert.deepEqual(names, [...names].sort());
});

test('apiserver_request_sli_duration_seconds: the latency less webhooks and queue waits, without dry_run and code labels', () => {
  const f = families.get('apiserver_request_sli_duration_seconds')!;
  assert.equal(f.type, 'histogram');
  assert.match(f.help, /^\[ALPHA\] Response latency distribution \(not counting webhook duration and priority & fairness queue wait times\)/);
  const labels = { group: CR.group, version: CR.version, resource: CR.resource, component: 'apiserver', subresource: '', verb: 'POST', scope: 'resource' };
  const buckets = samples(families, 'apiserver_request_sli_duration_seconds_bucket', labels);
  assert.deepEqual(Object.keys(buckets[0]!.labels), ['component', 'group', 'resource', 'scope', 'subresource', 'verb', 'version', 'le']);
  assert.deepEqual(
    buckets.map((b) => b.labels['le']),
    ['0.05', '0.1', '0.2', '0.4', '0.6', '0.8', '1', '1.25', '1.5', '2', '3', '4', '5', '6', '8', '10', '15', '20', '30', '45', '60', '+Inf'],
  );
  assert.equal(total(families, 'apiserver_request_sli_duration_seconds_count', labels), 3, 'the three creates');
  // Each create called the webhook: its time is left out.
  const sli = total(families, 'apiserver_request_sli_duration_seconds_sum', labels);
  const all = total(families, 'apiserver_request_duration_seconds_sum', { ...CR, verb: 'POST', scope: 'resource' });
  assert.ok(sli > 0 && sli < all, `${sli} < ${all}`);
  // Hidden since 1.28 (deprecated in 1.27), as in kube 1.33.
  assert.equal(families.has('apiserver_request_slo_duration_seconds'), false);
});

test('authentication and authorization: attempts and latency by result, users by category', () => {
  for (const name of ['authentication_attempts', 'authenticated_user_requests', 'authorization_attempts_total']) assert.equal(families.get(name)!.type, 'counter', name);
  for (const name of ['authentication_duration_seconds', 'authorization_duration_seconds']) assert.equal(families.get(name)!.type, 'histogram', name);
  const success = total(families, 'authentication_attempts', { result: 'success' });
  assert.ok(success > 10, `${success} authenticated`);
  assert.equal(total(families, 'authentication_attempts', { result: 'error' }), 1, 'the bad token');
  assert.equal(total(families, 'authentication_duration_seconds_count', { result: 'error' }), 1);
  assert.deepEqual(
    samples(families, 'authentication_duration_seconds_bucket', { result: 'error' }).map((b) => b.labels['le']),
    ['0.001', '0.002', '0.004', '0.008', '0.016', '0.032', '0.064', '0.128', '0.256', '0.512', '1.024', '2.048', '4.096', '8.192', '16.384', '+Inf'],
  );
  // kubernetes-admin is none of kube's well-known names.
  assert.equal(total(families, 'authenticated_user_requests'), success);
  assert.equal(total(families, 'authenticated_user_requests', { username: 'other' }), success);
  // RBAC has no opinion on what it does not allow; kube counts that, not "denied".
  assert.equal(total(families, 'authorization_attempts_total', { result: 'no-opinion' }), 1, 'nobody listing configmaps');
  assert.equal(total(families, 'authorization_attempts_total', { result: 'denied' }), 0);
  assert.ok(total(families, 'authorization_attempts_total', { result: 'allowed' }) >= success - 1);
  assert.equal(total(families, 'authorization_duration_seconds_count'), total(families, 'authorization_attempts_total'));
  // Each authorization mode's terminal decisions: the admin (system:masters) never reaches RBAC; nobody's
  // /version is RBAC's one allow; its no opinion on nobody's list is not counted.
  const decisions = samples(families, 'apiserver_authorization_decisions_total');
  assert.deepEqual(decisions.map((d) => [d.labels, d.value]), [[{ decision: 'allowed', name: 'rbac', type: 'RBAC' }, 1]]);
});

test('priority and fairness: requests dispatched, executing and waiting by level and flow schema; the levels\' seats', () => {
  const pf = (name: string, labels: Record<string, string> = {}): number => total(families, `apiserver_flowcontrol_${name}`, labels);
  const exempt = { priority_level: 'exempt', flow_schema: 'exempt' };
  for (const name of ['dispatched_requests_total', 'rejected_requests_total']) assert.equal(families.get(`apiserver_flowcontrol_${name}`)!.type, 'counter');
  for (const name of ['current_inqueue_requests', 'current_executing_requests', 'current_executing_seats', 'nominal_limit_seats']) assert.equal(families.get(`apiserver_flowcontrol_${name}`)!.type, 'gauge');
  assert.deepEqual(Object.keys(samples(families, 'apiserver_flowcontrol_dispatched_requests_total')[0]!.labels), ['flow_schema', 'priority_level']);
  // The admin is in system:masters: exempt. Everything it sent (all but nobody's two) was dispatched; the
  // scrape itself is executing.
  assert.equal(pf('dispatched_requests_total', exempt) + 2, total(families, 'authenticated_user_requests'));
  assert.equal(pf('current_executing_requests', exempt), 1, 'this scrape');
  assert.equal(pf('current_executing_seats', exempt), 1);
  assert.equal(pf('current_executing_requests'), 1);
  assert.equal(pf('current_inqueue_requests'), 0);
  // Impersonated "nobody" is classified by the suggested schemas: a limited level, whose wait is timed.
  const nobody = samples(families, 'apiserver_flowcontrol_dispatched_requests_total').filter((s) => s.labels['priority_level'] !== 'exempt');
  assert.equal(nobody.length, 1, JSON.stringify(nobody));
  assert.equal(nobody[0]!.value, 2, 'its list of configmaps and its /version');
  const waited = { priority_level: nobody[0]!.labels['priority_level']!, flow_schema: nobody[0]!.labels['flow_schema']!, execute: 'true' };
  assert.equal(pf('request_wait_duration_seconds_count', waited), 2);
  assert.deepEqual(
    samples(families, 'apiserver_flowcontrol_request_wait_duration_seconds_bucket', waited).map((b) => b.labels['le']),
    ['0', '0.005', '0.02', '0.05', '0.1', '0.2', '0.5', '1', '2', '5', '10', '15', '30', '+Inf'],
  );
  assert.equal(pf('request_wait_duration_seconds_count', { priority_level: 'exempt' }), 0, 'exempt requests never wait');
  assert.equal(pf('rejected_requests_total'), 0);
  // The default limits (400 + 200 seats) shared out among the levels; exempt has no nominal seats.
  const nominal = samples(families, 'apiserver_flowcontrol_nominal_limit_seats');
  assert.ok(nominal.length >= 2);
  assert.equal(pf('nominal_limit_seats', { priority_level: 'exempt' }), 0);
  assert.ok(pf('nominal_limit_seats', { priority_level: 'catch-all' }) > 0);
  for (const s of nominal) {
    const level = { priority_level: s.labels['priority_level']! };
    assert.ok(pf('lower_limit_seats', level) <= s.value && s.value <= pf('upper_limit_seats', level), JSON.stringify(level));
    assert.equal(samples(families, 'apiserver_flowcontrol_current_limit_seats', level).length, 1);
  }
  assert.deepEqual(samples(families, 'apiserver_current_inqueue_requests').map((s) => s.labels['request_kind']).sort(), ['mutating', 'readOnly']);
});

test('the watch cache: events per resource, its resource version and initializations, lists served from it', () => {
  const cr = { resource: 'crontabs.stable.example.com' };
  for (const name of ['events_dispatched_total', 'events_received_total', 'initializations_total']) assert.equal(families.get(`apiserver_watch_cache_${name}`)!.type, 'counter', name);
  assert.equal(families.get('apiserver_watch_cache_resource_version')!.type, 'gauge');
  // Two crontabs made and one patched; the duplicate and the webhook's denial wrote nothing.
  assert.equal(total(families, 'apiserver_watch_cache_events_dispatched_total', cr), 3);
  assert.equal(total(families, 'apiserver_watch_cache_events_received_total', cr), 3);
  assert.ok(total(families, 'apiserver_watch_cache_events_dispatched_total', { resource: 'customresourcedefinitions.apiextensions.k8s.io' }) >= 2, 'the CRD, then its names accepted and established in one write');
  assert.equal(total(families, 'apiserver_watch_cache_initializations_total', cr), 1);
  // One cache over every resource: one revision.
  const rv = total(families, 'apiserver_watch_cache_resource_version', cr);
  assert.ok(rv > 0);
  assert.equal(total(families, 'apiserver_watch_cache_resource_version', { resource: 'configmaps' }), rv);
  const lists = samples(families, 'apiserver_cache_list_total', { resource_prefix: '/stable.example.com/crontabs' });
  assert.equal(lists.length, 1);
  assert.deepEqual(Object.keys(lists[0]!.labels), ['index', 'resource_prefix']);
  assert.ok(lists[0]!.value >= 1, 'kubectl get crontabs');
  assert.ok(total(families, 'apiserver_cache_list_fetched_objects_total', { resource_prefix: '/stable.example.com/crontabs', index: '' }) >= 2);
});

test('/metrics is authorised as a non-resource URL: the system:monitoring group may get it, others are forbidden', async () => {
  const denied = await fails(['get', '--raw', '/metrics', '--as=nobody']);
  assert.match(denied, /Error from server \(Forbidden\): forbidden: User "nobody" cannot get path "\/metrics"/);
  const allowed = await ok(['get', '--raw', '/metrics', '--as=prometheus', '--as-group=system:monitoring']);
  assert.ok(parsePrometheusText(allowed).has('apiserver_request_total'));
});
