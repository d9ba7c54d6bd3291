// Pruning and defaulting: the seed's examples verbatim ("Field pruning", "Controlling pruning",
// "Defaulting", "Defaulting and Nullable"), x-kubernetes-preserve-unknown-fields, embedded
// resources and their metadata, and the unknown-field paths kube reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorString } from '../../src/api/field-error.js';
import { SchemaCoercionError, compileSchema, type JSONSchemaProps } from '../../src/schema/compile.js';
import { unknownFieldError } from '../../src/schema/unknown-fields.js';

const CRONTAB: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        image: { type: 'string' },
        replicas: { type: 'integer', minimum: 1, maximum: 10 },
      },
    },
  },
};

test('seed "Field pruning": someRandomField is pruned and reported as unknown', () => {
  const c = compileSchema(CRONTAB);
  const obj = {
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: { name: 'my-new-cron-object' },
    spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', someRandomField: 42 },
  };
  const pruned = c.prune(obj, { returnPruned: true });
  assert.deepEqual(obj, {
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: { name: 'my-new-cron-object' },
    spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image' },
  });
  assert.deepEqual(pruned.map(unknownFieldError), ['unknown field "spec.someRandomField"']);
  assert.deepEqual(c.validate(obj), []);
});

test('seed "Controlling pruning": preserve-unknown-fields keeps a subtree, nested properties prune again', () => {
  const c = compileSchema({
    type: 'object',
    properties: {
      json: {
        'x-kubernetes-preserve-unknown-fields': true,
        type: 'object',
        properties: { spec: { type: 'object', properties: { foo: { type: 'string' }, bar: { type: 'string' } } } },
      },
    },
  });
  const obj = { json: { spec: { foo: 'abc', bar: 'def', something: 'x' }, status: { something: 'x' } } };
  assert.deepEqual(c.prune(obj, { returnPruned: true }), ['json.spec.something']);
  assert.deepEqual(obj, { json: { spec: { foo: 'abc', bar: 'def' }, status: { something: 'x' } } });

  const anyJSON = compileSchema({ type: 'object', properties: { json: { 'x-kubernetes-preserve-unknown-fields': true } } });
  const free = { json: { a: [1, { b: 2 }], c: null } };
  assert.deepEqual(anyJSON.prune(free, { returnPruned: true }), []);
  assert.deepEqual(free, { json: { a: [1, { b: 2 }], c: null } });

  const typed = compileSchema({
    type: 'object',
    properties: { json: { 'x-kubernetes-preserve-unknown-fields': true, type: 'object', description: 'this is arbitrary JSON' } },
  });
  assert.deepEqual(typed.validate({ json: 'text' }).map(fieldErrorString), [
    'json: Invalid value: "string": json in body must be of type object: "string"',
  ]);
});

test('unknown fields everywhere: inside items, additionalProperties, and under scalar schemas', () => {
  const c = compileSchema({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
          map: { type: 'object', additionalProperties: { type: 'object', properties: { b: { type: 'string' } } } },
          name: { type: 'string' },
        },
      },
    },
  });
  const obj = {
    apiVersion: 'v', kind: 'K', extra: 1,
    spec: { list: [{ a: 'x', z: 1 }, { q: 2 }], map: { 'k.1': { b: 'y', c: 3 } }, name: { oops: true } },
  };
  assert.deepEqual(c.prune(obj, { returnPruned: true }), ['extra', 'spec.list[0].z', 'spec.list[1].q', 'spec.map.k.1.c', 'spec.name.oops']);
  assert.deepEqual(obj, { apiVersion: 'v', kind: 'K', spec: { list: [{ a: 'x' }, {}], map: { 'k.1': { b: 'y' } }, name: {} } });
});

test('root metadata is round-tripped through ObjectMeta: unknown fields dropped, times normalized', () => {
  const c = compileSchema(CRONTAB);
  const obj = {
    apiVersion: 'v',
    kind: 'K',
    metadata: { name: 'x', labels: {}, foo: 'bar', creationTimestamp: '2017-05-31T14:56:35.123+02:00', ownerReferences: [{ kind: 'A', zzz: 1 }] },
  };
  assert.deepEqual(c.prune(obj, { returnPruned: true }), ['metadata.foo', 'metadata.ownerReferences[0].zzz']);
  assert.deepEqual(obj.metadata, {
    name: 'x',
    creationTimestamp: '2017-05-31T12:56:35Z',
    ownerReferences: [{ apiVersion: '', kind: 'A', name: '', uid: '' }],
  });
});

test('malformed root metadata fails the decode; storage reads drop the bad fields', () => {
  const c = compileSchema(CRONTAB);
  assert.throws(
    () => c.prune({ metadata: { name: 'x', labels: { a: 1 } } }),
    (e: unknown) => e instanceof SchemaCoercionError && e.message === 'json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string',
  );
  assert.throws(
    () => c.prune({ metadata: { name: 'x', creationTimestamp: 'yesterday' } }),
    (e: unknown) => e instanceof SchemaCoercionError && e.message === 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
  );
  const stored = { metadata: { name: 'x', labels: { a: 1 }, generation: 2 } };
  c.prune(stored, { dropInvalidMetadata: true });
  assert.deepEqual(stored.metadata, { name: 'x', generation: 2 });
});

const EMBEDDING: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } },
        raw: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

test('embedded resources: apiVersion/kind kept, metadata coerced, the rest pruned by the schema', () => {
  const c = compileSchema(EMBEDDING);
  const obj = {
    spec: {
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bogus: 1, creationTimestamp: null }, spec: { a: 'x', b: 'y' }, other: 1 },
      raw: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' }, junk: true }, spec: { anything: [1, 2] } },
    },
  };
  assert.deepEqual(c.prune(obj, { returnPruned: true }), [
    'spec.template.other',
    'spec.template.spec.b',
    'spec.raw.metadata.junk',
    'spec.template.metadata.bogus',
  ]);
  assert.deepEqual(obj.spec, {
    template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { a: 'x' } },
    raw: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' } }, spec: { anything: [1, 2] } },
  });
});

test('embedded resources: apiVersion/kind of the wrong type fail the decode', () => {
  const c = compileSchema(EMBEDDING);
  assert.throws(
    () => c.prune({ spec: { raw: { apiVersion: 1, kind: 'Pod' } } }),
    (e: unknown) => e instanceof SchemaCoercionError && e.message === 'spec.raw.apiVersion: Invalid value: 1: must be a string',
  );
});

test('embedded resources are validated: apiVersion and kind required, metadata as ObjectMeta', () => {
  const c = compileSchema(EMBEDDING);
  const errs = (o: unknown): string[] => c.validate(o).map(fieldErrorString);
  assert.deepEqual(errs({ spec: { raw: {} } }), ['spec.raw.apiVersion: Required value: must not be empty', 'spec.raw.kind: Required value: must not be empty']);
  assert.deepEqual(errs({ spec: { raw: { apiVersion: 'a/b/c', kind: 'Bad_Kind' } } }), [
    'spec.raw.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    'spec.raw.kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
  ]);
  assert.deepEqual(errs({ spec: { raw: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b', labels: { 'bad key': 'x' } } } } }), [
    'spec.raw.metadata.name: Invalid value: "a/b": may not contain \'/\'',
    'spec.raw.metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
  ]);
  assert.deepEqual(errs({ spec: { raw: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: 'x' } } } }), [
    'spec.raw.metadata: Invalid value: map[string]interface {}{"labels":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string',
  ]);
  assert.deepEqual(errs({ spec: { raw: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { namespace: 'ns' } } } }), []);
});

test('seed "Defaulting": cronSpec and replicas are defaulted', () => {
  const c = compileSchema({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$', default: '5 0 * * *' },
          image: { type: 'string' },
          replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
        },
      },
    },
  });
  const obj = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-new-cron-object' }, spec: { image: 'my-awesome-cron-image' } };
  c.default(obj);
  assert.deepEqual(obj, {
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: { name: 'my-new-cron-object' },
    spec: { cronSpec: '5 0 * * *', image: 'my-awesome-cron-image', replicas: 1 },
  });
});

test('seed "Defaulting and Nullable": foo defaulted, bar kept null, baz pruned', () => {
  const c = compileSchema({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          foo: { type: 'string', nullable: false, default: 'default' },
          bar: { type: 'string', nullable: true },
          baz: { type: 'string' },
        },
      },
    },
  });
  // Either order gives kube's result: null-pruning keeps what defaulting replaces.
  for (const order of ['default first', 'prune first']) {
    const obj = { spec: { foo: null, bar: null, baz: null } };
    if (order === 'default first') {
      c.default(obj);
      assert.deepEqual(c.prune(obj, { returnPruned: true }), []);
    } else {
      assert.deepEqual(c.prune(obj, { returnPruned: true }), []);
      c.default(obj);
    }
    assert.deepEqual(obj, { spec: { foo: 'default', bar: null } }, order);
    assert.deepEqual(c.validate(obj), []);
  }
});

test('defaults inside items and additionalProperties, deep-copied, with nested defaults applied', () => {
  const c = compileSchema({
    type: 'object',
    properties: {
      list: { type: 'array', items: { type: 'object', default: { x: 1 }, properties: { x: { type: 'integer' }, y: { type: 'string', default: 'why' } } } },
      map: { type: 'object', additionalProperties: { type: 'object', properties: { z: { type: 'boolean', default: true } } } },
      obj: { type: 'object', default: { unknown: 1 }, properties: { inner: { type: 'string', default: 'in' } } },
    },
  });
  const o: Record<string, unknown> = { list: [{}, null, { y: 'set' }], map: { a: {}, b: { z: false } } };
  c.default(o);
  assert.deepEqual(o, {
    list: [{ y: 'why' }, { x: 1, y: 'why' }, { y: 'set' }],
    map: { a: { z: true }, b: { z: false } },
    // The default itself is pruned (unknown dropped), then defaulted inside.
    obj: { inner: 'in' },
  });
  const o2: Record<string, unknown> = { list: [null, null] };
  c.default(o2);
  (o2.list as Array<Record<string, unknown>>)[0]!.x = 99;
  assert.equal((o2.list as Array<Record<string, unknown>>)[1]!.x, 1, 'each default is a fresh copy');
});

test('nullable with a default keeps null; absent gets the default', () => {
  const c = compileSchema({ type: 'object', properties: { a: { type: 'string', nullable: true, default: 'd' } } });
  const withNull = { a: null };
  c.default(withNull);
  assert.deepEqual(withNull, { a: null });
  const absent = {};
  c.default(absent);
  assert.deepEqual(absent, { a: 'd' });
});

test('nulls in items stay (and fail validation); nulls in maps follow the value schema', () => {
  const c = compileSchema({
    type: 'object',
    properties: { list: { type: 'array', items: { type: 'string' } }, map: { type: 'object', additionalProperties: { type: 'string' } } },
  });
  const o = { list: ['a', null], map: { k: null } };
  c.prune(o);
  assert.deepEqual(o, { list: ['a', null], map: {} });
  assert.deepEqual(c.validate(o).map(fieldErrorString), ['list[1]: Invalid value: "null": list[1] in body must be of type string: "null"']);
});

test('preserve-unknown-fields at the root keeps everything but still prunes specified properties', () => {
  const c = compileSchema({
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
    properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } },
  });
  const obj = { apiVersion: 'v', kind: 'K', anything: { x: [1] }, spec: { a: 'x', b: 'gone' } };
  assert.deepEqual(c.prune(obj, { returnPruned: true }), ['spec.b']);
  assert.deepEqual(obj, { apiVersion: 'v', kind: 'K', anything: { x: [1] }, spec: { a: 'x' } });
});

test('additionalProperties: true without a schema keeps keys but prunes inside their object values', () => {
  const c = compileSchema({ type: 'object', properties: { m: { type: 'object', additionalProperties: true } } });
  const obj = { m: { scalar: 1, list: [{ a: 1 }, 2], nested: { b: 2 } } };
  assert.deepEqual(c.prune(obj, { returnPruned: true }), ['m.list[0].a', 'm.nested.b']);
  assert.deepEqual(obj, { m: { scalar: 1, list: [{}, 2], nested: {} } });
});

test('embedded resources inside preserve-unknown-fields lists and maps are found by the schema', () => {
  const c = compileSchema({
    type: 'object',
    properties: {
      resources: {
        type: 'array',
        items: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  });
  const obj = { resources: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', extra: 1 }, data: { k: 'v' } }] };
  assert.deepEqual(c.prune(obj, { returnPruned: true }), ['resources[0].metadata.extra']);
  assert.deepEqual(obj.resources[0], { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
  assert.deepEqual(c.validate({ resources: [{ kind: 'ConfigMap' }] }).map(fieldErrorString), ['resources[0].apiVersion: Required value: must not be empty']);
});
