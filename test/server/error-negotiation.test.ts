// Errors answer in the negotiated format, as responsewriters.ErrorNegotiated writes them: a Status as YAML for
// `Accept: application/yaml`, Go's indented JSON (with the error's own code) when nothing accepted is served,
// and 406 for a watch asked for as YAML (YAML has no stream serializer).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, cronTab, type Api } from './helpers.js';

let api: Api;
const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const YAML = { Accept: 'application/yaml' };
before(async () => {
  api = await startApi();
  await installCronTab(api);
});
after(async () => {
  await api?.close();
});

test('a 404 asked for as YAML is a YAML Status, keys sorted as goyaml writes them', async () => {
  const r = await api.req('GET', `${base}/nope`, undefined, YAML);
  assert.equal(r.status, 404);
  assert.equal(r.headers.get('content-type'), 'application/yaml');
  assert.equal(
    r.text,
    'apiVersion: v1\ncode: 404\ndetails:\n  group: stable.example.com\n  kind: crontabs\n  name: nope\nkind: Status\n' +
      'message: crontabs.stable.example.com "nope" not found\nmetadata: {}\nreason: NotFound\nstatus: Failure\n',
  );
});

test('objects asked for as YAML quote strings as goyaml does', async () => {
  const r = await api.req('POST', base, { ...cronTab('quoted'), spec: { cronSpec: 'yes', image: '1:20', replicas: 3 } }, YAML);
  assert.equal(r.status, 201);
  // Strings YAML 1.1 would read as something else are double-quoted; the timestamp and resourceVersion too.
  assert.match(r.text, /^ {2}creationTimestamp: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"$/m);
  assert.match(r.text, /^ {2}resourceVersion: "\d+"$/m);
  assert.match(r.text, /^spec:\n {2}cronSpec: "yes"\n {2}image: "1:20"\n {2}replicas: 3\n$/m);
  // Discovery documents alike.
  const d = await api.req('GET', '/api/v1', undefined, YAML);
  assert.match(d.text, /^groupVersion: v1\nkind: APIResourceList\nresources:\n- kind: /);
  assert.match(d.text, /^- kind: Namespace\n {2}name: namespaces\n/m);
  assert.match(d.text, /^ {2}name: namespaces\/status\n {2}namespaced: false\n {2}singularName: ""\n/m);
});

test('409, 415 and 422 asked for as YAML are YAML', async () => {
  assert.equal((await api.req('POST', base, cronTab('dup'))).status, 201);
  const dup = await api.req('POST', base, cronTab('dup'), YAML);
  assert.equal(dup.status, 409);
  assert.equal(dup.headers.get('content-type'), 'application/yaml');
  assert.match(dup.text, /^message: crontabs\.stable\.example\.com "dup" already exists\nmetadata: \{\}\nreason: AlreadyExists\n/m);
  const media = await api.req('POST', base, 'x', { ...YAML, 'Content-Type': 'text/plain' });
  assert.equal(media.status, 415);
  assert.equal(media.headers.get('content-type'), 'application/yaml');
  assert.match(media.text, /^reason: UnsupportedMediaType$/m);
  const invalid = await api.req('POST', base, { ...cronTab('k'), kind: 'X' }, YAML);
  assert.equal(invalid.status, 422);
  assert.equal(invalid.headers.get('content-type'), 'application/yaml');
  assert.match(invalid.text, /^details:\n {2}causes:\n {2}- field: kind\n {4}message: 'Invalid value: "X": must be CronTab'\n {4}reason: FieldValueInvalid\n/m);
});

test('the first acceptable media type decides; */* and no Accept are JSON', async () => {
  let r = await api.req('GET', `${base}/nope`, undefined, { Accept: 'application/xml, application/yaml;q=0.5, application/json;q=0.4' });
  assert.equal(r.headers.get('content-type'), 'application/yaml');
  r = await api.req('GET', `${base}/nope`, undefined, { Accept: '*/*' });
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.equal(r.json.reason, 'NotFound');
  // goautoneg's order: concrete types before wildcards at equal q; q=0 clauses are kept (sorted last) and
  // media types are case-sensitive.
  r = await api.req('GET', `${base}/nope`, undefined, { Accept: '*/*, application/yaml' });
  assert.equal(r.headers.get('content-type'), 'application/yaml');
  r = await api.req('GET', `${base}/nope`, undefined, { Accept: 'application/yaml;q=0' });
  assert.equal(r.headers.get('content-type'), 'application/yaml');
  r = await api.req('GET', `${base}/nope`, undefined, { Accept: 'Application/YAML' });
  assert.equal(r.status, 406);
  assert.match(r.text, /^\{\n {2}"kind": "Status",\n/);
  // A conversion (as, g or v) is not offered for errors: the next media type is taken.
  r = await api.req('GET', `${base}/nope`, undefined, { Accept: 'application/yaml;as=Table;g=meta.k8s.io;v=v1, application/json' });
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.equal(r.status, 404);
});

test('nothing acceptable: the error keeps its code, written as indented JSON', async () => {
  const r = await api.req('GET', `${base}/nope`, undefined, { Accept: 'text/html' });
  // The GET itself is not acceptable (406); its Status cannot be negotiated either.
  assert.equal(r.status, 406);
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.equal(
    r.text,
    '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n' +
      '  "message": "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",\n' +
      '  "reason": "NotAcceptable",\n  "code": 406\n}',
  );
  // Discovery documents alike (WriteObjectNegotiated falls back to Go's indented JSON).
  for (const path of ['/apis', '/api', '/apis/stable.example.com', '/apis/stable.example.com/v1']) {
    const d = await api.req('GET', path, undefined, { Accept: 'text/html' });
    assert.equal(d.status, 406, path);
    assert.match(d.text, /^\{\n {2}"kind": "Status",\n/, path);
    assert.equal(d.json.message, 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  }
  // kube negotiates the output before reading the body: the 406 comes first.
  const create = await api.req('POST', base, 'x', { Accept: 'text/html', 'Content-Type': 'text/plain' });
  assert.equal(create.status, 406);
  assert.match(create.text, /^\{\n {2}"kind": "Status",\n/);
});

test('a watch asked for as YAML is 406 Not Acceptable, in YAML, naming the stream media types', async () => {
  for (const path of [`${base}?watch=1`, `${base}/dup?watch=true`, `/apis/stable.example.com/v1/watch/namespaces/default/crontabs`]) {
    const r = await api.req('GET', path, undefined, YAML);
    assert.equal(r.status, 406, path);
    assert.equal(r.headers.get('content-type'), 'application/yaml');
    assert.equal(
      r.text,
      'apiVersion: v1\ncode: 406\nkind: Status\n' +
        "message: 'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch'\n" +
        'metadata: {}\nreason: NotAcceptable\nstatus: Failure\n',
    );
  }
  const ns = await api.req('GET', '/api/v1/namespaces?watch=1', undefined, YAML);
  assert.equal(ns.status, 406);
  // YAML first decides, even with JSON offered after it; stream=watch on YAML is skipped.
  const mixed = await api.req('GET', `${base}?watch=1`, undefined, { Accept: 'application/yaml, application/json' });
  assert.equal(mixed.status, 406);
  const streamParam = await api.req('GET', `${base}?watch=1&timeoutSeconds=1`, undefined, { Accept: 'application/yaml;stream=watch, application/json' });
  assert.equal(streamParam.status, 200);
  assert.equal(streamParam.headers.get('content-type'), 'application/json');
});
