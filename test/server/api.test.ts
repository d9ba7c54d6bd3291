// The REST API at the HTTP level: exact Status errors, list paging, Table and YAML output, dry run,
// delete semantics.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { startApi, installCronTab, cronTab, type Api } from './helpers.js';

let api: Api;
const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';
before(async () => {
  api = await startApi();
  await installCronTab(api);
});
after(async () => {
  await api?.close();
});

test('get of a missing object is NotFound with details', async () => {
  const r = await api.req('GET', `${base}/nope`);
  assert.equal(r.status, 404);
  assert.equal(
    r.text,
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"crontabs.stable.example.com \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","group":"stable.example.com","kind":"crontabs"},"code":404}\n',
  );
});

test('paths nothing serves are the plain 404 page', async () => {
  for (const p of ['/apis/stable.example.com/v2/namespaces/default/crontabs', '/apis/nope.io/v1/things', '/foo', '/apis/stable.example.com/v1/crontabs/x']) {
    const r = await api.req('GET', p);
    assert.equal(r.status, 404, p);
    assert.equal(r.text, '404 page not found\n', p);
  }
});

test('create: metadata set by the server, AlreadyExists, generateName', async () => {
  const r = await api.req('POST', base, cronTab('meta'));
  assert.equal(r.status, 201);
  const m = r.json.metadata;
  assert.deepEqual(Object.keys(m), ['creationTimestamp', 'generation', 'managedFields', 'name', 'namespace', 'resourceVersion', 'uid']);
  assert.equal(m.generation, 1);
  assert.equal(m.namespace, 'default');
  assert.deepEqual(Object.keys(r.json), ['apiVersion', 'kind', 'metadata', 'spec']);
  const dup = await api.req('POST', base, cronTab('meta'));
  assert.equal(dup.status, 409);
  assert.equal(dup.json.reason, 'AlreadyExists');
  assert.equal(dup.json.message, 'crontabs.stable.example.com "meta" already exists');
  const gen = await api.req('POST', base, { ...cronTab(''), metadata: { generateName: 'g-' } });
  assert.equal(gen.status, 201);
  assert.match(gen.json.metadata.name, /^g-[a-z0-9]{5}$/);
  assert.equal(gen.json.metadata.generateName, 'g-');
});

test('create errors: API version, kind, name, namespace', async () => {
  let r = await api.req('POST', base, { ...cronTab('x'), apiVersion: 'stable.example.com/v2' });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the API version in the data (stable.example.com/v2) does not match the expected API version (stable.example.com/v1)');
  r = await api.req('POST', base, { ...cronTab('x'), kind: 'Other' });
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'Other.stable.example.com "x" is invalid: kind: Invalid value: "Other": must be CronTab');
  assert.deepEqual(r.json.details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Other": must be CronTab', field: 'kind' }]);
  // NewInvalid names the group-kind of the object sent, on updates too.
  assert.deepEqual([r.json.details.kind, r.json.details.group], ['Other', 'stable.example.com']);
  r = await api.req('POST', base, { ...cronTab('x'), metadata: {} });
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'CronTab.stable.example.com "" is invalid: metadata.name: Required value: name or generateName is required');
  r = await api.req('POST', base, cronTab('Bad_Name'));
  assert.equal(r.status, 422);
  assert.match(r.json.message, /^CronTab\.stable\.example\.com "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of/);
  r = await api.req('POST', base, { ...cronTab('x'), metadata: { name: 'x', namespace: 'other' } });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the namespace of the provided object does not match the namespace sent on the request');
  r = await api.req('POST', base, '{not json');
  assert.equal(r.status, 400);
  r = await api.req('POST', '/apis/stable.example.com/v1/namespaces/missing/crontabs', cronTab('x'));
  assert.equal(r.status, 404);
  assert.equal(r.json.message, 'namespaces "missing" not found');
});

test('method, media type and accept errors', async () => {
  await api.req('POST', base, cronTab('media'));
  let r = await api.req('POST', `${base}/media`, cronTab('media'));
  assert.equal(r.status, 405);
  assert.equal(r.json.reason, 'MethodNotAllowed');
  r = await api.req('PATCH', `${base}/media`, '{}', { 'Content-Type': 'application/strategic-merge-patch+json' });
  assert.equal(r.status, 415);
  assert.equal(r.json.reason, 'UnsupportedMediaType');
  assert.match(r.json.message, /^the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json/);
  r = await api.req('GET', `${base}/media`, undefined, { Accept: 'application/xml' });
  assert.equal(r.status, 406);
  assert.equal(r.json.reason, 'NotAcceptable');
});

test('update: preconditions, generation, no-op writes keep the resourceVersion', async () => {
  const c = await api.req('POST', base, cronTab('upd'));
  const obj = c.json;
  obj.spec.replicas = 2;
  let r = await api.req('PUT', `${base}/upd`, obj);
  assert.equal(r.status, 200);
  assert.equal(r.json.metadata.generation, 2);
  const rv2 = r.json.metadata.resourceVersion;
  assert.notEqual(rv2, obj.metadata.resourceVersion);
  // Stale resourceVersion.
  r = await api.req('PUT', `${base}/upd`, obj);
  assert.equal(r.status, 409);
  assert.equal(r.json.message, 'Operation cannot be fulfilled on crontabs.stable.example.com "upd": the object has been modified; please apply your changes to the latest version and try again');
  // Metadata-only change: generation stays.
  r = await api.req('PATCH', `${base}/upd`, { metadata: { labels: { a: 'b' } } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.status, 200);
  assert.equal(r.json.metadata.generation, 2);
  const rv3 = r.json.metadata.resourceVersion;
  r = await api.req('PATCH', `${base}/upd`, { metadata: { labels: { a: 'b' } } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.json.metadata.resourceVersion, rv3);
  // Name mismatch.
  r = await api.req('PUT', `${base}/upd`, { ...r.json, metadata: { ...r.json.metadata, name: 'other' } });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the name of the object (other) does not match the name on the URL (upd)');
  // PUT of a missing object does not create custom resources.
  r = await api.req('PUT', `${base}/ghost`, cronTab('ghost'));
  assert.equal(r.status, 404);
});

test('dry run writes nothing', async () => {
  let r = await api.req('POST', `${base}?dryRun=All`, cronTab('dry'));
  assert.equal(r.status, 201);
  assert.equal(r.json.metadata.name, 'dry');
  r = await api.req('GET', `${base}/dry`);
  assert.equal(r.status, 404);
  r = await api.req('POST', `${base}?dryRun=Some`, cronTab('dry'));
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
});

test('list paging with limit and continue, remainingItemCount', async () => {
  const ns = '/api/v1/namespaces';
  await api.req('POST', ns, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paging' } });
  const p = '/apis/stable.example.com/v1/namespaces/paging/crontabs';
  for (let i = 0; i < 5; i++) assert.equal((await api.req('POST', p, cronTab(`p${i}`))).status, 201);
  let r = await api.req('GET', `${p}?limit=2`);
  assert.equal(r.json.kind, 'CronTabList');
  assert.deepEqual(r.json.items.map((o: any) => o.metadata.name), ['p0', 'p1']);
  assert.equal(r.json.metadata.remainingItemCount, 3);
  const rv = r.json.metadata.resourceVersion;
  await api.req('POST', p, cronTab('p5'));
  r = await api.req('GET', `${p}?limit=2&continue=${encodeURIComponent(r.json.metadata.continue)}`);
  assert.deepEqual(r.json.items.map((o: any) => o.metadata.name), ['p2', 'p3']);
  assert.equal(r.json.metadata.resourceVersion, rv, 'continued lists read at the first page revision');
  r = await api.req('GET', `${p}?limit=2&continue=${encodeURIComponent(r.json.metadata.continue)}`);
  assert.deepEqual(r.json.items.map((o: any) => o.metadata.name), ['p4']);
  assert.equal(r.json.metadata.continue, undefined);
  r = await api.req('GET', `${p}?continue=garbage`);
  assert.equal(r.status, 400);
  r = await api.req('GET', `${p}?labelSelector=${encodeURIComponent('a in (b')}`);
  assert.equal(r.status, 400);
});

test('Table and PartialObjectMetadata responses', async () => {
  await api.req('POST', base, cronTab('tab'));
  const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
  let r = await api.req('GET', `${base}?fieldSelector=metadata.name%3Dtab`, undefined, { Accept: accept });
  assert.equal(r.json.kind, 'Table');
  assert.equal(r.json.apiVersion, 'meta.k8s.io/v1');
  assert.deepEqual(r.json.columnDefinitions.map((c: any) => [c.name, c.type, c.format]), [
    ['Name', 'string', 'name'],
    ['Age', 'date', ''],
  ]);
  assert.equal(r.json.rows.length, 1);
  assert.equal(r.json.rows[0].cells[0], 'tab');
  assert.match(r.json.rows[0].cells[1], /^\d+s$/);
  assert.equal(r.json.rows[0].object.kind, 'PartialObjectMetadata');
  r = await api.req('GET', `${base}/tab?includeObject=Object`, undefined, { Accept: accept });
  assert.equal(r.json.rows[0].object.kind, 'CronTab');
  r = await api.req('GET', `${base}/tab?includeObject=None`, undefined, { Accept: accept });
  assert.equal(r.json.rows[0].object, undefined);
  r = await api.req('GET', `${base}/tab`, undefined, { Accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' });
  assert.equal(r.json.kind, 'PartialObjectMetadata');
  assert.equal(r.json.metadata.name, 'tab');
  r = await api.req('GET', base, undefined, { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' });
  assert.equal(r.json.kind, 'PartialObjectMetadataList');
  r = await api.req('GET', `${base}/tab`, undefined, { Accept: 'application/yaml' });
  assert.equal(r.headers.get('content-type'), 'application/yaml');
  assert.equal((parseYaml(r.text) as any).metadata.name, 'tab');
});

test('YAML request bodies', async () => {
  const yaml = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: from-yaml\nspec:\n  replicas: 3\n';
  const r = await api.req('POST', base, yaml, { 'Content-Type': 'application/yaml' });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json.spec.replicas, 3);
});

test('delete: preconditions, finalizers, deletecollection', async () => {
  let r = await api.req('POST', base, cronTab('del', { labels: { del: 'yes' } }));
  const uid = r.json.metadata.uid;
  r = await api.req('DELETE', `${base}/del`, { preconditions: { uid: 'wrong' } });
  assert.equal(r.status, 409);
  assert.equal(
    r.json.message,
    `Operation cannot be fulfilled on CronTab.stable.example.com "del": the UID in the precondition (wrong) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
  );
  r = await api.req('DELETE', `${base}/del`, { preconditions: { uid } });
  assert.equal(r.status, 200);
  // Custom resource storage does not return the deleted object: a Success Status names it.
  assert.equal(r.json.status, 'Success');
  assert.deepEqual(r.json.details, { name: 'del', group: 'stable.example.com', kind: 'crontabs', uid });
  assert.equal((await api.req('GET', `${base}/del`)).status, 404);

  r = await api.req('POST', base, cronTab('fin', { finalizers: ['example.com/keep'] }));
  r = await api.req('DELETE', `${base}/fin`);
  assert.equal(r.status, 200);
  assert.ok(r.json.metadata.deletionTimestamp);
  assert.equal(r.json.metadata.deletionGracePeriodSeconds, 0);
  assert.equal(r.json.metadata.generation, 2);
  r = await api.req('GET', `${base}/fin`);
  assert.equal(r.status, 200);
  r = await api.req('PATCH', `${base}/fin`, { metadata: { finalizers: null } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.status, 200);
  assert.equal((await api.req('GET', `${base}/fin`)).status, 404);

  for (const n of ['c1', 'c2']) await api.req('POST', base, cronTab(n, { labels: { coll: 'x' } }));
  r = await api.req('DELETE', `${base}?labelSelector=coll%3Dx`);
  assert.equal(r.status, 200);
  assert.equal(r.json.kind, 'CronTabList');
  assert.deepEqual(r.json.items.map((o: any) => o.metadata.name), ['c1', 'c2']);
  r = await api.req('GET', `${base}?labelSelector=coll%3Dx`);
  assert.equal(r.json.items.length, 0);
});

test('discovery follows CRDs as they come and go', async () => {
  let r = await api.req('GET', '/apis/stable.example.com/v1');
  assert.equal(r.status, 200);
  assert.equal(r.json.resources[0].name, 'crontabs');
  r = await api.req('GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
  assert.ok(r.json.items.some((g: any) => g.metadata.name === 'stable.example.com'));
  const crd = { ...JSON.parse(JSON.stringify((await import('./helpers.js')).CRONTAB_CRD)) };
  crd.metadata.name = 'widgets.example.org';
  crd.spec.group = 'example.org';
  crd.spec.names = { plural: 'widgets', kind: 'Widget' };
  crd.spec.scope = 'Cluster';
  await installCronTab(api, crd);
  // Discovery follows the CRD's informer, as kube's discovery controller does: it may trail Established.
  for (let i = 0; i < 200 && (r = await api.req('GET', '/apis/example.org/v1')).status !== 200; i++) await new Promise((res) => setTimeout(res, 10));
  assert.equal(r.json.resources[0].name, 'widgets');
  assert.equal(r.json.resources[0].namespaced, false);
  r = await api.req('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.org');
  assert.equal(r.status, 200);
  for (let i = 0; i < 100 && (await api.req('GET', '/apis/example.org/v1')).status !== 404; i++) await new Promise((res) => setTimeout(res, 10));
  assert.equal((await api.req('GET', '/apis/example.org/v1')).status, 404);
});
