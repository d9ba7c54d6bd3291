// Built-in kinds in etcd as kube-apiserver stores them (src/server/protobuf-storage.ts): the JSON our
// registry writes encodes to the bytes of k8s.io/api's fixtures (testdata/HEAD at v0.33.0: the `k8s\0`
// envelope around the storage version's message), and every stored value decodes back to the very
// same JSON text, which GenericStore's no-op update check relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtinStoredKinds, protobufStorageCodecs } from '../../src/server/protobuf-storage.js';
import { hasProtobufForm } from '../../src/server/protobuf.js';
import { etcdValueCodec } from '../../src/storage/etcd-value-codec.js';
import { transformersFromConfig } from '../../src/storage/encryption/config.js';
import { BUILTIN_KINDS } from '../../src/apis/index.js';
import { typedOrder } from '../../src/registry/typed-order.js';
import { parseJSON, stringifyJSON } from '../../src/util/json-int64.js';
import { requireKubectl, startTestServer } from '../e2e/harness.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/protobuf/', import.meta.url));
const codecs = protobufStorageCodecs();

/** The stored kinds, by the fixture name of their storage version (core.v1.ConfigMap). */
const STORED = builtinStoredKinds().filter((k) => hasProtobufForm(k.apiVersion, k.kind));
const fixtureName = (apiVersion: string, kind: string): string => `${apiVersion.includes('/') ? apiVersion.replace('/', '.') : `core.${apiVersion}`}.${kind}`;

test('the kinds stored as protobuf: every built-in kind with storage and a protobuf form, events.k8s.io as core v1 Event', () => {
  const names = [...new Set(STORED.map((k) => `${k.keyPrefix} ${fixtureName(k.apiVersion, k.kind)}`))].sort();
  assert.deepEqual(names, [
    '/registry/clusterrolebindings/ rbac.authorization.k8s.io.v1.ClusterRoleBinding',
    '/registry/clusterroles/ rbac.authorization.k8s.io.v1.ClusterRole',
    '/registry/configmaps/ core.v1.ConfigMap',
    '/registry/events/ core.v1.Event',
    '/registry/flowschemas/ flowcontrol.apiserver.k8s.io.v1.FlowSchema',
    '/registry/leases/ coordination.k8s.io.v1.Lease',
    '/registry/mutatingwebhookconfigurations/ admissionregistration.k8s.io.v1.MutatingWebhookConfiguration',
    '/registry/namespaces/ core.v1.Namespace',
    '/registry/prioritylevelconfigurations/ flowcontrol.apiserver.k8s.io.v1.PriorityLevelConfiguration',
    '/registry/rolebindings/ rbac.authorization.k8s.io.v1.RoleBinding',
    '/registry/roles/ rbac.authorization.k8s.io.v1.Role',
    '/registry/secrets/ core.v1.Secret',
    '/registry/serviceaccounts/ core.v1.ServiceAccount',
    '/registry/validatingadmissionpolicies/ admissionregistration.k8s.io.v1.ValidatingAdmissionPolicy',
    '/registry/validatingadmissionpolicybindings/ admissionregistration.k8s.io.v1.ValidatingAdmissionPolicyBinding',
    '/registry/validatingwebhookconfigurations/ admissionregistration.k8s.io.v1.ValidatingWebhookConfiguration',
  ]);
  // JSON (as kube stores them): CRDs and custom resources.
  for (const key of ['/registry/apiextensions.k8s.io/customresourcedefinitions/a.b.c', '/registry/stable.example.com/crontabs/ns/x']) {
    assert.equal(codecs(key), undefined, key);
  }
});

for (const k of STORED.filter((k, i, all) => all.findIndex((o) => o.keyPrefix === k.keyPrefix) === i)) {
  const name = fixtureName(k.apiVersion, k.kind);
  test(`${name}: the registry's JSON of k8s.io/api's fixture is stored as its .pb (the k8s\\0 envelope) and read back as the same text`, () => {
    const pb = readFileSync(`${FIXTURES}${name}.pb`);
    const decl = BUILTIN_KINDS.find((d) => d.keyPrefix === k.keyPrefix && !d.storage)!;
    // What GenericStore writes: the object in its Go struct's key order.
    const stored = stringifyJSON(typedOrder(decl.object)(parseJSON(readFileSync(`${FIXTURES}${name}.json`, 'utf8')) as Record<string, unknown>));
    const codec = codecs(`${k.keyPrefix}ns/name`)!;
    const bytes = codec.encode(stored)!;
    assert.equal(bytes.subarray(0, 4).toString('latin1'), 'k8s\0');
    assert.equal(bytes.toString('hex'), pb.toString('hex'));
    assert.equal(codec.decode(pb), stored);
  });
}

test('an empty resourceVersion (how the registry stores every object) keeps its place in the decoded JSON', () => {
  const codec = codecs('/registry/configmaps/ns/a')!;
  const stored = '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","uid":"u","resourceVersion":"","creationTimestamp":"2024-01-01T00:00:00Z"},"data":{"k":"v"}}';
  assert.equal(codec.decode(codec.encode(stored)!), stored);
});

test('the etcd value codec: protobuf, then encryption (raw ciphertext); JSON written earlier is read and stale', () => {
  const config = {
    kind: 'EncryptionConfiguration',
    apiVersion: 'apiserver.config.k8s.io/v1',
    resources: [{ resources: ['secrets'], providers: [{ aesgcm: { keys: [{ name: 'k1', secret: Buffer.alloc(32, 7).toString('base64') }] } }] }],
  };
  const lookup = transformersFromConfig(config, true);
  const transformers = (key: string) => (key.startsWith('/registry/secrets/') ? lookup({ group: '', resource: 'secrets' }) : undefined);
  const codec = etcdValueCodec({ objects: codecs, transformers });
  const secret = '{"kind":"Secret","apiVersion":"v1","metadata":{"name":"s","namespace":"ns","uid":"u","resourceVersion":"","creationTimestamp":"2024-01-01T00:00:00Z"},"data":{"k":"dg=="},"type":"Opaque"}';
  const key = '/registry/secrets/ns/s';
  const bytes = codec.toStorage(key, secret);
  assert.equal(bytes.subarray(0, 'k8s:enc:aesgcm:v1:k1:'.length).toString('latin1'), 'k8s:enc:aesgcm:v1:k1:');
  assert.ok(!bytes.includes(Buffer.from('dg==')));
  assert.deepEqual(codec.fromStorage(key, bytes), { value: secret });
  // The plaintext under the cipher is the protobuf kube encrypts.
  const clear = etcdValueCodec({ objects: codecs });
  assert.equal(clear.toStorage(key, secret).subarray(0, 4).toString('latin1'), 'k8s\0');
  // Written by an earlier version: JSON in the clear, and base64 ciphertext of JSON.
  const cm = '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","resourceVersion":""}}';
  assert.deepEqual(codec.fromStorage('/registry/configmaps/ns/a', Buffer.from(cm)), { value: cm, stale: true });
  const text = transformersFromConfig(config)({ group: '', resource: 'secrets' })!.toStorage(secret, key);
  assert.deepEqual(codec.fromStorage(key, Buffer.from(text, 'latin1')), { value: secret, stale: true });
  // Custom resources stay JSON text.
  const cr = '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"}}';
  assert.equal(codec.toStorage('/registry/stable.example.com/crontabs/ns/x', cr).toString(), cr);
});

test('every object a server stores (bootstrap objects and kubectl-made ones of each kind) reads back as the same JSON text', async () => {
  requireKubectl();
  const s = await startTestServer();
  try {
    const yaml = `
apiVersion: v1
kind: Namespace
metadata: {name: pb, labels: {a: b}, annotations: {}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: empty, namespace: pb}
data: {}
immutable: false
---
apiVersion: v1
kind: ConfigMap
metadata: {name: full, namespace: pb, labels: {x: "1"}, finalizers: [example.com/f]}
data: {a: "1", b: "\u00e9\u{1F600}<&>"}
binaryData: {c: AAEC}
---
apiVersion: v1
kind: Secret
metadata: {name: s, namespace: pb}
stringData: {password: hunter2}
type: Opaque
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa, namespace: pb}
automountServiceAccountToken: false
secrets: [{name: s}]
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: l, namespace: pb}
spec: {holderIdentity: me, leaseDurationSeconds: 15, acquireTime: "2024-01-01T00:00:00.123456Z", renewTime: "2024-01-01T00:00:01.000000Z", leaseTransitions: 0}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: r, namespace: pb}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb, namespace: pb}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects: [{kind: ServiceAccount, name: sa, namespace: pb}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: pb-aggregate}
aggregationRule: {clusterRoleSelectors: [{matchLabels: {pb: "yes"}}]}
---
apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: e1, namespace: pb}
eventTime: "2024-01-01T00:00:00.000001Z"
reportingController: example.com/c
reportingInstance: i
action: Act
reason: Why
regarding: {kind: ConfigMap, name: full, namespace: pb}
type: Normal
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: pb-vwc}
webhooks:
- name: v.pb.example.com
  clientConfig: {url: "https://hook.example.com/v", caBundle: AAEC}
  rules: [{operations: [CREATE, UPDATE], apiGroups: [pb.example.com], apiVersions: [v1], resources: [widgets], scope: Namespaced}]
  matchConditions: [{name: not-system, expression: "!request.userInfo.username.startsWith('system:')"}]
  sideEffects: None
  admissionReviewVersions: [v1]
  failurePolicy: Ignore
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: pb-mwc}
webhooks:
- name: m.pb.example.com
  clientConfig: {service: {namespace: pb, name: hook, path: /m, port: 8443}}
  rules: [{operations: ["*"], apiGroups: [pb.example.com], apiVersions: ["*"], resources: [widgets/status]}]
  objectSelector: {matchExpressions: [{key: a, operator: In, values: [b]}]}
  sideEffects: NoneOnDryRun
  admissionReviewVersions: [v1, v1beta1]
  reinvocationPolicy: IfNeeded
  timeoutSeconds: 5
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: pb-vap}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules: [{operations: [CREATE], apiGroups: [pb.example.com], apiVersions: [v1], resources: [widgets], resourceNames: [w1]}]
    excludeResourceRules: [{operations: [CREATE], apiGroups: [pb.example.com], apiVersions: [v1], resources: [widgets], scope: Cluster}]
  variables: [{name: nm, expression: "object.metadata.name"}]
  validations: [{expression: "variables.nm != 'x'", message: "not x", reason: Invalid, messageExpression: "'not ' + variables.nm"}]
  auditAnnotations: [{key: who, valueExpression: "request.userInfo.username"}]
  matchConditions: [{name: always, expression: "true"}]
  failurePolicy: Ignore
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: pb-vapb}
spec:
  policyName: pb-vap
  paramRef: {selector: {matchLabels: {pb: "yes"}}, namespace: pb, parameterNotFoundAction: Allow}
  matchResources: {namespaceSelector: {matchLabels: {pb: "yes"}}}
  validationActions: [Warn, Audit]
`;
    let r = await s.kubectl(['apply', '--server-side', '-f', '-'], { stdin: yaml });
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['label', 'configmap', '-n', 'pb', 'empty', 'y=2']);
    assert.equal(r.code, 0, r.stderr);
    // The policy's status (type checking, conditions) as its controller writes it.
    r = await s.kubectl(['wait', 'validatingadmissionpolicy/pb-vap', '--for=jsonpath={.status.observedGeneration}=1', '--timeout=20s']);
    assert.equal(r.code, 0, r.stderr);
    const { items } = await s.kv.list('/registry/');
    const kinds = new Set<string>();
    let checked = 0;
    const differ: string[] = [];
    for (const kv of items) {
      const codec = codecs(kv.key);
      if (!codec) continue;
      const bytes = codec.encode(kv.value);
      assert.ok(bytes, kv.key);
      const back = codec.decode(bytes);
      if (back !== kv.value) differ.push(`${kv.key}\n  ${kv.value}\n  ${back}`);
      kinds.add(kv.key.split('/')[2]!);
      checked++;
    }
    assert.deepEqual(differ, []);
    assert.deepEqual([...kinds].sort(), [
      'clusterrolebindings', 'clusterroles', 'configmaps', 'events', 'flowschemas', 'leases', 'mutatingwebhookconfigurations', 'namespaces',
      'prioritylevelconfigurations', 'rolebindings', 'roles', 'secrets', 'serviceaccounts',
      'validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'validatingwebhookconfigurations',
    ]);
    assert.ok(checked > 50, `${checked} objects`);
  } finally {
    await s.close();
  }
});

// CRDs (JSON at v1beta1, as kube stores them): test/server/stored-crds.test.ts.
