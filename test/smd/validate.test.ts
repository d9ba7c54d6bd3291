// Validate over structured-merge-diff's own cases (typed/validate_test.go): valid objects pass, invalid ones
// fail with a useful error (not "invalid atom"), duplicated list items fail unless duplicates are allowed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { MergeSchema } from '../../src/smd/schema.js';
import { validate } from '../../src/smd/validate.js';
import { VALIDATE_CASES } from './validate-cases.js';

for (const c of VALIDATE_CASES) {
  test(`Validate: ${c.name}`, () => {
    const schema = MergeSchema.fromObject(parse(c.schema));
    const root = { namedType: c.root };
    const check = (obj: string, allowDuplicates: boolean): string[] => validate(schema, root, parse(obj, { version: '1.1' }), { allowDuplicates });
    for (const v of c.valid) assert.deepEqual(check(v, false), [], v);
    for (const v of [...c.invalid, ...c.duplicates]) {
      const errors = check(v, false);
      assert.ok(errors.length > 0, `should fail: ${v}`);
      assert.ok(!errors.some((e) => e.includes('invalid atom')), `useful error: ${errors.join('; ')}`);
    }
    for (const v of c.duplicates) assert.deepEqual(check(v, true), [], v);
  });
}

test('Validate: the messages name the path and the problem', () => {
  const schema = MergeSchema.fromObject(
    parse(`types:
- name: t
  map:
    fields:
    - name: list
      type:
        list:
          elementType:
            map:
              fields:
              - name: name
                type:
                  scalar: string
          elementRelationship: associative
          keys: [name]`),
  );
  const root = { namedType: 't' };
  assert.deepEqual(validate(schema, root, { list: [{ name: 'a' }, { name: 'a' }] }), ['.list: duplicate entries for key [name="a"]']);
  assert.deepEqual(validate(schema, root, { list: [{}] }), ['.list: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)']);
  // smd prints the value as Go prints a *value.valueUnstructured, which kube's messages show.
  assert.deepEqual(validate(schema, root, { list: [{ name: 1 }] }), ['.list[name=1].name: expected string, got &value.valueUnstructured{Value:1}']);
  assert.deepEqual(validate(schema, root, { list: [{ name: { a: [1.5, 'x'] } }] }), [
    '.list[name={"a":[1.5,"x"]}].name: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"a":[]interface {}{1.5, "x"}}}',
  ]);
  assert.deepEqual(validate(schema, root, { list: 'a' }), ['.list: expected list, got &{a}']);
  assert.deepEqual(validate(schema, root, ['x']), [': expected map, got &{[x]}']);
  assert.deepEqual(validate(schema, root, { other: 1 }), ['.other: field not declared in schema']);
});

test('Validate: an item of a list without keys is named by its index, below the fields and items above it', () => {
  const schema = MergeSchema.fromObject(
    parse(`types:
- name: t
  map:
    fields:
    - name: rows
      type:
        list:
          elementType:
            list:
              elementType:
                map:
                  fields:
                  - name: x
                    type:
                      scalar: string
              elementRelationship: atomic
          elementRelationship: atomic`),
  );
  const root = { namedType: 't' };
  assert.deepEqual(validate(schema, root, { rows: [[{ x: 'a' }], [{ x: 'b' }, { x: 2 }]] }), ['.rows[1][1].x: expected string, got &value.valueUnstructured{Value:2}']);
  assert.deepEqual(validate(schema, root, { rows: [[{ y: 'a' }]] }), ['.rows[0][0].y: field not declared in schema']);
});
