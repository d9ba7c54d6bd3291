// The block-YAML reader against the `yaml` package: the bootstrap policy files read the same, and so does a
// document with every construct of the subset; what lies outside the subset is refused, not misread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseBlockYaml } from '../../src/util/block-yaml.js';
import { BOOTSTRAP_POLICY_DIR } from '../../src/auth/rbac/bootstrap-policy.js';

test('block YAML: every policy file reads as the yaml package reads it', () => {
  const files = readdirSync(BOOTSTRAP_POLICY_DIR).filter((f) => f.endsWith('.yaml'));
  assert.ok(files.length >= 6);
  for (const f of files) {
    const text = readFileSync(new URL(f, BOOTSTRAP_POLICY_DIR), 'utf8');
    assert.deepEqual(parseBlockYaml(text), parse(text), f);
  }
});

test('block YAML: the subset (nested sequences at the key\'s indentation, quoting, null, {}, [], numbers)', () => {
  const doc = `apiVersion: v1
items:
- name: a
  list:
  - x
  - 'it''s'
  - ""
  - "q: \\"x\\""
  - system:masters
  - /api/*
  - - nested
    - seq
  empty: {}
  none: []
  gone: null
  flag: true
  n: 42
  deep:
    inner:
      k: v
  after: null
- plain
"quoted key": 1
kind: List
metadata: {}
`;
  assert.deepEqual(parseBlockYaml(doc), parse(doc));
});

test('block YAML: flow collections, anchors and block scalars are refused', () => {
  assert.throws(() => parseBlockYaml('a: [1, 2]\n'), /unsupported YAML/);
  assert.throws(() => parseBlockYaml('a: &x 1\n'), /unsupported YAML/);
  assert.throws(() => parseBlockYaml('a: |\n  text\n'), /unsupported YAML/);
  assert.throws(() => parseBlockYaml('a: 1\n   b: 2\n'), /unexpected indentation/);
});
