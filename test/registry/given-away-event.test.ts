// A write whose object the caller gave away (givenAway: a create's decoded body, a CRD status write's copy) hands
// the object it built for storage to its watch event instead of decoding the stored bytes: the event object must be
// what the decode gives, key order and all, for every corpus CRD; an object that is not plain JSON is decoded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GenericStore } from '../../src/registry/store.js';
import { updateCrdStatus } from '../../src/crd/status-update.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import type { JSONObject } from '../../src/util/json.js';
import { corpusV1Crds } from '../corpus-crds.js';
import { watchedCrdStore } from './watched-crd-store.js';

/** The event object is the decode of the stored bytes: the same JSON text (key order) and the same value. */
async function assertIsDecode(crds: GenericStore, decode: GenericStore['decode'], name: string, obj: JSONObject): Promise<void> {
  const kv = (await crds.kv.get(crds.key('', name)))!;
  const want = decode(kv);
  assert.equal(JSON.stringify(obj), JSON.stringify(want), name);
  assert.deepEqual(obj, want, name);
}

test('created and status-written CRDs: the event object is the built one, and what decoding the bytes gives', async () => {
  const env = watchedCrdStore();
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
  const env = watchedCrdStore();
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
