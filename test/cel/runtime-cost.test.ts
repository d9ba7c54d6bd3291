// Runtime cost: cel-go's interpreter/runtimecost_test.go cases (no optimizer, presence tests cost 1
// unless noted), then Kubernetes' configuration (OptOptimize, PresenceTestHasCost(false)) and the
// cost limit.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COST_LIMIT_EXCEEDED, plan, CelPlanError } from '../../src/cel/program.js';
import { BOOL, BYTES, DYN, INT, STRING, listOf, mapOf } from '../../src/cel/types.js';
import type { CelType } from '../../src/cel/types.js';
import { LiteralMap } from '../../src/cel/value-ops.js';
import { CelError } from '../../src/cel/values.js';
import type { Val } from '../../src/cel/values.js';
import { cost, run } from './runtime-harness.js';
import { Env } from '../../src/cel/env.js';
import { BASE_LIBRARIES } from './runtime-harness.js';
import { parse } from '../../src/cel/parser.js';
import { REGEX_LIBRARY } from '../../src/cel/lib/regex.js';

const map = (entries: Record<string, Val>): LiteralMap => {
  const m = new LiteralMap();
  for (const [k, v] of Object.entries(entries)) m.set(k, v);
  return m;
};
const rand500 = 'x'.repeat(500);

interface Case {
  expr: string;
  want: number;
  types?: Record<string, CelType>;
  vars?: Record<string, Val>;
  presenceTestHasCost?: boolean;
}

// Costs as cel-go v0.23.2 computes them (interpreter/runtimecost_test.go TestRuntimeCost), with
// protobuf inputs replaced by maps of the same shape.
const CEL_GO_CASES: Case[] = [
  { expr: `"Hello World!"`, want: 0 },
  { expr: `input`, types: { input: listOf(INT) }, vars: { input: [1n, 2n] }, want: 1 },
  { expr: `input['key']`, types: { input: mapOf(STRING, STRING) }, vars: { input: map({ key: 'v' }) }, want: 2 },
  { expr: `input[0]`, types: { input: listOf(STRING) }, vars: { input: ['v'] }, want: 2 },
  { expr: `input['ke' + 'y']`, types: { input: mapOf(STRING, STRING) }, vars: { input: map({ key: 'v' }) }, want: 3 },
  { expr: `input[3-3]`, types: { input: listOf(STRING) }, vars: { input: ['v'] }, want: 3 },
  {
    expr: `has(input.testAttr.nestedAttr)`,
    types: { input: mapOf(STRING, mapOf(STRING, DYN)) },
    vars: { input: map({ testAttr: map({ nestedAttr: '0' }) }) },
    presenceTestHasCost: false,
    want: 2,
  },
  {
    expr: `has(input.testAttr.nestedAttr)`,
    types: { input: mapOf(STRING, mapOf(STRING, DYN)) },
    vars: { input: map({ testAttr: map({ nestedAttr: '0' }) }) },
    presenceTestHasCost: true,
    want: 3,
  },
  { expr: `[1, 2, 3]`, want: 10 },
  { expr: `{"a": 1, "b": 2, "c": 3}`, want: 30 },
  { expr: `input.all(x, true)`, types: { input: listOf(DYN) }, vars: { input: [] }, want: 2 },
  { expr: `input.all(x, x.all(y, true))`, types: { input: listOf(listOf(DYN)) }, vars: { input: [] }, want: 2 },
  { expr: `[1, 2, 3].all(x, true)`, want: 20 },
  { expr: `input.matches('[0-9]')`, types: { input: STRING }, vars: { input: rand500 }, want: 103 },
  { expr: `'123'.matches('[0-9]')`, want: 2 },
  { expr: `false || false`, want: 0 },
  { expr: `true || false`, want: 0 },
  {
    expr: `a || b || c || d`,
    types: { a: BOOL, b: BOOL, c: BOOL, d: BOOL },
    vars: { a: false, b: false, c: false, d: false },
    want: 4,
  },
  { expr: `true && false`, want: 0 },
  { expr: `false && true`, want: 0 },
  {
    expr: `a && b && c && d`,
    types: { a: BOOL, b: BOOL, c: BOOL, d: BOOL },
    vars: { a: true, b: true, c: true, d: true },
    want: 4,
  },
  { expr: `1 < 2`, want: 1 },
  { expr: `1 <= 2`, want: 1 },
  { expr: `1 == 2`, want: 1 },
  { expr: `2 > 1`, want: 1 },
  { expr: `2 >= 1`, want: 1 },
  { expr: `2 in [1, 2, 3]`, want: 13 },
  { expr: `1 + 1`, want: 1 },
  { expr: `1 - 1`, want: 1 },
  { expr: `1 / 1`, want: 1 },
  { expr: `1 * 1`, want: 1 },
  { expr: `1 % 1`, want: 1 },
  { expr: `true ? 1 : 2`, want: 0 },
  { expr: `size("123")`, want: 1 },
  { expr: `'12345678901234567890' == '123456789012345678901234567890'`, want: 2 },
  { expr: `string(input)`, types: { input: BYTES }, vars: { input: new Uint8Array(500).fill(65) }, want: 51 },
  { expr: `bytes(input)`, types: { input: STRING }, vars: { input: rand500 }, want: 51 },
  { expr: `string(1)`, want: 1 },
  {
    expr: `input.contains(arg1)`,
    types: { input: STRING, arg1: STRING },
    vars: { input: rand500, arg1: rand500 },
    want: 2502,
  },
  {
    expr: `input.matches('\\\\d+a\\\\d+b')`,
    types: { input: STRING },
    vars: { input: rand500 },
    want: 103,
  },
  { expr: `input.startsWith(arg1)`, types: { input: STRING, arg1: STRING }, vars: { input: 'idc', arg1: rand500 }, want: 3 },
  { expr: `input.endsWith(arg1)`, types: { input: STRING, arg1: STRING }, vars: { input: 'idc', arg1: rand500 }, want: 3 },
  { expr: `input.size()`, types: { input: STRING }, vars: { input: '500' }, want: 2 },
  { expr: `size(input)`, types: { input: STRING }, vars: { input: '500' }, want: 2 },
  {
    expr: `(x > 2 ? input1 : input2).all(y, true)`,
    types: { x: INT, input1: listOf(DYN), input2: listOf(DYN) },
    vars: { x: 1n, input1: [map({})], input2: [map({})] },
    want: 6,
  },
  { expr: `true ? false : 1 > 3`, want: 0 },
  { expr: `false ? false : 1 > 3`, want: 1 },
  {
    expr: `input.all(k, input[k].single_int32 > 3)`,
    types: { input: mapOf(STRING, mapOf(STRING, INT)) },
    vars: { input: map({ val: map({ single_int32: 0n }) }) },
    want: 9,
  },
  { expr: `input.all(k, input[k].all(x, true))`, types: { input: mapOf(STRING, mapOf(STRING, DYN)) }, vars: { input: map({}) }, want: 2 },
  { expr: `input.all(k, k.contains(k))`, types: { input: mapOf(STRING, DYN) }, vars: { input: map({}) }, want: 2 },
  {
    expr: `input.all(k, input[k].all(k, true) && k.contains(k))`,
    types: { input: mapOf(STRING, mapOf(STRING, DYN)) },
    vars: { input: map({}) },
    want: 2,
  },
  { expr: `(list1 + list2).all(x, true)`, types: { list1: listOf(INT), list2: listOf(INT) }, vars: { list1: [], list2: [] }, want: 4 },
  { expr: `"abcdefg".contains(str1 + str2)`, types: { str1: STRING, str2: STRING }, vars: { str1: 'val1', str2: 'val2222222' }, want: 6 },
  { expr: `(1 > 2 ? 5 : 3) > 1`, want: 2 },
  { expr: `(1 > 2 || 2 > 1) == true`, want: 3 },
  { expr: `[{'k1': 1}, {'k2': 2}].all(x, true)`, want: 77 },
  { expr: `[1,2,3,4,5].filter(x, x % 2 == 0)`, want: 62 },
  { expr: `[1,2,3,4,5].map(x, x)`, want: 86 },
  { expr: `[1,2,3,4,5].map(x, x).filter(x, x % 2 == 0)`, want: 138 },
  { expr: `[1,2,3,4,5].map(x, x).exists(x, x == 5) == true`, want: 118 },
  { expr: `[1,2,3,4,5].map(x, x).map(x, x)`, want: 162 },
  { expr: `[1,2,3,4,5].map(x, [x, x]).filter(z, z.size() == 2)`, want: 232 },
  { expr: `[1,2,3,4,5].map(x, [x, x]).all(y, y.all(y, y == 1))`, want: 171 },
  { expr: `[1,2,3,4,5].map(x, x).map(x, x) + [1]`, want: 173 },
  { expr: `[1,2,3].all(i, i in [1,2,3].map(j, j + j))`, want: 86 },
];

describe('runtime cost matches cel-go', () => {
  for (const c of CEL_GO_CASES) {
    test(`${c.expr}${c.presenceTestHasCost === false ? ' (presence free)' : ''}`, () => {
      const got = cost(c.expr, {
        types: c.types,
        vars: c.vars,
        optimize: false,
        presenceTestHasCost: c.presenceTestHasCost ?? true,
      });
      assert.equal(got, c.want);
    });
  }

  test('cost limit: at the limit succeeds, above it cancels', () => {
    const opts = { types: { str1: STRING, str2: STRING }, vars: { str1: 'val1', str2: 'val2222222' }, optimize: false };
    const at = run(`"abcdefg".contains(str1 + str2)`, { ...opts, costLimit: 6 });
    assert.equal(at.value, false);
    assert.equal(at.cost, 6);
    const above = run(`"abcdefg".contains(str1 + str2)`, { ...opts, costLimit: 5 });
    assert.ok(above.value instanceof CelError);
    assert.equal(above.value.message, COST_LIMIT_EXCEEDED);
  });

  test('the limit stops a runaway comprehension early', () => {
    const r = run(`l.map(a, l.map(b, l.map(c, a + b + c))).size() > 0`, {
      types: { l: listOf(INT) },
      vars: { l: Array.from({ length: 200 }, (_, i) => BigInt(i)) },
      costLimit: 10_000,
    });
    assert.ok(r.value instanceof CelError);
    assert.equal(r.value.message, 'operation cancelled: actual cost limit exceeded');
    assert.ok(r.cost < 10_100);
  });
});

describe('Kubernetes program options', () => {
  // OptOptimize folds constant aggregates and conversions, and turns `in` over a constant list
  // into a set lookup that records no call cost; presence tests cost nothing.
  const k8s = { types: { x: INT, m: mapOf(STRING, mapOf(STRING, DYN)), s: STRING } };

  test('constant literals and conversions fold to free constants', () => {
    assert.equal(cost(`[1, 2, 3]`, k8s), 0);
    assert.equal(cost(`{"a": [1, 2], "b": [3]}`, k8s), 0);
    assert.equal(cost(`duration('1h') + duration('1m')`, k8s), 1);
    assert.equal(cost(`[x, 2]`, k8s), 11);
  });

  test('`in` a constant list is a set lookup', () => {
    assert.equal(cost(`x in [1, 2, 3]`, { ...k8s, vars: { x: 2n } }), 1);
    assert.equal(run(`x in [1, 2, 3]`, { ...k8s, vars: { x: 2n } }).value, true);
    assert.equal(run(`x in [1.0, 3u]`, { ...k8s, vars: { x: 3n } }).value, true);
    assert.equal(run(`s in ['a', 'b']`, { ...k8s, vars: { s: 'c' } }).value, false);
    // An empty constant list never evaluates the element.
    assert.equal(cost(`x in []`, k8s), 0);
  });

  test('presence tests are free', () => {
    const vars = { m: map({ a: map({ b: 1n }) }) };
    assert.equal(cost(`has(m.a)`, { ...k8s, vars }), 1);
    assert.equal(cost(`has(m.a.b)`, { ...k8s, vars }), 2);
    assert.equal(cost(`m.a.b`, { ...k8s, vars }), 3);
  });

  test('a constant conversion that fails is a plan error', () => {
    const env = new Env(BASE_LIBRARIES);
    const parsed = parse(`int('x') == 1`);
    assert.ok(!('issues' in parsed));
    assert.throws(() => plan(parsed, env), (e: unknown) => e instanceof CelPlanError && /type conversion error/.test(e.message));
    assert.throws(() => plan(parse(`'a'.matches('(')`) as never, env), CelPlanError);
    // Without the optimizer `matches` compiles its pattern when called.
    assert.ok(plan(parse(`'a'.matches('(')`) as never, env, { optimize: false }).eval({}).value instanceof CelError);
  });

  test("the regex library's find/findAll compile constant patterns when planned", () => {
    const env = new Env([...BASE_LIBRARIES, REGEX_LIBRARY]);
    assert.throws(() => plan(parse(`'abc'.find('[')`) as never, env, { optimize: false }), CelPlanError);
    assert.equal(plan(parse(`'abc'.find('b+')`) as never, env).eval({}).value, 'b');
  });
});
