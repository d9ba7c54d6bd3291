// selectableFields over HTTP: a CRD version's selectable fields work in field selectors of list, watch and
// deletecollection (=, ==, !=; values as fmt.Sprint renders them, "" when missing), other fields are refused
// with kube's message, and the kind's OpenAPI v3 schema publishes them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, type Api } from './helpers.js';
import { openWatch } from './watch-stream.js';

let api: Api;
const base = '/apis/stable.example.com/v1/namespaces/default/shirts';

// The Kubernetes docs' Shirt, with an integer and a boolean field beside color and size.
const SHIRT_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'shirts.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { color: { type: 'string' }, size: { type: 'string' }, buttons: { type: 'integer' }, ironed: { type: 'boolean' } },
              },
            },
          },
        },
        selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.buttons' }, { jsonPath: '.spec.ironed' }],
      },
    ],
  },
};

const shirt = (name: string, spec: Record<string, unknown>): unknown => ({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name }, spec });

before(async () => {
  api = await startApi();
  await installCronTab(api, SHIRT_CRD);
  for (const [name, spec] of [
    ['example1', { color: 'blue', size: 'S', buttons: 6, ironed: true }],
    ['example2', { color: 'blue', size: 'M', buttons: 8, ironed: false }],
    ['example3', { color: 'green', size: 'M', buttons: 6 }],
    ['plain', {}],
  ] as const) {
    const r = await api.req('POST', base, shirt(name, spec));
    assert.equal(r.status, 201, r.text);
  }
});
after(async () => {
  await api?.close();
});

const names = async (selector: string): Promise<string[]> => {
  const r = await api.req('GET', `${base}?fieldSelector=${encodeURIComponent(selector)}`);
  assert.equal(r.status, 200, r.text);
  return r.json.items.map((o: any) => o.metadata.name);
};

test('list: =, == and != on a string field', async () => {
  assert.deepEqual(await names('spec.color=blue'), ['example1', 'example2']);
  assert.deepEqual(await names('spec.color==blue'), ['example1', 'example2']);
  assert.deepEqual(await names('spec.color!=blue'), ['example3', 'plain']);
  assert.deepEqual(await names('spec.color=blue,spec.size=M'), ['example2']);
  assert.deepEqual(await names('spec.size=M,metadata.name!=example2'), ['example3']);
});

test('list: integers and booleans compare by their string form; a missing field is the empty string', async () => {
  assert.deepEqual(await names('spec.buttons=6'), ['example1', 'example3']);
  assert.deepEqual(await names('spec.buttons=06'), []);
  assert.deepEqual(await names('spec.ironed=true'), ['example1']);
  assert.deepEqual(await names('spec.ironed=false'), ['example2']);
  assert.deepEqual(await names('spec.ironed='), ['example3', 'plain']);
  assert.deepEqual(await names('spec.color='), ['plain']);
});

test('a field that is not selectable is refused with kube\'s message', async () => {
  for (const [selector, field] of [
    ['spec.collar=round', 'spec.collar'],
    ['.spec.color=blue', '.spec.color'],
    ['status.phase!=x', 'status.phase'],
  ]) {
    const r = await api.req('GET', `${base}?fieldSelector=${encodeURIComponent(selector!)}`);
    assert.equal(r.status, 400);
    assert.equal(r.json.reason, 'BadRequest');
    assert.equal(r.json.message, `field label not supported: ${field}`);
  }
  const w = await api.req('GET', `${base}?watch=true&fieldSelector=spec.collar%3Dround`);
  assert.equal(w.status, 400);
  assert.equal(w.json.message, 'field label not supported: spec.collar');
});

test('watch: objects entering and leaving a selectable-field selector', async () => {
  const start = (await api.req('GET', base)).json.metadata.resourceVersion;
  const w = await openWatch(api, `${base}?watch=true&fieldSelector=spec.color%3Dred&resourceVersion=${start}`);
  try {
    const mergePatch = { 'Content-Type': 'application/merge-patch+json' };
    await api.req('PATCH', `${base}/plain`, { spec: { color: 'red' } }, mergePatch);
    const added = await w.next();
    assert.equal(added.type, 'ADDED');
    assert.equal(added.object.spec.color, 'red');
    const left = await api.req('PATCH', `${base}/plain`, { spec: { color: 'white' } }, mergePatch);
    const deleted = await w.next();
    assert.equal(deleted.type, 'DELETED');
    assert.equal(deleted.object.spec.color, 'red');
    assert.equal(deleted.object.metadata.resourceVersion, left.json.metadata.resourceVersion);
  } finally {
    w.close();
  }
});

test('the kind and list schemas in OpenAPI v2 carry x-kubernetes-selectable-fields too', async () => {
  const r = await api.req('GET', '/openapi/v2', undefined, { Accept: 'application/json' });
  assert.equal(r.status, 200);
  const expected = [{ fieldPath: 'spec.color' }, { fieldPath: 'spec.size' }, { fieldPath: 'spec.buttons' }, { fieldPath: 'spec.ironed' }];
  for (const name of ['com.example.stable.v1.Shirt', 'com.example.stable.v1.ShirtList']) {
    assert.deepEqual(r.json.definitions[name]['x-kubernetes-selectable-fields'], expected, name);
  }
});

test('the kind and list schemas in OpenAPI v3 carry x-kubernetes-selectable-fields', async () => {
  const r = await api.req('GET', '/openapi/v3/apis/stable.example.com/v1');
  assert.equal(r.status, 200);
  const expected = [{ fieldPath: 'spec.color' }, { fieldPath: 'spec.size' }, { fieldPath: 'spec.buttons' }, { fieldPath: 'spec.ironed' }];
  const schemas = r.json.components.schemas;
  for (const name of ['com.example.stable.v1.Shirt', 'com.example.stable.v1.ShirtList']) {
    assert.deepEqual(schemas[name]['x-kubernetes-selectable-fields'], expected, name);
    const keys = Object.keys(schemas[name]);
    assert.deepEqual(keys.slice(-2), ['x-kubernetes-group-version-kind', 'x-kubernetes-selectable-fields']);
  }
});

test('deletecollection deletes only what the selector selects', async () => {
  const r = await api.req('DELETE', `${base}?fieldSelector=${encodeURIComponent('spec.size=M')}`);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.items.map((o: any) => o.metadata.name).sort(), ['example2', 'example3']);
  assert.deepEqual((await api.req('GET', base)).json.items.map((o: any) => o.metadata.name), ['example1', 'plain']);
  const bad = await api.req('DELETE', `${base}?fieldSelector=spec.collar%3Dround`);
  assert.equal(bad.status, 400);
  assert.equal(bad.json.message, 'field label not supported: spec.collar');
});
