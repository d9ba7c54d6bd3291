// YAML output as goyaml.v2 writes it through sigs.k8s.io/yaml: sorted keys, unindented sequences, and
// strings quoted where goyaml's YAML 1.1 resolver would read them as something else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goYaml } from '../../src/util/go-yaml-encode.js';

test('strings that would not read back as strings are double-quoted', () => {
  const quoted = ['8', '-3', '0x1F', '0o17', '08', '1e3', '.5', '1_000', 'yes', 'Y', 'n', 'on', 'OFF', 'true', 'null', '~', '',
    '.inf', '-.Inf', '<<', '1:20', '2026-11-26T10:08:42Z', '2024-01-02', '2024-01-02 03:04:05'];
  for (const s of quoted) assert.equal(goYaml({ k: s }), `k: ${JSON.stringify(s)}\n`, s);
  for (const s of ['plain', 'v1', '1.2.3', 'a b', '2024-02-30', '2026-13-01', 'yess', '0b', 'x:y']) {
    assert.equal(goYaml({ k: s }), `k: ${s}\n`, s);
  }
});

test('strings the syntax keeps from being plain are single-quoted; multi-line ones are literal', () => {
  assert.equal(goYaml({ k: 'a: b' }), "k: 'a: b'\n");
  assert.equal(goYaml({ k: '#x' }), "k: '#x'\n");
  assert.equal(goYaml({ k: ' lead' }), "k: ' lead'\n");
  assert.equal(goYaml({ k: '- x' }), "k: '- x'\n");
  assert.equal(goYaml({ k: "it's: x" }), "k: 'it''s: x'\n");
  assert.equal(goYaml({ k: "it's" }), "k: it's\n");
  assert.equal(goYaml({ k: 'one\ntwo' }), 'k: |-\n  one\n  two\n');
});

test('keys sorted (and quoted alike), sequences not indented, empty collections in flow style', () => {
  assert.equal(goYaml({ z: [1, { b: 2, a: null }], y: {}, a: [], n: 1.5 }), 'a: []\n"n": 1.5\n"y": {}\nz:\n- 1\n- a: null\n  b: 2\n');
});
