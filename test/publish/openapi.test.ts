import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  definitionName,
  openapiV3Documents,
  openapiV3GroupVersion,
  openapiV3Index,
  operationIDAndTags,
  prebuildBuiltinOpenAPIV3,
  publishOpenAPIV3,
  serveOpenAPIV3,
  type OpenAPIV3Document,
  type Schema,
} from '../../src/server/openapi.js';
import { publishedObjectSchema } from '../../src/server/openapi-schema.js';
import { allResources, cronTab, namespaces } from './seed.js';
import type { ServedResource } from '../../src/api/resource.js';

const GVK = { group: 'stable.example.com', version: 'v1', kind: 'CronTab' };
const CT = '#/components/schemas/com.example.stable.v1.CronTab';
const META = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.';
const BASE = '/apis/stable.example.com/v1';
const TYPE_META = {
  apiVersion: {
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
    type: 'string',
  },
  kind: {
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
    type: 'string',
  },
};
const OBJECT_METADATA = {
  description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  allOf: [{ $ref: META + 'ObjectMeta' }],
};
const q = (name: string, type = 'string'): Schema => ({ name, in: 'query', schema: { type, uniqueItems: true } });
const names = (params: unknown): string[] => (params as { name: string; in: string }[]).map((p) => `${p.name}:${p.in}`);
const stripDescriptions = (params: unknown): Schema[] => (params as Schema[]).map(({ description: _d, ...rest }) => rest);

const scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
const doc = (): OpenAPIV3Document => openapiV3GroupVersion('stable.example.com', 'v1', [cronTab()]);
const op = (d: OpenAPIV3Document, path: string, method: string): Schema => (d.paths[path] as Record<string, Schema>)[method]!;

test('operation IDs and tags as kube-apiserver builds them', () => {
  assert.deepEqual(operationIDAndTags('deletecollectionNamespacedCronTab', `${BASE}/namespaces/{namespace}/crontabs`), {
    id: 'deleteStableExampleComV1CollectionNamespacedCronTab',
    tags: ['stableExampleCom_v1'],
  });
  assert.deepEqual(operationIDAndTags('listCronTabForAllNamespaces', `${BASE}/crontabs`), {
    id: 'listStableExampleComV1CronTabForAllNamespaces',
    tags: ['stableExampleCom_v1'],
  });
  assert.deepEqual(operationIDAndTags('listNamespace', '/api/v1/namespaces'), { id: 'listCoreV1Namespace', tags: ['core_v1'] });
  assert.deepEqual(operationIDAndTags('patchCustomResourceDefinitionStatus', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}/status'), {
    id: 'patchApiextensionsV1CustomResourceDefinitionStatus',
    tags: ['apiextensions_v1'],
  });
  assert.deepEqual(operationIDAndTags('getAPIVersions', '/api/'), { id: 'getCoreAPIVersions', tags: ['core'] });
  assert.deepEqual(operationIDAndTags('getAPIVersions', '/apis/'), { id: 'getAPIVersions', tags: ['apis'] });
  assert.deepEqual(operationIDAndTags('getCodeVersion', '/version/'), { id: 'getCodeVersion', tags: ['version'] });
  assert.deepEqual(operationIDAndTags('readNamespacedWidgetScale', '/apis/my-group.io/v2beta1/namespaces/{namespace}/widgets/{name}/scale'), {
    id: 'readMyGroupIoV2beta1NamespacedWidgetScale',
    tags: ['myGroupIo_v2beta1'],
  });
});

test('definition names: reversed group, version, kind for CRs; Go type paths for built-ins', () => {
  assert.equal(definitionName('stable.example.com', 'v1', 'CronTab'), 'com.example.stable.v1.CronTab');
  assert.equal(definitionName('', 'v1', 'Namespace'), 'io.k8s.api.core.v1.Namespace');
  assert.equal(definitionName('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition'), 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition');
});

test('CronTab document: info, the three paths, and the schemas kube includes', () => {
  const d = doc();
  assert.equal(d.openapi, '3.0.0');
  assert.deepEqual(d.info, { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' });
  assert.deepEqual(Object.keys(d.paths), [`${BASE}/crontabs`, `${BASE}/namespaces/{namespace}/crontabs`, `${BASE}/namespaces/{namespace}/crontabs/{name}`]);
  // The same set a real kube-apiserver publishes for a CRD without subresources.
  assert.deepEqual(Object.keys(d.components.schemas), [
    'com.example.stable.v1.CronTab',
    'com.example.stable.v1.CronTabList',
    'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
    'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
    'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
    'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
    'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
    'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions',
    'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
    'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause',
    'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails',
    'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  ]);
});

test('CronTab and CronTabList schemas', () => {
  const d = doc();
  assert.deepEqual(d.components.schemas['com.example.stable.v1.CronTab'], {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' } } },
      metadata: OBJECT_METADATA,
      ...TYPE_META,
    },
    'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }],
  });
  assert.deepEqual(d.components.schemas['com.example.stable.v1.CronTabList'], {
    description: 'CronTabList is a list of CronTab',
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: TYPE_META.apiVersion,
      items: {
        description: 'List of crontabs. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md',
        type: 'array',
        items: { $ref: CT },
      },
      kind: TYPE_META.kind,
      metadata: {
        description: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
        allOf: [{ $ref: META + 'ListMeta' }],
      },
    },
    'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'CronTabList', version: 'v1' }],
  });
});

test('meta schemas carry the GVKs kube registers them under', () => {
  const schemas = doc().components.schemas;
  assert.deepEqual(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Status']!['x-kubernetes-group-version-kind'], [{ group: '', kind: 'Status', version: 'v1' }]);
  const deleteGVKs = schemas['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions']!['x-kubernetes-group-version-kind'] as Schema[];
  assert.deepEqual(deleteGVKs.slice(0, 2), [
    { group: '', kind: 'DeleteOptions', version: 'v1' },
    { group: 'admission.k8s.io', kind: 'DeleteOptions', version: 'v1' },
  ]);
  assert.ok(deleteGVKs.some((g) => g['group'] === 'resource.k8s.io' && g['version'] === 'v1beta2'));
  assert.equal(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!['x-kubernetes-group-version-kind'], undefined);
  // The 1.33 definitions: list-type markers and the 1.32 unsafe-delete option.
  const objectMeta = schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!['properties'] as Record<string, Schema>;
  assert.equal(objectMeta['finalizers']!['x-kubernetes-list-type'], 'set');
  assert.deepEqual(objectMeta['creationTimestamp']!['allOf'], [{ $ref: META + 'Time' }]);
  assert.ok((schemas['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions']!['properties'] as Schema)['ignoreStoreReadErrorWithClusterBreakingPotential']);
  assert.deepEqual(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Time'], {
    description:
      'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.',
    type: 'string',
    format: 'date-time',
  });
});

test('path-level parameters are the ones every operation of the path shares', () => {
  const d = doc();
  // The all-namespaces list is alone on its path, so all its parameters sit on the path.
  assert.deepEqual(names(d.paths[`${BASE}/crontabs`]!['parameters']), [
    'allowWatchBookmarks:query',
    'continue:query',
    'fieldSelector:query',
    'labelSelector:query',
    'limit:query',
    'pretty:query',
    'resourceVersion:query',
    'resourceVersionMatch:query',
    'sendInitialEvents:query',
    'timeoutSeconds:query',
    'watch:query',
  ]);
  assert.equal(op(d, `${BASE}/crontabs`, 'get')['parameters'], undefined);
  assert.deepEqual(names(d.paths[`${BASE}/namespaces/{namespace}/crontabs`]!['parameters']), ['namespace:path', 'pretty:query']);
  assert.deepEqual(d.paths[`${BASE}/namespaces/{namespace}/crontabs/{name}`]!['parameters'], [
    { name: 'name', in: 'path', description: 'name of the CronTab', required: true, schema: { type: 'string', uniqueItems: true } },
    { name: 'namespace', in: 'path', description: 'object name and auth scope, such as for teams and projects', required: true, schema: { type: 'string', uniqueItems: true } },
    {
      name: 'pretty',
      in: 'query',
      description: "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).",
      schema: { type: 'string', uniqueItems: true },
    },
  ]);
});

test('PATCH on the named CronTab: the operation kubectl checks for fieldValidation', () => {
  const patch = op(doc(), `${BASE}/namespaces/{namespace}/crontabs/{name}`, 'patch');
  const patchBody = { schema: { $ref: META + 'Patch' } };
  const crontab = { schema: { $ref: CT } };
  assert.deepEqual(
    { ...patch, parameters: stripDescriptions(patch['parameters']) },
    {
      tags: ['stableExampleCom_v1'],
      description: 'partially update the specified CronTab',
      operationId: 'patchStableExampleComV1NamespacedCronTab',
      parameters: [q('dryRun'), q('fieldManager'), q('fieldValidation'), q('force', 'boolean')],
      requestBody: {
        content: { 'application/json-patch+json': patchBody, 'application/merge-patch+json': patchBody, 'application/apply-patch+yaml': patchBody },
        required: true,
      },
      responses: { '200': { description: 'OK', content: { 'application/json': crontab, 'application/yaml': crontab } }, '401': { description: 'Unauthorized' } },
      'x-kubernetes-action': 'patch',
      'x-kubernetes-group-version-kind': GVK,
    },
  );
  const fieldValidation = (patch['parameters'] as Schema[]).find((p) => p['name'] === 'fieldValidation')!;
  assert.match(fieldValidation['description'] as string, /^fieldValidation instructs the server on how to handle objects in the request \(POST\/PUT\/PATCH\)/);
});

test('every CronTab operation: id, action, GVK, bodies and responses', () => {
  const d = openapiV3GroupVersion('stable.example.com', 'v1', [cronTab({ subresources: { status: true, scale } })]);
  const rows: string[] = [];
  for (const [path, item] of Object.entries(d.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
      const o = (item as Record<string, Schema>)[method];
      if (!o) continue;
      assert.deepEqual(o['x-kubernetes-group-version-kind'], GVK);
      const body = o['requestBody'] as { content: Record<string, { schema: { $ref: string } }>; required?: boolean } | undefined;
      const responses = o['responses'] as Record<string, { content?: Record<string, { schema: { $ref: string } }> }>;
      const short = (ref: string): string => ref.split('/').pop()!.replace('io.k8s.apimachinery.pkg.apis.meta.v1.', '').replace('com.example.stable.v1.', '');
      rows.push(
        [
          path.slice(BASE.length),
          method,
          o['operationId'],
          o['x-kubernetes-action'],
          o['description'],
          body ? `${short(Object.values(body.content)[0]!.schema.$ref)}${body.required ? '!' : '?'}` : '-',
          Object.entries(responses)
            .map(([code, r]) => (r.content ? `${code}:${short(r.content['application/json']!.schema.$ref)}` : code))
            .join(' '),
        ].join(' | '),
      );
    }
  }
  assert.deepEqual(rows, [
    '/crontabs | get | listStableExampleComV1CronTabForAllNamespaces | list | list objects of kind CronTab | - | 200:CronTabList 401',
    '/namespaces/{namespace}/crontabs | get | listStableExampleComV1NamespacedCronTab | list | list objects of kind CronTab | - | 200:CronTabList 401',
    '/namespaces/{namespace}/crontabs | post | createStableExampleComV1NamespacedCronTab | post | create a CronTab | CronTab! | 200:CronTab 201:CronTab 202:CronTab 401',
    '/namespaces/{namespace}/crontabs | delete | deleteStableExampleComV1CollectionNamespacedCronTab | deletecollection | delete collection of CronTab | - | 200:Status 401',
    '/namespaces/{namespace}/crontabs/{name} | get | readStableExampleComV1NamespacedCronTab | get | read the specified CronTab | - | 200:CronTab 401',
    '/namespaces/{namespace}/crontabs/{name} | put | replaceStableExampleComV1NamespacedCronTab | put | replace the specified CronTab | CronTab! | 200:CronTab 201:CronTab 401',
    '/namespaces/{namespace}/crontabs/{name} | delete | deleteStableExampleComV1NamespacedCronTab | delete | delete a CronTab | DeleteOptions? | 200:Status 202:Status 401',
    '/namespaces/{namespace}/crontabs/{name} | patch | patchStableExampleComV1NamespacedCronTab | patch | partially update the specified CronTab | Patch! | 200:CronTab 401',
    '/namespaces/{namespace}/crontabs/{name}/status | get | readStableExampleComV1NamespacedCronTabStatus | get | read status of the specified CronTab | - | 200:CronTab 401',
    '/namespaces/{namespace}/crontabs/{name}/status | put | replaceStableExampleComV1NamespacedCronTabStatus | put | replace status of the specified CronTab | CronTab! | 200:CronTab 201:CronTab 401',
    '/namespaces/{namespace}/crontabs/{name}/status | patch | patchStableExampleComV1NamespacedCronTabStatus | patch | partially update status of the specified CronTab | Patch! | 200:CronTab 401',
    '/namespaces/{namespace}/crontabs/{name}/scale | get | readStableExampleComV1NamespacedCronTabScale | get | read scale of the specified CronTab | - | 200:io.k8s.api.autoscaling.v1.Scale 401',
    '/namespaces/{namespace}/crontabs/{name}/scale | put | replaceStableExampleComV1NamespacedCronTabScale | put | replace scale of the specified CronTab | io.k8s.api.autoscaling.v1.Scale! | 200:io.k8s.api.autoscaling.v1.Scale 201:io.k8s.api.autoscaling.v1.Scale 401',
    '/namespaces/{namespace}/crontabs/{name}/scale | patch | patchStableExampleComV1NamespacedCronTabScale | patch | partially update scale of the specified CronTab | Patch! | 200:io.k8s.api.autoscaling.v1.Scale 401',
  ]);
  const schemas = Object.keys(d.components.schemas);
  for (const s of ['io.k8s.api.autoscaling.v1.Scale', 'io.k8s.api.autoscaling.v1.ScaleSpec', 'io.k8s.api.autoscaling.v1.ScaleStatus']) assert.ok(schemas.includes(s), s);
  assert.deepEqual(d.components.schemas['io.k8s.api.autoscaling.v1.Scale']!['x-kubernetes-group-version-kind'], [{ group: 'autoscaling', kind: 'Scale', version: 'v1' }]);
  // Per-operation parameters of the list and delete operations.
  assert.deepEqual(names(op(d, `${BASE}/namespaces/{namespace}/crontabs`, 'get')['parameters']), [
    'allowWatchBookmarks:query',
    'continue:query',
    'fieldSelector:query',
    'labelSelector:query',
    'limit:query',
    'resourceVersion:query',
    'resourceVersionMatch:query',
    'sendInitialEvents:query',
    'timeoutSeconds:query',
    'watch:query',
  ]);
  assert.deepEqual(stripDescriptions(op(d, `${BASE}/namespaces/{namespace}/crontabs/{name}`, 'delete')['parameters']), [
    q('dryRun'),
    q('gracePeriodSeconds', 'integer'),
    q('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean'),
    q('orphanDependents', 'boolean'),
    q('propagationPolicy'),
  ]);
});

test('cluster-scoped CRD: no namespace paths or parameters, "an" before a vowel', () => {
  const d = openapiV3GroupVersion('stable.example.com', 'v1', [cronTab({ namespaced: false, kind: 'Aardvark', listKind: 'AardvarkList', resource: 'aardvarks' })]);
  assert.deepEqual(Object.keys(d.paths), [`${BASE}/aardvarks`, `${BASE}/aardvarks/{name}`]);
  assert.equal(op(d, `${BASE}/aardvarks`, 'post')['description'], 'create an Aardvark');
  assert.equal(op(d, `${BASE}/aardvarks`, 'get')['operationId'], 'listStableExampleComV1Aardvark');
  assert.deepEqual(names(d.paths[`${BASE}/aardvarks/{name}`]!['parameters']), ['name:path', 'pretty:query']);
});

/** cli-runtime queryParamVerifierV3.supportsQueryParamV3, as kubectl --validate=strict runs it. */
function supportsFieldValidation(d: OpenAPIV3Document, gvk: typeof GVK): boolean | 'no path' {
  for (const item of Object.values(d.paths)) {
    const patch = (item as Record<string, Schema>)['patch'];
    if (!patch) continue;
    const ext = patch['x-kubernetes-group-version-kind'] as typeof GVK | undefined;
    if (!ext || ext.group !== gvk.group || ext.version !== gvk.version || ext.kind !== gvk.kind) continue;
    return (patch['parameters'] as Schema[]).some((p) => p['name'] === 'fieldValidation' && p['in'] === 'query');
  }
  return 'no path';
}

test('kubectl checks: every PATCH of the kind advertises fieldValidation, none accepts strategic merge patch', () => {
  const d = JSON.parse(JSON.stringify(openapiV3GroupVersion('stable.example.com', 'v1', [cronTab({ subresources: { status: true, scale } })]))) as OpenAPIV3Document;
  assert.equal(supportsFieldValidation(d, GVK), true);
  let patches = 0;
  for (const item of Object.values(d.paths)) {
    const patch = (item as Record<string, Schema>)['patch'];
    if (!patch) continue;
    patches++;
    assert.ok((patch['parameters'] as Schema[]).some((p) => p['name'] === 'fieldValidation' && p['in'] === 'query'));
    assert.equal((patch['requestBody'] as { content: Schema }).content['application/strategic-merge-patch+json'], undefined);
  }
  assert.equal(patches, 3);
  // kubectl explain finds the kind through the GVK extension on an operation, then on components.schemas.
  const listOp = op(d, `${BASE}/crontabs`, 'get');
  const gvk = listOp['x-kubernetes-group-version-kind'];
  const found = Object.values(d.components.schemas).filter((s) =>
    (s['x-kubernetes-group-version-kind'] as unknown[] | undefined)?.some((g) => JSON.stringify(g) === JSON.stringify({ group: 'stable.example.com', kind: 'CronTab', version: 'v1' })),
  );
  assert.deepEqual(gvk, GVK);
  assert.equal(found.length, 1);
});

test('published CRD schema: structural round trip, int-or-string unfolded, embedded resources', () => {
  const schema = publishedObjectSchema(
    {
      type: 'object',
      description: 'A CronTab',
      example: { spec: {} },
      externalDocs: { url: 'https://example.com' },
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } },
        spec: {
          type: 'object',
          nullable: false,
          required: ['port'],
          'x-kubernetes-validations': [{ rule: 'self.port > 0', message: 'positive' }],
          properties: {
            port: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': false },
            spelledOut: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
            bounded: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer', maximum: 3 }, { type: 'string', pattern: '^a' }] },
            tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, 'x-kubernetes-list-type': 'set', uniqueItems: false },
            template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, required: ['spec'] },
            labels: { type: 'object', additionalProperties: { type: 'string', nullable: true } },
          },
        },
      },
    },
    GVK,
  );
  assert.deepEqual(schema, {
    description: 'A CronTab',
    type: 'object',
    properties: {
      metadata: OBJECT_METADATA,
      spec: {
        type: 'object',
        required: ['port'],
        properties: {
          port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          spelledOut: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
          bounded: {
            anyOf: [
              { type: 'integer', maximum: 3 },
              { type: 'string', pattern: '^a' },
            ],
            'x-kubernetes-int-or-string': true,
            allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }],
          },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, 'x-kubernetes-list-type': 'set' },
          template: {
            type: 'object',
            required: ['spec', 'kind', 'apiVersion'],
            properties: {
              apiVersion: {
                description:
                  'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
                type: 'string',
              },
              kind: {
                description:
                  'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
                type: 'string',
              },
              metadata: OBJECT_METADATA,
            },
            'x-kubernetes-preserve-unknown-fields': true,
            'x-kubernetes-embedded-resource': true,
          },
          labels: { type: 'object', additionalProperties: { type: 'string', nullable: true } },
        },
        'x-kubernetes-validations': [{ rule: 'self.port > 0', message: 'positive' }],
      },
      ...TYPE_META,
    },
    'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }],
  });
});

test('built-in group-versions: discovery GET, verbs limit the operations, kinds declared in full published from their Go types', () => {
  const d = openapiV3GroupVersion('', 'v1', allResources());
  assert.deepEqual(d.info, { title: 'Kubernetes', version: 'v1.33.0' });
  assert.deepEqual(Object.keys(d.paths), ['/api/v1/', '/api/v1/namespaces', '/api/v1/namespaces/{name}', '/api/v1/namespaces/{name}/status']);
  assert.equal(op(d, '/api/v1/', 'get')['operationId'], 'getCoreV1APIResources');
  // Namespaces have no deletecollection verb, so no DELETE on the collection.
  assert.deepEqual(Object.keys(d.paths['/api/v1/namespaces']!).filter((k) => k !== 'parameters'), ['get', 'post']);
  assert.equal(op(d, '/api/v1/namespaces/{name}', 'patch')['operationId'], 'patchCoreV1Namespace');
  // Namespace is declared in full (src/apis/core/v1/namespace.ts): its definitions are its Go types', as in /openapi/v2.
  const namespace = d.components.schemas['io.k8s.api.core.v1.Namespace']!;
  assert.equal(namespace['description'], 'Namespace provides a scope for Names. Use of multiple namespaces is optional.');
  assert.deepEqual(Object.keys(namespace['properties'] as object), ['kind', 'apiVersion', 'metadata', 'spec', 'status']);
  assert.deepEqual(namespace['x-kubernetes-group-version-kind'], [{ group: '', kind: 'Namespace', version: 'v1' }]);
  for (const name of ['NamespaceSpec', 'NamespaceStatus', 'NamespaceCondition']) assert.ok(d.components.schemas[`io.k8s.api.core.v1.${name}`], name);
  // Its list type is not declared: the list is the CRD-style one.
  assert.deepEqual(d.components.schemas['io.k8s.api.core.v1.NamespaceList']!['x-kubernetes-group-version-kind'], [{ group: '', kind: 'NamespaceList', version: 'v1' }]);
  assert.ok(d.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList']);
  assert.equal(supportsFieldValidation(d, { group: '', version: 'v1', kind: 'Namespace' }), true);
  const crd = openapiV3GroupVersion('apiextensions.k8s.io', 'v1', allResources());
  assert.equal(supportsFieldValidation(crd, { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' }), true);
  assert.equal(op(crd, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', 'delete')['operationId'], 'deleteApiextensionsV1CollectionCustomResourceDefinition');
});

test('every document is self-contained: each $ref resolves inside it', () => {
  for (const [key, d] of openapiV3Documents([...allResources(), cronTab({ version: 'v1beta1', subresources: { status: true, scale } })])) {
    const refs = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      // (JSONSchemaProps has a property named $ref: its value is a schema, not a reference.)
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === '$ref' && typeof x === 'string' ? refs.add(x) : walk(x);
    };
    walk(d);
    assert.ok(refs.size > 0, key);
    for (const r of refs) assert.ok(d.components.schemas[r.replace('#/components/schemas/', '')], `${key}: ${r}`);
  }
});

test('/openapi/v3 index: kube keys and URLs pinned to the sha512 of each document', () => {
  const resources = [...allResources(), cronTab({ version: 'v1beta1' })];
  const published = publishOpenAPIV3(resources);
  const index = openapiV3Index(resources);
  assert.deepEqual(Object.keys(index.paths), [
    'api',
    'api/v1',
    'apis',
    'apis/apiextensions.k8s.io',
    'apis/apiextensions.k8s.io/v1',
    'apis/stable.example.com/v1',
    'apis/stable.example.com/v1beta1',
    'version',
  ]);
  for (const [key, { serverRelativeURL }] of Object.entries(index.paths)) {
    const body = published.documents.get(key)!.body;
    const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
    assert.equal(serverRelativeURL, `/openapi/v3/${key}?hash=${hash}`);
  }
  assert.deepEqual(JSON.parse(published.documents.get('apis/stable.example.com/v1')!.body), JSON.parse(JSON.stringify(openapiV3GroupVersion('stable.example.com', 'v1', resources))));
  assert.equal(published.index.body, JSON.stringify(index));
});

/** A CronTab as CrdServing serves it (with a revision), counting reads of its schema. */
function countedCronTab(revision: string, overrides: Partial<ServedResource> = {}): { resource: ServedResource; reads: () => number } {
  let reads = 0;
  const base = cronTab({ revision, ...overrides });
  const schema = base.schema;
  const resource = Object.defineProperty({ ...base }, 'schema', {
    enumerable: true,
    get: () => {
      reads++;
      return schema;
    },
  });
  return { resource, reads: () => reads };
}

test('/openapi/v3 index of custom resources: nothing built for it, each document built on its first read and kept', () => {
  const ct = countedCronTab('uid-1/1');
  const published = publishOpenAPIV3([namespaces, ct.resource]);
  const key = 'apis/stable.example.com/v1';
  const url = (JSON.parse(published.index.body) as { paths: Record<string, { serverRelativeURL: string }> }).paths[key]!.serverRelativeURL;
  assert.match(url, /^\/openapi\/v3\/apis\/stable\.example\.com\/v1\?hash=[0-9A-F]{128}$/);
  assert.equal(ct.reads(), 0, 'the index read no schema');
  const doc = published.documents.get(key)!;
  assert.deepEqual(JSON.parse(doc.body), JSON.parse(JSON.stringify(openapiV3GroupVersion('stable.example.com', 'v1', [cronTab()]))));
  const built = ct.reads();
  assert.ok(built > 0);
  assert.equal(doc.body, published.documents.get(key)!.body);
  // A later publish (any CRD event) takes the unchanged document over, built.
  const again = publishOpenAPIV3([namespaces, ct.resource], undefined, published);
  assert.equal(again.documents.get(key), doc);
  assert.equal(ct.reads(), built);
  // Built-in documents are named by the sha512 of their bytes, as kube names them.
  const core = again.documents.get('api/v1')!;
  assert.equal(core.hash, createHash('sha512').update(core.body).digest('hex').toUpperCase());
});

test('/openapi/v3 hashes of custom resources follow their inputs: same across restarts, changed with the document', () => {
  const key = 'apis/stable.example.com/v1';
  const hashOf = (resources: ServedResource[], gitVersion?: string): string => publishOpenAPIV3(resources, { gitVersion }).documents.get(key)!.hash;
  const v1 = hashOf([namespaces, cronTab({ revision: 'uid-1/1' })]);
  // Another process publishing the same CRDs (a restart): the same URLs, so clients' caches stay good.
  assert.equal(hashOf([namespaces, cronTab({ revision: 'uid-1/1' })]), v1);
  // A new generation (or other accepted names, or another CRD with the same group-version) is another document.
  assert.notEqual(hashOf([namespaces, cronTab({ revision: 'uid-1/2' })]), v1);
  assert.notEqual(hashOf([namespaces, cronTab({ revision: 'uid-1/1' }), cronTab({ revision: 'uid-2/1', resource: 'aardvarks', kind: 'Aardvark', listKind: 'AardvarkList' })]), v1);
  // A terminating CRD publishes fewer verbs, hence fewer operations.
  assert.notEqual(hashOf([namespaces, cronTab({ revision: 'uid-1/1', verbs: ['delete', 'deletecollection', 'get', 'list', 'watch'] })]), v1);
  assert.notEqual(hashOf([namespaces, cronTab({ revision: 'uid-1/1' })], 'v1.33.1'), v1);
  // Only the changed group-version's entry moves.
  const a = publishOpenAPIV3([namespaces, cronTab({ revision: 'uid-1/1' }), cronTab({ revision: 'uid-3/1', group: 'other.example.com' })]);
  const b = publishOpenAPIV3([namespaces, cronTab({ revision: 'uid-1/2' }), cronTab({ revision: 'uid-3/1', group: 'other.example.com' })], undefined, a);
  assert.equal(b.documents.get('apis/other.example.com/v1'), a.documents.get('apis/other.example.com/v1'));
  assert.notEqual(b.documents.get(key)!.hash, a.documents.get(key)!.hash);
  assert.notEqual(b.index.hash, a.index.hash);
});

test('serving /openapi/v3: ETag, 304, redirect on a stale hash, immutable caching on the current one', () => {
  const now = new Date('2025-03-01T10:00:00Z');
  const published = publishOpenAPIV3(allResources(), { now });
  const hash = published.documents.get('apis/stable.example.com/v1')!.hash;
  const path = '/openapi/v3/apis/stable.example.com/v1';

  const index = serveOpenAPIV3(published, '/openapi/v3', {});
  assert.equal(index.status, 200);
  assert.deepEqual(index.headers, { Etag: `"${published.index.hash}"`, 'Content-Type': 'application/json', 'Last-Modified': 'Sat, 01 Mar 2025 10:00:00 GMT' });
  assert.equal(serveOpenAPIV3(published, '/openapi/v3', { ifNoneMatch: `"${published.index.hash}"` }).status, 304);

  const plain = serveOpenAPIV3(published, path, { accept: 'application/json' });
  assert.equal(plain.status, 200);
  assert.deepEqual(plain.headers, { Vary: 'Accept', 'Content-Type': 'application/json', Etag: `"${hash}"`, 'Last-Modified': 'Sat, 01 Mar 2025 10:00:00 GMT' });

  const pinned = serveOpenAPIV3(published, path, { hash, accept: 'application/json', now });
  assert.equal(pinned.headers['Cache-Control'], 'public, immutable');
  assert.equal(pinned.headers['Expires'], 'Sun, 01 Mar 2026 10:00:00 UTC');
  assert.equal(pinned.body, published.documents.get('apis/stable.example.com/v1')!.body);

  const stale = serveOpenAPIV3(published, path, { hash: 'ABC', accept: 'application/json' });
  assert.equal(stale.status, 301);
  assert.equal(stale.headers['Location'], `/openapi/v3/apis/stable.example.com/v1?hash=${hash}`);

  assert.deepEqual(serveOpenAPIV3(published, path, { ifNoneMatch: `W/"${hash}"` }), { status: 304, headers: { Vary: 'Accept', Etag: `"${hash}"` } });
  assert.equal(serveOpenAPIV3(published, '/openapi/v3/apis/nope.example.com/v1', {}).status, 404);
  assert.equal(serveOpenAPIV3(published, path, { accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' }).status, 406);
  assert.equal(serveOpenAPIV3(published, path, { accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf, */*;q=0.1' }).status, 200);
});


test('the built-in documents built ahead of the first index are the ones it names, and built once', async () => {
  // A gitVersion of its own: documents nobody in this process has built yet.
  const ahead = { gitVersion: 'v1.33.0-prebuilt' };
  const resources = allResources();
  const builtins = resources.filter((r) => r.revision === undefined);
  assert.ok((await prebuildBuiltinOpenAPIV3(resources, ahead)) > 0);
  assert.equal(await prebuildBuiltinOpenAPIV3(resources, ahead), 0, 'built once per process');
  const published = publishOpenAPIV3(resources, ahead);
  for (const key of ['api', 'apis', 'version', 'api/v1']) {
    const doc = published.documents.get(key)!;
    // Named by its bytes, as the index built them itself (kube's hash).
    assert.equal(doc.hash, createHash('sha512').update(doc.body).digest('hex').toUpperCase(), key);
  }
  // And the other way round: what an index built, a prebuild finds.
  const later = { gitVersion: 'v1.33.0-published' };
  publishOpenAPIV3(builtins, later);
  assert.equal(await prebuildBuiltinOpenAPIV3(builtins, later), 0);
});
