// The console's schema helpers (console/schema.ts, plain functions over JSON): type labels as kubectl explain
// prints them, $refs of built-ins' published schemas, and the field-by-field differences between versions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { childrenOf, constraintsOf, deref, diffSchemas, flatten, typeLabel, type Resolve, type Schema } from '../../console/schema.js';

const none: Resolve = () => undefined;

test('type labels: formats, lists, maps, int-or-string, preserved unknown fields', () => {
  assert.equal(typeLabel({ type: 'integer', format: 'int32' }, none), 'integer/int32');
  assert.equal(typeLabel({ type: 'array', items: { type: 'string' } }, none), '[]string');
  assert.equal(typeLabel({ type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' } } }, none), 'map[string][]integer');
  assert.equal(typeLabel({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, none), 'IntOrString');
  assert.equal(typeLabel({ 'x-kubernetes-preserve-unknown-fields': true }, none), 'any');
  assert.equal(typeLabel({ properties: { a: { type: 'string' } } }, none), 'object');
});

test('a $ref (direct or as the single allOf member) is the target with the local keywords over it', () => {
  const schemas: Record<string, Schema> = { Meta: { type: 'object', description: 'target', properties: { name: { type: 'string' } } } };
  const resolve: Resolve = (ref) => schemas[ref.replace('#/components/schemas/', '')];
  assert.deepEqual(deref({ allOf: [{ $ref: '#/components/schemas/Meta' }], description: 'local' }, resolve), { ...schemas['Meta'], description: 'local' });
  assert.equal(deref({ $ref: '#/components/schemas/Meta' }, resolve).description, 'target');
  const kids = childrenOf({ type: 'object', required: ['metadata'], properties: { metadata: { allOf: [{ $ref: '#/components/schemas/Meta' }] } } }, resolve);
  assert.deepEqual(kids.map((k) => [k.name, k.required, typeLabel(k.schema, resolve)]), [['metadata', true, 'object']]);
  // A constraint list leaves kube-openapi's single-$ref allOf out, and keeps real alternatives.
  assert.deepEqual(constraintsOf({ allOf: [{ $ref: '#/components/schemas/Meta' }] }), []);
  assert.deepEqual(constraintsOf({ oneOf: [{ required: ['a'] }, { required: ['b'] }] }), [['oneOf', '{"required":["a"]} | {"required":["b"]}']]);
});

test('constraints: default, enum, pattern, bounds, list and map types', () => {
  const c = constraintsOf({ type: 'array', default: ['x'], minItems: 1, maxItems: 3, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'port'] });
  assert.deepEqual(c, [
    ['default', '["x"]'],
    ['min items', '1'],
    ['max items', '3'],
    ['list type', 'map'],
    ['list map keys', 'name, port'],
  ]);
  assert.deepEqual(constraintsOf({ type: 'integer', minimum: 0, exclusiveMinimum: true, enum: [1, 2] }), [
    ['enum', '1, 2'],
    ['exclusive minimum', '0'],
  ]);
});

test('the differences between two versions, field by field, in path order', () => {
  const v1beta1: Schema = { type: 'object', properties: { spec: { type: 'object', required: ['a'], properties: { a: { type: 'string' }, gone: { type: 'integer' } } } } };
  const v1: Schema = {
    type: 'object',
    properties: { spec: { type: 'object', properties: { a: { type: 'string', pattern: '^x' }, tags: { type: 'array', items: { type: 'string' } } }, 'x-kubernetes-validations': [{ rule: 'has(self.a)' }] } },
  };
  const diffs = diffSchemas(flatten(v1beta1, none), flatten(v1, none));
  assert.deepEqual(diffs, [
    { path: 'spec', change: 'changed', from: 'object', to: 'object; rule has(self.a)' },
    { path: 'spec.a', change: 'changed', from: 'string; required', to: 'string; pattern ^x' },
    { path: 'spec.gone', change: 'removed', from: 'integer' },
    { path: 'spec.tags', change: 'added', to: '[]string' },
    { path: 'spec.tags.[]', change: 'added', to: 'string' },
  ]);
  assert.deepEqual(diffSchemas(flatten(v1, none), flatten(v1, none)), []);
});
