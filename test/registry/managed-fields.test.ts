// metadata.managedFields read and written as kube's field manager does, with the cases of apimachinery's
// managedfields_test.go (round trips, manager identifiers, sorting, refusals).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { decodeManagedFields, encodeManagedFields, managerIdentifier, sortManagedFields, type ManagedFieldsEntry } from '../../src/registry/managed-fields.js';

const ROUND_TRIPS = [
  `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    v:3:
      f:alsoPi: {}
    v:3.1415:
      f:pi: {}
    v:false:
      f:notTrue: {}
  manager: foo
  operation: Update
  time: "2001-02-03T04:05:06Z"
- apiVersion: v1beta1
  fieldsType: FieldsV1
  fieldsV1:
    i:5:
      f:i: {}
  manager: foo
  operation: Update
  time: "2011-12-13T14:15:16Z"
`,
  `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:spec:
      f:containers:
        k:{"name":"c"}:
          f:image: {}
          f:name: {}
  manager: foo
  operation: Apply
`,
  `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:apiVersion: {}
    f:kind: {}
    f:metadata:
      f:labels:
        f:app: {}
      f:name: {}
    f:spec:
      f:replicas: {}
      f:selector:
        f:matchLabels:
          f:app: {}
      f:template:
        f:medatada:
          f:labels:
            f:app: {}
        f:spec:
          f:containers:
            k:{"name":"nginx"}:
              .: {}
              f:image: {}
              f:name: {}
              f:ports:
                i:0:
                  f:containerPort: {}
  manager: foo
  operation: Update
`,
  `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:spec:
      f:replicas: {}
  manager: foo
  operation: Update
  subresource: scale
`,
];

test('managedFields round-trip through decoding and encoding (TestRoundTripManagedFields)', () => {
  for (const text of ROUND_TRIPS) {
    const entries = parse(text) as ManagedFieldsEntry[];
    const decoded = decodeManagedFields(entries);
    assert.ok(!(decoded instanceof Error), String(decoded));
    assert.deepEqual(encodeManagedFields(decoded), entries);
  }
  const none = decodeManagedFields([]);
  assert.ok(!(none instanceof Error));
  assert.equal(encodeManagedFields(none), undefined);
});

test('manager identifiers leave out the API version of an apply (TestBuildManagerIdentifier)', () => {
  assert.equal(managerIdentifier({ apiVersion: 'v1', manager: 'foo', operation: 'Update', time: '2001-02-03T04:05:06Z' }), '{"manager":"foo","operation":"Update","apiVersion":"v1"}');
  assert.equal(managerIdentifier({ apiVersion: 'v1', manager: 'foo', operation: 'Apply' }), '{"manager":"foo","operation":"Apply"}');
  assert.equal(managerIdentifier({ apiVersion: 'v1', manager: 'foo', operation: 'Apply', subresource: 'scale' }), '{"manager":"foo","operation":"Apply","subresource":"scale"}');
});

test('entries sort applies first, then oldest, then by manager (TestSortEncodedManagedFields)', () => {
  const e = (manager: string, operation: string, time?: string): ManagedFieldsEntry => (time ? { manager, operation, time } : { manager, operation });
  const names = (l: ManagedFieldsEntry[]): string[] => l.map((x) => `${x.manager}/${x.operation}/${x.time ?? ''}`);
  const t1 = '2001-01-01T01:00:00Z';
  const t2 = '2002-01-01T01:00:00Z';
  const t3 = '2003-01-01T01:00:00Z';
  assert.deepEqual(names(sortManagedFields([e('a', 'Apply', t1), e('b', 'Apply'), e('a', 'Apply')])), ['a/Apply/', 'b/Apply/', `a/Apply/${t1}`]);
  assert.deepEqual(names(sortManagedFields([e('a', 'Update', t1), e('a', 'Apply')])), ['a/Apply/', `a/Update/${t1}`]);
  assert.deepEqual(
    names(sortManagedFields([e('c', 'Update', t1), e('a', 'Apply'), e('g', 'Apply'), e('f', 'Update', t2), e('i', 'Apply'), e('d', 'Update', t2), e('h', 'Apply'), e('e', 'Update', t3), e('b', 'Apply')])),
    ['a/Apply/', 'b/Apply/', 'g/Apply/', 'h/Apply/', 'i/Apply/', `c/Update/${t1}`, `d/Update/${t2}`, `f/Update/${t2}`, `e/Update/${t3}`],
  );
});

test('unusable managedFields are refused with kube\'s reasons (TestHasFieldsType, TestHasAPIVersion, TestHasOperation)', () => {
  const entry = { apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:x': {} }, manager: 'foo', operation: 'Apply' };
  const reason = (e: object): string => String((decodeManagedFields([e as ManagedFieldsEntry]) as Error).message);
  assert.equal(reason({ ...entry, fieldsType: undefined }), 'missing fieldsType in managed fields entry 0');
  assert.equal(reason({ ...entry, fieldsType: 'FieldsV2' }), 'invalid fieldsType "FieldsV2" in managed fields entry 0');
  assert.equal(reason({ ...entry, apiVersion: '' }), 'apiVersion must not be empty');
  assert.equal(reason({ ...entry, operation: 'Delete' }), 'operation must be `Apply` or `Update`');
  assert.ok(!(decodeManagedFields([entry as ManagedFieldsEntry]) instanceof Error));
});
