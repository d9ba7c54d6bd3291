// Ported from structured-merge-diff v4.6.0 merge/schema_change_test.go.
import { _NS, _P, conflict, type ConformanceFile, type Group, versionTypesParser, vs } from './fixture.js';

export const structParser = versionTypesParser(`types:
- name: v1
  map:
    fields:
      - name: struct
        type:
          namedType: struct
- name: struct
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
    - name: string
      type:
        scalar: string`);

export const structWithAtomicParser = versionTypesParser(`types:
- name: v1
  map:
    fields:
      - name: struct
        type:
          namedType: struct
- name: struct
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
    - name: string
      type:
        scalar: string
    elementRelationship: atomic`);

const granularToAtomicSchemaChanges: Group = {
  test: 'TestGranularToAtomicSchemaChanges',
  parser: structParser,
  cases: [
    {
      name: 'to-atomic',
      ops: [
        { op: 'apply', manager: 'one', apiVersion: 'v1', object: 'struct:\n  numeric: 1\n' },
        { op: 'changeParser', parser: structWithAtomicParser },
        { op: 'apply', manager: 'two', apiVersion: 'v1', conflicts: [conflict('one', _P('struct'))], object: 'struct:\n  string: "string"\n' },
        { op: 'forceApply', manager: 'two', apiVersion: 'v1', object: 'struct:\n  string: "string"\n' },
      ],
      object: 'struct:\n  string: "string"\n',
      apiVersion: 'v1',
      managed: { 'two': vs(_NS(_P('struct')), 'v1', true) },
    },
    {
      name: 'to-atomic-owner-with-no-child-fields',
      ops: [
        { op: 'apply', manager: 'one', apiVersion: 'v1', object: 'struct:\n  numeric: 1\n' },
        { op: 'forceApply', manager: 'two', apiVersion: 'v1', object: 'struct:\n  numeric: 2\n' },
        { op: 'changeParser', parser: structWithAtomicParser },
        { op: 'apply', manager: 'three', apiVersion: 'v1', conflicts: [conflict('two', _P('struct'))], object: 'struct:\n  string: "string"\n' },
        { op: 'forceApply', manager: 'two', apiVersion: 'v1', object: 'struct:\n  string: "string"\n' },
      ],
      object: 'struct:\n  string: "string"\n',
      apiVersion: 'v1',
      managed: { 'two': vs(_NS(_P('struct')), 'v1', true) },
    },
  ],
};

const atomicToGranularSchemaChanges: Group = {
  test: 'TestAtomicToGranularSchemaChanges',
  parser: structWithAtomicParser,
  cases: [
    {
      name: 'to-granular',
      ops: [
        { op: 'apply', manager: 'one', apiVersion: 'v1', object: 'struct:\n  numeric: 1\n  string: "a"\n' },
        { op: 'apply', manager: 'two', apiVersion: 'v1', conflicts: [conflict('one', _P('struct'))], object: 'struct:\n  string: "b"\n' },
        { op: 'changeParser', parser: structParser },
        { op: 'apply', manager: 'two', apiVersion: 'v1', object: 'struct:\n  string: "b"\n' },
      ],
      object: 'struct:\n  numeric: 1\n  string: "b"\n',
      apiVersion: 'v1',
      managed: { 'one': vs(_NS(_P('struct')), 'v1', true), 'two': vs(_NS(_P('struct', 'string')), 'v1', true) },
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/schema_change_test.go',
  groups: [granularToAtomicSchemaChanges, atomicToGranularSchemaChanges],
};
