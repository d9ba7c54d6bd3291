// Updates and applies with several managers, ported from structured-merge-diff's merge tests (set_test.go,
// multiple_appliers_test.go): the object after each step, who owns what, and the conflicts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { MergeSchema } from '../../src/smd/schema.js';
import { Updater, type VersionConverter } from '../../src/smd/updater.js';
import { ConflictError, type ManagedFields } from '../../src/smd/managers.js';
import { valuesEqual } from '../../src/smd/value-order.js';
import { pathString } from '../../src/smd/set.js';
import { P, S, type Part } from './helpers.js';

type Op =
  | { apply: string; manager: string; version: string; force?: boolean; conflicts?: Array<[string, Part[]]> }
  | { update: string; manager: string; version: string };

interface Case {
  ops: Op[];
  object: string;
  managed: Record<string, { paths: Part[][]; version: string }>;
}

/** SameVersionParser: every version has the one schema and objects convert unchanged. */
function run(schemaYaml: string, root: string, c: Case): void {
  const schema = MergeSchema.fromObject(parse(schemaYaml));
  const converter: VersionConverter = {
    schemaFor: () => ({ schema, root: { namedType: root } }),
    convert: (obj, version) => ({ value: obj.value, version }),
  };
  const updater = new Updater({ converter });
  let live: unknown = null;
  let managers: ManagedFields = new Map();
  for (const op of c.ops) {
    if ('update' in op) {
      const next = parse(op.update);
      managers = updater.updateObject({ value: live, version: op.version }, { value: next, version: op.version }, managers, op.manager);
      live = next;
      continue;
    }
    try {
      const r = updater.apply({ value: live, version: op.version }, { value: parse(op.apply), version: op.version }, managers, op.manager, op.force ?? false);
      assert.equal(op.conflicts, undefined, 'expected conflicts');
      managers = r.managers;
      if (r.object !== undefined) live = r.object;
    } catch (e) {
      if (!(e instanceof ConflictError) || !op.conflicts) throw e;
      assert.deepEqual(
        e.conflicts.map((x) => [x.manager, pathString(x.path)]),
        op.conflicts.map(([m, parts]) => [m, pathString(P(...parts))]),
      );
    }
  }
  assert.ok(valuesEqual(live, parse(c.object)), `object:\nwant: ${JSON.stringify(parse(c.object))}\ngot:  ${JSON.stringify(live)}`);
  assert.deepEqual([...managers.keys()].sort(), Object.keys(c.managed).sort());
  for (const [manager, want] of Object.entries(c.managed)) {
    const got = managers.get(manager)!;
    const wantSet = S(...want.paths.map((p) => P(...p)));
    assert.ok(got.set.equals(wantSet), `${manager}:\nwant:\n${wantSet}\ngot:\n${got.set}`);
    assert.equal(got.apiVersion, want.version, manager);
  }
}

const SETS = `types:
- name: sets
  map:
    fields:
    - name: list
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative`;

const ASSOCIATIVE = `types:
- name: type
  map:
    fields:
      - name: list
        type:
          namedType: associativeList
- name: associativeList
  list:
    elementType:
      namedType: myElement
    elementRelationship: associative
    keys:
    - name
- name: myElement
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: value
      type:
        scalar: numeric`;

const v = (x: unknown) => ({ v: x });
const k = (name: string) => ({ k: { name } });

test('sets: apply twice', () => {
  run(SETS, 'sets', {
    ops: [
      { apply: 'list: [a, c]', manager: 'default', version: 'v1' },
      { apply: 'list: [a, b, c, d]', manager: 'default', version: 'v1' },
    ],
    object: 'list: [a, b, c, d]',
    managed: { default: { paths: [['list', v('a')], ['list', v('b')], ['list', v('c')], ['list', v('d')]], version: 'v1' } },
  });
});

test('sets: apply, update, apply without overlap keeps both orders', () => {
  run(SETS, 'sets', {
    ops: [
      { apply: 'list: [a, c]', manager: 'default', version: 'v1' },
      { update: 'list: [a, b, c, d]', manager: 'controller', version: 'v1' },
      { apply: 'list: [a, aprime, c, cprime]', manager: 'default', version: 'v1' },
    ],
    object: 'list: [a, b, aprime, c, d, cprime]',
    managed: {
      default: { paths: [['list', v('a')], ['list', v('aprime')], ['list', v('c')], ['list', v('cprime')]], version: 'v1' },
      controller: { paths: [['list', v('b')], ['list', v('d')]], version: 'v1' },
    },
  });
});

test('multiple appliers: remove one', () => {
  run(ASSOCIATIVE, 'type', {
    ops: [
      { apply: 'list: [{name: a}, {name: b}]', manager: 'apply-one', version: 'v1' },
      { apply: 'list: [{name: c}]', manager: 'apply-two', version: 'v2' },
      { apply: 'list: [{name: a}]', manager: 'apply-one', version: 'v3' },
    ],
    object: 'list: [{name: a}, {name: c}]',
    managed: {
      'apply-one': { paths: [['list', k('a')], ['list', k('a'), 'name']], version: 'v3' },
      'apply-two': { paths: [['list', k('c')], ['list', k('c'), 'name']], version: 'v2' },
    },
  });
});

test('multiple appliers: the same value is shared, another value conflicts', () => {
  run(ASSOCIATIVE, 'type', {
    ops: [
      { apply: 'list: [{name: a, value: 0}]', manager: 'apply-one', version: 'v1' },
      { apply: 'list: [{name: a, value: 1}]', manager: 'apply-two', version: 'v2', conflicts: [['apply-one', ['list', k('a'), 'value']]] },
    ],
    object: 'list: [{name: a, value: 0}]',
    managed: { 'apply-one': { paths: [['list', k('a')], ['list', k('a'), 'name'], ['list', k('a'), 'value']], version: 'v1' } },
  });
  run(ASSOCIATIVE, 'type', {
    ops: [
      { apply: 'list: [{name: a, value: 0}]', manager: 'apply-one', version: 'v1' },
      { apply: 'list: [{name: a, value: 0}]', manager: 'apply-two', version: 'v2' },
    ],
    object: 'list: [{name: a, value: 0}]',
    managed: {
      'apply-one': { paths: [['list', k('a')], ['list', k('a'), 'name'], ['list', k('a'), 'value']], version: 'v1' },
      'apply-two': { paths: [['list', k('a')], ['list', k('a'), 'name'], ['list', k('a'), 'value']], version: 'v2' },
    },
  });
});

test('multiple appliers: forcing takes the field over', () => {
  run(ASSOCIATIVE, 'type', {
    ops: [
      { apply: 'list: [{name: a, value: 0}]', manager: 'apply-one', version: 'v1' },
      { apply: 'list: [{name: a, value: 1}]', manager: 'apply-two', version: 'v1', force: true },
    ],
    object: 'list: [{name: a, value: 1}]',
    managed: {
      'apply-one': { paths: [['list', k('a')], ['list', k('a'), 'name']], version: 'v1' },
      'apply-two': { paths: [['list', k('a')], ['list', k('a'), 'name'], ['list', k('a'), 'value']], version: 'v1' },
    },
  });
});

const NESTED = `types:
- name: type
  map:
    fields:
      - name: listOfLists
        type:
          namedType: listOfLists
- name: listOfLists
  list:
    elementType:
      map:
        fields:
        - name: name
          type:
            scalar: string
        - name: value
          type:
            namedType: list
    elementRelationship: associative
    keys:
    - name
- name: list
  list:
    elementType:
      scalar: string
    elementRelationship: associative`;

test('nested: an item one applier drops stays while another manager owns something in it', () => {
  run(NESTED, 'type', {
    ops: [
      { apply: 'listOfLists: [{name: a}, {name: b, value: [c]}]', manager: 'apply-one', version: 'v1' },
      { apply: 'listOfLists: [{name: b, value: [d]}]', manager: 'apply-two', version: 'v2' },
      { update: 'listOfLists: [{name: a}, {name: b, value: [c, d, e]}]', manager: 'controller', version: 'v2' },
      { apply: 'listOfLists: [{name: a}]', manager: 'apply-one', version: 'v3' },
    ],
    object: 'listOfLists: [{name: a}, {name: b, value: [d, e]}]',
    managed: {
      'apply-one': { paths: [['listOfLists', k('a')], ['listOfLists', k('a'), 'name']], version: 'v3' },
      'apply-two': { paths: [['listOfLists', k('b')], ['listOfLists', k('b'), 'name'], ['listOfLists', k('b'), 'value', v('d')]], version: 'v2' },
      controller: { paths: [['listOfLists', k('b'), 'value', v('e')]], version: 'v2' },
    },
  });
});

test('nested: an item only its applier keeps goes, with what an updater added inside it', () => {
  run(NESTED, 'type', {
    ops: [
      { apply: 'listOfLists: [{name: a}, {name: b, value: [c]}]', manager: 'apply-one', version: 'v1' },
      { apply: 'listOfLists: [{name: a, value: [b]}]', manager: 'apply-two', version: 'v2' },
      { update: 'listOfLists: [{name: a, value: [b]}, {name: b, value: [c, d]}]', manager: 'controller', version: 'v2' },
      { apply: 'listOfLists: [{name: a}]', manager: 'apply-one', version: 'v3' },
    ],
    object: 'listOfLists: [{name: a, value: [b]}]',
    managed: {
      'apply-one': { paths: [['listOfLists', k('a')], ['listOfLists', k('a'), 'name']], version: 'v3' },
      'apply-two': { paths: [['listOfLists', k('a')], ['listOfLists', k('a'), 'name'], ['listOfLists', k('a'), 'value', v('b')]], version: 'v2' },
    },
  });
});
