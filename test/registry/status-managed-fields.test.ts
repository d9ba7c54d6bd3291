// A /status write whose spec is unchanged: the field manager validates and compares only what is not reset
// (FieldManager's unchangedResetFields). The same managed fields and objects as walking the spec again, for corpus
// CRDs and a custom resource: spec unchanged or changed, invalid on either side, other managers owning status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { crdKind } from '../../src/apis/apiextensions/v1/custom-resource-definition.js';
import { CrdServing } from '../../src/crd/serving.js';
import { defaultCRD } from '../../src/crd/defaults.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import { skipUnchangedResetFields, type FieldManager } from '../../src/registry/field-manager/field-manager.js';
import { GenericStore } from '../../src/registry/store.js';
import { mergeSchemaFor, trackManagedFields } from '../../src/server/merge-schema.js';
import type { KVStore } from '../../src/storage/types.js';
import type { JSONObject } from '../../src/util/json.js';
import { CORPUS } from '../shared-paths.js';
import { widgetCRD } from './widget-crd.js';

/** managedFields with the times (the clock's) blanked, in an order the times do not decide (entries sort by time). */
function managed(obj: JSONObject): unknown {
  const m = (obj['metadata'] as JSONObject | undefined)?.['managedFields'];
  if (!Array.isArray(m)) return m;
  const id = (e: JSONObject): string => `${String(e['manager'])}/${String(e['operation'])}/${String(e['subresource'] ?? '')}`;
  return m.map((e: JSONObject) => ({ ...e, time: e['time'] === undefined ? undefined : 'T' })).sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

const withoutManaged = (obj: JSONObject): JSONObject => ({ ...obj, metadata: { ...(obj['metadata'] as JSONObject), managedFields: undefined } });

/** fm.update with the unchanged reset fields passed over and walked again: both answers, compared. */
async function sameBothWays(fm: FieldManager, live: JSONObject, next: JSONObject, manager: string, what: string): Promise<JSONObject> {
  const fast = await fm.update(live, structuredClone(next), manager);
  skipUnchangedResetFields(false);
  try {
    const slow = await fm.update(live, structuredClone(next), manager);
    assert.deepEqual(managed(fast), managed(slow), what);
    assert.deepEqual(withoutManaged(fast), withoutManaged(slow), what);
  } finally {
    skipUnchangedResetFields(true);
  }
  return fast;
}

function crdStores() {
  const type = builtinResourceType(crdKind);
  trackManagedFields([type]);
  const store = new GenericStore({} as KVStore, type, NO_ADMISSION);
  return { main: store.fieldManager('')!, status: store.fieldManager('status')! };
}

const corpusCRD = (path: string): CustomResourceDefinition => {
  const crd = defaultCRD(parse(readFileSync(`${CORPUS}/${path}`, 'utf8')) as CustomResourceDefinition);
  crd.metadata = { ...crd.metadata, uid: 'u1', resourceVersion: '5', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' };
  delete crd.status;
  return crd;
};

const namesStatus = (crd: CustomResourceDefinition, established: boolean): JSONObject => ({
  acceptedNames: { plural: crd.spec.names.plural, kind: crd.spec.names.kind },
  conditions: [
    { type: 'NamesAccepted', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'NoConflicts', message: 'no conflicts found' },
    { type: 'Established', status: established ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: established ? 'InitialNamesAccepted' : 'Installing', message: 'the initial names have been accepted' },
  ],
  storedVersions: [crd.spec.versions.find((v) => v.storage)?.name ?? ''],
});

const FILES = ['cert-manager/crds/cert-manager.io_certificaterequests.yaml', 'cert-manager/crds/acme.cert-manager.io_challenges.yaml', 'argo-cd/crds/application-crd.yaml'];

test('a CRD /status write records the same managed fields whether or not its unchanged spec is walked again', async () => {
  const { main, status } = crdStores();
  let cases = 0;
  for (const file of FILES) {
    const crd = corpusCRD(file);
    // Created by one manager (spec owned), then its status written twice, by the controllers and someone else.
    const created = await main.update(undefined, crd as unknown as JSONObject, 'kubectl-create');
    const withStatus = (live: JSONObject, st: JSONObject): JSONObject => ({ ...structuredClone(live), status: st });
    const named = await sameBothWays(status, created, withStatus(created, namesStatus(crd, false)), 'kube-apiserver', `${file}: names`);
    const established = await sameBothWays(status, named, withStatus(named, namesStatus(crd, true)), 'kube-apiserver', `${file}: established`);
    const other = await sameBothWays(status, established, withStatus(established, { ...namesStatus(crd, true), acceptedNames: { plural: 'x', kind: 'X' } }), 'other', `${file}: another manager`);
    // The spec changed as well (a /status write resets it later; here it is compared), or gone.
    const specChanged = withStatus(other, namesStatus(crd, false));
    (specChanged['spec'] as JSONObject)['group'] = 'changed.example.com';
    await sameBothWays(status, other, specChanged, 'kube-apiserver', `${file}: spec changed`);
    const specGone = withStatus(other, namesStatus(crd, false));
    delete specGone['spec'];
    await sameBothWays(status, other, specGone, 'kube-apiserver', `${file}: spec gone`);
    // Labels (not reset on /status) and status both changed.
    const labelled = withStatus(other, namesStatus(crd, false));
    (labelled['metadata'] as JSONObject)['labels'] = { a: 'b' };
    await sameBothWays(status, other, labelled, 'kube-apiserver', `${file}: labels`);
    // Not of the type: the spec on both sides (live's entries are kept either way), or the new status.
    const badSpec = { ...structuredClone(other), spec: { ...(other['spec'] as JSONObject), versions: 'v1' } };
    const kept = await sameBothWays(status, badSpec, withStatus(badSpec, namesStatus(crd, false)), 'kube-apiserver', `${file}: invalid spec`);
    assert.deepEqual(managed(kept), managed(badSpec));
    await sameBothWays(status, other, withStatus(other, { conditions: 'x' }), 'kube-apiserver', `${file}: invalid status`);
    const newBadSpec = withStatus(other, namesStatus(crd, false));
    newBadSpec['spec'] = badSpec.spec;
    await sameBothWays(status, other, newBadSpec, 'kube-apiserver', `${file}: invalid spec sent`);
    cases += 9;
    // The spec unchanged, the controllers' status fields were recorded beside the creator's.
    const entries = managed(established) as JSONObject[];
    assert.deepEqual(entries.map((e) => `${String(e['manager'])}/${String(e['subresource'] ?? '')}`).sort(), ['kube-apiserver/status', 'kubectl-create/']);
    assert.ok(entries.some((e) => e['subresource'] === 'status' && Object.keys(e['fieldsV1'] as JSONObject).includes('f:status')));
  }
  assert.equal(cases, 9 * FILES.length);
});

const widgets = widgetCRD({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        image: { type: 'string' },
        replicas: { type: 'integer' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port'],
          items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, name: { type: 'string' } } },
        },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' }, replicas: { type: 'integer' } } },
  },
});

test('a custom resource /status write records the same managed fields whether or not its unchanged spec is walked again', async () => {
  const serving = new CrdServing({} as KVStore, NO_ADMISSION, undefined, (s) => mergeSchemaFor(s));
  serving.update(widgets);
  const store = serving.lookup('example.com', 'v1', 'widgets')!.store;
  const main = store.fieldManager('')!;
  const status = store.fieldManager('status')!;
  const widget = (spec: unknown, st?: unknown): JSONObject => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'ns', uid: 'u1', resourceVersion: '3' },
    spec,
    ...(st === undefined ? {} : { status: st }),
  });
  const live = await main.update(undefined, widget({ image: 'a', ports: [{ port: 80 }, { port: 443, name: 's' }] }), 'kubectl-create');
  const ready = await sameBothWays(status, live, { ...structuredClone(live), status: { ready: true } }, 'controller', 'ready');
  await sameBothWays(status, ready, { ...structuredClone(ready), status: { ready: false, replicas: 2 } }, 'other', 'another manager');
  await sameBothWays(status, ready, { ...structuredClone(ready), spec: { image: 'b' }, status: { ready: true } }, 'controller', 'spec changed');
  await sameBothWays(status, ready, { ...structuredClone(ready), spec: null, status: { ready: true } }, 'controller', 'spec null');
  const invalid: JSONObject = { ...structuredClone(ready), spec: { replicas: 'three' } };
  await sameBothWays(status, invalid, { ...structuredClone(invalid), status: { ready: false } }, 'controller', 'invalid spec');
  await sameBothWays(status, ready, { ...structuredClone(ready), status: { ready: 'yes' } }, 'controller', 'invalid status');
  await sameBothWays(status, ready, { ...structuredClone(ready), spec: { replicas: 'three' }, status: { ready: false } }, 'controller', 'invalid spec sent');
  // The main resource resets status: a spec update leaving status as it is passes over status the same way.
  await sameBothWays(main, ready, { ...structuredClone(ready), spec: { image: 'c', replicas: 2 } }, 'kubectl-edit', 'main: spec changed');
  await sameBothWays(main, ready, { ...structuredClone(ready), spec: { image: 'c' }, status: { ready: false } }, 'kubectl-edit', 'main: status changed too');
  await sameBothWays(main, invalid, { ...structuredClone(invalid), metadata: { ...(invalid['metadata'] as JSONObject), labels: { a: 'b' } } }, 'kubectl-edit', 'main: invalid spec kept');
  await sameBothWays(main, ready, { ...structuredClone(ready), status: { ready: 'yes' } }, 'kubectl-edit', 'main: invalid status sent');
});
