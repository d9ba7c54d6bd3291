// JSON as CEL values with Kubernetes' UnstructuredToVal semantics: lazy objects and maps, null
// fields absent, set and map lists, int-or-string, string formats, escaped property names.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonToVal, JsonMap, JsonObject } from '../../src/cel/json-values.js';
import { BOOL, BYTES, DOUBLE, DURATION, DYN, INT, STRING, TIMESTAMP, listOf, mapOf } from '../../src/cel/types.js';
import type { CelType, FieldDecl, ListType, ObjectType } from '../../src/cel/types.js';
import { CelError, Duration, listSemantics, Timestamp } from '../../src/cel/values.js';
import type { Val } from '../../src/cel/values.js';
import { value } from './runtime-harness.js';

const object = (name: string, fields: Record<string, CelType | FieldDecl>): ObjectType => ({
  kind: 'object',
  name,
  fields: new Map(
    Object.entries(fields).map(([k, t]) => [k, 'jsonName' in t ? t : { type: t, jsonName: k }]),
  ),
});

const ITEM = object('item', { name: STRING, value: INT });
const TAGS: ListType = { kind: 'list', elem: STRING, listType: 'set' };
const ITEMS: ListType = { kind: 'list', elem: ITEM, listType: 'map', mapKeys: ['name'] };
const SPEC = object('spec', {
  replicas: INT,
  ratio: DOUBLE,
  enabled: BOOL,
  tags: TAGS,
  items: ITEMS,
  plain: listOf(INT),
  labels: mapOf(STRING, STRING),
  when: TIMESTAMP,
  day: TIMESTAMP,
  timeout: DURATION,
  data: BYTES,
  port: DYN,
  nullable: STRING,
  x__dash__y: { type: STRING, jsonName: 'x-y' },
});

const spec = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  replicas: 3,
  ratio: 2,
  enabled: true,
  tags: ['a', 'b'],
  items: [
    { name: 'a', value: 1 },
    { name: 'b', value: 2 },
  ],
  plain: [1, 2],
  labels: { app: 'web', tier: 'front' },
  when: '2024-01-02T03:04:05.5+02:00',
  day: '2024-01-02',
  timeout: '1h30m',
  data: 'aGVsbG8=',
  port: 8080,
  'x-y': 'dashed',
  ...overrides,
});

const run = (src: string, self: Record<string, unknown>, old?: Record<string, unknown>): Val =>
  value(src, {
    types: { self: SPEC, oldSelf: SPEC },
    vars: { self: jsonToVal(self, SPEC), ...(old ? { oldSelf: jsonToVal(old, SPEC) } : {}) },
  });

describe('jsonToVal', () => {
  test('scalars follow the declared type', () => {
    assert.equal(jsonToVal(3, INT), 3n);
    assert.equal(jsonToVal(12345678901234567890n, INT), 12345678901234567890n);
    assert.equal(jsonToVal(2, DOUBLE), 2);
    assert.equal(jsonToVal('x', STRING), 'x');
    assert.equal(jsonToVal(null, STRING), null);
    assert.deepEqual(jsonToVal('aGk=', BYTES), new Uint8Array([104, 105]));
    assert.deepEqual(jsonToVal('1d2h', DURATION), new Duration(93_600_000_000_000n));
    assert.deepEqual(jsonToVal('2024-01-02', TIMESTAMP), new Timestamp(1704153600000000000n));
    assert.deepEqual(jsonToVal('2024-01-02T00:00:00', TIMESTAMP), new Timestamp(1704153600000000000n));
  });

  test('int-or-string and untyped values are converted structurally', () => {
    assert.equal(jsonToVal(80, DYN), 80n);
    assert.equal(jsonToVal('80%', DYN), '80%');
    assert.equal(jsonToVal(1.5, DYN), 1.5);
    const m = jsonToVal({ a: [1, 'x'] }, DYN);
    assert.ok(m instanceof JsonMap);
    assert.deepEqual([...(m.get('a') as Val[])], [1n, 'x']);
  });

  test('data that does not fit the type is an error value', () => {
    assert.deepEqual(jsonToVal(1.5, INT), new CelError('invalid data, expected int, got float64'));
    assert.deepEqual(jsonToVal(1, STRING), new CelError('invalid data, expected string, got int64'));
    assert.ok(jsonToVal('nope', TIMESTAMP) instanceof CelError);
    assert.ok(jsonToVal('###', BYTES) instanceof CelError);
    assert.ok(jsonToVal([1], SPEC) instanceof CelError);
  });

  test('objects are lazy and lists carry their list type', () => {
    const v = jsonToVal(spec({ nullable: null }), SPEC);
    assert.ok(v instanceof JsonObject);
    assert.equal(v.field('replicas'), 3n);
    assert.equal(v.field('nullable'), undefined);
    assert.equal(v.hasField('nullable'), false);
    assert.equal(v.field('x__dash__y'), 'dashed');
    assert.equal(v.field('x-y'), 'dashed');
    const tags = v.field('tags') as Val[];
    assert.equal(listSemantics(tags)?.listType, 'set');
  });
});

describe('Kubernetes objects in expressions', () => {
  test('fields, numbers and formats', () => {
    assert.equal(run('self.replicas + 1', spec()), 4n);
    assert.equal(run('self.ratio', spec()), 2);
    assert.equal(run('type(self.ratio) == double', spec()), true);
    assert.equal(run('self.when.getHours()', spec()), 1n);
    assert.equal(run('string(self.when)', spec()), '2024-01-02T03:04:05.5+02:00');
    assert.equal(run('self.day.getDate()', spec()), 2n);
    assert.equal(run('self.timeout == duration("90m")', spec()), true);
    assert.equal(run('string(self.data)', spec()), 'hello');
    assert.equal(run('self.x__dash__y', spec()), 'dashed');
  });

  test('null fields are absent', () => {
    const self = spec({ nullable: null });
    assert.equal(run('has(self.nullable)', self), false);
    assert.equal(run('has(self.replicas)', self), true);
    assert.deepEqual(run('self.nullable', self), new CelError('no such key: nullable'));
    assert.equal(run("self.?nullable.orValue('none')", self), 'none');
  });

  test('objects are maps at runtime', () => {
    assert.equal(run('type(self) == map', spec()), true);
    assert.equal(run('self.labels.app', spec()), 'web');
    assert.equal(run("'tier' in self.labels && size(self.labels) == 2", spec()), true);
    assert.deepEqual(run('self.labels.map(k, k)', spec()), ['app', 'tier']);
    assert.deepEqual(run('self.items.map(i, i.name + string(i.value))', spec()), ['a1', 'b2']);
    assert.deepEqual(run('self.labels.missing', spec()), new CelError('no such key: missing'));
  });

  test('int-or-string values keep their JSON kind', () => {
    assert.equal(run('type(self.port) == int && self.port > 1024', spec()), true);
    assert.equal(run("type(self.port) == string && self.port.endsWith('%')", spec({ port: '50%' })), true);
    assert.deepEqual(run('self.port + 1', spec({ port: 'http' })), new CelError('no such overload'));
  });

  test('set lists compare without order and union on +', () => {
    assert.equal(run("self.tags == ['b', 'a']", spec()), true);
    // The left operand decides: a literal list compares in order.
    assert.equal(run("['b', 'a'] == self.tags", spec()), false);
    assert.deepEqual([...(run("self.tags + ['c', 'a', 'c']", spec()) as Val[])], ['a', 'b', 'c']);
    assert.equal(run('self.tags == oldSelf.tags', spec(), spec({ tags: ['b', 'a'] })), true);
    assert.equal(run("(self.tags + ['c']) == ['c', 'b', 'a']", spec()), true);
  });

  test('map lists compare by key and merge on +', () => {
    const old = spec({ items: [{ name: 'b', value: 2 }, { name: 'a', value: 1 }] });
    assert.equal(run('self.items == oldSelf.items', spec(), old), true);
    assert.equal(run('self.items == oldSelf.items', spec(), spec({ items: [{ name: 'a', value: 1 }, { name: 'b', value: 3 }] })), false);
    const other = spec({ items: [{ name: 'b', value: 3 }, { name: 'c', value: 4 }] });
    assert.deepEqual(
      run("(self.items + oldSelf.items).map(i, i.name + '=' + string(i.value))", spec(), other),
      ['a=1', 'b=3', 'c=4'],
    );
  });

  test('atomic lists compare in order', () => {
    assert.equal(run('self.plain == [1, 2]', spec()), true);
    assert.equal(run('self.plain == [2, 1]', spec()), false);
    assert.deepEqual([...(run('self.plain + [3]', spec()) as Val[])], [1n, 2n, 3n]);
    assert.equal(run('2 in self.plain', spec()), true);
  });

  test('object equality follows unstructured semantics', () => {
    assert.equal(run('self == oldSelf', spec(), spec()), true);
    assert.equal(run('self == oldSelf', spec(), spec({ replicas: 4 })), false);
    assert.equal(run('self.items[0] == oldSelf.items[0]', spec(), spec()), true);
    // Kubernetes treats a null field as absent on lookup, so objects holding one never compare equal.
    const withNull = spec({ nullable: null });
    assert.equal(run('self == oldSelf', withNull, withNull), false);
  });
});
