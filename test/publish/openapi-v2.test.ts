// /openapi/v2 as kube builds it: the custom resource definitions of apiextensions-apiserver's
// controller/openapi/builder (cases from its builder_test.go TestNewBuilder and TestBuildOpenAPIV2), the
// v2 conversion rules of v2/conversion.go, the seed CronTab's whole document against the builder's
// output (parameter names as kube-apiserver's swagger.json spells them), the gnostic protobuf form and
// serving (ETag, 304, 406).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { kindSchemaV2, listSchemaV2, toOpenAPIV2 } from '../../src/server/openapi-v2-schema.js';
import { openapiV2Document, publishOpenAPIV2, serveOpenAPIV2 } from '../../src/server/openapi-v2.js';
import { openapiV2Protobuf } from '../../src/server/openapi-v2-protobuf.js';
import { parameterHash } from '../../src/server/openapi-v2-paths.js';
import { Cursor } from '../../src/server/protobuf-wire.js';
import { allResources, cronTab } from './seed.js';

const FOO = { group: 'bar.k8s.io', version: 'v1', kind: 'Foo' };
const GVK = [{ group: 'bar.k8s.io', kind: 'Foo', version: 'v1' }];
const OBJECT_META = '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** As the Go tests do: TypeMeta/ObjectMeta descriptions wiped, "we trust that they match". */
function withoutMetaDescriptions(s: Record<string, any>): Record<string, any> {
  const out = structuredClone(s);
  for (const k of ['kind', 'apiVersion', 'metadata']) if (out.properties?.[k]) delete out.properties[k].description;
  return out;
}

const meta = { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { $ref: OBJECT_META } };

test('v2 kind schema: the cases of kube builder_test.go (TestNewBuilder v2, TestBuildOpenAPIV2)', () => {
  const cases: { name: string; schema?: object; preserveUnknownFields?: boolean; want: object }[] = [
    { name: 'nil', want: { type: 'object', 'x-kubernetes-group-version-kind': GVK } },
    {
      name: 'with properties',
      schema: { type: 'object', properties: { spec: { type: 'object' }, status: { type: 'object' } } },
      want: { type: 'object', properties: { ...meta, spec: { type: 'object' }, status: { type: 'object' } }, 'x-kubernetes-group-version-kind': GVK },
    },
    { name: 'type only', schema: { type: 'object' }, want: { type: 'object', properties: meta, 'x-kubernetes-group-version-kind': GVK } },
    {
      name: 'preserve unknown at root v2',
      schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      want: { type: 'object', 'x-kubernetes-group-version-kind': GVK },
    },
    {
      name: 'with invalid-typed properties',
      schema: { type: 'object', properties: { spec: { type: 'bug' }, status: { type: 'object' } } },
      want: { type: 'object', 'x-kubernetes-group-version-kind': GVK },
    },
    { name: 'with non-structural schema', schema: { type: 'object', properties: { foo: { type: 'array' } } }, want: { type: 'object', 'x-kubernetes-group-version-kind': GVK } },
    {
      name: 'with spec.preseveUnknownFields=true',
      schema: { type: 'object', properties: { foo: { type: 'string' } } },
      preserveUnknownFields: true,
      want: { type: 'object', 'x-kubernetes-group-version-kind': GVK },
    },
    {
      name: 'v2',
      schema: { type: 'object', properties: { foo: { type: 'string', oneOf: [{ pattern: 'a' }, { pattern: 'b' }] } } },
      want: { type: 'object', properties: { ...meta, foo: { type: 'string' } }, 'x-kubernetes-group-version-kind': GVK },
    },
    {
      name: 'with extensions',
      schema: {
        type: 'object',
        properties: {
          'int-or-string-1': { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          'int-or-string-2': { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { anyOf: [{ minimum: 42.0 }] }] },
          'int-or-string-3': { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], allOf: [{ anyOf: [{ minimum: 42.0 }] }] },
          'int-or-string-4': { 'x-kubernetes-int-or-string': true, anyOf: [{ minimum: 42.0 }] },
          'int-or-string-5': { 'x-kubernetes-int-or-string': true, anyOf: [{ minimum: 42.0 }], allOf: [{ minimum: 42.0 }] },
          'int-or-string-6': { 'x-kubernetes-int-or-string': true },
          'preserve-unknown-fields': { 'x-kubernetes-preserve-unknown-fields': true },
          'embedded-object': { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, type: 'object' },
        },
      },
      want: {
        type: 'object',
        properties: {
          ...meta,
          'int-or-string-1': { 'x-kubernetes-int-or-string': true },
          'int-or-string-2': { 'x-kubernetes-int-or-string': true },
          'int-or-string-3': { 'x-kubernetes-int-or-string': true },
          'int-or-string-4': { 'x-kubernetes-int-or-string': true },
          'int-or-string-5': { 'x-kubernetes-int-or-string': true },
          'int-or-string-6': { 'x-kubernetes-int-or-string': true },
          'preserve-unknown-fields': { 'x-kubernetes-preserve-unknown-fields': true },
          'embedded-object': { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        },
        'x-kubernetes-group-version-kind': GVK,
      },
    },
  ];
  for (const c of cases) {
    const got = kindSchemaV2({ ...FOO, schema: c.schema as Record<string, unknown> | undefined, preserveUnknownFields: c.preserveUnknownFields });
    assert.deepEqual(withoutMetaDescriptions(got), c.want, c.name);
  }
});

test('v2 conversion (ToStructuralOpenAPIV2): nullable, junctors, preserve-unknown-fields, arrays without items, required', () => {
  assert.deepEqual(
    toOpenAPIV2({
      type: 'object',
      required: ['a', 'b', 'c'],
      properties: {
        a: { type: 'object', nullable: true, properties: { x: { type: 'string' } } },
        b: { type: 'array', items: { type: 'string', nullable: true } },
        c: { type: 'string', not: { pattern: 'x' }, allOf: [{ maxLength: 3 }] },
        d: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { y: { type: 'string' } } },
        e: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } },
        f: { type: 'object', required: ['g'], additionalProperties: { type: 'string', nullable: true } },
      },
    }),
    {
      type: 'object',
      required: ['b', 'c'],
      properties: {
        a: {},
        b: { type: 'array', items: {} },
        c: { type: 'string' },
        d: { 'x-kubernetes-preserve-unknown-fields': true },
        e: { 'x-kubernetes-preserve-unknown-fields': true },
        f: { type: 'object', additionalProperties: {} },
      },
    },
  );
  // Embedded resources get TypeMeta and ObjectMeta (unless they preserve unknown fields); defaults are pruned.
  const embedded = kindSchemaV2({
    ...FOO,
    schema: {
      type: 'object',
      properties: {
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'string', default: 'x' } } },
        n: { type: 'integer', default: 1, enum: [1, 2] },
      },
    },
  }) as any;
  assert.deepEqual(Object.keys(embedded.properties.template.properties).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
  assert.deepEqual(embedded.properties.template.required, ['kind', 'apiVersion']);
  assert.deepEqual(embedded.properties.template.properties.spec, { type: 'string' });
  assert.deepEqual(embedded.properties.n, { type: 'integer', enum: [1, 2] });
});

const PRETTY = "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).";

test("parameter names: builder.deduplicateParameters' FNV-64 of Go's JSON, as in kube-apiserver's swagger.json", () => {
  const name = (n: string, json: string): string => `${n}-${parameterHash(json)}`;
  assert.equal(name('pretty', `{"uniqueItems":true,"type":"string","description":${JSON.stringify(PRETTY)},"name":"pretty","in":"query"}`), 'pretty-tJGM1-ng');
  assert.equal(
    name('namespace', '{"uniqueItems":true,"type":"string","description":"object name and auth scope, such as for teams and projects","name":"namespace","in":"path","required":true}'),
    'namespace-vgWSWtn3',
  );
  assert.equal(name('body', '{"name":"body","in":"body","required":true,"schema":{"$ref":"#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch"}}'), 'body-78PwaGsr');
  const doc = openapiV2Document(allResources());
  for (const n of ['pretty-tJGM1-ng', 'namespace-vgWSWtn3', 'body-78PwaGsr', 'body-2Y1dVQaQ']) assert.ok(doc.parameters[n], n);
});

test("the seed CronTab's v2 document: what kube's builder builds for the same CRD", () => {
  const doc = openapiV2Document([cronTab({ subresources: { status: true } })]);
  assert.equal(doc.swagger, '2.0');
  assert.deepEqual(doc.info, { title: 'Kubernetes', version: 'v1.33.0' });
  assert.deepEqual(doc.securityDefinitions, { BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' } });
  assert.deepEqual(doc.security, [{ BearerToken: [] }]);
  const gvk = { group: 'stable.example.com', kind: 'CronTab', version: 'v1' };
  assert.deepEqual(withoutMetaDescriptions(doc.definitions['com.example.stable.v1.CronTab']!), {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' } } },
      ...meta,
    },
    'x-kubernetes-group-version-kind': [gvk],
  });
  assert.deepEqual(withoutMetaDescriptions(doc.definitions['com.example.stable.v1.CronTabList']!), {
    description: 'CronTabList is a list of CronTab',
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string' },
      items: {
        description: 'List of crontabs. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md',
        type: 'array',
        items: { $ref: '#/definitions/com.example.stable.v1.CronTab' },
      },
      kind: { type: 'string' },
      metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' },
    },
    'x-kubernetes-group-version-kind': [{ ...gvk, kind: 'CronTabList' }],
  });
  assert.deepEqual(Object.keys(doc.paths), [
    '/apis/stable.example.com/v1/crontabs',
    '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs',
    '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}',
    '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status',
  ]);
  const item = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'] as any;
  const ref = (n: string) => ({ $ref: `#/parameters/${n}` });
  const nameParam = { uniqueItems: true, type: 'string', description: 'name of the CronTab', name: 'name', in: 'path', required: true };
  assert.deepEqual(item.parameters, [nameParam, ref('namespace-vgWSWtn3'), ref('pretty-tJGM1-ng')]);
  const CR = '#/definitions/com.example.stable.v1.CronTab';
  const common = { consumes: ['application/json', 'application/yaml'], produces: ['application/json', 'application/yaml'], schemes: ['https'], tags: ['stableExampleCom_v1'] };
  const responses = (codes: [string, string][], def: string) => ({
    ...Object.fromEntries(codes.map(([c, d]) => [c, { description: d, schema: { $ref: def } }])),
    401: { description: 'Unauthorized' },
  });
  assert.deepEqual(item.get, {
    description: 'read the specified CronTab',
    ...common,
    operationId: 'readStableExampleComV1NamespacedCronTab',
    parameters: [ref('resourceVersion-5WAnf1kx')],
    responses: responses([['200', 'OK']], CR),
    'x-kubernetes-action': 'get',
    'x-kubernetes-group-version-kind': gvk,
  });
  assert.equal(item.put.operationId, 'replaceStableExampleComV1NamespacedCronTab');
  assert.deepEqual(item.put.parameters[0], { name: 'body', in: 'body', required: true, schema: { $ref: CR } });
  assert.deepEqual(item.put.parameters.map((p: any) => p.name ?? p.$ref), ['body', 'dryRun', '#/parameters/fieldManager-Qy4HdaTW', 'fieldValidation']);
  assert.deepEqual(item.put.responses, responses([['200', 'OK'], ['201', 'Created']], CR));
  assert.deepEqual(item.delete.parameters.map((p: any) => p.name ?? p.$ref), [
    '#/parameters/body-2Y1dVQaQ',
    'dryRun',
    '#/parameters/gracePeriodSeconds--K5HaBOS',
    '#/parameters/ignoreStoreReadErrorWithClusterBreakingPotential-QbNkfIqj',
    '#/parameters/orphanDependents-uRB25kX5',
    '#/parameters/propagationPolicy-6jk3prlO',
  ]);
  assert.deepEqual(item.delete.responses, responses([['200', 'OK'], ['202', 'Accepted']], '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status'));
  assert.deepEqual(item.patch.consumes, ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
  assert.deepEqual(item.patch.parameters.map((p: any) => p.name ?? p.$ref), [
    '#/parameters/body-78PwaGsr',
    'dryRun',
    '#/parameters/fieldManager-7c6nTn1T',
    'fieldValidation',
    '#/parameters/force-tOGGb0Yi',
  ]);
  const status = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status'] as any;
  assert.deepEqual(Object.keys(status), ['get', 'put', 'patch', 'parameters']);
  assert.equal(status.patch.description, 'partially update status of the specified CronTab');
  const all = doc.paths['/apis/stable.example.com/v1/crontabs'] as any;
  assert.equal(all.get.operationId, 'listStableExampleComV1CronTabForAllNamespaces');
  assert.deepEqual(all.get.responses, responses([['200', 'OK']], '#/definitions/com.example.stable.v1.CronTabList'));
  // Every definition referenced is in the document, the meta/v1 ones in v2 form (no allOf, no defaults).
  const json = JSON.stringify(doc);
  for (const m of json.matchAll(/"#\/definitions\/([^"]+)"/g)) assert.ok(doc.definitions[m[1]!], m[1]);
  for (const m of json.matchAll(/"#\/parameters\/([^"]+)"/g)) assert.ok(doc.parameters[m[1]!], m[1]);
  assert.doesNotMatch(json, /components\/schemas|"default":|"allOf":/);
  assert.deepEqual((doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'] as any).properties.creationTimestamp, {
    description: (doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'] as any).properties.creationTimestamp.description,
    $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  });
});

/** Top-level fields of a protobuf message: field number → the length-delimited payloads. */
function fields(bytes: Uint8Array): Map<number, Uint8Array[]> {
  const out = new Map<number, Uint8Array[]>();
  const c = new Cursor(bytes);
  while (!c.done) {
    const { field, wireType } = c.tag();
    if (wireType === 2) out.set(field, [...(out.get(field) ?? []), c.bytes()]);
    else if (wireType === 0) c.varint();
    else if (wireType === 1) c.pos += 8;
    else throw new Error(`wire type ${wireType}`);
  }
  return out;
}
const text = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString('utf8');

test('/openapi/v2 as gnostic protobuf: the same document, maps as named entries, extensions as YAML', () => {
  const doc = openapiV2Document(allResources());
  const pb = fields(openapiV2Protobuf(doc as unknown as Record<string, unknown>));
  assert.equal(text(pb.get(1)?.[0]), '2.0');
  const info = fields(pb.get(2)![0]!);
  assert.equal(text(info.get(1)?.[0]), 'Kubernetes');
  // Definitions (9): NamedSchema entries in document order.
  const defs = fields(pb.get(9)![0]!).get(1)!.map(fields);
  assert.deepEqual(defs.map((d) => text(d.get(1)?.[0])), Object.keys(doc.definitions));
  const cron = fields(defs.find((d) => text(d.get(1)?.[0]) === 'com.example.stable.v1.CronTab')!.get(2)![0]!);
  assert.equal(text(fields(cron.get(22)![0]!).get(1)?.[0]), 'object'); // type: TypeItem
  const props = fields(cron.get(25)![0]!).get(1)!.map(fields).map((p) => text(p.get(1)?.[0]));
  assert.deepEqual(props, ['spec', 'metadata', 'apiVersion', 'kind']);
  const ext = fields(cron.get(31)![0]!);
  assert.equal(text(ext.get(1)?.[0]), 'x-kubernetes-group-version-kind');
  assert.equal(text(fields(ext.get(2)![0]!).get(2)?.[0]), '- group: stable.example.com\n  kind: CronTab\n  version: v1\n');
  // Paths (8), parameters (10) and the security definitions (13) are there too.
  assert.equal(fields(pb.get(8)![0]!).get(2)!.length, Object.keys(doc.paths).length);
  assert.equal(fields(pb.get(10)![0]!).get(1)!.length, Object.keys(doc.parameters).length);
  assert.ok(pb.get(13));
});

test('/openapi/v2 serving: JSON or protobuf by Accept, one ETag for both, 304, 406', () => {
  const published = publishOpenAPIV2(allResources(), { now: new Date('2026-01-01T00:00:00Z') });
  const proto = serveOpenAPIV2(published, { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
  assert.equal(proto.status, 200);
  assert.equal(proto.headers['Content-Type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
  assert.deepEqual(proto.body, published.protobuf);
  const json = serveOpenAPIV2(published, {});
  assert.deepEqual(json.headers, { Vary: 'Accept-Encoding, Accept', 'Content-Type': 'application/json', Etag: `"${published.hash}"`, 'Last-Modified': 'Thu, 01 Jan 2026 00:00:00 GMT' });
  assert.equal(json.body, published.json);
  assert.equal(proto.headers['Etag'], json.headers['Etag']);
  assert.deepEqual(serveOpenAPIV2(published, { ifNoneMatch: `"${published.hash}"` }), { status: 304, headers: { Vary: 'Accept-Encoding, Accept', Etag: `"${published.hash}"` } });
  // Behind gziphandler: gzip for clients that take it.
  const gz = serveOpenAPIV2(published, { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf', acceptEncoding: 'gzip' });
  assert.equal(gz.headers['Content-Encoding'], 'gzip');
  assert.deepEqual(new Uint8Array(gunzipSync(gz.body as Uint8Array)), new Uint8Array(published.protobuf));
  assert.equal(serveOpenAPIV2(published, { acceptEncoding: 'gzip;q=0' }).headers['Content-Encoding'], undefined);
  assert.equal(serveOpenAPIV2(published, { accept: 'text/html' }).status, 406);
  assert.notEqual(publishOpenAPIV2([cronTab()]).hash, published.hash);
  assert.deepEqual(listSchemaV2('x.v1.A', { group: 'x', version: 'v1', kind: 'A', listKind: 'AList', resource: 'as' })['required'], ['items']);
});
