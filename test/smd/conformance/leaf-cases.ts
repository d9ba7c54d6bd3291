// Ported from structured-merge-diff v4.6.0 merge/leaf_test.go.
import { _NS, _P, conflict, sameVersionParser, type ConformanceFile, type Group, vs } from './fixture.js';

export const leafFieldsParser = sameVersionParser(`types:
- name: leafFields
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
    - name: string
      type:
        scalar: string
    - name: bool
      type:
        scalar: boolean`, 'leafFields');

const updateLeaf: Group = {
  test: 'TestUpdateLeaf',
  parser: leafFieldsParser,
  cases: [
    {
      name: 'apply_twice',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 2\nstring: "string"\nbool: false\n' },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: false\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('numeric'), _P('string'), _P('bool')), 'v1', false) },
    },
    {
      name: 'apply_twice_different_versions',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v2', object: 'numeric: 2\nstring: "string"\nbool: false\n' },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: false\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('numeric'), _P('string'), _P('bool')), 'v2', false) },
    },
    {
      name: 'apply_update_apply_no_conflict',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\nbool: true\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 2\nstring: "string"\n' },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: true\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('numeric'), _P('string')), 'v1', false), 'controller': vs(_NS(_P('bool')), 'v1', false) },
    },
    {
      name: 'apply_update_apply_no_conflict_different_version',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v2', object: 'numeric: 1\nstring: "string"\nbool: true\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 2\nstring: "string"\n' },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: true\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('numeric'), _P('string')), 'v1', false), 'controller': vs(_NS(_P('bool')), 'v2', false) },
    },
    {
      name: 'apply_update_apply_with_conflict',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'numeric: 1\nstring: "controller string"\nbool: true\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', conflicts: [conflict('controller', _P('string'))], object: 'numeric: 2\nstring: "user string"\n' },
        { op: 'forceApply', manager: 'default', apiVersion: 'v1', object: 'numeric: 2\nstring: "user string"\n' },
      ],
      object: 'numeric: 2\nstring: "user string"\nbool: true\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('numeric'), _P('string')), 'v1', false), 'controller': vs(_NS(_P('bool')), 'v1', false) },
    },
    {
      name: 'apply_update_apply_with_conflict_across_version',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v2', object: 'numeric: 1\nstring: "controller string"\nbool: true\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', conflicts: [conflict('controller', _P('string'))], object: 'numeric: 2\nstring: "user string"\n' },
        { op: 'forceApply', manager: 'default', apiVersion: 'v1', object: 'numeric: 2\nstring: "user string"\n' },
      ],
      object: 'numeric: 2\nstring: "user string"\nbool: true\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('numeric'), _P('string')), 'v1', false), 'controller': vs(_NS(_P('bool')), 'v2', false) },
    },
    {
      name: 'apply_twice_remove',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\nbool: false\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'string: "new string"\n' },
      ],
      object: 'string: "new string"\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('string')), 'v1', false) },
    },
    {
      name: 'update_apply_omits',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 2\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'numeric: 1\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: '' },
      ],
      object: 'numeric: 1\n',
      apiVersion: 'v1',
      managed: { 'controller': vs(_NS(_P('numeric')), 'v1', false) },
    },
    {
      name: 'apply_twice_remove_different_version',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\nbool: false\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v2', object: 'string: "new string"\n' },
      ],
      object: 'string: "new string"\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('string')), 'v2', false) },
    },
    {
      name: 'update_remove_empty_set',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'string: "string"\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'string: "new string"\n' },
      ],
      object: 'string: "new string"\n',
      apiVersion: 'v1',
      managed: { 'controller': vs(_NS(_P('string')), 'v1', false) },
    },
    {
      name: 'apply_remove_empty_set',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'string: "string"\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: '' },
      ],
      object: '',
      apiVersion: 'v1',
      managed: {  },
    },
  ],
};

const benchmarkLeafConflictAcrossVersion: Group = {
  test: 'BenchmarkLeafConflictAcrossVersion',
  parser: leafFieldsParser,
  cases: [
    {
      name: 'BenchmarkLeafConflictAcrossVersion',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v2', object: 'numeric: 1\nstring: "controller string"\nbool: true\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', conflicts: [conflict('controller', _P('string'))], object: 'numeric: 2\nstring: "user string"\n' },
        { op: 'forceApply', manager: 'default', apiVersion: 'v1', object: 'numeric: 2\nstring: "user string"\n' },
      ],
      object: 'numeric: 2\nstring: "user string"\nbool: true\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('numeric'), _P('string')), 'v1', false), 'controller': vs(_NS(_P('bool')), 'v2', false) },
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/leaf_test.go',
  groups: [updateLeaf, benchmarkLeafConflictAcrossVersion],
};
