import { test } from 'node:test';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import assert from 'node:assert/strict';
import * as S from '../../src/api/status.js';
import { RequeueAfter } from '../../src/controllers/controller.js';
import { CONTENT_REMAINING_RETRY_MS, NamespaceController } from '../../src/controllers/namespace.js';
import { CrdServing } from '../../src/crd/serving.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { namespaceKind } from '../../src/apis/core/v1/namespace.js';

const namespaceType = () => builtinResourceType(namespaceKind);
import { GenericStore, metaOf } from '../../src/registry/store.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import type { JSONObject } from '../../src/util/json.js';
import { cronTab } from '../crd/helpers.js';
import { FakeClock } from './fake-clock.js';

const T0 = '2026-01-01T00:00:00Z';

/** Namespaces and one namespaced custom resource as their content. */
async function setup() {
  const kv = openSqliteStore(':memory:');
  const namespaces = new GenericStore(kv, namespaceType());
  const serving = new CrdServing(kv, NO_ADMISSION);
  const crd = cronTab();
  crd.metadata.uid = 'u1';
  serving.update(crd);
  const content = serving.storageStoreFor('crontabs.stable.example.com')!;
  const clock = new FakeClock(Date.parse(T0));
  const errors: unknown[] = [];
  const controller = new NamespaceController(namespaces, () => [content], { clock, onError: (_k, e) => errors.push(e) });
  await namespaces.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  return { kv, namespaces, content, controller, errors };
}

const cron = (name: string, finalizers?: string[]): JSONObject => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name, ...(finalizers ? { finalizers } : {}) },
});

const conditions = (ns: JSONObject) => ((ns['status'] as JSONObject)['conditions'] as JSONObject[]).map((c) => [c['type'], c['status'], c['reason'], c['message']]);

test('namespace sync: a terminating namespace is emptied, then finalized and removed', async () => {
  const { kv, namespaces, content, controller } = await setup();
  await content.create('team', cron('a'));
  await content.create('team', cron('b'));
  await content.create('other', cron('c'));
  await namespaces.delete('', 'team');
  await controller.sync('team');
  assert.deepEqual((await content.list({ namespace: 'team' })).items, []);
  assert.equal((await content.list({ namespace: 'other' })).items.length, 1);
  await assert.rejects(namespaces.get('', 'team'), (e) => e instanceof S.StatusError && e.code === 404);
  await kv.close();
});

test('namespace sync: content held by a finalizer is reported and the namespace comes back shortly', async () => {
  const { kv, namespaces, content, controller } = await setup();
  await content.create('team', cron('held', ['example.com/keep']));
  await content.create('team', cron('free'));
  await namespaces.delete('', 'team');
  await assert.rejects(controller.sync('team'), (e) => e instanceof RequeueAfter && e.delayMs === CONTENT_REMAINING_RETRY_MS);
  const ns = await namespaces.get('', 'team');
  assert.equal((ns['status'] as JSONObject)['phase'], 'Terminating');
  assert.deepEqual(conditions(ns), [
    ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
    ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
    ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
    ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain', 'Some resources are remaining: crontabs.stable.example.com has 1 resource instances'],
    ['NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: example.com/keep in 1 resource instances'],
  ]);
  assert.ok(((ns['status'] as JSONObject)['conditions'] as JSONObject[]).every((c) => c['lastTransitionTime'] === T0));

  // Released: the next pass finishes.
  await content.update('team', 'held', (cur) => ({ ...cur!, metadata: { ...metaOf(cur!), finalizers: [] } }), '');
  await controller.sync('team');
  await assert.rejects(namespaces.get('', 'team'), (e) => e instanceof S.StatusError && e.code === 404);
  await kv.close();
});

test('namespace sync: a namespace not being deleted, or already gone, is left alone', async () => {
  const { kv, namespaces, content, controller } = await setup();
  await content.create('team', cron('a'));
  const before = await namespaces.get('', 'team');
  await controller.sync('team');
  await controller.sync('missing');
  assert.equal(metaOf(await namespaces.get('', 'team')).resourceVersion, metaOf(before).resourceVersion);
  assert.equal((await content.list({ namespace: 'team' })).items.length, 1);
  await kv.close();
});

test('namespace sync: finalized but kept by a metadata finalizer, it is not ours to remove', async () => {
  const { kv, namespaces, controller } = await setup();
  await namespaces.update('', 'team', (cur) => ({ ...cur!, metadata: { ...metaOf(cur!), finalizers: ['example.com/mine'] } }), '');
  await namespaces.delete('', 'team');
  await controller.sync('team');
  const ns = await namespaces.get('', 'team');
  assert.deepEqual(metaOf(ns).finalizers, ['example.com/mine']);
  assert.equal((ns['spec'] as JSONObject)['finalizers'], undefined);
  const rv = metaOf(ns).resourceVersion;
  await controller.sync('team');
  assert.equal(metaOf(await namespaces.get('', 'team')).resourceVersion, rv);
  await kv.close();
});

test('namespace controller: started, it removes namespaces being deleted and leaves the others', async () => {
  const { kv, namespaces, content, controller } = await setup();
  await namespaces.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'live' } });
  await content.create('team', cron('a'));
  await namespaces.delete('', 'team');
  await controller.start();
  for (let tries = 0; ; tries++) {
    await controller.controller.idle();
    const gone = await namespaces.get('', 'team').then(
      () => false,
      (e: unknown) => e instanceof S.StatusError && e.code === 404,
    );
    if (gone) break;
    assert.ok(tries < 500, 'the namespace to be removed');
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.equal((await content.list({ namespace: 'team' })).items.length, 0);
  assert.equal(metaOf(await namespaces.get('', 'live')).name, 'live');
  controller.stop();
  await kv.close();
});
