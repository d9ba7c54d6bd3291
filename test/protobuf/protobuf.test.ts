// Protobuf request bodies: real bytes captured from kubectl 1.32 (typed clients send protobuf for
// built-in kinds), decoded to exactly the JSON kubectl prints for the same objects with
// `--dry-run=client -o json`; every ObjectMeta field; kube's error wording.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeProtobufDeleteOptions,
  decodeProtobufObject,
  encodeProtobufObject,
  isProtobufContentType,
  PROTOBUF_CONTENT_TYPE,
  type DecodeTarget,
} from '../../src/server/protobuf.js';
import { StatusError } from '../../src/api/status.js';
import { bytes, envelope, int, key, map, msg, str, time, varint, type Bytes } from './wire-writer.js';

const NS: DecodeTarget = { apiVersion: 'v1', kind: 'Namespace' };
const RBAC = 'rbac.authorization.k8s.io/v1';
const b64 = (s: string): Buffer => Buffer.from(s, 'base64');

/** Decodes for `into` and returns the JSON text, keys in the order they were written. */
function decodedText(body: Buffer, into?: DecodeTarget): string {
  const r = decodeProtobufObject(body, into);
  if (r instanceof StatusError) assert.fail(`decode failed: ${r.message}`);
  return JSON.stringify(r.object);
}

function failure(r: unknown): { code: number; reason?: string; message?: string } {
  assert.ok(r instanceof StatusError, `expected a StatusError, got ${JSON.stringify(r)}`);
  return { code: r.status.code, reason: r.status.reason, message: r.status.message };
}

// ------------------------------------------------------------------ kubectl captures

/** [command, body as kubectl sent it, the object as `kubectl ... --dry-run=client -o json` prints it] */
const CAPTURES: [string, DecodeTarget, string, string][] = [
  [
    'kubectl create namespace team-a',
    NS,
    'azhzAAoPCgJ2MRIJTmFtZXNwYWNlEh4KFgoGdGVhbS1hEgAaACIAKgAyADgAQgASABoCCgAaACIA',
    '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team-a","creationTimestamp":null},"spec":{},"status":{}}',
  ],
  [
    'kubectl create role pod-reader -n team-a --verb=get,list --resource=pods --resource-name=p1',
    { apiVersion: RBAC, kind: 'Role' },
    'azhzAAokChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgRSb2xlEjsKIAoKcG9kLXJlYWRlchIAGgZ0ZWFtLWEiACoAMgA4AEIAEhcKA2dldAoEbGlzdBIAGgRwb2RzIgJwMRoAIgA=',
    '{"kind":"Role","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"name":"pod-reader","namespace":"team-a","creationTimestamp":null},"rules":[{"verbs":["get","list"],"apiGroups":[""],"resources":["pods"],"resourceNames":["p1"]}]}',
  ],
  [
    'kubectl create clusterrole agg --aggregation-rule=rbac.example.com/aggregate-to-monitoring=true',
    { apiVersion: RBAC, kind: 'ClusterRole' },
    'azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtDbHVzdGVyUm9sZRJLChMKA2FnZxIAGgAiACoAMgA4AEIAGjQKMgowCihyYmFjLmV4YW1wbGUuY29tL2FnZ3JlZ2F0ZS10by1tb25pdG9yaW5nEgR0cnVlGgAiAA==',
    '{"kind":"ClusterRole","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"name":"agg","creationTimestamp":null},"rules":null,"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"rbac.example.com/aggregate-to-monitoring":"true"}}]}}',
  ],
  [
    'kubectl create clusterrole nonres --verb=get --non-resource-url=/logs/*',
    { apiVersion: RBAC, kind: 'ClusterRole' },
    'azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtDbHVzdGVyUm9sZRIoChYKBm5vbnJlcxIAGgAiACoAMgA4AEIAEg4KA2dldCoHL2xvZ3MvKhoAIgA=',
    '{"kind":"ClusterRole","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"name":"nonres","creationTimestamp":null},"rules":[{"verbs":["get"],"nonResourceURLs":["/logs/*"]}]}',
  ],
  [
    'kubectl create rolebinding rb1 -n team-a --role=pod-reader --user=alice --group=devs --serviceaccount=team-a:bot',
    { apiVersion: RBAC, kind: 'RoleBinding' },
    'azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtSb2xlQmluZGluZxLDAQoZCgNyYjESABoGdGVhbS1hIgAqADIAOABCABIqCgRVc2VyEhlyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvGgVhbGljZSIAEioKBUdyb3VwEhlyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvGgRkZXZzIgASHwoOU2VydmljZUFjY291bnQSABoDYm90IgZ0ZWFtLWEaLQoZcmJhYy5hdXRob3JpemF0aW9uLms4cy5pbxIEUm9sZRoKcG9kLXJlYWRlchoAIgA=',
    '{"kind":"RoleBinding","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"name":"rb1","namespace":"team-a","creationTimestamp":null},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"alice"},{"kind":"Group","apiGroup":"rbac.authorization.k8s.io","name":"devs"},{"kind":"ServiceAccount","name":"bot","namespace":"team-a"}],"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"pod-reader"}}',
  ],
  [
    'kubectl create clusterrolebinding crb1 --clusterrole=view --user=bob',
    { apiVersion: RBAC, kind: 'ClusterRoleBinding' },
    'azhzAAoyChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEhJDbHVzdGVyUm9sZUJpbmRpbmcScAoUCgRjcmIxEgAaACIAKgAyADgAQgASKAoEVXNlchIZcmJhYy5hdXRob3JpemF0aW9uLms4cy5pbxoDYm9iIgAaLgoZcmJhYy5hdXRob3JpemF0aW9uLms4cy5pbxILQ2x1c3RlclJvbGUaBHZpZXcaACIA',
    '{"kind":"ClusterRoleBinding","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"name":"crb1","creationTimestamp":null},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"bob"}],"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"}}',
  ],
];

for (const [cmd, into, body, json] of CAPTURES) {
  test(`${cmd}: the protobuf body decodes to kubectl's JSON for it`, () => {
    assert.equal(decodedText(b64(body), into), json);
    // Without a target the envelope's own kind is used.
    assert.equal(decodedText(b64(body)), json);
    // And the decoded object encodes back to kubectl's bytes, as kube-apiserver would answer it.
    const r = decodeProtobufObject(b64(body), into);
    if (r instanceof StatusError) assert.fail(r.message);
    assert.equal(encodeProtobufObject(r.object).toString('base64'), body);
  });
}

test('kubectl create namespace --save-config: the annotation it embeds is the JSON form of the same object', () => {
  // kubectl writes the JSON encoding of the object into the annotation, then sends the object as protobuf.
  const body = b64(
    'azhzAAoPCgJ2MRIJTmFtZXNwYWNlEskBCsABCgZ0ZWFtLWISABoAIgAqADIAOABCAGKnAQowa3ViZWN0bC5rdWJlcm5ldGVzLmlvL2xhc3QtYXBwbGllZC1jb25maWd1cmF0aW9uEnN7ImtpbmQiOiJOYW1lc3BhY2UiLCJhcGlWZXJzaW9uIjoidjEiLCJtZXRhZGF0YSI6eyJuYW1lIjoidGVhbS1iIiwiY3JlYXRpb25UaW1lc3RhbXAiOm51bGx9LCJzcGVjIjp7fSwic3RhdHVzIjp7fX0KEgAaAgoAGgAiAA==',
  );
  const r = decodeProtobufObject(body, NS);
  assert.ok(!(r instanceof StatusError));
  assert.equal(r.apiVersion, 'v1');
  assert.equal(r.kind, 'Namespace');
  const meta = r.object['metadata'] as { annotations: Record<string, string> };
  const embedded = meta.annotations['kubectl.kubernetes.io/last-applied-configuration']!;
  assert.equal(embedded, '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team-b","creationTimestamp":null},"spec":{},"status":{}}\n');
  const { annotations: _, ...rest } = meta;
  assert.equal(JSON.stringify({ ...r.object, metadata: rest }), embedded.trim());
});

// ------------------------------------------------------------------ every field

const fieldsV1 = '{"f:metadata":{"f:labels":{".":{},"f:team":{}}}}';
const fullNamespace: Bytes = [
  ...msg(
    1,
    str(1, 'team-c'),
    str(2, 'team-'),
    str(3, 'ignored-ns'),
    str(4, '/api/v1/namespaces/team-c'),
    str(5, '0b5e1c7e-7d0b-4b39-9a31-d2d0c3c0a001'),
    str(6, '42'),
    int(7, 3),
    time(8, '2021-06-20T07:35:27Z'),
    time(9, '2021-06-21T00:00:00Z'),
    int(10, 0), // a pointer: zero is still written
    map(11, { team: 'c', app: 'web', 'z.example.com/tier': 'x' }), // map order on the wire is not the JSON order
    map(12, { note: 'hello' }),
    msg(13, str(5, 'v1'), str(1, 'ConfigMap'), str(3, 'owner'), str(4, 'u-1'), int(6, false)),
    msg(13, str(5, 'apps/v1'), str(1, 'Deployment'), str(3, 'web'), str(4, 'u-2'), int(6, true), int(7, true)),
    str(14, 'example.com/cleanup'),
    str(14, 'kubernetes'),
    msg(17, str(1, 'kubectl-create'), str(2, 'Update'), str(3, 'v1'), time(4, '2021-06-20T07:35:27Z'), str(6, 'FieldsV1'), msg(7, str(1, fieldsV1))),
    msg(17, str(1, 'status-writer'), str(2, 'Update'), str(3, 'v1'), str(8, 'status')),
  ),
  ...msg(2, str(1, 'kubernetes')),
  ...msg(
    3,
    str(1, 'Terminating'),
    msg(2, str(1, 'NamespaceDeletionContentFailure'), str(2, 'False'), time(4, '1969-12-31T23:59:00Z'), str(5, 'ContentDeleted'), str(6, 'All content successfully deleted')),
    msg(2, str(1, 'NamespaceFinalizersRemaining'), str(2, 'False'), bytes(4, [])), // zero time: null
  ),
];

test('Namespace with every ObjectMeta, spec and status field decodes as encoding/json writes it', () => {
  const want = {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: {
      name: 'team-c',
      generateName: 'team-',
      namespace: 'ignored-ns',
      selfLink: '/api/v1/namespaces/team-c',
      uid: '0b5e1c7e-7d0b-4b39-9a31-d2d0c3c0a001',
      resourceVersion: '42',
      generation: 3,
      creationTimestamp: '2021-06-20T07:35:27Z',
      deletionTimestamp: '2021-06-21T00:00:00Z',
      deletionGracePeriodSeconds: 0,
      labels: { app: 'web', team: 'c', 'z.example.com/tier': 'x' },
      annotations: { note: 'hello' },
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-1', controller: false },
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'u-2', controller: true, blockOwnerDeletion: true },
      ],
      finalizers: ['example.com/cleanup', 'kubernetes'],
      managedFields: [
        {
          manager: 'kubectl-create',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2021-06-20T07:35:27Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } } },
        },
        { manager: 'status-writer', operation: 'Update', apiVersion: 'v1', subresource: 'status' },
      ],
    },
    spec: { finalizers: ['kubernetes'] },
    status: {
      phase: 'Terminating',
      conditions: [
        {
          type: 'NamespaceDeletionContentFailure',
          status: 'False',
          lastTransitionTime: '1969-12-31T23:59:00Z',
          reason: 'ContentDeleted',
          message: 'All content successfully deleted',
        },
        { type: 'NamespaceFinalizersRemaining', status: 'False', lastTransitionTime: null },
      ],
    },
  };
  assert.equal(decodedText(envelope('v1', 'Namespace', fullNamespace), NS), JSON.stringify(want));
});

test('zero values: omitempty scalars are left out, pointers and structs are written', () => {
  const raw = [...msg(1, str(1, ''), int(7, 0), bytes(8, []), msg(13, int(6, false))), ...msg(3, str(1, ''))];
  assert.equal(
    decodedText(envelope('v1', 'Namespace', raw), NS),
    '{"kind":"Namespace","apiVersion":"v1","metadata":{"creationTimestamp":null,"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":"","controller":false}]},"spec":{},"status":{}}',
  );
  // An empty object message: every struct still appears.
  assert.equal(decodedText(envelope('v1', 'Namespace', []), NS), '{"kind":"Namespace","apiVersion":"v1","metadata":{"creationTimestamp":null},"spec":{},"status":{}}');
});

test('int64 fields keep their sign and size; times keep seconds only', () => {
  const raw = msg(
    1,
    int(7, -5n), // ten-byte two's complement varint
    int(10, 9007199254740991n),
    msg(8, int(1, 1624174527), int(2, 999999999)), // nanoseconds are dropped
    msg(9, int(1, -62135596800n)), // Go's zero time: null
  );
  const meta = JSON.parse(decodedText(envelope('v1', 'Namespace', raw), NS)).metadata;
  assert.deepEqual(meta, { generation: -5, creationTimestamp: '2021-06-20T07:35:27Z', deletionTimestamp: null, deletionGracePeriodSeconds: 9007199254740991 });
  const far = JSON.parse(decodedText(envelope('v1', 'Namespace', msg(1, msg(8, int(1, 253402300800n)), msg(9, int(1, -62135596801n)))), NS)).metadata;
  assert.deepEqual(far, { creationTimestamp: '10000-01-01T00:00:00Z', deletionTimestamp: '0000-12-31T23:59:59Z' });
});

test('repeated messages merge, scalars take the last value, lists and maps accumulate', () => {
  const raw = [
    ...msg(1, str(1, 'first'), map(11, { a: '1', b: '1' }), str(14, 'f1')),
    ...msg(1, str(1, 'second'), map(11, { b: '2' }), str(14, 'f2'), str(2, 'gen-')),
  ];
  const meta = JSON.parse(decodedText(envelope('v1', 'Namespace', raw), NS)).metadata;
  assert.deepEqual(meta, { name: 'second', generateName: 'gen-', creationTimestamp: null, labels: { a: '1', b: '2' }, finalizers: ['f1', 'f2'] });
});

test('unknown fields of every wire type are skipped', () => {
  const unknown: Bytes = [
    ...int(99, 7),
    ...key(98, 1), ...[1, 2, 3, 4, 5, 6, 7, 8],
    ...key(97, 5), ...[1, 2, 3, 4],
    ...str(96, 'x'),
    ...key(95, 3), ...int(1, 1), ...key(1, 3), ...key(1, 4), ...key(95, 4), // a group, nested
    ...key(15, 2), ...varint(3), ...[0x61, 0x62, 0x63], // the dropped clusterName field
  ];
  const raw = [...msg(1, ...[unknown, str(1, 'kept')]), ...unknown];
  const meta = JSON.parse(decodedText(envelope('v1', 'Namespace', raw), NS)).metadata;
  assert.deepEqual(meta, { name: 'kept', creationTimestamp: null });
});

test('an envelope without apiVersion or kind takes the endpoint type', () => {
  const body = Buffer.from([0x6b, 0x38, 0x73, 0x00, ...msg(1), ...msg(2, msg(1, str(1, 'team-d')))]);
  assert.equal(decodedText(body, NS), '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team-d","creationTimestamp":null},"spec":{},"status":{}}');
  const r = decodeProtobufObject(body);
  assert.deepEqual(failure(r), { code: 400, reason: 'BadRequest', message: `Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:"", Kind:""}'` });
});

// ------------------------------------------------------------------ errors

test('bodies that are not protobuf objects: kube\'s "unrecognized" BadRequest', () => {
  const cases: [Buffer, string][] = [
    [Buffer.alloc(0), 'empty data (<empty>)'],
    [
      Buffer.from('{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"x"}}'),
      'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"Namespace","apiVersio ...)',
    ],
    [Buffer.from('k8s\x00', 'latin1'), 'empty body (6b387300)'],
    [Buffer.from('k8s\x01abc', 'latin1'), 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (6b387301616263)'],
    [b64('azhzAAoPCgJ2MRIJTmFtZXNwYWNlEh4KFgoGdGVhbS1hEgAaACIAKgAyADgAQgASABoCCgAaACIA').subarray(0, 30), 'unexpected EOF (6b3873000a0f0a02763112094e616d657370616365121e0a160a06746561)'],
    [Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0c]), 'proto: Unknown: wiretype end group for non-group (6b387300' + '0c)'],
  ];
  for (const [body, why] of cases) {
    assert.deepEqual(failure(decodeProtobufObject(body, NS)), {
      code: 400,
      reason: 'BadRequest',
      message: `the object provided is unrecognized (must be of type Namespace): ${why}`,
    });
  }
});

test('malformed object bytes: "<Kind> in version ... cannot be handled as a Namespace: <gogo error>"', () => {
  const cases: [Bytes, string][] = [
    [msg(1, int(1, 5)), 'proto: wrong wireType = 0 for field Name'],
    [msg(1, str(7, 'x')), 'proto: wrong wireType = 2 for field Generation'],
    [[...key(1, 0), 1], 'proto: wrong wireType = 0 for field ObjectMeta'],
    [msg(1, msg(13, str(6, 'x'))), 'proto: wrong wireType = 2 for field Controller'],
    [[0x00, 0x01], 'proto: Namespace: illegal tag 0 (wire type 0)'],
    [[0x02], 'proto: Namespace: illegal tag 0 (wire type 2)'],
    [msg(1, key(20, 4)), 'proto: ObjectMeta: wiretype end group for non-group'],
    [[...key(1, 2), 10, 0x0a], 'unexpected EOF'],
    [[...key(1, 2), ...varint(-1n)], 'proto: negative length found during unmarshaling'],
    [[...Array<number>(10).fill(0x80), 0x01], 'proto: integer overflow'],
    [[...key(50, 6)], 'proto: illegal wireType 6'],
    [[...key(50, 4)], 'proto: Namespace: wiretype end group for non-group'],
    [key(50, 3), 'unexpected EOF'], // a group never closed
    [[...key(50, 1), 1, 2], 'unexpected EOF'],
    [msg(1, msg(8, str(1, 'x'))), 'proto: wrong wireType = 2 for field Seconds'],
    [msg(1, msg(17, msg(7, str(1, '{nope')))), `metav1.FieldsV1 is not valid JSON: ${jsonError('{nope')}`],
  ];
  for (const [raw, why] of cases) {
    assert.deepEqual(
      failure(decodeProtobufObject(envelope('v1', 'Namespace', raw), NS)),
      { code: 400, reason: 'BadRequest', message: `Namespace in version "v1" cannot be handled as a Namespace: ${why}` },
      why,
    );
  }
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  return '';
}

test('kinds with no protobuf message here, and custom resource endpoints', () => {
  assert.deepEqual(failure(decodeProtobufObject(envelope('v1', 'Pod', []), NS)), {
    code: 400,
    reason: 'BadRequest',
    message: 'Pod in version "v1" cannot be handled as a Namespace: no kind "Pod" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
  });
  assert.deepEqual(failure(decodeProtobufObject(envelope('v2', 'Namespace', []), NS)), {
    code: 400,
    reason: 'BadRequest',
    message: 'Namespace in version "v2" cannot be handled as a Namespace: no kind "Namespace" is registered for version "v2" in scheme "pkg/api/legacyscheme/scheme.go:30"',
  });
  // Custom resources are unstructured: kube's protobuf serializer cannot decode into them.
  const cr = { apiVersion: 'stable.example.com/v1', kind: 'CronTab' };
  assert.deepEqual(failure(decodeProtobufObject(envelope('stable.example.com/v1', 'CronTab', []), cr)), {
    code: 400,
    reason: 'BadRequest',
    message: `CronTab in version "v1" cannot be handled as a CronTab: Object 'Kind' is missing in 'object has no kind field '`,
  });
  // A known kind sent to another endpoint decodes; the handler's kind check answers it, as for JSON.
  const r = decodeProtobufObject(envelope('v1', 'Namespace', []), { apiVersion: RBAC, kind: 'Role' });
  assert.ok(!(r instanceof StatusError));
  assert.equal(r.kind, 'Namespace');
});

// ------------------------------------------------------------------ DeleteOptions

test('DeleteOptions bodies from client-go (kubectl drain --disable-eviction)', () => {
  const cases: [string, string, object][] = [
    ['--grace-period=7', 'azhzAAoTCgJ2MRINRGVsZXRlT3B0aW9ucxICCAcaACIA', { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 7 }],
    [
      '--grace-period=0 --dry-run=server',
      'azhzAAoTCgJ2MRINRGVsZXRlT3B0aW9ucxIHCAAqA0FsbBoAIgA=',
      { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, dryRun: ['All'] },
    ],
    ['(defaults)', 'azhzAAoTCgJ2MRINRGVsZXRlT3B0aW9ucxIAGgAiAA==', { kind: 'DeleteOptions', apiVersion: 'v1' }],
  ];
  for (const [flags, body, want] of cases) {
    assert.equal(JSON.stringify(decodeProtobufDeleteOptions(b64(body))), JSON.stringify(want), flags);
  }
});

test('DeleteOptions: every field, any apiVersion', () => {
  const raw = [
    ...int(1, 30),
    ...msg(2, str(1, 'u-1'), str(2, '')),
    ...int(3, false),
    ...str(4, 'Foreground'),
    ...str(5, 'All'),
    ...int(6, true),
  ];
  const want =
    '{"kind":"DeleteOptions","apiVersion":"meta.k8s.io/v1","gracePeriodSeconds":30,"preconditions":{"uid":"u-1","resourceVersion":""},"orphanDependents":false,"propagationPolicy":"Foreground","dryRun":["All"],"ignoreStoreReadErrorWithClusterBreakingPotential":true}';
  assert.equal(JSON.stringify(decodeProtobufDeleteOptions(envelope('meta.k8s.io/v1', 'DeleteOptions', raw))), want);
  const anyVersion = decodeProtobufDeleteOptions(envelope('rbac.authorization.k8s.io/v1', 'DeleteOptions', int(1, 1)));
  assert.deepEqual(anyVersion, { kind: 'DeleteOptions', apiVersion: 'rbac.authorization.k8s.io/v1', gracePeriodSeconds: 1 });
  const defaulted = decodeProtobufDeleteOptions(Buffer.from([0x6b, 0x38, 0x73, 0x00, ...bytes(2, int(1, 2))]));
  assert.deepEqual(defaulted, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 2 });
});

test('DeleteOptions failures are what kube\'s delete handler answers: 500, no reason, the error text', () => {
  const cases: [Buffer, string][] = [
    [envelope('v1', 'Namespace', []), 'no kind "Namespace" is registered for version "v1" in scheme "pkg/apis/meta/internalversion/scheme/register.go:27"'],
    [envelope('v1', 'DeleteOptions', str(1, 'x')), 'proto: wrong wireType = 2 for field GracePeriodSeconds'],
    [Buffer.from('k8s\x00', 'latin1'), 'empty body'],
    [Buffer.from('{"gracePeriodSeconds":1}'), 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]'],
  ];
  for (const [body, message] of cases) {
    const r = decodeProtobufDeleteOptions(body);
    assert.ok(r instanceof StatusError);
    assert.deepEqual(r.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
  }
});

test('content type', () => {
  assert.equal(PROTOBUF_CONTENT_TYPE, 'application/vnd.kubernetes.protobuf');
  assert.ok(isProtobufContentType('application/vnd.kubernetes.protobuf'));
  assert.ok(isProtobufContentType('Application/Vnd.Kubernetes.Protobuf; charset=binary'));
  assert.ok(!isProtobufContentType('application/vnd.kubernetes.protobuf+x'));
  assert.ok(!isProtobufContentType('application/json'));
  assert.ok(!isProtobufContentType(undefined));
});
