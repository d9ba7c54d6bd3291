// An update that keeps the spec of the object it read (a /status write) takes the spec's text from the text it
// replaces (stored-text-reuse.ts): the stored bytes must be the ones serializing the whole object gives, for every
// corpus CRD's status writes and for a custom resource's, and the text must really be taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { mergeSchemaFor } from '../../src/server/merge-schema.js';
import { updateCrdStatus } from '../../src/crd/status-update.js';
import { CrdServing } from '../../src/crd/serving.js';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import type { KVStore } from '../../src/storage/types.js';
import { keptMemberTexts, reuseUnchangedMembers, spliceStoredText, REUSE_MIN_TEXT } from '../../src/registry/stored-text-reuse.js';
import type { JSONObject } from '../../src/util/json.js';
import { objectEnd } from '../../src/util/stored-json.js';
import { prng } from '../prng.js';
import { corpusV1Crds } from '../corpus-crds.js';
import { watchedCrdStore } from './watched-crd-store.js';
import { widgetCRD } from './widget-crd.js';

/**
 * The text with its managedFields entries' times (the clock's: the writes compared run a moment apart) blanked and
 * the entries in one order (they sort by time); every other byte as it is.
 */
function timeless(text: string): string {
  const at = text.indexOf('"managedFields":[');
  if (at < 0) return text;
  const open = at + '"managedFields":'.length;
  const end = objectEnd(text, open);
  const entries = (JSON.parse(text.slice(open, end)) as JSONObject[]).map((e) => JSON.stringify({ ...e, time: 'T' })).sort();
  return `${text.slice(0, open)}[${entries.join(',')}]${text.slice(end)}`;
}

async function withReuse<T>(on: boolean, run: () => Promise<T>): Promise<T> {
  reuseUnchangedMembers(on);
  try {
    return await run();
  } finally {
    reuseUnchangedMembers(true);
  }
}

test('spliceStoredText: the member taken from the previous text, or nothing when the text around it differs', () => {
  const rand = prng(19);
  const value = (depth: number): unknown => {
    const r = rand();
    if (depth > 3 || r < 0.3) return [1, -2.5, 'x"\\\u00e9\ud83d\ude00', true, null, 9007199254740993n][Math.floor(rand() * 6)];
    if (r < 0.5) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
    const o: JSONObject = {};
    for (let i = Math.floor(rand() * 5); i > 0; i--) o[['a', 'b', '1', 'spec', '\u2028', 'z z'][Math.floor(rand() * 6)]!] = value(depth + 1) as JSONObject;
    return o;
  };
  const stringify = (o: unknown): string => JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? JSON.parse(`"${v}"`) : v)).replace(/"(9007199254740993)"/g, '$1');
  let taken = 0;
  for (let i = 0; i < 2000; i++) {
    const kept = value(0);
    const prev: JSONObject = { apiVersion: 'v1', metadata: { name: 'n', managedFields: [{ a: rand() }] }, spec: kept as JSONObject, status: value(1) as JSONObject };
    if (rand() < 0.2) delete prev['status'];
    const next: JSONObject = { ...prev, metadata: { name: 'n', resourceVersion: String(i) }, status: value(1) as JSONObject, ...(rand() < 0.3 ? { extra: value(1) as JSONObject } : {}) };
    const text = stringify(prev);
    const got = spliceStoredText(next, prev, text, 'spec', new Set(['apiVersion']));
    assert.equal(got, stringify(next));
    taken++;
    // Text that is not what the previous object's other members serialize to: nothing is taken.
    assert.equal(spliceStoredText(next, prev, text.replace('"name":"n"', '"name":"m"'), 'spec', new Set()), undefined);
    assert.equal(spliceStoredText(next, { ...prev, status: 'other' }, text, 'spec', new Set()), undefined);
    assert.equal(spliceStoredText({ ...next, spec: undefined }, prev, text, 'spec', new Set()), undefined);
  }
  assert.equal(taken, 2000);
});

test('CRD status writes: the same stored bytes with the spec taken from the text it replaces as serialized again', async () => {
  const crds = corpusV1Crds();
  const large = crds.filter((c) => JSON.stringify(c).length >= REUSE_MIN_TEXT);
  assert.ok(large.length > 50, `${large.length} corpus CRDs of 16 KiB or more`);
  const a = watchedCrdStore();
  const b = watchedCrdStore();
  const takenBefore = keptMemberTexts();
  for (const crd of crds) {
    const name = (crd['metadata'] as JSONObject)['name'] as string;
    // The same starting bytes in both stores (the create's uid and times are the clock's).
    const n = a.seen();
    await a.crds.createStored('', structuredClone(crd), { manager: 'kubectl', givenAway: true });
    const created = await a.next(n);
    const stored = (await a.crds.kv.get(a.crds.key('', name)))!;
    await b.crds.kv.create(stored.key, stored.value);
    const c = created as unknown as CustomResourceDefinition;
    const cachedB = b.crds.decode((await b.crds.kv.get(stored.key))!) as unknown as CustomResourceDefinition;
    // Two writes each, as the naming and establishing controllers make them.
    for (const [i, established] of [false, true].entries()) {
      const status = {
        acceptedNames: { plural: c.spec.names.plural, kind: c.spec.names.kind },
        conditions: [{ type: 'NamesAccepted', status: 'True' as const, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'NoConflicts', message: 'no conflicts found' }, ...(established ? [{ type: 'Established', status: 'True' as const, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }] : [])],
        storedVersions: [c.spec.versions[0]!.name],
      };
      const cachedA = i === 0 ? c : ((await a.next(n + 1)) as unknown as CustomResourceDefinition);
      assert.equal(await updateCrdStatus(a.crds, cachedA, status), true, name);
      const readB = i === 0 ? cachedB : (b.crds.decode((await b.crds.kv.get(stored.key))!) as unknown as CustomResourceDefinition);
      assert.equal(await withReuse(false, () => updateCrdStatus(b.crds, readB, status)), true, name);
      const fast = (await a.crds.kv.get(stored.key))!.value;
      const slow = (await b.crds.kv.get(stored.key))!.value;
      assert.equal(timeless(fast), timeless(slow), `${name}: status write ${i + 1}`);
    }
    // The event object of the write is the decode of its bytes, key order and all.
    const last = await a.next(n + 2);
    const want = a.crds.decode((await a.crds.kv.get(stored.key))!);
    assert.equal(JSON.stringify(last), JSON.stringify(want), name);
  }
  // Each large CRD's two status writes took their spec's text.
  assert.ok(keptMemberTexts() - takenBefore >= 2 * large.length, `${keptMemberTexts() - takenBefore} member texts taken for ${large.length} large CRDs`);
  await a.close();
  await b.close();
});

test('a custom resource /status write takes its large spec from the stored text', async () => {
  const serving = new CrdServing(openSqliteStore(':memory:') as KVStore, NO_ADMISSION, undefined, (s) => mergeSchemaFor(s));
  // Written before any of its objects (which are then served as stored: no schema change since).
  serving.update(
    widgetCRD({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }, '0'),
  );
  const store = serving.lookup('example.com', 'v1', 'widgets')!.store;
  const items = Array.from({ length: 400 }, (_, i) => ({ name: `item-${i}`, value: 'é'.repeat(i % 7), n: i, nested: { z: [i, { b: 1, a: 2 }] } }));
  const create = async (name: string): Promise<void> => {
    await store.createStored('ns', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { zeta: 1, items, alpha: 'a' } }, { manager: 'kubectl', givenAway: true });
  };
  const statusWrite = async (name: string, round: number): Promise<string> => {
    const current = await store.find('ns', name);
    assert.ok(current);
    await store.updateStored('ns', name, () => ({ ...structuredClone(current), status: { round, ready: true } }), 'status', { manager: 'controller', givenAway: true });
    return (await store.kv.get(store.key('ns', name)))!.value;
  };
  await create('fast');
  await create('slow');
  const before = keptMemberTexts();
  for (let round = 0; round < 3; round++) {
    const fast = await statusWrite('fast', round);
    const slow = await withReuse(false, () => statusWrite('slow', round));
    assert.equal(timeless(fast.replace(/"uid":"[^"]*"|"creationTimestamp":"[^"]*"|"name":"(fast|slow)"/g, '')), timeless(slow.replace(/"uid":"[^"]*"|"creationTimestamp":"[^"]*"|"name":"(fast|slow)"/g, '')));
    assert.ok(fast.length > REUSE_MIN_TEXT);
  }
  assert.equal(keptMemberTexts() - before, 3, 'each status write took the spec text');
});
