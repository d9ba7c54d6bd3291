// apiextensions-apiserver's defaultDeprecationWarning: the replacement named is the highest-priority served,
// non-deprecated version of higher priority than the deprecated one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultDeprecationWarning } from '../../src/crd/deprecation-warning.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';

const spec = (versions: Array<[string, boolean, boolean]>): CustomResourceDefinition['spec'] =>
  ({
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', kind: 'CronTab' },
    versions: versions.map(([name, served, deprecated]) => ({ name, served, storage: name === 'v1', deprecated })),
  }) as CustomResourceDefinition['spec'];

test('the replacement is the highest-priority served, non-deprecated newer version', () => {
  const s = spec([['v1alpha1', true, true], ['v1beta1', true, false], ['v1', true, false], ['v2', false, false], ['v3', true, true]]);
  assert.equal(defaultDeprecationWarning('v1alpha1', s), 'example.com/v1alpha1 CronTab is deprecated; use example.com/v1 CronTab');
  assert.equal(defaultDeprecationWarning('v3', s), 'example.com/v3 CronTab is deprecated');
});

test('only versions of higher priority count, in Kubernetes version order', () => {
  const s = spec([['foo1', true, false], ['v1', true, true], ['v10beta1', true, false], ['v2alpha1', true, false]]);
  // v10beta1 and v2alpha1 are of lower priority than v1; foo1 lower still.
  assert.equal(defaultDeprecationWarning('v1', s), 'example.com/v1 CronTab is deprecated');
  const t = spec([['foo1', true, true], ['foo10', true, false], ['v1alpha1', true, false], ['v1beta2', true, false], ['v1beta10', true, false]]);
  assert.equal(defaultDeprecationWarning('foo1', t), 'example.com/foo1 CronTab is deprecated; use example.com/v1beta10 CronTab');
});
