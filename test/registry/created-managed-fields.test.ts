// A custom resource's create records its managed fields in one walk (FieldManager's createdManaged): the same
// entries as the Updater's way, which an update from the type's new object (apiVersion and kind alone) takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CrdServing } from '../../src/crd/serving.js';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import { mergeSchemaFor } from '../../src/server/merge-schema.js';
import type { KVStore } from '../../src/storage/types.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import type { FieldManager } from '../../src/registry/field-manager/field-manager.js';
import type { JSONObject } from '../../src/util/json.js';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com', resourceVersion: '5' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  image: { type: 'string' },
                  replicas: { type: 'integer' },
                  tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                  args: { type: 'array', items: { type: 'string' } },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['port', 'protocol'],
                    items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } } },
                  },
                  selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
                  env: { type: 'object', additionalProperties: { type: 'object', properties: { value: { type: 'string' } } } },
                  raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  empty: { type: 'object' },
                },
              },
              status: { type: 'object', properties: { ready: { type: 'boolean' } } },
            },
          },
        },
      },
    ],
  },
  status: {
    acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    conditions: [
      { type: 'NamesAccepted', status: 'True' },
      { type: 'Established', status: 'True' },
    ],
  },
} as unknown as CustomResourceDefinition;

function fieldManager(): FieldManager {
  const serving = new CrdServing({} as KVStore, NO_ADMISSION, undefined, (s) => mergeSchemaFor(s));
  serving.update(crd);
  return serving.lookup('example.com', 'v1', 'widgets')!.store.fieldManager('')!;
}

const widget = (spec: unknown, metadata: JSONObject = {}, rest: JSONObject = {}): JSONObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'ns', ...metadata },
  spec,
  ...rest,
});

const objects: JSONObject[] = [
  widget({ image: 'a', replicas: 3 }),
  widget({ image: 'a' }, { labels: { app: 'x', 'example.com/tier': 'y' }, annotations: { note: 'z' }, finalizers: ['f1', 'f2'], generateName: 'w-' }),
  widget({ tags: ['a', 'b', 'a'], args: ['x', 'x'], ports: [{ port: 80 }, { port: 80, protocol: 'UDP', name: 'u' }, { port: 443, name: 's' }] }),
  widget({ ports: [{ port: 80 }, { port: 80, protocol: 'TCP' }] }),
  widget({ selector: { a: 'b' }, env: { A: { value: '1' }, B: {} }, raw: { anything: { deep: [1, { x: null }] }, n: null }, empty: {} }),
  widget({}, { labels: {} }),
  widget(null),
  widget({ image: 'a' }, {}, { status: { ready: true } }),
  widget({ image: 'a' }, { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u1', controller: true }] }),
  widget({ image: 'a' }, { uid: 'given', resourceVersion: '7', creationTimestamp: null, generation: 3 }),
  { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'bare' } },
  { apiVersion: 'example.com/v1', kind: 'Widget' },
  // Not of the schema: no managed fields either way.
  widget({ replicas: 'three' }),
  widget({ ports: [{ name: 'no-port' }] }),
  // Managed fields sent with the create: reset, valid, invalid.
  widget({ image: 'a' }, { managedFields: [] }),
  widget({ image: 'a' }, { managedFields: [{}] }),
  widget({ image: 'a' }, { managedFields: [{ manager: 'other', operation: 'Update', apiVersion: 'example.com/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:image': {} } } }] }),
  widget({ image: 'a' }, { managedFields: [{ manager: 'other', operation: 'Bogus' }] }),
];

/** managedFields with the times (the clock's) blanked. */
function managed(obj: JSONObject): unknown {
  const m = (obj['metadata'] as JSONObject | undefined)?.['managedFields'];
  return Array.isArray(m) ? m.map((e: JSONObject) => ({ ...e, time: e['time'] === undefined ? undefined : 'T' })) : m;
}

test('a custom resource create records the same managed fields as the Updater does', async () => {
  const fm = fieldManager();
  for (const obj of objects) {
    for (const manager of ['kubectl-client-side-apply', '', 'm']) {
      const fast = await fm.update(undefined, structuredClone(obj), manager);
      // From the new object as the live one: the general path, the object compared against what a create is.
      const slow = await fm.update({ apiVersion: 'example.com/v1', kind: 'Widget' }, structuredClone(obj), manager);
      assert.deepEqual(managed(fast), managed(slow), JSON.stringify(obj));
      assert.deepEqual({ ...fast, metadata: { ...(fast['metadata'] as JSONObject), managedFields: undefined } }, { ...slow, metadata: { ...(slow['metadata'] as JSONObject), managedFields: undefined } });
    }
  }
  // The fast path did record fields for an ordinary create (status is not the main resource's).
  const out = await fm.update(undefined, structuredClone(objects[7]!), 'm');
  assert.deepEqual((managed(out) as JSONObject[])[0]!['fieldsV1'], { 'f:spec': { '.': {}, 'f:image': {} } });
});
