// Ported from structured-merge-diff v4.6.0 merge/default_keys_test.go.
import { _KBF, _NS, _P, conflict, type ConformanceFile, type Group, versionTypesParser, vs } from './fixture.js';

export const portListParser = versionTypesParser(`types:
- name: v1
  map:
    fields:
      - name: containerPorts
        type:
          list:
            elementType:
              map:
                fields:
                - name: port
                  type:
                    scalar: numeric
                - name: protocol
                  default: "TCP"
                  type:
                    scalar: string
                - name: name
                  type:
                    scalar: string
            elementRelationship: associative
            keys:
            - port
            - protocol
`);

export const bookParser = versionTypesParser(`types:
- name: v1
  map:
    fields:
      - name: book
        type:
          list:
            elementType:
              map:
                fields:
                - name: chapter
                  default: 1
                  type:
                    scalar: numeric
                - name: section
                  default: "A"
                  type:
                    scalar: string
                - name: sentences
                  type:
                    list:
                      elementType:
                        map:
                          fields:
                          - name: page
                            default: 2.0
                            type:
                              scalar: numeric
                          - name: line
                            default: 3
                            type:
                              scalar: numeric
                          - name: text
                            type:
                              scalar: string
                      elementRelationship: associative
                      keys:
                      - page
                      - line
            elementRelationship: associative
            keys:
            - chapter
            - section
`);

const defaultKeysFlat: Group = {
  test: 'TestDefaultKeysFlat',
  parser: portListParser,
  cases: [
    {
      name: 'apply_missing_defaulted_key_A',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'containerPorts:\n- port: 80\n' },
      ],
      apiVersion: 'v1',
      object: 'containerPorts:\n- port: 80\n',
      managed: { 'default': vs(_NS(_P('containerPorts', _KBF('port', 80, 'protocol', 'TCP')), _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'port')), 'v1', false) },
    },
    {
      name: 'apply_missing_defaulted_key_B',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'containerPorts:\n- port: 80\n- port: 80\n  protocol: UDP\n' },
      ],
      apiVersion: 'v1',
      object: 'containerPorts:\n- port: 80\n- port: 80\n  protocol: UDP\n',
      managed: { 'default': vs(_NS(_P('containerPorts', _KBF('port', 80, 'protocol', 'TCP')), _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'port'), _P('containerPorts', _KBF('port', 80, 'protocol', 'UDP')), _P('containerPorts', _KBF('port', 80, 'protocol', 'UDP'), 'port'), _P('containerPorts', _KBF('port', 80, 'protocol', 'UDP'), 'protocol')), 'v1', false) },
    },
    {
      name: 'apply_missing_defaulted_key_with_conflict',
      ops: [
        { op: 'apply', manager: 'apply-one', apiVersion: 'v1', object: 'containerPorts:\n- port: 80\n  protocol: TCP\n  name: foo\n' },
        { op: 'apply', manager: 'apply-two', apiVersion: 'v1', conflicts: [conflict('apply-one', _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'name'))], object: 'containerPorts:\n- port: 80\n  name: bar\n' },
      ],
      apiVersion: 'v1',
      object: 'containerPorts:\n- port: 80\n  protocol: TCP\n  name: foo\n',
      managed: { 'apply-one': vs(_NS(_P('containerPorts', _KBF('port', 80, 'protocol', 'TCP')), _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'port'), _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'protocol'), _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'name')), 'v1', false) },
    },
  ],
};

/** Run as test.Test(portListParser) == nil is a failure: each case's apply must fail. */
const defaultKeysFlatErrors: Group = {
  test: 'TestDefaultKeysFlatErrors',
  parser: portListParser,
  cases: [
    {
      name: 'apply_missing_undefaulted_defaulted_key',
      // Validation refuses the applied object: a key without a default is missing, or two items share a key.
      expectError: true,
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'containerPorts:\n- protocol: TCP\n' },
      ],
    },
    {
      name: 'apply_missing_defaulted_key_ambiguous_A',
      // Validation refuses the applied object: a key without a default is missing, or two items share a key.
      expectError: true,
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'containerPorts:\n- port: 80\n- port: 80\n' },
      ],
    },
    {
      name: 'apply_missing_defaulted_key_ambiguous_B',
      // Validation refuses the applied object: a key without a default is missing, or two items share a key.
      expectError: true,
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'containerPorts:\n- port: 80\n- port: 80\n  protocol: TCP\n' },
      ],
    },
  ],
};

const defaultKeysNested: Group = {
  test: 'TestDefaultKeysNested',
  parser: bookParser,
  cases: [
    {
      name: 'apply_missing_every_key_nested',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'book:\n- sentences:\n  - text: blah\n' },
      ],
      apiVersion: 'v1',
      object: 'book:\n- sentences:\n  - text: blah\n',
      managed: { 'default': vs(_NS(_P('book', _KBF('chapter', 1, 'section', 'A')), _P('book', _KBF('chapter', 1, 'section', 'A'), 'sentences', _KBF('page', 2, 'line', 3)), _P('book', _KBF('chapter', 1, 'section', 'A'), 'sentences', _KBF('page', 2, 'line', 3), 'text')), 'v1', false) },
    },
    {
      name: 'apply_integer_key_with_float_default',
      ops: [
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'book:\n- sentences:\n  - text: blah\n' },
        { op: 'apply', manager: 'default', apiVersion: 'v1', object: 'book:\n- sentences:\n  - text: blah\n    page: 2\n' },
      ],
      apiVersion: 'v1',
      object: 'book:\n- sentences:\n  - text: blah\n    page: 2\n',
      managed: { 'default': vs(_NS(_P('book', _KBF('chapter', 1, 'section', 'A')), _P('book', _KBF('chapter', 1, 'section', 'A'), 'sentences', _KBF('page', 2, 'line', 3)), _P('book', _KBF('chapter', 1, 'section', 'A'), 'sentences', _KBF('page', 2, 'line', 3), 'text'), _P('book', _KBF('chapter', 1, 'section', 'A'), 'sentences', _KBF('page', 2, 'line', 3), 'page')), 'v1', false) },
    },
  ],
};

export const FILE: ConformanceFile = {
  file: 'merge/default_keys_test.go',
  groups: [defaultKeysFlat, defaultKeysFlatErrors, defaultKeysNested],
};
