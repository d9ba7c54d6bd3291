// Ported from structured-merge-diff v4.6.0 merge/field_level_overrides_test.go.
import { _NS, _P, _V, conflict, sameVersionParser, type ConformanceFile, type Group, vs } from './fixture.js';

export const overrideStructTypeParser = sameVersionParser(`
        types:
        - name: type
          map:
            fields:
              - name: associativeListReference
                type:
                  namedType: associativeList
                  elementRelationship: atomic
              - name: separableInlineList
                type:
                  list:
                    elementType:
                      scalar: numeric
                    elementRelationship: atomic
                  elementRelationship: associative
              - name: separableMapReference
                type:
                  namedType: atomicMap
                  elementRelationship: separable
              - name: atomicMapReference
                type:
                  namedType: unspecifiedMap
                  elementRelationship: atomic

        - name: associativeList
          list:
            elementType:
              namedType: unspecifiedMap
              elementRelationship: atomic
            elementRelationship: associative
            keys:
            - name
        - name: unspecifiedMap
          map:
            fields:
            - name: name
              type:
                scalar: string
            - name: value
              type:
                scalar: numeric
        - name: atomicMap
          map:
            elementRelationship: atomic
            fields:
            - name: name
              type:
                scalar: string
            - name: value
              type:
                scalar: numeric
    `, 'type');

const fieldLevelOverrides: Group = {
  test: 'TestFieldLevelOverrides',
  parser: overrideStructTypeParser,
  cases: [
    {
      name: 'test_override_atomic_map_with_separable',
      ops: [
        { op: 'apply', manager: 'apply_one', apiVersion: 'v1', object: '                        separableMapReference:\n                          name: a\n                    ' },
        { op: 'apply', manager: 'apply_two', apiVersion: 'v1', object: '                        separableMapReference:\n                          value: 2\n                    ' },
      ],
      object: '                separableMapReference:\n                  name: a\n                  value: 2\n            ',
      apiVersion: 'v1',
      managed: { 'apply_one': vs(_NS(_P('separableMapReference', 'name')), 'v1', false), 'apply_two': vs(_NS(_P('separableMapReference', 'value')), 'v1', false) },
    },
    {
      name: 'test_override_unspecified_map_with_atomic',
      ops: [
        { op: 'apply', manager: 'apply_one', apiVersion: 'v1', object: '                        atomicMapReference:\n                          name: a\n                    ' },
        { op: 'apply', manager: 'apply_two', apiVersion: 'v1', conflicts: [conflict('apply_one', _P('atomicMapReference'))], object: '                        atomicMapReference:\n                          value: 2\n                    ' },
        { op: 'apply', manager: 'apply_one', apiVersion: 'v1', object: '                        atomicMapReference:\n                          name: b\n                          value: 2\n                    ' },
      ],
      object: '                atomicMapReference:\n                  name: b\n                  value: 2\n            ',
      apiVersion: 'v1',
      managed: { 'apply_one': vs(_NS(_P('atomicMapReference')), 'v1', false) },
    },
    {
      name: 'test_override_associative_list_with_atomic',
      ops: [
        { op: 'apply', manager: 'apply_one', apiVersion: 'v1', object: '                        associativeListReference:\n                          - name: a\n                            value: 1\n                    ' },
        { op: 'apply', manager: 'apply_two', apiVersion: 'v1', conflicts: [conflict('apply_one', _P('associativeListReference'))], object: '                        associativeListReference:\n                        - name: b\n                          value: 2\n                    ' },
      ],
      object: '                associativeListReference:\n                  - name: a\n                    value: 1\n            ',
      apiVersion: 'v1',
      managed: { 'apply_one': vs(_NS(_P('associativeListReference')), 'v1', false) },
    },
    {
      name: 'test_override_inline_atomic_list_with_associative',
      ops: [
        { op: 'apply', manager: 'apply_one', apiVersion: 'v1', object: '                        separableInlineList:\n                        - 1\n                    ' },
        { op: 'apply', manager: 'apply_two', apiVersion: 'v1', object: '                        separableInlineList:\n                        - 2\n                    ' },
      ],
      object: '                separableInlineList:\n                - 1\n                - 2\n            ',
      apiVersion: 'v1',
      managed: { 'apply_one': vs(_NS(_P('separableInlineList', _V(1))), 'v1', true), 'apply_two': vs(_NS(_P('separableInlineList', _V(2))), 'v1', true) },
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/field_level_overrides_test.go',
  groups: [fieldLevelOverrides],
};
