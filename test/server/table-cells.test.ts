// Table convertors and cells as kube-apiserver builds them: the apiextensions convertor for printer
// columns (headers, JSONPath cells, type mismatches, dates), the default convertor CRDs print with,
// the namespace printer, Table encoding details, and CRD validation of column definitions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toTable } from '../../src/server/table.js';
import {
  DEFAULT_PRINTER_COLUMNS,
  customResourceTableConvertor,
  defaultTableConvertor,
  scalePrinterColumns,
} from '../../src/registry/table-convertors.js';
import { ageOf, cellForJsonValue, createdAt, humanReadableAge, parseGoTime } from '../../src/registry/table-cells.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { namespaceKind } from '../../src/apis/core/v1/namespace.js';
import { GoNumber } from '../../src/util/jsonpath.js';
import { validateColumn } from '../../src/crd/validation.js';
import { fieldErrorString } from '../../src/api/field-error.js';
import type { PrinterColumn } from '../../src/api/resource.js';

const NOW = Date.parse('2024-06-01T12:00:00Z');
const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const CREATION_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

test('parseGoTime: time.Parse(RFC3339) as metav1.Time reads query parameters', () => {
  const ms = (s: string): number | undefined => parseGoTime(s)?.ms;
  assert.equal(ms('2024-06-01T11:59:00Z'), NOW - 60_000);
  assert.equal(ms('2024-06-01T13:59:00+02:00'), NOW - 60_000);
  assert.equal(ms('2024-06-01T09:29:00-02:30'), NOW - 60_000);
  assert.equal(ms('2024-06-01T11:59:00.250Z'), NOW - 59_750);
  assert.equal(ms('2024-06-01T11:59:00,5Z'), NOW - 59_500); // Go's general parser takes a comma
  assert.equal(ms('2024-06-01T9:00:00Z'), Date.parse('2024-06-01T09:00:00Z')); // and a one-digit hour
  assert.equal(ms('2024-02-29T00:00:00Z'), Date.parse('2024-02-29T00:00:00Z'));
  assert.equal(ms('0099-01-01T00:00:00Z'), -59042995200000); // not 1999
  for (const bad of [
    '2023-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-06-01T24:00:00Z',
    '2024-06-01T12:60:00Z',
    '2024-06-01T12:00:60Z',
    '2024-06-01t12:00:00Z',
    '2024-06-01T12:00:00z',
    '2024-06-01T12:00:00',
    '2024-06-01 12:00:00Z',
    '2024-06-01',
    '2024-06-01T12:00:00+0200',
    '2024-06-01T12:00:00+25:00',
    'yesterday',
  ]) {
    assert.equal(parseGoTime(bad), undefined, bad);
  }
  assert.deepEqual(parseGoTime(''), { ms: -62135596800000, zero: true });
  assert.deepEqual(parseGoTime('null'), { ms: -62135596800000, zero: true });
  assert.equal(parseGoTime('0001-01-01T00:00:00Z')?.zero, true);
  assert.equal(parseGoTime('0001-01-01T01:00:00+01:00')?.zero, true);
  assert.equal(parseGoTime('0001-01-01T00:00:00.000000001Z')?.zero, false);
});

test('ages: duration.HumanDuration of time since, <unknown> for the zero time', () => {
  const age = (s: string): string => humanReadableAge(parseGoTime(s)!, NOW);
  assert.equal(age('2024-06-01T11:59:53Z'), '7s');
  assert.equal(age('2024-06-01T11:59:52.5Z'), '7s'); // truncated, not rounded
  assert.equal(age('2024-06-01T11:58:00Z'), '2m');
  assert.equal(age('2024-06-01T11:55:30Z'), '4m30s');
  assert.equal(age('2024-06-01T08:40:00Z'), '3h20m');
  assert.equal(age('2024-05-30T12:00:00Z'), '2d');
  assert.equal(age('2024-05-29T09:00:00Z'), '3d3h');
  assert.equal(age('2021-06-01T12:00:00Z'), '3y1d'); // 1096 days
  assert.equal(age('2016-06-01T12:00:00Z'), '8y');
  assert.equal(age('1024-06-01T12:00:00Z'), '292y'); // time.Since saturates
  assert.equal(age('2024-06-01T12:00:01.5Z'), '0s'); // a little in the future is "now"
  assert.equal(age('2024-06-01T12:00:02Z'), '<invalid>');
  assert.equal(age('0001-01-01T00:00:00Z'), '<unknown>');
  assert.equal(ageOf(undefined, NOW), '<unknown>');
  assert.equal(ageOf('2024-06-01T11:00:00Z', NOW), '60m');
});

test('createdAt: the creation timestamp in UTC, RFC 3339 without fractions', () => {
  assert.equal(createdAt('2024-06-01T12:00:00Z'), '2024-06-01T12:00:00Z');
  assert.equal(createdAt('2024-06-01T14:00:00.9+02:00'), '2024-06-01T12:00:00Z');
  assert.equal(createdAt(undefined), '0001-01-01T00:00:00Z');
  assert.equal(createdAt('garbage'), '0001-01-01T00:00:00Z');
});

test('cellForJsonValue: values of the wrong Go type are omitted', () => {
  const cell = (type: string, v: unknown): unknown => cellForJsonValue(type, v, NOW);
  assert.equal(cell('integer', 3), 3);
  assert.equal(cell('integer', 2.7), 2);
  assert.equal(cell('integer', -2.7), -2);
  assert.equal(cell('integer', new GoNumber('float64', 9.9)), 9);
  assert.equal(cell('integer', new GoNumber('int', 9)), null); // a template's int literal is a Go int, not int64
  assert.equal(cell('integer', '3'), null);
  assert.equal(cell('integer', true), null);
  assert.equal(cell('number', 4), 4);
  assert.equal(cell('number', 0.25), 0.25);
  assert.equal(cell('number', '0.25'), null);
  assert.equal(cell('boolean', false), false);
  assert.equal(cell('boolean', 'true'), null);
  assert.equal(cell('date', '2024-06-01T11:59:53Z'), '7s');
  assert.equal(cell('date', ''), '<unknown>');
  assert.equal(cell('date', 'yesterday'), '<invalid>');
  assert.equal(cell('date', 1700000000), null);
  assert.equal(cell('string', 'x'), 'x');
  assert.equal(cell('string', 1), null);
  assert.equal(cell('uuid', 'x'), null);
  for (const t of ['integer', 'number', 'boolean', 'string', 'date']) {
    assert.equal(cell(t, null), null);
    assert.equal(cell(t, { a: 1 }), null);
    assert.equal(cell(t, [1]), null);
  }
});

const seedColumns: PrinterColumn[] = [
  { name: 'Spec', type: 'string', description: 'The cron spec defining the interval a CronJob is run', jsonPath: '.spec.cronSpec' },
  { name: 'Replicas', type: 'integer', description: 'The number of jobs launched by the CronJob', jsonPath: '.spec.replicas' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

const cronTab = (spec: Record<string, unknown>, created = new Date(Date.now() - 7000).toISOString()): Record<string, unknown> => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name: 'my-new-cron-object', namespace: 'default', creationTimestamp: created },
  spec,
});

test('custom resource convertor: the seed columns after the implicit Name column', () => {
  const conv = customResourceTableConvertor(seedColumns);
  assert.deepEqual(conv.columns, [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
    { name: 'Spec', type: 'string', format: '', description: 'The cron spec defining the interval a CronJob is run', priority: 0 },
    { name: 'Replicas', type: 'integer', format: '', description: 'The number of jobs launched by the CronJob', priority: 0 },
    { name: 'Age', type: 'date', format: '', description: 'Custom resource definition column (in JSONPath format): .metadata.creationTimestamp', priority: 0 },
  ]);
  const cells = conv.cells(cronTab({ cronSpec: '* * * * *', image: 'my-awesome-cron-image', replicas: 1 }));
  assert.deepEqual(cells.slice(0, 3), ['my-new-cron-object', '* * * * *', 1]);
  assert.match(String(cells[3]), /^[78]s$/);
  // Absent values are empty cells, even the Age column's (it is a JSONPath like any other).
  assert.deepEqual(conv.cells({ metadata: {} }), ['', null, null, null]);
  assert.deepEqual(conv.cells({ metadata: { creationTimestamp: null } }), ['', null, null, null]);
  assert.deepEqual(conv.cells({ metadata: { creationTimestamp: '' } }), ['', null, null, '<unknown>']);
});

test('custom resource convertor: format and priority pass through; no columns means Age', () => {
  const conv = customResourceTableConvertor([
    { name: 'Wide', type: 'number', format: 'double', priority: 2, jsonPath: '.spec.x' },
    { name: 'Desc', type: 'string', description: '', jsonPath: '.spec.y' },
  ]);
  assert.deepEqual(conv.columns.slice(1), [
    { name: 'Wide', type: 'number', format: 'double', description: 'Custom resource definition column (in JSONPath format): .spec.x', priority: 2 },
    { name: 'Desc', type: 'string', format: '', description: 'Custom resource definition column (in JSONPath format): .spec.y', priority: 0 },
  ]);
  for (const none of [undefined, []]) {
    const d = customResourceTableConvertor(none);
    assert.deepEqual(d.columns.slice(1), [{ name: 'Age', type: 'date', format: '', description: CREATION_DESCRIPTION, priority: 0 }]);
    assert.match(String(d.cells(cronTab({}))[1]), /^[78]s$/);
  }
  assert.equal(DEFAULT_PRINTER_COLUMNS[0]!.jsonPath, '.metadata.creationTimestamp');
});

test('custom resource convertor: string columns print any value as JSONPath does', () => {
  const conv = customResourceTableConvertor([{ name: 'V', type: 'string', jsonPath: '.spec.v' }]);
  const cell = (v: unknown): unknown => conv.cells(cronTab({ v }))[1];
  assert.equal(cell('text'), 'text');
  assert.equal(cell(42), '42');
  assert.equal(cell(0.000015), '1.5e-05');
  assert.equal(cell(true), 'true');
  assert.equal(cell(['a', 1]), '["a",1]');
  assert.equal(cell({ b: 1, a: '<' }), '{"a":"\\u003c","b":1}');
  assert.equal(cell(null), '<no value>');
});

test('custom resource convertor: JSONPath features, first result only, errors give empty cells', () => {
  const conv = customResourceTableConvertor([
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'First', type: 'string', jsonPath: '.spec.items[*].name' },
    { name: 'Last', type: 'integer', jsonPath: '.spec.items[-1].n' },
    { name: 'Out', type: 'string', jsonPath: '.spec.items[9]' },
    { name: 'Key', type: 'string', jsonPath: '.metadata.labels.app\\.kubernetes\\.io/name' },
    { name: 'Both', type: 'string', jsonPath: '.spec.items[1].name} and {.spec.items[0].name' },
    { name: 'Bad', type: 'string', jsonPath: '.status.conditions[?(@.n==1.5)].type' },
    { name: 'Deep', type: 'boolean', jsonPath: '..enabled' },
  ]);
  const obj = {
    metadata: { name: 'x', labels: { 'app.kubernetes.io/name': 'web' } },
    spec: { items: [{ name: 'one', n: 1 }, { name: 'two', n: 2 }], nested: { enabled: true } },
    status: { conditions: [{ type: 'Synced', status: 'False', n: 1 }, { type: 'Ready', status: 'True', n: 2 }] },
  };
  assert.deepEqual(conv.cells(obj), ['x', 'True', 'one', 2, null, 'web', 'two', null, true]);
});

test('custom resource convertor: a path that does not parse ends the columns there', () => {
  const conv = customResourceTableConvertor([
    { name: 'A', type: 'string', jsonPath: '.spec.a' },
    { name: 'B', type: 'string', jsonPath: '.spec.b[' },
    { name: 'C', type: 'string', jsonPath: '.spec.c' },
  ]);
  assert.deepEqual(
    conv.columns.map((c) => c.name),
    ['Name', 'A'],
  );
  assert.deepEqual(conv.cells({ metadata: { name: 'n' }, spec: { a: 1, c: 3 } }), ['n', '1']);
  assert.equal(customResourceTableConvertor([{ name: 'X', type: 'string', jsonPath: '.a{' }]).columns.length, 1);
});

test('scale subresource columns: Desired and Available over the Scale object, then Age', () => {
  assert.deepEqual(
    scalePrinterColumns({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' }).map((c) => [c.name, c.type, c.jsonPath, c.description]),
    [
      ['Desired', 'integer', '.spec.replicas', 'Number of desired replicas'],
      ['Available', 'integer', '.status.replicas', 'Number of actual replicas'],
      ['Age', 'date', '.metadata.creationTimestamp', CREATION_DESCRIPTION],
    ],
  );
  assert.deepEqual(
    scalePrinterColumns({ specReplicasPath: '.spec.n' }).map((c) => c.name),
    ['Desired', 'Age'],
  );
});

test('default convertor (CustomResourceDefinitions): Name and Created At', () => {
  assert.deepEqual(defaultTableConvertor.columns, [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
    { name: 'Created At', type: 'date', format: '', description: CREATION_DESCRIPTION, priority: 0 },
  ]);
  assert.deepEqual(defaultTableConvertor.cells({ metadata: { name: 'crontabs.stable.example.com', creationTimestamp: '2024-06-01T12:00:00Z' } }), [
    'crontabs.stable.example.com',
    '2024-06-01T12:00:00Z',
  ]);
});

test('namespace printer: NAME STATUS AGE', () => {
  const namespaceTableConvertor = builtinResourceType(namespaceKind).table;
  assert.deepEqual(
    namespaceTableConvertor.columns.map((c) => [c.name, c.type, c.format]),
    [
      ['Name', 'string', 'name'],
      ['Status', 'string', ''],
      ['Age', 'string', ''],
    ],
  );
  const cells = namespaceTableConvertor.cells({ metadata: { name: 'ns', creationTimestamp: new Date(Date.now() - 3000).toISOString() }, status: { phase: 'Active' } });
  assert.deepEqual(cells.slice(0, 2), ['ns', 'Active']);
  assert.match(String(cells[2]), /^[34]s$/);
});

test('toTable: kube encodes columnDefinitions and rows even when empty', () => {
  const cr = customResourceTableConvertor(seedColumns);
  const opts = { includeObject: 'None' as const, version: 'v1' as const };
  let t = toTable(cr, [], { resourceVersion: '5' }, opts);
  assert.deepEqual(t, { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '5' }, columnDefinitions: cr.columns, rows: [] });
  t = toTable(defaultTableConvertor, [], {}, { ...opts, noHeaders: true });
  assert.deepEqual(t, { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {}, columnDefinitions: null, rows: null });
  const obj = cronTab({ cronSpec: 'x' });
  t = toTable(cr, [obj], {}, { includeObject: 'Metadata', version: 'v1beta1' });
  assert.equal(t['apiVersion'], 'meta.k8s.io/v1beta1');
  assert.deepEqual((t['rows'] as any)[0].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: obj['metadata'] });
  t = toTable(cr, [obj], {}, { includeObject: 'Object', version: 'v1' });
  assert.equal((t['rows'] as any)[0].object, obj);
});

test('validateColumn: ValidateCustomResourceColumnDefinition messages', () => {
  const errs = (col: Record<string, unknown>): string[] =>
    validateColumn(col as never, 'spec.versions[0].additionalPrinterColumns[0]').map(fieldErrorString);
  const p = 'spec.versions[0].additionalPrinterColumns[0]';
  assert.deepEqual(errs({ name: 'A', type: 'string', jsonPath: '.spec.a' }), []);
  for (const type of ['integer', 'number', 'string', 'boolean', 'date']) assert.deepEqual(errs({ name: 'A', type, jsonPath: '.a' }), []);
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'date', 'date-time', 'password', '']) {
    assert.deepEqual(errs({ name: 'A', type: 'string', format, jsonPath: '.a' }), []);
  }
  assert.deepEqual(errs({}), [`${p}.name: Required value`, `${p}.type: Required value: must be one of boolean,date,integer,number,string`, `${p}.JSONPath: Required value`]);
  assert.deepEqual(errs({ name: 'A', type: 'array', format: 'uuid', jsonPath: 'spec.a' }), [
    `${p}.type: Invalid value: "array": must be one of boolean,date,integer,number,string`,
    `${p}.format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password`,
    `${p}.JSONPath: Invalid value: "spec.a": must be a simple json path starting with .`,
  ]);
  // kube checks only the leading dot; a path its JSONPath parser rejects is accepted (and not printed).
  assert.deepEqual(errs({ name: 'A', type: 'string', jsonPath: '.spec.a[' }), []);
  assert.deepEqual(errs({ name: 'A', type: 'string', jsonPath: '.' }), []);
});
