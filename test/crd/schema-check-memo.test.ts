// passedByContent: a schema that passed the CRD schema checks is not checked again on a create with the same
// content, path and options; failures, other inputs and updates are always checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { passedByContent } from '../../src/crd/schema-check-memo.js';
import { crdSchemaValidator } from '../../src/crd/schema-checks.js';
import type { SchemaCheckContext } from '../../src/crd/validation.js';
import type { JSONSchemaProps } from '../../src/crd/types.js';
import type { InternalSpec } from '../../src/crd/internal.js';

const CTX: SchemaCheckContext = { statusEnabled: true, requireStructuralSchema: true, allowDefaults: true };
const PATH = 'spec.versions[0].schema.openAPIV3Schema';
const schema = (): JSONSchemaProps => ({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a > 1' }], properties: { a: { type: 'integer' } } } } });

test('passedByContent: the same passing schema is checked once; other content, path, options and failures again', () => {
  const seen: string[] = [];
  let fail = false;
  const check = passedByContent((s, path, ctx) => {
    seen.push(`${path} ${JSON.stringify(ctx)} ${JSON.stringify(s)}`);
    return fail ? [{ type: 'FieldValueInvalid', field: path, badValue: '', detail: 'bad' }] : [];
  });
  assert.deepEqual(check(schema(), PATH, CTX), []);
  assert.deepEqual(check(schema(), PATH, { ...CTX }), []);
  assert.equal(seen.length, 1, 'an equal schema (another object) is known');
  check(schema(), 'spec.versions[1].schema.openAPIV3Schema', CTX);
  check(schema(), PATH, { ...CTX, statusEnabled: false });
  check({ ...schema(), description: 'x' }, PATH, CTX);
  assert.equal(seen.length, 4);
  check(schema(), PATH, { ...CTX, update: { oldSpec: {} as InternalSpec, schemaUnchanged: true } });
  assert.equal(seen.length, 5, 'updates are always checked');
  fail = true;
  const other = { ...schema(), description: 'y' };
  assert.equal(check(other, PATH, CTX).length, 1);
  assert.equal(check(other, PATH, CTX).length, 1, 'a failure is not remembered');
  assert.equal(seen.length, 7);
});

test('crdSchemaValidator remembers only passing schemas: a failing CEL rule fails every time', () => {
  const bad = (): JSONSchemaProps => ({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.nope > 1' }], properties: { a: { type: 'integer' } } } } });
  for (let i = 0; i < 2; i++) assert.match(JSON.stringify(crdSchemaValidator(bad(), PATH, CTX)), /undefined field 'nope'/);
  for (let i = 0; i < 2; i++) assert.deepEqual(crdSchemaValidator(schema(), PATH, CTX), []);
});
