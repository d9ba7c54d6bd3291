// A create records its managed fields without the Updater (FieldManager's createdManaged): a custom resource's in
// one walk, a built-in's by one comparison with its zero object. The same entries as the Updater's way, which an
// update from the type's new object takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CrdServing } from '../../src/crd/serving.js';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import { mergeSchemaFor } from '../../src/server/merge-schema.js';
import type { KVStore } from '../../src/storage/types.js';
import type { FieldManager } from '../../src/registry/field-manager/field-manager.js';
import type { JSONObject } from '../../src/util/json.js';
import { readdirSync, readFileSync } from 'node:fs';
import { GenericStore } from '../../src/registry/store.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { BUILTIN_KINDS } from '../../src/apis/index.js';
import { trackManagedFields } from '../../src/server/merge-schema.js';
import { bootstrapPolicy } from '../../src/auth/rbac/bootstrap-policy.js';
import { gvString } from '../../src/api/resource.js';
import { widgetCRD } from './widget-crd.js';

const FIXTURES = new URL('../fixtures/protobuf/', import.meta.url);

const crd = widgetCRD({
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
});

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

test('a built-in create records the same managed fields as the Updater does: every kind, from k8s.io/api fixtures and the bootstrap policy', async () => {
  const types = BUILTIN_KINDS.filter((k) => !k.createOnly).map((k) => builtinResourceType(k));
  trackManagedFields(types);
  const byKind = new Map(types.map((t) => [`${gvString(t.served.group, t.served.version)}/${t.served.kind}`, t]));
  const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
  const samples: JSONObject[] = [...fixtures.map((f) => JSON.parse(readFileSync(new URL(f, FIXTURES), 'utf8')) as JSONObject), ...Object.values(bootstrapPolicy()).flat()];
  let compared = 0;
  const kinds = new Set<string>();
  for (const sample of samples) {
    const type = byKind.get(`${String(sample['apiVersion'])}/${String(sample['kind'])}`);
    const fm = type?.managedFields ? new GenericStore({} as KVStore, type, NO_ADMISSION).fieldManager('') : undefined;
    if (!type || !fm) continue;
    // As a create sends it: no status of the server's making, no managed fields of its own.
    const obj = structuredClone(sample);
    const meta = (obj['metadata'] ?? {}) as JSONObject;
    delete meta['managedFields'];
    for (const manager of ['kubectl-create', 'm']) {
      const fast = await fm.update(undefined, structuredClone(obj), manager);
      const apiVersion = String(obj['apiVersion']);
      const slow = await fm.update(type.managedFields!.newObject(apiVersion), structuredClone(obj), manager);
      assert.deepEqual(managed(fast), managed(slow), `${String(obj['kind'])}: ${JSON.stringify(managed(slow)).slice(0, 200)}`);
      compared++;
    }
    if (managed(await fm.update(undefined, structuredClone(obj), 'm')) !== undefined) kinds.add(String(sample['kind']));
  }
  // Every stored kind with a fixture (each with every field set), and the fast path recorded fields for them.
  for (const kind of ['ConfigMap', 'Secret', 'Namespace', 'ServiceAccount', 'Event', 'Lease', 'ClusterRole', 'RoleBinding', 'FlowSchema', 'ValidatingAdmissionPolicy', 'MutatingWebhookConfiguration']) {
    assert.ok(kinds.has(kind), `${kind} among ${[...kinds].join(', ')}`);
  }
  assert.ok(compared >= 2 * samples.length * 0.5, `${compared} comparisons of ${samples.length} samples`);
});
