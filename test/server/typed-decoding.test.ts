// Built-in objects are decoded into their Go types first, as kube's typed decoders do: a value of the wrong
// JSON type is a 400 with encoding/json's UnmarshalTypeError text (or, in a patched object, patch.go's 422),
// and nothing is stored. YAML bodies are read with YAML 1.1 scalars, as sigs.k8s.io/yaml reads them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, CRONTAB_CRD, cronTab, type Api } from './helpers.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(() => api.close());

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const clone = <T>(v: T): T => structuredClone(v);
const cannotHandle = (kind: string, version: string, err: string): string => `${kind} in version "${version}" cannot be handled as a ${kind}: ${err}`;

async function refused(path: string, body: unknown, message: string, headers: Record<string, string> = {}): Promise<void> {
  const r = await api.req('POST', path, body, headers);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.reason, 'BadRequest');
  assert.equal(r.json.message, message);
}

test('a Namespace label value of 1 is a BadRequest naming ObjectMeta.metadata.labels, and nothing is stored', async () => {
  await refused(
    '/api/v1/namespaces',
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'typed-a', labels: { x: 1 } } },
    cannotHandle('Namespace', 'v1', 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'),
  );
  assert.equal((await api.req('GET', '/api/v1/namespaces/typed-a')).status, 404);
  await refused(
    '/api/v1/namespaces',
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'typed-a' }, spec: { finalizers: [true] } },
    cannotHandle('Namespace', 'v1', 'json: cannot unmarshal bool into Go struct field NamespaceSpec.spec.finalizers of type v1.FinalizerName'),
  );
  await refused(
    '/api/v1/namespaces',
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'typed-a', uid: 5 } },
    cannotHandle('Namespace', 'v1', 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID'),
  );
});

test('updates decode the same way: a PUT of a Namespace with a label value of true', async () => {
  const cur = await api.req('GET', '/api/v1/namespaces/default');
  const body = { ...cur.json, metadata: { ...cur.json.metadata, labels: { ...cur.json.metadata.labels, a: true } } };
  const r = await api.req('PUT', '/api/v1/namespaces/default', body);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.message, cannotHandle('Namespace', 'v1', 'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string'));
  const st = await api.req('PUT', '/api/v1/namespaces/default/status', { ...cur.json, status: { phase: 1 } });
  assert.equal(st.status, 400, st.text);
  assert.equal(st.json.message, cannotHandle('Namespace', 'v1', 'json: cannot unmarshal number into Go struct field NamespaceStatus.status.phase of type v1.NamespacePhase'));
  assert.equal((await api.req('GET', '/api/v1/namespaces/default')).json.metadata.resourceVersion, cur.json.metadata.resourceVersion);
});

test('CRD fields of the wrong JSON type: bool, int64, slice, named string, a schema union', async () => {
  const cases: Array<[(c: any) => void, string]> = [
    [(c) => (c.spec.versions[0].served = 'yes'), 'json: cannot unmarshal string into Go struct field CustomResourceDefinitionVersion.spec.versions.served of type bool'],
    [
      (c) => (c.spec.versions[0].schema.openAPIV3Schema.properties.spec.maxLength = '5'),
      'json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.maxLength of type int64',
    ],
    [(c) => (c.spec.versions = {}), 'json: cannot unmarshal object into Go struct field CustomResourceDefinitionSpec.spec.versions of type []v1.CustomResourceDefinitionVersion'],
    [(c) => (c.spec.scope = 1), 'json: cannot unmarshal number into Go struct field CustomResourceDefinitionSpec.spec.scope of type v1.ResourceScope'],
    [(c) => (c.spec.names = 'x'), 'json: cannot unmarshal string into Go struct field CustomResourceDefinitionSpec.spec.names of type v1.CustomResourceDefinitionNames'],
    [(c) => (c.spec.versions[0].schema.openAPIV3Schema.maximum = 'x'), 'json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.maximum of type float64'],
    [(c) => (c.spec.versions[0].additionalPrinterColumns = [{ name: 'a', type: 'string', jsonPath: '.a', priority: 1.5 }]), 'json: cannot unmarshal number 1.5 into Go struct field CustomResourceColumnDefinition.spec.versions.additionalPrinterColumns.priority of type int32'],
    // An error inside a union's own UnmarshalJSON gets the context of the field holding the union.
    [(c) => (c.spec.versions[0].schema.openAPIV3Schema.items = { maxLength: '5' }), 'json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.items of type int64'],
    [(c) => (c.spec.versions[0].schema.openAPIV3Schema.additionalProperties = 'x'), 'boolean or JSON schema expected'],
    [(c) => (c.metadata.creationTimestamp = 5), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
    [(c) => (c.metadata.creationTimestamp = '2020-13-01T00:00:00Z'), 'parsing time "2020-13-01T00:00:00Z": month out of range'],
    [(c) => (c.metadata.creationTimestamp = 'x'), 'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"'],
    [(c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://x', caBundle: 'a*b' } } }), 'illegal base64 data at input byte 1'],
  ];
  for (const [mutate, err] of cases) {
    const c = clone(CRONTAB_CRD) as any;
    mutate(c);
    await refused(CRDS, c, cannotHandle('CustomResourceDefinition', 'v1', err));
  }
  assert.equal((await api.req('GET', `${CRDS}/crontabs.stable.example.com`)).status, 404);
  // v1beta1 types are named in their own package.
  const beta = { apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'CustomResourceDefinition', metadata: { name: 'x.y.z' }, spec: { group: 'y.z', scope: 1 } };
  await refused(
    '/apis/apiextensions.k8s.io/v1beta1/customresourcedefinitions',
    beta,
    cannotHandle('CustomResourceDefinition', 'v1beta1', 'json: cannot unmarshal number into Go struct field CustomResourceDefinitionSpec.spec.scope of type v1beta1.ResourceScope'),
  );
});

test('fields a built-in Go type does not have are dropped, and reported as the strict decoder reports them', async () => {
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'typed-u', foo: 1 }, spec: { bar: 2 }, baz: 3 };
  const warn = await api.req('POST', '/api/v1/namespaces?dryRun=All', ns);
  assert.equal(warn.status, 201, warn.text);
  assert.equal(warn.headers.get('warning'), '299 - "unknown field \\"metadata.foo\\"", 299 - "unknown field \\"spec.bar\\"", 299 - "unknown field \\"baz\\""');
  assert.equal(warn.json.baz, undefined);
  assert.equal(warn.json.metadata.foo, undefined);
  assert.deepEqual(warn.json.spec, { finalizers: ['kubernetes'] });
  const strict = await api.req('POST', '/api/v1/namespaces?fieldValidation=Strict', ns);
  assert.equal(strict.status, 400);
  assert.equal(
    strict.json.message,
    cannotHandle('Namespace', 'v1', 'strict decoding error: unknown field "metadata.foo", unknown field "spec.bar", unknown field "baz"'),
  );
  const ignore = await api.req('POST', '/api/v1/namespaces?dryRun=All&fieldValidation=Ignore', ns);
  assert.equal(ignore.status, 201);
  assert.equal(ignore.headers.get('warning'), null);
  // Inside a CRD: list indices in the path; the schema unions' own decoders are not strict.
  const c = clone(CRONTAB_CRD) as any;
  c.spec.versions[0].foo = 1;
  c.spec.versions[0].schema.openAPIV3Schema.items = { type: 'string', bar: 1 };
  const crd = await api.req('POST', `${CRDS}?dryRun=All&fieldValidation=Strict`, c);
  assert.equal(crd.status, 400);
  assert.equal(crd.json.message, cannotHandle('CustomResourceDefinition', 'v1', 'strict decoding error: unknown field "spec.versions[0].foo"'));
  // A patched object is decoded strictly too.
  const patch = (q: string) =>
    api.req('PATCH', `/api/v1/namespaces/default?dryRun=All${q}`, { spec: { x: 1 } }, { 'Content-Type': 'application/merge-patch+json' });
  const pw = await patch('');
  assert.equal(pw.status, 200);
  assert.equal(pw.headers.get('warning'), '299 - "unknown field \\"spec.x\\""');
  assert.equal(pw.json.spec.x, undefined);
  const ps = await patch('&fieldValidation=Strict');
  assert.equal(ps.status, 422);
  assert.match(ps.json.message, /^ "" is invalid: patch: Invalid value: "\{.*\}": strict decoding error: unknown field "spec\.x"$/);
});

test('integer fields read the JSON literal as Go does: 5.0 and 5e0 are not integers, while YAML 5.0 is the number 5', async () => {
  const crd = (maxLength: string): string =>
    JSON.stringify(CRONTAB_CRD).replace('"cronSpec":{"type":"string"}', `"cronSpec":{"type":"string","maxLength":${maxLength}}`);
  await refused(
    CRDS,
    crd('5.0'),
    cannotHandle(
      'CustomResourceDefinition',
      'v1',
      'json: cannot unmarshal number 5.0 into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.maxLength of type int64',
    ),
  );
  const items = JSON.stringify(CRONTAB_CRD).replace('"cronSpec":{"type":"string"}', '"cronSpec":{"type":"array","items":{"type":"string","maxLength":5e0}}');
  await refused(
    CRDS,
    items,
    cannotHandle('CustomResourceDefinition', 'v1', 'json: cannot unmarshal number 5e0 into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items of type int64'),
  );
  // A float where a float is declared is fine, and so is a string that looks like one.
  const ok = await api.req('POST', `${CRDS}?dryRun=All`, JSON.stringify(CRONTAB_CRD).replace('"cronSpec":{"type":"string"}', '"cronSpec":{"type":"string","pattern":"1.0"},"n":{"type":"number","maximum":1.5e1}'));
  assert.equal(ok.status, 201, ok.text);
  const yaml = await api.req('POST', `${CRDS}?dryRun=All`, crd('5.0'), { 'Content-Type': 'application/yaml' });
  assert.equal(yaml.status, 201, yaml.text);
});

test('a null is the zero value: a CRD with spec null is validated, not a 500', async () => {
  const c = clone(CRONTAB_CRD) as any;
  c.spec = null;
  const r = await api.req('POST', `${CRDS}?dryRun=All`, c);
  assert.equal(r.status, 422, r.text);
  const noSpec = clone(CRONTAB_CRD) as any;
  delete noSpec.spec;
  assert.equal((await api.req('POST', `${CRDS}?dryRun=All`, noSpec)).status, 422);
});

test('YAML bodies read YAML 1.1 scalars: served: yes creates the CRD', async () => {
  const yaml = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.yaml.example.com
spec:
  group: yaml.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: yes
    storage: On
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              enabled: {type: boolean}
              when: {type: string}
`;
  const r = await api.req('POST', CRDS, yaml, { 'Content-Type': 'application/yaml' });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json.spec.versions[0].served, true);
  assert.equal(r.json.spec.versions[0].storage, true);
  for (let i = 0; i < 200 && (await api.req('GET', '/apis/yaml.example.com/v1/widgets')).status !== 200; i++) await new Promise((res) => setTimeout(res, 10));
  // Custom resources' YAML is read the same way; a timestamp stays a string.
  const cr = `apiVersion: yaml.example.com/v1
kind: Widget
metadata: {name: w}
spec: {enabled: n, when: 2001-12-14t21:59:43.10-05:00}
`;
  const w = await api.req('POST', '/apis/yaml.example.com/v1/namespaces/default/widgets', cr, { 'Content-Type': 'application/yaml' });
  assert.equal(w.status, 201, w.text);
  assert.deepEqual(w.json.spec, { enabled: false, when: '2001-12-14t21:59:43.10-05:00' });
});

test('a Namespace label value of yes in YAML is a bool: the same BadRequest', async () => {
  const yaml = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: typed-y\n  labels:\n    a: yes\n';
  await refused(
    '/api/v1/namespaces',
    yaml,
    cannotHandle('Namespace', 'v1', 'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string'),
    { 'Content-Type': 'application/yaml' },
  );
});

test('patched built-in objects: merge and JSON patches decode as JSON, strategic patches as FromUnstructured', async () => {
  const ns = '/api/v1/namespaces/default';
  const patch = (ct: string, body: unknown) => api.req('PATCH', ns, body, { 'Content-Type': ct });
  const merge = await patch('application/merge-patch+json', { metadata: { labels: { a: 1 } } });
  assert.equal(merge.status, 422, merge.text);
  assert.equal(merge.json.reason, 'Invalid');
  assert.match(merge.json.message, /^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal number into Go struct field ObjectMeta\.metadata\.labels of type string$/);
  const json = await patch('application/json-patch+json', [{ op: 'add', path: '/metadata/labels/a', value: true }]);
  assert.equal(json.status, 422);
  assert.match(json.json.message, /json: cannot unmarshal bool into Go struct field ObjectMeta\.metadata\.labels of type string$/);
  const smp: Array<[unknown, string]> = [
    [{ metadata: { labels: { a: 1 } } }, 'Invalid value: "map[metadata:map[labels:map[a:1]]]": cannot convert int64 to string'],
    [{ metadata: { labels: { a: true } } }, 'Invalid value: "map[metadata:map[labels:map[a:true]]]": unrecognized type: string'],
    [{ spec: 'x' }, 'Invalid value: "map[spec:x]": cannot restore struct from: string'],
    [{ spec: { finalizers: 'x' } }, 'Invalid value: "map[spec:map[finalizers:x]]": cannot restore slice from string'],
    [{ metadata: { labels: [] } }, 'Invalid value: "map[metadata:map[labels:[]]]": cannot restore map from slice'],
  ];
  for (const [body, detail] of smp) {
    const r = await patch('application/strategic-merge-patch+json', body);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.message, ` "" is invalid: patch: ${detail}`);
    assert.deepEqual(r.json.details.causes, [{ reason: 'FieldValueInvalid', message: detail, field: 'patch' }]);
  }
  const g = await api.req('GET', ns);
  assert.equal(g.json.metadata.labels.a, undefined);
  const ok = await patch('application/strategic-merge-patch+json', { metadata: { labels: { a: 'b' } } });
  assert.equal(ok.status, 200, ok.text);
});

test('the patched object a merge or JSON patch error quotes is written as json-patch writes it', async () => {
  const created = await api.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'typed-p', labels: { z: 'y' } } });
  assert.equal(created.status, 201, created.text);
  const m = created.json.metadata;
  const meta = `"metadata":{"name":"typed-p","uid":"${m.uid}","resourceVersion":"${m.resourceVersion}","creationTimestamp":"${m.creationTimestamp}","labels":{"kubernetes.io/metadata.name":"typed-p","z":"y"},"managedFields":${JSON.stringify(m.managedFields)}}`;
  const patch = (ct: string, body: unknown) => api.req('PATCH', '/api/v1/namespaces/typed-p', body, { 'Content-Type': ct });
  // Merged objects are Go maps (sorted); what the patch did not reach keeps kube's encoding (Go field order).
  const merge = await patch('application/merge-patch+json', { status: { zz: 1, phase: 2 } });
  assert.equal(merge.status, 422, merge.text);
  const mergeText = `{"apiVersion":"v1","kind":"Namespace",${meta},"spec":{"finalizers":["kubernetes"]},"status":{"phase":2,"zz":1}}`;
  assert.equal(merge.json.message, ` "" is invalid: patch: Invalid value: ${JSON.stringify(mergeText)}: json: cannot unmarshal number into Go struct field NamespaceStatus.status.phase of type v1.NamespacePhase`);
  // A JSON patch unfolds the containers on its path; the value it adds keeps the patch's order.
  const json = await patch('application/json-patch+json', [{ op: 'add', path: '/spec/finalizers', value: { z: 1, a: 2 } }]);
  assert.equal(json.status, 422, json.text);
  const jsonText = `{"apiVersion":"v1","kind":"Namespace",${meta},"spec":{"finalizers":{"z":1,"a":2}},"status":{"phase":"Active"}}`;
  assert.equal(json.json.message, ` "" is invalid: patch: Invalid value: ${JSON.stringify(jsonText)}: json: cannot unmarshal object into Go struct field NamespaceSpec.spec.finalizers of type []v1.FinalizerName`);
});

test('a custom resource whose kind does not match the URL: Invalid under the group-kind sent', async () => {
  await installCronTab(api);
  const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';
  const r = await api.req('POST', base, { ...cronTab('k'), kind: 'Wrong' });
  assert.equal(r.status, 422, r.text);
  assert.equal(r.json.message, 'Wrong.stable.example.com "k" is invalid: kind: Invalid value: "Wrong": must be CronTab');
  assert.deepEqual(r.json.details, {
    name: 'k',
    group: 'stable.example.com',
    kind: 'Wrong',
    causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Wrong": must be CronTab', field: 'kind' }],
  });
});
