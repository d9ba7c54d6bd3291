import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type FieldError, fieldErrorString } from '../../src/api/field-error.js';
import {
  GO_VALUE,
  finalizerWarnings,
  goStringSlice,
  goTimeString,
  validateAnnotations,
  validateFieldManager,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from '../../src/schema/objectmeta.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const cr = { namespaced: true, nameValidator: 'dns1123Subdomain' } as const;
const cluster = { namespaced: false, nameValidator: 'dns1123Subdomain' } as const;
const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);

test('a valid custom resource metadata has no errors', () => {
  assert.deepEqual(
    validateObjectMeta(
      {
        name: 'my.thing-1',
        namespace: 'default',
        labels: { app: 'web', 'example.com/tier': '' },
        annotations: { 'Example.com/Note': 'anything goes' },
        finalizers: ['example.com/cleanup', 'example.com/cleanup'],
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u1', controller: true }],
        managedFields: [{ manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1' }],
      },
      cr,
    ),
    [],
  );
});

test('name or generateName is required; names follow the validator', () => {
  assert.deepEqual(strings(validateObjectMeta({ namespace: 'default' }, cr)), ['metadata.name: Required value: name or generateName is required']);
  assert.deepEqual(strings(validateObjectMeta({ name: 'Bad_Name', namespace: 'default' }, cr)), [
    `metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_MSG}`,
  ]);
  assert.deepEqual(strings(validateObjectMeta({ generateName: 'Web-', namespace: 'default' }, cr)), [
    `metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN_MSG}`,
    'metadata.name: Required value: name or generateName is required',
  ]);
  assert.deepEqual(strings(validateObjectMeta({ name: 'a.b', namespace: 'x' }, { namespaced: true, nameValidator: 'dns1123Label' })), [
    'metadata.name: Invalid value: "a.b": must not contain dots',
  ]);
  const custom = (name: string): string[] => (name === 'ok' ? [] : ['must be spec.names.plural+"."+spec.group']);
  assert.deepEqual(strings(validateObjectMeta({ name: 'nope' }, { namespaced: false, nameValidator: custom })), [
    'metadata.name: Invalid value: "nope": must be spec.names.plural+"."+spec.group',
  ]);
});

test('namespace is required for namespaced types and forbidden otherwise', () => {
  assert.deepEqual(strings(validateObjectMeta({ name: 'a' }, cr)), ['metadata.namespace: Required value']);
  assert.deepEqual(strings(validateObjectMeta({ name: 'a', namespace: 'Bad' }, cr)), [`metadata.namespace: Invalid value: "Bad": ${LABEL_MSG}`]);
  assert.deepEqual(strings(validateObjectMeta({ name: 'a', namespace: 'x' }, cluster)), ['metadata.namespace: Forbidden: not allowed on this type']);
});

test('generation must be non-negative', () => {
  assert.deepEqual(strings(validateObjectMeta({ name: 'a', generation: -1 }, cluster)), [
    'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
  ]);
});

test('labels: keys are qualified names, values label values, errors at metadata.labels', () => {
  assert.deepEqual(strings(validateObjectMeta({ name: 'a', labels: { 'app:x': 'ok', good: 'b$' } }, cluster)), [
    `metadata.labels: Invalid value: "app:x": ${NAME_PART_MSG}`,
    `metadata.labels: Invalid value: "b$": ${LABEL_VALUE_MSG}`,
  ]);
  // A label value that is not a string makes the accessor drop the whole map.
  assert.deepEqual(validateObjectMeta({ name: 'a', labels: { 'bad key': 1 } }, cluster), []);
});

test('annotations: case-insensitive qualified keys and a 256 KiB total', () => {
  assert.deepEqual(strings(validateAnnotations({ 'a b': 'x' }, 'metadata.annotations')), [`metadata.annotations: Invalid value: "a b": ${NAME_PART_MSG}`]);
  const big = { k: 'x'.repeat(262144 - 1) };
  assert.deepEqual(validateAnnotations(big, 'metadata.annotations'), []);
  const tooBig = { k: 'x'.repeat(262144) };
  assert.deepEqual(strings(validateAnnotations(tooBig, 'metadata.annotations')), ['metadata.annotations: Too long: may not be more than 262144 bytes']);
});

test('ownerReferences: required members (not indexed), banned Event owner, one controller', () => {
  assert.deepEqual(strings(validateObjectMeta({ name: 'a', ownerReferences: [{ apiVersion: 'x/y/z' }] }, cluster)), [
    'metadata.ownerReferences.apiVersion: Invalid value: "x/y/z": version must not be empty',
    'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
    'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
    'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
  ]);
  const banned = validateObjectMeta({ name: 'a', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] }, cluster);
  assert.equal(banned.length, 1);
  assert.equal(banned[0]!.field, 'metadata.ownerReferences');
  assert.equal(banned[0]!.detail, '/v1, Kind=Event is disallowed from being an owner');
  assert.equal(
    (banned[0]!.badValue as Record<symbol, string>)[GO_VALUE],
    'v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"e", UID:"u", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}',
  );
  const two = validateObjectMeta(
    {
      name: 'a',
      ownerReferences: [
        { apiVersion: 'v1', kind: 'A', name: 'a', uid: '1', controller: true },
        { apiVersion: 'v1', kind: 'B', name: 'b', uid: '2', controller: true },
      ],
    },
    cluster,
  );
  assert.equal(two.length, 1);
  assert.equal(two[0]!.detail, 'Only one reference can have Controller set to true. Found "true" in references for A/a and B/b');
});

test('finalizers: qualified names, not both orphan and foregroundDeletion', () => {
  assert.deepEqual(strings(validateObjectMeta({ name: 'a', finalizers: ['bad name'] }, cluster)), [
    `metadata.finalizers: Invalid value: "bad name": ${NAME_PART_MSG}`,
  ]);
  const both = validateObjectMeta({ name: 'a', finalizers: ['orphan', 'foregroundDeletion'] }, cluster);
  assert.equal(both.length, 1);
  assert.equal(both[0]!.detail, 'finalizer orphan and foregroundDeletion cannot be both set');
  assert.equal((both[0]!.badValue as Record<symbol, string>)[GO_VALUE], '[]string{"orphan", "foregroundDeletion"}');
  // Unqualified names are fine for apimachinery; core types reject them per index.
  assert.deepEqual(validateObjectMeta({ name: 'a', finalizers: ['mine'] }, cluster), []);
  assert.deepEqual(strings(validateObjectMeta({ name: 'a', finalizers: ['kubernetes', 'mine'] }, { ...cluster, coreFinalizerNames: true })), [
    'metadata.finalizers[1]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified',
  ]);
});

test('managedFields: operation, fieldsType, manager', () => {
  assert.deepEqual(
    strings(
      validateObjectMeta(
        { name: 'a', managedFields: [{ manager: 'x\ty', operation: 'Patch', fieldsType: 'FieldsV2', subresource: 's'.repeat(257) }] },
        cluster,
      ),
    ),
    [
      'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
      'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
      'metadata.managedFields[0].manager: Invalid value: "x\\ty": invalid character U+0009 (at position 1)',
      'metadata.managedFields[0].subresource: Too long: may not be more than 256 bytes',
    ],
  );
  assert.deepEqual(strings(validateFieldManager('m'.repeat(129), 'fieldManager')), ['fieldManager: Too long: may not be more than 128 bytes']);
});

const base = { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '5', generation: 2, creationTimestamp: '2024-01-02T03:04:05Z' };

test('update: resourceVersion required, generation not decremented, identity immutable', () => {
  assert.deepEqual(validateObjectMetaUpdate(base, base), []);
  assert.deepEqual(
    strings(validateObjectMetaUpdate({ ...base, resourceVersion: '', generation: 1, name: 'b', namespace: 'other', uid: 'u2' }, base)),
    [
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
      'metadata.generation: Invalid value: 1: must not be decremented',
      'metadata.name: Invalid value: "b": field is immutable',
      'metadata.namespace: Invalid value: "other": field is immutable',
      'metadata.uid: Invalid value: "u2": field is immutable',
    ],
  );
});

test('update: generateName may change, it is not immutable', () => {
  assert.deepEqual(validateObjectMetaUpdate({ ...base, generateName: 'x-' }, { ...base, generateName: 'y-' }), []);
});

test('update: timestamps and grace period are immutable, rendered as Go prints them', () => {
  const errs = validateObjectMetaUpdate(
    { ...base, creationTimestamp: '2024-01-02T04:04:05+01:00', deletionTimestamp: '2024-05-06T07:08:09.5Z', deletionGracePeriodSeconds: 30 },
    base,
  );
  // The same instant in another zone is the same creationTimestamp.
  assert.deepEqual(
    errs.map((e) => e.field),
    ['metadata.deletionTimestamp', 'metadata.deletionGracePeriodSeconds'],
  );
  assert.equal((errs[0]!.badValue as Record<symbol, string>)[GO_VALUE], '2024-05-06 07:08:09.5 +0000 UTC');
  assert.equal(JSON.stringify(errs[0]!.badValue), '"2024-05-06T07:08:09.5Z"');
  assert.equal(fieldErrorString(errs[1]!), 'metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable');
  const moved = validateObjectMetaUpdate({ ...base, creationTimestamp: '2025-01-01T00:00:00Z' }, base);
  assert.equal((moved[0]!.badValue as Record<symbol, string>)[GO_VALUE], '2025-01-01 00:00:00 +0000 UTC');
  const cleared = validateObjectMetaUpdate({ ...base, creationTimestamp: undefined }, base);
  assert.equal((cleared[0]!.badValue as Record<symbol, string>)[GO_VALUE], '0001-01-01 00:00:00 +0000 UTC');
});

test('update: no new finalizers once deletion started', () => {
  const old = { ...base, deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['a/x'] };
  assert.deepEqual(strings(validateObjectMetaUpdate({ ...old, finalizers: ['b/y', 'a/x', 'a/z'] }, old)), [
    'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a/z", "b/y"}',
  ]);
  assert.deepEqual(validateObjectMetaUpdate({ ...old, finalizers: [] }, old), []);
});

test('update: labels, annotations and owner references are validated; finalizer names are not', () => {
  assert.deepEqual(strings(validateObjectMetaUpdate({ ...base, labels: { a: 'b$' }, finalizers: ['bad name'] }, base)), [
    `metadata.labels: Invalid value: "b$": ${LABEL_VALUE_MSG}`,
  ]);
  assert.deepEqual(strings(validateObjectMetaUpdate({ ...base, finalizers: ['mine'] }, base, 'metadata', { coreFinalizerNames: true })), [
    'metadata.finalizers[0]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified',
  ]);
});

test('finalizerWarnings: what the custom resource strategy warns about added finalizers', () => {
  assert.deepEqual(finalizerWarnings(['example.com/ok', 'orphan', 'kubernetes']), []);
  assert.deepEqual(finalizerWarnings(['mine', 'resources-finalizer.argocd.argoproj.io', 'mine']), [
    'metadata.finalizers: "mine": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
    'metadata.finalizers: "resources-finalizer.argocd.argoproj.io": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers',
  ]);
  assert.deepEqual(finalizerWarnings(['a b'], []), [
    `metadata.finalizers: "a b": ${NAME_PART_MSG}`,
    'metadata.finalizers: "a b": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
  ]);
  assert.deepEqual(finalizerWarnings(['mine', 'new'], ['mine']), [
    'metadata.finalizers: "new": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
  ]);
});

test('Go renderings', () => {
  assert.equal(goStringSlice(undefined), '[]string(nil)');
  assert.equal(goStringSlice([]), '[]string{}');
  assert.equal(goStringSlice(['a', 'b"c']), '[]string{"a", "b\\"c"}');
  assert.equal(goTimeString(1_700_000_000_123_000_000n), '2023-11-14 22:13:20.123 +0000 UTC');
  assert.equal(goTimeString(undefined), '0001-01-01 00:00:00 +0000 UTC');
});
