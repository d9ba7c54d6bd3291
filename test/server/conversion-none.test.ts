// Conversion strategy None between versions with different schemas, as kube's CRD storage codec does
// it: reads prune and default at the stored version, change apiVersion, prune at the version asked for;
// writes land at the storage version of the moment, pruned by its schema; objects keep the version they
// were stored at until rewritten.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, widgetsCrd, type Api } from './helpers.js';

const obj = (props: Record<string, unknown>) => ({ type: 'object', properties: props });

function crd(storage: 'v1beta1' | 'v1', v1Props: Record<string, unknown> = { a: { type: 'string' }, d: { type: 'string' } }) {
  return widgetsCrd(storage, (name) => ({
    schema: {
      openAPIV3Schema:
        name === 'v1beta1' ? obj({ a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string', default: 'from-v1beta1' } }) : obj(v1Props),
    },
  }));
}

const path = (v: string, name = '') => `/apis/example.com/${v}/namespaces/default/widgets${name ? `/${name}` : ''}`;
const KEY = '/registry/example.com/widgets/default/';

async function established(api: Api, version = 'v1'): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const r = await api.req('GET', path(version));
    if (r.status === 200) return;
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error('CRD not served');
}

async function stored(api: Api, name: string): Promise<Record<string, unknown>> {
  const kv = await api.kv.get(KEY + name);
  assert.ok(kv, `${name} is stored`);
  return JSON.parse(kv.value);
}

async function putCRD(api: Api, body: ReturnType<typeof crd>): Promise<void> {
  const cur = await api.req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com');
  const r = await api.req('PUT', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', {
    ...body,
    metadata: { ...body.metadata, resourceVersion: cur.json.metadata.resourceVersion },
  });
  assert.equal(r.status, 200, r.text);
}

test('reads prune at the stored and the requested version and default at the stored one', async () => {
  const api = await startApi();
  try {
    assert.equal((await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('v1beta1'))).status, 201);
    await established(api);
    const created = await api.req('POST', path('v1beta1'), { apiVersion: 'example.com/v1beta1', kind: 'Widget', metadata: { name: 'w1' }, a: 'A', b: 'B' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.c, 'from-v1beta1');

    const s = await stored(api, 'w1');
    assert.equal(s['apiVersion'], 'example.com/v1beta1');

    const atV1 = await api.req('GET', path('v1', 'w1'));
    assert.equal(atV1.json.apiVersion, 'example.com/v1');
    assert.equal(atV1.json.a, 'A');
    assert.equal(atV1.json.b, undefined, 'b is not in the v1 schema: pruned');
    assert.equal(atV1.json.c, undefined);

    // The same through a list, a Table and a watch.
    const list = await api.req('GET', path('v1'));
    assert.deepEqual(list.json.items.map((i: any) => [i.apiVersion, i.a, i.b]), [['example.com/v1', 'A', undefined]]);

    // Writing at v1 stores at v1beta1 (the storage version), pruned by the v1beta1 schema: d is lost.
    const w2 = await api.req('POST', path('v1'), { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' }, a: 'A2', d: 'D2' });
    assert.equal(w2.status, 201, w2.text);
    assert.equal(w2.json.apiVersion, 'example.com/v1');
    assert.equal(w2.json.d, undefined, 'd did not survive storage at v1beta1');
    const s2 = await stored(api, 'w2');
    assert.equal(s2['apiVersion'], 'example.com/v1beta1');
    assert.equal(s2['d'], undefined);
    assert.equal(s2['c'], undefined, 'storage-version defaults apply on reads, not on writes');
    const w2beta = await api.req('GET', path('v1beta1', 'w2'));
    assert.equal(w2beta.json.c, 'from-v1beta1', 'defaulted when read at the stored version');
  } finally {
    await api.close();
  }
});

test('the storage version of the moment: old objects stay until rewritten', async () => {
  const api = await startApi();
  try {
    const same = { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string', default: 'from-v1beta1' } };
    assert.equal((await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('v1beta1', same))).status, 201);
    await established(api);
    await api.req('POST', path('v1beta1'), { apiVersion: 'example.com/v1beta1', kind: 'Widget', metadata: { name: 'first' }, a: '1' });
    await putCRD(api, crd('v1', same));
    const c = await api.req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com');
    assert.deepEqual(c.json.status.storedVersions, ['v1beta1', 'v1']);
    assert.equal((await stored(api, 'first'))['apiVersion'], 'example.com/v1beta1');

    const a = await api.req('GET', path('v1beta1', 'first'));
    const b = await api.req('GET', path('v1', 'first'));
    assert.deepEqual({ ...a.json, apiVersion: 'x' }, { ...b.json, apiVersion: 'x' }, 'identical but for apiVersion');

    await api.req('POST', path('v1'), { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'second' }, a: '2' });
    assert.equal((await stored(api, 'second'))['apiVersion'], 'example.com/v1');

    const up = await api.req('PUT', path('v1beta1', 'first'), { ...a.json, a: '1b' });
    assert.equal(up.status, 200, up.text);
    assert.equal(up.json.apiVersion, 'example.com/v1beta1');
    assert.equal((await stored(api, 'first'))['apiVersion'], 'example.com/v1', 'rewritten at the new storage version');
  } finally {
    await api.close();
  }
});

test('a schema change prunes objects written before it on every read', async () => {
  const api = await startApi();
  try {
    assert.equal((await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('v1'))).status, 201);
    await established(api);
    await api.req('POST', path('v1'), { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'old' }, a: 'A', d: 'D' });
    assert.equal((await api.req('GET', path('v1', 'old'))).json.d, 'D');
    await putCRD(api, crd('v1', { a: { type: 'string' } }));
    for (let i = 0; i < 300; i++) {
      const r = await api.req('GET', path('v1', 'old'));
      if (r.json.d === undefined) break;
      await new Promise((res) => setTimeout(res, 10));
    }
    const got = await api.req('GET', path('v1', 'old'));
    assert.equal(got.json.d, undefined, 'd is no longer in the schema');
    assert.equal((await stored(api, 'old'))['d'], 'D', 'storage is not rewritten by reads');
    const list = await api.req('GET', path('v1'));
    assert.equal(list.json.items[0].d, undefined);
    const table = await api.req('GET', path('v1', 'old'), undefined, { Accept: 'application/yaml' });
    assert.doesNotMatch(table.text, /^d: D$/m);
  } finally {
    await api.close();
  }
});

test('preserveUnknownFields: true keeps unknown fields (a CRD stored by the v1beta1 API)', async () => {
  const api = await startApi();
  try {
    const body = crd('v1', { a: { type: 'string' } }) as any;
    body.spec.preserveUnknownFields = true;
    body.spec.versions = [body.spec.versions[1]];
    body.metadata.uid = '00000000-0000-0000-0000-000000000002';
    body.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
    body.metadata.resourceVersion = '';
    body.spec.conversion = { strategy: 'None' };
    body.status = { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] };
    const res = await api.kv.create('/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com', JSON.stringify(body));
    assert.ok(res.ok);
    await established(api);
    const r = await api.req('POST', path('v1'), { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'p', foo: 1 }, a: 'A', extra: { x: 1 } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.extra, { x: 1 });
    assert.equal(r.json.metadata.foo, undefined, 'metadata is still ObjectMeta');
    assert.deepEqual(r.headers.get('warning'), '299 - "unknown field \\"metadata.foo\\""');
    assert.deepEqual((await api.req('GET', path('v1', 'p'))).json.extra, { x: 1 });
  } finally {
    await api.close();
  }
});

test('an object stored at a version the CRD no longer lists: kube\'s converter error, a 500 without reason', async () => {
  const api = await startApi();
  try {
    assert.equal((await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('v1'))).status, 201);
    await established(api);
    const orphan = { apiVersion: 'example.com/v0', kind: 'Widget', metadata: { name: 'orphan', namespace: 'default', uid: 'u', resourceVersion: '' }, a: 'A' };
    assert.ok((await api.kv.create(KEY + 'orphan', JSON.stringify(orphan))).ok);
    const r = await api.req('GET', path('v1', 'orphan'));
    assert.equal(r.status, 500);
    assert.deepEqual(r.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'request to convert CR from an invalid group/version: example.com/v0',
      code: 500,
    });
    assert.equal((await api.req('GET', path('v1'))).status, 500);
  } finally {
    await api.close();
  }
});
