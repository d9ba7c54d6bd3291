// The API-approval controller's sync: the KubernetesAPIApprovalPolicyConformant condition of CRDs in
// protected groups, from the api-approved.kubernetes.io annotation, as apiextensions' apiapproval
// controller computes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APIApprovalController } from '../../src/crd/apiapproval-controller.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import type { JSONObject } from '../../src/util/json.js';
import { crdEnv, conditionOf, T0 } from './controller-env.js';
import { cronTab } from './helpers.js';

const NAME = 'crontabs.stable.k8s.io';
const ANNOTATION = 'api-approved.kubernetes.io';
const MISSING =
  'protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111';
const INVALID =
  'protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111';

function protectedCronTab(annotation?: string, plural = 'crontabs'): CustomResourceDefinition {
  const crd = cronTab();
  crd.metadata = { name: `${plural}.stable.k8s.io`, ...(annotation === undefined ? {} : { annotations: { [ANNOTATION]: annotation } }) };
  crd.spec.group = 'stable.k8s.io';
  crd.spec.names = { ...crd.spec.names, plural, shortNames: [] };
  return crd;
}

async function setup() {
  const env = await crdEnv();
  const approval = new APIApprovalController(env.crds, env.informer, env.opts);
  await env.informer.start();
  const sync = async (name = NAME): Promise<CustomResourceDefinition> => {
    await env.settle();
    await approval.sync(name);
    await env.settle();
    return env.get(name);
  };
  const annotate = async (value: string): Promise<void> => {
    await env.crds.update('', NAME, (cur) => ({ ...cur!, metadata: { ...(cur!['metadata'] as JSONObject), annotations: { [ANNOTATION]: value } } }), '');
  };
  return { env, sync, annotate };
}

test('approved, then unapproved: the condition follows the annotation', async () => {
  const { env, sync, annotate } = await setup();
  await env.create(protectedCronTab('https://github.com/kubernetes/kubernetes/pull/78458'));
  let crd = await sync();
  assert.deepEqual(conditionOf(crd, 'KubernetesAPIApprovalPolicyConformant'), {
    type: 'KubernetesAPIApprovalPolicyConformant',
    status: 'True',
    lastTransitionTime: T0,
    reason: 'ApprovedAnnotation',
    message: 'approved in https://github.com/kubernetes/kubernetes/pull/78458',
  });
  env.clock.advance(3000);
  await annotate('unapproved, experimental');
  crd = await sync();
  assert.deepEqual(conditionOf(crd, 'KubernetesAPIApprovalPolicyConformant'), {
    type: 'KubernetesAPIApprovalPolicyConformant',
    status: 'False',
    lastTransitionTime: '2026-01-01T00:00:03Z',
    reason: 'UnapprovedAnnotation',
    message: 'not approved: "unapproved, experimental"',
  });
  // The same annotation again: no write.
  const rv = crd.metadata.resourceVersion;
  assert.equal((await sync()).metadata.resourceVersion, rv);
  assert.deepEqual(env.errors, []);
  await env.close();
});

test('missing and invalid annotations (possible on CRDs written through v1beta1) are False', async () => {
  const { env, sync } = await setup();
  await env.v1beta1.create('', { ...protectedCronTab(), apiVersion: 'apiextensions.k8s.io/v1beta1' } as unknown as JSONObject);
  let crd = await sync();
  assert.deepEqual(conditionOf(crd, 'KubernetesAPIApprovalPolicyConformant'), {
    type: 'KubernetesAPIApprovalPolicyConformant',
    status: 'False',
    lastTransitionTime: T0,
    reason: 'MissingAnnotation',
    message: MISSING,
  });
  await env.v1beta1.create('', { ...protectedCronTab('/a/path/only', 'widgets'), apiVersion: 'apiextensions.k8s.io/v1beta1' } as unknown as JSONObject);
  // A host-less URL is not an approval.
  crd = await sync('widgets.stable.k8s.io');
  assert.equal(conditionOf(crd, 'KubernetesAPIApprovalPolicyConformant')?.reason, 'InvalidAnnotation');
  assert.equal(conditionOf(crd, 'KubernetesAPIApprovalPolicyConformant')?.message, INVALID);
  await env.close();
});

test('CRDs outside protected groups get no condition and no write', async () => {
  const { env, sync } = await setup();
  const created = await env.create(cronTab());
  const crd = await sync('crontabs.stable.example.com');
  assert.equal(conditionOf(crd, 'KubernetesAPIApprovalPolicyConformant'), undefined);
  assert.equal(crd.metadata.resourceVersion, created.metadata.resourceVersion);
  await env.close();
});
