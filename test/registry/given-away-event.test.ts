// A write whose object the caller gave away (givenAway: a create's decoded body, a CRD status write's copy) hands
// the object it built for storage to its watch event instead of decoding the stored bytes: the event object must be
// what the decode gives, key order and all, for every corpus CRD; an object that is not plain JSON is decoded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { GenericStore } from '../../src/registry/store.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { crdKind } from '../../src/apis/apiextensions/v1/custom-resource-definition.js';
import { trackManagedFields } from '../../src/server/merge-schema.js';
import { updateCrdStatus } from '../../src/crd/status-update.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import type { JSONObject } from '../../src/util/json.js';
import { corpusV1Crds } from '../corpus-crds.js';

/** A CRD store with a watch that keeps each event's object, and how many objects the store decoded for events. */
function watched() {
  const kv = openSqliteStore(':memory:');
  const crds = new GenericStore(kv, builtinResourceType(crdKind));
  trackManagedFields([crds.type]);
  // As the CRD controllers' store does (CrdController).
  crds.rememberEventObjects();
  const events: JSONObject[] = [];
  const w = crds.watch('', 0, {}, (ev) => events.push(ev.object), (e) => assert.fail(e.message));
  const decode = crds.decode.bind(crds);
  let decoded = 0;
  crds.decode = (...args) => (decoded++, decode(...args));
  /** The event after the first `n` (delivered maybe before the write that made it returned). */
  const next = async (n: number): Promise<JSONObject> => {
    for (let i = 0; events.length <= n; i++) {
      if (i > 10_000) assert.fail('no event');
      await new Promise((r) => setImmediate(r));
    }
    return events[n]!;
  };
  return { crds, next, seen: () => events.length, decoded: () => decoded, decode, close: async () => (w.close(), await kv.close()) };
}

/** The event object is the decode of the stored bytes: the same JSON text (key order) and the same value. */
async function assertIsDecode(crds: GenericStore, decode: GenericStore['decode'], name: string, obj: JSONObject): Promise<void> {
  const kv = (await crds.kv.get(crds.key('', name)))!;
  const want = decode(kv);
  assert.equal(JSON.stringify(obj), JSON.stringify(want), name);
  assert.deepEqual(obj, want, name);
}

test('created and status-written CRDs: the event object is the built one, and what decoding the bytes gives', async () => {
  const env = watched();
  const crds = corpusV1Crds();
  assert.ok(crds.length > 100);
  const names = new Set<string>();
  for (const crd of crds) {
    const name = (crd['metadata'] as JSONObject)['name'] as string;
    // Some CRDs come with more than one project.
    if (names.has(name)) continue;
    names.add(name);
    const before = env.decoded();
    const n = env.seen();
    await env.crds.createStored('', structuredClone(crd), { manager: 'kubectl', givenAway: true });
    const added = await env.next(n);
    assert.equal(env.decoded(), before, `${name}: the create's event was not decoded`);
    await assertIsDecode(env.crds, env.decode, name, added);
    const c = added as unknown as CustomResourceDefinition;
    const status = { acceptedNames: { plural: c.spec.names.plural, kind: c.spec.names.kind }, conditions: [{ type: 'Established', status: 'True' as const, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }], storedVersions: [c.spec.versions[0]!.name] };
    assert.equal(await updateCrdStatus(env.crds, c, status), true);
    const modified = await env.next(n + 1);
    assert.equal(env.decoded(), before, `${name}: the status write read nothing and its event was not decoded`);
    await assertIsDecode(env.crds, env.decode, name, modified);
  }
  await env.close();
});

test('not given away, or not plain JSON: the event object is decoded', async () => {
  const env = watched();
  const [crd] = corpusV1Crds();
  const named = (n: string): JSONObject => {
    const c = structuredClone(crd!);
    const spec = c['spec'] as JSONObject;
    spec['group'] = `${n}.${spec['group'] as string}`;
    c['metadata'] = { name: `${(spec['names'] as JSONObject)['plural'] as string}.${spec['group'] as string}` };
    return c;
  };
  await env.crds.createStored('', named('a'), { manager: 'kubectl' });
  await assertIsDecode(env.crds, env.decode, (named('a')['metadata'] as JSONObject)['name'] as string, await env.next(0));
  assert.equal(env.decoded(), 1, 'not given away');
  const odd = named('b');
  const schema = ((odd['spec'] as JSONObject)['versions'] as JSONObject[])[0]!['schema'] as JSONObject;
  (schema['openAPIV3Schema'] as JSONObject)['description'] = undefined as unknown as string;
  await env.crds.createStored('', odd, { manager: 'kubectl', givenAway: true });
  const ev = await env.next(1);
  assert.equal(env.decoded(), 2, 'an undefined member: not plain');
  assert.equal('description' in ((((ev['spec'] as JSONObject)['versions'] as JSONObject[])[0]!['schema'] as JSONObject)['openAPIV3Schema'] as JSONObject), false);
  await env.close();
});
