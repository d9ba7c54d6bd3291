// The garbage collector's informer source: lists give each object's apiVersion, kind and metadata (what the
// collector keeps) read out of the stored JSON, the same as decoding the object would give; an object stored
// at another version is decoded as usual.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { GenericStore } from '../../src/registry/store.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { configMapKind } from '../../src/apis/core/v1/config-map.js';
import { crdKind } from '../../src/apis/apiextensions/v1/custom-resource-definition.js';
import { metadataSource } from '../../src/controllers/garbage-collector/metadata-source.js';
import { GC_METADATA, gcView } from '../../src/controllers/garbage-collector/garbage-collector.js';
import type { JSONObject } from '../../src/util/json.js';
import { cronTab } from '../crd/helpers.js';

test('metadataSource lists what decoding and gcView give, without the rest of each object', async () => {
  const kv = openSqliteStore(':memory:');
  const configMaps = new GenericStore(kv, builtinResourceType(configMapKind));
  const crds = new GenericStore(kv, builtinResourceType(crdKind));
  const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-1', controller: true, blockOwnerDeletion: true };
  await configMaps.create('ns', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner', namespace: 'ns' }, data: { metadata: '{"x":1}' } });
  await configMaps.create('ns', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'dep', namespace: 'ns', ownerReferences: [owner], finalizers: ['example.com/f'], labels: { a: 'b' } },
    data: { k: 'v' },
  });
  await crds.create('', cronTab() as unknown as JSONObject);
  for (const store of [configMaps, crds]) {
    const full = (await store.list({ namespace: '' })).items;
    for (const keys of [undefined, GC_METADATA]) {
      const listed = (await metadataSource(store, keys).list({ namespace: '' })).items;
      assert.equal(listed.length, full.length);
      listed.forEach((o, i) => {
        assert.deepEqual(gcView(o), gcView(full[i]!));
        assert.deepEqual(Object.keys(o).sort(), ['apiVersion', 'kind', 'metadata'], 'nothing but the head was decoded');
        // With the collector's keys, nothing else of the metadata (managedFields, labels) was either.
        if (keys) assert.deepEqual(Object.keys(o['metadata'] as JSONObject).filter((k) => !(GC_METADATA as readonly string[]).includes(k)), []);
      });
    }
  }

  // Stored at another version: decoded (and converted) as a read would.
  await kv.create('/registry/configmaps/ns/old', JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v0', metadata: { name: 'old', namespace: 'ns', uid: 'u-2' }, data: { k: 'v' } }));
  const old = (await metadataSource(configMaps).list({ namespace: 'ns' })).items.find((o) => (o['metadata'] as JSONObject)['name'] === 'old')!;
  assert.deepEqual(old['data'], { k: 'v' });
  await kv.close();
});
