// ext.Strings (version 2, as Kubernetes 1.33 enables it): the cases of cel-go v0.23.2's
// ext/strings_test.go, called through the declared overloads.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STRINGS_LIBRARY, stringsLibrary } from '../../src/cel/lib/strings.js';
import { CelError, Duration, Timestamp, TypeValue, Uint } from '../../src/cel/values.js';
import { LiteralMap } from '../../src/cel/value-ops.js';
import { STRING, listOf } from '../../src/cel/types.js';
import { assertError, call, cost } from './lib-support.js';

const S = STRINGS_LIBRARY;
const fmt = (format: string, ...args: Parameters<typeof call>[2][]) => call(S, 'string_format', format, args);

describe('strings library declarations', () => {
  it('has the version 2 functions, without reverse', () => {
    const names = S.functions.map((f) => f.name).sort();
    assert.deepEqual(names, [
      'charAt', 'format', 'indexOf', 'join', 'lastIndexOf', 'lowerAscii', 'replace', 'split', 'strings.quote', 'substring', 'trim', 'upperAscii',
    ]);
    assert.ok(stringsLibrary(3).functions.some((f) => f.name === 'reverse'));
    assert.ok(!stringsLibrary(0).functions.some((f) => f.name === 'format'));
  });

  it('declares cel-go overload ids and signatures', () => {
    const ids = S.functions.flatMap((f) => f.overloads.map((o) => `${o.id}:${o.member ? 'member' : 'global'}:${o.params.length}`));
    for (const want of [
      'string_char_at_int:member:2', 'string_index_of_string:member:2', 'string_index_of_string_int:member:3',
      'string_last_index_of_string:member:2', 'string_last_index_of_string_int:member:3', 'string_lower_ascii:member:1',
      'string_replace_string_string:member:3', 'string_replace_string_string_int:member:4', 'string_split_string:member:2',
      'string_split_string_int:member:3', 'string_substring_int:member:2', 'string_substring_int_int:member:3', 'string_trim:member:1',
      'string_upper_ascii:member:1', 'string_format:member:2', 'strings_quote:global:1', 'list_join:member:1', 'list_join_string:member:2',
    ]) assert.ok(ids.includes(want), want);
  });
});

describe('charAt, indexOf, lastIndexOf', () => {
  it('index by code point', () => {
    assert.equal(call(S, 'string_char_at_int', 'tacocat', 3n), 'o');
    assert.equal(call(S, 'string_char_at_int', 'tacocat', 7n), '');
    assert.equal(call(S, 'string_char_at_int', '©αT', 0n), '©');
    assert.equal(call(S, 'string_char_at_int', '©αT', 1n), 'α');
    assert.equal(call(S, 'string_char_at_int', '😀αT', 1n), 'α');
    assertError(call(S, 'string_char_at_int', 'tacocat', 30n), 'index out of range: 30');
    assertError(call(S, 'string_char_at_int', 'tacocat', -1n), 'index out of range: -1');
  });

  it('indexOf', () => {
    const io = (s: string, sub: string, off?: bigint) =>
      off === undefined ? call(S, 'string_index_of_string', s, sub) : call(S, 'string_index_of_string_int', s, sub, off);
    assert.equal(io('tacocat', ''), 0n);
    assert.equal(io('tacocat', 'ac'), 1n);
    assert.equal(io('tacocat', 'none'), -1n);
    assert.equal(io('tacocat', '', 3n), 3n);
    assert.equal(io('tacocat', 'a', 3n), 5n);
    assert.equal(io('tacocat', 'at', 3n), 5n);
    assert.equal(io('ta©o©αT', '©'), 2n);
    assert.equal(io('ta©o©αT', '©', 3n), 4n);
    assert.equal(io('ta©o©αT', '©αT', 3n), 4n);
    assert.equal(io('ta©o©αT', '©α', 5n), -1n);
    assert.equal(io('t😀©o©αT', '©', 3n), 4n);
    assert.equal(io('ijk', 'k'), 2n);
    assert.equal(io('hello wello', 'hello wello'), 0n);
    assert.equal(io('hello wello', 'ello', 6n), 7n);
    assert.equal(io('hello wello', 'elbo room!!'), -1n);
    assert.equal(io('hello wello', 'elbo room!!!'), -1n);
    // v0.23.2: an offset past the end finds nothing (later cel-go versions report an error).
    assert.equal(io('tacocat', 'a', 30n), -1n);
    assertError(io('tacocat', 'a', -1n), 'index out of range: -1');
  });

  it('lastIndexOf', () => {
    const lio = (s: string, sub: string, off?: bigint) =>
      off === undefined ? call(S, 'string_last_index_of_string', s, sub) : call(S, 'string_last_index_of_string_int', s, sub, off);
    assert.equal(lio('tacocat', ''), 7n);
    assert.equal(lio('tacocat', 'at'), 5n);
    assert.equal(lio('tacocat', 'none'), -1n);
    assert.equal(lio('tacocat', '', 3n), 3n);
    assert.equal(lio('tacocat', 'a', 3n), 1n);
    assert.equal(lio('ta©o©αT', '©'), 4n);
    assert.equal(lio('ta©o©αT', '©', 3n), 2n);
    assert.equal(lio('ta©o©αT', '©α', 4n), 4n);
    assert.equal(lio('😀a😀b', '😀'), 2n);
    assert.equal(lio('hello wello', 'ello', 6n), 1n);
    assert.equal(lio('hello wello', 'low'), -1n);
    assert.equal(lio('hello wello', 'elbo room!!'), -1n);
    assert.equal(lio('hello wello', 'elbo room!!!'), -1n);
    assert.equal(lio('hello wello', 'hello wello'), 0n);
    assert.equal(lio('bananananana', 'nana', 7n), 6n);
    assert.equal(lio('tacocat', 'a', 30n), -1n);
    assertError(lio('tacocat', 'a', -1n), 'index out of range: -1');
  });
});

describe('case, replace, split, substring, trim', () => {
  it('lowerAscii and upperAscii touch ASCII only', () => {
    assert.equal(call(S, 'string_lower_ascii', 'TacoCat'), 'tacocat');
    assert.equal(call(S, 'string_lower_ascii', 'TacoCÆt Xii'), 'tacocÆt xii');
    assert.equal(call(S, 'string_upper_ascii', 'tacoCat'), 'TACOCAT');
    assert.equal(call(S, 'string_upper_ascii', 'tacoCαt'), 'TACOCαT');
  });

  it('replace, with and without a limit', () => {
    const r = (s: string, a: string, b: string, n?: bigint) =>
      n === undefined ? call(S, 'string_replace_string_string', s, a, b) : call(S, 'string_replace_string_string_int', s, a, b, n);
    assert.equal(r('12 days 12 hours', '{0}', '2'), '12 days 12 hours');
    assert.equal(r('{0} days {0} hours', '{0}', '2'), '2 days 2 hours');
    assert.equal(r(r('{0} days {0} hours', '{0}', '2', 1n) as string, '{0}', '23'), '2 days 23 hours');
    assert.equal(r('1 ©αT taco', 'αT', 'o©α'), '1 ©o©α taco');
    assert.equal(r('hello hello', '', '_'), '_h_e_l_l_o_ _h_e_l_l_o_');
    assert.equal(r('hello hello', 'h', ''), 'ello ello');
    assert.equal(r('hello hello', 'he', 'we', -1n), 'wello wello');
    assert.equal(r('hello hello', 'he', 'we', 1n), 'wello hello');
    assert.equal(r('hello hello', 'he', 'we', 0n), 'hello hello');
    assert.equal(r('a😀b', '', '-', 2n), '-a-😀b');
  });

  it('split, with and without a limit', () => {
    const sp = (s: string, sep: string, n?: bigint) =>
      n === undefined ? call(S, 'string_split_string', s, sep) : call(S, 'string_split_string_int', s, sep, n);
    assert.deepEqual(sp('hello world', ' '), ['hello', 'world']);
    assert.deepEqual(sp('hello world events!', ' ', 0n), []);
    assert.deepEqual(sp('hello world events!', ' ', 1n), ['hello world events!']);
    assert.deepEqual(sp('hello world events!', ' ', 2n), ['hello', 'world events!']);
    assert.deepEqual(sp('o©o©o©o', '©', -1n), ['o', 'o', 'o', 'o']);
    assert.deepEqual(sp('a😀b', ''), ['a', '😀', 'b']);
    assert.deepEqual(sp('abc', '', 2n), ['a', 'bc']);
    assert.deepEqual(sp('', ','), ['']);
    assert.deepEqual(sp('', ''), []);
  });

  it('substring by code points', () => {
    const sub = (s: string, a: bigint, b?: bigint) =>
      b === undefined ? call(S, 'string_substring_int', s, a) : call(S, 'string_substring_int_int', s, a, b);
    assert.equal(sub('tacocat', 4n), 'cat');
    assert.equal(sub('tacocat', 7n), '');
    assert.equal(sub('tacocat', 0n, 4n), 'taco');
    assert.equal(sub('tacocat', 4n, 4n), '');
    assert.equal(sub('ta©o©αT', 2n, 6n), '©o©α');
    assert.equal(sub('ta©o©αT', 7n, 7n), '');
    assertError(sub('tacocat', 40n), 'index out of range: 40');
    assertError(sub('tacocat', -1n), 'index out of range: -1');
    assertError(sub('tacocat', 1n, 50n), 'index out of range: 50');
    assertError(sub('tacocat', 49n, 50n), 'index out of range: 49');
    assertError(sub('tacocat', 4n, 3n), 'invalid substring range. start: 4, end: 3');
  });

  it('trim removes Unicode white space only', () => {
    const t = (s: string) => call(S, 'string_trim', s);
    assert.equal(t(' \f\n\r\t\vtext  '), 'text');
    assert.equal(t('\u0085\u00a0\u1680text'), 'text');
    assert.equal(t('text\u2000\u2001\u2002\u2003\u2004\u2004\u2006\u2007\u2008\u2009'), 'text');
    assert.equal(t('\u200atext\u2028\u2029\u202F\u205F\u3000'), 'text');
    assert.equal(t('\u180etext\u200b\u200c\u200d\u2060\ufeff'), '\u180etext\u200b\u200c\u200d\u2060\ufeff');
  });
});

describe('join and strings.quote', () => {
  it('join', () => {
    assert.equal(call(S, 'list_join', ['x', 'y']), 'xy');
    assert.equal(call(S, 'list_join_string', ['x', 'y'], '-'), 'x-y');
    assert.equal(call(S, 'list_join', []), '');
    assert.equal(call(S, 'list_join_string', [], '-'), '');
    assertError(call(S, 'list_join', ['x', 1n]), 'join: invalid input: 1');
  });

  it('quote escapes CEL escape sequences only', () => {
    const q = (s: string) => call(S, 'strings_quote', s);
    assert.equal(q('first\nsecond'), '"first\\nsecond"');
    assert.equal(q('bell\x07'), '"bell\\a"');
    assert.equal(q('\bbackspace'), '"\\bbackspace"');
    assert.equal(q('\fform feed'), '"\\fform feed"');
    assert.equal(q('carriage \r return'), '"carriage \\r return"');
    assert.equal(q('horizontal tab\t'), '"horizontal tab\\t"');
    assert.equal(q('vertical \v tab'), '"vertical \\v tab"');
    assert.equal(q('double \\\\ slash'), '"double \\\\\\\\ slash"');
    assert.equal(q('two escape sequences \x07\n'), '"two escape sequences \\a\\n"');
    assert.equal(q('verbatim'), '"verbatim"');
    assert.equal(q('ends with \\'), '"ends with \\\\"');
    assert.equal(q('\\ starts with'), '"\\\\ starts with"');
    assert.equal(q('printable unicode😀'), '"printable unicode😀"');
    assert.equal(q('mid string " quote'), '"mid string \\" quote"');
    assert.equal(q('завтра'), '"завтра"');
    assert.equal(q(''), '""');
    assert.equal(q('lone \ud800 surrogate'), '"lone \ufffd surrogate"');
  });

  it('wrong argument types are "no such overload", errors travel on', () => {
    assertError(call(S, 'string_char_at_int', 42n, 2n), 'no such overload');
    assertError(call(S, 'string_char_at_int', 'hello', true), 'no such overload');
    assertError(call(S, 'string_index_of_string', 'hello', true), 'no such overload');
    assertError(call(S, 'string_substring_int_int', 'tacocat', 0n, false), 'no such overload');
    assertError(call(S, 'string_split_string', new CelError('boom'), 'x'), 'boom');
  });
});

describe('format', () => {
  it('substitutes clauses (cel-go TestStringFormat)', () => {
    assert.equal(fmt('no substitution'), 'no substitution');
    assert.equal(fmt('str is %s and some more', 'filler'), 'str is filler and some more');
    assert.equal(fmt('%% and also %%'), '% and also %');
    assert.equal(fmt('%%%s%%', 'text'), '%text%');
    assert.equal(fmt('%s%%', 'percent on the right'), 'percent on the right%');
    assert.equal(fmt('%%%s', 'percent on the left'), '%percent on the left');
    assert.equal(
      fmt('%d %d %d, %s %s %s, %d %d %d, %s %s %s', 1n, 2n, 3n, 'A', 'B', 'C', 4n, 5n, 6n, 'D', 'E', 'F'),
      '1 2 3, A B C, 4 5 6, D E F',
    );
    assert.equal(fmt('%.3f', 1.2345), '1.234');
    assert.equal(fmt('this is 5 in binary: %b', 5n), 'this is 5 in binary: 101');
    assert.equal(fmt('this is -5 in binary: %b', -5n), 'this is -5 in binary: -101');
    assert.equal(fmt('unsigned 64 in binary: %b', new Uint(64n)), 'unsigned 64 in binary: 1000000');
    assert.equal(fmt('bit set from bool: %b', true), 'bit set from bool: 1');
    assert.equal(fmt('%o', 11n), '13');
    assert.equal(fmt('%o', -11n), '-13');
    assert.equal(fmt('this is an unsigned octal: %o', new Uint(65535n)), 'this is an unsigned octal: 177777');
    assert.equal(fmt('%x is 30 in hexadecimal', 30n), '1e is 30 in hexadecimal');
    assert.equal(fmt('%X is 20 in hexadecimal', 30n), '1E is 20 in hexadecimal');
    assert.equal(fmt('%x is -30 in hexadecimal', -30n), '-1e is -30 in hexadecimal');
    assert.equal(fmt('%X is 6000 in hexadecimal', new Uint(6000n)), '1770 is 6000 in hexadecimal');
    assert.equal(fmt('%x', 'Hello world!'), '48656c6c6f20776f726c6421');
    assert.equal(fmt('%X', 'Hello world!'), '48656C6C6F20776F726C6421');
    assert.equal(fmt('%x', new TextEncoder().encode('byte string')), '6279746520737472696e67');
    assert.equal(fmt('%x', new Uint8Array([0, 0, ...new TextEncoder().encode('byte string'), 0])), '00006279746520737472696e6700');
    assert.equal(fmt('%X', new TextEncoder().encode('byte string')), '6279746520737472696E67');
    assert.equal(fmt('%d', new Uint(64n)), '64');
  });

  it('formats doubles as golang.org/x/text does for en_US', () => {
    assert.equal(fmt('%.6e', 1052.032911275), '1.052033\u202f\u00d7\u202f10\u2070\u00b3');
    assert.equal(fmt('%f', 2.71828), '2.718280');
    assert.equal(fmt('%e', 2.71828), '2.718280\u202f\u00d7\u202f10\u2070\u2070');
    assert.equal(fmt('unescaped unicode: %e, escaped unicode: %e', 2.71828, 2.71828),
      'unescaped unicode: 2.718280\u202f×\u202f10⁰⁰, escaped unicode: 2.718280\u202f\u00d7\u202f10\u2070\u2070');
    assert.equal(fmt('%e', 0.00012), '1.200000\u202f×\u202f10⁻⁰⁴');
    assert.equal(fmt('%f', 'NaN'), 'NaN');
    assert.equal(fmt('%f', 'Infinity'), '∞');
    assert.equal(fmt('%f', '-Infinity'), '-∞');
    assert.equal(fmt('%f', 1234567.5), '1,234,567.500000');
    assert.equal(fmt('%.2f', -1234.567), '-1,234.57');
    assert.equal(fmt('%.3f', 4.5), '4.500');
    // Exact ties round to even; values just above or below round as Go's strconv does.
    assert.equal(fmt('%.0f', 123.0), '123');
    assert.equal(fmt('%.0f', 3.5001), '4');
    assert.equal(fmt('%.0f', 3.4999), '3');
    assert.equal(fmt('%.0f', 1.5), '2');
    assert.equal(fmt('%.0f', 2.5), '2');
    assert.equal(fmt('%.3f', 123.4999), '123.500');
    assert.equal(fmt('%.3f', -123.4994), '-123.499');
    assert.equal(fmt('%.5f', -1.2), '-1.20000');
  });

  it('renders %s of every supported type', () => {
    assert.equal(fmt('%s', 2.71), '2.71');
    assert.equal(fmt('%s', [2.71]), '[2.710000]');
    assert.equal(fmt('%s', 0.000000002), '2e-09');
    assert.equal(fmt('%s', [0.000000002]), '[0.000000]');
    assert.equal(fmt('%s', 56.8), '56.8');
    assert.equal(fmt('%s', NaN), 'NaN');
    assert.equal(fmt('%s', Infinity), '+Inf');
    assert.equal(fmt('%s', -Infinity), '-Inf');
    assert.equal(fmt('%s', [NaN, Infinity, -Infinity]), '["NaN", "+Inf", "-Inf"]');
    assert.equal(fmt('null: %s', null), 'null: null');
    assert.equal(fmt('%s', 999999999999n), '999999999999');
    assert.equal(fmt('some bytes: %s', new TextEncoder().encode('xyz')), 'some bytes: xyz');
    assert.equal(fmt('type is %s', new TypeValue(STRING)), 'type is string');
    assert.equal(fmt('type is %s', new TypeValue(listOf(STRING))), 'type is list');
    assert.equal(fmt('%s', new Timestamp(1675467080000000000n)), '2023-02-03T23:31:20Z');
    assert.equal(fmt('%s', new Duration(6347000000000n)), '6347s');
    assert.equal(fmt('%s', new Duration(2n)), '0.000000002s');
    assert.equal(
      fmt('%s', ['abc', 3.14, null, [9n, 8n, 7n, 6n], new Timestamp(1675467080000000000n)]),
      '["abc", 3.140000, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]',
    );
    const m = new LiteralMap();
    m.set('key1', new TextEncoder().encode('xyz'));
    m.set('key5', null);
    m.set('key2', new Duration(7200000000000n));
    m.set('key4', true);
    m.set('key3', 2.71828);
    assert.equal(fmt('%s', m), '{"key1":b"xyz", "key2":duration("7200s"), "key3":2.718280, "key4":true, "key5":null}');
    const keys = new LiteralMap();
    keys.set(1n, 'value1');
    keys.set(new Uint(2n), 'value2');
    keys.set(true, NaN);
    assert.equal(fmt('map with multiple key types: %s', keys), 'map with multiple key types: {1:"value1", 2:"value2", true:"NaN"}');
    const dyn = new LiteralMap();
    dyn.set('strKey', 'x');
    dyn.set(true, 42n);
    dyn.set(6n, new Duration(422000000000n));
    assert.equal(fmt('dyntype map: %s', dyn), 'dyntype map: {"strKey":"x", 6:duration("422s"), true:42}');
    assert.equal(fmt('true bool: %s, false bool: %s', true, false), 'true bool: true, false bool: false');
  });

  it('reports cel-go runtime errors', () => {
    assertError(fmt('%a', 1n), 'could not parse formatting clause: unrecognized formatting clause "a"');
    assertError(fmt('%d %d %d', 0n, 1n), 'index 2 out of range');
    assertError(fmt('string is %b', 'abc'), 'error during formatting: only integers and bools can be formatted as binary, was given string');
    assertError(fmt('%d', new Duration(1802000000000n)),
      'error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration');
    assertError(fmt('octal: %o', 'a string'), 'error during formatting: octal clause can only be used on integers, was given string');
    assertError(fmt('double is %x', 0.5), 'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double');
    assertError(fmt('double is %E', 0.5), 'could not parse formatting clause: unrecognized formatting clause "E"');
    assertError(fmt('null: %d', null), 'error during formatting: decimal clause can only be used on integers, was given null_type');
    assertError(fmt('null: %e', null), 'error during formatting: scientific clause can only be used on doubles, was given null_type');
    assertError(fmt('null: %f', null), 'error during formatting: fixed-point clause can only be used on doubles, was given null_type');
    assertError(fmt('null: %x', null), 'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given null_type');
    assertError(fmt('null: %X', null), 'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given null_type');
    assertError(fmt('null: %b', null), 'error during formatting: only integers and bools can be formatted as binary, was given null_type');
    assertError(fmt('null: %o', null), 'error during formatting: octal clause can only be used on integers, was given null_type');
    assertError(fmt('%s %s', 'abc'), 'index 1 out of range');
    assertError(fmt('filler %'), 'index 0 out of range');
    assertError(fmt('double is %.34', 5.0), 'could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
    assertError(fmt('%s', new Uint8Array([0xff])),
      'error during formatting: could not convert argument "invalid UTF-8 in bytes, cannot convert to string" to string');
  });
});

describe('runtime costs (library/cost.go CallCost, cel-go defaults)', () => {
  it('charges string traversals', () => {
    assert.equal(cost(S, 'string_lower_ascii', 'a'.repeat(25)), 3);
    assert.equal(cost(S, 'string_substring_int', '😀'.repeat(10), 1n), 1);
    assert.equal(cost(S, 'string_replace_string_string', 'a'.repeat(25), 'a', 'b'), 5);
    assert.equal(cost(S, 'string_split_string', 'a,b,c,d,e,f', ','), 3);
    // indexOf uses the lists traversal: UTF-8 bytes × 0.1, truncated.
    assert.equal(cost(S, 'string_index_of_string', 'a'.repeat(19), 'b'), 1);
    assert.equal(cost(S, 'string_index_of_string', '😀'.repeat(5), 'b'), 2);
    assert.equal(cost(S, 'list_join_string', ['abc', 'def'], '-'), 2);
    assert.equal(cost(S, 'string_format', 'no substitution'), 2);
    assert.equal(cost(S, 'strings_quote', 'this is a very very very long string used to ensure that cost tracking works'), 8);
    assert.equal(cost(S, 'string_char_at_int', 'abc', 1n), 1);
  });
});
