// sortKeysDeepChecked tells when its sorted copy may stand for a parse of its own JSON text (the store hands
// such a copy to watch events instead of parsing what it wrote), and rfc3339's once-a-second formatting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPlainJson, sortKeysDeep, sortKeysDeepChecked, sortKeysDeepShared } from '../../src/util/json.js';
import { prng } from '../prng.js';
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

test('sortKeysDeepShared: the same text and plainness as sortKeysDeepChecked, nodes in order kept, the source unchanged', () => {
  const rand = prng(23);
  const keysPool = ['a', 'b', 'z', 'B', '_', '0', '9', '10', 'é', '😀', 'aa', '__proto__', 'toJSON'];
  const scalars: unknown[] = ['s', '', 0, 1.5, -0, NaN, Infinity, true, false, null, undefined, 9007199254740993n];
  const gen = (depth: number): unknown => {
    const r = rand();
    if (depth > 4 || r < 0.35) return scalars[Math.floor(rand() * scalars.length)];
    if (r < 0.5) return Array.from({ length: Math.floor(rand() * 4) }, () => gen(depth + 1));
    if (r < 0.53) return new Date(0);
    const keys = [...new Set(Array.from({ length: Math.floor(rand() * 5) }, () => keysPool[Math.floor(rand() * keysPool.length)]!))];
    // Half of the objects are made in order, as most of a body is.
    if (rand() < 0.5) keys.sort();
    const text = `{${keys.map((k) => `${JSON.stringify(k)}:0`).join(',')}}`;
    // Parsed, so that a `__proto__` member is an own member as a request body's is.
    const o = JSON.parse(text) as Record<string, unknown>;
    for (const k of keys) Object.defineProperty(o, k, { value: gen(depth + 1), enumerable: true, writable: true, configurable: true });
    return o;
  };
  const text = (x: unknown): string => {
    try {
      return JSON.stringify(x) ?? 'undefined';
    } catch (e) {
      return `throws ${(e as Error).message}`;
    }
  };
  let kept = 0;
  for (let i = 0; i < 4000; i++) {
    const v = gen(0);
    const before = text(v);
    const shared = sortKeysDeepShared(v);
    const checked = sortKeysDeepChecked(v);
    assert.equal(text(shared.copy), text(checked.copy), before);
    assert.equal(shared.plain, checked.plain, before);
    assert.equal(text(v), before, 'the source is not changed');
    if (shared.copy === v && typeof v === 'object' && v !== null) kept++;
  }
  assert.ok(kept > 100, `whole values in order are kept as they are (${kept})`);
  // A body whose spec is in order keeps its spec; its unordered metadata is a copy.
  const body = JSON.parse('{"apiVersion":"v1","kind":"K","metadata":{"labels":{"a":"1","b":"2"},"name":"n"},"spec":{"a":[1,{"x":1}],"b":"c"}}');
  const out = sortKeysDeepShared(body).copy;
  assert.equal(out, body);
  body.metadata = { name: 'n', annotations: {}, labels: body.metadata.labels };
  const out2 = sortKeysDeepShared(body).copy as typeof body;
  assert.notEqual(out2, body);
  assert.notEqual(out2.metadata, body.metadata);
  assert.deepEqual(Object.keys(out2.metadata), ['annotations', 'labels', 'name']);
  assert.equal(out2.metadata.labels, body.metadata.labels);
  assert.equal(out2.spec, body.spec);
  // Ten thousand levels deep: no call stack of that depth.
  let deep: unknown = 1;
  for (let i = 0; i < 10000; i++) deep = { b: deep, a: i };
  let level = sortKeysDeepShared(deep).copy as { a: number; b: unknown } | number;
  let levels = 0;
  for (; typeof level === 'object'; level = level.b as typeof level) {
    assert.deepEqual(Object.keys(level), ['a', 'b']);
    levels++;
  }
  assert.equal(levels, 10000);
});
