// Admission webhooks end to end: a real HTTPS webhook server (its own CA in caBundle, reached by url) mutating
// and validating a custom resource created with kubectl, with kube's messages for denials and failures, the
// failure policies with a webhook that is down, hangs or answers garbage, dry run, reinvocation, selectors,
// match conditions, the Equivalent match policy across a CRD's versions, both AdmissionReview versions, and
// warnings shown by kubectl.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';
import { startAdmissionWebhook, type AdmissionWebhookServer } from '../fixtures/admission-webhook.js';
import { mappedServiceResolver, parseServiceMappings } from '../../src/conversion/service-map.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              color: {type: string}
          status:
            type: object
            properties:
              phase: {type: string}
  - name: v2
    served: true
    storage: false
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              color: {type: string}
          status:
            type: object
            properties:
              phase: {type: string}
`;

let ts: TestServer;
let hook: AdmissionWebhookServer;

before(async () => {
  requireKubectl();
  hook = await startAdmissionWebhook(['admission-webhook.webhooks.svc']);
  // A service reference reaches the webhook through the resolver (no cluster DNS here).
  ts = await startTestServer({ serviceResolver: mappedServiceResolver(parseServiceMappings(`webhooks/admission-webhook:8443=127.0.0.1:${hook.port}`)) });
  const r = await ts.kubectl(['apply', '-f', '-'], { stdin: CRD });
  assert.equal(r.code, 0, r.stderr);
  const w = await ts.kubectl(['wait', '--for', 'condition=established', 'crd/widgets.example.com']);
  assert.equal(w.code, 0, w.stderr);
});

after(async () => {
  await ts?.close();
  await hook?.close();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface HookSpec {
  name: string;
  /** A URL, or `service:<path>` for the service reference webhooks/admission-webhook:8443. */
  url: string;
  resources?: string;
  groups?: string;
  scenario: string;
  extra?: string;
  versions?: string;
  ops?: string;
  apiVersions?: string;
}

function hookYaml(h: HookSpec, mutating: boolean): string {
  return `- name: ${h.name}
  clientConfig:
${h.url.startsWith('service:') ? `    service: {namespace: webhooks, name: admission-webhook, port: 8443, path: "${h.url.slice(8)}"}` : `    url: "${h.url}"`}
    caBundle: "${hook.caBundle}"
  rules:
  - operations: [${h.ops ?? 'CREATE, UPDATE'}]
    apiGroups: [${h.groups ?? '"example.com"'}]
    apiVersions: [${h.apiVersions ?? '"*"'}]
    resources: [${h.resources ?? '"widgets"'}]
  objectSelector:
    matchLabels: {scenario: ${h.scenario}}
  sideEffects: None
  admissionReviewVersions: [${h.versions ?? 'v1'}]
${h.extra ?? ''}`;
}

/** Creates a webhook configuration and gives the server's informer a moment to see it. */
async function configure(kind: 'Mutating' | 'Validating', name: string, hooks: HookSpec[]): Promise<void> {
  const yaml = `apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}WebhookConfiguration
metadata:
  name: ${name}
webhooks:
${hooks.map((h) => hookYaml(h, kind === 'Mutating')).join('\n')}`;
  const r = await ts.kubectl(['apply', '-f', '-'], { stdin: yaml });
  assert.equal(r.code, 0, r.stderr);
  await sleep(300);
}

const widget = (name: string, scenario: string, color?: string, apiVersion = 'example.com/v1'): string => `apiVersion: ${apiVersion}
kind: Widget
metadata:
  name: ${name}
  namespace: default
  labels: {scenario: ${scenario}}
${color === undefined ? '' : `spec:\n  color: ${color}\n`}`;

const reviewsFor = (path: string, name: string): any[] => hook.reviews.filter((r) => r.path === path && r.review.request?.name === name).map((r) => r.review);

test('a mutating webhook defaults a field; its warning is shown by kubectl; the review carries kube\'s request fields', async () => {
  await configure('Mutating', 'defaulter', [{ name: 'default-color.example.com', url: hook.url('/mutate'), scenario: 'mutate' }]);
  const r = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w1', 'mutate') });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /Warning: color defaulted to blue/);
  const got = await ts.kubectl(['get', 'widget', 'w1', '-o', 'jsonpath={.spec.color}']);
  assert.equal(got.stdout, 'blue');
  const [review] = reviewsFor('/mutate', 'w1');
  assert.ok(review, 'the webhook got a review');
  assert.equal(review.apiVersion, 'admission.k8s.io/v1');
  assert.equal(review.kind, 'AdmissionReview');
  assert.equal(review.query, 'timeout=10s');
  const req = review.request;
  assert.match(req.uid, /^[0-9a-f-]{36}$/);
  assert.deepEqual(req.kind, { group: 'example.com', version: 'v1', kind: 'Widget' });
  assert.deepEqual(req.resource, { group: 'example.com', version: 'v1', resource: 'widgets' });
  assert.deepEqual(req.requestKind, { group: 'example.com', version: 'v1', kind: 'Widget' });
  assert.deepEqual(req.requestResource, { group: 'example.com', version: 'v1', resource: 'widgets' });
  assert.equal(req.namespace, 'default');
  assert.equal(req.operation, 'CREATE');
  assert.equal(req.userInfo.username, 'kubernetes-admin');
  assert.ok(req.userInfo.groups.includes('system:masters'));
  assert.equal(req.dryRun, false);
  assert.equal(req.options.kind, 'CreateOptions');
  assert.equal(req.object.metadata.name, 'w1');
  assert.equal(req.oldObject, null);
  // An update sends the old object; a set color is left alone.
  const u = await ts.kubectl(['label', 'widget', 'w1', 'touched=yes']);
  assert.equal(u.code, 0, u.stderr);
  const upd = reviewsFor('/mutate', 'w1').find((x) => x.request.operation === 'UPDATE');
  assert.ok(upd, 'the update was reviewed');
  assert.equal(upd.request.oldObject.spec.color, 'blue');
  assert.equal(upd.request.options.kind, 'UpdateOptions');
  // Server-side apply creates through the webhook too.
  const ssa = await ts.kubectl(['apply', '--server-side', '-f', '-'], { stdin: widget('w-ssa', 'mutate') });
  assert.equal(ssa.code, 0, ssa.stderr);
  assert.match(ssa.stderr, /Warning: color defaulted to blue/);
  assert.equal((await ts.kubectl(['get', 'widget', 'w-ssa', '-o', 'jsonpath={.spec.color}'])).stdout, 'blue');
});

test('a validating webhook refuses a value with kube\'s message and the webhook\'s code; warnings of allowed requests reach kubectl', async () => {
  await configure('Validating', 'validator', [{ name: 'color-check.example.com', url: hook.url('/validate'), scenario: 'validate' }]);
  const red = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-red', 'validate', 'red') });
  assert.notEqual(red.code, 0);
  assert.equal(red.stderr.trim(), 'Error from server (Forbidden): error when creating "STDIN": admission webhook "color-check.example.com" denied the request: red is not an allowed color');
  const orange = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-orange', 'validate', 'orange') });
  assert.equal(orange.code, 0, orange.stderr);
  assert.match(orange.stderr, /Warning: orange is discouraged/);
  // Updates are validated too.
  const patch = await ts.kubectl(['patch', 'widget', 'w-orange', '--type=merge', '-p', '{"spec":{"color":"red"}}']);
  assert.notEqual(patch.code, 0);
  assert.match(patch.stderr, /admission webhook "color-check.example.com" denied the request: red is not an allowed color/);
});

test('failurePolicy: a webhook that is down, hangs or answers garbage fails the request (Fail) or is skipped (Ignore)', async () => {
  const downUrl = 'https://127.0.0.1:1/down';
  await configure('Validating', 'failing', [
    { name: 'down-fail.example.com', url: downUrl, scenario: 'down-fail' },
    { name: 'down-ignore.example.com', url: downUrl, scenario: 'down-ignore', extra: '  failurePolicy: Ignore\n' },
    { name: 'hang-fail.example.com', url: hook.url('/hang'), scenario: 'hang-fail', extra: '  timeoutSeconds: 1\n' },
    { name: 'hang-ignore.example.com', url: hook.url('/hang'), scenario: 'hang-ignore', extra: '  timeoutSeconds: 1\n  failurePolicy: Ignore\n' },
    { name: 'garbage-fail.example.com', url: hook.url('/garbage'), scenario: 'garbage-fail' },
    { name: 'garbage-ignore.example.com', url: hook.url('/garbage'), scenario: 'garbage-ignore', extra: '  failurePolicy: Ignore\n' },
    { name: 'uid-fail.example.com', url: hook.url('/wrong-uid'), scenario: 'uid-fail' },
  ]);
  const down = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-down', 'down-fail') });
  assert.equal(
    down.stderr.trim(),
    'Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "down-fail.example.com": failed to call webhook: Post "https://127.0.0.1:1/down?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused',
  );
  const hang = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-hang', 'hang-fail') });
  assert.equal(
    hang.stderr.trim(),
    `Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "hang-fail.example.com": failed to call webhook: Post "https://127.0.0.1:${hook.port}/hang?timeout=1s": context deadline exceeded`,
  );
  const garbage = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-garbage', 'garbage-fail') });
  assert.match(
    garbage.stderr,
    /Internal error occurred: failed calling webhook "garbage-fail.example.com": failed to call webhook: couldn't get version\/kind; json parse error: /,
  );
  const uid = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-uid', 'uid-fail') });
  assert.match(uid.stderr, /Internal error occurred: failed calling webhook "uid-fail.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "not-the-uid"/);
  for (const s of ['down-ignore', 'hang-ignore', 'garbage-ignore']) {
    const r = await ts.kubectl(['create', '-f', '-'], { stdin: widget(`w-${s}`, s) });
    assert.equal(r.code, 0, `${s}: ${r.stderr}`);
  }
  for (const s of ['down', 'hang', 'garbage', 'uid']) {
    const r = await ts.kubectl(['get', 'widget', `w-${s}`]);
    assert.notEqual(r.code, 0, `w-${s} was not created`);
  }
});

test('dry run: a webhook without side effects is called with dryRun true and the object is not stored', async () => {
  await configure('Validating', 'dry', [{ name: 'dry.example.com', url: hook.url('/validate'), scenario: 'dry', extra: '  sideEffects: NoneOnDryRun\n' }]);
  const r = await ts.kubectl(['create', '--dry-run=server', '-f', '-'], { stdin: widget('w-dry', 'dry', 'green') });
  assert.equal(r.code, 0, r.stderr);
  const [review] = reviewsFor('/validate', 'w-dry');
  assert.equal(review.request.dryRun, true);
  assert.deepEqual(review.request.options.dryRun, ['All']);
  assert.notEqual((await ts.kubectl(['get', 'widget', 'w-dry'])).code, 0);
  const red = await ts.kubectl(['create', '--dry-run=server', '-f', '-'], { stdin: widget('w-dry-red', 'dry', 'red') });
  assert.match(red.stderr, /admission webhook "dry.example.com" denied the request: red is not an allowed color/);
});

test('reinvocation: an IfNeeded webhook is called again after a later webhook changed the object', async () => {
  // Configurations run in name order: a-... first, then b-....
  await configure('Mutating', 'a-reinvoke', [{ name: 'annotate-a.example.com', url: hook.url('/annotate-a'), scenario: 'reinvoke', extra: '  reinvocationPolicy: IfNeeded\n' }]);
  await configure('Mutating', 'b-reinvoke', [{ name: 'annotate-b.example.com', url: hook.url('/annotate-b'), scenario: 'reinvoke' }]);
  const r = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-re', 'reinvoke') });
  assert.equal(r.code, 0, r.stderr);
  const got = JSON.parse((await ts.kubectl(['get', 'widget', 'w-re', '-o', 'json'])).stdout);
  assert.equal(got.metadata.annotations.a, 'saw-b');
  assert.equal(got.metadata.annotations.b, 'yes');
  assert.equal(reviewsFor('/annotate-a', 'w-re').length, 2);
  assert.equal(reviewsFor('/annotate-b', 'w-re').length, 1);
  // Without IfNeeded, the first webhook keeps what it saw.
  await configure('Mutating', 'a-reinvoke', [{ name: 'annotate-a.example.com', url: hook.url('/annotate-a'), scenario: 'reinvoke', extra: '  reinvocationPolicy: Never\n' }]);
  const n = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-never', 'reinvoke') });
  assert.equal(n.code, 0, n.stderr);
  const never = JSON.parse((await ts.kubectl(['get', 'widget', 'w-never', '-o', 'json'])).stdout);
  assert.equal(never.metadata.annotations.a, 'no-b');
  assert.equal(reviewsFor('/annotate-a', 'w-never').length, 1);
});

test('matchConditions (CEL) skip the webhook or fail closed with a Forbidden', async () => {
  await configure('Validating', 'conditions', [
    {
      name: 'conditional.example.com',
      url: hook.url('/validate'),
      scenario: 'conditions',
      extra: `  matchConditions:
  - name: not-exempt
    expression: "object.metadata.name != 'exempt' && request.operation == 'CREATE'"
  - name: requester-may-create
    expression: "authorizer.requestResource.check('create').allowed()"
`,
    },
    {
      name: 'broken.example.com',
      url: hook.url('/validate'),
      scenario: 'conditions-error',
      extra: `  matchConditions:
  - name: bad
    expression: "object.spec.missing == 'x'"
`,
    },
  ]);
  const exempt = await ts.kubectl(['create', '-f', '-'], { stdin: widget('exempt', 'conditions', 'red') });
  assert.equal(exempt.code, 0, exempt.stderr);
  const other = await ts.kubectl(['create', '-f', '-'], { stdin: widget('not-exempt', 'conditions', 'red') });
  assert.match(other.stderr, /admission webhook "conditional.example.com" denied the request: red is not an allowed color/);
  const err = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-cond-err', 'conditions-error', 'green') });
  assert.equal(
    err.stderr.trim(),
    `Error from server (Forbidden): error when creating "STDIN": widgets.example.com "w-cond-err" is forbidden: expression 'object.spec.missing == 'x'' resulted in error: no such key: missing`,
  );
  // A condition that does not compile is refused when the configuration is written.
  const bad = await ts.kubectl(['apply', '-f', '-'], {
    stdin: `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: bad-condition}
webhooks:
- name: bad.example.com
  clientConfig: {url: "https://127.0.0.1:1/x"}
  sideEffects: None
  admissionReviewVersions: [v1]
  matchConditions:
  - {name: cond, expression: "object.spec +"}
`,
  });
  assert.match(bad.stderr, /webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: "object.spec \+": compilation failed: ERROR: <input>:1:14: Syntax error/);
});

test('namespaceSelector and objectSelector', async () => {
  assert.equal((await ts.kubectl(['create', 'namespace', 'prod'])).code, 0);
  assert.equal((await ts.kubectl(['label', 'namespace', 'prod', 'env=prod'])).code, 0);
  assert.equal((await ts.kubectl(['create', 'namespace', 'dev'])).code, 0);
  await configure('Validating', 'selectors', [
    {
      name: 'prod-only.example.com',
      url: hook.url('/validate'),
      scenario: 'selectors',
      extra: `  namespaceSelector:
    matchLabels: {env: prod}
`,
    },
  ]);
  const inNs = (ns: string, name: string): string => widget(name, 'selectors', 'red').replace('namespace: default', `namespace: ${ns}`);
  const prod = await ts.kubectl(['create', '-f', '-'], { stdin: inNs('prod', 'w-prod') });
  assert.match(prod.stderr, /denied the request: red is not an allowed color/);
  const dev = await ts.kubectl(['create', '-f', '-'], { stdin: inNs('dev', 'w-dev') });
  assert.equal(dev.code, 0, dev.stderr);
  // The object selector: objects without the label are not sent.
  const unlabeled = await ts.kubectl(['create', '-f', '-'], { stdin: inNs('prod', 'w-unlabeled').replace('labels: {scenario: selectors}', 'labels: {other: x}') });
  assert.equal(unlabeled.code, 0, unlabeled.stderr);
});

test('matchPolicy Equivalent sends a request at another version converted to the version the rules name; Exact skips it', async () => {
  await configure('Validating', 'equivalent', [
    { name: 'v2-equivalent.example.com', url: hook.url('/validate'), scenario: 'equivalent', apiVersions: '"v2"' },
    { name: 'v2-exact.example.com', url: hook.url('/validate'), scenario: 'exact', apiVersions: '"v2"', extra: '  matchPolicy: Exact\n' },
  ]);
  const r = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-eq', 'equivalent', 'red') });
  assert.match(r.stderr, /admission webhook "v2-equivalent.example.com" denied the request: red is not an allowed color/);
  const [review] = reviewsFor('/validate', 'w-eq');
  assert.deepEqual(review.request.kind, { group: 'example.com', version: 'v2', kind: 'Widget' });
  assert.deepEqual(review.request.resource, { group: 'example.com', version: 'v2', resource: 'widgets' });
  assert.deepEqual(review.request.requestKind, { group: 'example.com', version: 'v1', kind: 'Widget' });
  assert.equal(review.request.object.apiVersion, 'example.com/v2');
  const exact = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-exact', 'exact', 'red') });
  assert.equal(exact.code, 0, exact.stderr);
  const v2 = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-exact-v2', 'exact', 'red', 'example.com/v2') });
  assert.match(v2.stderr, /admission webhook "v2-exact.example.com" denied the request/);
});

test('AdmissionReview v1beta1: the first supported version is used; a denial without status is kube\'s 400 "without explanation"', async () => {
  await configure('Validating', 'beta', [{ name: 'beta.example.com', url: hook.url('/deny-v1beta1'), scenario: 'beta', versions: 'v1beta1, v1' }]);
  const r = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-beta', 'beta') });
  // A Status without a reason: kubectl names none.
  assert.equal(r.stderr.trim(), 'Error from server: error when creating "STDIN": admission webhook "beta.example.com" denied the request without explanation');
  const [review] = reviewsFor('/deny-v1beta1', 'w-beta');
  assert.equal(review.apiVersion, 'admission.k8s.io/v1beta1');
});

test('webhook configurations print as kube prints them', async () => {
  const r = await ts.kubectl(['get', 'validatingwebhookconfigurations', 'failing']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^NAME\s+WEBHOOKS\s+AGE\nfailing\s+7\s+\d+s\n$/);
  // Their OpenAPI is kube's, so kubectl explain walks them.
  const explain = await ts.kubectl(['explain', 'mutatingwebhookconfigurations.webhooks.reinvocationPolicy']);
  assert.equal(explain.code, 0, explain.stderr);
  assert.match(explain.stdout, /FIELD: reinvocationPolicy <string>\n\n\nDESCRIPTION:\n    reinvocationPolicy indicates whether this webhook should be called multiple\n/);
});

test('a service reference, subresource rules, deletes and built-in resources', async () => {
  await configure('Validating', 'more', [
    { name: 'by-service.example.com', url: 'service:/validate', scenario: 'service' },
    { name: 'status-only.example.com', url: hook.url('/deny-all'), scenario: 'status', resources: '"widgets/status"', ops: 'UPDATE' },
    { name: 'deletes.example.com', url: hook.url('/deny-all'), scenario: 'delete', ops: 'DELETE' },
    { name: 'configmaps.example.com', url: hook.url('/deny-all'), scenario: 'configmap', groups: '""', resources: '"configmaps"', ops: 'CREATE' },
  ]);
  const svc = await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-svc', 'service', 'red') });
  assert.match(svc.stderr, /admission webhook "by-service.example.com" denied the request: red is not an allowed color/);
  assert.ok(hook.reviews.some((r) => r.path === '/validate' && r.review.request.name === 'w-svc'));

  // Only the status subresource is refused; the object itself is written.
  assert.equal((await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-status', 'status') })).code, 0);
  assert.equal((await ts.kubectl(['label', 'widget', 'w-status', 'x=y'])).code, 0);
  const status = await ts.kubectl(['patch', 'widget', 'w-status', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Ready"}}']);
  assert.match(status.stderr, /admission webhook "status-only.example.com" denied the request: no UPDATE for you/);
  const [review] = reviewsFor('/deny-all', 'w-status');
  assert.equal(review.request.subResource, 'status');
  assert.equal(review.request.requestSubResource, 'status');

  // Deletes send the old object.
  assert.equal((await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-del', 'delete') })).code, 0);
  const del = await ts.kubectl(['delete', 'widget', 'w-del']);
  assert.match(del.stderr, /admission webhook "deletes.example.com" denied the request: no DELETE for you/);
  const [delReview] = reviewsFor('/deny-all', 'w-del');
  assert.equal(delReview.request.operation, 'DELETE');
  assert.equal(delReview.request.object, null);
  assert.equal(delReview.request.oldObject.metadata.name, 'w-del');
  assert.equal(delReview.request.options.kind, 'DeleteOptions');

  // Built-in resources go through the same webhooks.
  const cm = await ts.kubectl(['create', '-f', '-'], {
    stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1, namespace: default, labels: {scenario: configmap}}\ndata: {a: b}\n',
  });
  assert.equal(cm.stderr.trim(), 'Error from server (Forbidden): error when creating "STDIN": admission webhook "configmaps.example.com" denied the request: no CREATE for you');
  const [cmReview] = reviewsFor('/deny-all', 'cm1');
  assert.deepEqual(cmReview.request.kind, { group: '', version: 'v1', kind: 'ConfigMap' });
});

test('a patched custom resource is pruned as kube prunes it; built-in resources have equivalents too (events)', async () => {
  await configure('Mutating', 'unknown', [{ name: 'unknown.example.com', url: hook.url('/add-unknown'), scenario: 'unknown' }]);
  assert.equal((await ts.kubectl(['create', '-f', '-'], { stdin: widget('w-unknown', 'unknown') })).code, 0);
  const got = JSON.parse((await ts.kubectl(['get', 'widget', 'w-unknown', '-o', 'json'])).stdout);
  assert.deepEqual(got.spec, { color: 'green' });

  // A webhook on events.k8s.io/v1 events is called for a core/v1 Event, converted (matchPolicy Equivalent).
  await configure('Validating', 'events', [
    { name: 'events.example.com', url: hook.url('/deny-all'), scenario: 'events', groups: '"events.k8s.io"', resources: '"events"', ops: 'CREATE' },
  ]);
  const ev = await ts.kubectl(['create', '-f', '-'], {
    stdin: `apiVersion: v1
kind: Event
metadata: {name: ev1, namespace: default, labels: {scenario: events}}
involvedObject: {kind: Pod, name: p, namespace: default}
reason: Started
message: hello
type: Normal
`,
  });
  assert.match(ev.stderr, /admission webhook "events.example.com" denied the request: no CREATE for you/);
  const [review] = reviewsFor('/deny-all', 'ev1');
  assert.deepEqual(review.request.resource, { group: 'events.k8s.io', version: 'v1', resource: 'events' });
  assert.deepEqual(review.request.kind, { group: 'events.k8s.io', version: 'v1', kind: 'Event' });
  assert.deepEqual(review.request.requestResource, { group: '', version: 'v1', resource: 'events' });
  assert.equal(review.request.object.apiVersion, 'events.k8s.io/v1');
  assert.equal(review.request.object.note, 'hello');
});
