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

const deepFreeze = <T>(v: T): T => {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
};

/**
 * A CRD created, its ADDED watch event's object (as an informer holds it, frozen: a change of it throws), and
 * how many times the store decodes stored bytes for a status write made with `cached`.
 */
async function writtenFromEvent(
  crd: CustomResourceDefinition,
  cachedOf: (event: CustomResourceDefinition) => CustomResourceDefinition,
  meanwhile?: (env: Awaited<ReturnType<typeof crdEnv>>, name: string) => Promise<unknown>,
  remember = true,
) {
  const env = await crdEnv();
  trackManagedFields([env.crds.type]);
  // As the CRD controllers' store does (CrdController).
  if (remember) env.crds.rememberEventObjects();
  let event: JSONObject | undefined;
  const w = env.crds.watch('', 0, {}, (ev) => (event ??= ev.object), (e) => assert.fail(e.message));
  await env.crds.create('', structuredClone(crd) as unknown as JSONObject, { manager: 'kubectl-create' });
  while (!event) await new Promise((r) => setImmediate(r));
  w.close();
  const cached = cachedOf(deepFreeze(event) as unknown as CustomResourceDefinition);
  await meanwhile?.(env, cached.metadata.name ?? '');
  const read = env.crds.read.bind(env.crds);
  let reads = 0;
  env.crds.read = (...args) => (reads++, read(...args));
  const ok = await updateCrdStatus(env.crds, cached, statusOf(cached));
  env.crds.read = read;
  const got = await env.get(cached.metadata.name ?? '');
  await env.close();
  return { ok, reads, got };
}

test('a CRD status write from the watch event object takes it as the object read, stores what a decode gives, and changes nothing of it', async () => {
  const corpus = parse(readFileSync(`${CORPUS}/cert-manager/crds/cert-manager.io_certificates.yaml`, 'utf8')) as CustomResourceDefinition;
  for (const crd of [cronTab(), corpus]) {
    const shared = await writtenFromEvent(crd, (event) => event);
    assert.deepEqual(shared.ok, true);
    assert.equal(shared.reads, 0, 'the event object is the object read');
    // The general path: a copy of the event object is not known, so the stored bytes are decoded.
    const decoded = await writtenFromEvent(crd, (event) => structuredClone(event));
    assert.equal(decoded.reads, 1);
    // A store not told to remember its events' objects (every other store) decodes.
    assert.equal((await writtenFromEvent(crd, (event) => event, undefined, false)).reads, 1);
    assert.deepEqual(normalized(shared.got), normalized(decoded.got));
    assert.deepEqual(normalized(shared.got), normalized(await written(crd, false)));
  }
});

test('a watch event object of a revision no longer current is not taken: the write is a conflict, as with a decode', async () => {
  const labelled = (env: Awaited<ReturnType<typeof crdEnv>>, name: string) =>
    env.crds.updateStored('', name, (cur) => ({ ...cur!, metadata: { ...(cur!['metadata'] as JSONObject), labels: { a: 'b' } } }), '', {});
  const stale = await writtenFromEvent(cronTab(), (event) => event, labelled);
  assert.equal(stale.ok, false);
  assert.equal(stale.reads, 1);
  assert.equal(stale.got.status?.acceptedNames?.kind ?? '', '', 'the status was not written');
  assert.deepEqual(stale.got.metadata.labels, { a: 'b' });
});
