// updateCrdStatus hands the store a top-level copy of the stored CRD (its spec shared with the object read): the
// same stored CRD, managed fields and all, as a status write through the store's deep copy, and the CRD read stays
// as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { updateCrdStatus } from '../../src/crd/status-update.js';
import type { CustomResourceDefinition, CustomResourceDefinitionStatus } from '../../src/crd/types.js';
import type { JSONObject } from '../../src/util/json.js';
import { CORPUS } from '../shared-paths.js';
import { trackManagedFields } from '../../src/server/merge-schema.js';
import { crdEnv } from './controller-env.js';
import { cronTab } from './helpers.js';

const normalized = (crd: CustomResourceDefinition): unknown => {
  const m = crd.metadata as unknown as JSONObject;
  // Times blanked, and the entries in an order their times do not decide (entries sort by time).
  const managed = (m['managedFields'] as JSONObject[] | undefined)?.map((e): JSONObject => ({ ...e, time: 'T' })).sort((a, b) => String(a['manager']).localeCompare(String(b['manager'])));
  return { ...crd, metadata: { ...m, uid: 'U', creationTimestamp: 'T', managedFields: managed } };
};

const statusOf = (crd: CustomResourceDefinition): CustomResourceDefinitionStatus => ({
  acceptedNames: { plural: crd.spec.names.plural, kind: crd.spec.names.kind },
  conditions: [{ type: 'NamesAccepted', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'NoConflicts', message: 'no conflicts found' }],
  storedVersions: ['v1'],
});

/** The CRD stored after its status write, by updateCrdStatus or through the store's deep copy. */
async function written(crd: CustomResourceDefinition, shared: boolean): Promise<CustomResourceDefinition> {
  const env = await crdEnv();
  // As the server's CRD store: managed fields tracked (the status write's entry is compared too).
  trackManagedFields([env.crds.type]);
  const created = (await env.crds.create('', structuredClone(crd) as unknown as JSONObject, { manager: 'kubectl-create' })) as unknown as CustomResourceDefinition;
  const status = statusOf(created);
  const before = structuredClone(created);
  if (shared) {
    assert.equal(await updateCrdStatus(env.crds, created, status), true);
    assert.deepEqual(created, before, 'the cached CRD is not changed');
  } else {
    const rv = created.metadata.resourceVersion;
    await env.crds.updateStored(
      '',
      created.metadata.name ?? '',
      (cur) => {
        cur!['status'] = structuredClone(status) as unknown as JSONObject;
        (cur!['metadata'] as JSONObject)['resourceVersion'] = rv;
        return cur!;
      },
      'status',
      { manager: 'kube-apiserver' },
    );
  }
  const got = await env.get(created.metadata.name ?? '');
  await env.close();
  return got;
}

test('a CRD status write with its spec shared stores what the deep copy stores', async () => {
  const corpus = parse(readFileSync(`${CORPUS}/cert-manager/crds/cert-manager.io_certificates.yaml`, 'utf8')) as CustomResourceDefinition;
  for (const crd of [cronTab(), corpus]) {
    const shared = await written(crd, true);
    const deep = await written(crd, false);
    assert.deepEqual(normalized(shared), normalized(deep));
    assert.equal(shared.status?.acceptedNames?.kind, crd.spec.names.kind);
    assert.ok((shared.metadata.managedFields ?? []).some((e) => e.subresource === 'status' && e.manager === 'kube-apiserver'));
  }
});
