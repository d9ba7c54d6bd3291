// The store's deletion rules as pure functions: the garbage collector's finalizers by delete options
// (generic store and namespace REST), the deletion mark, and when an update completes a deletion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gcFinalizers, markAsDeleting, shouldDeleteDuringUpdate, type DeleteOptions } from '../../src/registry/deletion.js';
import { namespaceGcFinalizers } from '../../src/apis/core/v1/namespace.js';
import type { ObjectMeta } from '../../src/api/meta.js';

const O = 'orphan';
const F = 'foregroundDeletion';
const X = 'example.com/x';

test('generic store: options first, then the finalizers already there, then no policy', () => {
  const cases: Array<[string[], DeleteOptions, string[] | undefined]> = [
    [[], {}, undefined],
    [[X], {}, undefined],
    [[X, O], {}, undefined],
    [[], { propagationPolicy: 'Background' }, undefined],
    [[], { propagationPolicy: 'Orphan' }, [O]],
    [[], { propagationPolicy: 'Foreground' }, [F]],
    [[X], { propagationPolicy: 'Orphan' }, [X, O]],
    [[O, X], { propagationPolicy: 'Foreground' }, [X, F]],
    [[F, X], { propagationPolicy: 'Background' }, [X]],
    [[], { orphanDependents: true }, [O]],
    [[F], { orphanDependents: true }, [O]],
    // orphanDependents=false turns both off in the generic store.
    [[F, X], { orphanDependents: false }, [X]],
    [[O], { orphanDependents: false }, []],
    [[], { orphanDependents: false }, undefined],
    // Same set in another order: unchanged.
    [[O, X], { propagationPolicy: 'Orphan' }, undefined],
  ];
  for (const [fins, opts, want] of cases) assert.deepEqual(gcFinalizers(fins, opts), want, `${JSON.stringify(fins)} ${JSON.stringify(opts)}`);
});

test('namespace REST: orphanDependents=false means foreground', () => {
  assert.deepEqual(namespaceGcFinalizers([], { orphanDependents: false }), [F]);
  assert.deepEqual(namespaceGcFinalizers([], { orphanDependents: true }), [O]);
  assert.deepEqual(namespaceGcFinalizers([O], { propagationPolicy: 'Foreground' }), [F]);
  assert.deepEqual(namespaceGcFinalizers([X, F], { propagationPolicy: 'Background' }), [X]);
  assert.equal(namespaceGcFinalizers([O], {}), undefined);
  assert.equal(namespaceGcFinalizers([], { propagationPolicy: 'Background' }), undefined);
});

test('markAsDeleting: the first mark sets the timestamp and bumps a set generation; the grace period is 0', () => {
  const now = new Date('2030-01-02T03:04:05.678Z');
  const m: ObjectMeta = { generation: 4 };
  markAsDeleting(m, now);
  assert.deepEqual(m, { generation: 5, deletionTimestamp: '2030-01-02T03:04:05Z', deletionGracePeriodSeconds: 0 });
  markAsDeleting(m, new Date('2030-01-02T03:05:00Z'));
  assert.deepEqual(m, { generation: 5, deletionTimestamp: '2030-01-02T03:04:05Z', deletionGracePeriodSeconds: 0 });
  // A timestamp in the future (a graceful deletion's) moves to now; a missing generation stays missing.
  const g: ObjectMeta = { deletionTimestamp: '2030-01-02T04:00:00Z', deletionGracePeriodSeconds: 30 };
  markAsDeleting(g, now);
  assert.deepEqual(g, { deletionTimestamp: '2030-01-02T03:04:05Z', deletionGracePeriodSeconds: 0 });
});

test('an update deletes an object being deleted once it leaves no finalizers and no grace period', () => {
  const deleting: ObjectMeta = { deletionTimestamp: '2030-01-01T00:00:00Z', deletionGracePeriodSeconds: 0, finalizers: [X] };
  assert.equal(shouldDeleteDuringUpdate({}, deleting), true);
  assert.equal(shouldDeleteDuringUpdate({ finalizers: [X] }, deleting), false);
  assert.equal(shouldDeleteDuringUpdate({}, { finalizers: [X] }), false);
  assert.equal(shouldDeleteDuringUpdate({}, { deletionTimestamp: '2030-01-01T00:00:00Z' }), true);
  assert.equal(shouldDeleteDuringUpdate({}, { deletionTimestamp: '2030-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 }), false);
});
