// Value validation of int64s beyond 2^53 (bigints from util/json-int64): kube holds them as int64s, so
// they are integers to every keyword, compared exactly; bounds and factors are int64(bound) as kube's
// validator converts them. Integral numbers beyond 2^53 are float64 literals to kube (`1e18`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorString } from '../../src/api/field-error.js';
import { compileSchema, type JSONSchemaProps } from '../../src/schema/compile.js';
import { parseJSON } from '../../src/util/json-int64.js';

const errs = (schema: JSONSchemaProps, obj: unknown): string[] => compileSchema(schema).validate(obj).map(fieldErrorString);
const field = (f: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { field: f } });
const MAX = 9223372036854775807n;

test('bigints are integers and numbers, int-or-string, and any type', () => {
  for (const f of [{ type: 'integer' }, { type: 'number' }, { type: 'integer', format: 'int64' }, { 'x-kubernetes-int-or-string': true }, {}] as JSONSchemaProps[]) {
    assert.deepEqual(errs(field(f), { field: MAX }), [], JSON.stringify(f));
    assert.deepEqual(errs(field(f), { field: -MAX - 1n }), [], JSON.stringify(f));
  }
  assert.deepEqual(errs(field({ type: 'string' }), { field: MAX }), ['field: Invalid value: "integer": field in body must be of type string: "integer"']);
  assert.deepEqual(errs(field({ anyOf: [{ type: 'integer' }, { type: 'string' }] }), { field: MAX }), []);
});

test('integral floats beyond 2^53 are float64s: not integers (kube-openapi: beyond swag\'s JSON integer range)', () => {
  assert.deepEqual(errs(field({ type: 'integer' }), { field: 1e18 }), ['field: Invalid value: "number": field in body must be of type integer: "number"']);
  assert.deepEqual(errs(field({ type: 'integer' }), parseJSON('{"field":9223372036854775808}')), [
    'field: Invalid value: "number": field in body must be of type integer: "number"',
  ]);
  assert.deepEqual(errs(field({ type: 'number' }), { field: 1e18 }), []);
});

test('minimum, maximum, exclusive bounds and multipleOf compare exactly', () => {
  const s = field({ type: 'integer', minimum: 9007199254740993, maximum: 9007199254740993 }); // both float64 2^53
  assert.deepEqual(errs(s, { field: 9007199254740992n }), []);
  assert.deepEqual(errs(s, { field: 9007199254740993n }), ['field: Invalid value: 9007199254740993: field in body should be less than or equal to 9007199254740992']);
  assert.deepEqual(errs(field({ type: 'integer', minimum: 2 ** 62, exclusiveMinimum: true }), { field: 2n ** 62n }), [
    'field: Invalid value: 4611686018427387904: field in body should be greater than 4611686018427387904',
  ]);
  // 2^63 - 1 = 7² × 73 × 127 × 337 × 92737 × 649657
  assert.deepEqual(errs(field({ type: 'integer', multipleOf: 3 }), { field: MAX }), ['field: Invalid value: 9223372036854775807: field in body should be a multiple of 3']);
  assert.deepEqual(errs(field({ type: 'integer', multipleOf: 2 }), { field: MAX }), ['field: Invalid value: 9223372036854775807: field in body should be a multiple of 2']);
  assert.deepEqual(errs(field({ type: 'integer', multipleOf: 7 }), { field: MAX }), []);
});

test('enum entries compare exactly, and name the value as Go prints it', () => {
  const s = field({ type: 'integer', enum: [MAX, 1] });
  assert.deepEqual(errs(s, { field: MAX }), []);
  assert.deepEqual(errs(s, { field: MAX - 1n }), ['field: Unsupported value: 9223372036854775806: supported values: "9223372036854775807", "1"']);
  assert.deepEqual(errs(s, { field: 1 }), []);
});

test('defaults beyond 2^53 apply exactly', () => {
  const c = compileSchema({ type: 'object', properties: { d: { type: 'integer', default: MAX }, o: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { x: MAX } } } });
  const obj: Record<string, unknown> = {};
  c.default(obj);
  assert.deepEqual(obj, { d: MAX, o: { x: MAX } });
});
