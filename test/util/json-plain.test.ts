// sortKeysDeepChecked tells when its sorted copy may stand for a parse of its own JSON text (the store hands
// such a copy to watch events instead of parsing what it wrote), and rfc3339's once-a-second formatting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPlainJson, sortKeysDeep, sortKeysDeepChecked } from '../../src/util/json.js';
import { parseJSON, stringifyJSON } from '../../src/util/json-int64.js';
import { rfc3339 } from '../../src/util/time.js';

test('a plain sorted copy is what parsing its JSON text gives, keys in the same order', () => {
  const src = JSON.parse('{"b":{"z":[1,{"y":2.5,"x":0}],"a":null},"10":"ten","2":[],"a":{"é":"\\ud800","e":"😀"},"t":true}');
  const { copy, plain } = sortKeysDeepChecked(src);
  assert.equal(plain, true);
  const reparsed = parseJSON(stringifyJSON(copy));
  assert.deepEqual(copy, reparsed);
  assert.equal(JSON.stringify(copy), JSON.stringify(reparsed));
  assert.deepEqual(Object.keys(copy as object), ['2', '10', 'a', 'b', 't']);
  assert.deepEqual(Object.keys((copy as { a: object }).a), ['e', 'é']);
  assert.notEqual((copy as { b: unknown }).b, src.b, 'a copy at every depth');
  assert.deepEqual(sortKeysDeep(src), copy);
});

test('what JSON text cannot give back is not plain', () => {
  const cases: [string, unknown][] = [
    ['undefined member', { a: undefined }],
    ['array hole', [1, , 3]],
    ['NaN', { a: NaN }],
    ['Infinity', [Infinity]],
    ['-0 (written as 0)', { a: [-0] }],
    ['bigint', { n: 9007199254740993n }],
    ['function', { f: () => 1 }],
    ['class instance', { d: new Date(0) }],
    ['__proto__ member', JSON.parse('{"__proto__":{"p":1}}')],
    ['nested __proto__ member', JSON.parse('{"a":[{"__proto__":null}]}')],
  ];
  for (const [what, v] of cases) {
    assert.equal(sortKeysDeepChecked(v).plain, false, what);
    assert.equal(isPlainJson(what === '__proto__ member' || what === 'nested __proto__ member' ? sortKeysDeep(v) : v), false, `isPlainJson: ${what}`);
  }
  assert.equal(isPlainJson({ a: [1, 'x', null, false, { b: {} }] }), true);
});

test('rfc3339 formats whole seconds in UTC, also when asked twice in one second', () => {
  assert.equal(rfc3339(new Date('2024-02-29T23:59:59.999Z')), '2024-02-29T23:59:59Z');
  assert.equal(rfc3339(new Date('2024-02-29T23:59:59.001Z')), '2024-02-29T23:59:59Z');
  assert.equal(rfc3339(new Date('2024-03-01T00:00:00.000Z')), '2024-03-01T00:00:00Z');
  assert.equal(rfc3339(new Date(-1)), '1969-12-31T23:59:59Z');
  assert.match(rfc3339(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.throws(() => rfc3339(new Date(NaN)), RangeError);
});

test('sortKeysDeep orders keys as Array.prototype.sort does, in order already or not, few or many', () => {
  const alphabet = ['a', 'B', 'z', '_', '0', '9', '10', 'é', 'ß', '😀', '\uffff', '-', 'aa', 'a0', ''];
  let seed = 7;
  const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  for (let round = 0; round < 200; round++) {
    const n = rand(round % 10 === 0 ? 60 : 12);
    const keys = new Set<string>();
    while (keys.size < n) keys.add(alphabet[rand(alphabet.length)]! + alphabet[rand(alphabet.length)]! + (rand(3) ? '' : String(rand(100))));
    const list = [...keys];
    if (round % 3 === 0) list.sort();
    const obj = Object.fromEntries(list.map((k) => [k, { [k]: 1, a: 2, Z: 3 }]));
    const reference = (v: unknown): unknown =>
      typeof v === 'object' && v !== null ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, reference((v as Record<string, unknown>)[k])])) : v;
    assert.equal(JSON.stringify(sortKeysDeep(obj)), JSON.stringify(reference(obj)), `round ${round}`);
  }
});
