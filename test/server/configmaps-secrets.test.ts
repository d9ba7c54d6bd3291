// core/v1 ConfigMaps and Secrets over HTTP, against kube-apiserver 1.33's answers: discovery, each rule of
// ValidateConfigMap(Update) and ValidateSecret(Update) with its Status, immutability, stringData and the
// type default, field selectors, Table rows, protobuf bodies, strategic merge patch and server-side apply.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';
import { bytes, envelope, map, msg, str, int } from '../protobuf/wire-writer.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(() => api.close());

const NS = '/api/v1/namespaces/default';
const CM = `${NS}/configmaps`;
const SECRETS = `${NS}/secrets`;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const KEY_REGEX_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/** The 422 kube answers with, for one kind and name, from [field, reason, message body] causes. */
function invalid(kind: string, name: string, message: string, causes: [string | undefined, string, string][]): unknown {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${kind} "${name}" is invalid: ${message}`,
    reason: 'Invalid',
    details: { name, kind, causes: causes.map(([field, reason, msg]) => (field === undefined ? { reason, message: msg } : { reason, message: msg, field })) },
    code: 422,
  };
}

test('discovery: configmaps (cm) and secrets with kube\'s verbs and storage version hashes', async () => {
  const r = await api.req('GET', '/api/v1');
  const byName = new Map((r.json.resources as any[]).map((x) => [x.name, x]));
  const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  assert.deepEqual(byName.get('configmaps'), {
    name: 'configmaps',
    singularName: 'configmap',
    namespaced: true,
    kind: 'ConfigMap',
    verbs,
    shortNames: ['cm'],
    storageVersionHash: 'qFsyl6wFWjQ=',
  });
  assert.deepEqual(byName.get('secrets'), { name: 'secrets', singularName: 'secret', namespaced: true, kind: 'Secret', verbs, storageVersionHash: 'S6u1pOWzb84=' });
  const agg = await api.req('GET', '/api', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
  const resources = agg.json.items[0].versions[0].resources as any[];
  assert.deepEqual(
    resources.find((x) => x.resource === 'configmaps'),
    { resource: 'configmaps', responseKind: { group: '', version: '', kind: 'ConfigMap' }, scope: 'Namespaced', singularResource: 'configmap', verbs, shortNames: ['cm'] },
  );
  assert.deepEqual(
    resources.find((x) => x.resource === 'secrets'),
    { resource: 'secrets', responseKind: { group: '', version: '', kind: 'Secret' }, scope: 'Namespaced', singularResource: 'secret', verbs },
  );
});

test('ConfigMap: created with data keys sorted as encoding/json writes them, binaryData as base64', async () => {
  const r = await api.req('POST', CM, { metadata: { name: 'plain' }, binaryData: { z: 'AAE=' }, data: { b: '1', a: '2' } });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(Object.keys(r.json), ['kind', 'apiVersion', 'metadata', 'data', 'binaryData']);
  assert.deepEqual(Object.keys(r.json.data), ['a', 'b']);
  assert.deepEqual(r.json.binaryData, { z: 'AAE=' });
  assert.equal(r.json.metadata.namespace, 'default');
  // A null string value is Go's "" (a null []byte stays null).
  const n = await api.req('POST', CM, { metadata: { name: 'nulls' }, data: { a: null } });
  assert.deepEqual(n.json.data, { a: '' });
});

test('ValidateConfigMap: key format, a key in both maps, the 1 MiB total', async () => {
  let r = await api.req('POST', CM, { metadata: { name: 'bad' }, data: { 'a/b': '1', c: 'x' }, binaryData: { c: 'AAE=', '..x': '' } });
  assert.deepEqual(
    r.json,
    invalid(
      'ConfigMap',
      'bad',
      `[data[a/b]: Invalid value: "a/b": ${KEY_REGEX_MSG}, data[c]: Invalid value: "c": duplicate of key present in binaryData, binaryData[..x]: Invalid value: "..x": must not start with '..']`,
      [
        ['data[a/b]', 'FieldValueInvalid', `Invalid value: "a/b": ${KEY_REGEX_MSG}`],
        ['data[c]', 'FieldValueInvalid', 'Invalid value: "c": duplicate of key present in binaryData'],
        ['binaryData[..x]', 'FieldValueInvalid', `Invalid value: "..x": must not start with '..'`],
      ],
    ),
  );
  // The whole object's size: the error's path is the root, so the message keeps an empty field and the cause has none.
  r = await api.req('POST', CM, { metadata: { name: 'big' }, data: { a: 'x'.repeat(1024 * 1024 - 1) }, binaryData: { b: 'AAE=' } });
  assert.deepEqual(r.json, invalid('ConfigMap', 'big', ': Too long: may not be more than 1048576 bytes', [[undefined, 'FieldValueTooLong', 'Too long: may not be more than 1048576 bytes']]));
  r = await api.req('POST', CM, { metadata: { name: 'fits' }, data: { a: 'x'.repeat(1024 * 1024 - 2) }, binaryData: { b: 'AAE=' } });
  assert.equal(r.status, 201);
  r = await api.req('POST', CM, { metadata: { name: 'long' }, data: { ['k'.repeat(254)]: '' } });
  assert.equal(r.json.details.causes[0].message, `Invalid value: "${'k'.repeat(254)}": must be no more than 253 characters`);
});

test('an immutable ConfigMap: data, binaryData and immutable stay; metadata changes; PUT without resourceVersion is unconditional', async () => {
  let r = await api.req('POST', CM, { metadata: { name: 'frozen' }, immutable: true, data: { a: 'b' } });
  assert.equal(r.status, 201);
  r = await api.req('PUT', `${CM}/frozen`, { metadata: { name: 'frozen' }, immutable: false, data: { a: 'c' }, binaryData: { x: 'AA==' } });
  const msg = 'Forbidden: field is immutable when `immutable` is set';
  assert.deepEqual(
    r.json,
    invalid('ConfigMap', 'frozen', `[immutable: ${msg}, data: ${msg}, binaryData: ${msg}]`, [
      ['immutable', 'FieldValueForbidden', msg],
      ['data', 'FieldValueForbidden', msg],
      ['binaryData', 'FieldValueForbidden', msg],
    ]),
  );
  r = await api.req('PATCH', `${CM}/frozen`, { data: { a: 'c' } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.deepEqual(r.json, invalid('ConfigMap', 'frozen', `data: ${msg}`, [['data', 'FieldValueForbidden', msg]]));
  r = await api.req('PATCH', `${CM}/frozen`, { immutable: null }, { 'Content-Type': 'application/merge-patch+json' });
  assert.deepEqual(r.json, invalid('ConfigMap', 'frozen', `immutable: ${msg}`, [['immutable', 'FieldValueForbidden', msg]]));
  r = await api.req('PUT', `${CM}/frozen`, { metadata: { name: 'frozen', labels: { l: 'v' } }, immutable: true, data: { a: 'b' } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.metadata.labels, { l: 'v' });
  // reflect.DeepEqual tells a nil map from an empty one: `data: {}` is a change to a ConfigMap without data,
  // though neither is ever served.
  r = await api.req('POST', CM, { metadata: { name: 'empty' }, immutable: true, data: {} });
  assert.equal(r.status, 201);
  assert.equal(r.json.data, undefined);
  r = await api.req('PUT', `${CM}/empty`, { metadata: { name: 'empty' }, immutable: true, data: {} });
  assert.deepEqual(r.json, invalid('ConfigMap', 'empty', `data: ${msg}`, [['data', 'FieldValueForbidden', msg]]));
  r = await api.req('PUT', `${CM}/empty`, { metadata: { name: 'empty', labels: { l: 'v' } }, immutable: true });
  assert.equal(r.status, 200, r.text);
});

test('Secret: stringData merged into data (overwriting) and never served; type defaults to Opaque', async () => {
  const r = await api.req('POST', SECRETS, { metadata: { name: 's' }, data: { a: b64('old'), b: 'AAE=' }, stringData: { a: 'new', c: 'x' } });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.data, { a: b64('new'), b: 'AAE=', c: b64('x') });
  assert.equal(r.json.stringData, undefined);
  assert.equal(r.json.type, 'Opaque');
  assert.deepEqual(Object.keys(r.json), ['kind', 'apiVersion', 'metadata', 'data', 'type']);
  // The Update manager owns what the object holds after conversion: data's keys and type.
  assert.deepEqual(r.json.metadata.managedFields[0].fieldsV1, { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {}, 'f:c': {} }, 'f:type': {} });
  const got = await api.req('GET', `${SECRETS}/s`);
  assert.equal(got.json.stringData, undefined);
  // A merge patch of stringData lands in data too.
  const p = await api.req('PATCH', `${SECRETS}/s`, { stringData: { d: 'y' } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(p.json.data.d, b64('y'));
  assert.equal(p.json.stringData, undefined);
});

test('ValidateSecret: the keys each well-known type requires, with kube\'s paths and messages', async () => {
  const cases: [string, Record<string, unknown>, string, [string, string, string][]][] = [
    ['kubernetes.io/tls', {}, '[data[tls.crt]: Required value, data[tls.key]: Required value]', [['data[tls.crt]', 'FieldValueRequired', 'Required value'], ['data[tls.key]', 'FieldValueRequired', 'Required value']]],
    ['kubernetes.io/dockerconfigjson', {}, 'data[.dockerconfigjson]: Required value', [['data[.dockerconfigjson]', 'FieldValueRequired', 'Required value']]],
    ['kubernetes.io/dockercfg', {}, 'data[.dockercfg]: Required value', [['data[.dockercfg]', 'FieldValueRequired', 'Required value']]],
    ['kubernetes.io/basic-auth', {}, '[data[username]: Required value, data[password]: Required value]', [['data[username]', 'FieldValueRequired', 'Required value'], ['data[password]', 'FieldValueRequired', 'Required value']]],
    ['kubernetes.io/ssh-auth', { data: { 'ssh-privatekey': '' } }, 'data[ssh-privatekey]: Required value', [['data[ssh-privatekey]', 'FieldValueRequired', 'Required value']]],
    [
      'kubernetes.io/service-account-token',
      {},
      'metadata.annotations[kubernetes.io/service-account.name]: Required value',
      [['metadata.annotations[kubernetes.io/service-account.name]', 'FieldValueRequired', 'Required value']],
    ],
    [
      'kubernetes.io/dockerconfigjson',
      { stringData: { '.dockerconfigjson': '{bad' } },
      `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'b' looking for beginning of object key string`,
      [['data[.dockerconfigjson]', 'FieldValueInvalid', `Invalid value: "<secret contents redacted>": invalid character 'b' looking for beginning of object key string`]],
    ],
    [
      'kubernetes.io/dockercfg',
      { stringData: { '.dockercfg': '[]' } },
      'data[.dockercfg]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
      [['data[.dockercfg]', 'FieldValueInvalid', 'Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}']],
    ],
  ];
  for (const [type, extra, message, causes] of cases) {
    const r = await api.req('POST', SECRETS, { metadata: { name: 'typed' }, type, ...extra });
    assert.deepEqual(r.json, invalid('Secret', 'typed', message, causes), type);
  }
  // Present but empty is enough where kube only looks for the key.
  for (const [type, data] of [
    ['kubernetes.io/basic-auth', { password: '' }],
    ['kubernetes.io/tls', { 'tls.crt': '', 'tls.key': '' }],
    ['kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('{}') }],
    ['example.com/custom', {}],
  ] as const) {
    const r = await api.req('POST', `${SECRETS}?dryRun=All`, { metadata: { name: 'typed' }, type, data });
    assert.equal(r.status, 201, `${type}: ${r.text}`);
  }
  const big = await api.req('POST', SECRETS, { metadata: { name: 'big' }, data: { a: Buffer.alloc(1024 * 1024 + 1).toString('base64') } });
  assert.deepEqual(big.json, invalid('Secret', 'big', 'data: Too long: may not be more than 1048576 bytes', [['data', 'FieldValueTooLong', 'Too long: may not be more than 1048576 bytes']]));
  const keys = await api.req('POST', SECRETS, { metadata: { name: 'keys' }, data: { '.': '', '..': '', 'a b': '' } });
  assert.deepEqual(keys.json.details.causes, [
    { reason: 'FieldValueInvalid', message: `Invalid value: ".": must not be '.'`, field: 'data[.]' },
    { reason: 'FieldValueInvalid', message: `Invalid value: "..": must not be '..'`, field: 'data[..]' },
    { reason: 'FieldValueInvalid', message: `Invalid value: "a b": ${KEY_REGEX_MSG}`, field: 'data[a b]' },
  ]);
});

test('ValidateSecretUpdate: type is immutable (an update without one is defaulted to Opaque first); immutable secrets', async () => {
  let r = await api.req('POST', SECRETS, { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } });
  assert.equal(r.status, 201);
  // A body that is not a key pair: created, with crypto/tls's error as a warning.
  assert.equal(r.headers.get('warning'), '299 - "tls: failed to find any PEM data in certificate input"');
  r = await api.req('PUT', `${SECRETS}/tls`, { metadata: { name: 'tls' }, data: { 'tls.crt': '', 'tls.key': '' } });
  assert.deepEqual(r.json, invalid('Secret', 'tls', 'type: Invalid value: "Opaque": field is immutable', [['type', 'FieldValueInvalid', 'Invalid value: "Opaque": field is immutable']]));
  r = await api.req('POST', SECRETS, { metadata: { name: 'sealed' }, immutable: true, stringData: { a: 'b' } });
  assert.equal(r.status, 201);
  r = await api.req('PATCH', `${SECRETS}/sealed`, { stringData: { a: 'c' }, immutable: false }, { 'Content-Type': 'application/merge-patch+json' });
  const msg = 'Forbidden: field is immutable when `immutable` is set';
  assert.deepEqual(r.json, invalid('Secret', 'sealed', `[immutable: ${msg}, data: ${msg}]`, [['immutable', 'FieldValueForbidden', msg], ['data', 'FieldValueForbidden', msg]]));
});

test('field selectors: type for secrets, metadata only for configmaps; others refused', async () => {
  await api.req('POST', SECRETS, { metadata: { name: 'sel-a' }, type: 'example.com/a' });
  await api.req('POST', SECRETS, { metadata: { name: 'sel-b' }, type: 'example.com/b' });
  let r = await api.req('GET', `${SECRETS}?fieldSelector=type=example.com/a`);
  assert.deepEqual(r.json.items.map((x: any) => x.metadata.name), ['sel-a']);
  r = await api.req('GET', `/api/v1/secrets?fieldSelector=type!=Opaque,metadata.namespace=default,metadata.name=sel-b`);
  assert.deepEqual(r.json.items.map((x: any) => x.metadata.name), ['sel-b']);
  r = await api.req('GET', `${SECRETS}?fieldSelector=data.a=x`);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'field label not supported: data.a');
  r = await api.req('GET', `${CM}?fieldSelector=type=x`);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, '"type" is not a known field selector: only "metadata.name", "metadata.namespace"');
});

test('Table: NAME DATA AGE for configmaps (data and binaryData keys), NAME TYPE DATA AGE for secrets', async () => {
  await api.req('POST', CM, { metadata: { name: 'tbl' }, data: { a: '', b: '' }, binaryData: { c: '' } });
  await api.req('POST', SECRETS, { metadata: { name: 'tbl' }, data: { a: '' } });
  let r = await api.req('GET', `${CM}/tbl`, undefined, { Accept: TABLE });
  assert.deepEqual(
    r.json.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority]),
    [['Name', 'string', 'name', 0], ['Data', 'string', '', 0], ['Age', 'string', '', 0]],
  );
  assert.match(r.json.columnDefinitions[1].description, /^Data contains the configuration data\./);
  assert.deepEqual(r.json.rows[0].cells.slice(0, 2), ['tbl', 3]);
  r = await api.req('GET', `${SECRETS}/tbl`, undefined, { Accept: TABLE });
  assert.deepEqual(
    r.json.columnDefinitions.map((c: any) => [c.name, c.description.slice(0, 20)]),
    [['Name', 'Name must be unique '], ['Type', 'Used to facilitate p'], ['Data', 'Data contains the se'], ['Age', 'CreationTimestamp is']],
  );
  assert.deepEqual(r.json.rows[0].cells.slice(0, 3), ['tbl', 'Opaque', 1]);
});

/** POST of a protobuf body, answered in JSON. */
async function postProtobuf(path: string, body: Buffer): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(api.url + path, { method: 'POST', body: new Uint8Array(body), headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/json' } });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), text };
}

test('protobuf bodies: map<string,string> and map<string,bytes> entries', async () => {
  const meta = msg(1, str(1, 'pb'));
  const cm = envelope('v1', 'ConfigMap', [...meta, ...map(2, { k: 'v' }), ...msg(3, str(1, 'bin'), bytes(2, [0, 1, 2])), ...int(4, true)]);
  let r = await postProtobuf(CM, cm);
  assert.equal(r.status, 201, r.text);
  assert.deepEqual([r.json.immutable, r.json.data, r.json.binaryData], [true, { k: 'v' }, { bin: 'AAEC' }]);
  const secret = envelope('v1', 'Secret', [...meta, ...msg(2, str(1, 'a'), bytes(2, [...Buffer.from('hi')])), ...msg(4, str(1, 'b'), str(2, 'there')), ...str(3, 'example.com/pb')]);
  r = await postProtobuf(SECRETS, secret);
  assert.equal(r.status, 201, r.text);
  assert.deepEqual([r.json.data, r.json.type, r.json.stringData], [{ a: b64('hi'), b: b64('there') }, 'example.com/pb', undefined]);
});

test('strategic merge patch: data is a plain map (keys merged, null deletes)', async () => {
  await api.req('POST', CM, { metadata: { name: 'smp' }, data: { a: '1', b: '2' } });
  const r = await api.req('PATCH', `${CM}/smp`, { data: { b: null, c: '3' } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.data, { a: '1', c: '3' });
});

test('server-side apply: create, take over data keys, conflicts named by manager', async () => {
  const apply = (manager: string, body: unknown, force = false) =>
    api.req('PATCH', `${CM}/ssa?fieldManager=${manager}${force ? '&force=true' : ''}`, body, { 'Content-Type': 'application/apply-patch+yaml' });
  let r = await apply('one', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data: { a: '1' } });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.fieldsV1]), [['one', 'Apply', { 'f:data': { 'f:a': {} } }]]);
  r = await apply('two', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data: { a: '2' } });
  assert.equal(r.status, 409);
  assert.equal(r.json.message, 'Apply failed with 1 conflict: conflict with "one": .data.a');
  r = await apply('two', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data: { a: '2', b: '3' } }, true);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.data, { a: '2', b: '3' });
  // One's apply without its key lets it go (two owns a now).
  r = await apply('one', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' } });
  assert.deepEqual(r.json.data, { a: '2', b: '3' });
});

test('watch: configmap events in a namespace', async () => {
  const list = await api.req('GET', CM);
  const rv = list.json.metadata.resourceVersion;
  await api.req('POST', CM, { metadata: { name: 'watched' }, data: { a: 'b' } });
  const res = await fetch(`${api.url}${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`);
  const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((e) => [e.type, e.object.kind, e.object.metadata.name]), [['ADDED', 'ConfigMap', 'watched']]);
});
