// Ported from structured-merge-diff v4.6.0 merge/preserve_unknown_test.go.
import { _NS, _P, sameVersionParser, type ConformanceFile, type Group, vs } from './fixture.js';

export const preserveUnknownParser = sameVersionParser(`types:
- name: type
  map:
    fields:
      - name: num
        type:
          scalar: numeric
    elementType:
      scalar: string
`, 'type');

const preserveUnknownFields: Group = {
  test: 'TestPreserveUnknownFields',
  parser: preserveUnknownParser,
  cases: [
    {
      name: 'preserve_unknown_fields',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'num: 5\nunknown: value\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'num: 6\nunknown: new\n' },
      ],
      object: 'num: 6\nunknown: new\n',
      apiVersion: 'v1',
      managed: { 'default': vs(_NS(_P('num'), _P('unknown')), 'v1', false) },
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/preserve_unknown_test.go',
  groups: [preserveUnknownFields],
};
