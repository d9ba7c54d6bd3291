// Protobuf responses over HTTP, as client-go's protobuf clients ask for them (`Accept:
// application/vnd.kubernetes.protobuf, application/json`), and as the metadata informers of
// kube-controller-manager do (PartialObjectMetadata[List] in protobuf, custom resources included).
// Responses are read back with the server's own message tables and an independent reading of the
// envelope and the watch framing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, cronTab, type Api } from './helpers.js';
import { responseSchema } from '../../src/server/protobuf-types.js';
import { decodeMessage, render } from '../../src/server/protobuf-message.js';
import { Cursor } from '../../src/server/protobuf-wire.js';
import { encodeProtobufObject } from '../../src/server/protobuf.js';
import { envelope, msg, str } from '../protobuf/wire-writer.js';
import { parseJSON } from '../../src/util/json-int64.js';

let api: Api;
const PB = 'application/vnd.kubernetes.protobuf';
/** What client-go sends when its ContentConfig asks for protobuf. */
const GO_CLIENT = `${PB}, application/json`;
const CM = '/api/v1/namespaces/default/configmaps';
const CT = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const META_LIST = `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`;
const META_ONE = `${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json`;

before(async () => {
  api = await startApi();
  await installCronTab(api);
  for (const name of ['a', 'b']) {
    const r = await api.req('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'x' } }, data: { k: name } });
    assert.equal(r.status, 201);
  }
  assert.equal((await api.req('POST', CT, cronTab('c1'))).status, 201);
});
after(async () => {
  await api?.close();
});

interface Answer {
  status: number;
  contentType: string | null;
  body: Buffer;
}

async function get(path: string, accept: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(api.url + path, { ...init, headers: { Accept: accept, ...(init.headers as Record<string, string>) } });
  return { status: res.status, contentType: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

/** Reads runtime.Unknown by hand: the prefix, typeMeta = 1, raw = 2, and the two empty strings kube always writes. */
function openEnvelope(body: Buffer): { apiVersion: string; kind: string; raw: Buffer } {
  assert.equal(body.subarray(0, 4).toString('latin1'), 'k8s\x00');
  const c = new Cursor(body, 4);
  assert.equal(c.tag().field, 1);
  const tm = c.sub();
  assert.equal(tm.tag().field, 1);
  const apiVersion = tm.string();
  assert.equal(tm.tag().field, 2);
  const kind = tm.string();
  assert.equal(c.tag().field, 2);
  const raw = Buffer.from(c.bytes());
  assert.deepEqual([...body.subarray(c.pos)], [0x1a, 0x00, 0x22, 0x00]);
  return { apiVersion, kind, raw };
}

/** A protobuf response as the JSON Go would write for it. */
function decode(body: Buffer): Record<string, any> {
  const { apiVersion, kind, raw } = openEnvelope(body);
  const schema = responseSchema(apiVersion, kind);
  assert.ok(schema, `no message for ${apiVersion} ${kind}`);
  return { kind, apiVersion, ...render(schema, decodeMessage(schema, new Cursor(raw))) };
}

test('a Go client asking for protobuf gets every built-in kind in protobuf, the same object as the JSON answer, byte for byte as encoded from it', async () => {
  const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2024-01-01T00:00:00.123456Z' } };
  assert.equal((await api.req('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', lease)).status, 201);
  assert.equal((await api.req('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 's' }, data: { k: 'AAEC' } })).status, 201);
  assert.equal((await api.req('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'sa' } })).status, 201);
  for (const path of [`${CM}/a`, '/api/v1/namespaces/default', '/api/v1/namespaces/default/secrets/s', '/api/v1/namespaces/default/serviceaccounts/sa', '/apis/coordination.k8s.io/v1/namespaces/default/leases/l']) {
    const pb = await get(path, GO_CLIENT);
    assert.equal(pb.status, 200, path);
    assert.equal(pb.contentType, PB);
    const json = await api.req('GET', path);
    assert.deepEqual(decode(pb.body), parseJSON(json.text), path);
    assert.ok(pb.body.equals(encodeProtobufObject(parseJSON(json.text) as Record<string, unknown>)), path);
  }
});

test('order and q decide: JSON first, or protobuf at a lower q, is answered in JSON', async () => {
  assert.equal((await get(`${CM}/a`, `application/json, ${PB}`)).contentType, 'application/json');
  assert.equal((await get(`${CM}/a`, `${PB};q=0.5, application/json`)).contentType, 'application/json');
  assert.equal((await get(`${CM}/a`, `application/yaml;q=0.1, ${PB};q=0.9`)).contentType, PB);
  assert.equal((await get(`${CM}/a`, PB)).contentType, PB);
});

test('lists: ConfigMapList {metadata = 1, items = 2}', async () => {
  const r = await get(`${CM}?labelSelector=app%3Dx`, GO_CLIENT);
  assert.equal(r.contentType, PB);
  const list = decode(r.body);
  assert.equal(list['kind'], 'ConfigMapList');
  assert.equal(list['apiVersion'], 'v1');
  assert.deepEqual(
    list['items'].map((i: any) => [i.metadata.name, i.data.k]),
    [
      ['a', 'a'],
      ['b', 'b'],
    ],
  );
  assert.match(list['metadata'].resourceVersion, /^\d+$/);
  // Paged: continue and remainingItemCount.
  const page = decode((await get(`${CM}?limit=1`, GO_CLIENT)).body);
  assert.equal(page['items'].length, 1);
  assert.ok(page['metadata'].continue);
  const all = (await api.req('GET', CM)).json;
  assert.equal(page['metadata'].remainingItemCount, all.items.length - 1);
});

test('create, update, patch and delete answer in protobuf; a protobuf body in, protobuf out', async () => {
  // kubectl create configmap's body: ConfigMap{metadata{name: "pb"}, data{x: y}}.
  const body = envelope('v1', 'ConfigMap', [...msg(1, str(1, 'pb')), ...msg(2, str(1, 'x'), str(2, 'y'))]);
  const created = await get(CM, GO_CLIENT, { method: 'POST', body: new Uint8Array(body), headers: { 'Content-Type': PB } });
  assert.equal(created.status, 201);
  assert.equal(created.contentType, PB);
  const obj = decode(created.body);
  assert.deepEqual([obj['metadata'].name, obj['data']], ['pb', { x: 'y' }]);
  const patched = await get(`${CM}/pb`, GO_CLIENT, { method: 'PATCH', body: '{"data":{"z":"w"}}', headers: { 'Content-Type': 'application/strategic-merge-patch+json' } });
  assert.equal(patched.status, 200);
  assert.deepEqual(decode(patched.body)['data'], { x: 'y', z: 'w' });
  const put = await get(`${CM}/pb`, GO_CLIENT, { method: 'PUT', body: JSON.stringify({ ...decode(patched.body), data: { only: '1' } }), headers: { 'Content-Type': 'application/json' } });
  assert.equal(put.status, 200);
  assert.deepEqual(decode(put.body)['data'], { only: '1' });
  const del = await get(`${CM}/pb`, GO_CLIENT, { method: 'DELETE' });
  assert.equal(del.status, 200);
  assert.equal(del.contentType, PB);
  const jsonDelete = await api.req('DELETE', `${CM}/a-missing`);
  assert.equal(jsonDelete.status, 404);
  const gone = decode(del.body);
  assert.ok(gone['kind'] === 'Status' || gone['kind'] === 'ConfigMap', gone['kind']);
});

test('admissionregistration kinds: a protobuf body in (the embedded Rule as a nested message), protobuf out, lists included', async () => {
  const AR = '/apis/admissionregistration.k8s.io/v1';
  // What client-go's typed client sends: ValidatingWebhookConfiguration{metadata, Webhooks = 2{name, clientConfig{url = 3},
  // rules = 3{operations = 1, Rule = 2{apiGroups, apiVersions, resources}}, sideEffects = 6, admissionReviewVersions = 8}}.
  const rule = msg(3, str(1, 'CREATE'), msg(2, str(1, 'pb.example.com'), str(2, 'v1'), str(3, 'widgets')));
  const hook = msg(2, str(1, 'h.pb.example.com'), msg(2, str(3, 'https://hook.example.com/')), rule, str(6, 'None'), str(8, 'v1'));
  const body = envelope('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', [...msg(1, str(1, 'pb-vwc')), ...hook]);
  const created = await get(`${AR}/validatingwebhookconfigurations`, GO_CLIENT, { method: 'POST', body: new Uint8Array(body), headers: { 'Content-Type': PB } });
  assert.equal(created.status, 201, created.body.toString());
  assert.equal(created.contentType, PB);
  const vwc = decode(created.body);
  // The rule's fields inline, as JSON has them, scope defaulted.
  assert.deepEqual(vwc['webhooks'][0].rules, [{ operations: ['CREATE'], apiGroups: ['pb.example.com'], apiVersions: ['v1'], resources: ['widgets'], scope: '*' }]);
  assert.equal(vwc['webhooks'][0].failurePolicy, 'Fail');

  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'pb-vap' },
    spec: {
      matchConstraints: { resourceRules: [{ resourceNames: ['w'], operations: ['CREATE'], apiGroups: ['pb.example.com'], apiVersions: ['v1'], resources: ['widgets'] }] },
      validations: [{ expression: 'true' }],
    },
  };
  assert.equal((await api.req('POST', `${AR}/validatingadmissionpolicies`, policy)).status, 201);
  const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'pb-vapb' }, spec: { policyName: 'pb-vap', validationActions: ['Deny'] } };
  assert.equal((await api.req('POST', `${AR}/validatingadmissionpolicybindings`, binding)).status, 201);
  const mutating = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'pb-mwc' }, webhooks: [{ name: 'm.pb.example.com', clientConfig: { service: { namespace: 'default', name: 'hook' }, caBundle: 'AAEC' }, rules: [{ operations: ['*'], apiGroups: ['pb.example.com'], apiVersions: ['*'], resources: ['widgets'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] }] };
  assert.equal((await api.req('POST', `${AR}/mutatingwebhookconfigurations`, mutating)).status, 201);
  for (const path of [`${AR}/validatingwebhookconfigurations/pb-vwc`, `${AR}/mutatingwebhookconfigurations/pb-mwc`, `${AR}/validatingadmissionpolicies/pb-vap`, `${AR}/validatingadmissionpolicybindings/pb-vapb`]) {
    const pb = await get(path, GO_CLIENT);
    assert.equal(pb.contentType, PB, path);
    const json = await api.req('GET', path);
    assert.deepEqual(decode(pb.body), parseJSON(json.text), path);
    assert.ok(pb.body.equals(encodeProtobufObject(parseJSON(json.text) as Record<string, unknown>)), path);
  }
  const list = decode((await get(`${AR}/validatingadmissionpolicies`, GO_CLIENT)).body);
  assert.equal(list['kind'], 'ValidatingAdmissionPolicyList');
  assert.deepEqual(list['items'].map((p: any) => p.spec.matchConstraints.resourceRules), [[{ ...policy.spec.matchConstraints.resourceRules[0], scope: '*' }]]);
});

test('errors: a Status in protobuf when protobuf is accepted first, for built-in kinds and custom resources alike', async () => {
  const r = await get(`${CM}/nope`, GO_CLIENT);
  assert.equal(r.status, 404);
  assert.equal(r.contentType, PB);
  assert.deepEqual(decode(r.body), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'configmaps "nope" not found',
    reason: 'NotFound',
    details: { name: 'nope', kind: 'configmaps' },
    code: 404,
  });
  // A 422's causes.
  const bad = await get(CM, GO_CLIENT, { method: 'POST', body: JSON.stringify({ metadata: { name: 'Bad_Name' } }), headers: { 'Content-Type': 'application/json' } });
  assert.equal(bad.status, 422);
  const st = decode(bad.body);
  assert.equal(st['reason'], 'Invalid');
  assert.equal(st['details'].causes[0].field, 'metadata.name');
  // A custom resource's GET is negotiated as JSON (no protobuf for its objects), but its error goes out in
  // protobuf: ErrorNegotiated's restrictions are not the endpoint's, and the CR serializer can write Status.
  const crMissing = await get(`${CT}/nope`, `${PB};q=0.9, application/json;q=0.5`);
  assert.equal(crMissing.status, 404);
  assert.equal(crMissing.contentType, PB);
  assert.equal(decode(crMissing.body)['message'], 'crontabs.stable.example.com "nope" not found');
});

test('custom resources are never protobuf: JSON when offered, else 406 whose Status is in protobuf, naming what kube lists', async () => {
  const ok = await get(CT, GO_CLIENT);
  assert.equal(ok.status, 200);
  assert.equal(ok.contentType, 'application/json');
  const only = await get(`${CT}/c1`, PB);
  assert.equal(only.status, 406);
  assert.equal(only.contentType, PB);
  const st = decode(only.body);
  assert.equal(st['message'], 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  assert.equal(st['reason'], 'NotAcceptable');
  assert.equal(st['code'], 406);
  // A protobuf watch of custom resources alike.
  const watch = await get(`${CT}?watch=1&timeoutSeconds=1`, `${PB};stream=watch`);
  assert.equal(watch.status, 406);
  // CRDs: JSONSchemaProps has no protobuf numbers here, so CRDs answer in JSON (kube would answer protobuf).
  const crds = await get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', GO_CLIENT);
  assert.equal(crds.contentType, 'application/json');
});

test('PartialObjectMetadata[List] in protobuf, as metadata informers ask, for built-in kinds and custom resources', async () => {
  for (const [path, kind] of [
    [CM, 'ConfigMap'],
    [CT, 'CronTab'],
  ] as const) {
    const r = await get(path, META_LIST);
    assert.equal(r.status, 200);
    assert.equal(r.contentType, PB);
    const list = decode(r.body);
    assert.equal(list['kind'], 'PartialObjectMetadataList');
    assert.equal(list['apiVersion'], 'meta.k8s.io/v1');
    assert.ok(list['items'].length >= 1, kind);
    for (const item of list['items']) {
      assert.deepEqual(Object.keys(item), ['metadata']);
      assert.ok(item.metadata.uid);
    }
  }
  const one = await get(`${CT}/c1`, META_ONE);
  assert.equal(one.contentType, PB);
  const pom = decode(one.body);
  assert.equal(pom['kind'], 'PartialObjectMetadata');
  assert.equal(pom['metadata'].name, 'c1');
  // meta.k8s.io/v1beta1's list numbers items 1 and metadata 2: read back with that message.
  const beta = decode((await get(CM, `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1`)).body);
  assert.equal(beta['apiVersion'], 'meta.k8s.io/v1beta1');
  assert.equal(beta['items'][0].metadata.name, 'a');
});

test('Table has no protobuf form: a protobuf Table clause is passed over for the next one', async () => {
  const table = await get(CM, `${PB};as=Table;g=meta.k8s.io;v=v1, application/json;as=Table;g=meta.k8s.io;v=v1, application/json`);
  assert.equal(table.contentType, 'application/json');
  assert.equal(JSON.parse(table.body.toString()).kind, 'Table');
  const plain = await get(CM, `${PB};as=Table;g=meta.k8s.io;v=v1, ${PB}`);
  assert.equal(plain.contentType, PB);
  assert.equal(decode(plain.body)['kind'], 'ConfigMapList');
  const none = await get(CM, `${PB};as=Table;g=meta.k8s.io;v=v1`);
  assert.equal(none.status, 406);
  // A Status cannot take a conversion either: nothing acceptable, indented JSON.
  assert.equal(none.contentType, 'application/json');
  assert.match(none.body.toString(), /^\{\n {2}"kind": "Status"/);
});

/** Reads LengthDelimitedFramer frames: a 4-byte big-endian length, then a metav1.WatchEvent{type = 1, object = 2 {raw = 1}}. */
function frames(data: Buffer): { type: string; object: Record<string, any> }[] {
  const out: { type: string; object: Record<string, any> }[] = [];
  let at = 0;
  while (at + 4 <= data.length) {
    const n = data.readUInt32BE(at);
    assert.ok(at + 4 + n <= data.length, 'a frame cut short');
    const c = new Cursor(data, at + 4, at + 4 + n);
    assert.equal(c.tag().field, 1);
    const type = c.string();
    assert.equal(c.tag().field, 2);
    const ext = c.sub();
    assert.equal(ext.tag().field, 1);
    const object = decode(Buffer.from(ext.bytes()));
    assert.ok(c.done && ext.done);
    out.push({ type, object });
    at += 4 + n;
  }
  assert.equal(at, data.length, 'trailing bytes after the last frame');
  return out;
}

/** Reads a watch until `until` frames arrived (or it ends), then stops it. */
async function watch(path: string, accept: string, until: number, during?: () => Promise<void>): Promise<{ contentType: string | null; events: ReturnType<typeof frames> }> {
  const ac = new AbortController();
  const res = await fetch(api.url + path, { headers: { Accept: accept }, signal: ac.signal });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  let data = Buffer.alloc(0);
  const pending = during?.();
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    data = Buffer.concat([data, Buffer.from(value)]);
    // Count whole frames so far.
    let count = 0;
    for (let at = 0; at + 4 <= data.length && at + 4 + data.readUInt32BE(at) <= data.length; at += 4 + data.readUInt32BE(at)) count++;
    if (count >= until) break;
  }
  ac.abort();
  await pending;
  return { contentType: res.headers.get('content-type'), events: frames(data) };
}

test('watch in protobuf: Content-Type ";stream=watch", length-prefixed WatchEvent frames, objects enveloped', async () => {
  for (const [name, accept] of [
    ['w-go', GO_CLIENT],
    ['w-stream', `${PB};stream=watch`],
  ] as const) {
    const rv = decode((await get(CM, GO_CLIENT)).body)['metadata'].resourceVersion;
    const w = await watch(`${CM}?watch=1&resourceVersion=${rv}`, accept, 3, async () => {
      await api.req('POST', CM, { metadata: { name }, data: { a: '1' } });
      await api.req('PATCH', `${CM}/${name}`, { data: { a: '2' } }, { 'Content-Type': 'application/merge-patch+json' });
      await api.req('DELETE', `${CM}/${name}`);
    });
    assert.equal(w.contentType, `${PB};stream=watch`);
    const mine = w.events.filter((e) => e.object['metadata'].name === name);
    assert.deepEqual(
      mine.map((e) => [e.type, e.object['kind'], e.object['data']?.a]),
      [
        ['ADDED', 'ConfigMap', '1'],
        ['MODIFIED', 'ConfigMap', '2'],
        ['DELETED', 'ConfigMap', '2'],
      ],
    );
  }
});

test('watch in protobuf: initial events, the initial-events-end bookmark, and metadata-only events for custom resources', async () => {
  const n = decode((await get(CM, GO_CLIENT)).body)['items'].length;
  const w = await watch(`${CM}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`, GO_CLIENT, n + 1);
  assert.deepEqual(
    w.events.map((e) => e.type),
    [...Array(n).fill('ADDED'), 'BOOKMARK'],
  );
  assert.deepEqual(w.events[n]!.object['metadata'].annotations, { 'k8s.io/initial-events-end': 'true' });
  assert.equal(w.events[n]!.object['kind'], 'ConfigMap');
  const cr = await watch(`${CT}?watch=1`, META_ONE.replace(',application/json;as', ';stream=watch,application/json;as'), 1);
  assert.equal(cr.contentType, `${PB};stream=watch`);
  assert.equal(cr.events[0]!.type, 'ADDED');
  assert.equal(cr.events[0]!.object['kind'], 'PartialObjectMetadata');
  assert.equal(cr.events[0]!.object['metadata'].name, 'c1');
  // The list form on a watch does not apply to single objects; kube's watch encoder then writes the object as it
  // is, which for a custom resource has no protobuf form: the watch ends without an event.
  const ended = await watch(`${CT}?watch=1`, `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`, 1);
  assert.equal(ended.contentType, `${PB};stream=watch`);
  assert.deepEqual(ended.events, []);
});
