// The test kit as an operator author uses it with node:test: startTestEnv installs the CronTab CRD and a
// validating webhook pointing at the test's own HTTPS server; the client-node operator runs against it
// (leader election, owned ConfigMap and Secret, status); the webhook's denial reaches the client; another
// identity gets kube's 403; reset() leaves the CRDs and nothing else the test made.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { startTestEnv, type TestEnv } from '../../src/testing/index.js';

const CRD = fileURLToPath(new URL('../fixtures/crontab-crd.yaml', import.meta.url));
const OPERATOR = fileURLToPath(new URL('../fixtures/crontab-operator.mjs', import.meta.url));
const GROUP = { group: 'stable.example.com', version: 'v1', plural: 'crontabs' };

let env: TestEnv;
let webhook: Server;
let dir: string;
const reviews: string[] = [];

const webhookConfig = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: crontab-policy
webhooks:
- name: crontabs.stable.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /validate-crontab}
  rules:
  - {apiGroups: [stable.example.com], apiVersions: [v1], operations: [CREATE], resources: [crontabs]}
`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crd-testenv-test-'));
  writeFileSync(join(dir, 'webhook.yaml'), webhookConfig);
  env = await startTestEnv({ crds: [CRD], webhooks: { paths: [join(dir, 'webhook.yaml')] } });
  const w = env.webhook!;
  // The test's webhook server, on the address and certificate the kit made for it: no image named "forbidden".
  webhook = createServer({ cert: w.certPem, key: w.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const review = JSON.parse(body) as { request: { uid: string; object: { metadata: { name: string }; spec?: { image?: string } } } };
      // kube asks with ?timeout=10s; the path is what the configuration named.
      reviews.push(`${new URL(req.url ?? '', 'https://x').pathname} ${review.request.object.metadata.name}`);
      const allowed = review.request.object.spec?.image !== 'forbidden';
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed, status: allowed ? undefined : { code: 403, message: 'images named forbidden are not allowed' } } }));
    });
  });
  await new Promise<void>((r) => webhook.listen(w.port, w.host, r));
});
after(async () => {
  await new Promise<void>((r) => (webhook ? webhook.close(() => r()) : r()));
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const crontab = (name: string, image = 'img') => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { cronSpec: '* * * * */5', image } });

test('the CRD is Established and served: client-node creates a CronTab, the webhook was asked', async () => {
  const kc = await env.kubeConfig();
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  await custom.createNamespacedCustomObject({ ...GROUP, namespace: 'default', body: crontab('first') });
  assert.deepEqual(reviews, ['/validate-crontab first']);
  await assert.rejects(custom.createNamespacedCustomObject({ ...GROUP, namespace: 'default', body: crontab('second', 'forbidden') }), (e: { code?: number; body?: string }) => {
    assert.equal(e.code, 403);
    assert.equal((JSON.parse(String(e.body)) as { message: string }).message, 'admission webhook "crontabs.stable.example.com" denied the request: images named forbidden are not allowed');
    return true;
  });
});

test('the client-node operator reconciles through the kit: owned ConfigMap and Secret, status', async () => {
  const proc: ChildProcess = spawn(process.execPath, [OPERATOR, env.kubeconfigPath, 'op-1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const kc = await env.kubeConfig();
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    await custom.createNamespacedCustomObject({ ...GROUP, namespace: 'default', body: crontab('reconciled') });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const cms = await core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'app.kubernetes.io/managed-by=crontab-operator' });
      const names = cms.items.map((c) => c.metadata?.name);
      if (names.includes('reconciled-config')) break;
      if (Date.now() > deadline) assert.fail(`no ConfigMap for the CronTab: ${JSON.stringify(names)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    proc.kill();
  }
});

test('another identity: a client certificate for bob in devs gets kube\'s 403', async () => {
  const bob = env.user('bob', ['devs']);
  const kc = new k8s.KubeConfig();
  kc.loadFromString(bob.kubeconfig);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  await assert.rejects(custom.listNamespacedCustomObject({ ...GROUP, namespace: 'default' }), (e: { code?: number; body?: string }) => {
    assert.equal(e.code, 403);
    assert.equal((JSON.parse(String(e.body)) as { message: string }).message, 'crontabs.stable.example.com is forbidden: User "bob" cannot list resource "crontabs" in API group "stable.example.com" in the namespace "default"');
    return true;
  });
});

test('reset(): objects and namespaces made since start are gone, the CRD and the webhook stay', async () => {
  const kc = await env.kubeConfig();
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  await core.createNamespace({ body: { metadata: { name: 'scratch' } } });
  await Promise.all(Array.from({ length: 50 }, (_, i) => core.createNamespacedConfigMap({ namespace: 'scratch', body: { metadata: { name: `cm-${i}` } } })));
  const t = Date.now();
  await env.reset();
  const took = Date.now() - t;
  await assert.rejects(core.readNamespace({ name: 'scratch' }), (e: { code?: number }) => e.code === 404);
  assert.deepEqual((await custom.listNamespacedCustomObject({ ...GROUP, namespace: 'default' })).items, []);
  assert.equal((await core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'app.kubernetes.io/managed-by=crontab-operator' })).items.length, 0);
  // Still installed: a CronTab can be made again, and the webhook still judges it.
  reviews.length = 0;
  await custom.createNamespacedCustomObject({ ...GROUP, namespace: 'default', body: crontab('after-reset') });
  assert.deepEqual(reviews, ['/validate-crontab after-reset']);
  // What the server keeps in default is back as it was (the default ServiceAccount, kube-root-ca.crt).
  assert.ok((await core.readNamespacedServiceAccount({ name: 'default', namespace: 'default' })).metadata?.uid);
  console.log(`reset of 50 ConfigMaps, a namespace and the operator's objects: ${took} ms`);
});
