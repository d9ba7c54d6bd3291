// Deeply nested bodies (issue 15): refused with a 400 in Go's words before any recursive walker sees them,
// never a 500; the deepest accepted body works end to end for a custom resource that keeps unknown fields.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, CRONTAB_CRD, type Api } from '../server/helpers.js';
import { MAX_BODY_DEPTH, MAX_YAML_DEPTH } from '../../src/util/json-depth.js';
import { envelope, msg, str } from '../protobuf/wire-writer.js';

const crd = structuredClone(CRONTAB_CRD) as any;
crd.spec.versions[0].schema.openAPIV3Schema.properties.spec = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
const BASE = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const nest = (n: number): string => '['.repeat(n) + ']'.repeat(n);
/** A CronTab whose spec.deep is an array nested so the whole body is `depth` levels deep. */
const cronTab = (name: string, depth: number): string =>
  `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"${name}"},"spec":{"deep":${nest(depth - 2)}}}`;
const JSON_DEPTH = `couldn't get version/kind; json parse error: invalid character '[' exceeded max depth`;

let api: Api;
before(async () => {
  api = await startApi();
  await installCronTab(api, crd);
});
after(() => api.close());

test('a body nested 100,000 levels is a 400, custom resource and built-in', { timeout: 10_000 }, async () => {
  let r = await api.req('POST', BASE, cronTab('huge', 100_000));
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, JSON_DEPTH);
  assert.equal(r.json.reason, 'BadRequest');
  r = await api.req('POST', '/api/v1/namespaces/default/configmaps', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":${nest(100_000)}}`);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, JSON_DEPTH);
});

test('one level beyond the limit is a 400; a syntax error before it is reported first', { timeout: 10_000 }, async () => {
  let r = await api.req('POST', BASE, cronTab('over', MAX_BODY_DEPTH + 1));
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, JSON_DEPTH);
  r = await api.req('POST', BASE, `{"a":tru, "b":${nest(100_000)}}`);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, `couldn't get version/kind; json parse error: invalid character ',' in literal true (expecting 'e')`);
});

test('the deepest accepted body: create, get, list, merge and JSON patch, apply', { timeout: 10_000 }, async () => {
  let r = await api.req('POST', BASE, cronTab('deep', MAX_BODY_DEPTH));
  assert.equal(r.status, 201, r.text);
  r = await api.req('GET', `${BASE}/deep`);
  assert.equal(r.status, 200, r.text);
  assert.equal(JSON.stringify(r.json.spec.deep), nest(MAX_BODY_DEPTH - 2));
  r = await api.req('GET', BASE);
  assert.equal(r.status, 200, r.text);
  const merge = { 'Content-Type': 'application/merge-patch+json' };
  r = await api.req('PATCH', `${BASE}/deep`, `{"spec":{"other":${nest(MAX_BODY_DEPTH - 2)}}}`, merge);
  assert.equal(r.status, 200, r.text);
  const jsonPatch = { 'Content-Type': 'application/json-patch+json' };
  r = await api.req('PATCH', `${BASE}/deep`, `[{"op":"add","path":"/spec/third","value":${nest(MAX_BODY_DEPTH - 3)}}]`, jsonPatch);
  assert.equal(r.status, 200, r.text);
  const apply = { 'Content-Type': 'application/apply-patch+yaml' };
  r = await api.req('PATCH', `${BASE}/applied?fieldManager=me`, cronTab('applied', MAX_BODY_DEPTH), apply);
  assert.equal(r.status, 201, r.text);
  r = await api.req('PATCH', `${BASE}/applied?fieldManager=me`, cronTab('applied', MAX_BODY_DEPTH), apply);
  assert.equal(r.status, 200, r.text);
});

test('deep patch bodies are 400s; a JSON patch nesting deeper than the limit is a 422', { timeout: 10_000 }, async () => {
  let r = await api.req('POST', BASE, cronTab('p', 3));
  assert.equal(r.status, 201, r.text);
  r = await api.req('PATCH', `${BASE}/p`, `{"spec":{"x":${nest(100_000)}}}`, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, `error decoding patch: invalid character '[' exceeded max depth`);
  r = await api.req('PATCH', `${BASE}/p`, `[{"op":"add","path":"/spec/x","value":${nest(100_000)}}]`, { 'Content-Type': 'application/json-patch+json' });
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, `error decoding patch: invalid character '[' exceeded max depth`);
  r = await api.req('PATCH', `${BASE}/p?fieldManager=me`, cronTab('p', 100_000), { 'Content-Type': 'application/apply-patch+yaml' });
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, `error decoding YAML: error converting YAML to JSON: yaml: exceeded max depth of ${MAX_YAML_DEPTH}`);
  // Stacking: a value nested at the end of a deep path.
  const jsonPatch = { 'Content-Type': 'application/json-patch+json' };
  r = await api.req('PATCH', `${BASE}/p`, `[{"op":"add","path":"/spec/y","value":${'{"a":'.repeat(400)}1${'}'.repeat(400)}}]`, jsonPatch);
  assert.equal(r.status, 200, r.text);
  r = await api.req('PATCH', `${BASE}/p`, `[{"op":"add","path":"/spec/y${'/a'.repeat(399)}","value":${nest(400)}}]`, jsonPatch);
  assert.equal(r.status, 422, r.text);
  assert.match(r.json.message, /exceeded max depth$/);
});

test('deep YAML bodies are 400s, block and flow', { timeout: 10_000 }, async () => {
  const yaml = { 'Content-Type': 'application/yaml' };
  const head = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: yy\nspec:\n  deep: ';
  let r = await api.req('POST', BASE, head + nest(100_000), yaml);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, `error converting YAML to JSON: yaml: exceeded max depth of ${MAX_YAML_DEPTH}`);
  r = await api.req('POST', BASE, head + '- '.repeat(100_000) + 'x', yaml);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, `error converting YAML to JSON: yaml: exceeded max depth of ${MAX_YAML_DEPTH}`);
  r = await api.req('POST', BASE, head + nest(200), yaml);
  assert.equal(r.status, 201, r.text);
});

test('a deep map at the limit: its field sets nest as deep, and it reads back as JSON and YAML', { timeout: 10_000 }, async () => {
  const deepMap = (n: number, leaf: string): string => '{"a":'.repeat(n) + leaf + '}'.repeat(n);
  const body = (leaf: string): string => `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"m"},"spec":${deepMap(MAX_BODY_DEPTH - 2, leaf)}}`;
  const apply = { 'Content-Type': 'application/apply-patch+yaml' };
  let r = await api.req('PATCH', `${BASE}/m?fieldManager=one`, body('1'), apply);
  assert.equal(r.status, 201, r.text);
  r = await api.req('PATCH', `${BASE}/m?fieldManager=two`, body('2'), apply);
  assert.equal(r.status, 409, r.text);
  r = await api.req('PATCH', `${BASE}/m?fieldManager=two&force=true`, body('2'), apply);
  assert.equal(r.status, 200, r.text);
  r = await api.req('PATCH', `${BASE}/m`, `{"spec":${deepMap(MAX_BODY_DEPTH - 3, '3')}}`, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.status, 200, r.text);
  r = await api.req('GET', `${BASE}/m`, undefined, { Accept: 'application/yaml' });
  assert.equal(r.status, 200, r.text.slice(0, 200));
  assert.match(r.text, /^apiVersion: stable\.example\.com\/v1\n/);
});

test('a protobuf body whose embedded JSON (FieldsV1) nests 100,000 levels is a 400', { timeout: 10_000 }, async () => {
  const managed = (n: number): Buffer => {
    const fields = '{"f:a":'.repeat(n) + '{}' + '}'.repeat(n);
    const entry = msg(17, str(1, 'm'), str(2, 'Update'), str(3, 'v1'), str(6, 'FieldsV1'), msg(7, str(1, fields)));
    return envelope('v1', 'ConfigMap', msg(1, str(1, `pb${n}`), entry));
  };
  const post = (b: Buffer): Promise<Response> =>
    fetch(`${api.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', body: new Uint8Array(b), headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' } });
  let r = await post(managed(100_000));
  assert.equal(r.status, 400);
  assert.equal(((await r.json()) as { message: string }).message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: exceeded maximum recursion depth');
  r = await post(managed(100));
  assert.equal(r.status, 201, await r.text());
});
