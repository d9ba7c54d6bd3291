// Field paths and sets as structured-merge-diff has them: element order, membership, the set operations
// and FieldsV1 serialization, with cases from its fieldpath/set_test.go and serialize_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet, pathString, type Path } from '../../src/smd/set.js';
import { fieldElement, indexElement, keyElement, valueElement, compareElements, type PathElement } from '../../src/smd/path-element.js';
import { P, S } from './helpers.js';
import { fieldsV1Text, fromFieldsV1, toFieldsV1 } from '../../src/smd/fields-v1.js';

const nameFirst = { k: { name: 'first' } };

const same = (got: FieldSet, want: FieldSet, why?: string): void => assert.ok(got.equals(want), `${why ?? ''}\nwant:\n${want}\ngot:\n${got}`);

test('elements order field < key < value < index, keys by their sorted fields, values by type then value', () => {
  const ordered: PathElement[] = [
    fieldElement('a'),
    fieldElement('b'),
    keyElement([{ name: 'name', value: 'first' }]),
    keyElement([{ name: 'name', value: 'second' }]),
    keyElement([{ name: 'port', value: 443 }, { name: 'protocol', value: 'tcp' }]),
    valueElement(1),
    valueElement(2),
    valueElement('aa'),
    valueElement(true),
    valueElement([1]),
    valueElement({ a: 1 }),
    valueElement(null),
    indexElement(1),
    indexElement(2),
  ];
  for (let i = 0; i < ordered.length; i++) {
    for (let j = 0; j < ordered.length; j++) {
      assert.equal(Math.sign(compareElements(ordered[i]!, ordered[j]!)), Math.sign(i - j), `${i} vs ${j}`);
    }
  }
  assert.equal(pathString(P('spec', { k: { port: 80, protocol: 'TCP' } }, 'name', { v: 'x' }, 3)), '.spec[port=80,protocol="TCP"].name[="x"][3]');
});

test('insert and has (TestSetInsertHas)', () => {
  const s1 = S(
    P('foo', 0, 'bar', 'baz'),
    P('foo', 0, 'bar'),
    P('foo', 0),
    P('foo', 1, 'bar', 'baz'),
    P('foo', 1, 'bar'),
    P('qux', nameFirst),
    P('qux', nameFirst, 'bar'),
    P('qux', { k: { name: 'second' } }, 'bar'),
    P('canonicalOrder', { k: { a: 'a', b: 'a', c: 'a', d: 'a', e: 'a', f: 'a' } }),
  );
  const cases: Array<[Path, boolean]> = [
    [P('qux', { k: { name: 'second' } }), false],
    [P('qux', { k: { name: 'second' } }, 'bar'), true],
    [P('qux', nameFirst), true],
    [P('xuq', nameFirst), false],
    [P('foo', 0), true],
    [P('foo', 0, 'bar'), true],
    [P('foo', 0, 'bar', 'baz'), true],
    [P('foo', 1), false],
    [P('foo', 1, 'bar'), true],
    [P('foo', 1, 'bar', 'baz'), true],
    [P('canonicalOrder', { k: { f: 'a', e: 'a', d: 'a', c: 'a', b: 'a', a: 'a' } }), true],
  ];
  for (const [p, want] of cases) assert.equal(s1.has(p), want, pathString(p));
  assert.equal(S().has([]), false);
  assert.equal(S([]).has([]), false);
  assert.equal(S(P('foo', nameFirst)).toString(), pathString(P('foo', nameFirst)));
});

test('iterating a set rebuilds it, size and emptiness follow (TestSetIterSize)', () => {
  const s1 = S(
    P('foo', 0, 'bar', 'baz'),
    P('foo', 0, 'bar', 'zot'),
    P('foo', 0, 'bar'),
    P('foo', 0),
    P('foo', 1, 'bar', 'baz'),
    P('foo', 1, 'bar'),
    P('qux', nameFirst),
    P('qux', nameFirst, 'bar'),
    P('qux', { k: { name: 'second' } }, 'bar'),
  );
  const s2 = S();
  let added = 0;
  for (const p of s1.paths()) {
    assert.equal(s2.size(), added);
    assert.equal(s2.empty(), added === 0);
    s2.insert(p);
    added++;
  }
  same(s2, s1);
});

test('union, intersection and difference (TestSetIntersectionDifference)', () => {
  const s1 = S(P('a0'), P('a1'), P('foo', 0), P('foo', 1), P('b0', nameFirst), P('b1', nameFirst), P('bar', 'c0'), P('cp', nameFirst, 'child'));
  const s2 = S(P('a1'), P('a2'), P('foo', 1), P('foo', 2), P('b1', nameFirst), P('b2', nameFirst), P('bar', 'c2'), P('cp', nameFirst));
  const i = S(P('a1'), P('foo', 1), P('b1', nameFirst));
  same(s1.intersection(s2), i, 'intersection');
  same(s1.difference(s2), S(P('a0'), P('foo', 0), P('b0', nameFirst), P('bar', 'c0'), P('cp', nameFirst, 'child')), 's1 - s2');
  same(s2.difference(s1), S(P('a2'), P('foo', 2), P('b2', nameFirst), P('bar', 'c2'), P('cp', nameFirst)), 's2 - s1');
  same(s1.union(s2).difference(s2.difference(s1).union(s1.difference(s2))), i, 'intersection the hard way');
});

test('difference and recursive difference (TestSetDifference)', () => {
  const cases: Array<[string, FieldSet, FieldSet, FieldSet, FieldSet]> = [
    ['removes simple path', S(P('a')), S(P('a')), S(), S()],
    ['removes direct path', S(P('a', 'b', 'c')), S(P('a', 'b', 'c')), S(), S()],
    ['only removes matching child', S(P('a', 'b', 'c'), P('b', 'b', 'c')), S(P('a', 'b', 'c')), S(P('b', 'b', 'c')), S(P('b', 'b', 'c'))],
    ['does not remove parent of specific path', S(P('a')), S(P('a', 'aa')), S(P('a')), S(P('a'))],
    ['RecursiveDifference removes nested path', S(P('a', 'b', 'c')), S(P('a')), S(P('a', 'b', 'c')), S()],
    [
      'RecursiveDifference only removes nested path for matching children',
      S(P('a', 'aa', 'aab'), P('a', 'ab', 'aba')),
      S(P('a', 'aa')),
      S(P('a', 'aa', 'aab'), P('a', 'ab', 'aba')),
      S(P('a', 'ab', 'aba')),
    ],
    ['RecursiveDifference removes all matching children', S(P('a', 'aa', 'aab'), P('a', 'ab', 'aba')), S(P('a')), S(P('a', 'aa', 'aab'), P('a', 'ab', 'aba')), S()],
  ];
  for (const [name, a, b, diff, rdiff] of cases) {
    same(a.difference(b), diff, `${name}: difference`);
    same(a.recursiveDifference(b), rdiff, `${name}: recursive difference`);
  }
});

test('leaves (TestSetLeaves)', () => {
  const a = { k: { name: 'a' } };
  const p = { k: { name: 'p' } };
  same(S().leaves(), S());
  same(S(P('path1'), P('path2'), P('path3')).leaves(), S(P('path1'), P('path2'), P('path3')));
  same(S(P('root'), P('root', 'l1'), P('root', 'l1', 'l2'), P('root', 'l1', 'l2', 'l3')).leaves(), S(P('root', 'l1', 'l2', 'l3')));
  same(
    S(P('root', a), P('root', a, 'name'), P('root', a, 'value', 'b'), P('root', a, 'value', 'b', 'd'), P('root', a, 'value', 'c')).leaves(),
    S(P('root', a, 'name'), P('root', a, 'value', 'b', 'd'), P('root', a, 'value', 'c')),
  );
  same(
    S(
      P('root'),
      P('root', a),
      P('root', a, 'name'),
      P('root', a, 'value', 'b'),
      P('root', a, 'value', 'b', 'c'),
      P('root', a, 'value', 'd'),
      P('root', a, 'value', 'e'),
      P('root', 'x'),
      P('root', 'x', 'y'),
      P('root', 'x', 'z'),
      P('root', p),
      P('root', p, 'name'),
      P('root', p, 'value', 'q'),
    ).leaves(),
    S(P('root', a, 'name'), P('root', a, 'value', 'b', 'c'), P('root', a, 'value', 'd'), P('root', a, 'value', 'e'), P('root', 'x', 'y'), P('root', 'x', 'z'), P('root', p, 'name'), P('root', p, 'value', 'q')),
  );
});

// TestSerializeV1GoldenData: reading then writing gives the same bytes.
const GOLDEN = [
  `{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}`,
  `{"f:aaa":{"k:{\\"name\\":\\"second\\"}":{"v:3":{"f:aab":{}}},"v:3":{},"v:true":{}},"f:aab":{"f:aaa":{},"f:aaf":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"k:{\\"name\\":\\"first\\"}":{}},"f:aac":{"f:aaa":{"v:1":{}},"f:aac":{},"v:3":{"k:{\\"name\\":\\"second\\"}":{}}},"f:aad":{"f:aac":{"v:1":{}},"f:aaf":{"k:{\\"name\\":\\"first\\"}":{"k:{\\"name\\":\\"first\\"}":{}}},"i:1":{"i:1":{},"i:3":{"v:true":{}}}},"f:aae":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:4":{"f:aaf":{}}},"f:aaf":{"i:1":{"f:aac":{}},"i:2":{},"i:3":{}},"k:{\\"name\\":\\"first\\"}":{"f:aad":{"f:aaf":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"f:aaa":{"f:aad":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"f:aac":{},"k:{\\"name\\":\\"first\\"}":{"i:3":{}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"i:4":{}}},"v:1":{"f:aac":{"i:4":{}},"f:aaf":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}},"v:2":{"f:aad":{"f:aaf":{}},"i:1":{}},"v:3":{"f:aaa":{},"k:{\\"name\\":\\"first\\"}":{},"i:2":{}},"v:\\"aa\\"":{"f:aab":{"f:aaf":{}},"f:aae":{},"k:{\\"name\\":\\"first\\"}":{"f:aad":{}},"i:2":{}},"v:\\"ab\\"":{"f:aaf":{"i:4":{}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:1":{"f:aae":{"i:4":{}}}},"v:true":{"k:{\\"name\\":\\"second\\"}":{"f:aaa":{}},"i:2":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"i:1":{"i:3":{"f:aaf":{}}},"i:2":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"v:1":{}}},"i:3":{"f:aab":{"v:true":{"v:\\"aa\\"":{}}},"f:aaf":{},"i:1":{}},"i:4":{"v:\\"aa\\"":{"f:aab":{"k:{\\"name\\":\\"second\\"}":{}}}}}`,
  `{"f:spec":{".":{},"f:apps":{".":{},"k:{\\"name\\":\\" app-💻\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port 🔑\\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}},"k:{\\"name\\":\\" app-🚀\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port-✅ \\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}}}}}`,
];

test('FieldsV1: the golden documents read and write back byte for byte', () => {
  for (const text of GOLDEN) {
    const set = fromFieldsV1(JSON.parse(text));
    assert.ok(set instanceof FieldSet);
    assert.equal(fieldsV1Text(set), text);
    // The object form keeps the same key order.
    assert.equal(JSON.stringify(toFieldsV1(set)), text);
  }
});

test('FieldsV1: non-normalized input (reordered keys, spaces in values) reads to the normalized set', () => {
  const messy = `{"f:aad":{},"f:aaa":{},"k:{ \\"protocol\\":\\"udp\\",\\"port\\":443}":{},"v: 3":{},"i:4":{},"x:future":{"f:a":{}}}`;
  const set = fromFieldsV1(JSON.parse(messy));
  assert.ok(set instanceof FieldSet);
  // Unknown element kinds (x:) are skipped, as a newer writer's elements are.
  assert.equal(fieldsV1Text(set), `{"f:aaa":{},"f:aad":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:3":{},"i:4":{}}`);
});

test('FieldsV1: malformed documents are errors, not sets', () => {
  for (const bad of [[], 'x', { 'f:a': 1 }, { 'i:x': {} }, { 'v:{': {} }, { 'k:[1]': {} }, { f: {} }, { 'fa': {} }]) {
    assert.ok(fromFieldsV1(bad) instanceof Error, JSON.stringify(bad));
  }
});

test('FieldsV1: random sets survive a round trip (TestSerializeV1)', () => {
  let seed = 42;
  const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
  const element = (): PathElement => {
    switch (rand(4)) {
      case 0:
        return fieldElement(['aaa', 'aab', 'aac', 'aad'][rand(4)]!);
      case 1:
        return keyElement(rand(2) ? [{ name: 'name', value: ['first', 'second'][rand(2)] }] : [{ name: 'port', value: 443 }, { name: 'protocol', value: ['tcp', 'udp'][rand(2)] }]);
      case 2:
        return valueElement([1, 2, 'aa', true, null, 1.5][rand(6)]);
      default:
        return indexElement(rand(5));
    }
  };
  for (let i = 0; i < 200; i++) {
    const set = S();
    for (let j = 0; j < 30; j++) set.insert(Array.from({ length: 2 + rand(4) }, element));
    const back = fromFieldsV1(JSON.parse(fieldsV1Text(set)));
    assert.ok(back instanceof FieldSet);
    same(back, set, `round ${i}`);
  }
});
