// A type fuzz over every built-in kind: each value of a valid object, one at a time, is replaced by null, 1,
// "x", true, {} and [] and sent as a dry-run create. No answer may be a 5xx; a value whose JSON type does not
// fit its Go field (as its declaration says) must be refused as kube's decoder refuses it, and every accepted
// body must be one kube's decoder also accepts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';
import { BUILTIN_KINDS } from '../../src/apis/index.js';
import type { GoField, GoFieldType, GoStruct } from '../../src/api/go-struct.js';
import { JSONSchemaProps } from '../../src/apis/apiextensions/json-schema-props.js';
import { gvString } from '../../src/api/resource.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(() => api.close());

const TIME = '2020-01-01T00:00:00Z';
const MICRO = '2020-01-01T00:00:00.000001Z';
const REFERENCE = { kind: 'CronTab', namespace: 'default', name: 'c', uid: 'u', apiVersion: 'stable.example.com/v1', resourceVersion: '1', fieldPath: 'spec' };

/** One valid object per built-in kind, touching as many of its fields as it validly can. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  'v1/Event': {
    metadata: { name: 'fuzz', labels: { a: 'b' } },
    involvedObject: REFERENCE,
    reason: 'R',
    message: 'm',
    source: { component: 'c', host: 'h' },
    firstTimestamp: TIME,
    lastTimestamp: TIME,
    count: 1,
    type: 'Normal',
    eventTime: MICRO,
    series: { count: 2, lastObservedTime: MICRO },
    action: 'A',
    related: REFERENCE,
    reportingComponent: 'example.com/c',
    reportingInstance: 'i',
  },
  'events.k8s.io/v1/Event': {
    metadata: { name: 'fuzz' },
    eventTime: MICRO,
    series: { count: 2, lastObservedTime: MICRO },
    reportingController: 'example.com/c',
    reportingInstance: 'i',
    action: 'A',
    reason: 'R',
    regarding: REFERENCE,
    related: REFERENCE,
    note: 'n',
    type: 'Normal',
  },
  'v1/Namespace': {
    metadata: {
      name: 'fuzz',
      labels: { a: 'b' },
      annotations: { c: 'd' },
      finalizers: ['example.com/f'],
      ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'o', uid: 'u', controller: true, blockOwnerDeletion: false }],
      creationTimestamp: TIME,
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active', conditions: [{ type: 'T', status: 'True', lastTransitionTime: TIME, reason: 'r', message: 'm' }] },
  },
  'apiextensions.k8s.io/v1/CustomResourceDefinition': {
    metadata: { name: 'fuzzes.fuzz.example.com', labels: { a: 'b' } },
    spec: {
      group: 'fuzz.example.com',
      names: { plural: 'fuzzes', singular: 'fuzz', kind: 'Fuzz', listKind: 'FuzzList', shortNames: ['fz'], categories: ['all'] },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          deprecated: true,
          deprecationWarning: 'w',
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'd',
              properties: {
                spec: {
                  type: 'object',
                  required: ['a'],
                  properties: {
                    a: { type: 'string', maxLength: 5, pattern: '^a', enum: ['a', 'ab'] },
                    n: { type: 'number', maximum: 10, minimum: 0, multipleOf: 2, default: 2 },
                    r: { type: 'integer' },
                    l: { type: 'array', items: { type: 'string' }, maxItems: 3, 'x-kubernetes-list-type': 'set' },
                    m: { type: 'object', additionalProperties: { type: 'integer' } },
                    i: { 'x-kubernetes-int-or-string': true },
                  },
                  'x-kubernetes-validations': [{ rule: 'self.a != "x"', message: 'm' }],
                },
                status: { type: 'object', properties: { r: { type: 'integer' } } },
              },
            },
          },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.r', statusReplicasPath: '.status.r' } },
          additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.spec.a', priority: 0, description: 'x' }],
          selectableFields: [{ jsonPath: '.spec.a' }],
        },
      ],
      conversion: { strategy: 'None' },
    },
  },
  'apiextensions.k8s.io/v1beta1/CustomResourceDefinition': {
    metadata: { name: 'fuzzes.fuzz.example.com' },
    spec: {
      group: 'fuzz.example.com',
      version: 'v1',
      names: { plural: 'fuzzes', kind: 'Fuzz' },
      scope: 'Namespaced',
      validation: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } },
      subresources: { status: {} },
      additionalPrinterColumns: [{ name: 'A', type: 'string', JSONPath: '.spec.a' }],
      versions: [{ name: 'v1', served: true, storage: true }],
      conversion: { strategy: 'None' },
      preserveUnknownFields: false,
    },
  },
  'authentication.k8s.io/v1/TokenReview': { spec: { token: 't', audiences: ['a'] } },
  'authentication.k8s.io/v1/SelfSubjectReview': { status: { userInfo: { username: 'u', uid: 'i', groups: ['g'], extra: { k: ['v'] } } } },
  'authorization.k8s.io/v1/SelfSubjectAccessReview': {
    spec: {
      resourceAttributes: {
        namespace: 'default',
        verb: 'get',
        group: 'g',
        version: 'v1',
        resource: 'r',
        subresource: 's',
        name: 'n',
        fieldSelector: { requirements: [{ key: 'a', operator: 'In', values: ['b'] }] },
        labelSelector: { rawSelector: 'a=b' },
      },
    },
    status: { allowed: false, denied: false, reason: 'r', evaluationError: 'e' },
  },
  'authorization.k8s.io/v1/SubjectAccessReview': {
    spec: { nonResourceAttributes: { path: '/p', verb: 'get' }, user: 'u', groups: ['g'], extra: { k: ['v'] }, uid: 'i' },
  },
  'authorization.k8s.io/v1/LocalSubjectAccessReview': {
    spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'r' }, user: 'u', groups: ['g'], extra: { k: ['v'] }, uid: 'i' },
  },
  'authorization.k8s.io/v1/SelfSubjectRulesReview': { spec: { namespace: 'default' } },
  'v1/ConfigMap': {
    metadata: { name: 'fuzz', labels: { a: 'b' } },
    immutable: false,
    data: { a: 'b' },
    binaryData: { c: 'AAE=' },
  },
  'v1/ServiceAccount': {
    metadata: { name: 'fuzz', labels: { a: 'b' } },
    secrets: [{ kind: 'Secret', namespace: 'default', name: 's', uid: 'u', apiVersion: 'v1', resourceVersion: '1', fieldPath: 'f' }],
    imagePullSecrets: [{ name: 'p' }],
    automountServiceAccountToken: true,
  },
  'rbac.authorization.k8s.io/v1/Role': {
    metadata: { name: 'fuzz' },
    rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] }],
  },
  'rbac.authorization.k8s.io/v1/ClusterRole': {
    metadata: { name: 'fuzz' },
    rules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] }] },
  },
  'rbac.authorization.k8s.io/v1/RoleBinding': {
    metadata: { name: 'fuzz' },
    subjects: [{ kind: 'ServiceAccount', apiGroup: '', name: 'sa', namespace: 'default' }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
  },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': {
    metadata: { name: 'fuzz' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
  },
  'coordination.k8s.io/v1/Lease': {
    metadata: { name: 'fuzz', annotations: { c: 'd' } },
    spec: {
      holderIdentity: 'h',
      leaseDurationSeconds: 15,
      acquireTime: '2020-01-01T00:00:00.000001Z',
      renewTime: '2020-01-01T00:00:00.000002Z',
      leaseTransitions: 1,
      strategy: 'OldestEmulationVersion',
      preferredHolder: 'p',
    },
  },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': {
    metadata: { name: 'fuzz-policy' },
    spec: {
      failurePolicy: 'Fail',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], resourceNames: ['a'], scope: '*' }],
        excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }],
        namespaceSelector: { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] },
        objectSelector: {},
        matchPolicy: 'Equivalent',
      },
      matchConditions: [{ name: 'm', expression: 'true' }],
      variables: [{ name: 'v', expression: '1' }],
      validations: [{ expression: 'variables.v == 1', message: 'm', messageExpression: "'x'", reason: 'Invalid' }],
      auditAnnotations: [{ key: 'k', valueExpression: "'v'" }],
    },
  },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': {
    metadata: { name: 'fuzz-binding' },
    spec: {
      policyName: 'fuzz-policy',
      paramRef: { name: 'p', namespace: 'default', parameterNotFoundAction: 'Allow' },
      matchResources: { namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Exact', resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['*'] }] },
      validationActions: ['Deny'],
    },
  },
  'tenancy.crd-apiserver.io/v1alpha1/LogicalCluster': { metadata: { name: 'fuzz', labels: { a: 'b' } } },
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': {
    metadata: { name: 'fuzz', labels: { a: 'b' } },
    spec: {
      priorityLevelConfiguration: { name: 'global-default' },
      matchingPrecedence: 500,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [
            { kind: 'User', user: { name: 'u' } },
            { kind: 'Group', group: { name: 'g' } },
            { kind: 'ServiceAccount', serviceAccount: { namespace: 'default', name: 's' } },
          ],
          resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], clusterScope: true, namespaces: ['default'] }],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        },
      ],
    },
    status: { conditions: [{ type: 'Dangling', status: 'False', lastTransitionTime: TIME, reason: 'Found', message: 'm' }] },
  },
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': {
    metadata: { name: 'fuzz', labels: { a: 'b' } },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 10,
        limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 4, queueLengthLimit: 20 } },
        lendablePercent: 10,
        borrowingLimitPercent: 20,
      },
    },
    status: { conditions: [{ type: 'ConcurrencyShared', status: 'True', lastTransitionTime: TIME, reason: 'r', message: 'm' }] },
  },
  'v1/Secret': {
    metadata: { name: 'fuzz', annotations: { c: 'd' } },
    immutable: false,
    data: { a: 'AAE=' },
    stringData: { b: 'x' },
    type: 'Opaque',
  },
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': {
    metadata: { name: 'fuzz', labels: { a: 'b' } },
    webhooks: [webhookSample({ reinvocationPolicy: 'IfNeeded' })],
  },
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': {
    metadata: { name: 'fuzz', labels: { a: 'b' } },
    webhooks: [webhookSample()],
  },
};

/** A webhook with every field set (service and url are exclusive: the service one). */
function webhookSample(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'fuzz.example.com',
    clientConfig: { service: { namespace: 'default', name: 'svc', path: '/p', port: 8443 }, caBundle: 'AAE=' },
    rules: [{ operations: ['CREATE'], apiGroups: ['g'], apiVersions: ['v1'], resources: ['r'], scope: 'Namespaced' }],
    failurePolicy: 'Ignore',
    matchPolicy: 'Exact',
    namespaceSelector: { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] },
    objectSelector: { matchLabels: { a: 'b' } },
    sideEffects: 'None',
    timeoutSeconds: 5,
    admissionReviewVersions: ['v1'],
    matchConditions: [{ name: 'm', expression: 'true' }],
    ...extra,
  };
}

/** What a position of an object decodes into. */
type Slot =
  | { k: 'struct'; s: GoStruct }
  | { k: 'slice' | 'map'; elem: Slot }
  | { k: 'string' | 'bool' | 'int' | 'float' | 'time' | 'bytes' | 'any' | 'orBool' | 'orArray' | 'orStringArray' };

function elemSlot(t: GoFieldType): Slot {
  if (typeof t === 'object') return { k: 'struct', s: t };
  switch (t) {
    case 'string':
    case 'bool':
    case 'time':
    case 'bytes':
      return { k: t };
    case 'microTime':
      return { k: 'time' };
    case 'int64':
    case 'int32':
      return { k: 'int' };
    case 'float64':
      return { k: 'float' };
    case 'json':
    case 'fieldsV1':
      return { k: 'any' };
    case 'jsonSchemaProps':
      return { k: 'struct', s: JSONSchemaProps };
    case 'jsonSchemaPropsOrBool':
      return { k: 'orBool' };
    case 'jsonSchemaPropsOrArray':
      return { k: 'orArray' };
    case 'jsonSchemaPropsOrStringArray':
      return { k: 'orStringArray' };
    case 'stringList':
      return { k: 'slice', elem: { k: 'string' } };
  }
}

const fieldSlot = (f: GoField): Slot => (f.slice ? { k: 'slice', elem: elemSlot(f.type) } : f.map ? { k: 'map', elem: elemSlot(f.type) } : elemSlot(f.type));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The slots of a value's children. */
function children(v: unknown, slot: Slot): Array<[key: string | number, slot: Slot]> {
  const SCHEMA: Slot = { k: 'struct', s: JSONSchemaProps };
  switch (slot.k) {
    case 'struct':
      if (!isObject(v)) return [];
      return Object.keys(v).flatMap((k) => {
        const f = slot.s.fields.find((x) => x.json === k);
        return f ? [[k, fieldSlot(f)] as [string, Slot]] : [];
      });
    case 'slice':
      return Array.isArray(v) ? v.map((_, i) => [i, slot.elem] as [number, Slot]) : [];
    case 'map':
      return isObject(v) ? Object.keys(v).map((k) => [k, slot.elem] as [string, Slot]) : [];
    case 'orBool':
    case 'orArray':
    case 'orStringArray':
      if (isObject(v)) return children(v, SCHEMA);
      if (Array.isArray(v)) return v.map((_, i) => [i, slot.k === 'orStringArray' ? ({ k: 'string' } as Slot) : SCHEMA] as [number, Slot]);
      return [];
    default:
      return [];
  }
}

/** Whether kube's decoder takes a value at a slot. */
function fits(v: unknown, slot: Slot): boolean {
  if (v === null) return true;
  switch (slot.k) {
    case 'struct':
    case 'map':
      return isObject(v);
    case 'slice':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
    case 'int':
      return Number.isInteger(v);
    case 'float':
      return typeof v === 'number';
    case 'time':
      return typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /^\d{4}-/.test(v);
    case 'bytes':
      return (typeof v === 'string' && /^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(v)) || Array.isArray(v);
    case 'orBool':
      return typeof v === 'boolean' || isObject(v);
    case 'any':
    case 'orArray':
    case 'orStringArray':
      return true;
  }
}

function paths(v: unknown, slot: Slot, at: Array<string | number> = []): Array<[Array<string | number>, Slot]> {
  return children(v, slot).flatMap(([k, s]) => {
    const child = (v as Record<string | number, unknown>)[k];
    return [[[...at, k], s] as [Array<string | number>, Slot], ...paths(child, s, [...at, k])];
  });
}

function setAt(obj: unknown, path: ReadonlyArray<string | number>, value: unknown): void {
  let cur = obj as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[path[path.length - 1]!] = value;
}

const REPLACEMENTS: readonly unknown[] = [null, 1, 'x', true, {}, []];

test('type fuzz: every field of every built-in kind, replaced by null, 1, "x", true, {} and []', async () => {
  let requests = 0;
  for (const k of BUILTIN_KINDS) {
    const { group, version, kind, resource } = k.served;
    const apiVersion = gvString(group, version);
    const sample = SAMPLES[`${apiVersion}/${kind}`];
    assert.ok(sample, `a sample ${kind} at ${apiVersion} for the type fuzz`);
    const url = `${group ? `/apis/${apiVersion}` : '/api/v1'}${k.served.namespaced ? '/namespaces/default' : ''}/${resource}?dryRun=All`;
    const valid = { apiVersion, kind, ...sample };
    const base = await api.req('POST', url, valid);
    assert.equal(base.status, 201, `${kind} ${apiVersion} sample: ${base.text}`);
    for (const [path, slot] of paths(valid, { k: 'struct', s: k.object })) {
      for (const value of REPLACEMENTS) {
        const body = structuredClone(valid);
        setAt(body, path, structuredClone(value));
        const r = await api.req('POST', url, body);
        requests++;
        const where = `${apiVersion} ${kind} ${path.join('.')} = ${JSON.stringify(value)}: ${r.status} ${r.text}`;
        assert.ok(r.status < 500, where);
        if (!fits(value, slot)) {
          assert.equal(r.status, 400, where);
          assert.match(r.json.message, new RegExp(`^${kind} in version "${version}" cannot be handled as a ${kind}: `), where);
        }
        if (r.status === 201) assert.ok(fits(value, slot), where);
      }
    }
  }
  assert.ok(requests > 500, `${requests} requests`);
});
