// Verbs are enforced in one place for every resource: what a resource does not serve is a 405 and
// changes nothing. Namespaces serve no deletecollection (kube registers no such route).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(() => api.close());

const GO_RESTFUL_405 = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server does not allow this method on the requested resource',
  reason: 'MethodNotAllowed',
  details: {},
  code: 405,
};

test('DELETE /api/v1/namespaces is 405 and deletes nothing', async () => {
  await api.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'keep-me' } });
  const before = (await api.req('GET', '/api/v1/namespaces')).json.items.map((n: any) => n.metadata.name);
  const r = await api.req('DELETE', '/api/v1/namespaces');
  assert.equal(r.status, 405);
  assert.deepEqual(r.json, GO_RESTFUL_405);
  const after = (await api.req('GET', '/api/v1/namespaces')).json;
  assert.deepEqual(after.items.map((n: any) => n.metadata.name), before);
  assert.ok(after.items.every((n: any) => !n.metadata.deletionTimestamp));
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'keep-me']) assert.ok(before.includes(name), name);
});

test('a namespace\'s finalize takes PUT only; status takes get, update and patch', async () => {
  let r = await api.req('GET', '/api/v1/namespaces/default/finalize');
  assert.equal(r.status, 405);
  assert.deepEqual(r.json, GO_RESTFUL_405);
  r = await api.req('PATCH', '/api/v1/namespaces/default/finalize', {}, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.status, 405);
  r = await api.req('DELETE', '/api/v1/namespaces/default/status');
  assert.equal(r.status, 405);
  assert.deepEqual(r.json, GO_RESTFUL_405);
  r = await api.req('GET', '/api/v1/namespaces/default/status');
  assert.equal(r.status, 200);
  assert.equal(r.json.metadata.name, 'default');
});

test('the immortal namespaces refuse deletion through the admission chain', async () => {
  const r = await api.req('DELETE', '/api/v1/namespaces/kube-system');
  assert.equal(r.status, 403);
  assert.equal(r.json.message, 'namespaces "kube-system" is forbidden: this namespace may not be deleted');
  const ns = (await api.req('GET', '/api/v1/namespaces/kube-system')).json;
  assert.equal(ns.metadata.deletionTimestamp, undefined);
});

test('a built-in PATCH with a content type its route does not consume gets go-restful\'s 415', async () => {
  const r = await api.req('PATCH', '/api/v1/namespaces/default', '{}', { 'Content-Type': 'application/json' });
  assert.equal(r.status, 415);
  assert.deepEqual(r.json, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: '415: Unsupported Media Type',
    reason: 'UnsupportedMediaType',
    details: {},
    code: 415,
  });
});
