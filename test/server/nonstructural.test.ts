// A CRD stored with a non-structural schema (as the v1beta1 API allowed) gets the NonStructuralSchema
// condition listing its violations, as kube-apiserver's nonstructuralschema controller sets it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, CRONTAB_CRD } from './helpers.js';

test('NonStructuralSchema condition for a stored non-structural schema', async () => {
  const api = await startApi();
  try {
    const crd = structuredClone(CRONTAB_CRD) as any;
    crd.spec.versions[0].schema.openAPIV3Schema = { properties: { spec: { properties: { cronSpec: { pattern: 'abc' } } } } };
    crd.spec.conversion = { strategy: 'None' };
    crd.metadata.uid = '00000000-0000-0000-0000-000000000001';
    crd.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
    crd.metadata.resourceVersion = '';
    crd.status = { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] };
    // Written straight into storage: the v1 API itself refuses such a schema.
    const res = await api.kv.create('/registry/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com', JSON.stringify(crd));
    assert.ok(res.ok);
    let cond: any;
    for (let i = 0; i < 200 && !cond; i++) {
      const r = await api.req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com');
      cond = r.json.status?.conditions?.find((c: any) => c.type === 'NonStructuralSchema');
      if (!cond) await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(cond, 'condition set');
    assert.equal(cond.status, 'True');
    assert.equal(cond.reason, 'Violations');
    assert.match(cond.message, /spec\.versions\[0\]\.schema\.openAPIV3Schema\.type: Required value: must not be empty at the root/);
    assert.match(cond.message, /spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.type: Required value: must not be empty for specified object fields/);
  } finally {
    await api.close();
  }
});
