// Ported from structured-merge-diff v4.6.0 merge/ignore_test.go.
import { DEDUCED_PARSER, _NS, _P, repeatingConverter, type ConformanceFile, type Group, vs } from './fixture.js';
import { nestedTypeParser } from './nested-cases.js';

const ignoreFilter: Group = {
  test: 'TestIgnoreFilter',
  parser: DEDUCED_PARSER,
  cases: [
    {
      name: 'update_does_not_own_ignored',
      ops: [
        { op: 'update', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "some string"\n' },
      ],
      apiVersion: 'v1',
      object: 'numeric: 1\nstring: "some string"\n',
      managed: { 'default': vs(_NS(_P('numeric')), 'v1', false) },
      ignoredFields: { 'v1': _NS(_P('string')) },
    },
    {
      name: 'update_does_not_own_deep_ignored',
      ops: [
        { op: 'update', manager: 'default', apiVersion: 'v1', object: '{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}' },
      ],
      apiVersion: 'v1',
      object: '{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}',
      managed: { 'default': vs(_NS(_P('numeric')), 'v1', false) },
      ignoredFields: { 'v1': _NS(_P('obj')) },
    },
    {
      name: 'apply_does_not_own_ignored',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "some string"\n' },
      ],
      apiVersion: 'v1',
      object: 'numeric: 1\nstring: "some string"\n',
      managed: { 'default': vs(_NS(_P('numeric')), 'v1', true) },
      ignoredFields: { 'v1': _NS(_P('string')) },
    },
    {
      name: 'apply_does_not_own_deep_ignored',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: '{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}' },
      ],
      apiVersion: 'v1',
      object: '{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}',
      managed: { 'default': vs(_NS(_P('numeric')), 'v1', true) },
      ignoredFields: { 'v1': _NS(_P('obj')) },
    },
  ],
};

const ignoredFields: Group = {
  test: 'TestIgnoredFields',
  parser: DEDUCED_PARSER,
  cases: [
    {
      name: 'update_does_not_own_ignored',
      ops: [
        { op: 'update', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "some string"\n' },
      ],
      apiVersion: 'v1',
      object: 'numeric: 1\nstring: "some string"\n',
      managed: { 'default': vs(_NS(_P('numeric')), 'v1', false) },
      ignoredFields: { 'v1': _NS(_P('string')) },
    },
    {
      name: 'update_does_not_own_deep_ignored',
      ops: [
        { op: 'update', manager: 'default', apiVersion: 'v1', object: '{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}' },
      ],
      apiVersion: 'v1',
      object: '{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}',
      managed: { 'default': vs(_NS(_P('numeric')), 'v1', false) },
      ignoredFields: { 'v1': _NS(_P('obj')) },
    },
    {
      name: 'apply_does_not_own_ignored',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'numeric: 1\nstring: "some string"\n' },
      ],
      apiVersion: 'v1',
      object: 'numeric: 1\nstring: "some string"\n',
      managed: { 'default': vs(_NS(_P('numeric')), 'v1', true) },
      ignoredFields: { 'v1': _NS(_P('string')) },
    },
    {
      name: 'apply_does_not_own_deep_ignored',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: '{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}' },
      ],
      apiVersion: 'v1',
      object: '{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}',
      managed: { 'default': vs(_NS(_P('numeric')), 'v1', true) },
      ignoredFields: { 'v1': _NS(_P('obj')) },
    },
  ],
};

const filteredFieldsUsesVersions: Group = {
  test: 'TestFilteredFieldsUsesVersions',
  parser: nestedTypeParser,
  converter: repeatingConverter,
  cases: [
    {
      name: 'does_use_ignored_fields_versions',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    d:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'mapOfMapsRecursive:\n  aa:\n  cc:\n    dd:\n' },
        { op: 'apply', manager: 'apply-one', apiVersion: 'v4', object: 'mapOfMapsRecursive:\n' },
      ],
      object: 'mapOfMapsRecursive:\n  aaaa:\n  cccc:\n    dddd:\n',
      apiVersion: 'v4',
      managed: { 'apply-one': vs(_NS(_P('mapOfMapsRecursive')), 'v4', false), 'apply-two': vs(_NS(_P('mapOfMapsRecursive', 'aa')), 'v2', false) },
      ignoredFields: { 'v1': _NS(_P('mapOfMapsRecursive', 'c')), 'v2': _NS(_P('mapOfMapsRecursive', 'cc')), 'v3': _NS(_P('mapOfMapsRecursive', 'ccc')), 'v4': _NS(_P('mapOfMapsRecursive', 'cccc')) },
    },
    {
      name: 'update_does_not_steal_ignored',
      ops: [
        { op: 'update', manager: 'update-one', apiVersion: 'v1', object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    d:\n' },
        { op: 'update', manager: 'update-two', apiVersion: 'v2', object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    e:\n' },
      ],
      apiVersion: 'v1',
      object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    e:\n',
      managed: { 'update-one': vs(_NS(_P('mapOfMapsRecursive'), _P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'b'), _P('mapOfMapsRecursive', 'c')), 'v1', false), 'update-two': vs(_NS(_P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'b')), 'v2', false) },
      ignoredFields: { 'v2': _NS(_P('mapOfMapsRecursive', 'c')) },
    },
    {
      name: 'apply_does_not_steal_ignored',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    d:\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v2', object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    e:\n' },
      ],
      apiVersion: 'v1',
      object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    d:\n',
      managed: { 'apply-one': vs(_NS(_P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'b'), _P('mapOfMapsRecursive', 'c'), _P('mapOfMapsRecursive', 'c', 'd')), 'v1', false), 'apply-two': vs(_NS(_P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'b')), 'v2', false) },
      ignoredFields: { 'v2': _NS(_P('mapOfMapsRecursive', 'c')) },
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/ignore_test.go',
  groups: [ignoreFilter, ignoredFields, filteredFieldsUsesVersions],
};
