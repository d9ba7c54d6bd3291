// The /scale subresource over HTTP, as kube-apiserver serves it (apiextensions ScaleREST): the Scale
// read through the CRD's three paths, writes going through the resource's own validation, and the
// errors for objects without spec replicas.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { installCronTab, startApi, type Api } from './helpers.js';

const CRD = readFileSync(new URL('../fixtures/crontab-subresources-crd.yaml', import.meta.url), 'utf8');


let api: Api;
const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const http = async (method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; json: any }> =>
  api.req(method, path, body, body === undefined ? {} : { 'Content-Type': contentType });

before(async () => {
  api = await startApi();
  await installCronTab(api, parse(CRD));
  const r = await http('POST', base, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-new-cron-object' }, spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 5 } });
  assert.equal(r.status, 201);
});
after(async () => {
  await api?.close();
});

test('GET /scale: an autoscaling/v1 Scale from the three paths', async () => {
  let r = await http('PATCH', `${base}/my-new-cron-object/status`, { status: { replicas: 2, labelSelector: 'app=cron' } }, 'application/merge-patch+json');
  assert.equal(r.status, 200);
  r = await http('GET', `${base}/my-new-cron-object/scale`);
  assert.equal(r.status, 200);
  const obj = await http('GET', `${base}/my-new-cron-object`);
  assert.deepEqual(r.json, {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: 'my-new-cron-object',
      namespace: 'default',
      uid: obj.json['metadata'].uid,
      resourceVersion: obj.json['metadata'].resourceVersion,
      creationTimestamp: obj.json['metadata'].creationTimestamp,
    },
    spec: { replicas: 5 },
    status: { replicas: 2, selector: 'app=cron' },
  });
});

test('PUT and PATCH /scale write replicas back through the resource validation', async () => {
  const cur = await http('GET', `${base}/my-new-cron-object/scale`);
  let r = await http('PUT', `${base}/my-new-cron-object/scale`, { ...cur.json, spec: { replicas: 7 } });
  assert.equal(r.status, 200);
  assert.equal(r.json['spec'].replicas, 7);
  // A stale resourceVersion in the Scale is a precondition.
  r = await http('PUT', `${base}/my-new-cron-object/scale`, { ...cur.json, spec: { replicas: 8 } });
  assert.equal(r.status, 409);
  assert.equal(r.json['reason'], 'Conflict');
  // The resource's schema still applies: maximum 10.
  r = await http('PATCH', `${base}/my-new-cron-object/scale`, { spec: { replicas: 11 } }, 'application/merge-patch+json');
  assert.equal(r.status, 422);
  assert.equal(r.json['message'], 'CronTab.stable.example.com "my-new-cron-object" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10');
  r = await http('PATCH', `${base}/my-new-cron-object/scale`, [{ op: 'replace', path: '/spec/replicas', value: 4 }], 'application/json-patch+json');
  assert.equal(r.status, 200);
  assert.equal(r.json['spec'].replicas, 4);
});

test('without spec replicas: GET is an internal error, a patch that does not set them is refused', async () => {
  let r = await http('POST', base, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'empty' }, spec: {} });
  assert.equal(r.status, 201);
  r = await http('GET', `${base}/empty/scale`);
  assert.equal(r.status, 500);
  assert.equal(r.json['message'], 'Internal error occurred: the spec replicas field ".spec.replicas" does not exist');
  r = await http('PATCH', `${base}/empty/scale`, { status: { replicas: 1 } }, 'application/merge-patch+json');
  assert.equal(r.status, 400);
  assert.equal(r.json['message'], 'the spec replicas field ".spec.replicas" cannot be empty');
  r = await http('PATCH', `${base}/empty/scale`, { spec: { replicas: 2 } }, 'application/merge-patch+json');
  assert.equal(r.status, 200);
  assert.equal(r.json['spec'].replicas, 2);
});
