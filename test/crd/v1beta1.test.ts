// v1beta1 <-> v1 CRD conversion and v1beta1 defaults, as kube 1.21 did them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crdToV1, crdToV1beta1 } from '../../src/crd/v1beta1.js';

const schema = { openAPIV3Schema: { type: 'object' } };

test('v1beta1 defaults, then top-level fields copied into every version', () => {
  const v1 = crdToV1({
    apiVersion: 'apiextensions.k8s.io/v1beta1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.x.io' },
    spec: {
      group: 'x.io',
      version: 'v1',
      names: { plural: 'crontabs', kind: 'CronTab' },
      validation: schema,
      subresources: { status: {} },
      additionalPrinterColumns: [{ name: 'Spec', type: 'string', JSONPath: '.spec.cronSpec' }],
      conversion: { strategy: 'Webhook', webhookClientConfig: { service: { namespace: 'n', name: 's' } } },
    },
  });
  assert.equal(v1['apiVersion'], 'apiextensions.k8s.io/v1');
  assert.deepEqual(v1['spec'], {
    group: 'x.io',
    names: { plural: 'crontabs', kind: 'CronTab', singular: 'crontab', listKind: 'CronTabList' },
    scope: 'Namespaced',
    versions: [
      { name: 'v1', served: true, storage: true, schema, subresources: { status: {} }, additionalPrinterColumns: [{ name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' }] },
    ],
    conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'n', name: 's', port: 443 } }, conversionReviewVersions: ['v1beta1'] } },
    preserveUnknownFields: true,
  });
});

test('v1 to v1beta1: shared per-version values move to the top level; different ones stay', () => {
  const beta = crdToV1beta1({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'a.x.io' },
    spec: {
      group: 'x.io',
      names: { plural: 'a', kind: 'A' },
      scope: 'Cluster',
      versions: [
        { name: 'v2', served: true, storage: true, schema, subresources: { status: {} } },
        { name: 'v1', served: true, storage: false, schema, subresources: { status: {}, scale: { specReplicasPath: '.spec.r', statusReplicasPath: '.status.r' } } },
      ],
      conversion: { strategy: 'None' },
    },
  }) as any;
  assert.equal(beta.apiVersion, 'apiextensions.k8s.io/v1beta1');
  assert.equal(beta.spec.version, 'v2');
  assert.deepEqual(beta.spec.validation, schema);
  assert.equal(beta.spec.subresources, undefined);
  assert.deepEqual(beta.spec.versions.map((v: any) => [v.name, v.schema, Object.keys(v.subresources)]), [
    ['v2', undefined, ['status']],
    ['v1', undefined, ['status', 'scale']],
  ]);
  assert.equal(beta.spec.preserveUnknownFields, false);
  // And back again.
  const back = crdToV1(beta) as any;
  assert.deepEqual(back.spec.versions[1].schema, schema);
  assert.equal(back.spec.preserveUnknownFields, undefined);
});
