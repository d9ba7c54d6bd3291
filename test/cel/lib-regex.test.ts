// Kubernetes' regex library (pkg/cel/library/regex.go): find and findAll with Go's RE2
// semantics, through the declared overloads.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REGEX_LIBRARY as R, compileRegex, REGEX_OPTIMIZED_FUNCTIONS } from '../../src/cel/lib/regex.js';
import { assertError, call, cost } from './lib-support.js';

describe('find', () => {
  it('returns the leftmost match or ""', () => {
    assert.equal(call(R, 'string_find_string', 'abc 123', '[0-9]+'), '123');
    assert.equal(call(R, 'string_find_string', 'abc 123', 'xyz'), '');
    assert.equal(call(R, 'string_find_string', 'aab', 'a|aa'), 'a');
    assert.equal(call(R, 'string_find_string', 'x😀y', '.y'), '😀y');
  });

  it('reports an invalid pattern as Go does', () => {
    assertError(call(R, 'string_find_string', 'abc', '(abc'), 'Illegal regex: error parsing regexp: missing closing ): `(abc`');
    assertError(call(R, 'string_find_all_string', 'abc', '[a'), 'Illegal regex: error parsing regexp: missing closing ]: `[a`');
  });
});

describe('findAll', () => {
  it('returns successive matches, up to a limit', () => {
    assert.deepEqual(call(R, 'string_find_all_string', '123 abc 456', '[0-9]+'), ['123', '456']);
    assert.deepEqual(call(R, 'string_find_all_string_int', '123 abc 456', '[0-9]+', 1n), ['123']);
    assert.deepEqual(call(R, 'string_find_all_string_int', '123 abc 456', '[0-9]+', 0n), []);
    assert.deepEqual(call(R, 'string_find_all_string_int', '123 abc 456', '[0-9]+', -1n), ['123', '456']);
    assert.deepEqual(call(R, 'string_find_all_string', '123 abc 456', 'xyz'), []);
  });

  it('skips an empty match right after a match, as Go does', () => {
    assert.deepEqual(call(R, 'string_find_all_string', 'baaab', 'a*'), ['', 'aaa', '']);
    assert.deepEqual(call(R, 'string_find_all_string', 'abc', ''), ['', '', '', '']);
    assert.deepEqual(call(R, 'string_find_all_string', '😀😀', ''), ['', '', '']);
    assert.deepEqual(call(R, 'string_find_all_string', 'ab', '^'), ['']);
  });
});

describe('compilation', () => {
  it('compiles each pattern once', () => {
    const a = compileRegex('x+y');
    assert.equal(compileRegex('x+y'), a);
    assert.ok(compileRegex('(') instanceof Error);
    assert.deepEqual([...REGEX_OPTIMIZED_FUNCTIONS.keys()], ['find', 'findAll']);
  });

  it('costs the string traversal times the regex size', () => {
    // ceil((1 + 7) × 0.1) × ceil(6 × 0.25)
    assert.equal(cost(R, 'string_find_string', 'abc 123', '[0-9]+'), 2);
    assert.equal(cost(R, 'string_find_all_string', 'x'.repeat(100), 'a'.repeat(40)), 11 * 10);
  });
});
