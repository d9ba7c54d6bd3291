import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Controller } from '../../src/controllers/controller.js';
import { waitForIdle } from '../../src/controllers/idle.js';
import { Informer, keyOf } from '../../src/controllers/informer.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { namespaceKind } from '../../src/apis/core/v1/namespace.js';

const namespaceType = () => builtinResourceType(namespaceKind);
import { GenericStore } from '../../src/registry/store.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';

const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

test('waitForIdle: waits for work that a sync\'s own write brings through the informer', async () => {
  const kv = openSqliteStore(':memory:');
  const store = new GenericStore(kv, namespaceType());
  // Events reach the informer late, as they may from a busy watch: after the sync that caused them is done.
  const informer = new Informer({
    list: (opts) => store.list(opts),
    watch: (namespace, from, filter, onEvent, onError) => store.watch(namespace, from, filter, (ev) => void setTimeout(() => onEvent(ev), 5), onError),
  });
  const synced: string[] = [];
  // Each namespace's sync creates the next one, up to d: every write comes back as an informer event.
  const next: Record<string, string> = { a: 'b', b: 'c', c: 'd' };
  const c = new Controller({
    name: 'chain',
    sync: async (key) => {
      synced.push(key);
      if (next[key]) await store.create('', ns(next[key]));
    },
  });
  informer.addEventHandler({ add: (o) => c.enqueue(keyOf(o)) });
  await store.create('', ns('a'));
  await informer.start();
  c.run();
  await waitForIdle([informer], [c]);
  assert.deepEqual(synced, ['a', 'b', 'c', 'd']);
  informer.stop();
  await c.stop();
  await kv.close();
});
