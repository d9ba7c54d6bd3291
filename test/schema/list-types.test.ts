// x-kubernetes-list-type set and map: duplicates rejected with kube's Duplicate errors and paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorString } from '../../src/api/field-error.js';
import { compileSchema, type JSONSchemaProps } from '../../src/schema/compile.js';

const errs = (schema: JSONSchemaProps, obj: unknown): string[] => compileSchema(schema).validate(obj).map(fieldErrorString);

test('set: the second occurrence of each repeated value is a duplicate', () => {
  const s: JSONSchemaProps = { type: 'object', properties: { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } } };
  assert.deepEqual(errs(s, { tags: ['a', 'b'] }), []);
  assert.deepEqual(errs(s, { tags: ['a', 'b', 'a', 'a', 'b'] }), ['tags[2]: Duplicate value: "a"', 'tags[4]: Duplicate value: "b"']);
  const nums: JSONSchemaProps = { type: 'object', properties: { n: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } } } };
  assert.deepEqual(errs(nums, { n: [1, 2, 1] }), ['n[2]: Duplicate value: 1']);
});

test('map with one key: duplicate keys, missing keys count as one value', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
          },
        },
      },
    },
  };
  assert.deepEqual(errs(s, { spec: { ports: [{ name: 'a', port: 1 }, { name: 'b', port: 1 }] } }), []);
  assert.deepEqual(errs(s, { spec: { ports: [{ name: 'a', port: 1 }, { name: 'a', port: 2 }] } }), [
    'spec.ports[1]: Duplicate value: map[string]interface {}{"name":"a"}',
  ]);
  assert.deepEqual(errs(s, { spec: { ports: [{ port: 1 }, { port: 2 }] } }), ['spec.ports[1]: Duplicate value: map[string]interface {}{}']);
  assert.deepEqual(errs(s, { spec: { ports: [{ name: 'a' }, 'x'] } }), [
    'spec.ports[1]: Invalid value: "string": spec.ports[1] in body must be of type object: "string"',
    'spec.ports[1]: Invalid value: "x": must be an object for an array of list-type map',
  ]);
});

test('map with several keys: the key fields present form the key', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      l: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' } } },
      },
    },
  };
  assert.deepEqual(errs(s, { l: [{ port: 80, protocol: 'TCP' }, { port: 80, protocol: 'UDP' }] }), []);
  assert.deepEqual(errs(s, { l: [{ port: 80, protocol: 'TCP' }, { protocol: 'TCP', port: 80 }] }), [
    'l[1]: Duplicate value: map[string]interface {}{"port":80, "protocol":"TCP"}',
  ]);
});

test('lists inside maps and lists: field paths use [key] and [i]', () => {
  const set: JSONSchemaProps = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } };
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      m: { type: 'object', additionalProperties: set },
      ll: { type: 'array', items: set },
    },
  };
  assert.deepEqual(errs(s, { m: { 'a.b': ['x', 'x'] }, ll: [['y'], ['z', 'z']] }), ['m[a.b][1]: Duplicate value: "x"', 'll[1][1]: Duplicate value: "z"']);
});

test('atomic lists and x-kubernetes-map-type allow anything', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      a: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } },
      m: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
    },
  };
  assert.deepEqual(errs(s, { a: ['x', 'x'], m: { k: 'v' } }), []);
});
