// The status and scale subresources of custom resources over HTTP, as kube-apiserver 1.33 serves them:
// which writes change what, metadata.generation, validation on each endpoint, the autoscaling/v1
// Scale and its errors, exact bodies; and the CRD checks of status-enabled schemas and scale paths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { startApi, installCronTab, type Api } from './helpers.js';
import { envelope, int, msg, str } from '../protobuf/wire-writer.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };

// The seed's CronTab with status and scale (replicas capped at 10 to see the schema apply through /scale).
const seedCRD = (subresources: unknown): any => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer', maximum: 10 } },
              },
              status: {
                type: 'object',
                properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } },
                'x-kubernetes-validations': [{ rule: 'self.replicas <= 100', message: 'too many' }],
              },
            },
          },
        },
        subresources,
      },
    ],
  },
});

const SUBRESOURCES = {
  status: {},
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' },
};

const cronTab = (name: string, spec: Record<string, unknown> = { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 3 }, extra: Record<string, unknown> = {}): any => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name },
  spec,
  ...extra,
});

let api: Api;
// A second server whose CRD has no subresources: status is an ordinary field there.
let plain: Api;

before(async () => {
  api = await startApi();
  await installCronTab(api, seedCRD(SUBRESOURCES));
  plain = await startApi();
  await installCronTab(plain, seedCRD(undefined));
});
after(async () => {
  await api?.close();
  await plain?.close();
});

async function create(a: Api, obj: any): Promise<any> {
  const r = await a.req('POST', base, obj);
  assert.equal(r.status, 201, r.text);
  return r.json;
}

const warningsOf = (h: Headers): string[] => (h.get('warning') ? h.get('warning')!.split(/,\s*(?=299 )/) : []);

// ------------------------------------------------------------------ status

test('without the status subresource: /status is 404 and status is an ordinary field', async () => {
  const created = await create(plain, cronTab('plain', undefined, { status: { replicas: 1 } }));
  assert.deepEqual(created.status, { replicas: 1 });
  let r = await plain.req('GET', `${base}/plain/status`);
  assert.equal(r.status, 404);
  assert.equal(
    r.text,
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"crontabs.stable.example.com \\"plain\\" not found","reason":"NotFound","details":{"name":"plain","group":"stable.example.com","kind":"crontabs"},"code":404}\n',
  );
  r = await plain.req('PATCH', `${base}/plain/status`, { status: { replicas: 2 } }, MERGE);
  assert.equal(r.status, 404);
  r = await plain.req('GET', `${base}/plain/scale`);
  assert.equal(r.status, 404);
  // A status change through the main resource is kept, and counts as a change for generation.
  r = await plain.req('PATCH', `${base}/plain`, { status: { replicas: 2 } }, MERGE);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.status, { replicas: 2 });
  assert.equal(r.json.metadata.generation, 2);
});

test('create drops status; main-resource writes keep the stored status', async () => {
  const created = await create(api, cronTab('keep', undefined, { status: { replicas: 7 } }));
  assert.equal(created.status, undefined);
  assert.equal(created.metadata.generation, 1);
  let r = await api.req('PATCH', `${base}/keep/status`, { status: { replicas: 2 } }, MERGE);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.status, { replicas: 2 });
  // PUT with another status: the stored one stays, and nothing else changed, so no new revision.
  const rv = r.json.metadata.resourceVersion;
  r = await api.req('PUT', `${base}/keep`, { ...r.json, status: { replicas: 9 } });
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.status, { replicas: 2 });
  assert.equal(r.json.metadata.resourceVersion, rv);
  assert.equal(r.json.metadata.generation, 1);
  // PUT without status: still kept.
  const { status: _s, ...noStatus } = r.json;
  r = await api.req('PUT', `${base}/keep`, noStatus);
  assert.deepEqual(r.json.status, { replicas: 2 });
  // Merge patch and JSON patch of the main resource leave status alone too.
  r = await api.req('PATCH', `${base}/keep`, { status: null }, MERGE);
  assert.deepEqual(r.json.status, { replicas: 2 });
  r = await api.req('PATCH', `${base}/keep`, [{ op: 'replace', path: '/status/replicas', value: 5 }], JSON_PATCH);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.status, { replicas: 2 });
});

test('metadata.generation moves for spec changes only', async () => {
  await create(api, cronTab('gen'));
  const patch = async (path: string, body: unknown): Promise<any> => {
    const r = await api.req('PATCH', `${base}/gen${path}`, body, MERGE);
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  assert.equal((await patch('', { metadata: { labels: { a: 'b' }, annotations: { x: 'y' } } })).metadata.generation, 1);
  assert.equal((await patch('/status', { status: { replicas: 1 } })).metadata.generation, 1);
  assert.equal((await patch('', { spec: { image: 'other' } })).metadata.generation, 2);
  assert.equal((await patch('', { spec: { image: 'other' }, status: { replicas: 4 } })).metadata.generation, 2);
  assert.equal((await patch('/scale', { spec: { replicas: 4 } })).metadata.resourceVersion !== undefined, true);
  const r = await api.req('GET', `${base}/gen`);
  assert.equal(r.json.metadata.generation, 3);
  assert.equal(r.json.spec.replicas, 4);
});

test('/status: get is the whole object; writes change status and nothing else', async () => {
  await create(api, cronTab('st'));
  let r = await api.req('GET', `${base}/st/status`);
  assert.equal(r.status, 200);
  const main = await api.req('GET', `${base}/st`);
  assert.equal(r.text, main.text);
  // PUT: spec, labels and annotations in the body are ignored; the status is taken.
  const body = structuredClone(r.json);
  body.spec.image = 'changed';
  body.spec.replicas = 'not even an integer';
  body.metadata.labels = { ignored: 'yes' };
  body.status = { replicas: 3, labelSelector: 'app=cron' };
  r = await api.req('PUT', `${base}/st/status`, body);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.spec, main.json.spec);
  assert.equal(r.json.metadata.labels, undefined);
  assert.deepEqual(r.json.status, { labelSelector: 'app=cron', replicas: 3 });
  assert.equal(r.json.metadata.generation, 1);
  // The same body again: a stale resourceVersion.
  r = await api.req('PUT', `${base}/st/status`, body);
  assert.equal(r.status, 409);
  assert.equal(r.json.message, 'Operation cannot be fulfilled on crontabs.stable.example.com "st": the object has been modified; please apply your changes to the latest version and try again');
  // Without a resourceVersion: refused, as for the main resource.
  const { resourceVersion: _rv, ...meta } = body.metadata;
  r = await api.req('PUT', `${base}/st/status`, { ...body, metadata: meta });
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'crontabs.stable.example.com "st" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
  // The body must name the object.
  r = await api.req('PUT', `${base}/st/status`, { ...body, metadata: { ...body.metadata, name: undefined } });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the name of the object (st based on URL) was undeterminable: name must be provided');
  // A PUT without status removes it.
  const cur = await api.req('GET', `${base}/st`);
  const { status: _s, ...noStatus } = cur.json;
  r = await api.req('PUT', `${base}/st/status`, noStatus);
  assert.equal(r.status, 200);
  assert.equal(r.json.status, undefined);
  // JSON patch on /status.
  r = await api.req('PATCH', `${base}/st/status`, [{ op: 'add', path: '/status', value: { replicas: 4 } }], JSON_PATCH);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.status, { replicas: 4 });
  // Strategic merge patch is not served for custom resources.
  r = await api.req('PATCH', `${base}/st/status`, { status: { replicas: 5 } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
  assert.equal(r.status, 415);
  assert.equal(r.json.reason, 'UnsupportedMediaType');
  assert.match(r.json.message, /^the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json/);
});

test('/status writes validate status: its schema, its rules and the scale status paths', async () => {
  await create(api, cronTab('stv'));
  let r = await api.req('PATCH', `${base}/stv/status`, { status: { replicas: 'three' } }, MERGE);
  assert.equal(r.status, 422);
  assert.equal(
    r.json.message,
    'CronTab.stable.example.com "stv" is invalid: [status.replicas: Invalid value: "string": replicas in body must be of type integer: "string", .status.replicas: Invalid value: 0: .status.replicas accessor error: three is of the type string, expected int64, <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
  );
  r = await api.req('PATCH', `${base}/stv/status`, { status: { replicas: -1 } }, MERGE);
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'CronTab.stable.example.com "stv" is invalid: .status.replicas: Invalid value: -1: should be a non-negative integer');
  assert.deepEqual(r.json.details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: should be a non-negative integer', field: '.status.replicas' }]);
  r = await api.req('PATCH', `${base}/stv/status`, { status: { replicas: 101 } }, MERGE);
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'CronTab.stable.example.com "stv" is invalid: status: Invalid value: "object": too many');
  r = await api.req('PATCH', `${base}/stv/status`, { status: { labelSelector: 5 } }, MERGE);
  assert.equal(r.status, 422);
  assert.equal(
    r.json.message,
    'CronTab.stable.example.com "stv" is invalid: [status.labelSelector: Invalid value: "integer": labelSelector in body must be of type string: "integer", .status.labelSelector: Invalid value: "": .status.labelSelector accessor error: 5 is of the type int64, expected string, <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
  );
  r = await api.req('PATCH', `${base}/stv/status`, { status: { replicas: 2 } }, MERGE);
  assert.equal(r.status, 200);
});

test('/status and /scale take get, update and patch only', async () => {
  await create(api, cronTab('verbs'));
  for (const sub of ['status', 'scale']) {
    let r = await api.req('POST', `${base}/verbs/${sub}`, cronTab('verbs'));
    assert.equal(r.status, 405, sub);
    assert.equal(
      r.text,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"create is not supported on resources of kind \\"crontabs.stable.example.com\\"","reason":"MethodNotAllowed","details":{"group":"stable.example.com","kind":"crontabs"},"code":405}\n',
    );
    r = await api.req('DELETE', `${base}/verbs/${sub}`);
    assert.equal(r.status, 405, sub);
    assert.equal(r.json.message, 'delete is not supported on resources of kind "crontabs.stable.example.com"');
  }
  const r = await api.req('GET', `${base}/verbs/other`);
  assert.equal(r.status, 404);
  assert.equal(r.json.message, 'crontabs.stable.example.com "verbs" not found');
});

// ------------------------------------------------------------------ scale

test('GET /scale: the Scale as autoscaling/v1 encodes it', async () => {
  const cr = await create(api, cronTab('sc'));
  const m = cr.metadata;
  let r = await api.req('GET', `${base}/sc/scale`);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'application/json');
  // statusReplicasPath unset: 0; labelSelectorPath unset: "" (left out, omitempty).
  assert.equal(
    r.text,
    `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"sc","namespace":"default","uid":"${m.uid}","resourceVersion":"${m.resourceVersion}","creationTimestamp":"${m.creationTimestamp}"},"spec":{"replicas":3},"status":{"replicas":0}}\n`,
  );
  r = await api.req('PATCH', `${base}/sc/status`, { status: { replicas: 2, labelSelector: 'app=cron' } }, MERGE);
  r = await api.req('GET', `${base}/sc/scale`);
  assert.deepEqual(r.json.status, { replicas: 2, selector: 'app=cron' });
  assert.equal(r.json.metadata.resourceVersion, (await api.req('GET', `${base}/sc`)).json.metadata.resourceVersion);
  // Zero replicas: spec.replicas is omitempty.
  await create(api, cronTab('zero', { replicas: 0 }));
  r = await api.req('GET', `${base}/zero/scale`);
  assert.deepEqual(r.json.spec, {});
  // YAML.
  r = await api.req('GET', `${base}/zero/scale`, undefined, { Accept: 'application/yaml' });
  assert.equal(r.headers.get('content-type'), 'application/yaml');
  assert.deepEqual(parseYaml(r.text), (await api.req('GET', `${base}/zero/scale`)).json);
  r = await api.req('GET', `${base}/missing/scale`);
  assert.equal(r.status, 404);
  assert.equal(r.json.message, 'crontabs.stable.example.com "missing" not found');
});

test('GET /scale as a Table: Desired, Available, Age over the Scale', async () => {
  await create(api, cronTab('tbl'));
  const r = await api.req('GET', `${base}/tbl/scale`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  assert.equal(r.status, 200);
  assert.equal(r.json.kind, 'Table');
  assert.deepEqual(
    r.json.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.description]),
    [
      ['Name', 'string', 'name', r.json.columnDefinitions[0].description],
      ['Desired', 'integer', '', 'Number of desired replicas'],
      ['Available', 'integer', '', 'Number of actual replicas'],
      ['Age', 'date', '', r.json.columnDefinitions[3].description],
    ],
  );
  assert.equal(r.json.rows.length, 1);
  const [name, desired, available, age] = r.json.rows[0].cells;
  assert.deepEqual([name, desired, available], ['tbl', 3, 0]);
  assert.match(age, /^\d+s$/);
  assert.equal(r.json.rows[0].object.kind, 'PartialObjectMetadata');
  assert.equal(r.json.rows[0].object.metadata.name, 'tbl');
});

test('GET /scale of an object without spec replicas is an internal error', async () => {
  await create(api, cronTab('norep', { image: 'x' }));
  const r = await api.req('GET', `${base}/norep/scale`);
  assert.equal(r.status, 500);
  assert.equal(
    r.text,
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: the spec replicas field \\".spec.replicas\\" does not exist","reason":"InternalError","details":{"causes":[{"message":"the spec replicas field \\".spec.replicas\\" does not exist"}]},"code":500}\n',
  );
});

test('PUT /scale writes spec replicas back: precondition, generation, status untouched', async () => {
  await create(api, cronTab('put'));
  await api.req('PATCH', `${base}/put/status`, { status: { replicas: 1 } }, MERGE);
  const cur = (await api.req('GET', `${base}/put/scale`)).json;
  let r = await api.req('PUT', `${base}/put/scale`, { ...cur, spec: { replicas: 5 } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.spec, { replicas: 5 });
  assert.deepEqual(r.json.status, { replicas: 1 });
  assert.notEqual(r.json.metadata.resourceVersion, cur.metadata.resourceVersion);
  let obj = (await api.req('GET', `${base}/put`)).json;
  assert.equal(obj.spec.replicas, 5);
  assert.equal(obj.metadata.generation, 2);
  assert.deepEqual(obj.status, { replicas: 1 });
  assert.equal(obj.metadata.resourceVersion, r.json.metadata.resourceVersion);
  // The old resourceVersion is a precondition that no longer holds.
  r = await api.req('PUT', `${base}/put/scale`, { ...cur, spec: { replicas: 6 } });
  assert.equal(r.status, 409);
  assert.equal(
    r.text,
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on crontabs.stable.example.com \\"put\\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"put","group":"stable.example.com","kind":"crontabs"},"code":409}\n',
  );
  // Without one, the write is unconditional; kind and apiVersion may be left out (the endpoint's).
  r = await api.req('PUT', `${base}/put/scale`, { metadata: { name: 'put' }, spec: { replicas: 6 } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.spec.replicas, 6);
  // A Scale of 0 replicas sets 0.
  r = await api.req('PUT', `${base}/put/scale`, { metadata: { name: 'put' }, spec: {} });
  assert.equal(r.status, 200);
  obj = (await api.req('GET', `${base}/put`)).json;
  assert.equal(obj.spec.replicas, 0);
  assert.equal(obj.metadata.generation, 4);
  // Dry run: answered, not written.
  r = await api.req('PUT', `${base}/put/scale?dryRun=All`, { metadata: { name: 'put' }, spec: { replicas: 9 } });
  assert.equal(r.status, 200);
  assert.equal(r.json.spec.replicas, 9);
  assert.equal((await api.req('GET', `${base}/put`)).json.spec.replicas, 0);
});

test('PUT /scale: the resource schema and the replicas range apply, reported on the custom resource', async () => {
  await create(api, cronTab('val'));
  let r = await api.req('PUT', `${base}/val/scale`, { metadata: { name: 'val' }, spec: { replicas: 11 } });
  assert.equal(r.status, 422);
  assert.equal(
    r.text,
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"CronTab.stable.example.com \\"val\\" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10","reason":"Invalid","details":{"name":"val","group":"stable.example.com","kind":"CronTab","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: 11: spec.replicas in body should be less than or equal to 10","field":"spec.replicas"}]},"code":422}\n',
  );
  r = await api.req('PUT', `${base}/val/scale`, { metadata: { name: 'val' }, spec: { replicas: -2 } });
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'CronTab.stable.example.com "val" is invalid: .spec.replicas: Invalid value: -2: should be a non-negative integer');
  assert.deepEqual(r.json.details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: -2: should be a non-negative integer', field: '.spec.replicas' }]);
  // The same checks guard the main resource.
  r = await api.req('PATCH', `${base}/val`, { spec: { replicas: -1 } }, MERGE);
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'CronTab.stable.example.com "val" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer');
  r = await api.req('POST', base, cronTab('neg', { replicas: -1 }));
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'CronTab.stable.example.com "neg" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer');
});

test('PUT /scale: bodies that are not an autoscaling/v1 Scale for this object', async () => {
  await create(api, cronTab('body'));
  const put = (body: unknown, query = ''): ReturnType<Api['req']> => api.req('PUT', `${base}/body/scale${query}`, body);
  let r = await put(cronTab('body'));
  assert.equal(r.status, 400);
  assert.equal(
    r.json.message,
    'CronTab in version "v1" cannot be handled as a Scale: no kind "CronTab" is registered for version "stable.example.com/v1" in scheme "k8s.io/client-go/scale/util.go:146"',
  );
  r = await put({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'body' }, spec: { replicas: '5' } });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32');
  r = await put({ metadata: { name: 'body' }, spec: { replicas: 3000000000 } });
  assert.equal(r.json.message, 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal number 3000000000 into Go struct field ScaleSpec.spec.replicas of type int32');
  r = await put('[1,2]');
  assert.equal(r.status, 400);
  assert.equal(
    r.json.message,
    'the object provided is unrecognized (must be of type Scale): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b312c325d)',
  );
  r = await put({ spec: { replicas: 1 } });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the name of the object (body based on URL) was undeterminable: name must be provided');
  r = await put({ metadata: { name: 'other' }, spec: { replicas: 1 } });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the name of the object (other) does not match the name on the URL (body)');
  r = await put({ metadata: { namespace: 'kube-system', name: 'body' }, spec: { replicas: 1 } });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the namespace of the provided object does not match the namespace sent on the request');
  // Unknown fields: refused under Strict, warned about under Warn (the server's default).
  const unknown = { metadata: { name: 'body', foo: 1 }, spec: { replicas: 2, bar: true } };
  r = await put(unknown, '?fieldValidation=Strict');
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'Scale in version "v1" cannot be handled as a Scale: strict decoding error: unknown field "metadata.foo", unknown field "spec.bar"');
  r = await put(unknown);
  assert.equal(r.status, 200);
  assert.deepEqual(warningsOf(r.headers), ['299 - "unknown field \\"metadata.foo\\""', '299 - "unknown field \\"spec.bar\\""']);
  r = await put(unknown, '?fieldValidation=Ignore');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('warning'), null);
  r = await put({ metadata: { name: 'body' } }, '?fieldValidation=Bogus');
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'UpdateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Warn", "Strict"');
  // YAML bodies decode too.
  r = await api.req('PUT', `${base}/body/scale`, 'metadata:\n  name: body\nspec:\n  replicas: 4\n', { 'Content-Type': 'application/yaml' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.spec.replicas, 4);
  r = await api.req('PUT', `${base}/ghost/scale`, { metadata: { name: 'ghost' }, spec: { replicas: 1 } });
  assert.equal(r.status, 404);
  assert.equal(r.json.message, 'crontabs.stable.example.com "ghost" not found');
});

test('PUT /scale with a protobuf Scale, as controllers with protobuf clients send it', async () => {
  await create(api, cronTab('pb'));
  const body = envelope('autoscaling/v1', 'Scale', [...msg(1, str(1, 'pb'), str(3, 'default')), ...msg(2, int(1, 8)), ...msg(3, int(1, 0))]);
  const res = await fetch(`${api.url}${base}/pb/scale`, {
    method: 'PUT',
    body: new Uint8Array(body),
    headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/vnd.kubernetes.protobuf, application/json' },
  });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(res.headers.get('content-type'), 'application/json');
  const scale = (await res.json()) as any;
  assert.deepEqual(scale.spec, { replicas: 8 });
  assert.equal((await api.req('GET', `${base}/pb`)).json.spec.replicas, 8);
});

test('PATCH /scale: merge and JSON patches of the Scale', async () => {
  await create(api, cronTab('pt'));
  let r = await api.req('PATCH', `${base}/pt/scale`, { spec: { replicas: 7 } }, MERGE);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.kind, 'Scale');
  assert.deepEqual(r.json.spec, { replicas: 7 });
  assert.equal((await api.req('GET', `${base}/pt`)).json.spec.replicas, 7);
  r = await api.req('PATCH', `${base}/pt/scale`, [{ op: 'test', path: '/spec/replicas', value: 7 }, { op: 'replace', path: '/spec/replicas', value: 2 }], JSON_PATCH);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.spec.replicas, 2);
  // Status in a Scale patch is not written anywhere.
  r = await api.req('PATCH', `${base}/pt/scale`, { status: { replicas: 5 } }, MERGE);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.status, { replicas: 0 });
  r = await api.req('PATCH', `${base}/pt/scale`, { spec: { replicas: 7 } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
  assert.equal(r.status, 415);
  assert.match(r.json.message, /^the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json/);
  // A stale resourceVersion in the patched Scale is a precondition.
  r = await api.req('PATCH', `${base}/pt/scale`, { metadata: { resourceVersion: '1' }, spec: { replicas: 3 } }, MERGE);
  assert.equal(r.status, 409);
  assert.equal(r.json.reason, 'Conflict');
  // A patched Scale that does not decode.
  r = await api.req('PATCH', `${base}/pt/scale`, { spec: { replicas: 'x' } }, MERGE);
  assert.equal(r.status, 422);
  const cur = (await api.req('GET', `${base}/pt/scale`)).json;
  const m = cur.metadata;
  // The Scale patched carries the parent's owners of its replicas as Scale managers (ScaleHandler.ToSubresource):
  // here the earlier Scale writes, by fetch's User-Agent "node".
  const scaleManagers = '[{"apiVersion":"autoscaling/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"manager":"node","operation":"Update","subresource":"scale"}]';
  const patched = `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"creationTimestamp":"${m.creationTimestamp}","managedFields":${scaleManagers},"name":"pt","namespace":"default","resourceVersion":"${m.resourceVersion}","uid":"${m.uid}"},"spec":{"replicas":"x"},"status":{"replicas":0}}`;
  assert.equal(r.json.message, ` "" is invalid: patch: Invalid value: ${JSON.stringify(patched)}: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32`);
  // Unknown fields under Strict.
  r = await api.req('PATCH', `${base}/pt/scale?fieldValidation=Strict`, { spec: { replicas: 3, extra: 1 } }, MERGE);
  assert.equal(r.status, 422);
  assert.match(r.json.message, /: strict decoding error: unknown field "spec\.extra"$/);
  r = await api.req('PATCH', `${base}/pt/scale`, { spec: { replicas: 3, extra: 1 } }, MERGE);
  assert.equal(r.status, 200);
  assert.deepEqual(warningsOf(r.headers), ['299 - "unknown field \\"spec.extra\\""']);
  // The name is the URL's.
  r = await api.req('PATCH', `${base}/pt/scale`, { metadata: { name: 'other' } }, MERGE);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the name of the object (other) does not match the name on the URL (pt)');
  // Schema errors are the resource's.
  r = await api.req('PATCH', `${base}/pt/scale`, [{ op: 'replace', path: '/spec/replicas', value: 12 }], JSON_PATCH);
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'CronTab.stable.example.com "pt" is invalid: spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 10');
  r = await api.req('PATCH', `${base}/ghost/scale`, { spec: { replicas: 1 } }, MERGE);
  assert.equal(r.status, 404);
});

test('PATCH /scale of an object without spec replicas: the patch must set them', async () => {
  await create(api, cronTab('unset', { image: 'x' }));
  let r = await api.req('PATCH', `${base}/unset/scale`, { metadata: { labels: { a: 'b' } } }, MERGE);
  assert.equal(r.status, 400);
  assert.equal(
    r.text,
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the spec replicas field \\".spec.replicas\\" cannot be empty","reason":"BadRequest","code":400}\n',
  );
  // The marker is visible to a JSON patch's test, as kube's is.
  r = await api.req('PATCH', `${base}/unset/scale`, [{ op: 'test', path: '/spec/replicas', value: -2147483648 }, { op: 'replace', path: '/spec/replicas', value: 1 }], JSON_PATCH);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.spec.replicas, 1);
});

test('scale paths off the beaten track: nested maps created, wrong types reported as kube does', async () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Cluster',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.scaling.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' } },
        },
      ],
    },
  };
  await installCronTab(api, crd);
  const wbase = '/apis/example.com/v1/widgets';
  const widget = (name: string, spec: unknown): any => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec });
  let r = await api.req('POST', wbase, widget('w', {}));
  assert.equal(r.status, 201);
  // Cluster-scoped: no namespace in the Scale; the write creates spec.scaling.
  r = await api.req('PUT', `${wbase}/w/scale`, { metadata: { name: 'w' }, spec: { replicas: 2 } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.metadata.namespace, undefined);
  assert.deepEqual((await api.req('GET', `${wbase}/w`)).json.spec, { scaling: { replicas: 2 } });
  // Wrong types at the paths: refused by the strategy's checks on writes.
  r = await api.req('POST', wbase, widget('bad', { scaling: { replicas: 'two' }, selector: { app: 'x' } }));
  assert.equal(r.status, 422);
  assert.equal(
    r.json.message,
    'Widget.example.com "bad" is invalid: [.spec.scaling.replicas: Invalid value: 0: .spec.scaling.replicas accessor error: two is of the type string, expected int64, .spec.selector: Invalid value: "": .spec.selector accessor error: map[app:x] is of the type map[string]interface {}, expected string]',
  );
  r = await api.req('POST', wbase, widget('bad', { scaling: 5 }));
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'Widget.example.com "bad" is invalid: .spec.scaling.replicas: Invalid value: 0: .spec.scaling.replicas accessor error: 5 is of the type int64, expected map[string]interface{}');
  r = await api.req('POST', wbase, widget('big', { scaling: { replicas: 2147483648 } }));
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'Widget.example.com "big" is invalid: .spec.scaling.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647');
  r = await api.req('POST', wbase, widget('frac', { scaling: { replicas: 1.5 } }));
  assert.equal(r.json.message, 'Widget.example.com "frac" is invalid: .spec.scaling.replicas: Invalid value: 0: .spec.scaling.replicas accessor error: 1.5 is of the type float64, expected int64');
});

test('GET /scale of a stored object whose replicas are not an integer: the accessor error, as a 500 without reason', async () => {
  // The object is stored before the CRD enables scale, so nothing checked its replicas.
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
        },
      ],
    },
  };
  await installCronTab(api, crd);
  const gbase = '/apis/example.com/v1/namespaces/default/gadgets';
  let r = await api.req('POST', gbase, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { replicas: 'many' } });
  assert.equal(r.status, 201);
  const cur = (await api.req('GET', `${CRDS}/gadgets.example.com`)).json;
  cur.spec.versions[0].subresources = { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } };
  r = await api.req('PUT', `${CRDS}/gadgets.example.com`, cur);
  assert.equal(r.status, 200, r.text);
  for (let i = 0; i < 100; i++) {
    r = await api.req('GET', `${gbase}/g/scale`);
    if (r.status !== 404) break;
    await new Promise((res) => setTimeout(res, 10));
  }
  assert.equal(r.status, 500);
  assert.equal(r.text, '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":".spec.replicas accessor error: many is of the type string, expected int64","code":500}\n');
  r = await api.req('PATCH', `${gbase}/g/scale`, { spec: { replicas: 1 } }, MERGE);
  assert.equal(r.status, 500);
  assert.equal(r.json.message, '.spec.replicas accessor error: many is of the type string, expected int64');
});

// ------------------------------------------------------------------ CRD validation

test('CRD writes: scale paths and the root schema of status-enabled versions, with kube messages', async () => {
  const crd = seedCRD({
    status: {},
    scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.spec.replicas', labelSelectorPath: '.metadata.labels' },
  });
  crd.metadata.name = 'crontabs.other.example.com';
  crd.spec.group = 'other.example.com';
  let r = await api.req('POST', CRDS, crd);
  assert.equal(r.status, 422);
  assert.equal(
    r.json.message,
    'CustomResourceDefinition.apiextensions.k8s.io "crontabs.other.example.com" is invalid: [spec.subresources.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with ., spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status, spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status]',
  );
  crd.spec.versions[0].subresources = { scale: { specReplicasPath: '', statusReplicasPath: '' } };
  r = await api.req('POST', CRDS, crd);
  assert.equal(r.status, 422);
  assert.equal(
    r.json.message,
    'CustomResourceDefinition.apiextensions.k8s.io "crontabs.other.example.com" is invalid: [spec.subresources.scale.specReplicasPath: Required value, spec.subresources.scale.statusReplicasPath: Required value]',
  );
  // A single version's subresources are the CRD's (kube validates the internal, hoisted form), hence
  // spec.subresources above. With status enabled the root may not carry, e.g., anyOf.
  crd.spec.versions[0].subresources = { status: {} };
  crd.spec.versions[0].schema.openAPIV3Schema.anyOf = [{ required: ['spec'] }];
  r = await api.req('POST', CRDS, crd);
  assert.equal(r.status, 422);
  assert.match(
    r.json.message,
    / is invalid: spec\.validation\.openAPIV3Schema: Invalid value: apiextensions\.JSONSchemaProps\{ID:"", .*\}: only \[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/,
  );
  // Without status the same schema is fine.
  crd.spec.versions[0].subresources = undefined;
  r = await api.req('POST', CRDS, crd);
  assert.equal(r.status, 201, r.text);
});
