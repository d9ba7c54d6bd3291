// CrdServing's routing (lookup, isTerminating), worked out once per CRD object: the same answers as reading the
// CRD's versions and conditions on every request, as the CRD changes through update().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CrdServing } from '../../src/crd/serving.js';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import type { KVStore } from '../../src/storage/types.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { prng } from '../prng.js';

const base = parse(readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8')) as CustomResourceDefinition;
const isTrue = (crd: CustomResourceDefinition, type: string): boolean => (crd.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** What lookup answered before: the first version of that name, served, with names accepted or established. */
function expectedServed(crd: CustomResourceDefinition, version: string): boolean {
  const v = crd.spec.versions.find((x) => x.name === version);
  return !!v?.served && (isTrue(crd, 'NamesAccepted') || isTrue(crd, 'Established'));
}

test('lookup and isTerminating follow the CRD through its changes, as per-request reads of it would', () => {
  const rand = prng(5);
  const serving = new CrdServing({} as KVStore, NO_ADMISSION);
  const names = ['v1', 'v2', 'v1beta1'];
  for (let round = 0; round < 400; round++) {
    const crd = structuredClone(base);
    const n = 1 + Math.floor(rand() * 3);
    crd.spec.versions = Array.from({ length: n }, (_, i) => ({ ...structuredClone(base.spec.versions[0]!), name: names[i]!, served: rand() < 0.7, storage: i === 0 }));
    // Now and then a second entry of a name (invalid, but what is stored is what is routed by).
    if (rand() < 0.2) crd.spec.versions.push({ ...structuredClone(crd.spec.versions[0]!), served: !crd.spec.versions[0]!.served, storage: false });
    type Condition = NonNullable<NonNullable<CustomResourceDefinition['status']>['conditions']>[number];
    const condition = (type: string) => ({ type, status: rand() < 0.5 ? 'True' : 'False' }) as Condition;
    crd.status = { acceptedNames: { ...crd.spec.names }, conditions: ['NamesAccepted', 'Established', 'Terminating'].filter(() => rand() < 0.7).map(condition) } as CustomResourceDefinition['status'];
    // Half the rounds change the same object in place and update again (the routing must not be remembered then).
    if (round % 2 === 1) {
      serving.update(crd);
      for (const version of names) serving.lookup('stable.example.com', version, 'crontabs');
      serving.isTerminating({ group: 'stable.example.com', resource: 'crontabs' });
      crd.status!.conditions = crd.status!.conditions!.map((c) => ({ ...c, status: c.status === 'True' ? 'False' : 'True' }));
    }
    serving.update(crd);
    for (const version of [...names, 'v9']) {
      const ep = serving.lookup('stable.example.com', version, 'crontabs');
      assert.equal(ep !== undefined, expectedServed(crd, version), `${version} ${JSON.stringify(crd.spec.versions.map((v) => [v.name, v.served]))} ${JSON.stringify(crd.status)}`);
      if (ep) assert.equal(ep.store.type.served.version, version);
    }
    assert.equal(serving.lookup('other.example.com', 'v1', 'crontabs'), undefined);
    assert.equal(serving.isTerminating({ group: 'stable.example.com', resource: 'crontabs' }), isTrue(crd, 'Terminating'));
  }
  serving.remove(base.metadata.name!);
  assert.equal(serving.lookup('stable.example.com', 'v1', 'crontabs'), undefined);
  assert.equal(serving.isTerminating({ group: 'stable.example.com', resource: 'crontabs' }), false);
});
