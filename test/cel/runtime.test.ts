// Runtime semantics of the standard and optional libraries: equality, ordering, arithmetic errors,
// conversions and their formatting, timestamps and durations, optionals, comprehensions, and
// parse-only (unchecked) programs.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BOOL, DYN, INT, STRING, TIMESTAMP, listOf, mapOf } from '../../src/cel/types.js';
import { LiteralMap } from '../../src/cel/value-ops.js';
import { CelError, Duration, Optional, Timestamp, TypeValue, Uint } from '../../src/cel/values.js';
import type { Val } from '../../src/cel/values.js';
import { run, value } from './runtime-harness.js';
import type { RunOptions } from './runtime-harness.js';

/** Errors are checked without the optimizer, which would report constant ones at plan time. */
const errorOf = (src: string, opts?: RunOptions): string => {
  const v = value(src, { optimize: false, ...opts });
  assert.ok(v instanceof CelError, `${src} should fail, got ${String(v)}`);
  return v.message;
};
const eq = (src: string, want: Val, opts?: RunOptions): void => assert.deepEqual(value(src, opts), want, src);

describe('equality and ordering', () => {
  test('numbers compare across int, uint and double', () => {
    eq('dyn(1) == 1u', true);
    eq('dyn(1.0) == 1', true);
    eq('dyn(1.5) == 1', false);
    eq('[1, 2] == [1.0, 2u]', true);
    eq('dyn(-1) < 1u', true);
    eq('dyn(18446744073709551615u) > 9223372036854775807', true);
    eq('1 < 1.5 && 2u > 1.5 && 3.0 >= 3', true);
    eq('dyn(0.0/0.0) == 0.0/0.0', false);
    assert.equal(errorOf('1.0 < 0.0/0.0'), 'NaN values cannot be ordered');
  });

  test('values of different kinds are unequal, not errors', () => {
    eq("dyn('1') == 1", false);
    eq('dyn(null) == 0', false);
    eq('dyn([1]) == {1: 1}', false);
    eq("{'a': 1, 'b': 2} == {'b': 2, 'a': 1}", true);
    eq("{'a': 1} == {'a': 1, 'b': 2}", false);
    eq('[[1], [2]] == [[1], [2]]', true);
    eq('b"abc" == b"abc"', true);
    eq("timestamp('2021-01-01T01:00:00+01:00') == timestamp('2021-01-01T00:00:00Z')", true);
    eq('type(1) == type(2)', true);
    eq('type([1]) == type(["a"])', true);
    eq('optional.of(dyn(1)) == optional.of(dyn(1.0))', true);
    eq('optional.none() == optional.none()', true);
  });

  test('strings order by code point', () => {
    eq('"abc" < "abd"', true);
    eq('"\\uffff" < "\\U0001F600"', true);
    eq('b"\\x01" < b"\\xff"', true);
    eq('false < true', true);
  });

  test('!= turns an equality error into true', () => {
    // An error operand still propagates.
    assert.equal(errorOf('1/0 != 1'), 'division by zero');
  });
});

describe('arithmetic', () => {
  test('int64 and uint64 overflow and division errors', () => {
    assert.equal(errorOf('9223372036854775807 + 1'), 'integer overflow');
    assert.equal(errorOf('-9223372036854775808 - 1'), 'integer overflow');
    assert.equal(errorOf('-9223372036854775808 / -1'), 'integer overflow');
    assert.equal(errorOf('-9223372036854775808 % -1'), 'integer overflow');
    assert.equal(errorOf('-(-9223372036854775807 - 1)'), 'integer overflow');
    assert.equal(errorOf('5000000000 * 5000000000'), 'integer overflow');
    assert.equal(errorOf('0u - 1u'), 'unsigned integer overflow');
    assert.equal(errorOf('18446744073709551615u + 1u'), 'unsigned integer overflow');
    assert.equal(errorOf('1 / 0'), 'division by zero');
    assert.equal(errorOf('1 % 0'), 'modulus by zero');
    assert.equal(errorOf('1u / 0u'), 'division by zero');
    eq('-7 / 2', -3n);
    eq('-7 % 2', -1n);
    eq('7u / 2u', new Uint(3n));
    eq('1.0 / 0.0', Infinity);
  });

  test('strings, bytes and lists concatenate', () => {
    eq('"ab" + "cd"', 'abcd');
    eq('b"ab" + b"cd"', new Uint8Array([97, 98, 99, 100]));
    eq('[1] + [2, 3]', [1n, 2n, 3n]);
    eq('size("héllo😀")', 6n);
    eq('size(b"ab")', 2n);
    eq('size({"a": 1})', 1n);
  });
});

describe('logic', () => {
  test('&& and || absorb errors when another operand decides', () => {
    eq('1/0 == 1 || true', true);
    eq('true || 1/0 == 1', true);
    eq('1/0 == 1 && false', false);
    eq('false && 1/0 == 1', false);
    assert.equal(errorOf('1/0 == 1 || false'), 'division by zero');
    assert.equal(errorOf('true && 1/0 == 1'), 'division by zero');
    eq('dyn("x") || true', true);
    assert.equal(errorOf('dyn("x") && true'), 'no such overload');
  });

  test('the conditional needs a boolean', () => {
    eq('true ? 1 : 1/0', 1n);
    assert.equal(errorOf("dyn('cows') ? 1 : 2"), 'no such overload');
  });
});

describe('conversions', () => {
  test('int, uint and double', () => {
    eq('int(-1.9)', -1n);
    eq('int("-42")', -42n);
    eq('int(42u)', 42n);
    eq('uint(42.9)', new Uint(42n));
    eq('double("1e3")', 1000);
    eq('double("-Inf")', -Infinity);
    eq('double("0x1p-2")', 0.25);
    eq('int(timestamp("1969-12-31T23:59:59.5Z"))', -1n);
    eq('int(duration("1s"))', 1_000_000_000n);
    assert.equal(errorOf('int(9223372036854775807.0)', { optimize: false }), 'integer overflow');
    assert.equal(errorOf('int(dyn(1e99))'), 'integer overflow');
    assert.equal(errorOf('uint(dyn(-1))'), 'unsigned integer overflow');
    assert.equal(errorOf('int(dyn(18446744073709551615u))'), 'integer overflow');
    assert.equal(errorOf('int(dyn(" 1"))'), "type conversion error from 'string' to 'int'");
    assert.equal(errorOf('uint(dyn("+1"))'), "type conversion error from 'string' to 'uint'");
    assert.equal(errorOf('double(dyn("1e400"))'), "type conversion error from 'string' to 'double'");
    assert.equal(errorOf('bool(dyn("yes"))'), "type conversion error from 'string' to 'bool'");
    eq('bool("TRUE") && bool("t") && !bool("0")', true);
  });

  test('string() formats as cel-go does', () => {
    const cases: [string, string][] = [
      ['string(1e6)', '1e+06'],
      ['string(123456.0)', '123456'],
      ['string(0.0001)', '0.0001'],
      ['string(1e-5)', '1e-05'],
      ['string(-0.0)', '-0'],
      ['string(1.0/0.0)', '+Inf'],
      ['string(-1.0/0.0)', '-Inf'],
      ['string(0.0/0.0)', 'NaN'],
      ['string(1e100)', '1e+100'],
      ['string(3.14)', '3.14'],
      ['string(18446744073709551615u)', '18446744073709551615'],
      ['string(true)', 'true'],
      ['string(b"hi")', 'hi'],
      ['string(duration("1ns"))', '0.000000001s'],
      ['string(duration("-1.5h"))', '-5400s'],
      ['string(duration("1h2m3.5s"))', '3723.5s'],
      ['string(timestamp("2009-02-13T23:31:30.120Z"))', '2009-02-13T23:31:30.12Z'],
      ['string(timestamp("2021-01-01T10:00:00.5+01:00"))', '2021-01-01T10:00:00.5+01:00'],
      ['string(timestamp("2021-01-01T10:00:00+00:00"))', '2021-01-01T10:00:00Z'],
      ['string(timestamp("2021-01-01T10:00:00-05:30") + duration("1h"))', '2021-01-01T11:00:00-05:30'],
    ];
    for (const [src, want] of cases) eq(src, want);
    assert.equal(errorOf('string(dyn(b"\\xff"))'), 'invalid UTF-8 in bytes, cannot convert to string');
  });

  test('type() and type identifiers', () => {
    eq('type(1) == int && type(1u) == uint && type("") == string && type(null) == null_type', true);
    eq('type(duration("1s")) == google.protobuf.Duration', true);
    eq('type(optional.none()) == optional_type', true);
    eq('type(type) == type', true);
    assert.ok(value('int') instanceof TypeValue);
  });
});

describe('timestamps and durations', () => {
  test('parse RFC 3339 with Go leniency and cel-go range', () => {
    eq('timestamp("2021-01-01T1:02:03Z") == timestamp("2021-01-01T01:02:03Z")', true);
    eq('timestamp("2021-01-01T00:00:00.123456789123Z")', new Timestamp(1609459200123456789n));
    assert.equal(errorOf('timestamp(dyn("2021-01-01"))'), "type conversion error from 'string' to 'google.protobuf.Timestamp'");
    assert.equal(errorOf('timestamp(dyn("2021-02-30T00:00:00Z"))'), "type conversion error from 'string' to 'google.protobuf.Timestamp'");
    assert.equal(errorOf('timestamp(dyn(253402300800))'), 'timestamp overflow');
    assert.equal(errorOf('timestamp("9999-12-31T23:59:59Z") + duration("1s")'), 'timestamp overflow');
    assert.equal(errorOf('timestamp("0001-01-01T00:00:00Z") - duration("1ns")'), 'timestamp overflow');
    assert.equal(errorOf('timestamp("9999-12-31T23:59:59Z") - timestamp("0001-01-01T00:00:00Z")'), 'integer overflow');
  });

  test('durations parse as Go does', () => {
    eq('duration("1h2m3.5s")', new Duration(3723500000000n));
    eq('duration("-1.5h")', new Duration(-5400000000000n));
    eq('duration("1µs") == duration("1us")', true);
    eq('duration("0")', new Duration(0n));
    assert.equal(errorOf('duration(dyn("1d"))'), "type conversion error from 'string' to 'google.protobuf.Duration'");
    assert.equal(errorOf('duration(dyn("3000000h"))'), "type conversion error from 'string' to 'google.protobuf.Duration'");
    assert.equal(errorOf('duration(dyn(1))'), "type conversion error from 'int' to 'google.protobuf.Duration'");
    assert.equal(errorOf('duration(dyn("1constructor"))'), "type conversion error from 'string' to 'google.protobuf.Duration'");
    assert.equal(errorOf('duration("2562047h") + duration("2562047h")'), 'integer overflow');
  });

  test('calendar accessors in UTC, fixed offsets and IANA zones', () => {
    const t = { types: { t: TIMESTAMP }, vars: { t: value('timestamp("2023-03-26T01:30:45.678Z")') } };
    eq('[t.getFullYear(), t.getMonth(), t.getDate(), t.getDayOfMonth(), t.getDayOfWeek(), t.getDayOfYear()]', [2023n, 2n, 26n, 25n, 0n, 84n], t);
    eq('[t.getHours(), t.getMinutes(), t.getSeconds(), t.getMilliseconds()]', [1n, 30n, 45n, 678n], t);
    eq('t.getHours("Europe/Paris")', 3n, t);
    eq('t.getHours("America/New_York")', 21n, t);
    eq('t.getDate("America/New_York")', 25n, t);
    eq('t.getHours("+05:30") + t.getMinutes("+05:30")', 7n, t);
    eq('t.getHours("-02:30")', 23n, t);
    eq('t.getHours("UTC")', 1n, t);
    assert.equal(errorOf('t.getHours("Mars/Olympus")', t), 'unknown time zone Mars/Olympus');
    assert.equal(errorOf('t.getHours("x:00")', t), 'strconv.Atoi: parsing "x": invalid syntax');
  });

  test('duration accessors count whole units', () => {
    eq('[duration("90m").getHours(), duration("-90m").getHours(), duration("90m").getMinutes()]', [1n, -1n, 90n]);
    eq('[duration("1.5s").getSeconds(), duration("1.5s").getMilliseconds()]', [1n, 1500n]);
  });

  test('arithmetic', () => {
    eq('timestamp("2021-01-01T00:00:00Z") + duration("36h") == timestamp("2021-01-02T12:00:00Z")', true);
    eq('duration("1h") + timestamp("2021-01-01T00:00:00Z") == timestamp("2021-01-01T01:00:00Z")', true);
    eq('timestamp("2021-01-02T00:00:00Z") - timestamp("2021-01-01T00:00:00Z")', new Duration(86_400_000_000_000n));
    eq('-dyn(duration("1s"))', new Duration(-1_000_000_000n));
    eq('duration("1h") > duration("59m") && timestamp("2021-01-01T00:00:00Z") < timestamp("2021-01-01T00:00:01Z")', true);
  });
});

describe('strings and regexes', () => {
  test('contains, startsWith, endsWith, matches (RE2)', () => {
    eq('"hello".contains("ell") && "hello".startsWith("he") && "hello".endsWith("lo")', true);
    eq('"abc123".matches("[0-9]+$") && matches("abc", "^a")', true);
    eq('"x".matches("^(a|b)*$")', false);
    assert.match(errorOf('"a".matches(dyn("["))'), /^error parsing regexp: missing closing \]/);
  });
});

describe('lists, maps and indexing', () => {
  const types = { l: listOf(INT), m: mapOf(STRING, INT), d: DYN };
  const m = new LiteralMap();
  m.set('a', 1n);
  const vars = { l: [1n, 2n, 3n], m, d: 'str' };

  test('missing keys and indexes', () => {
    assert.equal(errorOf('m.b', { types, vars }), 'no such key: b');
    assert.equal(errorOf('m["zz"]', { types, vars }), 'no such key: zz');
    assert.equal(errorOf('l[3]', { types, vars }), 'index out of bounds: 3');
    assert.equal(errorOf('l[-1]', { types, vars }), 'index out of bounds: -1');
    assert.equal(errorOf('dyn(l)["x"]', { types, vars }), "unsupported index type 'string' in list");
    assert.equal(errorOf('dyn(l)[1.5]', { types, vars }), 'unsupported index value 1.5 in list');
    eq('dyn(l)[1.0] + dyn(l)[2u]', 5n, { types, vars });
    assert.equal(errorOf('d.foo', { types, vars }), 'no such key: foo');
    eq('has(d.foo)', false, { types, vars });
  });

  test('numeric map keys match across types', () => {
    eq('dyn({1: "a"})[1u]', 'a');
    eq('dyn({1: "a"})[1.0]', 'a');
    eq('dyn({1u: "a"})[1]', 'a');
    assert.equal(errorOf('dyn({1: "a"})[1.5]'), 'no such key: 1.5');
    eq('1u in dyn({1: "a"})', true);
    eq('{"a": 1, "a": 2}["a"]', 2n, { optimize: false });
  });

  test('membership', () => {
    eq('2 in [1, 2, 3] && !(4 in [1, 2, 3]) && "a" in {"a": 1}', true);
    eq('2.0 in dyn([1, 2])', true);
    eq('l.exists(x, x in [3])', true, { types, vars });
  });
});

describe('comprehensions', () => {
  test('macros', () => {
    eq('[1, 2, 3].all(x, x > 0) && [1, 2, 3].exists(x, x == 2) && [1, 2, 3].exists_one(x, x > 2)', true);
    eq('[1, 2, 3].map(x, x * 2)', [2n, 4n, 6n]);
    eq('[1, 2, 3].map(x, x > 1, x * 10)', [20n, 30n]);
    eq('[1, 2, 3].filter(x, x != 2)', [1n, 3n]);
    eq('{"a": 1, "b": 2}.map(k, k)', ['a', 'b']);
    eq('cel.bind(y, 3, y * y)', 9n);
  });

  test('errors in predicates are absorbed when the result is decided', () => {
    eq('[0, 1].exists(x, 1 / x == 1)', true);
    assert.equal(errorOf('[0, 2].exists(x, 1 / x == 1)'), 'division by zero');
    eq('[0, 1].all(x, 1 / x > 5)', false);
  });

  test('two-variable comprehensions', () => {
    eq('[5, 6].all(i, v, v > i)', true);
    eq('{"a": 1}.exists(k, v, k == "a" && v == 1)', true);
    eq('[10, 20].transformList(i, v, v + i)', [10n, 21n]);
    eq('[10, 20].transformList(i, v, i > 0, v)', [20n]);
    const m = value('{"a": 1, "b": 2}.transformMap(k, v, v * 10)') as LiteralMap;
    assert.deepEqual([...m.pairs()], [['a', 10n], ['b', 20n]]);
    const e = value('{"a": 1}.transformMapEntry(k, v, {v: k})') as LiteralMap;
    assert.deepEqual([...e.pairs()], [[1n, 'a']]);
    assert.equal(errorOf('[1, 2].transformMapEntry(i, v, {"k": v})'), 'insert failed: key k already exists');
  });

  test('accumulators do not leak mutability', () => {
    const types = { l: listOf(INT) };
    const r = value('cel.bind(a, l.map(x, x), [a + [9], a])', { types, vars: { l: [1n, 2n] } });
    assert.deepEqual(r, [[1n, 2n, 9n], [1n, 2n]]);
  });
});

describe('optionals', () => {
  test('construction and access', () => {
    eq('optional.of(1).value()', 1n);
    eq('optional.of(1).hasValue() && !optional.none().hasValue()', true);
    eq('optional.ofNonZeroValue(0).hasValue() || optional.ofNonZeroValue("").hasValue() || optional.ofNonZeroValue([]).hasValue()', false);
    eq('optional.none().orValue(3)', 3n);
    eq('optional.none().or(optional.of(2)).value()', 2n);
    eq('optional.of(1).or(optional.of(1/0)).value()', 1n);
    eq('optional.of(1).orValue(1/0)', 1n);
    assert.equal(errorOf('optional.none().value()'), 'optional.none() dereference');
    eq('[1, 2].first().value() + [1, 2].last().value()', 3n);
    eq('[].first().hasValue()', false);
    eq('optional.unwrap([optional.of(1), optional.none()])', [1n]);
    eq('[optional.of(1), optional.none()].unwrapOpt()', [1n]);
  });

  test('optional selection and indexing chain', () => {
    const types = { m: mapOf(STRING, mapOf(STRING, INT)), l: listOf(INT) };
    const inner = new LiteralMap();
    inner.set('b', 1n);
    const m = new LiteralMap();
    m.set('a', inner);
    const opts = { types, vars: { m, l: [7n] } };
    eq('m.?a.?b.orValue(0)', 1n, opts);
    eq('m.?a.b.orValue(0)', 1n, opts);
    eq('m.?x.b.orValue(0)', 0n, opts);
    eq('m.?a.c.hasValue()', false, opts);
    eq('l[?0].value() + l[?5].orValue(100)', 107n, opts);
    eq('m[?"a"][?"b"]', new Optional(1n), opts);
    eq('[?optional.none(), ?optional.of(2), 3]', [2n, 3n]);
    const lit = value('{?"a": optional.none(), ?"b": optional.of(1)}') as LiteralMap;
    assert.deepEqual([...lit.pairs()], [['b', 1n]]);
    eq('has(m.a) && has(m.a.b) && !has(m.a.z)', true, opts);
    eq('optional.of(m).a.b', new Optional(1n), opts);
  });
});

describe('parse-only programs', () => {
  test('identifiers and functions resolve by name', () => {
    const vars = { x: 2n, 'a.b': 'dotted', a: new LiteralMap() };
    eq('x + 1', 3n, { unchecked: true, vars });
    eq('a.b', 'dotted', { unchecked: true, vars });
    eq('int', value('int'), { unchecked: true });
    eq('google.protobuf.Duration == type(duration("1s"))', true, { unchecked: true });
    eq('optional.of(1).value()', 1n, { unchecked: true });
    eq('dyn(x) == 2u', true, { unchecked: true, vars });
    assert.equal(errorOf('y', { unchecked: true }), 'no such attribute(s): y');
    assert.match(errorOf('nope(1)', { unchecked: true }), /no such overload/);
    eq('y || true', true, { unchecked: true });
  });
});

describe('variables', () => {
  test('a declared variable missing from the activation is an error', () => {
    assert.equal(errorOf('x', { types: { x: INT } }), 'no such attribute(s): x');
    // Names of Object.prototype members are not mistaken for bound variables.
    assert.equal(errorOf('x.y', { types: { 'x.y': BOOL }, vars: {} }), 'no such attribute(s): x.y');
  });

  test('a variable bound to an error propagates it', () => {
    const r = run('x == 1', { types: { x: INT }, vars: { x: new CelError('boom') } });
    assert.deepEqual(r.value, new CelError('boom'));
  });
});
