// Kubernetes' lists library (pkg/cel/library/lists.go): the documented examples and the
// element types it declares, through the declared overloads.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { K8S_LISTS_LIBRARY as L } from '../../src/cel/lib/lists.js';
import { Duration, Timestamp, Uint } from '../../src/cel/values.js';
import { assertError, call, cost, overload } from './lib-support.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('kubernetes.lists declarations', () => {
  it('has one overload per comparable or summable element type', () => {
    const ids = (name: string) => L.functions.find((f) => f.name === name)!.overloads.map((o) => o.id);
    assert.deepEqual(ids('isSorted'), [
      'list_int_is_sorted_bool', 'list_uint_is_sorted_bool', 'list_double_is_sorted_bool', 'list_bool_is_sorted_bool',
      'list_duration_is_sorted_bool', 'list_timestamp_is_sorted_bool', 'list_string_is_sorted_bool', 'list_bytes_is_sorted_bool',
    ]);
    assert.deepEqual(ids('sum'), ['list_int_sum_int', 'list_uint_sum_uint', 'list_double_sum_double', 'list_duration_sum_duration']);
    assert.equal(ids('min').length, 8);
    assert.equal(ids('max').length, 8);
    assert.deepEqual(ids('indexOf'), ['list_a_index_of_int']);
    assert.deepEqual(ids('lastIndexOf'), ['list_a_last_index_of_int']);
    assert.ok(overload(L, 'list_int_max_int').member);
  });
});

describe('isSorted', () => {
  it('checks ascending order of comparable elements', () => {
    assert.equal(call(L, 'list_int_is_sorted_bool', [1n, 2n, 3n]), true);
    assert.equal(call(L, 'list_string_is_sorted_bool', ['a', 'b', 'b', 'c']), true);
    assert.equal(call(L, 'list_double_is_sorted_bool', [2.0, 1.0]), false);
    assert.equal(call(L, 'list_int_is_sorted_bool', [1n]), true);
    assert.equal(call(L, 'list_int_is_sorted_bool', []), true);
    assert.equal(call(L, 'list_bool_is_sorted_bool', [false, true]), true);
    assert.equal(call(L, 'list_bytes_is_sorted_bool', [bytes('a'), bytes('ab')]), true);
    assert.equal(call(L, 'list_timestamp_is_sorted_bool', [new Timestamp(2n), new Timestamp(1n)]), false);
    // Strings order by code point, not UTF-16 unit.
    assert.equal(call(L, 'list_string_is_sorted_bool', ['\uffff', '😀']), true);
  });

  it('orders mixed numbers; unordered comparisons do not break the order', () => {
    assert.equal(call(L, 'list_int_is_sorted_bool', [1n, 1.5, new Uint(2n)]), true);
    assert.equal(call(L, 'list_double_is_sorted_bool', [1.0, NaN, 0.5]), true);
    assertError(call(L, 'list_int_is_sorted_bool', [1n, [2n]]), 'no such overload');
  });
});

describe('sum, min, max', () => {
  it('sums numbers and durations, with a typed zero for empty lists', () => {
    assert.equal(call(L, 'list_int_sum_int', [1n, 3n]), 4n);
    assert.equal(call(L, 'list_double_sum_double', [1.0, 3.0]), 4.0);
    assert.deepEqual(call(L, 'list_uint_sum_uint', [new Uint(1n), new Uint(2n)]), new Uint(3n));
    assert.deepEqual(call(L, 'list_duration_sum_duration', [new Duration(60_000_000_000n), new Duration(1_000_000_000n)]), new Duration(61_000_000_000n));
    assert.equal(call(L, 'list_int_sum_int', []), 0n);
    assert.equal(call(L, 'list_double_sum_double', []), 0);
    assert.deepEqual(call(L, 'list_uint_sum_uint', []), new Uint(0n));
    assert.deepEqual(call(L, 'list_duration_sum_duration', []), new Duration(0n));
  });

  it('reports overflow and mixed types', () => {
    assertError(call(L, 'list_int_sum_int', [9223372036854775807n, 1n]), 'integer overflow');
    assertError(call(L, 'list_uint_sum_uint', [new Uint(18446744073709551615n), new Uint(1n)]), 'unsigned integer overflow');
    assertError(call(L, 'list_duration_sum_duration', [new Duration(9223372036854775807n), new Duration(1n)]), 'integer overflow');
    assertError(call(L, 'list_int_sum_int', [1n, 2.0]), 'no such overload');
  });

  it('min and max', () => {
    assert.equal(call(L, 'list_int_min_int', [1n, 3n]), 1n);
    assert.equal(call(L, 'list_int_max_int', [1n, 3n]), 3n);
    assert.equal(call(L, 'list_int_min_int', [1n]), 1n);
    assert.equal(call(L, 'list_string_max_string', ['b', 'c', 'a']), 'c');
    assert.equal(call(L, 'list_double_min_double', [2.5, -1.0, 0.0]), -1.0);
    assert.deepEqual(call(L, 'list_duration_max_duration', [new Duration(5n), new Duration(9n), new Duration(1n)]), new Duration(9n));
    // The first of equal elements wins.
    const a = bytes('x');
    assert.equal(call(L, 'list_bytes_min_bytes', [a, bytes('x')]), a);
    assertError(call(L, 'list_int_min_int', []), 'min called on empty list');
    assertError(call(L, 'list_int_max_int', []), 'max called on empty list');
  });
});

describe('indexOf and lastIndexOf', () => {
  it('find elements by CEL equality', () => {
    assert.equal(call(L, 'list_a_index_of_int', [1n, 2n, 2n, 3n], 2n), 1n);
    assert.equal(call(L, 'list_a_last_index_of_int', ['a', 'b', 'b', 'c'], 'b'), 2n);
    assert.equal(call(L, 'list_a_index_of_int', [1.0], 1.1), -1n);
    assert.equal(call(L, 'list_a_index_of_int', [], 'string'), -1n);
    assert.equal(call(L, 'list_a_index_of_int', [1n, 2.0], 2n), 1n);
    assert.equal(call(L, 'list_a_index_of_int', [[1n], [2n]], [2n]), 1n);
  });
});

describe('runtime cost: one traversal of the list data', () => {
  it('counts elements, and string bytes × 0.1', () => {
    assert.equal(cost(L, 'list_int_sum_int', [1n, 2n, 3n]), 3);
    assert.equal(cost(L, 'list_string_is_sorted_bool', ['a'.repeat(20), 'b'.repeat(25)]), 4);
    assert.equal(cost(L, 'list_a_index_of_int', [[1n, 2n], [3n]], 3n), 3);
    assert.equal(cost(L, 'list_int_max_int', []), 0);
  });
});
