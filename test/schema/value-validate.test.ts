// OpenAPI value validation of custom resources: every keyword, with kube-apiserver 1.33's field
// errors (apiextensions ValidateCustomResource over kube-openapi's validator). The first block
// mirrors apiextensions' own TestValidateCustomResource table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorString } from '../../src/api/field-error.js';
import { compileSchema, type JSONSchemaProps } from '../../src/schema/compile.js';
import { compilePattern, compiledPatterns } from '../../src/schema/value-validate.js';

const errs = (schema: JSONSchemaProps, obj: unknown): string[] => compileSchema(schema).validate(obj).map(fieldErrorString);
const field = (f: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { field: f } });
const ok = (schema: JSONSchemaProps, ...objs: unknown[]): void => {
  for (const o of objs) assert.deepEqual(errs(schema, o), [], JSON.stringify(o));
};

test('type: wrong JSON types, with the found type as the value (non-nullable)', () => {
  const s = field({ type: 'object', nullable: false });
  ok(s, {}, { field: {} });
  assert.deepEqual(errs(s, { field: 'foo' }), ['field: Invalid value: "string": field in body must be of type object: "string"']);
  assert.deepEqual(errs(s, { field: 42 }), ['field: Invalid value: "integer": field in body must be of type object: "integer"']);
  assert.deepEqual(errs(s, { field: true }), ['field: Invalid value: "boolean": field in body must be of type object: "boolean"']);
  assert.deepEqual(errs(s, { field: 1.2 }), ['field: Invalid value: "number": field in body must be of type object: "number"']);
  assert.deepEqual(errs(s, { field: [] }), ['field: Invalid value: "array": field in body must be of type object: "array"']);
  assert.deepEqual(errs(s, { field: null }), ['field: Invalid value: "null": field in body must be of type object: "null"']);
});

test('nullable: null passes, other types still fail; no type accepts anything', () => {
  const s = field({ type: 'object', nullable: true });
  ok(s, {}, { field: {} }, { field: null });
  assert.deepEqual(errs(s, { field: 'foo' }), ['field: Invalid value: "string": field in body must be of type object: "string"']);
  ok(field({ nullable: true }), { field: null }, { field: 'foo' }, { field: 42 }, { field: true }, { field: 1.2 }, { field: [] }, { field: {} });
});

test('x-kubernetes-int-or-string: integers and strings only', () => {
  const s = field({ 'x-kubernetes-int-or-string': true });
  ok(s, {}, { field: 42 }, { field: 'foo' });
  assert.deepEqual(errs(s, { field: null }), ['field: Invalid value: "null": field in body must be of type integer,string: "null"']);
  assert.deepEqual(errs(s, { field: true }), ['field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"']);
  assert.deepEqual(errs(s, { field: 1.2 }), ['field: Invalid value: "number": field in body must be of type integer,string: "number"']);
  assert.deepEqual(errs(s, { field: {} }), ['field: Invalid value: "object": field in body must be of type integer,string: "object"']);
  ok(field({ 'x-kubernetes-int-or-string': true, nullable: true }), { field: null });
});

test('anyOf: kube-openapi reports the junctor at <nil>, then the errors of the branch that got furthest', () => {
  const s = field({ nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
  ok(s, {}, { field: null }, { field: 42 }, { field: 'foo' });
  assert.deepEqual(errs(s, { field: true }), [
    'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
    '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
    'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
  ]);
});

test('allOf around anyOf: both junctor errors', () => {
  const s = field({ nullable: true, 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }] });
  ok(s, { field: null }, { field: 42 }, { field: 'foo' });
  assert.deepEqual(errs(s, { field: [] }).sort(), [
    '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
    '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
    'field: Invalid value: "array": field in body must be of type integer,string: "array"',
    'field: Invalid value: "array": field in body must be of type integer: "array"',
  ]);
});

test('anyOf picks the failing branch with the highest MatchCount', () => {
  const s = field({
    type: 'object',
    anyOf: [{ required: ['a'] }, { properties: { b: { type: 'string', maxLength: 1 } }, required: ['b'] }],
  });
  // The second branch validates a property (more checks ran), so its error is the one reported.
  assert.deepEqual(errs(s, { field: { b: 'xy' } }), [
    '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
    'field.b: Too long: may not be more than 1 bytes',
  ]);
  ok(s, { field: { a: 1 } }, { field: { b: 'x' } });
});

test('oneOf: none valid reports the best branch, several valid report how many', () => {
  const s = field({ type: 'object', oneOf: [{ required: ['a'] }, { required: ['b'] }] });
  ok(s, { field: { a: 1 } }, { field: { b: 1 } });
  assert.deepEqual(errs(s, { field: {} }), [
    '<nil>: Invalid value: "": "field" must validate one and only one schema (oneOf). Found none valid',
    'field.a: Required value',
  ]);
  assert.deepEqual(errs(s, { field: { a: 1, b: 2 } }), [
    '<nil>: Invalid value: "": "field" must validate one and only one schema (oneOf). Found 2 valid alternatives',
  ]);
});

test('allOf: branch errors, then the junctor (". None validated" only when none did)', () => {
  const s = field({ type: 'integer', allOf: [{ minimum: 1 }, { maximum: 5 }] });
  ok(s, { field: 3 });
  assert.deepEqual(errs(s, { field: 9 }), [
    'field: Invalid value: 9: field in body should be less than or equal to 5',
    '<nil>: Invalid value: "": "field" must validate all the schemas (allOf)',
  ]);
});

test('not', () => {
  const s = field({ type: 'string', not: { enum: ['forbidden'] } });
  ok(s, { field: 'fine' });
  assert.deepEqual(errs(s, { field: 'forbidden' }), ['<nil>: Invalid value: "": "field" must not validate the schema (not)']);
});

test('an invalid pattern is reported with Go regexp\'s error', () => {
  assert.deepEqual(errs(field({ type: 'string', pattern: '+' }), { field: 'foo' }), [
    "field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'",
  ]);
});

test('required, nested', () => {
  const s: JSONSchemaProps = { type: 'object', required: ['field'], properties: { field: { type: 'object', required: ['nested'], properties: { nested: {} } } } };
  assert.deepEqual(errs(s, { test: 'a' }), ['field: Required value']);
  assert.deepEqual(errs(s, { field: {} }), ['field.nested: Required value']);
  ok(s, { field: { nested: null } }); // present, even if null
});

test('enum: Unsupported value with every entry quoted; type errors come first', () => {
  const s = field({
    type: 'object',
    required: ['nestedint', 'nestedstring'],
    properties: { nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } },
  });
  assert.deepEqual(errs(s, { field: {} }), ['field.nestedint: Required value', 'field.nestedstring: Required value']);
  assert.deepEqual(errs(s, { field: { nestedint: 'x', nestedstring: true } }), [
    'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
    'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
    'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
    'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
  ]);
  ok(s, { field: { nestedint: 2, nestedstring: 'a' } });
  // Go converts the value to the entry's type before comparing: 1.5 truncates to the int64 1.
  ok(field({ type: 'number', enum: [1] }), { field: 1.5 });
  assert.deepEqual(errs(field({ enum: [{ a: 1 }, [1]] }), { field: { a: 2 } }), [
    'field: Unsupported value: map[string]interface {}{"a":2}: supported values: "{\\"a\\":1}", "[1]"',
  ]);
});

test('maxProperties and minProperties', () => {
  assert.deepEqual(errs({ type: 'object', properties: { fieldX: { type: 'object', maxProperties: 2 } } }, { fieldX: { a: true, b: true, c: true } }), [
    'fieldX: Too many: 3: must have at most 2 items',
  ]);
  assert.deepEqual(errs(field({ type: 'object', minProperties: 1 }), { field: {} }), [
    'field: Invalid value: 0: field in body should have at least 1 properties',
  ]);
});

test('maxItems, minItems and uniqueItems', () => {
  assert.deepEqual(errs({ type: 'object', properties: { fieldX: { type: 'array', maxItems: 2 } } }, { fieldX: ['a', 'b', 'c'] }), [
    'fieldX: Too many: 3: must have at most 2 items',
  ]);
  assert.deepEqual(errs(field({ type: 'array', minItems: 1 }), { field: [] }), ['field: Invalid value: 0: field in body should have at least 1 items']);
  assert.deepEqual(errs(field({ type: 'array', uniqueItems: true }), { field: [{ a: 1 }, { a: 1 }] }), [
    'field: Invalid value: "": field in body shouldn\'t contain duplicates',
  ]);
  ok(field({ type: 'array', uniqueItems: true }), { field: [{ a: 1 }, { a: 2 }] });
});

test('maxLength and minLength count characters (code points), not bytes', () => {
  const s = field({ type: 'string', maxLength: 2 });
  assert.deepEqual(errs(s, { field: 'abc' }), ['field: Too long: may not be more than 2 bytes']);
  ok(s, { field: 'é😀' }); // 2 characters, 6 UTF-8 bytes, 3 UTF-16 units
  assert.deepEqual(errs(field({ type: 'string', minLength: 2 }), { field: '😀' }), [
    'field: Invalid value: "😀": field in body should be at least 2 chars long',
  ]);
  // The string validator stops at its first failure.
  assert.deepEqual(errs(field({ type: 'string', maxLength: 1, pattern: '^a$' }), { field: 'bb' }), ['field: Too long: may not be more than 1 bytes']);
});

test('pattern is RE2 (Go regexp), unanchored unless the pattern anchors', () => {
  const s = field({ type: 'string', pattern: 'b+' });
  ok(s, { field: 'abbc' });
  assert.deepEqual(errs(s, { field: 'ac' }), ["field: Invalid value: \"ac\": field in body should match 'b+'"]);
  // RE2 classes: \pL letters, (?i) flags.
  ok(field({ type: 'string', pattern: '^\\pL+$' }), { field: 'héllo' });
  ok(field({ type: 'string', pattern: '(?i)^abc$' }), { field: 'ABC' });
});

test('minimum/maximum with exclusive forms; integers compare against the truncated bound', () => {
  const s = field({ type: 'integer', minimum: 1, maximum: 10 });
  assert.deepEqual(errs(s, { field: 15 }), ['field: Invalid value: 15: field in body should be less than or equal to 10']);
  assert.deepEqual(errs(s, { field: 0 }), ['field: Invalid value: 0: field in body should be greater than or equal to 1']);
  const ex = field({ type: 'number', minimum: 1, maximum: 10, exclusiveMinimum: true, exclusiveMaximum: true });
  assert.deepEqual(errs(ex, { field: 10 }), ['field: Invalid value: 10: field in body should be less than 10']);
  assert.deepEqual(errs(ex, { field: 1 }), ['field: Invalid value: 1: field in body should be greater than 1']);
  assert.deepEqual(errs(ex, { field: 0.5 }), ['field: Invalid value: 0.5: field in body should be greater than 1']);
  // kube compares an int64 with int64(minimum): 0.5 truncates to 0, so 0 passes.
  ok(field({ type: 'integer', minimum: 0.5 }), { field: 0 });
  // Float bounds print as Go's %v does.
  assert.deepEqual(errs(field({ type: 'number', maximum: 1000000 }), { field: 1000000.5 }), [
    'field: Invalid value: 1.0000005e+06: field in body should be less than or equal to 1e+06',
  ]);
});

test('multipleOf: integers use int64(factor), floats a relative comparison', () => {
  assert.deepEqual(errs(field({ type: 'integer', multipleOf: 3 }), { field: 10 }), ['field: Invalid value: 10: field in body should be a multiple of 3']);
  ok(field({ type: 'integer', multipleOf: 3 }), { field: 9 });
  ok(field({ type: 'number', multipleOf: 0.1 }), { field: 0.3 });
  assert.deepEqual(errs(field({ type: 'number', multipleOf: 0.5 }), { field: 0.3 }), ['field: Invalid value: 0.3: field in body should be a multiple of 0.5']);
  // An integer against a fractional factor: int64(0.5) is 0, which kube reports as not positive.
  assert.deepEqual(errs(field({ type: 'integer', multipleOf: 0.5 }), { field: 2 }), [
    'field: Invalid value: 0: factor MultipleOf declared for field must be positive: 0',
  ]);
});

test('integer vs number: 3 is an integer, 3.5 is not; floats that are JSON integers pass type integer', () => {
  const s = field({ type: 'integer' });
  ok(s, { field: 3 }, { field: -7 }, { field: 3.0000000001 });
  assert.deepEqual(errs(s, { field: 3.5 }), ['field: Invalid value: "number": field in body must be of type integer: "number"']);
  ok(field({ type: 'number' }), { field: 3 }, { field: 3.5 });
});

test('formats are checked only for the Kubernetes format set; others (int32, ...) are ignored', () => {
  assert.deepEqual(errs(field({ type: 'string', format: 'ipv4' }), { field: '1.2.3.4:8080' }), [
    'field: Invalid value: "1.2.3.4:8080": field in body must be of type ipv4: "1.2.3.4:8080"',
  ]);
  assert.deepEqual(errs(field({ type: 'string', format: 'date-time' }), { field: 'yesterday' }), [
    'field: Invalid value: "yesterday": field in body must be of type date-time: "yesterday"',
  ]);
  ok(field({ type: 'integer', format: 'int32' }), { field: 2 ** 40 });
  ok(field({ type: 'string', format: 'not-a-format' }), { field: 'anything' });
  // A non-string value against a string format: the type validator reports the value's Go format.
  assert.deepEqual(errs(field({ type: 'string', format: 'date-time' }), { field: 5 }), [
    'field: Invalid value: "int64": field in body must be of type date-time: "int64"',
  ]);
});

test('additionalProperties: schema validated per key (path with a dot), properties not', () => {
  const s = field({ type: 'object', additionalProperties: { type: 'string', maxLength: 2 } });
  ok(s, { field: { a: 'x' } });
  assert.deepEqual(errs(s, { field: { 'a.b': 'xyz', c: 1 } }), [
    'field.a.b: Too long: may not be more than 2 bytes',
    'field.c: Invalid value: "integer": field.c in body must be of type string: "integer"',
  ]);
});

test('errors at the root read <nil>; items paths use [i]', () => {
  assert.deepEqual(errs({ type: 'object', minProperties: 2 }, { a: 1 }), ['<nil>: Invalid value: 1:  in body should have at least 2 properties']);
  const s = field({ type: 'array', items: { type: 'object', properties: { name: { type: 'string', minLength: 1 } } } });
  assert.deepEqual(errs(s, { field: [{ name: 'a' }, { name: '' }] }), ['field[1].name: Invalid value: "": field[1].name in body should be at least 1 chars long']);
});

test('root metadata: name and generateName restrictions from the schema apply', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5, pattern: '^a' } } } },
  };
  ok(s, { metadata: { name: 'abc' } });
  assert.deepEqual(errs(s, { metadata: { name: 'abcdefg' } }), ['metadata.name: Too long: may not be more than 5 bytes']);
  assert.deepEqual(errs(s, { metadata: { name: 'bcd' } }), ["metadata.name: Invalid value: \"bcd\": metadata.name in body should match '^a'"]);
});

test('the status subresource schema validates at "status"', () => {
  const c = compileSchema({ type: 'object', properties: { replicas: { type: 'integer', minimum: 0 } } }, { fieldPathPrefix: 'status' });
  assert.deepEqual(c.validateValue({ replicas: -1 }).map(fieldErrorString), [
    'status.replicas: Invalid value: -1: replicas in body should be greater than or equal to 0',
  ]);
});

test('repeated messages are reported once (Result.AddErrors)', () => {
  const s = field({ type: 'string', allOf: [{ maxLength: 1 }, { maxLength: 1 }] });
  assert.deepEqual(errs(s, { field: 'abc' }), [
    'field: Too long: may not be more than 1 bytes',
    '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
  ]);
});

test('property names shadowing Object.prototype are read as own fields only', () => {
  const s: JSONSchemaProps = { type: 'object', required: ['constructor'], properties: { toString: { type: 'string' }, constructor: { type: 'string' } } };
  assert.deepEqual(errs(s, {}), ['constructor: Required value']);
  ok(s, JSON.parse('{"constructor":"x","toString":"y"}'));
  assert.deepEqual(errs(s, JSON.parse('{"constructor":1}')), ['constructor: Invalid value: "integer": constructor in body must be of type string: "integer"']);
});

test('paths stay right across siblings: nested errors, then later siblings, then required', () => {
  // Each object node sets its path segment's depth once for all its properties (value-codegen.ts).
  const inner: JSONSchemaProps = { type: 'object', required: ['r'], properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'integer' } } } };
  const properties = { x: inner, y: { type: 'string' }, m: { type: 'object', additionalProperties: inner } };
  const few: JSONSchemaProps = { type: 'object', required: ['z'], properties };
  // Over 16 properties: the object's keys drive the walk.
  const padding = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`p${i}`, { type: 'string' }]));
  const many: JSONSchemaProps = { ...few, properties: { ...properties, ...padding } };
  const obj = { x: { a: 1, b: [1, 'two'] }, m: { k: { b: ['three'] } }, y: 2, p3: 4 };
  const x = [
    'spec.x.a: Invalid value: "integer": spec.x.a in body must be of type string: "integer"',
    'spec.x.b[1]: Invalid value: "string": spec.x.b[1] in body must be of type integer: "string"',
    'spec.x.r: Required value',
  ];
  const m = ['spec.m.k.b[0]: Invalid value: "string": spec.m.k.b[0] in body must be of type integer: "string"', 'spec.m.k.r: Required value'];
  const y = 'spec.y: Invalid value: "integer": spec.y in body must be of type string: "integer"';
  // Few properties go in schema order, many in the object's order.
  assert.deepEqual(errs({ type: 'object', properties: { spec: few } }, { spec: obj }), [...x, y, ...m, 'spec.z: Required value']);
  assert.deepEqual(errs({ type: 'object', properties: { spec: many } }, { spec: obj }), [
    ...x,
    ...m,
    y,
    'spec.p3: Invalid value: "integer": spec.p3 in body must be of type string: "integer"',
    'spec.z: Required value',
  ]);
});

test('compiled patterns are kept up to a bound; a matcher taken before stays right after its pattern is forgotten', () => {
  const first = compilePattern('^first-[0-9]+$');
  assert.ok(typeof first === 'function');
  // Ever new patterns, as CRDs created and deleted with new schemas would bring.
  for (let i = 0; i < 9000; i++) {
    const m = compilePattern(`^p${i}-[a-z]+$`);
    assert.ok(typeof m === 'function');
    if (i % 1000 === 0) assert.equal(m(`p${i}-abc`), true);
  }
  assert.ok(compiledPatterns() <= 8192, `${compiledPatterns()} kept`);
  assert.equal(first('first-12'), true);
  assert.equal(first('first-x'), false);
  // Asked again after being forgotten: compiled again, the same answers.
  const again = compilePattern('^first-[0-9]+$');
  assert.ok(typeof again === 'function');
  assert.equal(again('first-12'), true);
  // An invalid pattern still answers its error.
  assert.ok(compilePattern('(') instanceof Error);
});
