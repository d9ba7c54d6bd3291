// Ported from structured-merge-diff v4.6.0 merge/extract_apply_test.go.
import { _NS, _P, _V, sameVersionParser, type ConformanceFile, type Group, vs } from './fixture.js';

export const extractParser = sameVersionParser(`types:
- name: sets
  map:
    fields:
    - name: list
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative
    - name: atomicList
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: atomic
    - name: map
      type:
        map:
          elementType:
            scalar: string
          elementRelationship: separable
    - name: atomicMap
      type:
        map:
          elementType:
            scalar: string
          elementRelationship: atomic`, 'sets');

const extractApply: Group = {
  test: 'TestExtractApply',
  parser: extractParser,
  cases: [
    {
      name: 'apply_one_extract_apply_one_own_both',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n' },
        { op: 'extractApply', manager: 'default', apiVersion: 'v1', object: 'list:\n- b\n' },
      ],
      object: 'list:\n- a\n- b\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('b'))), 'v1', false) },
    },
    {
      name: 'extract_apply_from_beginning',
      ops: [
        { op: 'extractApply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n' },
        { op: 'extractApply', manager: 'default', apiVersion: 'v1', object: 'list:\n- b\n' },
      ],
      object: 'list:\n- a\n- b\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('b'))), 'v1', false) },
    },
    {
      name: 'apply_after_extract_remove_fields',
      ops: [
        { op: 'extractApply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- b\n' },
      ],
      object: 'list:\n- b\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('b'))), 'v1', false) },
    },
    {
      name: 'apply_one_controller_remove_extract_apply_one',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'list:\n - b\n' },
        { op: 'extractApply', manager: 'default', apiVersion: 'v1', object: 'list:\n- c\n' },
      ],
      object: 'list:\n- b\n- c\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('c'))), 'v1', false), 'controller': vs(_NS(_P('list', _V('b'))), 'v1', false) },
    },
    {
      name: 'extract_apply_retain_ownership_after_controller_update',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'list:\n - a\n - b\n' },
        { op: 'extractApply', manager: 'default', apiVersion: 'v1', object: 'list:\n- c\n' },
      ],
      object: 'list:\n- a\n- b\n- c\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('c'))), 'v1', false), 'controller': vs(_NS(_P('list', _V('b'))), 'v1', false) },
    },
    {
      name: 'extract_apply_share_ownership_after_another_apply',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n- a\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'list:\n - a\n - b\n' },
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n- c\n' },
      ],
      object: 'list:\n- a\n- b\n- c\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('list', _V('a')), _P('list', _V('c'))), 'v1', false), 'apply-two': vs(_NS(_P('list', _V('a')), _P('list', _V('b'))), 'v1', false) },
    },
    {
      name: 'apply_two_cant_delete_object_also_owned_by_extract_apply',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n- a\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'list:\n - a\n - b\n' },
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n- c\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'list:\n - b\n' },
      ],
      object: 'list:\n- a\n- b\n- c\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('list', _V('a')), _P('list', _V('c'))), 'v1', false), 'apply-two': vs(_NS(_P('list', _V('b'))), 'v1', false) },
    },
    {
      name: 'extract_apply_empty_structure_list',
      ops: [
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'list:\n - a\n - b\n' },
      ],
      object: 'list:\n- a\n- b\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('list')), 'v1', false), 'apply-two': vs(_NS(_P('list', _V('a')), _P('list', _V('b'))), 'v1', false) },
    },
    {
      name: 'extract_apply_empty_structure_remove_list',
      ops: [
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'list:\n - a\n - b\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'list:\n - b\n' },
      ],
      object: 'list:\n- b\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('list')), 'v1', false), 'apply-two': vs(_NS(_P('list', _V('b'))), 'v1', false) },
    },
    {
      name: 'extract_apply_empty_structure_add_later_list',
      ops: [
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'list:\n - a\n - b\n' },
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'list:\n- c\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'list:\n - b\n' },
      ],
      object: 'list:\n- b\n- c\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('list', _V('c'))), 'v1', false), 'apply-two': vs(_NS(_P('list', _V('b'))), 'v1', false) },
    },
    {
      name: 'extract_apply_empty_structure_map',
      ops: [
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'map:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'map:\n a: c\n b: d\n' },
      ],
      object: 'map:\n  a: c\n  b: d\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('map')), 'v1', false), 'apply-two': vs(_NS(_P('map', 'a'), _P('map', 'b')), 'v1', false) },
    },
    {
      name: 'extract_apply_empty_structure_remove_map',
      ops: [
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'map:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'map:\n a: c\n b: d\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'map:\n b: d\n' },
      ],
      object: 'map:\n  b: d\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('map')), 'v1', false), 'apply-two': vs(_NS(_P('map', 'b')), 'v1', false) },
    },
    {
      name: 'extract_apply_empty_structure_add_later_map',
      ops: [
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'map:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'map:\n a: c\n b: d\n' },
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'map:\n  e: f\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', object: 'map:\n b: d\n' },
      ],
      object: 'map:\n  b: d\n  e: f\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('map', 'e')), 'v1', false), 'apply-two': vs(_NS(_P('map', 'b')), 'v1', false) },
    },
    {
      name: 'extract_apply_atomic_list',
      ops: [
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'atomicList:\n- a\n- b\n- c\n' },
      ],
      object: 'atomicList:\n- a\n- b\n- c\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('atomicList')), 'v1', false) },
    },
    {
      name: 'extract_apply_atomic_map',
      ops: [
        { op: 'extractApply', manager: 'apply-one', apiVersion: 'v1', object: 'atomicMap:\n a: c\n b: d\n' },
      ],
      object: 'atomicMap:\n a: c\n b: d\n',
      apiVersion: 'v1',
      managed: { 'apply-one': vs(_NS(_P('atomicMap')), 'v1', false) },
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/extract_apply_test.go',
  groups: [extractApply],
};
