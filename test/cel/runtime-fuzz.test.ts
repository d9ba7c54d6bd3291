// A differential fuzz: random well-typed expressions (ints, bools, strings, lists, maps; arithmetic that can
// overflow or divide by zero, indexing out of range, missing keys, `in` over plain and `dyn` operands,
// short-circuit logic, conditionals, comprehensions) through our engine, planned with and without cel-go's
// OptOptimize, and through @bufbuild/cel as an oracle. All three must agree, errors included: an
// optimization may not change what an expression means. The one rewrite cel-go does that changes a
// result (an erroring element in a constant, statically typed empty list: `1/0 in []` is false) is
// not generated: `[]` only ever appears as `dyn([])`, where cel-go leaves the overload unresolved.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCelError, isCelList, isCelMap, run as oracleRun } from '@bufbuild/cel';
import { CelError, CelMap } from '../../src/cel/values.js';
import type { Val } from '../../src/cel/values.js';
import { value } from './runtime-harness.js';
import { prng as rng } from '../prng.js';

type Ty = 'int' | 'bool' | 'string' | 'list' | 'map';


class Gen {
  private vars = 0;
  constructor(private readonly r: () => number) {}
  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)]!;
  }
  private leaf(t: Ty): string {
    switch (t) {
      // The minimum as arithmetic: @bufbuild/cel folds `-(-(-9223372036854775808))` where cel-go overflows.
      case 'int': return this.pick(['0', '1', '-1', '2', '7', '9223372036854775807', '(-9223372036854775807 - 1)']);
      case 'bool': return this.pick(['true', 'false']);
      case 'string': return this.pick(['""', '"a"', '"b"', '"ab"']);
      case 'list': return this.pick(['[1, 2]', '[0]', 'dyn([])', '[7, 1, 2]']);
      case 'map': return this.pick(['{"a": 1}', '{"a": 0, "b": 2}', 'dyn({})']);
    }
  }
  expr(t: Ty, depth: number): string {
    if (depth <= 0 || this.r() < 0.2) return this.leaf(t);
    const d = depth - 1;
    const sub = (x: Ty): string => this.expr(x, d);
    const dynOr = (s: string): string => (this.r() < 0.4 ? `dyn(${s})` : s);
    const common = [() => `(${sub('bool')} ? ${sub(t)} : ${sub(t)})`];
    const byType: Record<Ty, Array<() => string>> = {
      int: [
        () => `(${sub('int')} ${this.pick(['+', '-', '*', '/', '%'])} ${sub('int')})`,
        () => {
          // @bufbuild/cel folds a double negation `-(-x)` that cel-go evaluates (and overflows at the minimum).
          const x = sub('int');
          return x.startsWith('-') ? `(0 - ${x})` : `-(${x})`;
        },
        () => `size(${this.pick<Ty>(['string', 'list', 'map']) === 'string' ? sub('string') : sub('list')})`,
        () => `${dynOr(sub('list'))}[${sub('int')}]`,
        () => `${sub('map')}[${sub('string')}]`,
        () => `${sub('list')}.map(x${this.vars}, x${this.vars} * 2).size()`,
      ],
      bool: [
        () => `(${sub('bool')} ${this.pick(['&&', '||'])} ${sub('bool')})`,
        () => `!(${sub('bool')})`,
        () => `(${sub('int')} ${this.pick(['<', '<=', '>', '>=', '==', '!='])} ${sub('int')})`,
        () => `(${sub('string')} ${this.pick(['<', '==', '!='])} ${sub('string')})`,
        () => `(${dynOr(sub('int'))} in ${dynOr(sub('list'))})`,
        () => `(${dynOr(sub('string'))} in ${dynOr(sub('map'))})`,
        () => `(${sub('list')} == ${sub('list')})`,
        () => {
          const v = `e${this.vars++}`;
          return `${sub('list')}.${this.pick(['all', 'exists', 'exists_one'])}(${v}, ${v} ${this.pick(['>', '==', '!='])} ${sub('int')})`;
        },
      ],
      string: [() => `(${sub('string')} + ${sub('string')})`, () => `string(${sub('int')})`],
      list: [
        () => `(${sub('list')} + ${sub('list')})`,
        () => `[${sub('int')}, ${sub('int')}]`,
        () => {
          const v = `f${this.vars++}`;
          return `${sub('list')}.filter(${v}, ${v} ${this.pick(['>', '!='])} ${sub('int')})`;
        },
      ],
      map: [() => `{"a": ${sub('int')}}`, () => `{${sub('string')}: ${sub('int')}}`],
    };
    return this.pick([...byType[t], ...common])();
  }
}

type Plain = null | boolean | string | { int: string } | Plain[] | { map: [Plain, Plain][] } | 'error';

function ours(v: Val): Plain {
  if (v instanceof CelError) return 'error';
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return { int: v.toString() };
  if (Array.isArray(v)) return (v as Val[]).map(ours);
  if (v instanceof CelMap) return { map: [...v.keys()].map((k) => [ours(k), ours(v.get(k)!)] as [Plain, Plain]).sort(byKey) };
  return `unexpected ${String(v)}`;
}

function theirs(v: unknown): Plain {
  if (isCelError(v)) return 'error';
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return { int: v.toString() };
  if (isCelList(v)) return [...v].map(theirs);
  if (isCelMap(v)) return { map: [...v.entries()].map(([k, x]) => [theirs(k), theirs(x)] as [Plain, Plain]).sort(byKey) };
  return `unexpected ${String(v)}`;
}

const byKey = (a: [Plain, Plain], b: [Plain, Plain]): number => JSON.stringify(a[0]).localeCompare(JSON.stringify(b[0]));

function evaluate(expr: string, optimize: boolean): Plain {
  try {
    return ours(value(expr, { optimize }));
  } catch (e) {
    return `threw ${(e as Error).message}` as Plain;
  }
}

function oracle(expr: string): Plain {
  try {
    return theirs(oracleRun(expr, {}));
  } catch {
    return 'error';
  }
}

const COUNT = 2500;

test(`${COUNT} random expressions: optimized, unoptimized and @bufbuild/cel agree`, () => {
  const gen = new Gen(rng(20250523));
  const disagreements: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const expr = gen.expr((['int', 'bool', 'string', 'list', 'map'] as const)[i % 5]!, 4);
    const plain = JSON.stringify(evaluate(expr, false));
    const optimized = JSON.stringify(evaluate(expr, true));
    const other = JSON.stringify(oracle(expr));
    if (plain !== optimized || plain !== other) disagreements.push(`${expr}\n  unoptimized: ${plain}\n  optimized:   ${optimized}\n  oracle:      ${other}`);
  }
  assert.deepEqual(disagreements.slice(0, 10), []);
});
