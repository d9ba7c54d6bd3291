// The Go decoding pieces typed decoding reports with: time.Parse(time.RFC3339, ...) as metav1.Time calls it,
// base64.StdEncoding as encoding/json decodes []byte, and the UnmarshalTypeError context rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goRfc3339Error, parseGoRfc3339 } from '../../src/util/go-time-parse.js';
import { nonIntegerNumberLiterals } from '../../src/util/json-number-literals.js';
import { goBase64Error } from '../../src/util/go-base64.js';
import { goDecodeInto } from '../../src/api/go-decode.js';
import { goFromUnstructuredError } from '../../src/api/go-from-unstructured.js';
import { Namespace } from '../../src/apis/core/v1/namespace.js';

const LAYOUT = '"2006-01-02T15:04:05Z07:00"';

test('RFC 3339 times as Go parses them, with its ParseError texts', () => {
  for (const ok of ['2020-01-01T00:00:00Z', '2020-01-01T00:00:00.123456789+01:00', '2020-02-29T23:59:59-12:00']) assert.equal(goRfc3339Error(ok), undefined, ok);
  const cases: Array<[string, string]> = [
    ['x', `parsing time "x" as ${LAYOUT}: cannot parse "x" as "2006"`],
    ['2020-01-01', `parsing time "2020-01-01" as ${LAYOUT}: cannot parse "" as "T"`],
    ['2020-1-01T00:00:00Z', `parsing time "2020-1-01T00:00:00Z" as ${LAYOUT}: cannot parse "1-01T00:00:00Z" as "01"`],
    ['2020-01-01T00:00:00', `parsing time "2020-01-01T00:00:00" as ${LAYOUT}: cannot parse "" as "Z07:00"`],
    ['2020-13-01T00:00:00Z', 'parsing time "2020-13-01T00:00:00Z": month out of range'],
    ['2021-02-29T00:00:00Z', 'parsing time "2021-02-29T00:00:00Z": day out of range'],
    ['2020-01-01T24:00:00Z', 'parsing time "2020-01-01T24:00:00Z": hour out of range'],
    ['2020-01-01T00:00:00Zx', 'parsing time "2020-01-01T00:00:00Zx": extra text: "x"'],
  ];
  for (const [value, err] of cases) assert.equal(goRfc3339Error(value), err, value);
});

test('RFC3339Micro as metav1.MicroTime parses it: all six fractional digits, served in UTC', () => {
  const MICRO = '"2006-01-02T15:04:05.000000Z07:00"';
  assert.deepEqual(parseGoRfc3339('2026-11-26T13:00:00.123456+01:00', true), { utc: '2026-11-26T12:00:00.123456Z' });
  assert.deepEqual(parseGoRfc3339('2026-11-26T12:00:00,000001Z', true), { utc: '2026-11-26T12:00:00.000001Z' });
  const cases: Array<[string, string]> = [
    ['2026-11-26T12:00:00Z', `parsing time "2026-11-26T12:00:00Z" as ${MICRO}: cannot parse "Z" as ".000000"`],
    ['2026-11-26T12:00:00.123Z', `parsing time "2026-11-26T12:00:00.123Z" as ${MICRO}: cannot parse ".123Z" as ".000000"`],
    ['2026-11-26T12:00:00.123456789Z', `parsing time "2026-11-26T12:00:00.123456789Z" as ${MICRO}: cannot parse "789Z" as "Z07:00"`],
  ];
  for (const [value, err] of cases) assert.deepEqual(parseGoRfc3339(value, true), { error: err }, value);
});

test('standard base64 as encoding/json decodes a []byte, with CorruptInputError offsets', () => {
  for (const ok of ['', 'aGVsbG8=', 'aGVsbA==', 'aGVs\nbG8=']) assert.equal(goBase64Error(ok), undefined, ok);
  const cases: Array<[string, number]> = [
    ['a', 0],
    ['a*b', 1],
    ['aGVsbG8', 4],
    ['aGVsbA=', 7],
    ['aGVsbG8=x', 8],
    ['=aaa', 0],
  ];
  for (const [value, at] of cases) assert.equal(goBase64Error(value), `illegal base64 data at input byte ${at}`, value);
});

test('the first type error in document order wins; map keys and list indices are not in the field path', () => {
  const obj = { metadata: { labels: { a: 'b', c: 2 }, finalizers: [1] }, spec: { finalizers: [true] } };
  assert.equal(goDecodeInto(obj, Namespace, { pkg: 'v1' }), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
  const later = { spec: { finalizers: [true] }, metadata: { labels: { c: 2 } } };
  assert.equal(goDecodeInto(later, Namespace, { pkg: 'v1' }), 'json: cannot unmarshal bool into Go struct field NamespaceSpec.spec.finalizers of type v1.FinalizerName');
  // Decoded values are what Go would hold: nulls are zero values, structs are never absent.
  const nulls: Record<string, unknown> = { metadata: { name: 'n', labels: null, finalizers: ['a', null] }, spec: null };
  assert.equal(goDecodeInto(nulls, Namespace, { pkg: 'v1' }), undefined);
  assert.deepEqual(nulls, { metadata: { name: 'n', finalizers: ['a', ''] }, spec: {}, status: {} });
});

test('decoded values are what Go encodes again: times in UTC whole seconds, a []byte array as base64', () => {
  const ns: Record<string, any> = {
    metadata: { name: 'n' },
    status: { conditions: [{ type: 'a', status: 'True', lastTransitionTime: '2020-01-01T01:00:00.999+01:00' }] },
  };
  assert.equal(goDecodeInto(ns, Namespace, { pkg: 'v1' }), undefined);
  assert.equal(ns['status'].conditions[0].lastTransitionTime, '2020-01-01T00:00:00Z');
  const holder = { name: 'H', fields: [{ json: 'b', type: 'bytes' as const }] };
  const b: Record<string, unknown> = { b: [104, 105] };
  assert.equal(goDecodeInto(b, holder, { pkg: 'v1' }), undefined);
  assert.equal(b['b'], 'aGk=');
  assert.equal(goDecodeInto({ b: [256] }, holder, { pkg: 'v1' }), 'json: cannot unmarshal number 256 into Go struct field H.b of type uint8');
});

test('FromUnstructured visits struct fields in Go order and words its errors its own way', () => {
  const ctx = { pkg: 'v1' };
  assert.equal(goFromUnstructuredError({ status: { phase: 1 }, metadata: { name: true } }, Namespace, ctx), 'unrecognized type: string');
  assert.equal(goFromUnstructuredError({ status: { phase: 1 } }, Namespace, ctx), 'cannot convert int64 to v1.NamespacePhase');
  assert.equal(goFromUnstructuredError({ metadata: { generation: 1.5 } }, Namespace, ctx), 'cannot convert float64 to int64');
  assert.equal(goFromUnstructuredError({ metadata: { generation: 2 } }, Namespace, ctx), undefined);
  assert.equal(goFromUnstructuredError({ metadata: { creationTimestamp: 5 } }, Namespace, ctx), 'json: cannot unmarshal number into Go value of type string');
  assert.equal(goFromUnstructuredError({ metadata: { ownerReferences: {} } }, Namespace, ctx), 'cannot restore slice from map');
});

test('non-integer JSON number literals by the path strict errors use', () => {
  assert.equal(nonIntegerNumberLiterals('{"a":1,"b":"1.0"}'), undefined);
  const m = nonIntegerNumberLiterals('{"a":{"b":[1, 2.50, {"c\\"d":-1e3}]},"e" : 3.0, "f":"x1.5"}');
  assert.deepEqual([...(m ?? [])], [
    ['a.b[1]', '2.50'],
    ['a.b[2].c"d', '-1e3'],
    ['e', '3.0'],
  ]);
});
