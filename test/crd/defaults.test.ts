import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCRD } from '../../src/crd/defaults.js';
import { specsSemanticallyEqual } from '../../src/crd/internal.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';

const minimal = (): CustomResourceDefinition => ({
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', kind: 'CronTab' },
    versions: [
      { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
    ],
  },
});

test('singular defaults to the lower-cased kind, listKind to kind+List', () => {
  const d = defaultCRD(minimal());
  assert.equal(d.spec.names.singular, 'crontab');
  assert.equal(d.spec.names.listKind, 'CronTabList');
});

test('explicit singular and listKind are kept', () => {
  const crd = minimal();
  crd.spec.names.singular = 'ct';
  crd.spec.names.listKind = 'Tabs';
  const d = defaultCRD(crd);
  assert.equal(d.spec.names.singular, 'ct');
  assert.equal(d.spec.names.listKind, 'Tabs');
});

test('no kind: nothing to derive names from', () => {
  const crd = minimal();
  crd.spec.names.kind = '';
  const d = defaultCRD(crd);
  assert.equal(d.spec.names.singular, undefined);
  assert.equal(d.spec.names.listKind, undefined);
});

test('conversion defaults to strategy None', () => {
  assert.deepEqual(defaultCRD(minimal()).spec.conversion, { strategy: 'None' });
  const crd = minimal();
  crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://e.com' } } };
  assert.deepEqual(defaultCRD(crd).spec.conversion, crd.spec.conversion);
});

test('the webhook service port defaults to 443', () => {
  const crd = minimal();
  crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { name: 's', namespace: 'n' } } } };
  assert.equal(defaultCRD(crd).spec.conversion?.webhook?.clientConfig?.service?.port, 443);
  crd.spec.conversion.webhook!.clientConfig!.service!.port = 8443;
  assert.equal(defaultCRD(crd).spec.conversion?.webhook?.clientConfig?.service?.port, 8443);
});

test('storedVersions defaults to the storage version, only when empty', () => {
  assert.deepEqual(defaultCRD(minimal()).status, { storedVersions: ['v1'] });
  const crd = minimal();
  crd.status = { storedVersions: ['v1beta1'] };
  assert.deepEqual(defaultCRD(crd).status?.storedVersions, ['v1beta1']);
  crd.spec.versions.forEach((v) => (v.storage = false));
  crd.status = {};
  assert.deepEqual(defaultCRD(crd).status, {});
});

test('schemas and everything else are left alone; the input is not modified', () => {
  const crd = minimal();
  const before = structuredClone(crd);
  const d = defaultCRD(crd);
  assert.deepEqual(crd, before);
  assert.deepEqual(d.spec.versions, before.spec.versions);
  assert.equal(d.spec.preserveUnknownFields, undefined);
});

test('spec equality is semantic: empty lists equal absent ones, defaults count', () => {
  const a = defaultCRD(minimal());
  const b = structuredClone(a);
  b.spec.names.categories = [];
  b.spec.versions[0]!.additionalPrinterColumns = [];
  assert.ok(specsSemanticallyEqual(a.spec, b.spec));
  b.spec.versions[0]!.subresources = {};
  assert.ok(!specsSemanticallyEqual(a.spec, b.spec));
  assert.ok(!specsSemanticallyEqual(minimal().spec, a.spec));
});
