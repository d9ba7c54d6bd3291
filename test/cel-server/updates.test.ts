// Rules on updates and at runtime: the seed's "Transition rules" examples, optionalOldSelf,
// messageExpression / reason / fieldPath, evaluation errors, rules blocked by schema errors,
// status writes, validation ratcheting (rules and schema), and the runtime cost limits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';
import { assertCreated, assertInvalid, create, install, update, widgetCRD, type WidgetCRD } from './helpers.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(async () => {
  await api?.close();
});

const str = { type: 'string' };
const int = { type: 'integer' };

/** A spec with one field `v` of the given schema carrying the rule. */
const field = (schema: Record<string, unknown>, rule: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  properties: { v: { ...schema, 'x-kubernetes-validations': [rule] }, other: str },
});

async function transition(schema: Record<string, unknown>, rule: string, from: unknown, to: unknown, ok: boolean, message?: string): Promise<void> {
  const w = widgetCRD(field(schema, message ? { rule, message } : { rule }));
  await install(api, w);
  assertCreated(await create(api, w, 't', { v: from }));
  const r = await update(api, w, 't', (o) => (o.spec.v = to));
  const type = String(schema['type']);
  if (ok) assert.equal(r.status, 200, r.message);
  else assertInvalid(r, w, 't', `spec.v: Invalid value: "${type}": ${message ?? `failed rule: ${rule}`}`);
}

test('transition rules: the seed examples', async () => {
  const lowHigh = "!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')";
  const levels = { type: 'string', enum: ['low', 'medium', 'high'] };
  await transition(levels, lowHigh, 'low', 'high', false, "cannot transition directly between 'low' and 'high'");
  await transition(levels, lowHigh, 'low', 'medium', true, "cannot transition directly between 'low' and 'high'");
  await transition({ type: 'object', properties: { foo: str } }, 'self.foo == oldSelf.foo', { foo: 'a' }, { foo: 'b' }, false);
  await transition(str, "oldSelf != 'bar' || self == 'bar'", 'bar', 'baz', false);
  await transition(str, "oldSelf != 'bar' || self == 'bar'", 'foo', 'baz', true);
  await transition({ type: 'object', properties: { field: str } }, '!has(oldSelf.field) || has(self.field)', { field: 'x' }, {}, false);
  // Walking a list inside a list needs bounds to fit the cost budget.
  const set = { type: 'array', maxItems: 50, 'x-kubernetes-list-type': 'set', items: { type: 'string', maxLength: 10 } };
  await transition(set, 'self.all(element, element in oldSelf)', ['a', 'b'], ['b'], true);
  await transition(set, 'self.all(element, element in oldSelf)', ['a'], ['a', 'c'], false);
  await transition(str, "oldSelf != 'X' || self in ['A', 'B']", 'X', 'A', true);
  await transition(str, "oldSelf != 'X' || self in ['A', 'B']", 'X', 'Y', false);
  await transition(int, 'self >= oldSelf', 5, 4, false);
  await transition(int, 'self >= oldSelf', 5, 6, true);
});

test('transition rules: never on create, nor when the old or new value is absent', async () => {
  const w = widgetCRD(field(int, { rule: 'self >= oldSelf' }));
  await install(api, w);
  assertCreated(await create(api, w, 'a', { v: 5 }));
  // Unset, then set again lower: neither update has both values.
  assert.equal((await update(api, w, 'a', (o) => delete o.spec.v)).status, 200);
  assert.equal((await update(api, w, 'a', (o) => (o.spec.v = 1))).status, 200);
});

test('optionalOldSelf: the rule runs on create with oldSelf empty', async () => {
  const rule = 'oldSelf.hasValue() ? self >= oldSelf.value() : self < 10';
  const w = widgetCRD(field(int, { rule, optionalOldSelf: true }));
  await install(api, w);
  assertInvalid(await create(api, w, 'big', { v: 10 }), w, 'big', `spec.v: Invalid value: "integer": failed rule: ${rule}`);
  assertCreated(await create(api, w, 'small', { v: 5 }));
  assert.equal((await update(api, w, 'small', (o) => (o.spec.v = 50))).status, 200);
  assertInvalid(await update(api, w, 'small', (o) => (o.spec.v = 40)), w, 'small', `spec.v: Invalid value: "integer": failed rule: ${rule}`);
});

test('messageExpression, reason and fieldPath', async () => {
  const rules = [
    // Strings built with string(int) have no size bound: kube's estimate refuses them in messageExpressions.
    { rule: 'self.replicas < 10', messageExpression: "self.replicas > 50 ? 'way too many replicas for ' + self.name : 'too many replicas'" },
    { rule: 'self.replicas < 20', message: 'forbidden', reason: 'FieldValueForbidden', fieldPath: '.replicas' },
    { rule: 'has(self.name)', message: 'name is required', reason: 'FieldValueRequired', fieldPath: '.name' },
    { rule: 'self.replicas < 30', reason: 'FieldValueDuplicate' },
    { rule: 'self.replicas < 40', message: 'fallback message', messageExpression: "self.labels['missing']" },
    { rule: 'self.replicas < 50', messageExpression: "'  '" },
  ];
  const w = widgetCRD({
    type: 'object',
    'x-kubernetes-validations': rules,
    properties: { replicas: int, name: { type: 'string', maxLength: 20 }, labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 20 } } },
  });
  await install(api, w);
  let r = await create(api, w, 'm', { replicas: 60, labels: {} });
  // Without name, the messageExpression fails to evaluate: the rule's failed-rule text stands in.
  assertInvalid(r, w, 'm', [
    'spec: Invalid value: "object": failed rule: self.replicas < 10',
    'spec.replicas: Forbidden: forbidden',
    'spec.name: Required value: name is required',
    'spec: Duplicate value: "object"',
    'spec: Invalid value: "object": fallback message',
    'spec: Invalid value: "object": failed rule: self.replicas < 50',
  ]);
  r = await create(api, w, 'n', { replicas: 60, name: 'app', labels: {} });
  assert.equal(r.status, 422);
  assert.ok(r.message.startsWith(`Widget.${w.group} "n" is invalid: [spec: Invalid value: "object": way too many replicas for app, spec.replicas: Forbidden: forbidden, spec: Duplicate value: "object"`), r.message);
  r = await create(api, w, 'o', { replicas: 15, name: 'app', labels: {} });
  assertInvalid(r, w, 'o', 'spec: Invalid value: "object": too many replicas');
});

test('evaluation errors are reported with the rule', async () => {
  const rule = "self.labels['x'] == 'y'";
  const w = widgetCRD({ type: 'object', 'x-kubernetes-validations': [{ rule }], properties: { labels: { type: 'object', additionalProperties: str } } });
  await install(api, w);
  assertInvalid(await create(api, w, 'e', { labels: {} }), w, 'e', `spec: Invalid value: "object": no such key: x evaluating rule: ${rule}`);
});

test('rules are not run when schema errors make the object unusable', async () => {
  const w = widgetCRD({ type: 'object', 'x-kubernetes-validations': [{ rule: "self.a == 'y'" }], properties: { a: { type: 'string', enum: ['y'] }, b: { type: 'string', maxLength: 1 } } });
  await install(api, w);
  assertInvalid(await create(api, w, 'blocked', { a: 'x' }), w, 'blocked', [
    'spec.a: Unsupported value: "x": supported values: "y"',
    '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  ]);
});

test('status writes: rules of the whole object run; the status schema validates status', async () => {
  const w = widgetCRD(
    { type: 'object', properties: { total: int } },
    { status: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.ready <= self.total', message: 'more ready than total' }], properties: { ready: int, total: int } } },
  );
  await install(api, w);
  assertCreated(await create(api, w, 's', { total: 3 }));
  let r = await update(api, w, 's', (o) => (o.status = { ready: 4, total: 3 }), '/status');
  assertInvalid(r, w, 's', 'status: Invalid value: "object": more ready than total');
  r = await update(api, w, 's', (o) => (o.status = { ready: 2, total: 3 }), '/status');
  assert.equal(r.status, 200, r.message);
});

/** Installs w, then replaces its schema with `next` (same group), waiting until the new one is served. */
async function changeSchema(w: WidgetCRD, spec: Record<string, unknown>, probeSpec: unknown): Promise<void> {
  const cur = await api.req('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${w.crd.metadata.name}`);
  const crd = cur.json;
  crd.spec.versions[0].schema.openAPIV3Schema.properties.spec = spec;
  const r = await api.req('PUT', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${w.crd.metadata.name}`, crd);
  assert.equal(r.status, 200, r.text);
  // The served resource is rebuilt asynchronously: wait until the new schema validates.
  for (let i = 0; i < 200; i++) {
    const probe = await api.req('POST', `${w.base}?dryRun=All`, { apiVersion: `${w.group}/v1`, kind: 'Widget', metadata: { name: 'probe' }, spec: probeSpec });
    if (probe.status === 422) return;
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error('new schema never served');
}

test('ratcheting: unchanged values keep passing rules and schema checks they now fail', async () => {
  const w = widgetCRD({ type: 'object', properties: { a: str, b: str } });
  await install(api, w);
  assertCreated(await create(api, w, 'r', { a: 'bad', b: 'x' }));
  await changeSchema(w, {
    type: 'object',
    properties: { a: { type: 'string', maxLength: 3, 'x-kubernetes-validations': [{ rule: "!self.startsWith('bad')", message: 'no bad' }] }, b: str },
  }, { a: 'bad' });
  // a is unchanged: its rule failure is a warning, its schema error (none here, 'bad' fits) would be dropped.
  let r = await update(api, w, 'r', (o) => (o.spec.b = 'y'));
  assert.equal(r.status, 200, r.message);
  assert.deepEqual(r.warnings, ['spec.a: Invalid value: "string": no bad']);
  r = await update(api, w, 'r', (o) => (o.spec.a = 'bad!'));
  assertInvalid(r, w, 'r', ['spec.a: Too long: may not be more than 3 bytes', '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation']);
  r = await update(api, w, 'r', (o) => (o.spec.a = 'bax'));
  assert.equal(r.status, 200, r.message);
});

test('ratcheting: schema errors of unchanged values are dropped', async () => {
  const w = widgetCRD({ type: 'object', properties: { a: str, b: str } });
  await install(api, w);
  assertCreated(await create(api, w, 's', { a: 'toolong', b: 'x' }));
  await changeSchema(w, { type: 'object', properties: { a: { type: 'string', maxLength: 3 }, b: { type: 'string', pattern: '^[a-z]$' } } }, { a: 'toolong' });
  let r = await update(api, w, 's', (o) => (o.spec.b = 'y'));
  assert.equal(r.status, 200, r.message);
  assert.deepEqual(r.warnings, []);
  r = await update(api, w, 's', (o) => (o.spec.a = 'toolonger'));
  assert.equal(r.status, 422);
  assert.match(r.message, /spec\.a: Too long: may not be more than 3 bytes/);
});

test('runtime cost: one evaluation over the per-call limit stops validation', async () => {
  const rule = 'self.l.all(x, self.l.all(y, x != y || x == y))';
  const w = widgetCRD({ type: 'object', 'x-kubernetes-validations': [{ rule }], properties: { l: { type: 'array', maxItems: 800, items: { type: 'string', maxLength: 4 } } } });
  await install(api, w);
  assertCreated(await create(api, w, 'small', { l: ['a', 'b'] }));
  const l = Array.from({ length: 800 }, (_, i) => String(i));
  const r = await create(api, w, 'big', { l });
  assertInvalid(r, w, 'big', `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`);
});
