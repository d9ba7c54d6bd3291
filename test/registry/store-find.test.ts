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
import { NOT_AT_HAND, type KVStore } from '../../src/storage/types.js';

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

test('sharedAtHand: getShared\'s object at once once it has been read shared, undefined for none, NOT_AT_HAND otherwise', async () => {
  const sqlite = openSqliteStore(':memory:');
  const cached = await createCachedStore(openSqliteStore(':memory:'));
  try {
    // Without a cache in front nothing is at hand.
    const uncached = new GenericStore(sqlite, builtinResourceType(configMaps), NO_ADMISSION);
    await uncached.create('default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'here' } });
    await uncached.getShared('default', 'here');
    assert.equal(uncached.sharedAtHand('default', 'here'), NOT_AT_HAND);
    const store = new GenericStore(cached, builtinResourceType(configMaps), NO_ADMISSION);
    await store.create('default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'here' }, data: { a: 'b' } });
    assert.equal(store.sharedAtHand('default', 'missing'), undefined);
    assert.equal(store.sharedAtHand('default', 'here'), NOT_AT_HAND, 'not read shared yet');
    // findShared: a promise until then (and undefined for none, with no 404), the object at once after.
    const pending = store.findShared('default', 'here');
    assert.ok(pending instanceof Promise);
    const shared = await store.getShared('default', 'here');
    assert.deepEqual(await pending, shared);
    assert.equal(store.sharedAtHand('default', 'here'), shared);
    assert.equal(store.findShared('default', 'here'), shared);
    assert.equal(store.findShared('default', 'missing'), undefined);
    assert.equal(await uncached.findShared('default', 'missing'), undefined);
    assert.deepEqual(await uncached.findShared('default', 'here'), await uncached.getShared('default', 'here'));
    // Written again: the new revision is not at hand until read shared; then it is the new object.
    await store.update('default', 'here', (cur) => ({ ...cur!, data: { a: 'c' } }), '');
    assert.equal(store.sharedAtHand('default', 'here'), NOT_AT_HAND);
    const again = await store.getShared('default', 'here');
    assert.deepEqual(again['data'], { a: 'c' });
    assert.equal(store.sharedAtHand('default', 'here'), again);
  } finally {
    await sqlite.close();
    await cached.close();
  }
});
