// CRDs in protected groups get the KubernetesAPIApprovalPolicyConformant condition from their
// api-approved.kubernetes.io annotation (the API-approval controller), over HTTP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, CRONTAB_CRD, type Api } from './helpers.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(async () => {
  await api?.close();
});

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

async function condition(name: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const crd = (await api.req('GET', `${CRDS}/${name}`)).json;
    const c = crd.status?.conditions?.find((x: any) => x.type === 'KubernetesAPIApprovalPolicyConformant');
    if (c && crd.status.conditions.some((x: any) => x.type === 'Established')) return c;
    await new Promise((r) => setTimeout(r, 10));
  }
  return undefined;
}

test('a protected group: the condition from the annotation, updated when it changes', async () => {
  const crd = structuredClone(CRONTAB_CRD) as any;
  crd.metadata = { name: 'crontabs.stable.k8s.io', annotations: { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/78458' } };
  crd.spec.group = 'stable.k8s.io';
  assert.equal((await api.req('POST', CRDS, crd)).status, 201);
  let c = await condition('crontabs.stable.k8s.io');
  assert.deepEqual(
    { ...c, lastTransitionTime: undefined },
    { type: 'KubernetesAPIApprovalPolicyConformant', status: 'True', lastTransitionTime: undefined, reason: 'ApprovedAnnotation', message: 'approved in https://github.com/kubernetes/kubernetes/pull/78458' },
  );
  const r = await api.req('PATCH', `${CRDS}/crontabs.stable.k8s.io`, { metadata: { annotations: { 'api-approved.kubernetes.io': 'unapproved, testing only' } } }, {
    'Content-Type': 'application/merge-patch+json',
  });
  assert.equal(r.status, 200);
  for (let i = 0; i < 200 && c.reason !== 'UnapprovedAnnotation'; i++) {
    await new Promise((res) => setTimeout(res, 10));
    c = await condition('crontabs.stable.k8s.io');
  }
  assert.equal(c.status, 'False');
  assert.equal(c.reason, 'UnapprovedAnnotation');
  assert.equal(c.message, 'not approved: "unapproved, testing only"');
});

test('other groups get no such condition', async () => {
  const crd = structuredClone(CRONTAB_CRD) as any;
  assert.equal((await api.req('POST', CRDS, crd)).status, 201);
  let conditions: any[] = [];
  for (let i = 0; i < 200 && !conditions.some((x) => x.type === 'Established'); i++) {
    await new Promise((r) => setTimeout(r, 10));
    conditions = (await api.req('GET', `${CRDS}/${crd.metadata.name}`)).json.status?.conditions ?? [];
  }
  assert.deepEqual(conditions.map((x) => x.type).sort(), ['Established', 'NamesAccepted']);
});
