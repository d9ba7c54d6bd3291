// Runtime details of rule evaluation: list-type semantics against oldSelf, the per-request cost
// budget, rules inside allOf, ratcheting of map-list items and status, fieldPath into maps,
// dyn overload errors, embedded resources and null values.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';
import { assertCreated, assertInvalid, create, install, update, widgetCRD } from './helpers.js';
import { compileCelValidator } from '../../src/crd/cel-validator.js';
import { newStructural, type Structural } from '../../src/schema/structural-model.js';
import { fieldErrorString } from '../../src/api/field-error.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(async () => {
  await api?.close();
});

const str = { type: 'string', maxLength: 20 };
const int = { type: 'integer' };
const mapList = {
  type: 'array',
  maxItems: 20,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['k'],
  items: { type: 'object', required: ['k'], properties: { k: str, v: int } },
};
const set = { type: 'array', maxItems: 20, 'x-kubernetes-list-type': 'set', items: int };

test('list types against oldSelf: map lists equal in any order, + merges by key, sets union', async () => {
  const w = widgetCRD({
    type: 'object',
    properties: {
      m: { ...mapList, 'x-kubernetes-validations': [{ rule: 'self == oldSelf || size(self) != size(oldSelf)', message: 'same keys, other values' }] },
      merged: { ...mapList, 'x-kubernetes-validations': [{ rule: "self == oldSelf || size(oldSelf + self) == 3 && (oldSelf + self)[1].v == 20 && (oldSelf + self)[2].k == 'c'" }] },
      s: { ...set, 'x-kubernetes-validations': [{ rule: 'self == oldSelf || (oldSelf + self)[2] == 3 && size(oldSelf + self) == 3' }] },
    },
  });
  await install(api, w);
  const spec = {
    m: [
      { k: 'a', v: 1 },
      { k: 'b', v: 2 },
    ],
    merged: [
      { k: 'a', v: 1 },
      { k: 'b', v: 2 },
    ],
    s: [2, 1],
  };
  assertCreated(await create(api, w, 'l', spec));
  const r = await update(api, w, 'l', (o) => {
    o.spec.m = [o.spec.m[1], o.spec.m[0]];
    o.spec.merged = [
      { k: 'b', v: 20 },
      { k: 'c', v: 3 },
    ];
    o.spec.s = [3, 1];
  });
  assert.equal(r.status, 200, r.message);
  const bad = await update(api, w, 'l', (o) => (o.spec.m = [{ k: 'a', v: 9 }, { k: 'b', v: 2 }]));
  assertInvalid(bad, w, 'l', 'spec.m: Invalid value: "array": same keys, other values');
});

test('runtime budget: rules stop once the request has spent RuntimeCELCostBudget', async () => {
  // Each evaluation is well under the per-call limit; twenty of them are not under the budget.
  const rule = 'self.l.all(x, self.l.all(y, size(x) + size(y) >= 0))';
  const item = { type: 'object', 'x-kubernetes-validations': [{ rule }, { rule: rule.replace('>= 0', '> -1') }], properties: { l: { type: 'array', maxItems: 250, items: { type: 'string', maxLength: 3 } } } };
  const w = widgetCRD({ type: 'object', properties: { items: { type: 'array', maxItems: 10, items: item } } });
  await install(api, w);
  const l = Array.from({ length: 250 }, (_, i) => String(i));
  assertCreated(await create(api, w, 'few', { items: [{ l }, { l }] }));
  const r = await create(api, w, 'many', { items: Array.from({ length: 10 }, () => ({ l })) });
  assertInvalid(r, w, 'many', 'spec.items[8]: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run');
});

const structural = (s: Record<string, unknown>): Structural => {
  const r = newStructural(s);
  if ('error' in r) throw new Error(r.error);
  return r.structural;
};

test('runtime budget: an exhausted budget, and a rule costing more than what is left', () => {
  const v = compileCelValidator(structural({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a > 0' }, { rule: 'self.a > 1' }], properties: { a: int } } } }))!;
  const obj = { apiVersion: 'x/v1', kind: 'W', metadata: { name: 'n' }, spec: { a: 5 } };
  assert.deepEqual(v.validate(obj, undefined).errors, []);
  const empty = v.validate(obj, undefined, undefined, 0);
  assert.deepEqual(empty.errors.map(fieldErrorString), ['spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run']);
  assert.ok(empty.remainingBudget < 0);
  // `self.a > 0` costs 3: with 4 left, the second rule no longer fits.
  const partial = v.validate(obj, undefined, undefined, 4);
  assert.deepEqual(partial.errors.map(fieldErrorString), ['spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run']);
  assert.equal(v.validate(obj, undefined, undefined, 6).remainingBudget, 0);
});

test('rules inside allOf run at runtime (CRDs cannot have them: they are not structural)', async () => {
  const spec = {
    type: 'object',
    'x-kubernetes-validations': [{ rule: 'has(self.a)' }],
    properties: { a: int },
    allOf: [{ 'x-kubernetes-validations': [{ rule: 'self.a > 0', message: 'a must be positive' }] }],
  };
  const w = widgetCRD(spec);
  const r = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', w.crd);
  assert.equal(r.status, 422);
  assert.match(r.json.message, /properties\[spec\]\.allOf\[0\]\.x-kubernetes-validations: Forbidden: must be empty to be structural/);
  const v = compileCelValidator(structural({ type: 'object', properties: { spec } }))!;
  const errs = (a: number) => v.validate({ apiVersion: 'x/v1', kind: 'W', metadata: { name: 'n' }, spec: { a } }, undefined).errors.map(fieldErrorString);
  assert.deepEqual(errs(1), []);
  assert.deepEqual(errs(-1), ['spec: Invalid value: "object": a must be positive']);
});

test('ratcheting: an unchanged map-list item keeps its failure as a warning; a changed one fails', async () => {
  const w = widgetCRD({ type: 'object', properties: { m: mapList } });
  await install(api, w);
  assertCreated(await create(api, w, 'r', { m: [{ k: 'a', v: -1 }, { k: 'b', v: 1 }] }));
  const cur = (await api.req('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${w.crd.metadata.name}`)).json;
  cur.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.m.items['x-kubernetes-validations'] = [{ rule: 'self.v >= 0', message: 'v must not be negative' }];
  assert.equal((await api.req('PUT', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${w.crd.metadata.name}`, cur)).status, 200);
  for (let i = 0; i < 200; i++) {
    const p = await api.req('POST', `${w.base}?dryRun=All`, { apiVersion: `${w.group}/v1`, kind: 'Widget', metadata: { name: 'p' }, spec: { m: [{ k: 'a', v: -1 }] } });
    if (p.status === 422) break;
    await new Promise((res) => setTimeout(res, 10));
  }
  // Reordered and with b changed: a is found again by its key and is unchanged.
  let r = await update(api, w, 'r', (o) => (o.spec.m = [{ k: 'b', v: 2 }, o.spec.m[0]]));
  assert.equal(r.status, 200, r.message);
  assert.deepEqual(r.warnings, ['spec.m[1]: Invalid value: "object": v must not be negative']);
  r = await update(api, w, 'r', (o) => (o.spec.m[1].v = -2));
  assertInvalid(r, w, 'r', 'spec.m[1]: Invalid value: "object": v must not be negative');
});

test('fieldPath into a map names the key', async () => {
  const w = widgetCRD({
    type: 'object',
    'x-kubernetes-validations': [{ rule: "self.labels['app.kubernetes.io/name'] != ''", message: 'empty name', fieldPath: ".labels['app.kubernetes.io/name']" }],
    properties: { labels: { type: 'object', additionalProperties: str } },
  });
  await install(api, w);
  assertInvalid(await create(api, w, 'f', { labels: { 'app.kubernetes.io/name': '' } }), w, 'f', 'spec.labels[app.kubernetes.io/name]: Invalid value: "object": empty name');
});

test('int-or-string: an operator the value does not support is a runtime overload error', async () => {
  const w = widgetCRD({ type: 'object', properties: { v: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [{ rule: 'self > 5' }] } } });
  await install(api, w);
  assertCreated(await create(api, w, 'num', { v: 6 }));
  assertInvalid(
    await create(api, w, 'str', { v: 'x' }),
    w,
    'str',
    `spec.v: Invalid value: "": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self > 5`,
  );
});

test('embedded resources expose apiVersion, kind and metadata.name to their rules', async () => {
  const w = widgetCRD({
    type: 'object',
    properties: {
      template: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
        'x-kubernetes-validations': [{ rule: "self.kind == 'ConfigMap' && self.metadata.name.startsWith('cm-')", message: 'a cm- ConfigMap' }],
      },
    },
  });
  await install(api, w);
  assertCreated(await create(api, w, 'ok', { template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-x' }, data: { a: 'b' } } }));
  assertInvalid(await create(api, w, 'bad', { template: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cm-x' } } }), w, 'bad', 'spec.template: Invalid value: "object": a cm- ConfigMap');
});

test('null values are not validated by their own rules', async () => {
  const w = widgetCRD({ type: 'object', properties: { n: { type: 'string', nullable: true, maxLength: 5, 'x-kubernetes-validations': [{ rule: "self != ''" }] } } });
  await install(api, w);
  assertCreated(await create(api, w, 'null', { n: null }));
  assertInvalid(await create(api, w, 'empty', { n: '' }), w, 'empty', `spec.n: Invalid value: "string": failed rule: self != ''`);
});

test('status writes ratchet unchanged status values too', async () => {
  const w = widgetCRD({ type: 'object', properties: { x: int } }, { status: { type: 'object', properties: { ready: int, total: int } } });
  await install(api, w);
  assertCreated(await create(api, w, 's', { x: 1 }));
  assert.equal((await update(api, w, 's', (o) => (o.status = { ready: 5, total: 1 }), '/status')).status, 200);
  const cur = (await api.req('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${w.crd.metadata.name}`)).json;
  const status = cur.spec.versions[0].schema.openAPIV3Schema.properties.status;
  status['x-kubernetes-validations'] = [{ rule: 'self.ready <= self.total', message: 'more ready than total' }];
  status.properties.ready.maximum = 3;
  // A spec bound changes with it, so that creates tell when the new schema is served.
  cur.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.x.maximum = 100;
  assert.equal((await api.req('PUT', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${w.crd.metadata.name}`, cur)).status, 200);
  for (let i = 0; i < 200 && (await create(api, w, 'probe', { x: 1000 })).status !== 422; i++) await new Promise((res) => setTimeout(res, 10));
  // status changes, so its rule fails for real; ready is unchanged, so its maximum is not enforced.
  assertInvalid(await update(api, w, 's', (o) => (o.status.total = 2), '/status'), w, 's', 'status: Invalid value: "object": more ready than total');
  // Spec writes leave status alone: the rule on the unchanged status is a warning.
  const r = await update(api, w, 's', (o) => (o.spec.x = 2));
  assert.equal(r.status, 200, r.message);
  assert.deepEqual(r.warnings, ['status: Invalid value: "object": more ready than total']);
});
