// Ported from structured-merge-diff v4.6.0 merge/set_test.go.
import { _NS, _P, _V, sameVersionParser, type ConformanceFile, type Group, vs } from './fixture.js';

export const setFieldsParser = sameVersionParser(`types:
- name: sets
  map:
    fields:
    - name: list
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative`, 'sets');

const updateSet: Group = {
  test: 'TestUpdateSet',
  parser: setFieldsParser,
  cases: [
    {
      name: 'apply_twice',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- c\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n- d\n' },
      ],
      object: 'list:\n- a\n- b\n- c\n- d\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c')), _P('list', _V('d'))), 'v1', false) },
    },
    {
      name: 'apply_update_apply_no_overlap',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- c\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n- d\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- aprime\n- c\n- cprime\n' },
      ],
      object: 'list:\n- a\n- b\n- aprime\n- c\n- d\n- cprime\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('aprime')), _P('list', _V('c')), _P('list', _V('cprime'))), 'v1', false), 'controller': vs(_NS(_P('list', _V('b')), _P('list', _V('d'))), 'v1', false) },
    },
    {
      name: 'apply_update_apply_no_overlap_and_different_version',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- c\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v2', object: 'list:\n- a\n- b\n- c\n- d\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- aprime\n- c\n- cprime\n' },
      ],
      object: 'list:\n- a\n- b\n- aprime\n- c\n- d\n- cprime\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('aprime')), _P('list', _V('c')), _P('list', _V('cprime'))), 'v1', false), 'controller': vs(_NS(_P('list', _V('b')), _P('list', _V('d'))), 'v2', false) },
    },
    {
      name: 'apply_update_apply_with_overlap',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- c\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n- d\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n' },
      ],
      object: 'list:\n- a\n- b\n- c\n- d\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c'))), 'v1', false), 'controller': vs(_NS(_P('list', _V('b')), _P('list', _V('d'))), 'v1', false) },
    },
    {
      name: 'apply_update_apply_with_overlap_and_different_version',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- c\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v2', object: 'list:\n- a\n- b\n- c\n- d\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n' },
      ],
      object: 'list:\n- a\n- b\n- c\n- d\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c'))), 'v1', false), 'controller': vs(_NS(_P('list', _V('b')), _P('list', _V('d'))), 'v2', false) },
    },
    {
      name: 'apply_twice_reorder',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n- d\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- d\n- c\n- b\n' },
      ],
      object: 'list:\n- a\n- d\n- c\n- b\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c')), _P('list', _V('d'))), 'v1', false) },
    },
    {
      name: 'apply_update_apply_reorder',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n- d\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'list:\n- a\n- d\n- c\n- b\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n- d\n' },
      ],
      object: 'list:\n- a\n- b\n- c\n- d\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c')), _P('list', _V('d'))), 'v1', false) },
    },
    {
      name: 'apply_update_apply_reorder_across_versions',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n- d\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'list:\n- a\n- d\n- c\n- b\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v2', object: 'list:\n- a\n- b\n- c\n- d\n' },
      ],
      object: 'list:\n- a\n- b\n- c\n- d\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c')), _P('list', _V('d'))), 'v2', false) },
    },
    {
      name: 'apply_twice_remove',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n- d\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- c\n' },
      ],
      object: 'list:\n- a\n- c\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('c'))), 'v1', false) },
    },
    {
      name: 'apply_twice_remove_across_versions',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n- d\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v2', object: 'list:\n- a\n- c\n- e\n' },
      ],
      object: 'list:\n- a\n- c\n- e\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _V('a')), _P('list', _V('c')), _P('list', _V('e'))), 'v2', false) },
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/set_test.go',
  groups: [updateSet],
};
