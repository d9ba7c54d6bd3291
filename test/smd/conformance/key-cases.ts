// Ported from structured-merge-diff v4.6.0 merge/key_test.go.
import { _KBF, _NS, _P, sameVersionParser, type ConformanceFile, type Group, vs } from './fixture.js';

export const associativeListParser = sameVersionParser(`types:
- name: type
  map:
    fields:
      - name: list
        type:
          namedType: associativeList
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
    - name: value
      type:
        scalar: numeric
`, 'type');

const updateAssociativeLists: Group = {
  test: 'TestUpdateAssociativeLists',
  parser: associativeListParser,
  cases: [
    {
      name: 'removing_obsolete_applied_structs',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- name: a\n  value: 1\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'list:\n- name: b\n  value: 2\n' },
      ],
      object: 'list:\n- name: b\n  value: 2\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value')), 'v1', false) },
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/key_test.go',
  groups: [updateAssociativeLists],
};
