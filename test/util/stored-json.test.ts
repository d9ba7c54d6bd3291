// storedLabels reads metadata.labels out of stored JSON text without decoding the object: it must give
// what decoding gives (labels or {}), or undefined (decode instead), whatever else the metadata holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memberText, objectEnd, storedHead, storedLabels } from '../../src/util/stored-json.js';
import { prng } from '../prng.js';
import { closingQuote } from '../../src/util/json-depth.js';

const PREFIX = '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":';
const labelsOf = (metadata: unknown): Record<string, string> | undefined => {
  const text = `${PREFIX}${JSON.stringify(metadata)},"spec":{"labels":{"x":"spec"}}}`;
  return storedLabels(text, PREFIX.length);
};

test('storedLabels gives what decoding gives', () => {
  const cases: Record<string, unknown>[] = [
    { name: 'a', labels: { tier: 'web', n: '1' } },
    { name: 'a' },
    {},
    { labels: {} },
    { name: 'a', labels: null },
    { annotations: { labels: '{"tier":"db"}', 'a"labels"': '"labels":{"tier":"db"}' }, labels: { tier: 'web' } },
    { annotations: { x: '\\"labels\\":{' }, finalizers: ['labels', '{"labels":{}}'], generation: 3, deletionGracePeriodSeconds: 0, labels: { 'example.com/é': 'ü ☃ 😀' } },
    { managedFields: [{ fieldsV1: { 'f:metadata': { 'f:labels': { 'f:tier': {} } } } }], labels: { tier: 'web' }, uid: 'u' },
    { name: 'labels', namespace: 'labels', ownerReferences: [{ name: 'labels', controller: true, blockOwnerDeletion: false }], resourceVersion: '' },
    { labelsx: { a: 'b' }, xlabels: { c: 'd' } },
    { annotations: { '\u0001': 'x\\y', '': '"' }, labels: { '': '' } },
  ];
  for (const metadata of cases) {
    const decoded = (metadata['labels'] as Record<string, string> | null | undefined) ?? {};
    assert.deepEqual(labelsOf(metadata), decoded, JSON.stringify(metadata));
  }
});

test('storedLabels declines what is not compact JSON of an object', () => {
  const text = (meta: string): string => `${PREFIX}${meta}}`;
  assert.equal(storedLabels(text('{ "labels":{"a":"b"}}'), PREFIX.length), undefined);
  assert.equal(storedLabels(text('{"labels" :{"a":"b"}}'), PREFIX.length), undefined);
  assert.equal(storedLabels(text('{"labels":["a"]}'), PREFIX.length), undefined);
  assert.equal(storedLabels(text('{"labels":"a"}'), PREFIX.length), undefined);
  assert.equal(storedLabels(text('{"name":"a",'), PREFIX.length), undefined);
  assert.equal(storedLabels(text('"metadata"'), PREFIX.length), undefined);
  assert.equal(storedLabels('{"metadata":{"labels":{"a":', 12), undefined);
});

test('memberText and objectEnd find members and ends past strings, escapes and nesting', () => {
  const t = '{"a":"}\\"{","b":[1,{"c":"]"}],"c":{"d":{}},"e":-1.5e3,"f":true}';
  assert.equal(objectEnd(t, 0), t.length);
  assert.equal(memberText(t, 0, 'a'), '"}\\"{"');
  assert.equal(memberText(t, 0, 'b'), '[1,{"c":"]"}]');
  assert.equal(memberText(t, 0, 'c'), '{"d":{}}');
  assert.equal(memberText(t, 0, 'e'), '-1.5e3');
  assert.equal(memberText(t, 0, 'f'), 'true');
  assert.equal(memberText(t, 0, 'd'), null);
  assert.equal(memberText('{}', 0, 'a'), null);
});

test('closingQuote finds the end of any JSON string, escaped quotes and backslash runs included', () => {
  const parts = ['a', '"', '\\', '\\"', '\\\\', 'é', '😀', '\u0001', '\n', '/', ' '];
  let seed = 7;
  const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let k = 0; k < 2000; k++) {
    let s = '';
    for (let j = rand(12); j > 0; j--) s += parts[rand(parts.length)];
    const lit = JSON.stringify(s);
    assert.equal(closingQuote(`${lit},"x":"\\\\"`, 0), lit.length - 1, lit);
    assert.equal(closingQuote(`{"k":${lit}}`, 5), 5 + lit.length - 1, lit);
  }
  assert.equal(closingQuote('"abc', 0), 4);
  assert.equal(closingQuote('"ab\\"', 0), 5);
});

test('storedHead with metadata keys gives those members of what decoding gives', () => {
  const rand = prng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const strings = ['a', 'with "quotes"', 'back\\slash', '}{][,:', 'caf\u00e9 \u{1f600}', ''];
  const value = (depth: number): unknown => {
    const r = rand();
    if (depth > 2 || r < 0.3) return pick(strings);
    if (r < 0.4) return Math.floor(rand() * 1e6) - 5e5;
    if (r < 0.45) return pick([true, false, null]);
    if (r < 0.7) return Array.from({ length: Math.floor(rand() * 3) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(rand() * 3) }, (_, i) => [`k${i}${pick(strings)}`, value(depth + 1)]));
  };
  const names = ['name', 'namespace', 'uid', 'resourceVersion', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'deletionTimestamp', 'managedFields', 'a"b', 'x}'];
  const keys = new Set(['name', 'uid', 'ownerReferences', 'finalizers', 'deletionTimestamp', 'a"b']);
  for (let n = 0; n < 500; n++) {
    const metadata = Object.fromEntries(names.filter(() => rand() < 0.6).map((k) => [k, value(0)]));
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { x: value(0) } };
    const text = JSON.stringify(obj);
    const want = { apiVersion: 'v1', kind: 'ConfigMap', metadata: Object.fromEntries(Object.entries(metadata).filter(([k]) => keys.has(k))) };
    assert.deepEqual(storedHead(text, keys), want, text);
    assert.deepEqual(storedHead(text), { apiVersion: 'v1', kind: 'ConfigMap', metadata }, text);
  }
  // An empty metadata object, and one that is not an object.
  assert.deepEqual(storedHead('{"apiVersion":"v1","kind":"K","metadata":{}}', keys), { apiVersion: 'v1', kind: 'K', metadata: {} });
  assert.equal(storedHead('{"apiVersion":"v1","kind":"K","metadata":"x"}', keys), undefined);
});
