// Numbers beyond float64 (issue 15): Go's decoder refuses them where JSON.parse reads ±Infinity (which was
// stored as null); goyaml.v2 reads such a plain scalar as the string it is written as.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, CRONTAB_CRD, type Api } from '../server/helpers.js';

const crd = structuredClone(CRONTAB_CRD) as any;
crd.spec.versions[0].schema.openAPIV3Schema.properties.spec = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
const BASE = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const cronTab = (name: string, spec: string): string => `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"${name}"},"spec":${spec}}`;
const refused = (literal: string): string => `CronTab in version "v1" cannot be handled as a CronTab: json: cannot unmarshal number ${literal} into Go value of type float64`;

let api: Api;
before(async () => {
  api = await startApi();
  await installCronTab(api, crd);
});
after(() => api.close());

test('a custom resource with a number beyond float64 is a 400, create and update', { timeout: 10_000 }, async () => {
  let r = await api.req('POST', BASE, cronTab('a', '{"x":1e400}'));
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, refused('1e400'));
  // The first such literal in the text, whatever its sign or form.
  r = await api.req('POST', BASE, cronTab('a', `{"s":"1e999","x":[1,-1e400],"y":1${'0'.repeat(400)}}`));
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, refused('-1e400'));
  // Underflow is no error: ParseFloat reads 0.
  r = await api.req('POST', BASE, cronTab('a', '{"x":1e-400,"s":"1e999"}'));
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.spec, { x: 0, s: '1e999' });
  r = await api.req('PUT', `${BASE}/a`, cronTab('a', '{"x":1.5e308,"y":17976931348623159e292}'));
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, refused('17976931348623159e292'));
});

test('a built-in kind names the field the number does not fit', { timeout: 10_000 }, async () => {
  const r = await api.req('POST', '/api/v1/namespaces/default/configmaps', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","generation":1e400}}');
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number 1e400 into Go struct field ObjectMeta.metadata.generation of type int64');
});

test('YAML and apply bodies: the scalar is a string, as goyaml.v2 resolves it', { timeout: 10_000 }, async () => {
  const yaml = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: yml\nspec:\n  x: 1e400\n  w: -1' + '0'.repeat(400) + '\n  z: 1e300\n';
  let r = await api.req('POST', BASE, yaml, { 'Content-Type': 'application/yaml' });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.spec, { x: '1e400', w: '-1' + '0'.repeat(400), z: 1e300 });
  r = await api.req('PATCH', `${BASE}/applied?fieldManager=me`, cronTab('applied', '{"x":1e400}'), { 'Content-Type': 'application/apply-patch+yaml' });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.spec, { x: '1e400' });
});

test('patches: the strict decoding of the patch refuses the number (Warn by default, and Strict)', { timeout: 10_000 }, async () => {
  let r = await api.req('POST', BASE, cronTab('patched', '{"x":1}'));
  assert.equal(r.status, 201, r.text);
  const merge = { 'Content-Type': 'application/merge-patch+json' };
  r = await api.req('PATCH', `${BASE}/patched`, '{"spec":{"y":[2,1e400]}}', merge);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, 'error decoding patch: json: cannot unmarshal number 1e400 into Go value of type float64');
  r = await api.req('PATCH', `${BASE}/patched?fieldValidation=Strict`, '{"spec":{"y":-1e400}}', merge);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, 'error decoding patch: json: cannot unmarshal number -1e400 into Go value of type float64');
  // handlers.jsonPatchOp's value is an interface{} struct field: the error names it.
  r = await api.req('PATCH', `${BASE}/patched`, '[{"op":"add","path":"/spec/y","value":{"a":1e400}}]', { 'Content-Type': 'application/json-patch+json' });
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, 'error decoding patch: json: cannot unmarshal number 1e400 into Go struct field jsonPatchOp.value of type float64');
  // A built-in's strategic merge patch decodes into a map in every mode, with the bare error.
  r = await api.req('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'smp' } });
  assert.equal(r.status, 201, r.text);
  r = await api.req('PATCH', '/api/v1/namespaces/default/configmaps/smp?fieldValidation=Ignore', '{"metadata":{"labels":{"a":1e400}}}', {
    'Content-Type': 'application/strategic-merge-patch+json',
  });
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, 'json: cannot unmarshal number 1e400 into Go value of type float64');
  r = await api.req('GET', `${BASE}/patched`);
  assert.deepEqual(r.json.spec, { x: 1 });
});

test('a merge patch under fieldValidation=Ignore: the patched JSON does not decode (the 422 quoting it)', { timeout: 10_000 }, async () => {
  let r = await api.req('POST', BASE, cronTab('ignored', '{"x":1}'));
  assert.equal(r.status, 201, r.text);
  r = await api.req('PATCH', `${BASE}/ignored?fieldValidation=Ignore`, '{"spec":{"y":[2, 1E400],"z":-1e999}}', { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.status, 422, r.text);
  assert.equal(r.json.reason, 'Invalid');
  const cause = r.json.details.causes[0];
  assert.equal(cause.field, 'patch');
  assert.match(cause.message, /^Invalid value: "\{\\"apiVersion\\":\\"stable\.example\.com\/v1\\",.*\\"spec\\":\{\\"x\\":1,\\"y\\":\[2,1E400\],\\"z\\":-1e999\}\}": json: cannot unmarshal number 1E400 into Go value of type float64$/);
  r = await api.req('GET', `${BASE}/ignored`);
  assert.deepEqual(r.json.spec, { x: 1 });
});

test('a JSON patch under fieldValidation=Ignore: the 422 quotes the value as the operation wrote it', { timeout: 10_000 }, async () => {
  let r = await api.req('POST', BASE, cronTab('ignored-ops', '{"x":1}'));
  assert.equal(r.status, 201, r.text);
  r = await api.req('PATCH', `${BASE}/ignored-ops?fieldValidation=Ignore`, '[{"op":"add","path":"/spec/y","value":{"b":17e999}}]', {
    'Content-Type': 'application/json-patch+json',
  });
  assert.equal(r.status, 422, r.text);
  const cause = r.json.details.causes[0];
  assert.match(cause.message, /\\"spec\\":\{\\"x\\":1,\\"y\\":\{\\"b\\":17e999\}\}\}": json: cannot unmarshal number 17e999 into Go value of type float64$/);
  r = await api.req('GET', `${BASE}/ignored-ops`);
  assert.deepEqual(r.json.spec, { x: 1 });
});
