// AdmissionReview requests and the checks of responses (request/admissionreview.go), denials as
// webhookerrors.ToStatusErr words them, and the dry-run refusal of webhooks with side effects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionReview, reviewVersionFor, verifyAdmissionResponse } from '../../src/admission/webhook-review.js';
import { callWebhook, toStatusErr } from '../../src/admission/webhook-call.js';
import type { AdmissionAttributes } from '../../src/registry/admission.js';
import type { ServedResource } from '../../src/api/resource.js';
import { defaultServiceResolver } from '../../src/conversion/types.js';

const widgets = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true } as ServedResource;
const attrs: AdmissionAttributes = {
  operation: 'UPDATE',
  resource: widgets,
  subresource: 'status',
  namespace: 'ns',
  name: 'w',
  object: { metadata: { name: 'w' } },
  oldObject: { metadata: { name: 'w', labels: { a: 'b' } } },
  dryRun: true,
  user: { name: 'alice', uid: 'u-1', groups: ['devs'], extra: { scopes: ['x'] } },
};
const inv = { resource: { group: 'example.com', version: 'v2', resource: 'widgets' }, kind: { group: 'example.com', version: 'v2', kind: 'Widget' }, object: attrs.object, oldObject: attrs.oldObject };

test('the first admissionReviewVersion we speak is used', () => {
  assert.equal(reviewVersionFor({ admissionReviewVersions: ['v2', 'v1beta1', 'v1'] }), 'v1beta1');
  assert.equal(reviewVersionFor({ admissionReviewVersions: ['v2'] }), undefined);
});

test('the request carries kube\'s fields: the invocation\'s kind and resource, the request\'s own, user, dryRun, options', () => {
  const { uid, review } = admissionReview('v1', attrs, inv);
  assert.deepEqual(review, {
    kind: 'AdmissionReview',
    apiVersion: 'admission.k8s.io/v1',
    request: {
      uid,
      kind: { group: 'example.com', version: 'v2', kind: 'Widget' },
      resource: { group: 'example.com', version: 'v2', resource: 'widgets' },
      subResource: 'status',
      requestKind: { group: 'example.com', version: 'v1', kind: 'Widget' },
      requestResource: { group: 'example.com', version: 'v1', resource: 'widgets' },
      requestSubResource: 'status',
      name: 'w',
      namespace: 'ns',
      operation: 'UPDATE',
      userInfo: { username: 'alice', uid: 'u-1', groups: ['devs'], extra: { scopes: ['x'] } },
      object: attrs.object,
      oldObject: attrs.oldObject,
      dryRun: true,
      options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] },
    },
  });
});

test('v1 responses must echo the uid, be admission.k8s.io/v1 AdmissionReviews, and pair patch with patchType', () => {
  const ok = (response: object, apiVersion = 'admission.k8s.io/v1') => ({ apiVersion, kind: 'AdmissionReview', response });
  const patch = Buffer.from('[{"op":"add","path":"/a","value":1}]').toString('base64');
  assert.deepEqual(verifyAdmissionResponse('v1', 'u', false, ok({ uid: 'x', allowed: true })), { error: 'expected response.uid="u", got "x"' });
  assert.deepEqual(verifyAdmissionResponse('v1', 'u', false, ok({ uid: 'u', allowed: true }, 'admission.k8s.io/v1beta1')), {
    error: 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview',
  });
  assert.deepEqual(verifyAdmissionResponse('v1', 'u', false, { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }), { error: 'webhook response was absent' });
  assert.deepEqual(verifyAdmissionResponse('v1', 'u', true, ok({ uid: 'u', allowed: true, patch })), { error: 'webhook returned response.patch but not response.patchType' });
  assert.deepEqual(verifyAdmissionResponse('v1', 'u', true, ok({ uid: 'u', allowed: true, patchType: 'JSONPatch' })), { error: 'webhook returned response.patchType but not response.patch' });
  assert.deepEqual(verifyAdmissionResponse('v1', 'u', false, ok({ uid: 'u', allowed: true, patch, patchType: 'JSONPatch' })), { error: 'validating webhook may not return response.patch' });
  const good = verifyAdmissionResponse('v1', 'u', true, ok({ uid: 'u', allowed: true, patch, patchType: 'JSONPatch', warnings: ['w'], auditAnnotations: { k: 'v' } }));
  assert.deepEqual(good, { allowed: true, patch: [{ op: 'add', path: '/a', value: 1 }], warnings: ['w'], auditAnnotations: { k: 'v' } });
  // v1beta1: neither the uid nor the patch type is checked.
  const beta = verifyAdmissionResponse('v1beta1', 'u', true, ok({ allowed: true, patch }, 'admission.k8s.io/v1beta1'));
  assert.deepEqual(beta, { allowed: true, patch: [{ op: 'add', path: '/a', value: 1 }], warnings: [], auditAnnotations: {} });
});

test('denials: the webhook\'s status with its message prefixed, at least a 400 Failure', () => {
  const s = toStatusErr('deny.example.com', { code: 403, reason: 'Forbidden', message: 'no' }).status;
  assert.deepEqual(s, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'admission webhook "deny.example.com" denied the request: no', reason: 'Forbidden', code: 403 });
  const bare = toStatusErr('deny.example.com', undefined).status;
  assert.equal(bare.message, 'admission webhook "deny.example.com" denied the request without explanation');
  assert.equal(bare.code, 400);
  assert.equal(bare.reason, undefined);
  assert.equal(toStatusErr('d.example.com', { code: 200, status: 'Success', reason: 'Because' }).status.message, 'admission webhook "d.example.com" denied the request: Because');
});

test('dry run: a webhook with side effects refuses with kube\'s 400, before anything is sent', async () => {
  const hook = { name: 'side.example.com', sideEffects: 'Some', admissionReviewVersions: ['v1'], clientConfig: { url: 'https://127.0.0.1:1/x' } };
  const out = await callWebhook(hook, attrs, inv, false, defaultServiceResolver);
  assert.equal(out.kind, 'refused');
  assert.ok(out.kind === 'refused');
  assert.equal(out.error.status.message, 'admission webhook "side.example.com" does not support dry run');
  assert.equal(out.error.code, 400);
  assert.equal(out.error.reason, 'BadRequest');
  const none = await callWebhook({ ...hook, sideEffects: undefined }, attrs, inv, false, defaultServiceResolver);
  assert.deepEqual(none, { kind: 'callError', code: 400, message: 'failed calling webhook "side.example.com": Webhook SideEffects is nil' });
  const versions = await callWebhook({ ...hook, sideEffects: 'None', admissionReviewVersions: ['v9'] }, attrs, inv, false, defaultServiceResolver);
  assert.deepEqual(versions, {
    kind: 'callError',
    code: 400,
    message: 'failed calling webhook "side.example.com": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
  });
});
