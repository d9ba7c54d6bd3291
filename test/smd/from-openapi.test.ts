// The merge schema derived from OpenAPI definitions (kube-openapi's schemaconv), seen through the field sets
// it gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeDefsFromOpenAPI, SchemaConversionError } from '../../src/smd/from-openapi.js';
import { MergeSchema } from '../../src/smd/schema.js';
import { toFieldSet } from '../../src/smd/to-field-set.js';
import { P, S } from './helpers.js';

test('schemaconv: list and map types decide ownership granularity', () => {
  const schema = new MergeSchema(
    typeDefsFromOpenAPI({
      'com.example.v1.Widget': {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: {
              ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port'], items: { type: 'object', properties: { port: { type: 'integer' }, name: { type: 'string' } } } },
              tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
              args: { type: 'array', items: { type: 'string' } },
              selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
              free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        },
      },
    }),
  );
  const set = toFieldSet(schema, { namedType: 'com.example.v1.Widget' }, {
    spec: { ports: [{ port: 80, name: 'http' }], tags: ['a'], args: ['x', 'y'], selector: { a: 'b' }, free: { deep: { x: 1 } } },
  });
  const want = S(
    P('spec', 'ports', { k: { port: 80 } }),
    P('spec', 'ports', { k: { port: 80 } }, 'port'),
    P('spec', 'ports', { k: { port: 80 } }, 'name'),
    P('spec', 'tags', { v: 'a' }),
    P('spec', 'args'),
    P('spec', 'selector'),
    // Under preserved unknown fields every key is a field of its own (it is not a declared one).
    P('spec', 'free', 'deep'),
    P('spec', 'free', 'deep', 'x'),
  );
  assert.ok(set.equals(want), `want:\n${want}\ngot:\n${set}`);
});

test('schemaconv: a map list without keys is an error, as kube refuses to build the converter', () => {
  assert.throws(() => typeDefsFromOpenAPI({ t: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'string' } } }), SchemaConversionError);
});

test('schemaconv: references, merge keys, int-or-string and the common types', () => {
  const types = typeDefsFromOpenAPI({
    'io.k8s.api.core.v1.Pod': {
      type: 'object',
      properties: {
        metadata: { allOf: [{ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], default: {} },
        containers: { type: 'array', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name', items: { $ref: '#/definitions/C' } },
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        when: { type: 'string', format: 'date-time' },
      },
    },
  });
  const pod = types.find((t) => t.name === 'io.k8s.api.core.v1.Pod')!;
  const field = (name: string) => pod.map!.fields!.find((f) => f.name === name)!;
  assert.deepEqual(field('metadata'), { name: 'metadata', type: { namedType: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }, default: {} });
  assert.deepEqual(field('containers').type, { list: { elementType: { namedType: 'C' }, elementRelationship: 'associative', keys: ['name'] } });
  assert.equal(field('port').type.scalar, 'untyped');
  assert.ok(field('port').type.list && field('port').type.map, 'an untyped atom is a scalar, a list and a map');
  assert.deepEqual(field('when').type, { scalar: 'untyped' });
  assert.deepEqual(types.slice(-2).map((t) => t.name), ['__untyped_atomic_', '__untyped_deduced_']);
});
