// The generic store calls admission on every write, as kube's store does: create, update, subresource
// updates, delete and each item of a deletecollection, with the operation, objects, options, user and
// dry-run flag; mutating before the strategy, validating after its validation and before storage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GenericStore } from '../../src/registry/store.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { namespaceKind } from '../../src/apis/core/v1/namespace.js';

const namespaceType = () => builtinResourceType(namespaceKind);
import type { Admission, AdmissionAttributes } from '../../src/registry/admission.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import * as S from '../../src/api/status.js';

interface Call {
  phase: 'admit' | 'validate';
  op: string;
  sub: string;
  name: string;
  object?: unknown;
  old?: unknown;
  user?: string;
  dryRun: boolean;
  options?: unknown;
}

function recorder(refuse?: (phase: string, a: AdmissionAttributes) => boolean): { admission: Admission; calls: Call[] } {
  const calls: Call[] = [];
  const record = (phase: 'admit' | 'validate') => async (a: AdmissionAttributes) => {
    calls.push({
      phase,
      op: a.operation,
      sub: a.subresource,
      name: a.name,
      object: a.object && structuredClone(a.object),
      old: a.oldObject && (a.oldObject['metadata'] as Record<string, unknown>)['resourceVersion'],
      user: a.user?.name,
      dryRun: a.dryRun,
      options: a.options,
    });
    if (refuse?.(phase, a)) throw S.forbidden({ group: '', resource: 'namespaces' }, a.name, 'refused');
  };
  return { admission: { admit: record('admit'), validate: record('validate') }, calls };
}

const user = { name: 'jane', groups: [] };

test('create: mutating admission sees the object before the strategy; validating after it, with user and dry run', async () => {
  const kv = openSqliteStore(':memory:');
  const { admission, calls } = recorder();
  const store = new GenericStore(kv, namespaceType(), admission);
  await store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }, { user });
  assert.equal(calls.length, 2);
  assert.deepEqual(calls.map((c) => [c.phase, c.op, c.name, c.user, c.dryRun]), [
    ['admit', 'CREATE', 'a', 'jane', false],
    ['validate', 'CREATE', 'a', 'jane', false],
  ]);
  // Before the strategy: no status, no uid yet; after it: both.
  assert.equal((calls[0]!.object as any).status, undefined);
  assert.equal((calls[0]!.object as any).metadata.uid, undefined);
  assert.deepEqual((calls[1]!.object as any).status, { phase: 'Active' });
  assert.ok((calls[1]!.object as any).metadata.uid);
  await store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } }, { dryRun: true });
  assert.equal(calls[2]!.dryRun, true);
  assert.equal(calls[2]!.user, undefined);
  await kv.close();
});

test('a mutating plugin\'s change is what gets stored; a refusal stores nothing', async () => {
  const kv = openSqliteStore(':memory:');
  const admission: Admission = {
    async admit(a) {
      const meta = a.object?.['metadata'] as { labels?: Record<string, string> } | undefined;
      if (meta) meta.labels = { ...meta.labels, admitted: 'yes' };
    },
    async validate(a) {
      if (a.name === 'refused') throw S.forbidden({ group: '', resource: 'namespaces' }, a.name, 'refused');
    },
  };
  const store = new GenericStore(kv, namespaceType(), admission);
  const out = await store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'm' } });
  assert.equal((out['metadata'] as any).labels.admitted, 'yes');
  await assert.rejects(store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'refused' } }), /refused/);
  await assert.rejects(store.get('', 'refused'), (e: unknown) => e instanceof S.StatusError && e.code === 404);
  await kv.close();
});

test('update and subresource update: UPDATE with the old object, both phases', async () => {
  const kv = openSqliteStore(':memory:');
  const { admission, calls } = recorder();
  const store = new GenericStore(kv, namespaceType(), admission);
  const created = await store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'u' } });
  const rv = (created['metadata'] as any).resourceVersion;
  calls.length = 0;
  await store.update('', 'u', (cur) => ({ ...cur!, metadata: { ...(cur!['metadata'] as object), labels: { x: 'y' } } }), '', { user });
  await store.update('', 'u', (cur) => ({ ...cur!, status: { phase: 'Active' } }), 'status', { user, dryRun: true });
  assert.deepEqual(calls.map((c) => [c.phase, c.op, c.sub, c.name, c.old, c.user, c.dryRun]), [
    ['admit', 'UPDATE', '', 'u', rv, 'jane', false],
    ['validate', 'UPDATE', '', 'u', rv, 'jane', false],
    ['admit', 'UPDATE', 'status', 'u', String(Number(rv) + 1), 'jane', true],
    ['validate', 'UPDATE', 'status', 'u', String(Number(rv) + 1), 'jane', true],
  ]);
  await kv.close();
});

test('delete: mutating admission before the object is read, validating with it; deletecollection admits once and validates each', async () => {
  const kv = openSqliteStore(':memory:');
  const { admission, calls } = recorder((phase, a) => phase === 'admit' && a.name === 'guarded');
  const store = new GenericStore(kv, namespaceType(), admission);
  for (const name of ['d1', 'd2', 'd3']) await store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { set: name === 'd3' ? 'other' : 'one' } } });
  calls.length = 0;
  // Refused before the read: a missing object is not even looked up.
  await assert.rejects(store.delete('', 'guarded', {}, { user }), (e: unknown) => e instanceof S.StatusError && e.code === 403);
  assert.deepEqual(calls.map((c) => [c.phase, c.op, c.name, c.old]), [['admit', 'DELETE', 'guarded', undefined]]);
  calls.length = 0;
  await store.delete('', 'd3', { propagationPolicy: 'Background' }, { user });
  assert.deepEqual(calls.map((c) => [c.phase, c.op, c.name, c.old !== undefined, c.user, c.options]), [
    ['admit', 'DELETE', 'd3', false, 'jane', { propagationPolicy: 'Background' }],
    ['validate', 'DELETE', 'd3', true, 'jane', { propagationPolicy: 'Background' }],
  ]);
  calls.length = 0;
  const listed = await store.deleteCollection('', { labelMatch: (l) => l['set'] === 'one' }, {}, { user });
  assert.deepEqual(listed.items.map((o) => (o['metadata'] as any).name), ['d1', 'd2']);
  assert.deepEqual(calls.map((c) => [c.phase, c.op, c.name]), [
    ['admit', 'DELETE', ''],
    ['validate', 'DELETE', 'd1'],
    ['validate', 'DELETE', 'd2'],
  ]);
  await kv.close();
});
