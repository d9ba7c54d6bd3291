// Static cost estimation against cel-go v0.23.2 checker/cost_test.go (TestCost), with its test
// estimator: sizes from path hints, bytes of size 12, getFullYear costing 7.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../../src/cel/compile.js';
import { estimateCost, type CallEstimator, type CostOptions, type SizeEstimator } from '../../src/cel/cost-estimator.js';
import { STANDARD_LIBRARY } from '../../src/cel/stdlib.js';
import { OPTIONAL_LIBRARY } from '../../src/cel/optional-lib.js';
import { formatIssues } from '../../src/cel/issues.js';
import { Env } from '../../src/cel/env.js';
import { MAX_COST, type Library, type Range } from '../../src/cel/decls.js';
import {
  BOOL,
  BYTES,
  DOUBLE,
  DURATION,
  INT,
  STRING,
  TIMESTAMP,
  listOf,
  mapOf,
  type CelType,
  type ObjectType,
} from '../../src/cel/types.js';
import { addRange, fixed, mulRange, mulRangeFactor, UNKNOWN } from '../../src/cel/cost-estimator-math.js';

const allTypes: ObjectType = {
  kind: 'object',
  name: 'google.expr.proto3.test.TestAllTypes',
  fields: new Map([
    ['single_int32', { type: INT, jsonName: 'single_int32' }],
    ['single_string', { type: STRING, jsonName: 'single_string' }],
  ]),
};
const allList = listOf(allTypes);
const intList = listOf(INT);
const nestedList = listOf(allList);
const allMap = mapOf(STRING, allTypes);
const nestedMap = mapOf(STRING, allMap);

// The test's `max` on lists of bytes, priced by an overload estimator in one case.
const maxLib: Library = {
  name: 'test.max',
  functions: [{ name: 'max', overloads: [{ id: 'list_bytes_max', member: true, params: [listOf(BYTES)], result: BYTES, impl: () => null }] }],
};

const hintsEstimator =
  (hints: Record<string, number>): SizeEstimator =>
  (node) => {
    const key = (node.path ?? []).join('.');
    if (key in hints) return { min: 0, max: hints[key]! };
    if (node.type.kind === 'primitive' && node.type.name === 'bytes') return { min: 0, max: 12 };
    return undefined;
  };

const testCallEstimator: CallEstimator = (_fn, id) => (id === 'timestamp_to_year' ? { cost: fixed(7) } : undefined);

interface Case {
  name: string;
  expr: string;
  vars?: Record<string, CelType>;
  hints?: Record<string, number>;
  options?: CostOptions;
  want: Range;
}

function estimate(c: Case): Range {
  const env = new Env(
    [STANDARD_LIBRARY, OPTIONAL_LIBRARY, maxLib],
    Object.entries(c.vars ?? {}).map(([name, type]) => ({ name, type })),
  );
  const r = compile(env, c.expr);
  if ('issues' in r) throw new Error(formatIssues(r.issues));
  return estimateCost(r.ast, env, {
    sizeEstimator: hintsEstimator(c.hints ?? {}),
    callEstimator: testCallEstimator,
    overloadEstimators: new Map(),
    // cel-go's default; Kubernetes turns it off.
    presenceTestHasCost: true,
    ...c.options,
  });
}

const r = (min: number, max: number): Range => ({ min, max });
const bools = { a: BOOL, b: BOOL, c: BOOL, d: BOOL };

const cases: Case[] = [
  { name: 'const', expr: `"Hello World!"`, want: r(0, 0) },
  { name: 'identity', expr: `input`, vars: { input: intList }, want: r(1, 1) },
  { name: 'select: map', expr: `input['key']`, vars: { input: mapOf(STRING, STRING) }, want: r(2, 2) },
  { name: 'select: field', expr: `input.single_int32`, vars: { input: allTypes }, want: r(2, 2) },
  { name: 'select: field test only no has() cost', expr: `has(input.single_int32)`, vars: { input: allTypes }, options: { presenceTestHasCost: false }, want: r(1, 1) },
  { name: 'select: field test only', expr: `has(input.single_int32)`, vars: { input: allTypes }, want: r(2, 2) },
  { name: 'select: non-proto field test has() cost', expr: `has(input.testAttr.nestedAttr)`, vars: { input: nestedMap }, want: r(3, 3) },
  { name: 'select: non-proto field test no has() cost', expr: `has(input.testAttr.nestedAttr)`, vars: { input: nestedMap }, options: { presenceTestHasCost: false }, want: r(2, 2) },
  { name: 'estimated function call', expr: `input.getFullYear()`, vars: { input: TIMESTAMP }, want: r(8, 8) },
  { name: 'create list', expr: `[1, 2, 3]`, want: r(10, 10) },
  { name: 'create map', expr: `{"a": 1, "b": 2, "c": 3}`, want: r(30, 30) },
  { name: 'all comprehension', expr: `input.all(x, true)`, vars: { input: allList }, hints: { input: 100 }, want: r(2, 302) },
  { name: 'nested all comprehension', expr: `input.all(x, x.all(y, true))`, vars: { input: nestedList }, hints: { input: 50, 'input.@items': 10 }, want: r(2, 1752) },
  { name: 'all comprehension on literal', expr: `[1, 2, 3].all(x, true)`, want: r(20, 20) },
  { name: 'variable cost function', expr: `input.matches('[0-9]')`, vars: { input: STRING }, hints: { input: 500 }, want: r(3, 103) },
  { name: 'variable cost function with constant', expr: `'123'.matches('[0-9]')`, want: r(2, 2) },
  { name: 'or', expr: `true || false`, want: r(0, 0) },
  { name: 'or accumulated branch cost', expr: `a || b || c || d`, vars: bools, want: r(1, 4) },
  { name: 'and', expr: `true && false`, want: r(0, 0) },
  { name: 'and accumulated branch cost', expr: `a && b && c && d`, vars: bools, want: r(1, 4) },
  { name: 'lt', expr: `1 < 2`, want: r(1, 1) },
  { name: 'lte', expr: `1 <= 2`, want: r(1, 1) },
  { name: 'eq', expr: `1 == 2`, want: r(1, 1) },
  { name: 'gt', expr: `2 > 1`, want: r(1, 1) },
  { name: 'gte', expr: `2 >= 1`, want: r(1, 1) },
  { name: 'in', expr: `2 in [1, 2, 3]`, want: r(13, 13) },
  { name: 'plus', expr: `1 + 1`, want: r(1, 1) },
  { name: 'minus', expr: `1 - 1`, want: r(1, 1) },
  { name: '/', expr: `1 / 1`, want: r(1, 1) },
  { name: '*', expr: `1 * 1`, want: r(1, 1) },
  { name: '%', expr: `1 % 1`, want: r(1, 1) },
  { name: 'ternary', expr: `true ? 1 : 2`, want: r(0, 0) },
  { name: 'string size', expr: `size("123")`, want: r(1, 1) },
  { name: 'bytes size', expr: `size(b"123")`, want: r(1, 1) },
  { name: 'bytes to string conversion', expr: `string(input)`, vars: { input: BYTES }, hints: { input: 500 }, want: r(1, 51) },
  { name: 'bytes to string conversion equality', expr: `string(input) == string(input)`, vars: { input: BYTES }, hints: { input: 500 }, want: r(3, 152) },
  { name: 'string to bytes conversion', expr: `bytes(input)`, vars: { input: STRING }, hints: { input: 500 }, want: r(1, 51) },
  { name: 'string to bytes conversion equality', expr: `bytes(input) == bytes(input)`, vars: { input: STRING }, hints: { input: 500 }, want: r(3, 302) },
  { name: 'int to string conversion', expr: `string(1)`, want: r(1, 1) },
  { name: 'contains', expr: `input.contains(arg1)`, vars: { input: STRING, arg1: STRING }, hints: { input: 500, arg1: 500 }, want: r(2, 2502) },
  { name: 'matches', expr: `input.matches('\\\\d+a\\\\d+b')`, vars: { input: STRING }, hints: { input: 500 }, want: r(3, 103) },
  { name: 'startsWith', expr: `input.startsWith(arg1)`, vars: { input: STRING, arg1: STRING }, hints: { arg1: 500 }, want: r(2, 52) },
  { name: 'endsWith', expr: `input.endsWith(arg1)`, vars: { input: STRING, arg1: STRING }, hints: { arg1: 500 }, want: r(2, 52) },
  { name: 'size receiver', expr: `input.size()`, vars: { input: STRING }, want: r(2, 2) },
  { name: 'size', expr: `size(input)`, vars: { input: STRING }, want: r(2, 2) },
  {
    name: 'ternary eval',
    expr: `(x > 2 ? input1 : input2).all(y, true)`,
    vars: { x: INT, input1: allList, input2: allList },
    hints: { input1: 1, input2: 1 },
    want: r(4, 7),
  },
  { name: 'comprehension over map', expr: `input.all(k, input[k].single_int32 > 3)`, vars: { input: allMap }, hints: { input: 10 }, want: r(2, 82) },
  {
    name: 'comprehension over nested map of maps',
    expr: `input.all(k, input[k].all(x, true))`,
    vars: { input: nestedMap },
    hints: { input: 5, 'input.@values': 10 },
    want: r(2, 187),
  },
  { name: 'string size of map keys', expr: `input.all(k, k.contains(k))`, vars: { input: nestedMap }, hints: { input: 5, 'input.@keys': 10 }, want: r(2, 32) },
  {
    name: 'comprehension variable shadowing',
    expr: `input.all(k, input[k].all(k, true) && k.contains(k))`,
    vars: { input: nestedMap },
    hints: { input: 2, 'input.@values': 2, 'input.@keys': 5 },
    want: r(2, 34),
  },
  { name: 'list concat', expr: `(list1 + list2).all(x, true)`, vars: { list1: intList, list2: intList }, hints: { list1: 10, list2: 10 }, want: r(4, 64) },
  { name: 'str concat', expr: `"abcdefg".contains(str1 + str2)`, vars: { str1: STRING, str2: STRING }, hints: { str1: 10, str2: 10 }, want: r(2, 6) },
  {
    name: 'str concat custom cost estimate',
    expr: `"abcdefg".contains(str1 + str2)`,
    vars: { str1: STRING, str2: STRING },
    hints: { str1: 10, str2: 10 },
    options: {
      overloadEstimators: new Map<string, CallEstimator>([
        [
          'contains_string',
          (_fn, _id, target, args, sizeOf) => {
            if (!target || args.length !== 1) return undefined;
            return { cost: mulRange(mulRangeFactor(sizeOf(target), 0.2), mulRangeFactor(sizeOf(args[0]!), 0.2)) };
          },
        ],
      ]),
    },
    want: r(2, 12),
  },
  { name: 'list size comparison', expr: `list1.size() == list2.size()`, vars: { list1: intList, list2: intList }, want: r(5, 5) },
  { name: 'list size from ternary', expr: `x > y ? list1.size() : list2.size()`, vars: { x: INT, y: INT, list1: intList, list2: intList }, want: r(5, 5) },
  {
    name: 'list size from concat',
    expr: `([x, y] + list1 + list2).size()`,
    vars: { x: INT, y: INT, list1: intList, list2: intList },
    hints: { list1: 10, list2: 20 },
    want: r(17, 17),
  },
  {
    name: 'list cost tracking through comprehension',
    expr: `[list1, list2].exists(l, l.exists(v, v.startsWith('hi')))`,
    vars: { list1: listOf(STRING), list2: listOf(STRING) },
    hints: { list1: 10, 'list1.@items': 64, list2: 20, 'list2.@items': 128 },
    want: r(21, 265),
  },
  {
    name: 'str endsWith equality',
    expr: `str1.endsWith("abcdefghijklmnopqrstuvwxyz") == str2.endsWith("abcdefghijklmnopqrstuvwxyz")`,
    vars: { str1: STRING, str2: STRING },
    want: r(9, 9),
  },
  { name: 'nested subexpression operators', expr: `((5 != 6) == (1 == 2)) == ((3 <= 4) == (9 != 9))`, want: r(7, 7) },
  {
    name: 'str size estimate',
    expr: `string(timestamp1) == string(timestamp2)`,
    vars: { timestamp1: TIMESTAMP, timestamp2: TIMESTAMP },
    want: r(5, 1844674407370955268),
  },
  { name: 'timestamp equality check', expr: `timestamp1 == timestamp2`, vars: { timestamp1: TIMESTAMP, timestamp2: TIMESTAMP }, want: r(3, 3) },
  { name: 'duration inequality check', expr: `duration1 != duration2`, vars: { duration1: DURATION, duration2: DURATION }, want: r(3, 3) },
  { name: '.filter list literal', expr: `[1,2,3,4,5].filter(x, x % 2 == 0)`, want: r(41, 101) },
  { name: '.map list literal', expr: `[1,2,3,4,5].map(x, x)`, want: r(86, 86) },
  { name: '.map.filter list literal', expr: `[1,2,3,4,5].map(x, x).filter(x, x % 2 == 0)`, want: r(117, 177) },
  { name: '.map.exists list literal', expr: `[1,2,3,4,5].map(x, x).exists(x, x == 5) == true`, want: r(108, 118) },
  { name: '.map.map list literal', expr: `[1,2,3,4,5].map(x, x).map(x, x)`, want: r(162, 162) },
  { name: '.map list literal selection', expr: `[1,2,3,4,5].map(x, x)[4]`, want: r(87, 87) },
  { name: 'nested array selection', expr: `[[1,2],[1,2],[1,2],[1,2],[1,2]][4]`, want: r(61, 61) },
  { name: 'nested map selection', expr: `{'a': [1,2], 'b': [1,2], 'c': [1,2], 'd': [1,2], 'e': [1,2]}.b`, want: r(81, 81) },
  { name: 'comprehension on nested list', expr: `[[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]].all(y, y.all(y, y == 1))`, want: r(76, 136) },
  { name: 'comprehension on transformed nested list', expr: `[1,2,3,4,5].map(x, [x, x]).all(y, y.all(y, y == 1))`, want: r(157, 217) },
  {
    name: 'comprehension on nested literal list',
    expr: `["a", "ab", "abc", "abcd", "abcde"].map(x, [x, x]).all(y, y.all(y, y.startsWith('a')))`,
    want: r(157, 217),
  },
  {
    name: 'comprehension on nested variable list',
    expr: `input.map(x, [x, x]).all(y, y.all(y, y.startsWith('a')))`,
    vars: { input: listOf(STRING) },
    hints: { input: 5, 'input.@items': 10 },
    want: r(13, 208),
  },
  { name: 'comprehension chaining with concat', expr: `[1,2,3,4,5].map(x, x).map(x, x) + [1]`, want: r(173, 173) },
  { name: 'nested comprehension', expr: `[1,2,3].all(i, i in [1,2,3].map(j, j + j))`, want: r(20, 230) },
  { name: 'nested dyn comprehension', expr: `dyn([1,2,3]).all(i, i in dyn([1,2,3]).map(j, j + j))`, want: r(21, 234) },
  { name: 'literal map access', expr: `{'hello': 'hi'}['hello'] != {'hello': 'bye'}['hello']`, want: r(63, 63) },
  { name: 'literal list access', expr: `['hello', 'hi'][0] != ['hello', 'bye'][1]`, want: r(23, 23) },
  { name: 'type call', expr: `type(1)`, want: r(1, 1) },
  { name: 'type call variable', expr: `type(self.val1)`, vars: { self: mapOf(STRING, INT) }, want: r(3, 3) },
  { name: 'type call variable equality', expr: `type(self.val1) == int`, vars: { self: mapOf(STRING, INT) }, want: r(5, 1844674407370955268) },
  { name: 'type literal equality cost', expr: `type(1) == int`, want: r(3, 1844674407370955266) },
  { name: 'namespace variable equality', expr: `self.val1 == 1.0`, vars: { 'self.val1': DOUBLE }, want: r(2, 2) },
  { name: 'simple map variable equality', expr: `self.val1 == 1.0`, vars: { self: mapOf(STRING, DOUBLE) }, want: r(3, 3) },
  {
    name: 'date-time math',
    expr: `self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')`,
    vars: { self: mapOf(STRING, TIMESTAMP) },
    want: r(6, 6),
  },
  {
    name: 'date-time math self-conversion',
    expr: `timestamp(self.val1) == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')`,
    vars: { self: mapOf(STRING, TIMESTAMP) },
    want: r(7, 7),
  },
  { name: 'boolean vars equal', expr: `self.val1 != self.val2`, vars: { self: mapOf(STRING, BOOL) }, want: r(5, 5) },
  { name: 'boolean var equals literal', expr: `self.val1 != true`, vars: { self: mapOf(STRING, BOOL) }, want: r(3, 3) },
  { name: 'double var equals literal', expr: `self.val1 == 1.0`, vars: { self: mapOf(STRING, DOUBLE) }, want: r(3, 3) },
  {
    name: 'bytes list max',
    expr: "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')].max()",
    options: {
      overloadEstimators: new Map<string, CallEstimator>([
        [
          'list_bytes_max',
          (_fn, _id, target, _args, sizeOf) => {
            if (!target || target.type.kind !== 'list') return undefined;
            // One per element, plus a traversal of each bytes element.
            const el = { path: target.path ? [...target.path, '@items'] : undefined, type: target.type.elem, expr: undefined, computedSize: undefined };
            const elCost = addRange(fixed(1), mulRangeFactor(sizeOf(el), 0.1));
            return { cost: mulRange(sizeOf(target), elCost) };
          },
        ],
      ]),
    },
    want: r(25, 35),
  },
];

describe('estimateCost: cel-go checker/cost_test.go', () => {
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(estimate(c), c.want));
  }
});

describe('estimateCost: saturation', () => {
  it('saturates at MAX_COST instead of wrapping', () => {
    const c: Case = { name: 'nested unknown', expr: 'a.all(x, a.all(y, a.all(z, true)))', vars: { a: intList }, want: r(0, 0) };
    assert.deepEqual(estimate(c), r(2, MAX_COST));
    assert.equal(UNKNOWN.max, MAX_COST);
  });
});
