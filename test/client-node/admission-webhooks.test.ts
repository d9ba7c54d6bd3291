// @kubernetes/client-node through admission webhooks: configurations created with its typed
// AdmissionregistrationV1Api, a CronTab defaulted by a real HTTPS mutating webhook (the answer to the create
// carries the default, the Warning header reaches the client), and a denial read back as kube's Status.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { API_VERSION, GROUP, PLURAL, VERSION, crontab, crontabCrd, expectStatus, installCrd, sleep, startWithClients, type Clients } from './helpers.js';
import { startAdmissionWebhook, type AdmissionWebhookServer } from '../fixtures/admission-webhook.js';

let c: Clients;
let hook: AdmissionWebhookServer;
let admission: k8s.AdmissionregistrationV1Api;

before(async () => {
  hook = await startAdmissionWebhook();
  c = await startWithClients();
  admission = c.kc.makeApiClient(k8s.AdmissionregistrationV1Api);
  await installCrd(c, crontabCrd());
});

after(async () => {
  await c?.server.close();
  await hook?.close();
});

const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [GROUP], apiVersions: [VERSION], resources: [PLURAL] }];

test('client-node creates webhook configurations and custom resources through them', async () => {
  const mutating = await admission.createMutatingWebhookConfiguration({
    body: {
      metadata: { name: 'crontab-defaults' },
      webhooks: [{ name: 'replicas.example.com', clientConfig: { url: hook.url('/default-replicas'), caBundle: hook.caBundle }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    },
  });
  // v1 defaults, as the server stores them.
  const m = mutating.webhooks![0]!;
  assert.equal(m.failurePolicy, 'Fail');
  assert.equal(m.matchPolicy, 'Equivalent');
  assert.equal(m.timeoutSeconds, 10);
  assert.equal(m.reinvocationPolicy, 'Never');
  assert.equal(m.rules![0]!.scope, '*');
  await admission.createValidatingWebhookConfiguration({
    body: {
      metadata: { name: 'crontab-checks' },
      webhooks: [{ name: 'image.example.com', clientConfig: { url: hook.url('/validate'), caBundle: hook.caBundle }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    },
  });
  const list = await admission.listValidatingWebhookConfiguration();
  assert.deepEqual(list.items.map((x) => x.metadata?.name), ['crontab-checks']);
  await sleep(300); // the server's informers see the new configurations

  // The Warning header reaches the client with the answer.
  const info = await c.custom.createNamespacedCustomObjectWithHttpInfo({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, body: crontab('defaulted') });
  assert.equal(info.httpStatusCode, 201);
  const created = info.data as { apiVersion: string; spec: { replicas?: number } };
  assert.equal(created.apiVersion, API_VERSION);
  assert.equal(created.spec.replicas, 1);
  assert.match(String(info.headers['warning']), /299 - "replicas defaulted to 1"/);

  const denied = await expectStatus(
    c.custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, body: crontab('refused', { cronSpec: '* * * * *', image: 'forbidden' }) }),
    422,
  );
  assert.equal(denied.message, 'admission webhook "image.example.com" denied the request: image "forbidden" is not allowed');
  assert.equal(denied.reason, 'Invalid');

  // Deleting the configuration stops the webhook.
  await admission.deleteValidatingWebhookConfiguration({ name: 'crontab-checks' });
  await sleep(300);
  const allowed = (await c.custom.createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    namespace: 'default',
    plural: PLURAL,
    body: crontab('allowed-now', { cronSpec: '* * * * *', image: 'forbidden' }),
  })) as { spec: { replicas?: number } };
  assert.equal(allowed.spec.replicas, 1);
});
