// A write's or a GET's answer takes its one key-value as stored (rawObjectAsStored) where rawObjects would:
// the same text, place and resourceVersion; undefined where rawObjects decodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CrdServing } from '../../src/crd/serving.js';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import { mergeSchemaFor } from '../../src/server/merge-schema.js';
import type { KeyValue, KVStore } from '../../src/storage/types.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { rawObjectText } from '../../src/registry/store.js';
import { ValueSlabs } from '../../src/storage/value-slabs.js';

test('rawObjectAsStored is rawObjects of one key-value, when it is served as stored', async () => {
  const crd = parse(readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8')) as CustomResourceDefinition;
  crd.metadata.resourceVersion = '5';
  crd.status = {
    acceptedNames: { ...crd.spec.names },
    conditions: [
      { type: 'NamesAccepted', status: 'True' },
      { type: 'Established', status: 'True' },
    ],
  } as CustomResourceDefinition['status'];
  let rev = 10;
  const kv = { create: async (key: string, value: string) => ({ ok: true, kv: { key, value, createRevision: ++rev, modRevision: rev }, revision: rev }) } as unknown as KVStore;
  const serving = new CrdServing(kv, NO_ADMISSION, undefined, (s) => mergeSchemaFor(s));
  serving.update(crd);
  const store = serving.lookup('stable.example.com', 'v1', 'crontabs')!.store;
  const out = await store.createStored('ns', { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a', labels: { x: 'y' } }, spec: { cronSpec: '* * * * *' } }, { manager: 'm' });
  assert.ok('kv' in out);
  const stored = out.kv;
  const fast = store.rawObjectAsStored(stored);
  assert.ok(fast, 'served as stored');
  assert.deepEqual(fast, (await store.rawObjects([stored])).item(0));
  // Asked again (the place is remembered): the same.
  assert.deepEqual(store.rawObjectAsStored(stored), fast);
  // The write's own text (what its answer uses rather than read the value again) is the value's.
  assert.equal(out.text, stored.value);
  assert.deepEqual(store.rawObjectAsStored(stored, out.text), fast);
  // Held in a slab, the value read back is the same text.
  const slabs = new ValueSlabs();
  const held = slabs.make(stored);
  assert.equal(store.rawObjectAsStored(held, out.text)!.at, (await store.rawObjects([held])).item(0).at);
  assert.equal(rawObjectText(store.rawObjectAsStored(held, out.text)!), rawObjectText((await store.rawObjects([held])).item(0)));
  // Bytes that are not served as they are (another prefix, the placeholder twice): rawObjects decodes them.
  const others: KeyValue[] = [
    { ...stored, value: stored.value.replace('{"apiVersion":', '{ "apiVersion":') },
    { ...stored, value: stored.value.replace('"spec":{', '"spec":{"note":{"resourceVersion":""},') },
  ];
  for (const other of others) {
    assert.equal(store.rawObjectAsStored(other), undefined);
    assert.equal((await store.rawObjects([other])).item(0).at, -1);
  }
});
