// Ported from structured-merge-diff v4.6.0 merge/deduced_test.go.
import { DEDUCED_PARSER, _NS, _P, conflict, type ConformanceFile, type Group, vs } from './fixture.js';

const deduced: Group = {
  test: 'TestDeduced',
  parser: DEDUCED_PARSER,
  cases: [
    {
      name: 'leaf_apply_twice',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 2\nstring: "string"\nbool: false\n' },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: false\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('numeric'), _P('string'), _P('bool')), 'v1', false) },
    },
    {
      name: 'leaf_apply_update_apply_no_conflict',
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
      name: 'leaf_apply_update_apply_with_conflict',
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
      name: 'leaf_apply_twice_remove',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "string"\nbool: false\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'string: "new string"\n' },
      ],
      object: 'string: "new string"\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('string')), 'v1', false) },
    },
    {
      name: 'leaf_update_remove_empty_set',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'string: "string"\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'string: "new string"\n' },
      ],
      object: 'string: "new string"\n',
      apiVersion: 'v1',
      managed: { 'controller': vs(_NS(_P('string')), 'v1', false) },
    },
    {
      name: 'apply_twice_list_is_atomic',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- c\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- d\n- c\n- b\n' },
      ],
      object: 'list:\n- a\n- d\n- c\n- b\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list')), 'v1', false) },
    },
    {
      name: 'apply_update_apply_list',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- c\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n- d\n' },
        { op: 'forceApply', manager: 'default', apiVersion: 'v1', object: 'list:\n- a\n- b\n- c\n' },
      ],
      object: 'list:\n- a\n- b\n- c\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list')), 'v1', false) },
    },
    {
      name: 'leaf_apply_remove_empty_set',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'string: "string"\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: '' },
      ],
      object: '',
      apiVersion: 'v1',
      managed: {  },
    },
    {
      name: 'apply_update_apply_nested',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'a: 1\nb:\n  c:\n    d: 2\n    e:\n    - 1\n    - 2\n    - 3\n    f:\n    - name: n\n      value: 1\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'a: 1\nb:\n  c:\n    d: 3\n    e:\n    - 1\n    - 2\n    - 3\n    - 4\n    f:\n    - name: n\n      value: 2\ng: 5\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', conflicts: [conflict('controller', _P('b', 'c', 'd')), conflict('controller', _P('b', 'c', 'e')), conflict('controller', _P('b', 'c', 'f'))], object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n' },
        { op: 'forceApply', manager: 'default', apiVersion: 'v1', object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n' },
      ],
      object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\ng: 5\n',
      apiVersion: 'v1',
    },
    {
      name: 'apply_update_apply_nested_different_version',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'a: 1\nb:\n  c:\n    d: 2\n    e:\n    - 1\n    - 2\n    - 3\n    f:\n    - name: n\n      value: 1\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v2', object: 'a: 1\nb:\n  c:\n    d: 3\n    e:\n    - 1\n    - 2\n    - 3\n    - 4\n    f:\n    - name: n\n      value: 2\ng: 5\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v3', conflicts: [conflict('controller', _P('b', 'c', 'd')), conflict('controller', _P('b', 'c', 'e')), conflict('controller', _P('b', 'c', 'f'))], object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n' },
        { op: 'forceApply', manager: 'default', apiVersion: 'v3', object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n' },
      ],
      object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\ng: 5\n',
      apiVersion: 'v1',
    },
  ],
};

const benchmarkDeducedSimple: Group = {
  test: 'BenchmarkDeducedSimple',
  parser: DEDUCED_PARSER,
  cases: [
    {
      name: 'BenchmarkDeducedSimple',
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
  ],
};

const benchmarkDeducedNested: Group = {
  test: 'BenchmarkDeducedNested',
  parser: DEDUCED_PARSER,
  cases: [
    {
      name: 'BenchmarkDeducedNested',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'a: 1\nb:\n  c:\n    d: 2\n    e:\n    - 1\n    - 2\n    - 3\n    f:\n    - name: n\n      value: 1\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v1', object: 'a: 1\nb:\n  c:\n    d: 3\n    e:\n    - 1\n    - 2\n    - 3\n    - 4\n    f:\n    - name: n\n      value: 2\ng: 5\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', conflicts: [conflict('controller', _P('b', 'c', 'd')), conflict('controller', _P('b', 'c', 'e')), conflict('controller', _P('b', 'c', 'f'))], object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n' },
        { op: 'forceApply', manager: 'default', apiVersion: 'v1', object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n' },
      ],
      object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\ng: 5\n',
      apiVersion: 'v1',
    },
  ],
};

const benchmarkDeducedNestedAcrossVersion: Group = {
  test: 'BenchmarkDeducedNestedAcrossVersion',
  parser: DEDUCED_PARSER,
  cases: [
    {
      name: 'BenchmarkDeducedNestedAcrossVersion',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'a: 1\nb:\n  c:\n    d: 2\n    e:\n    - 1\n    - 2\n    - 3\n    f:\n    - name: n\n      value: 1\n' },
        { op: 'update', manager: 'controller', apiVersion: 'v2', object: 'a: 1\nb:\n  c:\n    d: 3\n    e:\n    - 1\n    - 2\n    - 3\n    - 4\n    f:\n    - name: n\n      value: 2\ng: 5\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v3', conflicts: [conflict('controller', _P('b', 'c', 'd')), conflict('controller', _P('b', 'c', 'e')), conflict('controller', _P('b', 'c', 'f'))], object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n' },
        { op: 'forceApply', manager: 'default', apiVersion: 'v3', object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n' },
      ],
      object: 'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\ng: 5\n',
      apiVersion: 'v1',
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/deduced_test.go',
  groups: [deduced, benchmarkDeducedSimple, benchmarkDeducedNested, benchmarkDeducedNestedAcrossVersion],
};
