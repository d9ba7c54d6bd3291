// Differential test: the same expressions through our engine and through @bufbuild/cel (an
// independent CEL implementation, used only here as an oracle). Results are normalized to plain
// data; where both fail, only the fact of failure is compared.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCelError, isCelList, isCelMap, isCelUint, run as oracleRun } from '@bufbuild/cel';
import { CelError, CelMap, Uint } from '../../src/cel/values.js';
import type { Val } from '../../src/cel/values.js';
import { value } from './runtime-harness.js';

const EXPRESSIONS = [
  // Arithmetic and numbers.
  '1 + 2 * 3 - 4 / 2 % 3', '-7 / 2', '-7 % 2', '7u / 2u', '7u % 4u', '2.5 * 4.0 - 1.0 / 8.0', '-(3)', '-(2.5)',
  '9223372036854775807 + 1', '-9223372036854775808 - 1', '0u - 1u', '1 / 0', '1 % 0', '1.0 / 0.0 > 1e308',
  'int(3.9)', 'int(-3.9)', 'uint(3.9)', 'double(3)', 'double(3u)', 'int("-12")', 'uint("12")', 'double("2.5e3")',
  'int(9223372036854775807u)', 'uint(-1)', 'int(1e19)', 'string(255)', 'string(255u)', 'string(2.5)', 'string(true)',
  // Comparison.
  '1 < 2', '2u >= 2u', '1.5 <= 1.5', '"a" < "b"', 'b"a" < b"b"', 'false < true', 'dyn(1) == 1.0', 'dyn(1u) == 1',
  'dyn(2) < 2.5', 'dyn(3u) > 2', '[1, 2] == [1, 2]', '[1, 2] != [2, 1]', '{"a": 1} == {"a": 1}', 'null == null',
  'dyn(null) == 1', 'dyn("1") == 1', '1.0 / 0.0 == 1.0 / 0.0',
  // Logic.
  'true && false || true', '!true', 'false || 1 / 0 == 1 || true', 'true && (1 / 0 == 1 || true)', 'true ? 1 : 2',
  'false ? 1 : 2',
  // Strings and bytes.
  '"abc" + "def"', 'size("héllo")', '"hello".contains("ll")', '"hello".startsWith("he")', '"hello".endsWith("lo")',
  '"abc123".matches("^[a-z]+[0-9]+$")', 'size(b"abc")', 'b"ab" + b"cd" == b"abcd"', 'string(b"hi")', 'bytes("hi") == b"hi"',
  // Lists and maps.
  '[1, 2] + [3]', 'size([1, 2, 3])', '[1, 2, 3][1]', '[1, 2, 3][3]', '2 in [1, 2, 3]', '"a" in {"a": 1}', '{"a": 1}["a"]',
  '{"a": 1}["b"]', 'size({"a": 1, "b": 2})', '{1: "x"}[1]', '[[1], [2, 3]][1][0]', '{"a": {"b": [1, 2]}}.a.b[1]',
  // Macros.
  '[1, 2, 3].map(x, x * x)', '[1, 2, 3, 4].filter(x, x % 2 == 0)', '[1, 2, 3].all(x, x > 0)', '[1, 2, 3].exists(x, x == 2)',
  '[1, 2, 3].exists_one(x, x > 1)', '[1, 2, 3].map(x, x > 1, x + 10)', '{"a": 1, "b": 2}.all(k, k.size() == 1)',
  'has({"a": 1}.a)', 'has({"a": 1}.b)', '[0, 1].exists(x, 1 / x == 1)', '[].all(x, x > 0)',
  // Types.
  'type(1) == int', 'type(1u) == uint', 'type("a") == string', 'type([]) == list', 'type({}) == map', 'type(null) == null_type',
  'type(1.5) == double', 'type(b"") == bytes', 'type(true) == bool', 'type(type(1)) == type',
  // Timestamps and durations.
  'string(timestamp("2021-01-02T03:04:05Z") + duration("1h30m"))', 'string(duration("1h30m"))',
  'timestamp("2021-01-02T03:04:05Z").getFullYear()', 'timestamp("2021-01-02T03:04:05Z").getMonth()',
  'timestamp("2021-01-02T03:04:05Z").getDayOfMonth()', 'timestamp("2021-01-02T03:04:05Z").getDayOfWeek()',
  'timestamp("2021-01-02T03:04:05Z").getHours("America/Los_Angeles")', 'duration("3h").getMinutes()',
  'string(timestamp("2021-01-02T00:00:00Z") - timestamp("2021-01-01T00:00:00Z"))', 'int(timestamp("2021-01-01T00:00:00Z"))',
  'timestamp("2021-01-01T00:00:00Z") < timestamp("2021-01-01T00:00:01Z")', 'duration("1s") > duration("999ms")',
  // Conversions and formatting.
  'string(1e6)', 'string(123456.0)', 'string(0.0001)', 'string(1e-5)', 'string(1e100)', 'string(-2.5)',
  'string(duration("1ns"))', 'string(duration("-1.5h"))', 'string(timestamp("2021-01-01T00:00:00.120Z"))',
  'bool("true")', 'bool("f")', 'bool("yes")', 'int("0x10")', 'double("inf") > 0.0', 'uint("18446744073709551615")',
  'timestamp(1) == timestamp("1970-01-01T00:00:01Z")', 'timestamp("10000-01-01T00:00:00Z")',
  // Comprehension edge cases.
  '[1, 2, 3].filter(x, x > 5).size()', '[[1, 2], [3]].map(l, l.size())', '{"k": [1, 2]}.exists(k, 2 in {"k": [1, 2]}[k])',
  '[1, 2, 3].all(x, [4, 5].exists(y, y > x))', '[3, 1, 2].map(x, [x]).filter(l, l[0] != 1)',
];
// Not compared: optionals (@bufbuild/cel does not implement them; see runtime.test.ts).

/** Where @bufbuild/cel departs from cel-go v0.23.2, we assert cel-go's result instead. */
const CEL_GO_RESULTS: Record<string, Plain> = {
  'string(1e6)': '1e+06', // Go's %g
  'string(1e-5)': '1e-05',
  'string(timestamp("2021-01-01T00:00:00.120Z"))': '2021-01-01T00:00:00.12Z', // RFC3339Nano trims zeros
  'int("0x10")': 'error', // strconv.ParseInt(s, 10, 64)
  'double("inf") > 0.0': true, // strconv.ParseFloat accepts "inf"
  'timestamp(1) == timestamp("1970-01-01T00:00:01Z")': true, // int converts as Unix seconds
};

type Plain = null | boolean | string | { int: string } | { uint: string } | { double: number | string } | { bytes: string } | Plain[] | { map: [Plain, Plain][] } | 'error';

function ours(v: Val): Plain {
  if (v instanceof CelError) return 'error';
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return { int: v.toString() };
  if (typeof v === 'number') return { double: Number.isNaN(v) ? 'NaN' : v };
  if (v instanceof Uint) return { uint: v.value.toString() };
  if (v instanceof Uint8Array) return { bytes: Buffer.from(v).toString('hex') };
  if (Array.isArray(v)) return (v as Val[]).map(ours);
  if (v instanceof CelMap) return { map: [...v.keys()].map((k) => [ours(k), ours(v.get(k)!)] as [Plain, Plain]) };
  return `unsupported ${String(v)}`;
}

function theirs(v: unknown): Plain {
  if (isCelError(v)) return 'error';
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return { int: v.toString() };
  if (typeof v === 'number') return { double: Number.isNaN(v) ? 'NaN' : v };
  if (isCelUint(v)) return { uint: v.value.toString() };
  if (v instanceof Uint8Array) return { bytes: Buffer.from(v).toString('hex') };
  if (isCelList(v)) return [...v].map(theirs);
  if (isCelMap(v)) return { map: [...v.entries()].map(([k, x]) => [theirs(k), theirs(x)] as [Plain, Plain]) };
  return `unsupported ${String(v)}`;
}

const sortMaps = (p: Plain): Plain => {
  if (Array.isArray(p)) return p.map(sortMaps);
  if (p && typeof p === 'object' && 'map' in p) {
    return { map: p.map.map(([k, x]) => [sortMaps(k), sortMaps(x)] as [Plain, Plain]).sort((a, b) => JSON.stringify(a[0]).localeCompare(JSON.stringify(b[0]))) };
  }
  return p;
};

test('agrees with @bufbuild/cel on a corpus of expressions', () => {
  const disagreements: string[] = [];
  for (const expr of EXPRESSIONS) {
    let mine: Plain;
    try {
      mine = ours(value(expr, { optimize: false }));
    } catch (e) {
      mine = `threw ${(e as Error).message}` as Plain;
    }
    let oracle: Plain;
    if (expr in CEL_GO_RESULTS) {
      oracle = CEL_GO_RESULTS[expr]!;
    } else {
      try {
        oracle = theirs(oracleRun(expr, {}));
      } catch {
        oracle = 'error';
      }
    }
    const a = JSON.stringify(sortMaps(mine));
    const b = JSON.stringify(sortMaps(oracle));
    if (a !== b) disagreements.push(`${expr}\n  ours:   ${a}\n  oracle: ${b}`);
  }
  assert.deepEqual(disagreements, []);
});

test('`x in dyn(...)` returns the error of x, optimized or not (cel-go leaves the overload unresolved)', () => {
  for (const expr of ['1/0 in dyn([])', '1/0 in dyn([1])', '"a" + string(1/0) in dyn({})', '1/0 in dyn({})']) {
    for (const optimize of [false, true]) {
      const v = value(expr, { optimize });
      assert.ok(v instanceof CelError, `${expr} (optimize: ${optimize})`);
      assert.equal(v.message, 'division by zero', expr);
      assert.ok(isCelError(oracleRun(expr, {})), expr);
    }
  }
  // cel-go's constant-list shortcut, only where the checker resolved in_list: an empty typed list is false.
  assert.equal(value('1/0 in []', { optimize: true }), false);
  assert.ok(value('1/0 in []', { optimize: false }) instanceof CelError);
});
