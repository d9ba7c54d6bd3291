// /openapi/v2 and /openapi/v3 over HTTP: v2 as JSON and gnostic protobuf with one ETag, 304 on If-None-Match,
// the documents following CRD creates, changes and deletes without a restart, v3's ?hash= caching and redirects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, CRONTAB_CRD } from './helpers.js';

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/**
 * The documents follow CRDs through their informer, as kube's OpenAPI controllers do: a moment after the write
 * (and a new CRD is in them once Established, the write after the one that has it served). Reads until `ok`.
 */
async function eventually<T>(read: () => Promise<T>, ok: (x: T) => boolean): Promise<T> {
  let x = await read();
  for (let i = 0; i < 200 && !ok(x); i++) {
    await new Promise((r) => setTimeout(r, 25));
    x = await read();
  }
  return x;
}

test('/openapi/v2 follows CRD creates, changes and deletes; ETag and 304 as kube-openapi serves them', async () => {
  const api = await startApi();
  try {
    const before = await api.req('GET', '/openapi/v2');
    assert.equal(before.status, 200);
    assert.equal(before.headers.get('content-type'), 'application/json');
    assert.equal(before.json.definitions['com.example.stable.v1.CronTab'], undefined);
    assert.ok(before.json.definitions['io.k8s.api.core.v1.Namespace']);
    assert.ok(before.json.paths['/api/v1/namespaces/{name}']);

    await installCronTab(api);
    const created = await eventually(() => api.req('GET', '/openapi/v2'), (r) => r.json.definitions['com.example.stable.v1.CronTab'] !== undefined);
    const etag = created.headers.get('etag')!;
    assert.match(etag, /^"[0-9A-F]{128}"$/);
    assert.notEqual(etag, before.headers.get('etag'));
    assert.deepEqual(Object.keys(created.json.definitions['com.example.stable.v1.CronTab'].properties.spec.properties), ['cronSpec', 'image', 'replicas']);
    assert.ok(created.json.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}']);

    const notModified = await api.req('GET', '/openapi/v2', undefined, { 'If-None-Match': etag });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.text, '');
    const raw = await fetch(api.url + '/openapi/v2', { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(raw.headers.get('content-encoding'), 'gzip');
    assert.deepEqual(JSON.parse(await raw.text()), created.json);
    const proto = await api.req('GET', '/openapi/v2', undefined, { Accept: PROTOBUF });
    assert.equal(proto.status, 200);
    assert.equal(proto.headers.get('content-type'), 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    assert.equal(proto.headers.get('etag'), etag);
    assert.equal((await api.req('GET', '/openapi/v2', undefined, { Accept: PROTOBUF, 'If-None-Match': etag })).status, 304);
    assert.equal((await api.req('GET', '/openapi/v2', undefined, { Accept: 'text/plain' })).status, 406);

    // A new field in the schema: a new document and ETag.
    const crd = (await api.req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com')).json;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.suspend = { type: 'boolean', nullable: true };
    assert.equal((await api.req('PUT', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com', crd)).status, 200);
    const changed = await eventually(() => api.req('GET', '/openapi/v2', undefined, { 'If-None-Match': etag }), (r) => r.status !== 304);
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);
    // nullable is not Swagger 2.0: the value is left untyped, as kube's v2 conversion does.
    assert.deepEqual(changed.json.definitions['com.example.stable.v1.CronTab'].properties.spec.properties.suspend, {});

    assert.equal((await api.req('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRONTAB_CRD.metadata.name}`)).status, 200);
    let gone = false;
    for (let i = 0; i < 200 && !gone; i++) {
      gone = (await api.req('GET', '/openapi/v2')).json.definitions['com.example.stable.v1.CronTab'] === undefined;
      if (!gone) await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(gone, 'the CronTab definition outlived its CRD');
  } finally {
    await api.close();
  }
});

test('/openapi/v3 over HTTP: ?hash= URLs cached as immutable, a stale hash redirected after a CRD change, the index 304s', async () => {
  const api = await startApi();
  try {
    await installCronTab(api);
    const index = await eventually(() => api.req('GET', '/openapi/v3'), (r) => r.json.paths['apis/stable.example.com/v1'] !== undefined);
    const url: string = index.json.paths['apis/stable.example.com/v1'].serverRelativeURL;
    assert.match(url, /^\/openapi\/v3\/apis\/stable\.example\.com\/v1\?hash=[0-9A-F]{128}$/);
    const pinned = await api.req('GET', url);
    assert.equal(pinned.status, 200);
    assert.equal(pinned.headers.get('cache-control'), 'public, immutable');
    assert.match(pinned.headers.get('expires')!, /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} UTC$/);
    assert.equal(pinned.headers.get('etag'), `"${url.slice(url.indexOf('=') + 1)}"`);
    assert.equal((await api.req('GET', '/openapi/v3', undefined, { 'If-None-Match': index.headers.get('etag')! })).status, 304);

    const crd = (await api.req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com')).json;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.suspend = { type: 'boolean' };
    assert.equal((await api.req('PUT', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com', crd)).status, 200);
    const pathOf = (r: { json: any }): string => r.json.paths['apis/stable.example.com/v1'].serverRelativeURL;
    const next = pathOf(await eventually(() => api.req('GET', '/openapi/v3'), (r) => pathOf(r) !== url));
    assert.notEqual(next, url, 'the URL moved with the schema');
    const stale = await fetch(api.url + url, { redirect: 'manual' });
    assert.equal(stale.status, 301);
    assert.equal(stale.headers.get('location'), next);
    assert.equal(stale.headers.get('cache-control'), null);
    const doc = (await api.req('GET', next)).json;
    assert.deepEqual(doc.components.schemas['com.example.stable.v1.CronTab'].properties.spec.properties.suspend, { type: 'boolean' });

    // A change that leaves the spec (a label: no new generation) leaves the document and its URL.
    const labelled = (await api.req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com')).json;
    labelled.metadata.labels = { team: 'a' };
    const relabelled = await api.req('PUT', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com', labelled);
    assert.equal(relabelled.status, 200);
    // Given the informer the time it took the schema change above to reach the documents, the URL is still the same.
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await api.req('GET', '/openapi/v3')).json.paths['apis/stable.example.com/v1'].serverRelativeURL, next);
  } finally {
    await api.close();
  }
});
