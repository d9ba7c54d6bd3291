// Small hostile-input edges (issue 15): protobuf bodies for custom resources, percent-encoded names in
// the path, and methods no verb maps to.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, type Api } from '../server/helpers.js';

const BASE = '/apis/stable.example.com/v1/namespaces/default/crontabs';
let api: Api;
before(async () => {
  api = await startApi();
  await installCronTab(api);
});
after(() => api.close());

const send = async (method: string, path: string, body?: Buffer, contentType?: string): Promise<{ status: number; json: any }> => {
  const init: RequestInit = { method };
  if (body) Object.assign(init, { body: new Uint8Array(body), headers: { 'Content-Type': contentType! } });
  const r = await fetch(api.url + path, init);
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : undefined };
};

// Custom resources list protobuf among their serializers (unstructuredNegotiatedSerializer), so the body
// is no 415: the versioning codec decodes into a fresh Unstructured, which has no kind for the protobuf
// serializer's typer; without the k8s\0 prefix the serializer refuses the data first.
test('a protobuf body for a custom resource is the 400 the protobuf serializer gives', { timeout: 10_000 }, async () => {
  const PB = 'application/vnd.kubernetes.protobuf';
  const unknown = Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x00, 0x12, 0x00]);
  let r = await send('POST', BASE, unknown, PB);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, `CronTab in version "v1" cannot be handled as a CronTab: Object 'Kind' is missing in 'object has no kind field '`);
  r = await send('POST', BASE, Buffer.from('{}'), PB);
  assert.equal(r.status, 400);
  assert.equal(
    r.json.message,
    'the object provided is unrecognized (must be of type CronTab): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({})',
  );
  r = await send('POST', BASE, Buffer.from('x'), 'text/plain');
  assert.equal(r.status, 415);
  assert.equal(
    r.json.message,
    'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
  );
});

test('a percent-encoded name in the path is the decoded name (Go unescapes URL.Path)', { timeout: 10_000 }, async () => {
  let r = await api.req('POST', BASE, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'abc' } });
  assert.equal(r.status, 201, r.text);
  r = await api.req('GET', `${BASE}/%61bc`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.metadata.name, 'abc');
  r = await api.req('PATCH', `${BASE}/%61%62%63`, { spec: { image: 'x' } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.spec.image, 'x');
  r = await api.req('GET', `${BASE}/%61bd`);
  assert.equal(r.status, 404);
  assert.equal(r.json.message, 'crontabs.stable.example.com "abd" not found');
  r = await api.req('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'abc' } });
  assert.equal(r.status, 201, r.text);
  r = await api.req('DELETE', '/api/v1/namespaces/%64efault/configmaps/%61bc');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.details.name, 'abc');
});

// RequestInfoFactory maps only POST, GET/HEAD, PUT, PATCH and DELETE to verbs; any other method leaves the
// verb empty, which the custom resource handler names (NewMethodNotSupported); built-in kinds' routes are
// go-restful's, whose 405 the server answers with a generic Status.
test('a method no verb maps to is a 405, in the custom resource handler\'s and go-restful\'s words', { timeout: 10_000 }, async () => {
  for (const method of ['OPTIONS', 'PROPFIND', 'MKCOL']) {
    let r = await send(method, `${BASE}/abc`);
    assert.equal(r.status, 405, method);
    assert.equal(r.json.message, ' is not supported on resources of kind "crontabs.stable.example.com"');
    assert.equal(r.json.reason, 'MethodNotAllowed');
    r = await send(method, BASE);
    assert.equal(r.status, 405, method);
    r = await send(method, '/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 405, method);
    assert.equal(r.json.message, 'the server does not allow this method on the requested resource');
  }
});
