// A default on an embedded resource may carry metadata fields ObjectMeta does not have: the CRD is accepted
// (kube prunes an embedded resource's metadata as ObjectMeta, not as unknown fields), and the objects it
// defaults carry only ObjectMeta's fields.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, CRONTAB_CRD, type Api } from './helpers.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(async () => {
  await api?.close();
});

const embedded = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };

test('embedded-resource defaults with unknown metadata fields: CRD accepted, objects get ObjectMeta only', async () => {
  const crd = structuredClone(CRONTAB_CRD) as any;
  crd.spec.versions[0].schema.openAPIV3Schema.properties.spec = {
    type: 'object',
    properties: {
      template: { ...embedded, default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', unknownField: 1, labels: { a: 'b' } }, spec: { x: 1 } } },
      holder: {
        type: 'object',
        properties: { inner: embedded },
        default: { inner: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { annotations: { q: 'r' }, bogus: { deep: true } } } },
      },
    },
  };
  await installCronTab(api, crd);
  const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';
  const created = await api.req('POST', base, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'd' }, spec: {} });
  assert.equal(created.status, 201, created.text);
  const want = {
    holder: { inner: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { annotations: { q: 'r' } } } },
    template: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' }, name: 'p' }, spec: { x: 1 } },
  };
  assert.deepEqual(created.json.spec, want);
  assert.deepEqual((await api.req('GET', `${base}/d`)).json.spec, want);
});
