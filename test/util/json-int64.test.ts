// JSON text in and out with int64s beyond JavaScript's safe integers (kube's convertNumber: integer
// literals within int64 are exact, everything else a float64).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJSON, stringifyJSON } from '../../src/util/json-int64.js';

test('integer literals beyond ±(2^53-1) within int64 read as bigint, others as numbers', () => {
  const v = parseJSON('{"a":9223372036854775807,"b":-9223372036854775808,"c":9007199254740993,"d":9007199254740991,' +
    '"e":9223372036854775808,"f":1e30,"g":12345678901234567890.5,"h":-9223372036854775809,"i":[9007199254740992, 1]}') as Record<string, unknown>;
  assert.equal(v['a'], 9223372036854775807n);
  assert.equal(v['b'], -9223372036854775808n);
  assert.equal(v['c'], 9007199254740993n);
  assert.equal(v['d'], 9007199254740991);
  assert.equal(v['e'], 9223372036854775808);
  assert.equal(v['f'], 1e30);
  assert.equal(v['g'], 12345678901234567890.5);
  assert.equal(v['h'], -9223372036854775809);
  assert.deepEqual(v['i'], [9007199254740992n, 1]);
});

test('long digit runs in strings and keys stay strings; escapes, nesting and __proto__ as JSON.parse', () => {
  const text = '{"12345678901234567890":"12345678901234567890","s":"a\\"9223372036854775807\\u00e9","n":[[],{},null,true,false,-0.5],' +
    '"__proto__":{"x":1},"big":9223372036854775807 }';
  const v = parseJSON(text) as Record<string, unknown>;
  const plain = JSON.parse(text) as Record<string, unknown>;
  assert.equal(v['12345678901234567890'], '12345678901234567890');
  assert.equal(v['s'], 'a"9223372036854775807é');
  assert.deepEqual(v['n'], plain['n']);
  assert.ok(Object.hasOwn(v, '__proto__'));
  assert.deepEqual(Object.keys(v), Object.keys(plain));
  assert.equal(v['big'], 9223372036854775807n);
  // Strings only: JSON.parse's own result, no bigint anywhere.
  assert.deepEqual(parseJSON('{"a":"12345678901234567890"}'), { a: '12345678901234567890' });
});

test('invalid JSON throws as JSON.parse does', () => {
  assert.throws(() => parseJSON('{"a":12345678901234567890'), SyntaxError);
  assert.throws(() => parseJSON('{"a":9223372036854775807,}'), SyntaxError);
});

test('stringifyJSON writes bigints as digits and matches JSON.stringify otherwise', () => {
  const text = '{"a":9223372036854775807,"b":[-9223372036854775808,9007199254740993,1.5,null],"c":{"d":"9223372036854775807"}}';
  assert.equal(stringifyJSON(parseJSON(text)), text);
  const o = { a: 1n << 62n, u: undefined, f: () => 1, arr: [undefined, 2n], d: new Date(0), t: { toJSON: () => 7 }, e: {}, l: [] };
  const asNumbers = JSON.stringify(o, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x));
  assert.equal(stringifyJSON(o), asNumbers.replace('4611686018427388000', '4611686018427387904'));
  const pretty = { a: [1n << 60n, { b: 2 }], c: {} };
  assert.equal(stringifyJSON(pretty, 2), JSON.stringify({ a: ['X', { b: 2 }], c: {} }, null, 2).replace('"X"', String(1n << 60n)));
  assert.equal(stringifyJSON({ a: 1 }), '{"a":1}');
  assert.throws(() => {
    const c: Record<string, unknown> = { x: 1n };
    c['self'] = c;
    stringifyJSON(c);
  });
});

test('hasDigitRun finds runs of n digits wherever they start, and nothing shorter', async () => {
  const { hasDigitRun } = await import('../../src/util/json-int64.js');
  for (let n = 1; n <= 20; n++) {
    for (let at = 0; at < 40; at++) {
      const pad = 'x'.repeat(at);
      assert.equal(hasDigitRun(`${pad}${'7'.repeat(n)}y${'x'.repeat(at % 7)}`, 16), n >= 16, `${n} at ${at}`);
      assert.equal(hasDigitRun(`${pad}${'1'.repeat(15)}a${'2'.repeat(15)}`, 16), false);
    }
  }
  assert.equal(hasDigitRun('', 16), false);
  assert.equal(hasDigitRun('1234567890123456', 16), true);
});

test('YAML bodies read integers as JSON does: int64s exact, beyond as float64s', async () => {
  const { parseKubeYaml } = await import('../../src/util/yaml.js');
  const { goYaml } = await import('../../src/util/go-yaml-encode.js');
  const v = parseKubeYaml('a: 9223372036854775807\nb: 0x7fffffffffffffff\nc: 1\nd: 9223372036854775808\ne: -9223372036854775808\nf: [9007199254740993, "9007199254740993"]\n');
  assert.deepEqual(v, { a: 9223372036854775807n, b: 9223372036854775807n, c: 1, d: 9223372036854775808, e: -9223372036854775808n, f: [9007199254740993n, '9007199254740993'] });
  assert.equal(goYaml({ a: 9223372036854775807n, f: [9007199254740993n, '9007199254740993'] }), 'a: 9223372036854775807\nf:\n- 9007199254740993\n- "9007199254740993"\n');
});
