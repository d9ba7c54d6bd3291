// Built-in kinds on etcd as kube-apiserver 1.33 stores them: kubectl writes through a server on etcd, and
// the raw etcd values (admissionregistration's kinds included) are Kubernetes protobuf in the `k8s\0` envelope (encrypted when the resource is, with
// raw ciphertext as kube writes it); values put into etcd as kube-apiserver writes them (k8s.io/api's
// fixture bytes) are served by kubectl get; a no-op update stays a no-op across a restart (the cache
// then holds what etcd's bytes decode to). CRDs are JSON at apiextensions.k8s.io/v1beta1, as kube stores
// them: kubectl's are written so and served as the same v1 text after a restart, kube-apiserver's are
// served as v1, and the v1 JSON earlier versions wrote is read and rewritten at v1beta1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';
import { requireEtcd, startEtcd, type EtcdProcess } from '../storage/etcd-process.js';
import { decodeStoredObject } from '../../src/server/protobuf.js';

const FIXTURES = new URL('../fixtures/protobuf/', import.meta.url);
const KEY = Buffer.alloc(32, 9);

let etcd: EtcdProcess;
let raw: Etcd3;
let s: TestServer | undefined;
before(async () => {
  requireKubectl();
  requireEtcd();
  etcd = await startEtcd();
  raw = new Etcd3({ hosts: etcd.url });
});
after(async () => {
  await s?.close();
  raw?.close();
  await etcd?.destroy();
});

const objects = `
apiVersion: v1
kind: Namespace
metadata: {name: pb}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: pb, labels: {z: "1", a: "2"}}
data: {key: value}
---
apiVersion: v1
kind: Secret
metadata: {name: sec, namespace: pb}
stringData: {password: hunter2}
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: lease, namespace: pb}
spec: {holderIdentity: me, leaseDurationSeconds: 15}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: role, namespace: pb}
rules: [{verbs: [get], resources: [configmaps], apiGroups: [""]}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: vwc}
webhooks:
- name: v.pb.example.com
  clientConfig: {url: "https://hook.example.com/v", caBundle: AAEC}
  rules: [{operations: [CREATE], apiGroups: [pb.example.com], apiVersions: [v1], resources: [widgets], scope: Namespaced}]
  matchConditions: [{name: always, expression: "true"}]
  sideEffects: None
  admissionReviewVersions: [v1]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: mwc}
webhooks:
- name: m.pb.example.com
  clientConfig: {service: {namespace: pb, name: hook, port: 8443}}
  rules: [{operations: ["*"], apiGroups: [pb.example.com], apiVersions: ["*"], resources: [widgets]}]
  sideEffects: None
  admissionReviewVersions: [v1]
  reinvocationPolicy: IfNeeded
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: vap}
spec:
  matchConstraints:
    resourceRules: [{operations: [CREATE], apiGroups: [pb.example.com], apiVersions: [v1], resources: [widgets], resourceNames: [w1]}]
  validations: [{expression: "object.metadata.name != 'x'"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: vapb}
spec: {policyName: vap, validationActions: [Deny]}
`;

/** etcd key → the object's API path. */
const KEYS: Record<string, string> = {
  '/registry/namespaces/pb': '/api/v1/namespaces/pb',
  '/registry/configmaps/pb/cm': '/api/v1/namespaces/pb/configmaps/cm',
  '/registry/secrets/pb/sec': '/api/v1/namespaces/pb/secrets/sec',
  '/registry/leases/pb/lease': '/apis/coordination.k8s.io/v1/namespaces/pb/leases/lease',
  '/registry/roles/pb/role': '/apis/rbac.authorization.k8s.io/v1/namespaces/pb/roles/role',
  '/registry/validatingwebhookconfigurations/vwc': '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/vwc',
  '/registry/mutatingwebhookconfigurations/mwc': '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/mwc',
  '/registry/validatingadmissionpolicies/vap': '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/vap',
  '/registry/validatingadmissionpolicybindings/vapb': '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/vapb',
};

/** The object as the server answers a GET (managedFields included). */
async function getJSON(path: string): Promise<Record<string, any>> {
  const r = await s!.kubectl(['get', '--raw', path]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** A PUT of exactly this object (kubectl replace would add its own manager and annotations). */
async function put(path: string, obj: unknown): Promise<Record<string, any>> {
  const r = await s!.kubectl(['replace', '--raw', path, '-f', s!.file('put.json', JSON.stringify(obj))]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function eventually(path: string): Promise<Record<string, any>> {
  for (let i = 0; ; i++) {
    const r = await s!.kubectl(['get', '--raw', path]);
    if (r.code === 0) return JSON.parse(r.stdout);
    if (i === 50) assert.fail(r.stderr);
    await new Promise((res) => setTimeout(res, 100));
  }
}

test('kubectl-made built-ins are stored as k8s\\0 protobuf that decodes to the object; kube-written bytes are served', async () => {
  s = await startTestServer({ etcd: { servers: [etcd.url] } });
  let r = await s.kubectl(['apply', '-f', '-'], { stdin: objects });
  assert.equal(r.code, 0, r.stderr);
  // The policy's status, as its controller writes it, before the values are compared.
  r = await s.kubectl(['wait', 'validatingadmissionpolicy/vap', '--for=jsonpath={.status.observedGeneration}=1', '--timeout=20s']);
  assert.equal(r.code, 0, r.stderr);

  for (const [key, path] of Object.entries(KEYS)) {
    const got = await getJSON(path);
    const res = await raw.get(key).exec();
    const kv = res.kvs[0]!;
    assert.equal(kv.value.subarray(0, 4).toString('latin1'), 'k8s\0', key);
    const stored = decodeStoredObject(kv.value) as Record<string, any>;
    // kube's storage clears the resourceVersion (it is the key's mod revision).
    assert.equal(stored.metadata.resourceVersion, undefined, key);
    assert.equal(got.metadata.resourceVersion, kv.mod_revision, key);
    assert.deepEqual({ ...stored, metadata: { ...stored.metadata, resourceVersion: got.metadata.resourceVersion } }, got, key);
  }
  // Map keys in Go's order, as kube returns them once stored.
  const cm = await getJSON(KEYS['/registry/configmaps/pb/cm']!);
  assert.deepEqual(Object.keys(cm.metadata.labels), ['a', 'z']);

  // Bytes as kube-apiserver writes them (k8s.io/api's fixtures), put straight into etcd, are served.
  const AR = '/apis/admissionregistration.k8s.io/v1';
  for (const [fixture, key, path, resource] of [
    ['core.v1.ConfigMap', '/registry/configmaps/namespaceValue/nameValue', '/api/v1/namespaces/namespaceValue/configmaps/nameValue', 'configmap'],
    ['rbac.authorization.k8s.io.v1.Role', '/registry/roles/namespaceValue/nameValue', '/apis/rbac.authorization.k8s.io/v1/namespaces/namespaceValue/roles/nameValue', 'role'],
    // Embedded structs (RuleWithOperations' Rule, NamedRuleWithOperations' RuleWithOperations) as nested messages.
    ['admissionregistration.k8s.io.v1.ValidatingWebhookConfiguration', '/registry/validatingwebhookconfigurations/nameValue', `${AR}/validatingwebhookconfigurations/nameValue`, 'validatingwebhookconfiguration'],
    ['admissionregistration.k8s.io.v1.ValidatingAdmissionPolicyBinding', '/registry/validatingadmissionpolicybindings/nameValue', `${AR}/validatingadmissionpolicybindings/nameValue`, 'validatingadmissionpolicybinding'],
  ] as const) {
    const pb = readFileSync(new URL(`${fixture}.pb`, FIXTURES));
    const want = JSON.parse(readFileSync(new URL(`${fixture}.json`, FIXTURES), 'utf8'));
    const written = await raw.put(key).value(pb).exec();
    const got = await eventually(path);
    assert.equal(got.metadata.resourceVersion, written.header.revision);
    // kubectl shows it too.
    const table = await s.kubectl(['get', '-n', 'namespaceValue', resource, 'nameValue']);
    assert.match(table.stdout, /^nameValue\s/m);
    assert.deepEqual({ ...got, metadata: { ...got.metadata, resourceVersion: want.metadata.resourceVersion } }, want, fixture);
  }
  // The fixtures' placeholder values are no working configuration (label selector operator "operatorValue"),
  // and they carry a finalizer: taken out of etcd again, and gone from the server.
  for (const r of ['validatingwebhookconfigurations', 'validatingadmissionpolicybindings']) {
    await raw.delete().key(`/registry/${r}/nameValue`).exec();
    for (let i = 0; (await s.kubectl(['get', r, 'nameValue'])).code === 0; i++) {
      assert.ok(i < 50, `${r}/nameValue still served`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
});

test('a no-op update leaves the resourceVersion, before and after a restart (the cache then holds the decoded bytes)', async () => {
  const path = KEYS['/registry/configmaps/pb/cm']!;
  const before = await getJSON(path);
  assert.equal((await put(path, before)).metadata.resourceVersion, before.metadata.resourceVersion);
  await s!.close();
  s = await startTestServer({ etcd: { servers: [etcd.url] } });
  for (const [key, p] of Object.entries(KEYS)) {
    const obj = await getJSON(p);
    assert.equal((await put(p, obj)).metadata.resourceVersion, obj.metadata.resourceVersion, key);
    // A real change is written, as protobuf.
    const changed = await put(p, { ...obj, metadata: { ...obj.metadata, labels: { ...obj.metadata.labels, changed: 'yes' } } });
    assert.ok(Number(changed.metadata.resourceVersion) > Number(obj.metadata.resourceVersion), key);
    const stored = decodeStoredObject((await raw.get(key).exec()).kvs[0]!.value) as Record<string, any>;
    assert.equal(stored.metadata.labels.changed, 'yes');
  }
});

test('encryption at rest on etcd: kube\'s prefix, then raw AES-CBC ciphertext of the protobuf', async (t) => {
  await s!.close();
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-enc-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'enc.yaml');
  writeFileSync(
    config,
    `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - aescbc:\n          keys:\n            - name: key1\n              secret: ${KEY.toString('base64')}\n      - identity: {}\n`,
  );
  s = await startTestServer({ etcd: { servers: [etcd.url] }, encryptionProviderConfig: config });
  let r = await s.kubectl(['create', 'secret', 'generic', '-n', 'pb', 'enc', '--from-literal=password=topsecret']);
  assert.equal(r.code, 0, r.stderr);
  const value = (await raw.get('/registry/secrets/pb/enc').exec()).kvs[0]!.value;
  const prefix = 'k8s:enc:aescbc:v1:key1:';
  assert.equal(value.subarray(0, prefix.length).toString('latin1'), prefix);
  assert.ok(!value.includes(Buffer.from('topsecret')));
  const body = value.subarray(prefix.length);
  const d = createDecipheriv('aes-256-cbc', KEY, body.subarray(0, 16));
  const plain = Buffer.concat([d.update(body.subarray(16)), d.final()]);
  assert.equal(plain.subarray(0, 4).toString('latin1'), 'k8s\0');
  assert.equal(Buffer.from((decodeStoredObject(plain) as any).data.password, 'base64').toString(), 'topsecret');
  r = await s.kubectl(['get', 'secret', '-n', 'pb', 'enc', '-o', 'jsonpath={.data.password}']);
  assert.equal(Buffer.from(r.stdout, 'base64').toString(), 'topsecret');
  // The Secret written before encryption was turned on (protobuf in the clear) is still read (identity).
  r = await s.kubectl(['get', 'secret', '-n', 'pb', 'sec', '-o', 'jsonpath={.data.password}']);
  assert.equal(Buffer.from(r.stdout, 'base64').toString(), 'hunter2');
  // A Secret as kube-apiserver encrypts it (k8s.io/api's fixture bytes under AES-CBC) is served.
  const iv = randomBytes(16);
  const c = createCipheriv('aes-256-cbc', KEY, iv);
  const sealed = Buffer.concat([Buffer.from(prefix, 'latin1'), iv, c.update(readFileSync(new URL('core.v1.Secret.pb', FIXTURES))), c.final()]);
  await raw.put('/registry/secrets/namespaceValue/nameValue').value(sealed).exec();
  const fixture = JSON.parse(readFileSync(new URL('core.v1.Secret.json', FIXTURES), 'utf8'));
  const served = await eventually('/api/v1/namespaces/namespaceValue/secrets/nameValue');
  assert.deepEqual(served.data, fixture.data);
  assert.equal(served.metadata.uid, fixture.metadata.uid);
});

test('values an earlier version stored as JSON are read, and rewritten as protobuf by an update that changes nothing', async () => {
  const key = '/registry/configmaps/pb/legacy';
  const json = '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"legacy","namespace":"pb","uid":"0b3f3c1e-0000-4000-8000-000000000001","resourceVersion":"","creationTimestamp":"2024-01-01T00:00:00Z"},"data":{"k":"v"}}';
  await raw.put(key).value(json).exec();
  const path = '/api/v1/namespaces/pb/configmaps/legacy';
  const obj = await eventually(path);
  assert.deepEqual(obj.data, { k: 'v' });
  assert.equal((await put(path, obj)).metadata.resourceVersion === obj.metadata.resourceVersion, false);
  const value = (await raw.get(key).exec()).kvs[0]!.value;
  assert.equal(value.subarray(0, 4).toString('latin1'), 'k8s\0');
  // Now in the form a write stores: the next no-op update is one.
  const again = await getJSON(path);
  assert.equal((await put(path, again)).metadata.resourceVersion, again.metadata.resourceVersion);

  // Webhook configurations, which earlier versions stored as JSON whatever the media type.
  const vwcKey = '/registry/validatingwebhookconfigurations/legacy';
  const vwc = {
    kind: 'ValidatingWebhookConfiguration',
    apiVersion: 'admissionregistration.k8s.io/v1',
    metadata: { name: 'legacy', uid: '0b3f3c1e-0000-4000-8000-000000000003', resourceVersion: '', generation: 1, creationTimestamp: '2024-01-01T00:00:00Z' },
    webhooks: [
      {
        name: 'a.pb.example.com',
        clientConfig: { url: 'https://a.example.com/' },
        rules: [{ operations: ['CREATE'], apiGroups: ['pb.example.com'], apiVersions: ['v1'], resources: ['widgets'], scope: '*' }],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        sideEffects: 'None',
        timeoutSeconds: 10,
        admissionReviewVersions: ['v1'],
      },
    ],
  };
  await raw.put(vwcKey).value(JSON.stringify(vwc)).exec();
  const vwcPath = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/legacy';
  const legacy = await eventually(vwcPath);
  assert.deepEqual(legacy.webhooks, vwc.webhooks);
  assert.notEqual((await put(vwcPath, legacy)).metadata.resourceVersion, legacy.metadata.resourceVersion);
  const pb = (await raw.get(vwcKey).exec()).kvs[0]!.value;
  assert.equal(pb.subarray(0, 4).toString('latin1'), 'k8s\0');
  assert.deepEqual((decodeStoredObject(pb) as Record<string, any>).webhooks, vwc.webhooks);
  const rewritten = await getJSON(vwcPath);
  assert.equal((await put(vwcPath, rewritten)).metadata.resourceVersion, rewritten.metadata.resourceVersion);
});

test('a CRD kube-apiserver stored (JSON at apiextensions.k8s.io/v1beta1) is served as v1, established, and its custom resources (JSON) work', async () => {
  const key = '/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.kube.example.com';
  const v1beta1 = {
    kind: 'CustomResourceDefinition',
    apiVersion: 'apiextensions.k8s.io/v1beta1',
    metadata: { name: 'widgets.kube.example.com', uid: '5f0c2b7e-0000-4000-8000-000000000002', generation: 1, creationTimestamp: '2024-01-01T00:00:00Z' },
    spec: {
      group: 'kube.example.com',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      scope: 'Namespaced',
      validation: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
      versions: [{ name: 'v1', served: true, storage: true }],
      conversion: { strategy: 'None' },
      preserveUnknownFields: false,
    },
    status: { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] },
  };
  await raw.put(key).value(JSON.stringify(v1beta1)).exec();
  let r = await s!.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.kube.example.com']);
  assert.equal(r.code, 0, r.stderr);
  const crd = await getJSON('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.kube.example.com');
  assert.equal(crd.apiVersion, 'apiextensions.k8s.io/v1');
  assert.deepEqual(crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size, { type: 'integer' });
  // Our controllers' status update stored it as kube does, at v1beta1, the schema still in the spec.
  const stored = JSON.parse((await raw.get(key).exec()).kvs[0]!.value.toString());
  assert.equal(stored.apiVersion, 'apiextensions.k8s.io/v1beta1');
  assert.deepEqual(stored.spec.validation, v1beta1.spec.validation);
  assert.ok(stored.status.conditions.some((c: { type: string }) => c.type === 'Established'));
  r = await s!.kubectl(['create', '-f', '-'], { stdin: 'apiVersion: kube.example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: pb}\nspec: {size: 3}\n' });
  assert.equal(r.code, 0, r.stderr);
  const cr = (await raw.get('/registry/kube.example.com/widgets/pb/w').exec()).kvs[0]!.value;
  assert.equal(JSON.parse(cr.toString()).spec.size, 3);
});

const GADGETS = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.pb.example.com, labels: {z: "1", a: "2"}}
spec:
  group: pb.example.com
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: string, description: "<b> & c"}}}}}}
    subresources: {status: {}}
    additionalPrinterColumns: [{name: Size, type: string, jsonPath: .spec.size}]
  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: string, maxLength: 9}}}}}}
    subresources: {status: {}}
`;

test('a CRD made with kubectl is stored as kube-apiserver stores it (apiextensions.k8s.io/v1beta1 JSON) and served as the same v1 text after a restart', async () => {
  const key = '/registry/apiextensions.k8s.io/customresourcedefinitions/gadgets.pb.example.com';
  const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.pb.example.com';
  let r = await s!.kubectl(['apply', '--server-side', '-f', '-'], { stdin: GADGETS });
  assert.equal(r.code, 0, r.stderr);
  r = await s!.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/gadgets.pb.example.com']);
  assert.equal(r.code, 0, r.stderr);
  const text = (await raw.get(key).exec()).kvs[0]!.value.toString('utf8');
  // Go's encoding/json Encoder: TypeMeta first, HTML characters escaped, a newline at the end.
  assert.ok(text.startsWith('{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1beta1","metadata":{"name":"gadgets.pb.example.com","uid":'), text.slice(0, 200));
  assert.ok(text.endsWith('}\n'));
  assert.ok(text.includes('"description":"\\u003cb\\u003e \\u0026 c"'));
  const stored = JSON.parse(text);
  assert.equal(stored.metadata.resourceVersion, undefined);
  // managedFields are kept as they are: their entries name v1.
  assert.deepEqual([...new Set(stored.metadata.managedFields.map((m: { apiVersion: string }) => m.apiVersion))], ['apiextensions.k8s.io/v1']);
  assert.deepEqual(Object.keys(stored.spec), ['group', 'version', 'names', 'scope', 'subresources', 'versions', 'conversion', 'preserveUnknownFields']);
  assert.equal(stored.spec.version, 'v1');
  assert.deepEqual(stored.spec.subresources, { status: {} });
  assert.deepEqual(stored.spec.versions[0].additionalPrinterColumns, [{ name: 'Size', type: 'string', JSONPath: '.spec.size' }]);
  assert.equal(stored.spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.size.maxLength, 9);
  assert.equal(stored.spec.preserveUnknownFields, false);
  assert.deepEqual(stored.status.storedVersions, ['v1']);

  // Served as v1, byte for byte the same from the cache (the registry's text) and, after a restart, from etcd.
  const served = await s!.kubectl(['get', '--raw', path]);
  assert.equal(served.code, 0, served.stderr);
  const crd = JSON.parse(served.stdout);
  assert.equal(crd.apiVersion, 'apiextensions.k8s.io/v1');
  assert.deepEqual(crd.spec.versions[0].subresources, { status: {} });
  assert.deepEqual(crd.spec.versions[0].additionalPrinterColumns, [{ name: 'Size', type: 'string', jsonPath: '.spec.size' }]);
  assert.equal(crd.spec.versions[1].additionalPrinterColumns, undefined);
  await s!.close();
  s = await startTestServer({ etcd: { servers: [etcd.url] } });
  const again = await s.kubectl(['get', '--raw', path]);
  assert.equal(again.stdout, served.stdout);
  // An update that changes nothing stays a no-op.
  assert.equal((await put(path, crd)).metadata.resourceVersion, crd.metadata.resourceVersion);
});

test('a CRD stored as v1 JSON (by an earlier version) is served as it was, and rewritten at v1beta1 by a no-op update', async () => {
  const key = '/registry/apiextensions.k8s.io/customresourcedefinitions/gadgets.pb.example.com';
  const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.pb.example.com';
  const before = await s!.kubectl(['get', '--raw', path]);
  const crd = JSON.parse(before.stdout);
  // The v1 text the registry stores (its resourceVersion empty in place), as earlier versions put it into etcd.
  const registryText = JSON.stringify({ ...crd, metadata: { ...crd.metadata, resourceVersion: '' } });
  await raw.put(key).value(registryText).exec();
  let obj: Record<string, any> = {};
  for (let i = 0; i < 50; i++) {
    obj = await getJSON(path);
    if (obj.metadata.resourceVersion !== crd.metadata.resourceVersion) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  assert.deepEqual({ ...obj, metadata: { ...obj.metadata, resourceVersion: '' } }, { ...crd, metadata: { ...crd.metadata, resourceVersion: '' } });
  const updated = await put(path, obj);
  assert.ok(Number(updated.metadata.resourceVersion) > Number(obj.metadata.resourceVersion));
  assert.equal(JSON.parse((await raw.get(key).exec()).kvs[0]!.value.toString()).apiVersion, 'apiextensions.k8s.io/v1beta1');
  assert.equal((await put(path, updated)).metadata.resourceVersion, updated.metadata.resourceVersion);
});

test('--storage-media-type application/json stores built-ins as JSON (and reads the protobuf already there)', async () => {
  await s!.close();
  s = await startTestServer({ etcd: { servers: [etcd.url] }, storageMediaType: 'application/json' });
  const r = await s.kubectl(['create', 'configmap', '-n', 'pb', 'as-json', '--from-literal=k=v']);
  assert.equal(r.code, 0, r.stderr);
  const value = (await raw.get('/registry/configmaps/pb/as-json').exec()).kvs[0]!.value;
  assert.equal(JSON.parse(value.toString()).data.k, 'v');
  assert.deepEqual((await getJSON(KEYS['/registry/configmaps/pb/cm']!)).data, { key: 'value' });
});
