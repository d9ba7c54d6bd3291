// Protobuf responses: objects encoded as kube-apiserver's gogo-generated marshallers write them, proved
// byte for byte on k8s.io/api's round-trip fixtures (testdata/HEAD at v0.33.0, vendored under
// test/fixtures/protobuf: the .json and the .pb of the same object), plus gogo's rules one by one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeProtobufObject, encodeProtobufObject, encodeProtobufWatchFrame, hasProtobufForm, NotMarshalable } from '../../src/server/protobuf.js';
import { messageOf, responseSchema } from '../../src/server/protobuf-types.js';
import { embedded, field, struct } from '../../src/api/go-struct.js';
import { decodeMessage, render, type MessageSchema } from '../../src/server/protobuf-message.js';
import { Cursor } from '../../src/server/protobuf-wire.js';
import { StatusError } from '../../src/api/status.js';
import { parseJSON } from '../../src/util/json-int64.js';
import { bytes, envelope, int, msg, str, type Bytes } from './wire-writer.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/protobuf/', import.meta.url));
const KINDS = [
  'core.v1.ConfigMap',
  'core.v1.Secret',
  'core.v1.ServiceAccount',
  'core.v1.Namespace',
  'core.v1.Event',
  'coordination.k8s.io.v1.Lease',
  'events.k8s.io.v1.Event',
  'authentication.k8s.io.v1.TokenReview',
  'authentication.k8s.io.v1.SelfSubjectReview',
  'authorization.k8s.io.v1.SubjectAccessReview',
  'authorization.k8s.io.v1.LocalSubjectAccessReview',
  'authorization.k8s.io.v1.SelfSubjectAccessReview',
  'authorization.k8s.io.v1.SelfSubjectRulesReview',
  'admissionregistration.k8s.io.v1.MutatingWebhookConfiguration',
  'admissionregistration.k8s.io.v1.ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io.v1.ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io.v1.ValidatingAdmissionPolicyBinding',
];

for (const k of KINDS) {
  test(`k8s.io/api fixture ${k}: its JSON encodes to its .pb, and the .pb decodes to its JSON and encodes back`, () => {
    const pb = readFileSync(`${FIXTURES}${k}.pb`);
    const text = readFileSync(`${FIXTURES}${k}.json`, 'utf8');
    const json = parseJSON(text) as Record<string, unknown>;
    assert.equal(encodeProtobufObject(json).toString('hex'), pb.toString('hex'));
    const decoded = decodeProtobufObject(pb);
    if (decoded instanceof StatusError) assert.fail(decoded.message);
    assert.equal(JSON.stringify(decoded.object), JSON.stringify(json));
    assert.ok(encodeProtobufObject(decoded.object).equals(pb));
  });
}

/** The object's own message bytes, out of the envelope, checked on the way. */
function rawOf(body: Buffer, apiVersion: string, kind: string): Buffer {
  const head = Buffer.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, str(1, apiVersion), str(2, kind))]);
  assert.ok(body.subarray(0, head.length).equals(head), `prefix and TypeMeta of ${body.toString('hex')}`);
  const c = new Cursor(body, head.length);
  assert.equal(c.tag().field, 2);
  const raw = Buffer.from(c.bytes());
  assert.deepEqual([...body.subarray(c.pos)], [...str(3, ''), ...str(4, '')]);
  return raw;
}

const hex = (b: Bytes | Buffer): string => Buffer.from(b).toString('hex');

test('zero values: non-pointer strings, ints, bools and structs are written; nil pointers, slices, maps and []byte are not', () => {
  const raw = rawOf(encodeProtobufObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: {} }), 'v1', 'ConfigMap');
  // ObjectMeta's eight scalars and creationTimestamp, all zero; no immutable (a *bool), no data.
  const meta = msg(1, str(1, ''), str(2, ''), str(3, ''), str(4, ''), str(5, ''), str(6, ''), int(7, 0), bytes(8, []));
  assert.equal(raw.toString('hex'), hex(meta));
  // A pointer set to its zero value is written.
  const withZero = rawOf(encodeProtobufObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { deletionGracePeriodSeconds: 0 }, immutable: false }), 'v1', 'ConfigMap');
  assert.equal(withZero.toString('hex'), hex([...msg(1, str(1, ''), str(2, ''), str(3, ''), str(4, ''), str(5, ''), str(6, ''), int(7, 0), bytes(8, []), int(10, 0)), ...int(4, false)]));
});

test('int64 keeps sign and size: negatives are ten-byte two\'s complement varints, beyond 2^53 as bigints', () => {
  const raw = rawOf(encodeProtobufObject({ kind: 'Namespace', apiVersion: 'v1', metadata: { generation: -1, deletionGracePeriodSeconds: 9223372036854775807n } }), 'v1', 'Namespace');
  const meta = decodeMessage(responseSchema('v1', 'Namespace')!, new Cursor(raw));
  const out = render(responseSchema('v1', 'Namespace')!, meta) as { metadata: Record<string, unknown> };
  assert.equal(out.metadata['generation'], -1);
  assert.equal(out.metadata['deletionGracePeriodSeconds'], 9223372036854775807n);
  assert.ok(raw.includes(Buffer.from([0x38, ...[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]])));
});

test('maps: entries sorted bytewise (Go\'s order, not UTF-16\'s), {1: key, 2: value}; a null []byte value has no field 2', () => {
  // U+FFFF sorts before U+1F600 in UTF-8, after it in UTF-16.
  const data = { b: '2', '\u{1F600}': 'x', a: '1', '\uffff': 'y' };
  const raw = rawOf(encodeProtobufObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'm' }, data, binaryData: { z: 'AAE=', e: '', n: null } }), 'v1', 'ConfigMap');
  const expectData = [...msg(2, str(1, 'a'), str(2, '1')), ...msg(2, str(1, 'b'), str(2, '2')), ...msg(2, str(1, '\uffff'), str(2, 'y')), ...msg(2, str(1, '\u{1F600}'), str(2, 'x'))];
  const expectBinary = [...msg(3, str(1, 'e'), bytes(2, [])), ...msg(3, str(1, 'n')), ...msg(3, str(1, 'z'), bytes(2, [0, 1]))];
  assert.ok(raw.toString('hex').endsWith(hex([...expectData, ...expectBinary])), raw.toString('hex'));
});

test('times: metav1.Time keeps seconds (offsets applied, fractions dropped), MicroTime microseconds; zero is an empty message', () => {
  const ev = {
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: { creationTimestamp: '2024-03-01T10:00:00+02:00', deletionTimestamp: '0001-01-01T00:00:00Z' },
    eventTime: '2024-03-01T08:00:00.123456Z',
    deprecatedFirstTimestamp: '1969-12-31T23:59:59Z',
  };
  const schema = responseSchema('events.k8s.io/v1', 'Event')!;
  const raw = rawOf(encodeProtobufObject(ev), 'events.k8s.io/v1', 'Event');
  const back = render(schema, decodeMessage(schema, new Cursor(raw))) as Record<string, Record<string, unknown>>;
  assert.equal(back['metadata']!['creationTimestamp'], '2024-03-01T08:00:00Z');
  assert.equal(back['metadata']!['deletionTimestamp'], null); // written (a pointer), as the zero time
  assert.equal(back['eventTime'], '2024-03-01T08:00:00.123456Z');
  assert.equal(back['deprecatedFirstTimestamp'], '1969-12-31T23:59:59Z');
  // Timestamp{seconds: 1709280000, nanos: 123456000} for eventTime (field 2).
  assert.ok(raw.includes(Buffer.from(msg(2, int(1, 1709280000), int(2, 123456000)))));
  assert.ok(raw.includes(Buffer.from(msg(8, int(1, 1709280000), int(2, 0)))));
  assert.ok(raw.includes(Buffer.from(msg(13, int(1, -1), int(2, 0)))));
  assert.ok(raw.includes(Buffer.from(msg(14)))); // deprecatedLastTimestamp: absent, a struct, the zero time
});

test('long strings and messages: multi-byte length varints', () => {
  const long = 'x'.repeat(200);
  const big = 'y'.repeat(20000);
  const body = encodeProtobufObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: long }, data: { k: big, ü: 'é' } });
  const decoded = decodeProtobufObject(body);
  if (decoded instanceof StatusError) assert.fail(decoded.message);
  assert.deepEqual(decoded.object, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: long, creationTimestamp: null }, data: { k: big, ü: 'é' } });
});

test('lists: ListMeta = 1, items = 2, for every built-in kind with a protobuf form; the list\'s own TypeMeta in the envelope', () => {
  const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '12', continue: 'c', remainingItemCount: 3 }, items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }] };
  const raw = rawOf(encodeProtobufObject(list), 'v1', 'ConfigMapList');
  const item = (name: string): Bytes => msg(1, str(1, name), str(2, ''), str(3, ''), str(4, ''), str(5, ''), str(6, ''), int(7, 0), bytes(8, []));
  assert.equal(raw.toString('hex'), hex([...msg(1, str(1, ''), str(2, '12'), str(3, 'c'), int(4, 3)), ...msg(2, ...[item('a')]), ...msg(2, item('b'))]));
  for (const [apiVersion, kind] of [['v1', 'NamespaceList'], ['v1', 'SecretList'], ['v1', 'ServiceAccountList'], ['v1', 'EventList'], ['events.k8s.io/v1', 'EventList'], ['coordination.k8s.io/v1', 'LeaseList']]) {
    assert.ok(hasProtobufForm(apiVersion!, kind!), kind);
  }
  // No protobuf form: custom resources, CRDs (JSONSchemaProps has no numbers here), Table.
  assert.ok(!hasProtobufForm('apiextensions.k8s.io/v1', 'CustomResourceDefinition'));
  assert.ok(!hasProtobufForm('meta.k8s.io/v1', 'Table'));
  assert.throws(() => encodeProtobufObject({ kind: 'CronTab', apiVersion: 'stable.example.com/v1' }), NotMarshalable);
});

test('Status: ListMeta always written, details a pointer, causes repeated, uid = 6 after retryAfterSeconds = 5', () => {
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'm',
    reason: 'Invalid',
    details: { name: 'n', kind: 'configmaps', uid: 'u', causes: [{ reason: 'FieldValueInvalid', message: 'bad', field: 'data' }], retryAfterSeconds: 2 },
    code: 422,
  };
  const raw = rawOf(encodeProtobufObject(status), 'v1', 'Status');
  const details = msg(5, str(1, 'n'), str(2, ''), str(3, 'configmaps'), msg(4, str(1, 'FieldValueInvalid'), str(2, 'bad'), str(3, 'data')), int(5, 2), str(6, 'u'));
  assert.equal(raw.toString('hex'), hex([...msg(1, str(1, ''), str(2, ''), str(3, '')), ...str(2, 'Failure'), ...str(3, 'm'), ...str(4, 'Invalid'), ...details, ...int(6, 422)]));
  // A Status without details leaves field 5 out.
  const plain = rawOf(encodeProtobufObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 }), 'v1', 'Status');
  assert.equal(plain.toString('hex'), hex([...msg(1, str(1, ''), str(2, ''), str(3, '')), ...str(2, 'Success'), ...str(3, ''), ...str(4, ''), ...int(6, 200)]));
});

test('PartialObjectMetadata and its lists: meta.k8s.io/v1 numbers ListMeta 1 and items 2, v1beta1 the other way round', () => {
  const item = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'x', namespace: 'ns' } };
  const meta = msg(1, str(1, 'x'), str(2, ''), str(3, 'ns'), str(4, ''), str(5, ''), str(6, ''), int(7, 0), bytes(8, []));
  assert.equal(rawOf(encodeProtobufObject(item), 'meta.k8s.io/v1', 'PartialObjectMetadata').toString('hex'), hex(meta));
  const listMeta = msg(1, str(1, ''), str(2, '5'), str(3, ''));
  const v1 = { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '5' }, items: [item] };
  assert.equal(rawOf(encodeProtobufObject(v1), 'meta.k8s.io/v1', 'PartialObjectMetadataList').toString('hex'), hex([...listMeta, ...msg(2, meta)]));
  const v1beta1 = { ...v1, apiVersion: 'meta.k8s.io/v1beta1' };
  const listMetaAt2 = msg(2, str(1, ''), str(2, '5'), str(3, ''));
  assert.equal(rawOf(encodeProtobufObject(v1beta1), 'meta.k8s.io/v1beta1', 'PartialObjectMetadataList').toString('hex'), hex([...msg(1, meta), ...listMetaAt2]));
});

test('watch frames: a 4-byte big-endian length, then WatchEvent{type = 1, object = 2 RawExtension{raw = 1: the enveloped object}}', () => {
  const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', resourceVersion: '3' }, data: { k: 'v' } };
  const frame = encodeProtobufWatchFrame('ADDED', obj);
  const event = [...str(1, 'ADDED'), ...msg(2, bytes(1, encodeProtobufObject(obj)))];
  assert.equal(frame.readUInt32BE(0), frame.length - 4);
  assert.equal(frame.subarray(4).toString('hex'), hex(event));
});

test('the envelope matches kubectl\'s own (prefix, TypeMeta, raw, empty contentEncoding and contentType)', () => {
  const body = encodeProtobufObject({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'team-a', creationTimestamp: null }, spec: {}, status: {} });
  const raw = [...msg(1, str(1, 'team-a'), str(2, ''), str(3, ''), str(4, ''), str(5, ''), str(6, ''), int(7, 0), bytes(8, [])), ...msg(2), ...msg(3, str(1, ''))];
  assert.equal(body.toString('hex'), envelope('v1', 'Namespace', raw).toString('hex'));
  // The same bytes kubectl 1.32 sent for `kubectl create namespace team-a`.
  assert.equal(body.toString('base64'), 'azhzAAoPCgJ2MRIJTmFtZXNwYWNlEh4KFgoGdGVhbS1hEgAaACIAKgAyADgAQgASABoCCgAaACIA');
});

test('embedded structs (Go embedding): inline in JSON, one always-written message field in protobuf, nested as deep as declared', () => {
  const VWC = { kind: 'ValidatingWebhookConfiguration', apiVersion: 'admissionregistration.k8s.io/v1' };
  const meta = msg(1, str(1, 'w'), str(2, ''), str(3, ''), str(4, ''), str(5, ''), str(6, ''), int(7, 0), bytes(8, []));
  // RuleWithOperations{Operations = 1, Rule = 2{APIGroups = 1, APIVersions = 2, Resources = 3, Scope = 4}}.
  const rule = { operations: ['CREATE'], apiGroups: ['g'], apiVersions: ['v1'], resources: ['r'], scope: '*' };
  const hook = (...rules: number[][]): number[] => msg(2, str(1, 'h'), msg(2), ...rules);
  const raw = rawOf(encodeProtobufObject({ ...VWC, metadata: { name: 'w' }, webhooks: [{ name: 'h', clientConfig: {}, rules: [rule] }] }), VWC.apiVersion, VWC.kind);
  const ruleBytes = msg(3, str(1, 'CREATE'), msg(2, str(1, 'g'), str(2, 'v1'), str(3, 'r'), str(4, '*')));
  assert.equal(raw.toString('hex'), hex([...meta, ...hook(ruleBytes)]));
  // A rule with none of Rule's fields still has its (empty) embedded message, as gogo writes it.
  const bare = rawOf(encodeProtobufObject({ ...VWC, metadata: { name: 'w' }, webhooks: [{ name: 'h', clientConfig: {}, rules: [{}] }] }), VWC.apiVersion, VWC.kind);
  assert.equal(bare.toString('hex'), hex([...meta, ...hook(msg(3, msg(2)))]));
  // Decoding puts the embedded fields in the rule itself, in Go order, whether or not the message was sent.
  const hookSchema = responseSchema(VWC.apiVersion, VWC.kind)!.byNo.get(2)!.kind as MessageSchema;
  const decoded = render(hookSchema, decodeMessage(hookSchema, new Cursor(Buffer.from([...str(1, 'h'), ...msg(2, bytes(2, [])), ...ruleBytes, ...msg(3, str(1, 'DELETE'))]))));
  assert.deepEqual(decoded['rules'], [rule, { operations: ['DELETE'] }]);
  // An empty caBundle on the wire ([]byte{} to gogo) is left out of JSON, as omitempty does.
  assert.deepEqual(decoded['clientConfig'], {});
  assert.deepEqual(Object.keys(decoded), ['name', 'clientConfig', 'rules', 'sideEffects', 'admissionReviewVersions']);

  // Twice embedded: NamedRuleWithOperations{ResourceNames = 1, RuleWithOperations = 2{Operations = 1, Rule = 2{...}}}.
  const VAP = { kind: 'ValidatingAdmissionPolicy', apiVersion: 'admissionregistration.k8s.io/v1' };
  const named = { resourceNames: ['n'], ...rule };
  const vap = encodeProtobufObject({ ...VAP, metadata: { name: 'w' }, spec: { matchConstraints: { resourceRules: [named] } }, status: {} });
  const spec = msg(2, msg(2, msg(3, str(1, 'n'), msg(2, str(1, 'CREATE'), msg(2, str(1, 'g'), str(2, 'v1'), str(3, 'r'), str(4, '*'))))));
  assert.equal(rawOf(vap, VAP.apiVersion, VAP.kind).toString('hex'), hex([...meta, ...spec, ...msg(3, int(1, 0))]));
  const back = decodeProtobufObject(vap);
  if (back instanceof StatusError) assert.fail(back.message);
  assert.deepEqual((back.object['spec'] as { matchConstraints: unknown }).matchConstraints, { resourceRules: [named] });
});

test('an embedded struct whose fields are not listed together, in order, is a declaration mistake', () => {
  const inner = struct('Inner', [field(1, 'a', 'string'), field(2, 'b', 'string')]);
  const e = embedded(2, inner);
  assert.deepEqual(
    messageOf(struct('Ok', [field(1, 'x', 'string'), ...e.fields], { embeds: [e.embed] })).fields.map((f) => [f.no, f.json, f.inline]),
    [[1, 'x', false], [2, 'Inner', true]],
  );
  assert.throws(() => messageOf(struct('Split', [e.fields[0]!, field(1, 'x', 'string'), e.fields[1]!], { embeds: [e.embed] })), /Split: the fields of embedded Inner are not listed together, in order/);
  assert.throws(() => messageOf(struct('Missing', [field(1, 'x', 'string')], { embeds: [e.embed] })), /Missing: the fields of embedded Inner are not listed/);
});
