// The CRD informer's reuse: a CRD's new state keeps the spec object held before when uid and generation say
// the spec did not change (status writes), so that one CRD's schemas are held once, not once per write.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { reuseUnchangedSpec } from '../../src/crd/serving-handler.js';

const crd = (generation: number | undefined, uid = 'u1', conditions: string[] = []) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com', uid, ...(generation !== undefined ? { generation } : {}) },
  spec: { group: 'stable.example.com', versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object' } } }] },
  status: { conditions: conditions.map((type) => ({ type, status: 'True' })) },
});

it('a status write keeps the held spec; the rest is the new state', () => {
  const held = crd(1);
  const next = crd(1, 'u1', ['Established']);
  const got = reuseUnchangedSpec(held, next);
  assert.equal(got['spec'], held.spec);
  assert.equal(got['status'], next.status);
  assert.equal(got['metadata'], next.metadata);
  assert.equal(next.spec !== held.spec, true, 'the new state itself is not changed');
});

it('a new generation, another uid or no generation keep the new spec', () => {
  for (const [held, next] of [
    [crd(1), crd(2)],
    [crd(1, 'u1'), crd(1, 'u2')],
    [crd(undefined), crd(undefined)],
  ] as const) {
    assert.equal(reuseUnchangedSpec(held, next), next);
  }
});
