// GenericStore.find: get, with undefined for a missing object (no 404 Status made), from the cache's memory or from
// the store behind it; other failures still fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GenericStore } from '../../src/registry/store.js';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { BUILTIN_KINDS } from '../../src/apis/index.js';
import { createCachedStore } from '../../src/storage/cache.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import type { KVStore } from '../../src/storage/types.js';

const configMaps = BUILTIN_KINDS.find((k) => k.served.group === '' && k.served.resource === 'configmaps')!;

test('find answers the object as get does, and undefined where get would answer 404', async () => {
  const sqlite = openSqliteStore(':memory:');
  const cached = await createCachedStore(openSqliteStore(':memory:'));
  try {
    for (const kv of [sqlite, cached] as KVStore[]) {
      const store = new GenericStore(kv, builtinResourceType(configMaps), NO_ADMISSION);
      await store.create('default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'here' }, data: { a: 'b' } });
      assert.deepEqual(await store.find('default', 'here'), await store.get('default', 'here'));
      assert.equal(await store.find('default', 'missing'), undefined);
      assert.equal(await store.find('other', 'here'), undefined);
      await assert.rejects(store.get('default', 'missing'), (e: { code?: number }) => e.code === 404);
    }
    // A store that fails: find fails too, rather than calling the object absent.
    const failing = { get: () => Promise.reject(new Error('storage is down')) } as unknown as KVStore;
    await assert.rejects(new GenericStore(failing, builtinResourceType(configMaps), NO_ADMISSION).find('default', 'x'), /storage is down/);
  } finally {
    await sqlite.close();
    await cached.close();
  }
});
