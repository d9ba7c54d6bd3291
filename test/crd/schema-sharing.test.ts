// CRD schemas are compiled on first use and shared between CRD versions with the same schema (issue 19).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCrdSchemas } from '../../src/crd/custom-resource.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';

const schema = (extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: {
    spec: { type: 'object', properties: { replicas: { type: 'integer', minimum: 1, default: 1 }, ...extra } },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
});

function crd(group: string, s: Record<string, unknown>, status = true): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: s }, ...(status ? { subresources: { status: {} } } : {}) }],
    },
  } as unknown as CustomResourceDefinition;
}

test('CRDs in other groups with the same schema share one compiled schema', () => {
  const a = compileCrdSchemas(crd('a.example.com', schema())).get('v1');
  const b = compileCrdSchemas(crd('b.example.com', schema())).get('v1');
  assert.ok(a);
  assert.equal(a, b);
});

test('a different schema, or status without its own endpoint, compiles apart', () => {
  const a = compileCrdSchemas(crd('a.example.com', schema())).get('v1')!;
  const other = compileCrdSchemas(crd('a.example.com', schema({ size: { type: 'string' } }))).get('v1')!;
  const noStatus = compileCrdSchemas(crd('a.example.com', schema(), false)).get('v1')!;
  assert.notEqual(a, other);
  assert.notEqual(a, noStatus);
  assert.ok(a.status, 'status schema compiled for the /status endpoint');
  assert.equal(noStatus.status, undefined);
});

test('what is known without compiling: versions, schemas present, default keywords', () => {
  const c = crd('a.example.com', schema());
  c.spec.versions.push({ name: 'v2', served: true, storage: false } as never);
  const schemas = compileCrdSchemas(c);
  assert.equal(schemas.has('v1'), true);
  assert.equal(schemas.has('v2'), true);
  assert.equal(schemas.has('v3'), false);
  assert.equal(schemas.hasSchema('v2'), false);
  assert.equal(schemas.get('v2'), undefined);
  assert.equal(schemas.hasDefaults('v1'), true);
  assert.equal(compileCrdSchemas(crd('a.example.com', { type: 'object' })).hasDefaults('v1'), false);
});

test('a shared compiled schema validates, defaults and prunes each CRD the same', () => {
  const a = compileCrdSchemas(crd('a.example.com', schema())).get('v1')!;
  const b = compileCrdSchemas(crd('b.example.com', schema())).get('v1')!;
  const obj = { apiVersion: 'b.example.com/v1', kind: 'Widget', metadata: { name: 'x' }, spec: { extra: 1 } };
  b.object.prune(obj);
  b.object.default(obj);
  assert.deepEqual(obj.spec, { replicas: 1 });
  const errs = a.object.validateValue({ apiVersion: 'a.example.com/v1', kind: 'Widget', metadata: { name: 'x' }, spec: { replicas: 0 } });
  assert.equal(errs.length, 1);
  assert.match(JSON.stringify(errs[0]), /spec\.replicas/);
});
