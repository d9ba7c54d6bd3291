// Ported from structured-merge-diff v4.6.0 merge/nested_test.go.
import { _KBF, _NS, _P, _V, sameVersionParser, type ConformanceFile, type Group, vs } from './fixture.js';

export const nestedTypeParser = sameVersionParser(`types:
- name: type
  map:
    fields:
      - name: listOfLists
        type:
          namedType: listOfLists
      - name: listOfMaps
        type:
          namedType: listOfMaps
      - name: mapOfLists
        type:
          namedType: mapOfLists
      - name: mapOfMaps
        type:
          namedType: mapOfMaps
      - name: mapOfMapsRecursive
        type:
          namedType: mapOfMapsRecursive
      - name: struct
        type:
          namedType: struct
- name: struct
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: value
      type:
        scalar: numeric
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
    elementRelationship: associative
- name: listOfMaps
  list:
    elementType:
      map:
        fields:
        - name: name
          type:
            scalar: string
        - name: value
          type:
            namedType: map
    elementRelationship: associative
    keys:
    - name
- name: map
  map:
    elementType:
      scalar: string
    elementRelationship: associative
- name: mapOfLists
  map:
    elementType:
      namedType: list
    elementRelationship: associative
- name: mapOfMaps
  map:
    elementType:
      namedType: map
    elementRelationship: associative
- name: mapOfMapsRecursive
  map:
    elementType:
      namedType: mapOfMapsRecursive
    elementRelationship: associative
`, 'type');

const updateNestedType: Group = {
  test: 'TestUpdateNestedType',
  parser: nestedTypeParser,
  cases: [
    {
      name: 'listOfLists_change_value',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'listOfLists:\n- name: a\n  value:\n  - b\n  - c\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'listOfLists:\n- name: a\n  value:\n  - a\n  - c\n' },
      ],
      object: 'listOfLists:\n- name: a\n  value:\n  - a\n  - c\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name'), _P('listOfLists', _KBF('name', 'a'), 'value', _V('a')), _P('listOfLists', _KBF('name', 'a'), 'value', _V('c'))), 'v1', false) },
    },
    {
      name: 'listOfLists_change_key_and_value',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'listOfLists:\n- name: a\n  value:\n  - b\n  - c\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'listOfLists:\n- name: b\n  value:\n  - a\n  - c\n' },
      ],
      object: 'listOfLists:\n- name: b\n  value:\n  - a\n  - c\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('listOfLists', _KBF('name', 'b')), _P('listOfLists', _KBF('name', 'b'), 'name'), _P('listOfLists', _KBF('name', 'b'), 'value', _V('a')), _P('listOfLists', _KBF('name', 'b'), 'value', _V('c'))), 'v1', false) },
    },
    {
      name: 'listOfMaps_change_value',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'listOfMaps:\n- name: a\n  value:\n    b: "x"\n    c: "y"\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'listOfMaps:\n- name: a\n  value:\n    a: "x"\n    c: "z"\n' },
      ],
      object: 'listOfMaps:\n- name: a\n  value:\n    a: "x"\n    c: "z"\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('listOfMaps', _KBF('name', 'a')), _P('listOfMaps', _KBF('name', 'a'), 'name'), _P('listOfMaps', _KBF('name', 'a'), 'value', 'a'), _P('listOfMaps', _KBF('name', 'a'), 'value', 'c')), 'v1', true) },
    },
    {
      name: 'listOfMaps_change_key_and_value',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'listOfMaps:\n- name: a\n  value:\n    b: "x"\n    c: "y"\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'listOfMaps:\n- name: b\n  value:\n    a: "x"\n    c: "z"\n' },
      ],
      object: 'listOfMaps:\n- name: b\n  value:\n    a: "x"\n    c: "z"\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('listOfMaps', _KBF('name', 'b')), _P('listOfMaps', _KBF('name', 'b'), 'name'), _P('listOfMaps', _KBF('name', 'b'), 'value', 'a'), _P('listOfMaps', _KBF('name', 'b'), 'value', 'c')), 'v1', false) },
    },
    {
      name: 'mapOfLists_change_value',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'mapOfLists:\n  a:\n  - b\n  - c\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'mapOfLists:\n  a:\n  - a\n  - c\n' },
      ],
      object: 'mapOfLists:\n  a:\n  - a\n  - c\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('mapOfLists', 'a'), _P('mapOfLists', 'a', _V('a')), _P('mapOfLists', 'a', _V('c'))), 'v1', true) },
    },
    {
      name: 'mapOfLists_change_key_and_value',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'mapOfLists:\n  a:\n  - b\n  - c\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'mapOfLists:\n  b:\n  - a\n  - c\n' },
      ],
      object: 'mapOfLists:\n  b:\n  - a\n  - c\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('mapOfLists', 'b'), _P('mapOfLists', 'b', _V('a')), _P('mapOfLists', 'b', _V('c'))), 'v1', false) },
    },
    {
      name: 'mapOfMaps_change_value',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'mapOfMaps:\n  a:\n    b: "x"\n    c: "y"\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'mapOfMaps:\n  a:\n    a: "x"\n    c: "z"\n' },
      ],
      object: 'mapOfMaps:\n  a:\n    a: "x"\n    c: "z"\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('mapOfMaps', 'a'), _P('mapOfMaps', 'a', 'a'), _P('mapOfMaps', 'a', 'c')), 'v1', false) },
    },
    {
      name: 'mapOfMaps_change_key_and_value',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'mapOfMaps:\n  a:\n    b: "x"\n    c: "y"\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'mapOfMaps:\n  b:\n    a: "x"\n    c: "z"\n' },
      ],
      object: 'mapOfMaps:\n  b:\n    a: "x"\n    c: "z"\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('mapOfMaps', 'b'), _P('mapOfMaps', 'b', 'a'), _P('mapOfMaps', 'b', 'c')), 'v1', false) },
    },
    {
      name: 'mapOfMapsRecursive_change_middle_key',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'mapOfMapsRecursive:\n  a:\n    b:\n      c:\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'mapOfMapsRecursive:\n  a:\n    d:\n      c:\n' },
      ],
      object: 'mapOfMapsRecursive:\n  a:\n    d:\n      c:\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'd'), _P('mapOfMapsRecursive', 'a', 'd', 'c')), 'v1', false) },
    },
    {
      name: 'struct_apply_remove_all',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'struct:\n  name: a\n  value: 1\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: '' },
      ],
      object: '',
      apiVersion: 'v1',
      managed: {  },
    },
    {
      name: 'struct_apply_remove_dangling',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'struct:\n  name: a\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'struct:\n' },
      ],
      object: 'struct:\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('struct')), 'v1', true) },
    },
    {
      name: 'struct_apply_update_remove_all',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'struct:\n  name: a\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'struct:\n  name: a\n  value: 1\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: '' },
      ],
      object: 'struct:\n  value: 1\n',
      apiVersion: 'v1',
    },
    {
      name: 'struct_apply_update_dict_dangling',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'struct:\n  name: a\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'struct:\n  name: a\n  value: 1\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'struct: {}\n' },
      ],
      object: 'struct:\n  value: 1\n',
      apiVersion: 'v1',
    },
    {
      name: 'struct_apply_update_dict_null',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'struct:\n  name: a\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'struct:\n  name: a\n  value: 1\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'struct:\n' },
      ],
      object: 'struct:\n  value: 1\n',
      apiVersion: 'v1',
    },
    {
      name: 'struct_apply_update_took_over',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'struct:\n  name: a\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'struct:\n  name: b\n  value: 1\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'struct:\n' },
      ],
      object: 'struct:\n  name: b\n  value: 1\n',
      apiVersion: 'v1',
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/nested_test.go',
  groups: [updateNestedType],
};
