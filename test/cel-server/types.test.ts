// Structural schemas as CEL types, property name escaping, rule field paths, and the old/new
// correlation that transition rules and ratcheting use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeCelName, unescapeCelName } from '../../src/crd/cel-escaping.js';
import { celTypeOf, maxCardinality, schemaDeclType, type DeclType } from '../../src/crd/cel-types.js';
import { normalizeRuleFieldPath } from '../../src/crd/cel-field-path.js';
import { newStructural, type Structural } from '../../src/schema/structural-model.js';
import { formatType, type CelType, type ObjectType } from '../../src/cel/types.js';
import { Correlated, NO_RATCHET, ratchetIndex, ratchetKey, shouldRatchet } from '../../src/crd/cel-correlation.js';
import { ratchetSchemaErrors } from '../../src/crd/cel-ratcheting.js';
import { invalid, required } from '../../src/api/field-error.js';

const structural = (s: Record<string, unknown>): Structural => {
  const r = newStructural(s);
  if ('error' in r) throw new Error(r.error);
  return r.structural;
};
const decl = (s: Record<string, unknown>, root = false): DeclType => {
  const d = schemaDeclType(structural(s), root);
  assert.ok(d, 'exposed');
  return d;
};
const fieldsOf = (t: CelType): ObjectType => {
  assert.equal(t.kind, 'object');
  return t as ObjectType;
};

test('escaping: kube escaping_test cases', () => {
  const cases: Array<[string, string | undefined]> = [
    ['a.a', 'a__dot__a'],
    ['a-a', 'a__dash__a'],
    ['a__a', 'a__underscores__a'],
    ['a.-/__a', 'a__dot____dash____slash____underscores__a'],
    ['a._a', 'a__dot___a'],
    ['a__.__a', 'a__underscores____dot____underscores__a'],
    ['a___a', 'a__underscores___a'],
    ['a____a', 'a__underscores____underscores__a'],
    ['a__dot__a', 'a__underscores__dot__underscores__a'],
    ['true', '__true__'],
    ['namespace', '__namespace__'],
    ['while', '__while__'],
    ['x-prop', 'x__dash__prop'],
    ['redact__d', 'redact__underscores__d'],
    ['has', 'has'],
    ['int', 'int'],
    ['sprint', 'sprint'],
    ['@', undefined],
    ['1up', undefined],
    ['👑', undefined],
    ['a-@', undefined],
    ['', undefined],
  ];
  for (const [name, want] of cases) assert.equal(escapeCelName(name), want, name);
  for (const [name, want] of cases) if (want !== undefined) assert.equal(unescapeCelName(want), name, want);
  assert.equal(unescapeCelName('a__true__'), undefined);
  assert.equal(unescapeCelName('a__bogus__b'), undefined);
});

test('types: scalars, formats, int-or-string, unknown types', () => {
  const t = celTypeOf(
    decl({
      type: 'object',
      properties: {
        i: { type: 'integer' },
        n: { type: 'number' },
        b: { type: 'boolean' },
        s: { type: 'string' },
        by: { type: 'string', format: 'byte' },
        d: { type: 'string', format: 'date' },
        dt: { type: 'string', format: 'date-time' },
        du: { type: 'string', format: 'duration' },
        ios: { 'x-kubernetes-int-or-string': true },
        unknown: { 'x-kubernetes-preserve-unknown-fields': true },
        unknownList: { type: 'array', items: { 'x-kubernetes-preserve-unknown-fields': true } },
        unknownMap: { type: 'object', additionalProperties: { 'x-kubernetes-preserve-unknown-fields': true } },
        preserved: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    }),
    'selfType1',
  );
  const f = fieldsOf(t).fields;
  const types = Object.fromEntries([...f].map(([k, v]) => [k, formatType(v.type)]));
  assert.deepEqual(types, {
    i: 'int',
    n: 'double',
    b: 'bool',
    s: 'string',
    by: 'bytes',
    d: 'google.protobuf.Timestamp',
    dt: 'google.protobuf.Timestamp',
    du: 'google.protobuf.Duration',
    ios: 'dyn',
    preserved: 'selfType1.preserved',
  });
});

test('types: escaped field names, object names as MaybeAssignTypeName gives them', () => {
  const t = celTypeOf(
    decl({
      type: 'object',
      properties: {
        'x-prop': { type: 'integer' },
        namespace: { type: 'string' },
        'bad@name': { type: 'string' },
        spec: {
          type: 'object',
          properties: {
            list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
            labels: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string' } } } },
          },
        },
      },
    }),
    'selfType7',
  );
  const f = fieldsOf(t).fields;
  assert.deepEqual([...f.keys()].sort(), ['__namespace__', 'spec', 'x__dash__prop']);
  assert.equal(f.get('x__dash__prop')!.jsonName, 'x-prop');
  const spec = f.get('spec')!.type;
  assert.equal(formatType(spec), 'selfType7.spec');
  const sf = fieldsOf(spec).fields;
  assert.equal(formatType(sf.get('list')!.type), 'list(selfType7.spec.list.@idx)');
  assert.equal(formatType(sf.get('labels')!.type), 'map(string, selfType7.spec.labels.@elem)');
});

test('types: the resource root exposes apiVersion, kind and metadata.name/generateName only', () => {
  const t = celTypeOf(decl({ type: 'object', properties: { spec: { type: 'object', properties: { x: { type: 'integer' } } } } }, true), 'selfType2');
  const f = fieldsOf(t).fields;
  assert.deepEqual([...f.keys()].sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
  assert.deepEqual([...fieldsOf(f.get('metadata')!.type).fields.keys()].sort(), ['generateName', 'name']);
  // Embedded resources too.
  const e = celTypeOf(
    decl({ type: 'object', properties: { tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } }),
    'selfType3',
  );
  assert.deepEqual([...fieldsOf(fieldsOf(e).fields.get('tmpl')!.type).fields.keys()].sort(), ['apiVersion', 'kind', 'metadata']);
});

test('types: list types and size bounds', () => {
  const t = celTypeOf(
    decl({
      type: 'object',
      properties: {
        set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', maxLength: 10 } },
        map: {
          type: 'array',
          maxItems: 5,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        },
        e: { type: 'string', enum: ['a', 'long-one'] },
        m: { type: 'object', maxProperties: 3, additionalProperties: { type: 'integer' } },
        big: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    }),
  );
  const f = fieldsOf(t).fields;
  const set = f.get('set')!.type as Extract<CelType, { kind: 'list' }>;
  assert.equal(set.listType, 'set');
  assert.equal((set.elem as { maxElements?: number }).maxElements, 40); // 4 bytes per code point
  assert.equal(set.maxElements, Math.floor((3145728 - 2) / 3)); // "" and a comma per item
  const map = f.get('map')!.type as Extract<CelType, { kind: 'list' }>;
  assert.equal(map.listType, 'map');
  assert.deepEqual(map.mapKeys, ['name']);
  assert.equal(map.maxElements, 5);
  assert.equal((f.get('e')!.type as { maxElements?: number }).maxElements, 8);
  assert.equal((f.get('m')!.type as { maxElements?: number }).maxElements, 3);
  assert.equal((f.get('big')!.type as { maxElements?: number }).maxElements, Math.floor((3145728 - 2) / 7));
});

test('types: minimum serialized size counts required properties without defaults', () => {
  const d = decl({
    type: 'object',
    required: ['name', 'count', 'defaulted'],
    properties: { name: { type: 'string' }, count: { type: 'integer' }, defaulted: { type: 'integer', default: 1 }, opt: { type: 'string' } },
  });
  // {} + "name":"" + "count":0
  assert.equal(d.minSerializedSize, 2 + (4 + 2 + 4) + (5 + 1 + 4));
  assert.equal(maxCardinality(d.minSerializedSize), Math.floor(3145728 / (d.minSerializedSize + 1)));
});

test('field paths: normalized as kube appends them', () => {
  const s = structural({
    type: 'object',
    properties: { a: { type: 'object', properties: { b: { type: 'string' } } }, m: { type: 'object', additionalProperties: { type: 'object', properties: { c: { type: 'string' } } } } },
  });
  assert.equal(normalizeRuleFieldPath('.a', s), 'a');
  assert.equal(normalizeRuleFieldPath('.a.b', s), 'a.b');
  assert.equal(normalizeRuleFieldPath("['a'].b", s), 'a.b');
  assert.equal(normalizeRuleFieldPath(".m['k.x'].c", s), 'm[k.x].c');
  assert.equal(normalizeRuleFieldPath('.nope', s), undefined);
  assert.equal(normalizeRuleFieldPath('a', s), undefined);
});

test('correlation: fields, map-list items by key, atomic lists as a whole', () => {
  const s = structural({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          items: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', properties: { name: { type: 'string' }, v: { type: 'integer' } } },
          },
          atomic: { type: 'array', items: { type: 'integer' } },
        },
      },
    },
  });
  const oldObj = { spec: { items: [{ name: 'a', v: 1 }, { name: 'b', v: 2 }], atomic: [1, 2] } };
  const newObj = { spec: { items: [{ name: 'b', v: 3 }, { name: 'a', v: 1 }], atomic: [1, 2] } };
  const root = new Correlated(newObj, oldObj, s);
  assert.equal(root.deepEqual(), false);
  const items = root.key('spec')!.key('items')!;
  assert.deepEqual(items.index(0)!.oldValue, { name: 'b', v: 2 });
  assert.equal(items.index(0)!.deepEqual(), false);
  assert.equal(items.index(1)!.deepEqual(), true);
  const atomic = root.key('spec')!.key('atomic')!;
  assert.equal(atomic.index(0), undefined);
  assert.equal(atomic.deepEqual(), true);
  // Ratcheting follows: unchanged item → ratchet; atomic list items ratchet with their list.
  const r = ratchetKey(ratchetKey({ current: root }, 'spec'), 'items');
  assert.equal(shouldRatchet(ratchetIndex(r, 1)), true);
  assert.equal(shouldRatchet(ratchetIndex(r, 0)), false);
  assert.equal(shouldRatchet(ratchetIndex(ratchetKey(ratchetKey({ current: root }, 'spec'), 'atomic'), 0)), true);
  assert.equal(shouldRatchet(NO_RATCHET), false);
  // apiVersion and kind never ratchet.
  assert.equal(shouldRatchet(ratchetKey({ current: new Correlated({ kind: 'X' }, { kind: 'X' }, structural({ type: 'object', properties: { kind: { type: 'string' } } })) }, 'kind')), false);
});

test('schema ratcheting: errors of unchanged values are dropped', () => {
  const s = structural({
    type: 'object',
    properties: { spec: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' }, m: { type: 'object', additionalProperties: { type: 'string' } } } } },
  });
  const oldObj = { spec: { a: 'bad', b: 'x', m: { k: 'bad' } } };
  const newObj = { spec: { a: 'bad', b: 'worse', m: { k: 'bad' } } };
  const errs = [invalid('spec.a', 'bad', 'nope'), invalid('spec.b', 'worse', 'nope'), invalid('spec.m.k', 'bad', 'nope'), required('spec.c', '')];
  const kept = ratchetSchemaErrors(errs, new Correlated(newObj, oldObj, s), '');
  assert.deepEqual(
    kept.map((e) => e.field),
    ['spec.b', 'spec.c'],
  );
  // Unchanged status: nothing kept.
  assert.deepEqual(ratchetSchemaErrors([invalid('status.x', 1, 'nope')], new Correlated({ x: 1 }, { x: 1 }, structural({ type: 'object', properties: { x: { type: 'integer' } } })), 'status'), []);
  // Keys the schema does not know never correlate, so such objects never count as unchanged.
  assert.equal(new Correlated({ x: 1 }, { x: 1 }, s).deepEqual(), false);
});
