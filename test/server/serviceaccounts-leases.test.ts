// core/v1 ServiceAccounts and coordination.k8s.io/v1 Leases over HTTP, against kube-apiserver 1.33's answers:
// discovery, ValidateServiceAccount and ValidateLease with their Status, cleanSecretReferences and the
// enforce-mountable-secrets warning, Table rows, MicroTime in JSON and protobuf, strategic merge patch of
// secrets, the lease's optimistic concurrency; and kube-controller-manager's default ServiceAccount and
// kube-root-ca.crt in every namespace.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';
import { envelope, int, msg, str } from '../protobuf/wire-writer.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(() => api.close());

const SA = '/api/v1/namespaces/default/serviceaccounts';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('discovery: serviceaccounts (sa) in v1, leases in coordination.k8s.io/v1 after apiextensions.k8s.io', async () => {
  const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  const core = await api.req('GET', '/api/v1');
  assert.deepEqual(
    (core.json.resources as any[]).find((r) => r.name === 'serviceaccounts'),
    { name: 'serviceaccounts', singularName: 'serviceaccount', namespaced: true, kind: 'ServiceAccount', verbs, shortNames: ['sa'], storageVersionHash: 'pbx9ZvyFpBE=' },
  );
  const group = await api.req('GET', '/apis/coordination.k8s.io/v1');
  assert.deepEqual(group.json, {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'coordination.k8s.io/v1',
    resources: [{ name: 'leases', singularName: 'lease', namespaced: true, kind: 'Lease', verbs, storageVersionHash: 'gqkMMb/YqFM=' }],
  });
  // kube-aggregator's priorities: events.k8s.io 17750, authentication.k8s.io 17700, authorization.k8s.io 17600,
  // rbac.authorization.k8s.io 17000, admissionregistration.k8s.io and apiextensions.k8s.io 16700 (then by name), coordination.k8s.io 16500, flowcontrol.apiserver.k8s.io 16100;
  // then our logical clusters' group, at the priority of CRDs' groups (1000).
  const groups = await api.req('GET', '/apis');
  assert.deepEqual(
    (groups.json.groups as any[]).map((g) => g.name),
    ['events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'rbac.authorization.k8s.io', 'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'coordination.k8s.io', 'flowcontrol.apiserver.k8s.io', 'tenancy.crd-apiserver.io'],
  );
});

test('ServiceAccount: name a DNS-1123 subdomain, secret references cleaned to their names, the deprecated annotation warned of once', async () => {
  let r = await api.req('POST', SA, { metadata: { name: 'Bad_Name' } });
  assert.equal(r.status, 422);
  const dns =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  assert.equal(r.json.message, `ServiceAccount "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${dns}`);
  assert.deepEqual(r.json.details, { name: 'Bad_Name', kind: 'ServiceAccount', causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Bad_Name": ${dns}`, field: 'metadata.name' }] });

  r = await api.req('POST', SA, {
    metadata: { name: 'builder', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } },
    secrets: [{ name: 'a', kind: 'Secret', namespace: 'other', uid: 'u', fieldPath: 'x' }, { kind: 'Secret' }],
    imagePullSecrets: [{ name: 'pull' }],
    automountServiceAccountToken: false,
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.headers.get('warning'), '299 - "metadata.annotations[kubernetes.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets"');
  assert.deepEqual(r.json.secrets, [{ name: 'a' }, {}]);
  assert.deepEqual(r.json.imagePullSecrets, [{ name: 'pull' }]);
  assert.equal(r.json.automountServiceAccountToken, false);
  // Keys in Go field order.
  assert.deepEqual(Object.keys(r.json), ['kind', 'apiVersion', 'metadata', 'secrets', 'imagePullSecrets', 'automountServiceAccountToken']);
  // An update that keeps the annotation is not warned again.
  r = await api.req('PATCH', `${SA}/builder`, { metadata: { labels: { a: 'b' } } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers.get('warning'), null);
});

test('ServiceAccount: strategic merge patch merges secrets by name; Table NAME SECRETS AGE', async () => {
  let r = await api.req('POST', SA, { metadata: { name: 'smp' }, secrets: [{ name: 'a' }, { name: 'b' }] });
  assert.equal(r.status, 201, r.text);
  r = await api.req('PATCH', `${SA}/smp`, { secrets: [{ name: 'c' }, { name: 'a', $patch: 'delete' }] }, { 'Content-Type': 'application/strategic-merge-patch+json' });
  assert.equal(r.status, 200, r.text);
  // mergeSortedSlice: a patch item the live list lacks goes before the server-only ones.
  assert.deepEqual(r.json.secrets, [{ name: 'c' }, { name: 'b' }]);
  // A merge patch replaces the list.
  r = await api.req('PATCH', `${SA}/smp`, { secrets: [{ name: 'd' }] }, { 'Content-Type': 'application/merge-patch+json' });
  assert.deepEqual(r.json.secrets, [{ name: 'd' }]);

  const t = await api.req('GET', `${SA}/smp`, undefined, { Accept: TABLE });
  assert.deepEqual(
    t.json.columnDefinitions.map((c: any) => [c.name, c.type, c.format]),
    [
      ['Name', 'string', 'name'],
      ['Secrets', 'string', ''],
      ['Age', 'string', ''],
    ],
  );
  assert.equal(t.json.rows[0].cells[0], 'smp');
  assert.equal(t.json.rows[0].cells[1], 1);
  assert.match(t.json.rows[0].cells[2], /^\d+s$/);
});

test('Lease: ValidateLease with kube\'s messages; the CoordinatedLeaderElection fields dropped (gate off)', async () => {
  let r = await api.req('POST', LEASES, { metadata: { name: 'bad' }, spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } });
  assert.equal(r.status, 422);
  assert.deepEqual(r.json, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Lease.coordination.k8s.io "bad" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
    reason: 'Invalid',
    details: {
      name: 'bad',
      group: 'coordination.k8s.io',
      kind: 'Lease',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than 0', field: 'spec.leaseDurationSeconds' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.leaseTransitions' },
      ],
    },
    code: 422,
  });
  r = await api.req('POST', LEASES, { metadata: { name: 'gated' }, spec: { holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' } });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.spec, { holderIdentity: 'a' });
  // Empty: spec is a struct, always written.
  r = await api.req('POST', LEASES, { metadata: { name: 'empty' } });
  assert.deepEqual(r.json.spec, {});
  assert.deepEqual(Object.keys(r.json), ['kind', 'apiVersion', 'metadata', 'spec']);
});

test('Lease: MicroTime is RFC3339Micro in UTC, all six digits required; protobuf Timestamps keep microseconds', async () => {
  let r = await api.req('POST', LEASES, {
    metadata: { name: 'micro' },
    spec: { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTime: '2026-11-26T12:00:00.000000Z', renewTime: '2026-11-26T13:00:00.123456+01:00', leaseTransitions: 0 },
  });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.spec, { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTime: '2026-11-26T12:00:00.000000Z', renewTime: '2026-11-26T12:00:00.123456Z', leaseTransitions: 0 });
  r = await api.req('GET', `${LEASES}/micro`);
  assert.equal(r.json.spec.renewTime, '2026-11-26T12:00:00.123456Z');

  r = await api.req('POST', LEASES, { metadata: { name: 'seconds' }, spec: { renewTime: '2026-11-26T12:00:00Z' } });
  assert.equal(r.status, 400);
  assert.equal(
    r.json.message,
    'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-11-26T12:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
  );
  r = await api.req('POST', LEASES, { metadata: { name: 'nanos' }, spec: { renewTime: '2026-11-26T12:00:00.123456789Z' } });
  assert.equal(r.status, 400);
  assert.match(r.json.message, /cannot parse "789Z" as "Z07:00"$/);

  // Lease{metadata{name}, spec{holderIdentity, renewTime{seconds, nanos}}} as protobuf: nanoseconds truncated to microseconds.
  const lease = envelope('coordination.k8s.io/v1', 'Lease', [...msg(1, str(1, 'proto')), ...msg(2, str(1, 'pb'), msg(4, int(1, 1795694400), int(2, 123456789)))]);
  const res = await fetch(api.url + LEASES, { method: 'POST', body: new Uint8Array(lease), headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/json' } });
  r = { status: res.status, headers: res.headers, text: await res.text(), json: undefined };
  r.json = JSON.parse(r.text);
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.spec, { holderIdentity: 'pb', renewTime: '2026-11-26T12:00:00.123456Z' });
});

test('Lease: PUT creates; updates need a resourceVersion; a stale one is a 409; Table NAME HOLDER AGE', async () => {
  let r = await api.req('PUT', `${LEASES}/put`, { metadata: { name: 'put' }, spec: { holderIdentity: 'a' } });
  assert.equal(r.status, 201, r.text);
  const rv = r.json.metadata.resourceVersion;
  r = await api.req('PUT', `${LEASES}/put`, { metadata: { name: 'put' }, spec: { holderIdentity: 'b' } });
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'leases.coordination.k8s.io "put" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
  r = await api.req('PUT', `${LEASES}/put`, { metadata: { name: 'put', resourceVersion: rv }, spec: { holderIdentity: 'b' } });
  assert.equal(r.status, 200, r.text);
  r = await api.req('PUT', `${LEASES}/put`, { metadata: { name: 'put', resourceVersion: rv }, spec: { holderIdentity: 'c' } });
  assert.equal(r.status, 409);
  assert.equal(r.json.message, 'Operation cannot be fulfilled on leases.coordination.k8s.io "put": the object has been modified; please apply your changes to the latest version and try again');

  const t = await api.req('GET', `${LEASES}?fieldSelector=metadata.name=put`, undefined, { Accept: TABLE });
  assert.deepEqual(t.json.columnDefinitions.map((c: any) => c.name), ['Name', 'Holder', 'Age']);
  assert.equal(
    t.json.columnDefinitions[1].description,
    'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
  );
  assert.deepEqual(t.json.rows.map((row: any) => row.cells.slice(0, 2)), [['put', 'b']]);
  const empty = await api.req('GET', `${LEASES}/empty`, undefined, { Accept: TABLE });
  assert.equal(empty.json.rows[0].cells[1], '');
});

test('every namespace gets a default ServiceAccount and kube-root-ca.crt, recreated when deleted, restored when changed', async () => {
  let r = await api.req('POST', '/api/v1/namespaces', { metadata: { name: 'fresh' } });
  assert.equal(r.status, 201, r.text);
  const sa = await eventually('the default ServiceAccount', async () => {
    const g = await api.req('GET', '/api/v1/namespaces/fresh/serviceaccounts/default');
    return g.status === 200 ? g.json : undefined;
  });
  assert.deepEqual(Object.keys(sa.metadata), ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp']);
  const CM = '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt';
  const cm = await eventually('kube-root-ca.crt', async () => {
    const g = await api.req('GET', CM);
    return g.status === 200 ? g.json : undefined;
  });
  assert.deepEqual(cm.metadata.annotations, { 'kubernetes.io/description': DESCRIPTION });
  // The plain-HTTP server has no CA: kube-controller-manager's insecure client config has no CAData either.
  assert.deepEqual(cm.data, { 'ca.crt': '' });
  assert.deepEqual(cm.metadata.managedFields.map((m: any) => [m.manager, m.operation]), [['kube-controller-manager', 'Update']]);
  assert.deepEqual(cm.metadata.managedFields[0].fieldsV1, { 'f:data': { '.': {}, 'f:ca.crt': {} }, 'f:metadata': { 'f:annotations': { '.': {}, 'f:kubernetes.io/description': {} } } });

  r = await api.req('DELETE', '/api/v1/namespaces/fresh/serviceaccounts/default');
  assert.equal(r.status, 200);
  await eventually('the default ServiceAccount again', async () => {
    const g = await api.req('GET', '/api/v1/namespaces/fresh/serviceaccounts/default');
    return g.status === 200 && g.json.metadata.uid !== sa.metadata.uid ? true : undefined;
  });

  r = await api.req('PATCH', CM, { data: { 'ca.crt': 'forged', extra: 'x' }, metadata: { annotations: { 'kubernetes.io/description': null } } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(r.status, 200, r.text);
  await eventually('kube-root-ca.crt restored', async () => {
    const g = await api.req('GET', CM);
    return g.json.data['ca.crt'] === '' && g.json.data.extra === undefined && g.json.metadata.annotations?.['kubernetes.io/description'] === DESCRIPTION ? true : undefined;
  });
  r = await api.req('DELETE', CM);
  assert.equal(r.status, 200);
  await eventually('kube-root-ca.crt recreated', async () => {
    const g = await api.req('GET', CM);
    return g.status === 200 && g.json.metadata.uid !== cm.metadata.uid ? true : undefined;
  });
  // The initial namespaces have theirs too.
  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    await eventually(`${ns}'s defaults`, async () => {
      const a = await api.req('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`);
      const b = await api.req('GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`);
      return a.status === 200 && b.status === 200 ? true : undefined;
    });
  }
});

test('a deleted namespace goes with its defaults: they are not recreated while it terminates', async () => {
  let r = await api.req('POST', '/api/v1/namespaces', { metadata: { name: 'brief' } });
  assert.equal(r.status, 201, r.text);
  await eventually('the defaults', async () => {
    const a = await api.req('GET', '/api/v1/namespaces/brief/serviceaccounts/default');
    const b = await api.req('GET', '/api/v1/namespaces/brief/configmaps/kube-root-ca.crt');
    return a.status === 200 && b.status === 200 ? true : undefined;
  });
  r = await api.req('DELETE', '/api/v1/namespaces/brief');
  assert.equal(r.status, 200);
  await eventually('the namespace to go', async () => ((await api.req('GET', '/api/v1/namespaces/brief')).status === 404 ? true : undefined));
  // Recreated under the same name, it gets fresh defaults.
  r = await api.req('POST', '/api/v1/namespaces', { metadata: { name: 'brief' } });
  assert.equal(r.status, 201, r.text);
  await eventually('fresh defaults', async () => {
    const a = await api.req('GET', '/api/v1/namespaces/brief/serviceaccounts/default');
    const b = await api.req('GET', '/api/v1/namespaces/brief/configmaps/kube-root-ca.crt');
    return a.status === 200 && b.status === 200 ? true : undefined;
  });
});
