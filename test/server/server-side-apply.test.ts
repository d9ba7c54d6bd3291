// Server-side apply and managedFields through HTTP, as kube-apiserver 1.33 answers: apply patches (create,
// change, conflicts, force, dry run, the options' 422s, typed-patch errors), managedFields on every write
// (manager from fieldManager or the User-Agent, capping, reset), and the status and scale subresources.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, type Api } from './helpers.js';

let api: Api;

const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.ssa.example.com' },
  spec: {
    group: 'ssa.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  replicas: { type: 'integer' },
                  image: { type: 'string' },
                  color: { type: 'string' },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['port'],
                    items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, name: { type: 'string' } } },
                  },
                  tags: { type: 'array', items: { type: 'string' } },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, phase: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

const base = '/apis/ssa.example.com/v1/namespaces/default/widgets';
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };

const widget = (name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'ssa.example.com/v1',
  kind: 'Widget',
  metadata: { name, ...extra },
  spec,
});

const apply = (path: string, body: unknown, query: string) => api.req('PATCH', `${path}?${query}`, body, APPLY);

/** The managedFields entries without their times, keyed by manager. */
function entries(obj: any): Record<string, { operation: string; subresource?: string; apiVersion: string; fieldsV1: unknown }> {
  const out: Record<string, any> = {};
  for (const e of obj.metadata.managedFields ?? []) {
    const { manager, time, fieldsType, ...rest } = e;
    assert.equal(fieldsType, 'FieldsV1');
    // ScaleHandler.ToParent takes a Scale manager's time from the parent's entries: a new one has none.
    if (rest.subresource !== 'scale') assert.match(time ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    out[`${manager}${rest.subresource ? `/${rest.subresource}` : ''}`] = rest;
  }
  return out;
}

before(async () => {
  api = await startApi();
  await installCronTab(api, WIDGET_CRD);
});
after(() => api.close());

test('an apply creates the object (201), owned by its field manager; the same apply again writes nothing', async () => {
  const r = await apply(`${base}/w1`, widget('w1', { image: 'nginx', replicas: 2 }), 'fieldManager=alice');
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(entries(r.json), {
    alice: { operation: 'Apply', apiVersion: 'ssa.example.com/v1', fieldsV1: { 'f:spec': { 'f:image': {}, 'f:replicas': {} } } },
  });
  const again = await apply(`${base}/w1`, widget('w1', { image: 'nginx', replicas: 2 }), 'fieldManager=alice');
  assert.equal(again.status, 200, again.text);
  assert.equal(again.json.metadata.resourceVersion, r.json.metadata.resourceVersion);
});

test('a YAML apply body, and a field dropped from the configuration is removed', async () => {
  const yaml = 'apiVersion: ssa.example.com/v1\nkind: Widget\nmetadata:\n  name: w2\nspec:\n  image: a\n  color: red\n';
  const r = await api.req('PATCH', `${base}/w2?fieldManager=alice`, yaml, APPLY);
  assert.equal(r.status, 201, r.text);
  const r2 = await api.req('PATCH', `${base}/w2?fieldManager=alice`, 'apiVersion: ssa.example.com/v1\nkind: Widget\nmetadata:\n  name: w2\nspec:\n  image: b\n', APPLY);
  assert.equal(r2.status, 200, r2.text);
  assert.deepEqual(r2.json.spec, { image: 'b' });
});

test('conflicts: 409 with a FieldManagerConflict cause per field; force takes the fields over', async () => {
  await apply(`${base}/w3`, widget('w3', { image: 'a', color: 'red' }), 'fieldManager=alice');
  const one = await apply(`${base}/w3`, widget('w3', { image: 'b' }), 'fieldManager=bob');
  assert.equal(one.status, 409, one.text);
  assert.deepEqual(one.json, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Apply failed with 1 conflict: conflict with "alice": .spec.image',
    reason: 'Conflict',
    details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.image' }] },
    code: 409,
  });
  const two = await apply(`${base}/w3`, widget('w3', { image: 'b', color: 'blue' }), 'fieldManager=bob');
  assert.equal(two.status, 409);
  assert.equal(two.json.message, 'Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.color\n- .spec.image');
  // An Update manager is named with the version it wrote at.
  const upd = await api.req('PATCH', `${base}/w3`, { spec: { replicas: 3 } }, { 'Content-Type': 'application/merge-patch+json', 'User-Agent': 'kubectl-edit/v1.32.0 (linux/amd64) kubernetes/abc' });
  assert.equal(upd.status, 200, upd.text);
  const three = await apply(`${base}/w3`, widget('w3', { replicas: 4 }), 'fieldManager=bob');
  assert.equal(three.json.message, 'Apply failed with 1 conflict: conflict with "kubectl-edit" using ssa.example.com/v1: .spec.replicas');
  const forced = await apply(`${base}/w3`, widget('w3', { image: 'b' }), 'fieldManager=bob&force=true');
  assert.equal(forced.status, 200, forced.text);
  assert.equal(forced.json.spec.image, 'b');
  const e = entries(forced.json);
  assert.deepEqual(e['alice']!.fieldsV1, { 'f:spec': { 'f:color': {} } });
  assert.deepEqual(e['bob']!.fieldsV1, { 'f:spec': { 'f:image': {} } });
  assert.deepEqual(e['kubectl-edit']!, { operation: 'Update', apiVersion: 'ssa.example.com/v1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
  // A field another manager also owns stays when one applier drops it.
  const shared = await apply(`${base}/w3`, widget('w3', { image: 'b', color: 'red' }), 'fieldManager=bob');
  assert.equal(shared.status, 200, shared.text);
  const dropped = await apply(`${base}/w3`, widget('w3', { image: 'b' }), 'fieldManager=bob');
  assert.equal(dropped.json.spec.color, 'red');
});

test('map lists merge per key across managers; an applier removing its item leaves the others', async () => {
  await apply(`${base}/w4`, widget('w4', { ports: [{ port: 80, name: 'http' }] }), 'fieldManager=alice');
  const bob = await apply(`${base}/w4`, widget('w4', { ports: [{ port: 443, name: 'https' }] }), 'fieldManager=bob');
  assert.equal(bob.status, 200, bob.text);
  assert.deepEqual(bob.json.spec.ports, [{ port: 80, name: 'http' }, { port: 443, name: 'https' }]);
  assert.deepEqual(entries(bob.json)['bob']!.fieldsV1, { 'f:spec': { 'f:ports': { 'k:{"port":443}': { '.': {}, 'f:name': {}, 'f:port': {} } } } });
  const gone = await apply(`${base}/w4`, widget('w4', {}), 'fieldManager=alice');
  assert.deepEqual(gone.json.spec.ports, [{ port: 443, name: 'https' }]);
  // Atomic lists (no list type) are replaced whole, owned by the last applier.
  await apply(`${base}/w4`, widget('w4', { tags: ['a', 'b'] }), 'fieldManager=alice');
  const tags = await apply(`${base}/w4`, widget('w4', { tags: ['c'] }), 'fieldManager=bob&force=true');
  assert.deepEqual(tags.json.spec.tags, ['c']);
});

test('the options: fieldManager required for apply, force only with apply, dry run writes nothing', async () => {
  const missing = await apply(`${base}/w5`, widget('w5', { image: 'a' }), '');
  assert.equal(missing.status, 422, missing.text);
  assert.equal(missing.json.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  const force = await api.req('PATCH', `${base}/w1?force=true`, { spec: { color: 'x' } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(force.status, 422, force.text);
  assert.equal(force.json.message, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
  const dry = await apply(`${base}/w5`, widget('w5', { image: 'a' }), 'fieldManager=alice&dryRun=All');
  assert.equal(dry.status, 201, dry.text);
  assert.equal((await api.req('GET', `${base}/w5`)).status, 404);
});

test('what the field manager refuses: undeclared fields, another version or kind, managedFields in the configuration', async () => {
  const unknown = await apply(`${base}/w6`, widget('w6', { image: 'a', nope: 1 }), 'fieldManager=alice');
  assert.equal(unknown.status, 400, unknown.text);
  assert.equal(unknown.json.reason, 'BadRequest');
  assert.equal(unknown.json.message, 'failed to create typed patch object (/w6; ssa.example.com/v1, Kind=Widget): .spec.nope: field not declared in schema');
  const version = await apply(`${base}/w6`, { ...widget('w6', {}), apiVersion: 'ssa.example.com/v2' }, 'fieldManager=alice');
  assert.equal(version.status, 400);
  assert.equal(version.json.message, 'invalid object type: ssa.example.com/v2, Kind=Widget');
  const managed = await apply(`${base}/w6`, widget('w6', {}, { managedFields: [{ manager: 'x', operation: 'Apply', apiVersion: 'ssa.example.com/v1', fieldsType: 'FieldsV1', fieldsV1: {} }] }), 'fieldManager=alice');
  assert.equal(managed.status, 400);
  assert.equal(managed.json.message, 'metadata.managedFields must be nil');
  const notAMap = await api.req('PATCH', `${base}/w6?fieldManager=alice`, '- a\n', APPLY);
  assert.equal(notAMap.status, 400);
});

test('a resourceVersion in the configuration is a precondition', async () => {
  const r = await apply(`${base}/w7`, widget('w7', { image: 'a' }), 'fieldManager=alice');
  const stale = await apply(`${base}/w7`, widget('w7', { image: 'b' }, { resourceVersion: '1' }), 'fieldManager=alice');
  assert.equal(stale.status, 409, stale.text);
  assert.equal(stale.json.message, 'Operation cannot be fulfilled on widgets.ssa.example.com "w7": the object has been modified; please apply your changes to the latest version and try again');
  const fresh = await apply(`${base}/w7`, widget('w7', { image: 'b' }, { resourceVersion: r.json.metadata.resourceVersion }), 'fieldManager=alice');
  assert.equal(fresh.status, 200, fresh.text);
});

test('managedFields on every write: the manager from fieldManager or the User-Agent, at most 10 updaters, reset by [{}]', async () => {
  const created = await api.req('POST', `${base}?fieldManager=creator`, widget('w8', { image: 'a' }));
  assert.deepEqual(entries(created.json), { creator: { operation: 'Update', apiVersion: 'ssa.example.com/v1', fieldsV1: { 'f:spec': { '.': {}, 'f:image': {} } } } });
  const ua = await api.req('PATCH', `${base}/w8`, { spec: { color: 'c' } }, { 'Content-Type': 'application/merge-patch+json', 'User-Agent': 'kubectl-label/v1.32.0 (linux/amd64)' });
  assert.deepEqual(Object.keys(entries(ua.json)).sort(), ['creator', 'kubectl-label']);
  let last = ua;
  for (let i = 0; i < 11; i++) {
    last = await api.req('PATCH', `${base}/w8?fieldManager=m${i}`, [{ op: 'add', path: '/spec/replicas', value: i + 1 }], { 'Content-Type': 'application/json-patch+json' });
    assert.equal(last.status, 200, last.text);
  }
  // Only the managers that still own fields remain; there are never more than 10 updaters.
  assert.ok(last.json.metadata.managedFields.length <= 10);
  const put = { ...last.json, metadata: { ...last.json.metadata, managedFields: [{}] } };
  const reset = await api.req('PUT', `${base}/w8`, put);
  assert.equal(reset.status, 200, reset.text);
  assert.equal(reset.json.metadata.managedFields, undefined);
});

test('the cap folds the oldest updaters of a version into ancient-changes', async () => {
  await api.req('POST', `${base}?fieldManager=m0`, widget('w9', { image: 'a' }));
  let last: any;
  for (let i = 1; i <= 11; i++) {
    // Each manager adds a field of its own, so each keeps an entry.
    last = await api.req('PATCH', `${base}/w9?fieldManager=m${i}`, [{ op: 'add', path: '/metadata/labels', value: {} }, ...Array.from({ length: i }, (_, j) => ({ op: 'add', path: `/metadata/labels/l${j}`, value: 'x' }))].slice(i === 1 ? 0 : 1), { 'Content-Type': 'application/json-patch+json' });
    if (i === 1) continue;
  }
  assert.equal(last.status, 200, last.text);
  const managers = last.json.metadata.managedFields.map((e: any) => e.manager);
  assert.ok(managers.length <= 10, managers.join(','));
  assert.ok(managers.includes('ancient-changes'), managers.join(','));
});

test('status: an apply through /status owns status only; the main resource ignores status', async () => {
  await apply(`${base}/s1`, widget('s1', { image: 'a' }, {}), 'fieldManager=user');
  const st = await apply(`${base}/s1/status`, { apiVersion: 'ssa.example.com/v1', kind: 'Widget', metadata: { name: 's1' }, status: { phase: 'Ready' } }, 'fieldManager=ctrl');
  assert.equal(st.status, 200, st.text);
  assert.deepEqual(entries(st.json)['ctrl/status'], { operation: 'Apply', apiVersion: 'ssa.example.com/v1', subresource: 'status', fieldsV1: { 'f:status': { 'f:phase': {} } } });
  const again = await apply(`${base}/s1`, widget('s1', { image: 'b' }), 'fieldManager=user');
  assert.equal(again.json.status.phase, 'Ready');
  assert.deepEqual(entries(again.json)['user']!.fieldsV1, { 'f:spec': { 'f:image': {} } });
  const missing = await apply(`${base}/nope/status`, { apiVersion: 'ssa.example.com/v1', kind: 'Widget', metadata: { name: 'nope' }, status: {} }, 'fieldManager=ctrl');
  assert.equal(missing.status, 404);
});

test('scale: a Scale write owns the parent replicas; an apply to /scale conflicts with their applier', async () => {
  await apply(`${base}/sc`, widget('sc', { replicas: 1, image: 'a' }), 'fieldManager=user');
  const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'sc', namespace: 'default' }, spec: { replicas: 3 } };
  const conflict = await apply(`${base}/sc/scale`, scale, 'fieldManager=hpa');
  assert.equal(conflict.status, 409, conflict.text);
  assert.equal(conflict.json.message, 'Apply failed with 1 conflict: conflict with "user": .spec.replicas');
  const forced = await apply(`${base}/sc/scale`, scale, 'fieldManager=hpa&force=true');
  assert.equal(forced.status, 200, forced.text);
  assert.equal(forced.json.spec.replicas, 3);
  const obj = (await api.req('GET', `${base}/sc`)).json;
  assert.equal(obj.spec.replicas, 3);
  const e = entries(obj);
  assert.deepEqual(e['user']!.fieldsV1, { 'f:spec': { 'f:image': {} } });
  assert.deepEqual(e['hpa/scale'], { operation: 'Apply', apiVersion: 'ssa.example.com/v1', subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
  assert.equal(obj.metadata.managedFields.find((x: any) => x.manager === 'hpa').time, undefined);
  // A PUT of the Scale is an Update by its manager.
  const get = (await api.req('GET', `${base}/sc/scale`)).json;
  const put = await api.req('PUT', `${base}/sc/scale?fieldManager=scaler`, { ...get, spec: { replicas: 5 } });
  assert.equal(put.status, 200, put.text);
  const after = entries((await api.req('GET', `${base}/sc`)).json);
  assert.deepEqual(after['scaler/scale']!.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
  assert.equal(after['hpa/scale'], undefined);
});

test('media types: the 415 lists apply-patch+yaml; apply-patch+cbor is refused', async () => {
  const bad = await api.req('PATCH', `${base}/w1`, '{}', { 'Content-Type': 'text/plain' });
  assert.equal(bad.status, 415);
  assert.match(bad.json.message, /application\/json-patch\+json, application\/merge-patch\+json, application\/apply-patch\+yaml$/);
  const cbor = await api.req('PATCH', `${base}/w1?fieldManager=a`, '{}', { 'Content-Type': 'application/apply-patch+cbor' });
  assert.equal(cbor.status, 415, cbor.text);
});

test('built-in kinds apply too: a Namespace (labels a granular map) and a CustomResourceDefinition', async () => {
  const ns = await api.req('PATCH', '/api/v1/namespaces/ssa-ns?fieldManager=alice', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ssa-ns\n  labels:\n    team: a\n', APPLY);
  assert.equal(ns.status, 201, ns.text);
  assert.deepEqual(entries(ns.json)['alice']!.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:team': {} } } });
  const other = await api.req('PATCH', '/api/v1/namespaces/ssa-ns?fieldManager=bob', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ssa-ns\n  labels:\n    env: prod\n', APPLY);
  assert.equal(other.status, 200, other.text);
  assert.deepEqual(other.json.metadata.labels, { env: 'prod', 'kubernetes.io/metadata.name': 'ssa-ns', team: 'a' });
  // A status write records its manager with the subresource.
  const st = await api.req('PUT', '/api/v1/namespaces/ssa-ns/status?fieldManager=ctrl', { ...other.json, status: { phase: 'Active', conditions: [{ type: 'X', status: 'True' }] } });
  assert.equal(st.status, 200, st.text);
  assert.deepEqual(entries(st.json)['ctrl/status'], { operation: 'Update', apiVersion: 'v1', subresource: 'status', fieldsV1: { 'f:status': { 'f:conditions': { '.': {}, 'k:{"type":"X"}': { '.': {}, 'f:status': {}, 'f:type': {} } } } } });
  const crd = structuredClone(WIDGET_CRD) as any;
  crd.metadata.name = 'gadgets.ssa.example.com';
  crd.spec.names = { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' };
  const c = await apply('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.ssa.example.com', crd, 'fieldManager=alice');
  assert.equal(c.status, 201, c.text);
  // kube's CRD type makes spec.versions an atomic list: one field.
  assert.deepEqual(entries(c.json)['alice']!.fieldsV1, {
    'f:spec': { 'f:group': {}, 'f:names': { 'f:kind': {}, 'f:plural': {}, 'f:singular': {} }, 'f:scope': {}, 'f:versions': {} },
  });
});

test('versions: managed fields stay at the version they were written at and conflicts are found across versions', async () => {
  const crd = structuredClone(WIDGET_CRD) as any;
  crd.metadata.name = 'dials.ssa.example.com';
  crd.spec.names = { plural: 'dials', singular: 'dial', kind: 'Dial' };
  const v1 = crd.spec.versions[0];
  crd.spec.versions = [{ ...structuredClone(v1), name: 'v2', storage: false }, v1];
  await installCronTab(api, crd);
  const at = (v: string): string => `/apis/ssa.example.com/${v}/namespaces/default/dials`;
  const dial = (v: string, spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: `ssa.example.com/${v}`, kind: 'Dial', metadata: { name: 'd' }, spec });
  const a = await apply(`${at('v1')}/d`, dial('v1', { image: 'a', color: 'red' }), 'fieldManager=alice');
  assert.equal(a.status, 201, a.text);
  const conflict = await apply(`${at('v2')}/d`, dial('v2', { image: 'b' }), 'fieldManager=bob');
  assert.equal(conflict.status, 409, conflict.text);
  assert.equal(conflict.json.message, 'Apply failed with 1 conflict: conflict with "alice": .spec.image');
  const b = await apply(`${at('v2')}/d`, dial('v2', { image: 'b' }), 'fieldManager=bob&force=true');
  assert.equal(b.status, 200, b.text);
  const e = entries(b.json);
  assert.equal(e['alice']!.apiVersion, 'ssa.example.com/v1');
  assert.deepEqual(e['alice']!.fieldsV1, { 'f:spec': { 'f:color': {} } });
  assert.equal(e['bob']!.apiVersion, 'ssa.example.com/v2');
  // alice drops color at v1: nobody else owns it, so it goes.
  const c = await apply(`${at('v1')}/d`, dial('v1', {}), 'fieldManager=alice');
  assert.deepEqual(c.json.spec, { image: 'b' });
});

test('int64 values beyond 2^53 apply exactly, in JSON and YAML bodies, set members included', async () => {
  const crd = structuredClone(WIDGET_CRD) as any;
  crd.metadata.name = 'counters.ssa.example.com';
  crd.spec.names = { plural: 'counters', singular: 'counter', kind: 'Counter' };
  crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties = {
    num: { type: 'integer' },
    set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
  };
  await installCronTab(api, crd);
  const path = '/apis/ssa.example.com/v1/namespaces/default/counters/c';
  const json = await api.req('PATCH', `${path}?fieldManager=a`, '{"apiVersion":"ssa.example.com/v1","kind":"Counter","metadata":{"name":"c"},"spec":{"num":9223372036854775807,"set":[9007199254740993]}}', APPLY);
  assert.equal(json.status, 201, json.text);
  assert.ok(json.text.includes('"spec":{"num":9223372036854775807,"set":[9007199254740993]}'), json.text);
  assert.ok(json.text.includes('"f:set":{"v:9007199254740993":{}}'), json.text);
  const yaml = await api.req('PATCH', `${path}?fieldManager=a`, 'apiVersion: ssa.example.com/v1\nkind: Counter\nmetadata:\n  name: c\nspec:\n  num: 9223372036854775806\n  set: [9007199254740993, 9007199254740995]\n', APPLY);
  assert.equal(yaml.status, 200, yaml.text);
  assert.ok(yaml.text.includes('"spec":{"num":9223372036854775806,"set":[9007199254740993,9007199254740995]}'), yaml.text);
});

test('fieldValidation of an apply body: duplicate keys are a 400 under Strict, a warning under Warn, nothing under Ignore', async () => {
  const body = 'apiVersion: ssa.example.com/v1\nkind: Widget\nmetadata:\n  name: dup\nspec:\n  image: a\n  image: b\n';
  const strict = await api.req('PATCH', `${base}/dup?fieldManager=a&fieldValidation=Strict`, body, APPLY);
  assert.equal(strict.status, 400, strict.text);
  assert.equal(strict.json.message, 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "image" already set in map');
  assert.equal((await api.req('GET', `${base}/dup`)).status, 404);
  const warn = await api.req('PATCH', `${base}/dup?fieldManager=a`, body, APPLY);
  assert.equal(warn.status, 201, warn.text);
  assert.equal(warn.json.spec.image, 'b');
  assert.match(warn.headers.get('warning') ?? '', /^299 - "error converting YAML to JSON: yaml: unmarshal errors:/);
  const json = await api.req('PATCH', `${base}/dup?fieldManager=a&fieldValidation=Strict`, '{"apiVersion":"ssa.example.com/v1","kind":"Widget","metadata":{"name":"dup"},"spec":{"image":"c","image":"d"}}', APPLY);
  assert.equal(json.status, 400, json.text);
  assert.equal(json.json.message, 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 1: key "image" already set in map');
  const ignore = await api.req('PATCH', `${base}/dup?fieldManager=a&fieldValidation=Ignore`, body, APPLY);
  assert.equal(ignore.status, 200, ignore.text);
  assert.equal(ignore.headers.get('warning'), null);
});
