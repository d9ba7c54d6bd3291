// events.k8s.io/v1beta1 is not served, as on kube-apiserver 1.33: it was deprecated in 1.22 and removed in
// 1.25 (k8s.io/api events/v1beta1 `+k8s:prerelease-lifecycle-gen:deprecated=1.22`, so APILifecycleRemoved is
// 1.25), kube's events REST storage provider builds only v1 storage, and no --runtime-config brings it back.
// So discovery names only v1 for the group, every v1beta1 path is Go's plain 404 page (the request falls
// through kube's handlers to http.NotFound), and OpenAPI has no v1beta1 document.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(async () => {
  await api?.close();
});

const V1 = { groupVersion: 'events.k8s.io/v1', version: 'v1' };
const AGGREGATED = {
  v2: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  v2beta1: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
};

test('discovery names only events.k8s.io/v1', async () => {
  const list = await api.req('GET', '/apis');
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.json.groups.find((g: any) => g.name === 'events.k8s.io'),
    { name: 'events.k8s.io', versions: [V1], preferredVersion: V1 },
  );
  const group = await api.req('GET', '/apis/events.k8s.io');
  assert.equal(group.status, 200);
  assert.deepEqual(group.json, { kind: 'APIGroup', apiVersion: 'v1', name: 'events.k8s.io', versions: [V1], preferredVersion: V1 });
  for (const [format, accept] of Object.entries(AGGREGATED)) {
    const r = await api.req('GET', '/apis', undefined, { Accept: accept });
    assert.equal(r.status, 200, format);
    const events = r.json.items.find((g: any) => g.metadata.name === 'events.k8s.io');
    assert.deepEqual(events.versions.map((v: any) => v.version), ['v1'], format);
    assert.deepEqual(events.versions[0].resources.map((res: any) => res.resource), ['events'], format);
  }
  // No group anywhere lists the removed version.
  const all = await api.req('GET', '/apis', undefined, { Accept: AGGREGATED.v2 });
  const versions = all.json.items.flatMap((g: any) => g.versions.map((v: any) => `${g.metadata.name}/${v.version}`));
  assert.ok(!versions.includes('events.k8s.io/v1beta1'), versions.join(' '));
});

test('every events.k8s.io/v1beta1 path is the plain 404 page, whatever the verb', async () => {
  const event = { apiVersion: 'events.k8s.io/v1beta1', kind: 'Event', metadata: { name: 'e' } };
  const requests: [string, string, unknown?][] = [
    ['GET', '/apis/events.k8s.io/v1beta1'],
    ['GET', '/apis/events.k8s.io/v1beta1/'],
    ['GET', '/apis/events.k8s.io/v1beta1/events'],
    ['GET', '/apis/events.k8s.io/v1beta1/namespaces/default/events'],
    ['GET', '/apis/events.k8s.io/v1beta1/namespaces/default/events?watch=true'],
    ['GET', '/apis/events.k8s.io/v1beta1/watch/namespaces/default/events'],
    ['GET', '/apis/events.k8s.io/v1beta1/namespaces/default/events/e'],
    ['POST', '/apis/events.k8s.io/v1beta1/namespaces/default/events', event],
    ['PUT', '/apis/events.k8s.io/v1beta1/namespaces/default/events/e', event],
    ['DELETE', '/apis/events.k8s.io/v1beta1/namespaces/default/events/e'],
    ['DELETE', '/apis/events.k8s.io/v1beta1/namespaces/default/events'],
  ];
  for (const [method, path, body] of requests) {
    const r = await api.req(method, path, body);
    assert.equal(r.status, 404, `${method} ${path}`);
    assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8', `${method} ${path}`);
    assert.equal(r.text, '404 page not found\n', `${method} ${path}`);
  }
  const patch = await api.req('PATCH', '/apis/events.k8s.io/v1beta1/namespaces/default/events/e', { note: 'x' }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(patch.status, 404);
  assert.equal(patch.text, '404 page not found\n');
  // Nothing was written through any of them.
  const listed = await api.req('GET', '/api/v1/namespaces/default/events');
  assert.deepEqual(listed.json.items, []);
});

test('a v1beta1 Event body sent to a served version: the version mismatch of kube (the type is still in its scheme)', async () => {
  const body = {
    apiVersion: 'events.k8s.io/v1beta1',
    kind: 'Event',
    metadata: { name: 'old-client' },
    eventTime: '2024-05-01T10:00:00.000000Z',
    reportingController: 'example.com/old',
    reportingInstance: 'old-0',
    action: 'Run',
    reason: 'Ran',
    regarding: { kind: 'ConfigMap', namespace: 'default', name: 'c' },
    type: 'Normal',
  };
  for (const [path, expected] of [
    ['/apis/events.k8s.io/v1/namespaces/default/events', 'events.k8s.io/v1'],
    ['/api/v1/namespaces/default/events', 'v1'],
  ]) {
    const r = await api.req('POST', path, body);
    assert.equal(r.status, 400, path);
    assert.equal(
      r.text,
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the API version in the data (events.k8s.io/v1beta1) does not match the expected API version (${expected})","reason":"BadRequest","code":400}\n`,
    );
  }
});

test('OpenAPI: no events.k8s.io/v1beta1 document, path or definition', async () => {
  const index = await api.req('GET', '/openapi/v3');
  assert.equal(index.status, 200);
  assert.ok('apis/events.k8s.io/v1' in index.json.paths);
  assert.ok(!('apis/events.k8s.io/v1beta1' in index.json.paths));
  // kube-aggregator's OpenAPI v3 proxy answers a group-version it does not know with a bare 404.
  const doc = await api.req('GET', '/openapi/v3/apis/events.k8s.io/v1beta1');
  assert.equal(doc.status, 404);
  assert.equal(doc.text, '');
  assert.equal(doc.headers.get('content-type'), null);
  const v2 = await api.req('GET', '/openapi/v2');
  assert.equal(v2.status, 200);
  const paths = Object.keys(v2.json.paths);
  assert.ok(paths.includes('/apis/events.k8s.io/v1/namespaces/{namespace}/events'));
  assert.deepEqual(paths.filter((p) => p.startsWith('/apis/events.k8s.io/') && !p.startsWith('/apis/events.k8s.io/v1/')), []);
  assert.deepEqual(Object.keys(v2.json.definitions).filter((d) => d.startsWith('io.k8s.api.events.v1beta1')), []);
});
