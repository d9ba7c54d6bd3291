// The ConversionReview checks of webhook_converter.go, message by message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConvertedIdentity, convertedObjects, pickReviewVersion, restoredMetadata } from '../../src/conversion/review.js';

test('the first supported conversionReviewVersion is sent', () => {
  assert.equal(pickReviewVersion(['v2', 'v1beta1', 'v1']), 'v1beta1');
  assert.equal(pickReviewVersion(['v1', 'v1beta1']), 'v1');
  assert.equal(pickReviewVersion(['v2']), undefined);
});

test('response checks: kind, uid, result', () => {
  const ok = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: 'u', result: { status: 'Success' }, convertedObjects: [{ a: 1 }] } };
  assert.deepEqual(convertedObjects('v1', 'u', ok), [{ a: 1 }]);
  assert.equal(
    (convertedObjects('v1', 'u', { ...ok, apiVersion: 'apiextensions.k8s.io/v1beta1' }) as Error).message,
    'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview',
  );
  assert.equal((convertedObjects('v1', 'u', { ...ok, response: undefined }) as Error).message, 'no response provided');
  assert.equal((convertedObjects('v1', 'x', ok) as Error).message, 'expected response.uid="x", got "u"');
  // v1beta1 answers are not checked for their uid.
  assert.deepEqual(convertedObjects('v1beta1', 'x', { ...ok, apiVersion: 'apiextensions.k8s.io/v1beta1' }), [{ a: 1 }]);
  const failed = { ...ok, response: { uid: 'u', result: { status: 'Failed' } } };
  assert.equal((convertedObjects('v1', 'u', failed) as Error).message, "response.result.status was 'Failed', not 'Success'");
  const msg = { ...ok, response: { uid: 'u', result: { status: 'Failed', message: 'nope' } } };
  assert.equal((convertedObjects('v1', 'u', msg) as Error).message, 'nope');
});

test('identity: kind, name, namespace and uid must not change', () => {
  const o = { kind: 'CronTab', metadata: { name: 'a', namespace: 'n', uid: '1' } };
  assert.equal(checkConvertedIdentity(o, { ...o }), undefined);
  assert.equal(checkConvertedIdentity(o, { ...o, kind: 'X' }), 'must have the same kind: CronTab != X');
  assert.equal(checkConvertedIdentity(o, { ...o, metadata: { ...o.metadata, namespace: 'm' } }), 'must have the same namespace: n != m');
  assert.equal(checkConvertedIdentity(o, { ...o, metadata: { ...o.metadata, uid: '2' } }), 'must have the same UID: 1 != 2');
});

test('metadata: the original comes back with the webhook\'s labels and annotations', () => {
  const original = { metadata: { name: 'a', labels: { x: '1' }, annotations: { keep: 'me' }, generation: 3 } };
  assert.deepEqual(restoredMetadata(original, { metadata: { name: 'a', labels: { y: '2' }, generation: 9, finalizers: ['f'] } }), {
    name: 'a',
    labels: { y: '2' },
    generation: 3,
  });
  assert.equal(restoredMetadata(original, {}), 'missing metadata in converted object');
  assert.equal(restoredMetadata(original, { metadata: 'x' }), 'invalid metadata of type string in converted object');
  assert.equal(restoredMetadata(original, { metadata: { labels: { a: 1 } } }), 'metadata.labels[a] must be a string, but is float64 in converted object');
  assert.match(restoredMetadata(original, { metadata: { labels: { 'bad key!': 'v' } } }) as string, /^metadata\.labels: Invalid value: "bad key!"/);
});
