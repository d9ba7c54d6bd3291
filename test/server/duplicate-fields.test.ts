import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, type Api } from './helpers.js';
import { CustomResourceDefinition } from '../../src/apis/apiextensions/v1/custom-resource-definition.js';
import { CustomResourceDefinition as CustomResourceDefinitionV1beta1 } from '../../src/apis/apiextensions/v1beta1/custom-resource-definition.js';
import { Namespace } from '../../src/apis/core/v1/namespace.js';
import { countJsonMembers, jsonDuplicateFields, scanJsonDuplicates, typedOpaquePaths, yamlDuplicateKeysError } from '../../src/server/duplicate-fields.js';
import { strictDecodingWarnings } from '../../src/schema/unknown-fields.js';

const CT = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const warningsOf = (h: Headers): string[] => (h.get('warning') ? h.get('warning')!.split(/,\s*(?=299 )/) : []);

let api: Api;
before(async () => {
  api = await startApi();
  await installCronTab(api);
});
after(() => api.close());

const body = (name: string, spec: string): string =>
  `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"${name}"},"spec":{${spec}}}`;

test('scanner: paths as sigs.k8s.io/json writes them, document order, deduplicated', () => {
  const text = '{"a":{"b":[{"c":1,"c":2,"c":3}],"b":[]},"a":1,"x\\u0079":1,"xy":2,"":0,"":1}';
  assert.deepEqual(scanJsonDuplicates(text), ['duplicate field "a.b[0].c"', 'duplicate field "a.b"', 'duplicate field "a"', 'duplicate field "xy"', 'duplicate field ""']);
  assert.deepEqual(scanJsonDuplicates('[{"k":1,"k":2}]'), ['duplicate field "[0].k"']);
  // Strings with colons, quotes and backslashes do not fool the member count.
  const tricky = '{ "a" : "x\\": y", "b\\\\" :"\\\\", "c":[1, "d:e", {"f" :null}] }';
  assert.equal(countJsonMembers(tricky), 4);
  assert.deepEqual(jsonDuplicateFields(tricky, JSON.parse(tricky)), []);
  assert.deepEqual(jsonDuplicateFields('{"a" :1, "a": 2}', { a: 2 }), ['duplicate field "a"']);
  // At most 100, as saveStrictError keeps.
  const many = `{${Array.from({ length: 150 }, (_, i) => `"k${i}":{"v":1,"v":2}`).join(',')}}`;
  assert.equal(scanJsonDuplicates(many).length, 100);
});

test('scanner: typed kinds skip what custom unmarshalers decode (CRD schema items, default)', () => {
  const crd = typedOpaquePaths(CustomResourceDefinition);
  const text = JSON.stringify({ spec: { versions: [{ schema: { openAPIV3Schema: { properties: { p: { DEFAULT: 1, ITEMS: 2, TYPE: 3 } } } } }] } })
    .replace('"DEFAULT":1', '"default":{"a":1,"a":2}')
    .replace('"ITEMS":2', '"items":{"type":"string","type":"integer"}')
    .replace('"TYPE":3', '"type":"object","type":"object"');
  assert.deepEqual(scanJsonDuplicates(text, crd), ['duplicate field "spec.versions[0].schema.openAPIV3Schema.properties.p.type"']);
  assert.equal(scanJsonDuplicates(text).length, 3);
});

test('scanner: opaque paths derive from the Go type: FieldsV1 anywhere it is declared, JSONSchemaProps at each version', () => {
  const ns = typedOpaquePaths(Namespace);
  assert.equal(ns(['metadata', 'managedFields', 0, 'fieldsV1']), true);
  assert.equal(ns(['metadata', 'managedFields', 0]), false);
  assert.equal(ns(['metadata', 'labels']), false);
  assert.equal(ns(['spec', 'fieldsV1']), false);
  const v1beta1 = typedOpaquePaths(CustomResourceDefinitionV1beta1);
  assert.equal(v1beta1(['spec', 'validation', 'openAPIV3Schema', 'properties', 'p', 'default']), true);
  assert.equal(v1beta1(['spec', 'validation', 'openAPIV3Schema', 'properties', 'p']), false);
  assert.equal(v1beta1(['spec', 'versions', 0, 'schema', 'openAPIV3Schema', 'items']), true);
  assert.equal(v1beta1(['metadata', 'managedFields', 3, 'fieldsV1']), true);
});

test('YAML: go-yaml strict errors at the value line, split into warnings', () => {
  const y = 'a: 1\nb:\n  c: 1\n  c:\n    d: 2\na: 3\n';
  const err = yamlDuplicateKeysError(y);
  assert.equal(err, 'yaml: unmarshal errors:\n  line 5: key "c" already set in map\n  line 6: key "a" already set in map');
  assert.deepEqual(strictDecodingWarnings([err!, 'unknown field "x"']), ['line 5: key "c" already set in map', 'line 6: key "a" already set in map', 'unknown field "x"']);
  assert.equal(yamlDuplicateKeysError('a: 1\nb: [1, 1]\n'), undefined);
});

test('create under Warn (the default): a warning per duplicate, the last value wins', async () => {
  const r = await api.req('POST', CT, body('w1', '"replicas":1,"image":"i","replicas":4,"x":1'));
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(warningsOf(r.headers), ['299 - "duplicate field \\"spec.replicas\\""', '299 - "unknown field \\"spec.x\\""']);
  assert.equal(r.json.spec.replicas, 4);
});

test('create under Strict: a 400 with duplicates before unknown fields', async () => {
  // The unknown field comes first in the body; kube still lists the decoder's duplicates first.
  const r = await api.req('POST', `${CT}?fieldValidation=Strict`, body('s1', '"x":1,"replicas":1,"replicas":2'));
  assert.equal(r.status, 400);
  assert.equal(r.json.reason, 'BadRequest');
  assert.equal(r.json.message, 'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: duplicate field "spec.replicas", unknown field "spec.x"');
  const g = await api.req('GET', `${CT}/s1`);
  assert.equal(g.status, 404);
});

test('create under Ignore: no warnings, no error', async () => {
  const r = await api.req('POST', `${CT}?fieldValidation=Ignore`, body('i1', '"replicas":1,"replicas":2'));
  assert.equal(r.status, 201);
  assert.equal(r.headers.get('warning'), null);
  assert.equal(r.json.spec.replicas, 2);
});

test('update: duplicate metadata.name is reported', async () => {
  const c = await api.req('POST', CT, body('u1', '"replicas":1'));
  assert.equal(c.status, 201);
  const rv = c.json.metadata.resourceVersion;
  const text = `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"zzz","name":"u1","resourceVersion":"${rv}"},"spec":{"replicas":3}}`;
  const strict = await api.req('PUT', `${CT}/u1?fieldValidation=Strict`, text);
  assert.equal(strict.status, 400);
  assert.equal(strict.json.message, 'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: duplicate field "metadata.name"');
  const warn = await api.req('PUT', `${CT}/u1`, text);
  assert.equal(warn.status, 200, warn.text);
  assert.deepEqual(warningsOf(warn.headers), ['299 - "duplicate field \\"metadata.name\\""']);
  assert.equal(warn.json.spec.replicas, 3);
});

test('YAML bodies: go-yaml line errors, warnings split per line', async () => {
  const yaml = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: y1\nspec:\n  replicas: 1\n  replicas: 5\n  x: 1\n';
  const headers = { 'Content-Type': 'application/yaml' };
  const strict = await api.req('POST', `${CT}?fieldValidation=Strict`, yaml, headers);
  assert.equal(strict.status, 400);
  assert.equal(
    strict.json.message,
    'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: yaml: unmarshal errors:\n  line 7: key "replicas" already set in map, unknown field "spec.x"',
  );
  const warn = await api.req('POST', CT, yaml, headers);
  assert.equal(warn.status, 201, warn.text);
  assert.deepEqual(warningsOf(warn.headers), ['299 - "line 7: key \\"replicas\\" already set in map"', '299 - "unknown field \\"spec.x\\""']);
  assert.equal(warn.json.spec.replicas, 5);
});

test('merge patch: duplicates in the patch body warn', async () => {
  const c = await api.req('POST', CT, body('p1', '"replicas":1'));
  assert.equal(c.status, 201);
  const r = await api.req('PATCH', `${CT}/p1`, '{"spec":{"replicas":2,"replicas":3}}', { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(warningsOf(r.headers), ['299 - "duplicate field \\"spec.replicas\\""']);
  assert.equal(r.json.spec.replicas, 3);
});

test('built-in kinds: Namespace duplicates warn or fail under Strict', async () => {
  const text = '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"dup-ns","labels":{"a":"1","a":"2"}}}';
  const strict = await api.req('POST', '/api/v1/namespaces?fieldValidation=Strict', text);
  assert.equal(strict.status, 400);
  assert.equal(strict.json.message, 'Namespace in version "v1" cannot be handled as a Namespace: strict decoding error: duplicate field "metadata.labels.a"');
  const warn = await api.req('POST', '/api/v1/namespaces', text);
  assert.equal(warn.status, 201, warn.text);
  assert.deepEqual(warningsOf(warn.headers), ['299 - "duplicate field \\"metadata.labels.a\\""']);
  assert.equal(warn.json.metadata.labels.a, '2');
});

test('built-in kinds: CRD duplicates inside a schema default are not seen, in properties they are', async () => {
  const crd = (name: string, def: string, extra = ''): string =>
    `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"${name}s.dup.example.com"},"spec":{"group":"dup.example.com","scope":"Namespaced","names":{"plural":"${name}s","kind":"${name[0]!.toUpperCase()}${name.slice(1)}"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",${extra}"default":${def},"x-kubernetes-preserve-unknown-fields":true}}}}}]}}`;
  const quiet = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict', crd('alpha', '{"a":1,"a":2}'));
  assert.equal(quiet.status, 201, quiet.text);
  const loud = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict', crd('beta', '{}', '"type":"object",'));
  assert.equal(loud.status, 400);
  assert.equal(
    loud.json.message,
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: duplicate field "spec.versions[0].schema.openAPIV3Schema.properties.spec.type"',
  );
});
