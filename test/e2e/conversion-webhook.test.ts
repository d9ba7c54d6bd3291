// The seed's webhook conversion example end to end: a real HTTPS conversion webhook (its own CA, reached as
// service example-conversion-webhook-server.default through --service-resolver, or by URL) converts CronTab
// v1beta1 `hostPort` <-> v1 `host`/`port`, for kubectl's get, list, watch, create, apply, patch and the
// storage version on writes; reviews are batched; misbehaving webhooks fail requests as kube does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { parse as parseYaml } from 'yaml';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';
import { startConversionWebhook, type ConversionWebhook } from '../fixtures/conversion-webhook.js';
import { mappedServiceResolver, parseServiceMappings } from '../../src/conversion/service-map.js';
import { parsePrometheusText, samples, total } from '../server/prometheus-text.js';

// The seed's CRD ("Configure CustomResourceDefinition to use conversion webhooks"), with a real caBundle.
const crdYaml = (caBundle: string, extra = ''): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.example.com
spec:
  group: example.com
  versions:
  - name: v1beta1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          hostPort:
            type: string
          count:
            type: integer
  - name: v1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          host:
            type: string
          port:
            type: string
          count:
            type: integer
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: ["v1","v1beta1"]
      clientConfig:
        service:
          namespace: default
          name: example-conversion-webhook-server
          path: /crdconvert
        caBundle: "${caBundle}"
${extra}  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
`;

let s: TestServer;
let hook: ConversionWebhook;
const KEY = '/registry/example.com/crontabs/default/';

async function storedAs(name: string): Promise<any> {
  const kv = await s.kv.get(KEY + name);
  assert.ok(kv, `${name} stored`);
  return JSON.parse(kv.value);
}

async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await s.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

before(async () => {
  requireKubectl();
  hook = await startConversionWebhook();
  s = await startTestServer({ serviceResolver: mappedServiceResolver(parseServiceMappings(`default/example-conversion-webhook-server=127.0.0.1:${hook.port}`)) });
  await ok(['apply', '-f', s.file('crd.yaml', crdYaml(hook.caBundle))]);
  await ok(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.example.com']);
  await ok(['apply', '-f', '-'], 'apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: local-crontab\nhostPort: "localhost:1234"\n');
});
after(async () => {
  await s?.close();
  await hook?.close();
});

test('an object stored at v1beta1 reads at v1 through the webhook; kubectl prefers v1', async () => {
  assert.equal((await storedAs('local-crontab')).hostPort, 'localhost:1234');
  hook.reviews.length = 0;
  const y = parseYaml(await ok(['get', 'crontab', 'local-crontab', '-o', 'yaml'])) as any;
  assert.equal(y.apiVersion, 'example.com/v1');
  assert.equal(y.host, 'localhost');
  assert.equal(y.port, '1234');
  assert.equal(y.hostPort, undefined);
  const review = hook.reviews.at(-1);
  assert.equal(review.apiVersion, 'apiextensions.k8s.io/v1', 'the first of conversionReviewVersions');
  assert.equal(review.kind, 'ConversionReview');
  assert.equal(review.path, '/crdconvert?timeout=30s');
  assert.equal(review.request.desiredAPIVersion, 'example.com/v1');
  assert.match(review.request.uid, /^[0-9a-f-]{36}$/);
  assert.equal(review.request.objects.length, 1);
  assert.equal(review.request.objects[0].hostPort, 'localhost:1234');
  // Reading at the stored version needs no webhook.
  const before = hook.reviews.length;
  const beta = parseYaml(await ok(['get', 'crontabs.v1beta1.example.com', 'local-crontab', '-o', 'yaml'])) as any;
  assert.equal(beta.hostPort, 'localhost:1234');
  assert.equal(hook.reviews.length, before);
});

test('writes at v1 are stored at v1beta1 through the webhook; lists convert in one review', async () => {
  await ok(['apply', '-f', '-'], 'apiVersion: example.com/v1\nkind: CronTab\nmetadata:\n  name: remote-crontab\nhost: example.com\nport: "2345"\n');
  const stored = await storedAs('remote-crontab');
  assert.equal(stored.apiVersion, 'example.com/v1beta1');
  assert.equal(stored.hostPort, 'example.com:2345');
  assert.equal(stored.host, undefined);

  hook.reviews.length = 0;
  const table = squeeze(await ok(['get', 'crontabs', '-o', 'custom-columns=NAME:.metadata.name,HOST:.host,PORT:.port']));
  assert.equal(table, 'NAME HOST PORT\nlocal-crontab localhost 1234\nremote-crontab example.com 2345');
  assert.equal(hook.reviews.length, 1, 'one review for the whole list');
  assert.deepEqual(hook.reviews[0].request.objects.map((o: any) => o.metadata.name), ['local-crontab', 'remote-crontab']);

  // A merge patch at v1: read (converted), patched, written back at v1beta1.
  await ok(['patch', 'crontab', 'remote-crontab', '--type=merge', '-p', '{"port":"3456"}']);
  assert.equal((await storedAs('remote-crontab')).hostPort, 'example.com:3456');
  assert.equal((await ok(['get', 'crontab', 'remote-crontab', '-o', 'jsonpath={.host}:{.port}'])).trim(), 'example.com:3456');
});

test('watch at v1 sees objects written at v1beta1, converted', async () => {
  const child = spawn('kubectl', ['--kubeconfig', s.kubeconfig, 'get', 'crontabs.v1.example.com', '-w', '--output-watch-events', '-o', 'json'], {
    env: { ...process.env, HOME: s.home },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  // kubectl prints each event as indented JSON; look at them one by one.
  const events = (): Array<{ type: string; object: any }> =>
    out
      .split(/\n(?=\{)/)
      .filter((t) => t.trim().startsWith('{'))
      .flatMap((t) => {
        try {
          return [JSON.parse(t)];
        } catch {
          return [];
        }
      });
  const seen = (type: string, name: string, host: string, port: string): boolean =>
    events().some((e) => e.type === type && e.object.metadata.name === name && e.object.host === host && e.object.port === port && e.object.apiVersion === 'example.com/v1');
  const waitFor = async (type: string, name: string, host: string, port: string): Promise<void> => {
    for (let i = 0; i < 100 && !seen(type, name, host, port); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(seen(type, name, host, port), `${type} ${name} ${host}:${port} in\n${out}`);
  };
  try {
    await waitFor('ADDED', 'local-crontab', 'localhost', '1234');
    await ok(['apply', '-f', '-'], 'apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: watched\nhostPort: "w.example.com:80"\n');
    await waitFor('ADDED', 'watched', 'w.example.com', '80');
    await ok(['patch', 'crontabs.v1beta1.example.com', 'watched', '--type=merge', '-p', '{"hostPort":"w.example.com:81"}']);
    await waitFor('MODIFIED', 'watched', 'w.example.com', '81');
    await ok(['delete', 'crontab', 'watched']);
    await waitFor('DELETED', 'watched', 'w.example.com', '81');
  } finally {
    child.kill();
  }
});

test('server-side apply compares managers at their own versions through the webhook', async () => {
  const a = 'apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: ssa\nhostPort: "localhost:1234"\n';
  await ok(['apply', '--server-side', '--field-manager=alice', '-f', s.file('ssa-a.yaml', a)]);
  // bob changes the host at v1; at alice's version (v1beta1) that is her hostPort changing: a conflict only the
  // webhook's conversion can reveal.
  const b = 'apiVersion: example.com/v1\nkind: CronTab\nmetadata:\n  name: ssa\nhost: other\nport: "1234"\n';
  const conflict = await s.kubectl(['apply', '--server-side', '--field-manager=bob', '-f', s.file('ssa-b.yaml', b)]);
  assert.equal(conflict.code, 1);
  assert.ok(conflict.stderr.includes('Apply failed with 1 conflict: conflict with "alice": .hostPort'), conflict.stderr);
  await ok(['apply', '--server-side', '--field-manager=bob', '--force-conflicts', '-f', s.file('ssa-b.yaml', b)]);
  const obj = JSON.parse(await ok(['get', 'crontabs.v1.example.com', 'ssa', '-o', 'json', '--show-managed-fields']));
  assert.equal(obj.host, 'other');
  assert.deepEqual(
    obj.metadata.managedFields.map((e: any) => [e.manager, e.apiVersion, e.fieldsV1]),
    [['bob', 'example.com/v1', { 'f:host': {}, 'f:port': {} }]],
  );
  await ok(['delete', 'crontabs.v1.example.com', 'ssa']);
});

test('the webhook decides labels and annotations; other metadata changes are ignored', async () => {
  try {
    hook.mode = 'change-labels';
    const y = parseYaml(await ok(['get', 'crontab', 'local-crontab', '-o', 'yaml'])) as any;
    assert.deepEqual(y.metadata.labels, { converted: 'yes' });
    hook.mode = 'change-other-metadata';
    const z = parseYaml(await ok(['get', 'crontab', 'local-crontab', '-o', 'yaml'])) as any;
    assert.equal(z.metadata.finalizers, undefined);
    assert.equal(z.metadata.generation, 1);
    assert.equal(z.host, 'localhost');
  } finally {
    hook.mode = 'ok';
  }
});

test('misbehaving webhooks fail the request with kube\'s errors', async () => {
  const cases: Array<[ConversionWebhook['mode'], string]> = [
    ['failed', 'conversion webhook for example.com/v1beta1, Kind=CronTab failed: conversion is switched off'],
    ['wrong-uid', 'conversion webhook for example.com/v1beta1, Kind=CronTab failed: expected response.uid='],
    ['change-name', 'conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid object: must have the same name: local-crontab != renamed'],
    ['wrong-api-version', 'conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid object at index 0: invalid groupVersion (expected example.com/v1, received example.com/v9)'],
    ['wrong-count', 'conversion webhook for example.com/v1beta1, Kind=CronTab returned 0 objects, expected 1'],
    ['http-500', 'conversion webhook for example.com/v1beta1, Kind=CronTab failed: an error on the server ("webhook exploded") has prevented the request from succeeding'],
    ['garbage', "conversion webhook for example.com/v1beta1, Kind=CronTab failed: couldn't get version/kind; json parse error"],
  ];
  try {
    for (const [mode, message] of cases) {
      hook.mode = mode;
      const r = await s.kubectl(['get', 'crontab', 'local-crontab']);
      assert.notEqual(r.code, 0, mode);
      assert.ok(r.stderr.startsWith(`Error from server: ${message}`), `${mode}: ${r.stderr}`);
    }
    // The same over HTTP: a 500 Status with no reason, the converter's text as its message.
    hook.mode = 'wrong-count';
    const raw = await s.kubectl(['get', '--raw', '/apis/example.com/v1/namespaces/default/crontabs/local-crontab']);
    assert.notEqual(raw.code, 0);
    assert.match(raw.stderr, /^Error from server: conversion webhook for example\.com\/v1beta1, Kind=CronTab returned 0 objects, expected 1$/m);
    // Lists fail alike, with the list wording for a batch.
    const r = await s.kubectl(['get', 'crontabs']);
    assert.match(r.stderr, /^Error from server: conversion webhook for example\.com\/v1beta1, Kind=CronTab returned 1 objects, expected 2/);
    // A write that needs converting fails and stores nothing.
    hook.mode = 'failed';
    const w = await s.kubectl(['create', '-f', '-'], { stdin: 'apiVersion: example.com/v1\nkind: CronTab\nmetadata:\n  name: never\nhost: a\nport: "1"\n' });
    assert.notEqual(w.code, 0);
    assert.match(w.stderr, /conversion webhook for example\.com\/v1, Kind=CronTab failed: conversion is switched off/);
    assert.equal(await s.kv.get(KEY + 'never'), undefined);
  } finally {
    hook.mode = 'ok';
  }
  // The seed's own failure: a hostPort without a port.
  await ok(['apply', '-f', '-'], 'apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: no-port\nhostPort: "just-a-host"\n');
  const r = await s.kubectl(['get', 'crontab', 'no-port']);
  assert.equal(r.stderr.trim(), 'Error from server: conversion webhook for example.com/v1beta1, Kind=CronTab failed: hostPort could not be parsed into a separate host and port');
  await ok(['delete', 'crontabs.v1beta1.example.com', 'no-port']);
});

test('v1beta1 ConversionReviews, the url form, and a caBundle that does not match', async () => {
  const crdPatch = (p: unknown) => ok(['patch', 'crd', 'crontabs.example.com', '--type=merge', '-p', JSON.stringify(p)]);
  const converted = async (): Promise<string> => (await ok(['get', 'crontab', 'local-crontab', '-o', 'jsonpath={.host}'])).trim();
  const eventually = async (check: () => Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  };

  await crdPatch({ spec: { conversion: { webhook: { conversionReviewVersions: ['v1beta1'] } } } });
  await eventually(async () => (await converted()) === 'localhost' && hook.reviews.at(-1).apiVersion === 'apiextensions.k8s.io/v1beta1');
  assert.equal(hook.reviews.at(-1).apiVersion, 'apiextensions.k8s.io/v1beta1');

  await crdPatch({ spec: { conversion: { webhook: { clientConfig: { service: null, url: `https://127.0.0.1:${hook.port}/by-url` } } } } });
  await eventually(async () => (await converted()) === 'localhost' && hook.reviews.at(-1).path === '/by-url?timeout=30s');
  assert.equal(hook.reviews.at(-1).path, '/by-url?timeout=30s');

  const other = await startConversionWebhook();
  try {
    await crdPatch({ spec: { conversion: { webhook: { clientConfig: { caBundle: other.caBundle } } } } });
    let stderr = '';
    await eventually(async () => {
      stderr = (await s.kubectl(['get', 'crontab', 'local-crontab'])).stderr;
      return stderr.includes('x509');
    });
    assert.equal(
      stderr.trim(),
      `Error from server: conversion webhook for example.com/v1beta1, Kind=CronTab failed: Post "https://127.0.0.1:${hook.port}/by-url?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  } finally {
    await other.close();
    await crdPatch({ spec: { conversion: { webhook: { clientConfig: { caBundle: hook.caBundle } } } } });
  }
});

test('switching the storage version to v1: new writes are stored at v1 through the webhook', async () => {
  const crd = parseYaml(await ok(['get', 'crd', 'crontabs.example.com', '-o', 'yaml'])) as any;
  crd.spec.versions[0].storage = false;
  crd.spec.versions[1].storage = true;
  await ok(['replace', '-f', '-'], JSON.stringify(crd));
  let stored: any;
  for (let i = 0; i < 100; i++) {
    await ok(['patch', 'crontabs.v1beta1.example.com', 'local-crontab', '--type=merge', '-p', `{"metadata":{"annotations":{"touch":"${i}"}}}`]);
    stored = await storedAs('local-crontab');
    if (stored.apiVersion === 'example.com/v1') break;
  }
  assert.equal(stored.apiVersion, 'example.com/v1');
  assert.equal(stored.host, 'localhost');
  assert.equal(stored.port, '1234');
  const after = parseYaml(await ok(['get', 'crd', 'crontabs.example.com', '-o', 'yaml'])) as any;
  assert.deepEqual(after.status.storedVersions, ['v1beta1', 'v1']);
  assert.equal((await ok(['get', 'crontabs.v1beta1.example.com', 'local-crontab', '-o', 'jsonpath={.hostPort}'])).trim(), 'localhost:1234');
});

test('int64s beyond 2^53 pass through the webhook exactly, both ways', async () => {
  hook.mode = 'ok';
  const MAX = '9223372036854775807';
  // Written at v1beta1, the storage version is v1 now: converted on the way in, and again when read at v1beta1.
  await ok(['create', '-f', '-'], `{"apiVersion":"example.com/v1beta1","kind":"CronTab","metadata":{"name":"big-crontab","namespace":"default"},"hostPort":"h:1","count":${MAX}}`);
  const kv = await s.kv.get(KEY + 'big-crontab');
  assert.ok(kv && kv.value.includes(`"count":${MAX}`) && kv.value.includes('"apiVersion":"example.com/v1"'), kv?.value);
  hook.reviews.length = 0;
  assert.ok((await ok(['get', 'crontabs.v1beta1.example.com', 'big-crontab', '-o', 'json'])).includes(`"count": ${MAX}`));
  assert.equal(hook.reviews.at(-1).request.objects[0].count, BigInt(MAX), 'the review the webhook got');
  assert.equal((await ok(['get', 'crontabs.v1.example.com', 'big-crontab', '-o', 'jsonpath={.count}'])).trim(), MAX);
});

test('each conversion is timed in apiserver_crd_conversion_webhook_duration_seconds, by CRD, versions and outcome', async () => {
  const f = parsePrometheusText(await ok(['get', '--raw', '/metrics']));
  const read = { crd_name: 'crontabs.example.com', from_version: 'v1beta1', to_version: 'v1' };
  assert.ok(total(f, 'apiserver_crd_conversion_webhook_duration_seconds_count', { ...read, succeeded: 'true' }) >= 3);
  assert.ok(total(f, 'apiserver_crd_conversion_webhook_duration_seconds_count', { ...read, succeeded: 'false' }) >= 7, 'the misbehaving webhooks');
  assert.ok(total(f, 'apiserver_crd_conversion_webhook_duration_seconds_count', { crd_name: 'crontabs.example.com', from_version: 'v1', to_version: 'v1beta1', succeeded: 'true' }) >= 1, 'writes at v1');
  assert.deepEqual(
    samples(f, 'apiserver_crd_conversion_webhook_duration_seconds_bucket', { ...read, succeeded: 'true' }).map((b) => b.labels['le']),
    ['0.001', '0.002', '0.004', '0.008', '0.016', '0.032', '0.064', '0.128', '0.256', '0.512', '1.024', '2.048', '4.096', '8.192', '16.384', '+Inf'],
  );
});
