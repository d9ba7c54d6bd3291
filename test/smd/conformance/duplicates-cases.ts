// Ported from structured-merge-diff v4.6.0 merge/duplicates_test.go.
import { _KBF, _NS, _P, _V, conflict, sameVersionParser, type ConformanceFile, type Group, vs } from './fixture.js';

export const duplicatesParser = sameVersionParser(`types:
- name: type
  map:
    fields:
      - name: list
        type:
          namedType: associativeList
      - name: unrelated
        type:
          scalar: numeric
      - name: set
        type:
          namedType: set
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
    - name: value1
      type:
        scalar: numeric
    - name: value2
      type:
        scalar: numeric
- name: set
  list:
    elementType:
      scalar: numeric
    elementRelationship: associative
`, 'type');

const duplicates: Group = {
  test: 'TestDuplicates',
  parser: duplicatesParser,
  cases: [
    {
      name: 'sets/ownership/duplicates',
      ops: [
        { op: 'update', manager: 'updater-one', apiVersion: 'v1', object: 'set: [1, 1, 3, 4]\n' },
      ],
      managed: { 'updater-one': vs(_NS(_P('set'), _P('set', _V(1)), _P('set', _V(3)), _P('set', _V(4))), 'v1', false) },
    },
    {
      name: 'sets/ownership/add_duplicate',
      ops: [
        { op: 'update', manager: 'updater-one', apiVersion: 'v1', object: 'set: [1, 3, 4]\n' },
        { op: 'update', manager: 'updater-two', apiVersion: 'v1', object: 'set: [1, 1, 3, 4]\n' },
      ],
      managed: { 'updater-one': vs(_NS(_P('set'), _P('set', _V(3)), _P('set', _V(4))), 'v1', false), 'updater-two': vs(_NS(_P('set', _V(1))), 'v1', false) },
    },
    {
      name: 'sets/ownership/remove_duplicate',
      ops: [
        { op: 'update', manager: 'updater-one', apiVersion: 'v1', object: 'set: [1, 1, 3, 4]\n' },
        { op: 'update', manager: 'updater-two', apiVersion: 'v1', object: 'set: [1, 3, 4]\n' },
      ],
      managed: { 'updater-one': vs(_NS(_P('set'), _P('set', _V(3)), _P('set', _V(4))), 'v1', false), 'updater-two': vs(_NS(_P('set', _V(1))), 'v1', false) },
    },
    {
      name: 'sets/merging/remove_duplicate',
      ops: [
        { op: 'update', manager: 'updater', apiVersion: 'v1', object: 'set: [1, 1, 3, 4]\n' },
        { op: 'apply', manager: 'applier', apiVersion: 'v1', conflicts: [conflict('updater', _P('set', _V(1)))], object: 'set: [1]\n' },
        { op: 'forceApply', manager: 'applier', apiVersion: 'v1', object: 'set: [1]\n' },
      ],
      object: 'set: [1, 3, 4]\n',
      apiVersion: 'v1',
      managed: { 'updater': vs(_NS(_P('set'), _P('set', _V(3)), _P('set', _V(4))), 'v1', false), 'applier': vs(_NS(_P('set', _V(1))), 'v1', true) },
    },
    {
      name: 'sets/merging/ignore_duplicate',
      ops: [
        { op: 'update', manager: 'updater', apiVersion: 'v1', object: 'set: [1, 1, 3, 4]\n' },
        { op: 'apply', manager: 'applier', apiVersion: 'v1', object: 'set: [5]\n' },
      ],
      object: 'set: [1, 1, 3, 4, 5]\n',
      apiVersion: 'v1',
      managed: { 'updater': vs(_NS(_P('set'), _P('set', _V(1)), _P('set', _V(3)), _P('set', _V(4))), 'v1', false), 'applier': vs(_NS(_P('set', _V(5))), 'v1', true) },
    },
    {
      name: 'list/ownership/duplicated_items',
      ops: [
        { op: 'update', manager: 'updater', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n' },
      ],
      managed: { 'updater': vs(_NS(_P('list'), _P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value1')), 'v1', false) },
    },
    {
      name: 'list/ownership/change_duplicated_items',
      ops: [
        { op: 'update', manager: 'updater-one', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n' },
        { op: 'update', manager: 'updater-two', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 3\n- name: b\n  value1: 3\n' },
      ],
      managed: { 'updater-one': vs(_NS(_P('list'), _P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value1')), 'v1', false), 'updater-two': vs(_NS(_P('list', _KBF('name', 'a'))), 'v1', false) },
    },
    {
      name: 'list/ownership/change_fields_duplicated_items',
      ops: [
        { op: 'update', manager: 'updater-one', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n' },
        { op: 'update', manager: 'updater-two', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n  value2: 3 # New field\n- name: b\n  value1: 3\n' },
      ],
      managed: { 'updater-one': vs(_NS(_P('list'), _P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value1')), 'v1', false), 'updater-two': vs(_NS(_P('list', _KBF('name', 'a'))), 'v1', false) },
    },
    {
      name: 'list/ownership/add_duplicated_items_different_field',
      ops: [
        { op: 'update', manager: 'updater-one', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: b\n  value1: 3\n' },
        { op: 'update', manager: 'updater-two', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value2: 3 # New field\n- name: b\n  value1: 3\n' },
      ],
      managed: { 'updater-one': vs(_NS(_P('list'), _P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value1')), 'v1', false), 'updater-two': vs(_NS(_P('list', _KBF('name', 'a'))), 'v1', false) },
    },
    {
      name: 'list/ownership/add_unrelated_to_list_with_duplicates',
      ops: [
        { op: 'update', manager: 'updater-one', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n' },
        { op: 'update', manager: 'updater-two', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n' },
      ],
      managed: { 'updater-one': vs(_NS(_P('list'), _P('list', _KBF('name', 'a'))), 'v1', false), 'updater-two': vs(_NS(_P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value1')), 'v1', false) },
    },
    {
      name: 'list/merge/unrelated_with_duplicated_items',
      ops: [
        { op: 'update', manager: 'updater', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n' },
        { op: 'forceApply', manager: 'applier', apiVersion: 'v1', object: 'unrelated: 5\n' },
      ],
      object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\nunrelated: 5\n',
      apiVersion: 'v1',
      managed: { 'updater': vs(_NS(_P('list'), _P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value1')), 'v1', false), 'applier': vs(_NS(_P('unrelated')), 'v1', true) },
    },
    {
      name: 'list/merge/change_duplicated_item',
      ops: [
        { op: 'update', manager: 'updater', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n' },
        { op: 'apply', manager: 'applier', apiVersion: 'v1', conflicts: [conflict('updater', _P('list', _KBF('name', 'a')))], object: 'list:\n- name: a\n  value1: 3\n' },
        { op: 'forceApply', manager: 'applier', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 3\n' },
      ],
      object: 'list:\n- name: a\n  value1: 3\n- name: b\n  value1: 3\n',
      apiVersion: 'v1',
      managed: { 'updater': vs(_NS(_P('list'), _P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value1')), 'v1', false), 'applier': vs(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name'), _P('list', _KBF('name', 'a'), 'value1')), 'v1', true) },
    },
    {
      name: 'list/merge/unchanged_duplicated_item',
      ops: [
        { op: 'update', manager: 'updater', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n' },
        { op: 'apply', manager: 'applier', apiVersion: 'v1', conflicts: [conflict('updater', _P('list', _KBF('name', 'a')))], object: 'list:\n- name: a\n  value1: 2\n' },
        { op: 'forceApply', manager: 'applier', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 3\n' },
      ],
      object: 'list:\n- name: a\n  value1: 3\n- name: b\n  value1: 3\n',
      apiVersion: 'v1',
      managed: { 'updater': vs(_NS(_P('list'), _P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value1')), 'v1', false), 'applier': vs(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name'), _P('list', _KBF('name', 'a'), 'value1')), 'v1', true) },
    },
    {
      name: 'list/merge/change_non_duplicated_item',
      ops: [
        { op: 'update', manager: 'updater', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n' },
        { op: 'forceApply', manager: 'applier', apiVersion: 'v1', object: 'list:\n- name: b\n  value1: 4\n' },
      ],
      object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 4\n',
      apiVersion: 'v1',
      managed: { 'updater': vs(_NS(_P('list'), _P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name')), 'v1', false), 'applier': vs(_NS(_P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value1')), 'v1', true) },
    },
    {
      name: 'list/merge/apply_update_duplicates_apply_without',
      ops: [
        { op: 'apply', manager: 'applier', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: b\n  value1: 3\n' },
        { op: 'update', manager: 'updater', apiVersion: 'v1', object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n' },
        { op: 'apply', manager: 'applier', apiVersion: 'v1', object: 'list:\n- name: b\n  value1: 3\n' },
      ],
      object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
      apiVersion: 'v1',
      managed: { 'applier': vs(_NS(_P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value1')), 'v1', true), 'updater': vs(_NS(_P('list', _KBF('name', 'a'))), 'v1', false) },
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/duplicates_test.go',
  groups: [duplicates],
};
