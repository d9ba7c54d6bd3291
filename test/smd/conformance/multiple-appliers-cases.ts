// Ported from structured-merge-diff v4.6.0 merge/multiple_appliers_test.go.
import { DEDUCED_PARSER, _KBF, _NS, _P, _V, conflict, reliantFieldsConverter, renamingConverter, repeatingConverter, type ConformanceFile, type Group, versionTypesParser, vs } from './fixture.js';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { MergeSchema } from '../../../src/smd/schema.js';
import { Updater, type Typed, type VersionConverter } from '../../../src/smd/updater.js';
import type { ManagedFields } from '../../../src/smd/managers.js';
import { associativeListParser } from './key-cases.js';
import { nestedTypeParser } from './nested-cases.js';

export const structMultiversionParser = versionTypesParser(`types:
- name: v1
  map:
    fields:
      - name: struct
        type:
          namedType: struct
      - name: version
        type:
          scalar: string
- name: struct
  map:
    fields:
      - name: name
        type:
          scalar: string
      - name: scalarField_v1
        type:
          scalar: string
      - name: complexField_v1
        type:
          namedType: complex
- name: complex
  map:
    fields:
      - name: name
        type:
          scalar: string
- name: v2
  map:
    fields:
      - name: struct
        type:
          namedType: struct_v2
      - name: version
        type:
          scalar: string
- name: struct_v2
  map:
    fields:
      - name: name
        type:
          scalar: string
      - name: scalarField_v2
        type:
          scalar: string
      - name: complexField_v2
        type:
          namedType: complex_v2
- name: complex_v2
  map:
    fields:
      - name: name
        type:
          scalar: string
- name: v3
  map:
    fields:
      - name: struct
        type:
          namedType: struct_v3
      - name: version
        type:
          scalar: string
- name: struct_v3
  map:
    fields:
      - name: name
        type:
          scalar: string
      - name: scalarField_v3
        type:
          scalar: string
      - name: complexField_v3
        type:
          namedType: complex_v3
- name: complex_v3
  map:
    fields:
      - name: name
        type:
          scalar: string
`);

export const atomicMapParser = versionTypesParser(`types:
- name: v1
  map:
    fields:
      - name: atomicMap
        type:
          namedType: atomicMap
- name: atomicMap
  map:
    fields:
      - name: field1
        type:
          scalar: string
      - name: field2
        type:
          scalar: string
    elementRelationship: atomic
`);

export const multiversionWithReliantFieldsParser = versionTypesParser(`types:
- name: v1
  map:
    fields:
      - name: field_foo_rely_on_bar
        type:
          scalar: string
      - name: common_field
        type:
          scalar: string
- name: v2
  map:
    fields:
      - name: required_field_bar
        type:
          scalar: string
      - name: common_field
        type:
          scalar: string
`);

/** Its types are TypeV1 and TypeV2, for versions v1 and v2. */
const versionDoesntMatchTypeNameSchema = MergeSchema.fromObject(parse(`types:
- name: TypeV1
  map:
    fields:
      - name: field_foo_rely_on_bar
        type:
          scalar: string
      - name: common_field
        type:
          scalar: string
- name: TypeV2
  map:
    fields:
      - name: required_field_bar
        type:
          scalar: string
      - name: common_field
        type:
          scalar: string
`));

const multipleAppliersSet: Group = {
  test: 'TestMultipleAppliersSet',
  parser: associativeListParser,
  cases: [
    {
      name: 'remove_one',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n- name: a\n- name: b\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'list:\n- name: c\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v3', object: 'list:\n- name: a\n' },
      ],
      object: 'list:\n- name: a\n- name: c\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name')), 'v3', false), 'apply-two': vs(_NS(_P('list', _KBF('name', 'c')), _P('list', _KBF('name', 'c'), 'name')), 'v2', false) },
    },
    {
      name: 'same_value_no_conflict',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n- name: a\n  value: 0\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'list:\n- name: a\n  value: 0\n' },
      ],
      object: 'list:\n- name: a\n  value: 0\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name'), _P('list', _KBF('name', 'a'), 'value')), 'v1', false), 'apply-two': vs(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name'), _P('list', _KBF('name', 'a'), 'value')), 'v2', false) },
    },
    {
      name: 'change_value_yes_conflict',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n- name: a\n  value: 0\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', conflicts: [conflict('apply-one', _P('list', _KBF('name', 'a'), 'value'))], object: 'list:\n- name: a\n  value: 1\n' },
      ],
      object: 'list:\n- name: a\n  value: 0\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name'), _P('list', _KBF('name', 'a'), 'value')), 'v1', false) },
    },
    {
      name: 'remove_one_keep_one',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n- name: a\n- name: b\n- name: c\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'list:\n- name: c\n- name: d\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v3', object: 'list:\n- name: a\n' },
      ],
      object: 'list:\n- name: a\n- name: c\n- name: d\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name')), 'v3', false), 'apply-two': vs(_NS(_P('list', _KBF('name', 'c')), _P('list', _KBF('name', 'd')), _P('list', _KBF('name', 'c'), 'name'), _P('list', _KBF('name', 'd'), 'name')), 'v2', false) },
    },
  ],
};

/** testMultipleAppliersFieldUnsetting(v1, v2, v3), run for every three versions of v1, v2, v3. */
const multipleAppliersFieldUnsetting = (v1: string, v2: string, v3: string): Group => ({
  test: `TestMultipleAppliersFieldUnsetting/${v1}-${v2}-${v3}`,
  parser: structMultiversionParser,
  converter: renamingConverter,
  cases: [
    {
      name: 'unset_scalar_sole_owner',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: v1, object: `struct:
  name: a
  scalarField_${v1}: a
` },
        { op: 'apply', manager: 'apply-one', apiVersion: v2, object: 'struct:\n  name: a\n' },
      ],
      object: 'struct:\n  name: a\n',
      apiVersion: v3,
      managed: { 'apply-one': vs(_NS(_P('struct', 'name')), v2, false) },
    },
    {
      name: 'unset_scalar_shared_with_applier',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: v1, object: `struct:
  name: a
  scalarField_${v1}: a
` },
        { op: 'apply', manager: 'apply-two', apiVersion: v2, object: `struct:
  scalarField_${v2}: a
` },
        { op: 'apply', manager: 'apply-one', apiVersion: v3, object: 'struct:\n  name: a\n' },
      ],
      object: `struct:
  name: a
  scalarField_${v3}: a
`,
      apiVersion: v3,
      managed: { 'apply-one': vs(_NS(_P('struct', 'name')), v3, true), 'apply-two': vs(_NS(_P('struct', `scalarField_${v2}`)), v2, false) },
    },
    {
      name: 'unset_scalar_shared_with_updater',
      ops: [
        { op: 'update', manager: 'updater', apiVersion: v1, object: `struct:
  name: a
  scalarField_${v1}: a
` },
        { op: 'apply', manager: 'applier', apiVersion: v2, object: `struct:
  name: a
  scalarField_${v2}: a
` },
        { op: 'apply', manager: 'applier', apiVersion: v3, object: 'struct:\n  name: a\n' },
      ],
      object: `struct:
  name: a
  scalarField_${v3}: a
`,
      apiVersion: v3,
      managed: { 'updater': vs(_NS(_P('struct'), _P('struct', 'name'), _P('struct', `scalarField_${v1}`)), v1, false), 'applier': vs(_NS(_P('struct', 'name')), v3, true) },
    },
    {
      name: 'updater_claims_field',
      ops: [
        { op: 'apply', manager: 'applier', apiVersion: v1, object: `struct:
  name: a
  scalarField_${v1}: a
` },
        { op: 'update', manager: 'updater', apiVersion: v2, object: `struct:
  name: a
  scalarField_${v2}: b
` },
      ],
      object: `struct:
  name: a
  scalarField_${v3}: b
`,
      apiVersion: v3,
      managed: { 'updater': vs(_NS(_P('struct', `scalarField_${v2}`)), v2, false), 'applier': vs(_NS(_P('struct', 'name')), v1, true) },
    },
    {
      name: 'unset_complex_sole_owner',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: v1, object: `struct:
  name: a
  complexField_${v1}:
    name: b
` },
        { op: 'apply', manager: 'apply-one', apiVersion: v2, object: 'struct:\n  name: a\n' },
      ],
      object: 'struct:\n  name: a\n',
      apiVersion: v3,
      managed: { 'apply-one': vs(_NS(_P('struct', 'name')), v2, false) },
    },
    {
      name: 'unset_complex_shared_with_applier',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: v1, object: `struct:
  name: a
  complexField_${v1}:
    name: b
` },
        { op: 'apply', manager: 'apply-two', apiVersion: v2, object: `struct:
  complexField_${v2}:
    name: b
` },
        { op: 'apply', manager: 'apply-one', apiVersion: v3, object: 'struct:\n  name: a\n' },
      ],
      object: `struct:
  name: a
  complexField_${v3}:
    name: b
`,
      apiVersion: v3,
      managed: { 'apply-one': vs(_NS(_P('struct', 'name')), v3, false), 'apply-two': vs(_NS(_P('struct', `complexField_${v2}`, 'name')), v2, false) },
    },
  ],
});

const multipleAppliersNestedType: Group = {
  test: 'TestMultipleAppliersNestedType',
  parser: nestedTypeParser,
  cases: [
    {
      name: 'remove_one_keep_one_with_two_sub_items',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'listOfLists:\n- name: b\n  value:\n  - d\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v3', object: 'listOfLists:\n- name: a\n' },
      ],
      object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - d\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name')), 'v3', false), 'apply-two': vs(_NS(_P('listOfLists', _KBF('name', 'b')), _P('listOfLists', _KBF('name', 'b'), 'name'), _P('listOfLists', _KBF('name', 'b'), 'value', _V('d'))), 'v2', false) },
    },
    {
      name: 'remove_one_keep_one_with_dangling_subitem',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'listOfLists:\n- name: b\n  value:\n  - d\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v2', object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n  - d\n  - e\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v3', object: 'listOfLists:\n- name: a\n' },
      ],
      object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - d\n  - e\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name')), 'v3', false), 'apply-two': vs(_NS(_P('listOfLists', _KBF('name', 'b')), _P('listOfLists', _KBF('name', 'b'), 'name'), _P('listOfLists', _KBF('name', 'b'), 'value', _V('d'))), 'v2', false), 'controller': vs(_NS(_P('listOfLists', _KBF('name', 'b'), 'value', _V('e'))), 'v2', false) },
    },
    {
      name: 'remove_one_with_dangling_subitem_keep_one',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'listOfLists:\n- name: a\n  value:\n  - b\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v2', object: 'listOfLists:\n- name: a\n  value:\n  - b\n- name: b\n  value:\n  - c\n  - d\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v3', object: 'listOfLists:\n- name: a\n' },
      ],
      object: 'listOfLists:\n- name: a\n  value:\n  - b\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name')), 'v3', false), 'apply-two': vs(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name'), _P('listOfLists', _KBF('name', 'a'), 'value', _V('b'))), 'v2', false) },
    },
    {
      name: 'remove_one_with_managed_subitem_keep_one',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'listOfLists:\n- name: a\n  value:\n  - b\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v2', object: 'listOfLists:\n- name: a\n  value:\n  - b\n- name: b\n  value:\n  - c\n  - d\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v3', object: 'listOfLists:\n- name: a\n' },
      ],
      object: 'listOfLists:\n- name: a\n  value:\n  - b\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name')), 'v3', false), 'apply-two': vs(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name'), _P('listOfLists', _KBF('name', 'a'), 'value', _V('b'))), 'v2', false) },
    },
    {
      name: 'remove_one_keep_one_with_sub_item',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'listOfLists:\n- name: b\n  value:\n  - d\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v3', object: 'listOfLists:\n- name: a\n' },
      ],
      object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - d\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name')), 'v3', false), 'apply-two': vs(_NS(_P('listOfLists', _KBF('name', 'b')), _P('listOfLists', _KBF('name', 'b'), 'name'), _P('listOfLists', _KBF('name', 'b'), 'value', _V('d'))), 'v2', false) },
    },
    {
      name: 'multiple_appliers_recursive_map',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    d:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'mapOfMapsRecursive:\n  a:\n  c:\n    d:\n' },
        { op: 'update', manager: 'controller-one', apiVersion: 'v3', object: 'mapOfMapsRecursive:\n  a:\n    b:\n      c:\n  c:\n    d:\n      e:\n' },
        { op: 'update', manager: 'controller-two', apiVersion: 'v2', object: 'mapOfMapsRecursive:\n  a:\n    b:\n      c:\n        d:\n  c:\n    d:\n      e:\n        f:\n' },
        { op: 'update', manager: 'controller-one', apiVersion: 'v3', object: 'mapOfMapsRecursive:\n  a:\n    b:\n      c:\n        d:\n          e:\n  c:\n    d:\n      e:\n        f:\n          g:\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v4', object: 'mapOfMapsRecursive:\n' },
      ],
      object: 'mapOfMapsRecursive:\n  a:\n  c:\n    d:\n      e:\n        f:\n          g:\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('mapOfMapsRecursive')), 'v4', false), 'apply-two': vs(_NS(_P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'c'), _P('mapOfMapsRecursive', 'c', 'd')), 'v2', false), 'controller-one': vs(_NS(_P('mapOfMapsRecursive', 'c', 'd', 'e'), _P('mapOfMapsRecursive', 'c', 'd', 'e', 'f', 'g')), 'v3', false), 'controller-two': vs(_NS(_P('mapOfMapsRecursive', 'c', 'd', 'e', 'f')), 'v2', false) },
    },
  ],
};

const multipleAppliersDeducedType: Group = {
  test: 'TestMultipleAppliersDeducedType',
  parser: DEDUCED_PARSER,
  cases: [
    {
      name: 'multiple_appliers_recursive_map_deduced',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'a:\n  b:\nc:\n  d:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'a:\nc:\n  d:\n' },
        { op: 'update', manager: 'controller-one', apiVersion: 'v3', object: 'a:\n  b:\n    c:\nc:\n  d:\n    e:\n' },
        { op: 'update', manager: 'controller-two', apiVersion: 'v2', object: 'a:\n  b:\n    c:\n      d:\nc:\n  d:\n    e:\n      f:\n' },
        { op: 'update', manager: 'controller-one', apiVersion: 'v3', object: 'a:\n  b:\n    c:\n      d:\n        e:\nc:\n  d:\n    e:\n      f:\n        g:\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v4', object: '' },
      ],
      object: 'a:\nc:\n  d:\n    e:\n      f:\n        g:\n',
      apiVersion: 'v1',
      managed: { 'apply-two': vs(_NS(_P('a'), _P('c'), _P('c', 'd')), 'v2', false), 'controller-one': vs(_NS(_P('c', 'd', 'e'), _P('c', 'd', 'e', 'f', 'g')), 'v3', false), 'controller-two': vs(_NS(_P('c', 'd', 'e', 'f')), 'v2', false) },
    },
  ],
};

const multipleAppliersRealConversion: Group = {
  test: 'TestMultipleAppliersRealConversion',
  parser: nestedTypeParser,
  converter: repeatingConverter,
  cases: [
    {
      name: 'multiple_appliers_recursive_map_real_conversion',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    d:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'mapOfMapsRecursive:\n  aa:\n  cc:\n    dd:\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v3', object: 'mapOfMapsRecursive:\n  aaa:\n    bbb:\n      ccc:\n        ddd:\n  ccc:\n    ddd:\n      eee:\n        fff:\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v4', object: 'mapOfMapsRecursive:\n' },
      ],
      object: 'mapOfMapsRecursive:\n  aaaa:\n  cccc:\n    dddd:\n      eeee:\n        ffff:\n',
      apiVersion: 'v4',
      managed: { 'apply-one': vs(_NS(_P('mapOfMapsRecursive')), 'v4', false), 'apply-two': vs(_NS(_P('mapOfMapsRecursive', 'aa'), _P('mapOfMapsRecursive', 'cc'), _P('mapOfMapsRecursive', 'cc', 'dd')), 'v2', false), 'controller': vs(_NS(_P('mapOfMapsRecursive', 'ccc', 'ddd', 'eee'), _P('mapOfMapsRecursive', 'ccc', 'ddd', 'eee', 'fff')), 'v3', false) },
    },
    {
      name: 'appliers_remove_from_controller_real_conversion',
      ops: [
        { op: 'apply', manager: 'apply', apiVersion: 'v3', object: 'mapOfMapsRecursive:\n  aaa:\n    bbb:\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'mapOfMapsRecursive:\n  a:\n    b:\n      c:\n' },
        { op: 'apply', manager: 'apply', apiVersion: 'v2', object: 'mapOfMapsRecursive:\n  aa:\n    bb:\n  cc:\n    dd:\n' },
        { op: 'apply', manager: 'apply', apiVersion: 'v3', object: 'mapOfMapsRecursive:\n  aaa:\n  ccc:\n' },
      ],
      object: 'mapOfMapsRecursive:\n  aaa:\n  ccc:\n',
      apiVersion: 'v3',
      managed: { 'apply': vs(_NS(_P('mapOfMapsRecursive', 'aaa'), _P('mapOfMapsRecursive', 'ccc')), 'v3', false) },
    },
    {
      name: 'applier_updater_shared_ownership_real_conversion',
      ops: [
        { op: 'update', manager: 'updater', apiVersion: 'v1', object: 'mapOfMapsRecursive:\n  a:\n    b:\n      c:\n' },
        { op: 'apply', manager: 'apply', apiVersion: 'v2', object: 'mapOfMapsRecursive:\n  aa:\n    bb:\n  cc:\n    dd:\n' },
        { op: 'apply', manager: 'apply', apiVersion: 'v3', object: 'mapOfMapsRecursive:\n  aaa:\n  ccc:\n' },
      ],
      object: 'mapOfMapsRecursive:\n  aaa:\n    bbb:\n      ccc:\n  ccc:\n',
      apiVersion: 'v3',
      managed: { 'updater': vs(_NS(_P('mapOfMapsRecursive'), _P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'b'), _P('mapOfMapsRecursive', 'a', 'b', 'c')), 'v1', false), 'apply': vs(_NS(_P('mapOfMapsRecursive', 'aaa'), _P('mapOfMapsRecursive', 'ccc')), 'v3', false) },
    },
  ],
};

/** testMultipleAppliersFieldRenameConversions(v1, v2, v3), run for every three versions of v1, v2, v3. */
const multipleAppliersFieldRenameConversions = (v1: string, v2: string, v3: string): Group => ({
  test: `TestMultipleAppliersFieldRenameConversions/${v1}-${v2}-${v3}`,
  parser: structMultiversionParser,
  converter: renamingConverter,
  cases: [
    {
      name: 'updater_claims_field',
      ops: [
        { op: 'apply', manager: 'applier', apiVersion: v1, object: `struct:
  name: a
  scalarField_${v1}: a
` },
        { op: 'update', manager: 'updater', apiVersion: v2, object: `struct:
  name: a
  scalarField_${v2}: b
` },
      ],
      object: `struct:
  name: a
  scalarField_${v3}: b
`,
      apiVersion: v3,
      managed: { 'updater': vs(_NS(_P('struct', `scalarField_${v2}`)), v2, false), 'applier': vs(_NS(_P('struct', 'name')), v1, true) },
    },
  ],
});

const multipleApplierAtomicMaps: Group = {
  test: 'TestMultipleApplierAtomicMaps',
  parser: atomicMapParser,
  cases: [
    {
      name: 'force',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'atomicMap:\n  field1: a\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', conflicts: [conflict('apply-one', _P('atomicMap'))], object: 'atomicMap:\n  field2: b\n' },
        { op: 'forceApply', manager: 'apply-two', apiVersion: 'v1', object: 'atomicMap:\n  field2: b\n' },
      ],
      object: 'atomicMap:\n  field2: b\n',
      apiVersion: 'v1',
      managed: { 'apply-two': vs(_NS(_P('atomicMap')), 'v1', false) },
    },
  ],
};

const benchmarkMultipleApplierRecursiveRealConversion: Group = {
  test: 'BenchmarkMultipleApplierRecursiveRealConversion',
  parser: nestedTypeParser,
  converter: repeatingConverter,
  cases: [
    {
      name: 'BenchmarkMultipleApplierRecursiveRealConversion',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    d:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'mapOfMapsRecursive:\n  aa:\n  cc:\n    dd:\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v3', object: 'mapOfMapsRecursive:\n  aaa:\n    bbb:\n      ccc:\n        ddd:\n  ccc:\n    ddd:\n      eee:\n        fff:\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v4', object: 'mapOfMapsRecursive:\n' },
      ],
      object: 'mapOfMapsRecursive:\n  aaaa:\n  cccc:\n    dddd:\n      eeee:\n        ffff:\n',
      apiVersion: 'v4',
      managed: { 'apply-one': vs(_NS(_P('mapOfMapsRecursive')), 'v4', false), 'apply-two': vs(_NS(_P('mapOfMapsRecursive', 'aa'), _P('mapOfMapsRecursive', 'cc'), _P('mapOfMapsRecursive', 'cc', 'dd')), 'v2', false), 'controller': vs(_NS(_P('mapOfMapsRecursive', 'ccc', 'ddd', 'eee'), _P('mapOfMapsRecursive', 'ccc', 'ddd', 'eee', 'fff')), 'v3', false) },
    },
  ],
};

const multipleAppliersReliantFieldsConversions: Group = {
  test: 'TestMultipleAppliersReliantFieldsConversions',
  parser: multiversionWithReliantFieldsParser,
  converter: reliantFieldsConverter,
  cases: [
    {
      name: 'multiple_versions_with_reliant_fields',
      ops: [
        { op: 'apply', manager: 'v2_applier', apiVersion: 'v2', object: 'required_field_bar: a\n' },
        { op: 'apply', manager: 'v1_applier', apiVersion: 'v1', object: 'common_field: b\n' },
        { op: 'apply', manager: 'v2_applier', apiVersion: 'v2', object: 'required_field_bar: b\n' },
      ],
      object: 'required_field_bar: b\ncommon_field: b\n',
      apiVersion: 'v2',
      managed: { 'v2_applier': vs(_NS(_P('required_field_bar')), 'v2', true), 'v1_applier': vs(_NS(_P('common_field')), 'v1', true) },
    },
  ],
};

/**
 * TestVersionDoesntMatchTypename: TestMultipleAppliersReliantFieldsConversions again, with the Updater used
 * directly and type names that are not the versions (here: the converter's schemaFor maps v1 and v2 to
 * TypeV1 and TypeV2), so that nothing relies on a version naming its type.
 */
function versionDoesntMatchTypename(): void {
  const converter: VersionConverter = {
    schemaFor: (version) => (version === 'v1' || version === 'v2' ? { schema: versionDoesntMatchTypeNameSchema, root: { namedType: version === 'v1' ? 'TypeV1' : 'TypeV2' } } : undefined),
    convert: (obj, version) => {
      const value = reliantFieldsConverter(obj.value, obj.version, version);
      return value === undefined ? undefined : { value, version };
    },
  };
  const updater = new Updater({ converter });
  const apply = (live: Typed, config: Typed, managers: ManagedFields, manager: string): { live: Typed; managers: ManagedFields } => {
    const r = updater.apply(live, config, managers, manager, false);
    return { live: r.object === undefined ? live : { value: r.object, version: config.version }, managers: r.managers };
  };
  // Apply in one version, apply in another, apply in a third.
  let s = apply({ value: {}, version: 'v2' }, { value: { required_field_bar: 'a' }, version: 'v2' }, new Map(), 'v2_applier');
  s = apply(converter.convert(s.live, 'v1')!, { value: { common_field: 'b' }, version: 'v1' }, s.managers, 'v1_applier');
  s = apply(converter.convert(s.live, 'v2')!, { value: { required_field_bar: 'b' }, version: 'v2' }, s.managers, 'v2_applier');
  assert.deepEqual(s.live, { value: { required_field_bar: 'b', common_field: 'b' }, version: 'v2' });
  // ManagedFields.Equals: sets, versions and whether they were applied.
  assert.deepEqual(
    [...s.managers].map(([m, v]) => [m, v.set.toString(), v.apiVersion, v.applied]).sort(),
    [
      ['v1_applier', '.common_field', 'v1', true],
      ['v2_applier', '.required_field_bar', 'v2', true],
    ],
  );
}

const VERSIONS = ['v1', 'v2', 'v3'];
export const FILE: ConformanceFile = {
  file: 'merge/multiple_appliers_test.go',
  groups: [multipleAppliersSet, ...VERSIONS.flatMap((v1) => VERSIONS.flatMap((v2) => VERSIONS.map((v3) => multipleAppliersFieldUnsetting(v1, v2, v3)))), multipleAppliersNestedType, multipleAppliersDeducedType, multipleAppliersRealConversion, ...VERSIONS.flatMap((v1) => VERSIONS.flatMap((v2) => VERSIONS.map((v3) => multipleAppliersFieldRenameConversions(v1, v2, v3)))), multipleApplierAtomicMaps, benchmarkMultipleApplierRecursiveRealConversion, multipleAppliersReliantFieldsConversions],
  custom: [{ name: 'TestVersionDoesntMatchTypename', run: versionDoesntMatchTypename }],
};
