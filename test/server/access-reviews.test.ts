// The review resources over HTTP, as kube-apiserver answers them: 201 with the object (managed fields recorded,
// creationTimestamp null), never stored, only POST; discovery without a storage version hash; and the
// Impersonate-* headers (repeated groups, extras) reaching SelfSubjectReview.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startApi, type Api } from './helpers.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(() => api.close());

const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

test('a SelfSubjectAccessReview is answered 201 with the object, managed fields and status; nothing is stored', async () => {
  const r = await api.req('POST', `${SSAR}?fieldManager=tester`, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } });
  assert.equal(r.status, 201, r.text);
  const managed = r.json.metadata.managedFields;
  assert.equal(r.text.slice(0, r.text.indexOf('"managedFields"')), '{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null,');
  assert.deepEqual(
    managed.map((m: any) => [m.manager, m.operation, m.apiVersion, JSON.stringify(m.fieldsV1)]),
    [['tester', 'Update', 'authorization.k8s.io/v1', '{"f:spec":{"f:resourceAttributes":{".":{},"f:resource":{},"f:verb":{}}}}']],
  );
  assert.deepEqual(r.json.spec, { resourceAttributes: { verb: 'get', resource: 'pods' } });
  assert.deepEqual(r.json.status, { allowed: true });
  for (const method of ['GET', 'DELETE']) {
    const refused = await api.req(method, SSAR);
    assert.equal(refused.status, 405);
    assert.equal(refused.json.message, 'the server does not allow this method on the requested resource');
  }
  assert.equal((await api.req('GET', `${SSAR}/x`)).status, 405);
  const stored = (await api.kv.list('/registry/')).items.map((kv) => kv.key);
  assert.ok(stored.length > 0 && !stored.some((k) => k.includes('review')), stored.join(' '));
});

test('LocalSubjectAccessReview takes the namespace of its URL; a different one in the body is kube\'s 400', async () => {
  const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec: { groups: ['system:masters'], resourceAttributes: { namespace: 'ns1', verb: 'get' } } };
  const ok = await api.req('POST', '/apis/authorization.k8s.io/v1/namespaces/ns1/localsubjectaccessreviews', body);
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.json.metadata.namespace, 'ns1');
  assert.deepEqual(ok.json.status, { allowed: true });
  const other = await api.req('POST', '/apis/authorization.k8s.io/v1/namespaces/ns2/localsubjectaccessreviews', { ...body, metadata: { namespace: 'ns1' } });
  assert.equal(other.status, 400);
  assert.equal(other.json.message, 'the namespace of the provided object does not match the namespace sent on the request');
});

test('discovery lists the reviews with verb create and no storage version hash', async () => {
  const authz = await api.req('GET', '/apis/authorization.k8s.io/v1');
  assert.deepEqual(
    authz.json.resources.map((r: any) => [r.name, r.namespaced, r.kind, r.verbs, r.storageVersionHash]),
    [
      ['localsubjectaccessreviews', true, 'LocalSubjectAccessReview', ['create'], undefined],
      ['selfsubjectaccessreviews', false, 'SelfSubjectAccessReview', ['create'], undefined],
      ['selfsubjectrulesreviews', false, 'SelfSubjectRulesReview', ['create'], undefined],
      ['subjectaccessreviews', false, 'SubjectAccessReview', ['create'], undefined],
    ],
  );
  const agg = await api.req('GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
  const authn = agg.json.items.find((g: any) => g.metadata.name === 'authentication.k8s.io');
  assert.deepEqual(authn.versions[0].resources, [
    { resource: 'selfsubjectreviews', responseKind: { group: '', version: '', kind: 'SelfSubjectReview' }, scope: 'Cluster', singularResource: 'selfsubjectreview', verbs: ['create'] },
    { resource: 'tokenreviews', responseKind: { group: '', version: '', kind: 'TokenReview' }, scope: 'Cluster', singularResource: 'tokenreview', verbs: ['create'] },
  ]);
});

function post(path: string, headers: Record<string, string | string[]>): Promise<{ status: number; body: string }> {
  const url = new URL(api.url + path);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }));
  });
}

test('SelfSubjectReview under Impersonate-* headers: repeated groups, extras and the uid', async () => {
  const r = await post('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    'Impersonate-User': 'jane',
    'Impersonate-Group': ['devs', 'ops'],
    'Impersonate-Uid': 'u-7',
    'Impersonate-Extra-Scopes': ['view', 'edit'],
    'Impersonate-Extra-Example.com%2fteam': 'blue',
  });
  assert.equal(r.status, 201, r.body);
  assert.deepEqual(JSON.parse(r.body).status, {
    userInfo: { username: 'jane', uid: 'u-7', groups: ['devs', 'ops', 'system:authenticated'], extra: { 'example.com/team': ['blue'], scopes: ['view', 'edit'] } },
  });
  const bad = await post('/apis/authentication.k8s.io/v1/selfsubjectreviews', { 'Impersonate-Uid': 'u-7' });
  assert.equal(bad.status, 500);
  assert.equal(bad.body, 'Internal Server Error: "/apis/authentication.k8s.io/v1/selfsubjectreviews": requested [{UID  u-7  authentication.k8s.io/v1  }] without impersonating a user\n');
});
