// cel-go ext.Sets (ext/sets_test.go cases) through the declared overloads.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SETS_LIBRARY as S } from '../../src/cel/lib/sets.js';
import { markUnstructured } from '../../src/cel/value-ops.js';
import { CelError, Uint } from '../../src/cel/values.js';
import { call, cost, overload } from './lib-support.js';

describe('sets', () => {
  it('declares global overloads over list(T)', () => {
    for (const id of ['list_sets_contains_list', 'list_sets_equivalent_list', 'list_sets_intersects_list']) {
      const o = overload(S, id);
      assert.ok(!o.member);
      assert.equal(o.params.length, 2);
    }
  });

  it('sets.contains', () => {
    const c = (a: unknown[], b: unknown[]) => call(S, 'list_sets_contains_list', a as never, b as never);
    assert.equal(c([], []), true);
    assert.equal(c([1n], []), true);
    assert.equal(c([1n], [1n]), true);
    assert.equal(c([1n], [1n, 1n]), true);
    assert.equal(c([1n, 1n], [1n]), true);
    assert.equal(c([2n, 1n], [1n]), true);
    assert.equal(c([1n, 2n, 3n, 4n], [2n, 3n]), true);
    assert.equal(c([1n], [1.0, 1n]), true);
    assert.equal(c([1n, 2n], [2n, new Uint(2n)]), true);
    assert.equal(c([[1n], [2n, 3n]], [[2n, 3n]]), true);
    assert.equal(c([1n], [2n]), false);
    assert.equal(c([1n], [1n, 2n]), false);
    assert.equal(c([1n], ['1', 1n]), false);
    assert.equal(c([1n], [1.1, new Uint(1n)]), false);
  });

  it('sets.equivalent', () => {
    const e = (a: unknown[], b: unknown[]) => call(S, 'list_sets_equivalent_list', a as never, b as never);
    assert.equal(e([], []), true);
    assert.equal(e([1n], [1n, 1n]), true);
    assert.equal(e([1n, 2n, 3n], [3n, new Uint(2n), 1n]), true);
    assert.equal(e([1n], [1n, 2n]), false);
    assert.equal(e([1n, 2n], [2n, 2n, 2n]), false);
  });

  it('sets.intersects', () => {
    const i = (a: unknown[], b: unknown[]) => call(S, 'list_sets_intersects_list', a as never, b as never);
    assert.equal(i([1n], [1n]), true);
    assert.equal(i([1n], [1.0, 2n]), true);
    assert.equal(i([[1n], [2n, 3n]], [[1n, 2n], [2n, 3.0]]), true);
    assert.equal(i([], []), false);
    assert.equal(i([1n], []), false);
    assert.equal(i([1n], [2n]), false);
  });

  it('reports a comparison error of a list from JSON', () => {
    // k8s unstructuredList.Contains reports the first element comparison error.
    const json = markUnstructured([markUnstructured([1n])]);
    const r = call(S, 'list_sets_contains_list', json, ['x']);
    assert.ok(r instanceof CelError);
  });

  it('costs 1 + |a|·|b| comparisons (twice for equivalence)', () => {
    assert.equal(cost(S, 'list_sets_contains_list', [1n, 2n, 3n], [1n, 2n]), 7);
    assert.equal(cost(S, 'list_sets_equivalent_list', [1n, 2n, 3n], [1n, 2n]), 13);
    assert.equal(cost(S, 'list_sets_intersects_list', [], [1n]), 1);
  });
});
