// The seed's CronTab validation example end to end through the engine: the aggregate kube prints
// in the 422 message, in kube's order (default, prune, validate).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregate, fieldErrorString } from '../../src/api/field-error.js';
import { compileSchema, type JSONSchemaProps } from '../../src/schema/compile.js';

const CRONTAB: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        image: { type: 'string' },
        replicas: { type: 'integer', minimum: 1, maximum: 10 },
      },
    },
  },
};

const write = (obj: Record<string, unknown>): string[] => {
  const c = compileSchema(CRONTAB);
  c.default(obj);
  c.prune(obj);
  return c.validate(obj).map(fieldErrorString);
};

test('seed "Validation": invalid cronSpec and replicas', () => {
  const c = compileSchema(CRONTAB);
  const obj = {
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: { name: 'my-new-cron-object' },
    spec: { cronSpec: '* * * *', image: 'my-awesome-cron-image', replicas: 15 },
  };
  c.default(obj);
  c.prune(obj);
  const errs = c.validate(obj);
  assert.equal(
    `CronTab.stable.example.com "my-new-cron-object" is invalid: ${aggregate(errs)}`,
    'CronTab.stable.example.com "my-new-cron-object" is invalid: [' +
      "spec.cronSpec: Invalid value: \"* * * *\": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$', " +
      'spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10]',
  );
  assert.deepEqual(
    errs.map((e) => [e.type, e.field]),
    [
      ['FieldValueInvalid', 'spec.cronSpec'],
      ['FieldValueInvalid', 'spec.replicas'],
    ],
  );
});

test('seed "Validation": the valid CronTab is accepted', () => {
  assert.deepEqual(write({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-new-cron-object' }, spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 5 } }), []);
});

test('type errors: replicas as a string, spec as a list', () => {
  assert.deepEqual(write({ spec: { replicas: 'string' } }), ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"']);
  assert.deepEqual(write({ spec: [] }), ['spec: Invalid value: "array": spec in body must be of type object: "array"']);
  assert.deepEqual(write({ spec: { replicas: 3.5 } }), ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"']);
});

test('a compiled schema is reused across calls without leaking state', () => {
  const c = compileSchema(CRONTAB);
  assert.equal(c.validate({ spec: { replicas: 0 } }).length, 1);
  assert.deepEqual(c.validate({ spec: { replicas: 1 } }), []);
  assert.deepEqual(c.validate({ spec: { items: [{}] } }), []);
  assert.deepEqual(c.validate({ spec: { replicas: 11 } }).map((e) => e.field), ['spec.replicas']);
});

test('generated code is safe for any property name', () => {
  const names = ['a"b', "a'b", 'a\\b', 'line\nbreak', '\u2028', '</script>', '${x}', '`', 'constructor', '__proto__', ''];
  const props = Object.fromEntries(names.map((n) => [n, { type: 'string', maxLength: 1, default: 'd' }]));
  const c = compileSchema({ type: 'object', properties: { spec: { type: 'object', required: names, properties: props } } });
  const spec = JSON.parse(JSON.stringify(Object.fromEntries(names.map((n) => [n, 'toolong']))));
  const obj = { spec: { ...spec, extra: 1 } };
  assert.deepEqual(c.prune(obj, { returnPruned: true }), ['spec.extra']);
  const errs = c.validate(obj).map((e) => e.field);
  assert.equal(errs.length, names.length, JSON.stringify(errs));
  assert.ok(errs.includes('spec.a"b') && errs.includes('spec.line\nbreak') && errs.includes('spec.__proto__'));
  const empty = { spec: {} };
  c.default(empty);
  assert.equal(Object.keys(empty.spec).length, names.length);
  assert.deepEqual(c.validate(empty), []);
});
