import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NamingController } from '../../src/crd/naming-controller.js';
import { EstablishingController } from '../../src/crd/establishing-controller.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import type { JSONObject } from '../../src/util/json.js';
import { crdEnv, conditionOf, T0 } from './controller-env.js';
import { cronTab } from './helpers.js';

const NAME = 'crontabs.stable.example.com';

test('naming sync: a new CRD gets its names, NamesAccepted and Established Installing', async () => {
  const env = await crdEnv();
  const naming = new NamingController(env.crds, env.informer, env.opts);
  await env.create();
  await env.informer.start();
  await naming.sync(NAME);
  const crd = await env.get(NAME);
  assert.deepEqual(crd.status?.acceptedNames, { plural: 'crontabs', singular: 'crontab', shortNames: ['ct'], kind: 'CronTab', listKind: 'CronTabList' });
  assert.deepEqual(crd.status?.conditions, [
    { type: 'NamesAccepted', status: 'True', lastTransitionTime: T0, reason: 'NoConflicts', message: 'no conflicts found' },
    { type: 'Established', status: 'False', lastTransitionTime: T0, reason: 'Installing', message: 'the initial names have been accepted' },
  ]);
  // Its names all accepted: another sync writes nothing.
  await env.settle();
  await naming.sync(NAME);
  assert.equal((await env.get(NAME)).metadata.resourceVersion, crd.metadata.resourceVersion);
  await env.close();
});

test('naming sync: a name held by another CRD of the group is refused; the others of the group are looked at again', async () => {
  const env = await crdEnv();
  const naming = new NamingController(env.crds, env.informer, env.opts);
  await env.create();
  const squatter = cronTab();
  squatter.metadata.name = 'cts.stable.example.com';
  squatter.spec.names = { plural: 'cts', singular: 'crontab', kind: 'Ct', listKind: 'CtList' };
  await env.create(squatter);
  const other = cronTab();
  other.metadata.name = 'crontabs.other.example.com';
  other.spec.group = 'other.example.com';
  await env.create(other);
  await env.informer.start();
  await naming.sync(NAME);
  await env.settle();
  await naming.sync('cts.stable.example.com');
  const crd = await env.get('cts.stable.example.com');
  assert.deepEqual(conditionOf(crd, 'NamesAccepted'), {
    type: 'NamesAccepted',
    status: 'False',
    lastTransitionTime: T0,
    reason: 'SingularConflict',
    message: '"crontab" is already in use',
  });
  assert.equal(crd.status?.acceptedNames?.singular, undefined);
  assert.equal(crd.status?.acceptedNames?.plural, 'cts');
  assert.equal(conditionOf(crd, 'Established')?.reason, 'NotAccepted');

  // A CRD gone from the cache frees its names: the rest of its group, not other groups, is queued.
  const q = naming.controller.queue;
  while (q.len() > 0) q.done((await q.get())!);
  await naming.sync('gone.stable.example.com');
  const queued: string[] = [];
  while (q.len() > 0) queued.push((await q.get())!);
  assert.deepEqual(queued.sort(), ['crontabs.stable.example.com', 'cts.stable.example.com']);
  await env.close();
});

test('naming sync: a stale cache writes nothing and is no error (the newer version brings the CRD back)', async () => {
  const env = await crdEnv();
  const naming = new NamingController(env.crds, env.informer, env.opts);
  await env.create();
  await env.informer.start();
  // Changed behind the informer's back: its watch has not delivered it yet when the sync runs.
  env.informer.stop();
  await env.crds.update('', NAME, (cur) => ({ ...cur!, metadata: { ...(cur!['metadata'] as JSONObject), labels: { a: 'b' } } }), '');
  const before = await env.get(NAME);
  await naming.sync(NAME);
  assert.equal((await env.get(NAME)).metadata.resourceVersion, before.metadata.resourceVersion);
  await env.close();
});

test('naming controller: informer events queue the CRD', async () => {
  const env = await crdEnv();
  const naming = new NamingController(env.crds, env.informer, env.opts);
  await env.create();
  await env.informer.start();
  assert.equal(naming.controller.queue.len(), 1);
  assert.equal(await naming.controller.queue.get(), NAME);
  await env.close();
});

test('naming controller with several workers: CRDs of one group are synced in turn (one gets a contested name), other groups at once', async () => {
  const env = await crdEnv();
  const naming = new NamingController(env.crds, env.informer, env.opts);
  await env.create();
  const rival = cronTab();
  rival.metadata.name = 'cts.stable.example.com';
  rival.spec.names = { plural: 'cts', singular: 'crontab', kind: 'Ct', listKind: 'CtList' };
  await env.create(rival);
  const other = cronTab();
  other.metadata.name = 'crontabs.other.example.com';
  other.spec.group = 'other.example.com';
  await env.create(other);
  await env.informer.start();
  naming.controller.run();
  await naming.controller.idle();
  await env.settle();
  await naming.controller.idle();
  const accepted = await Promise.all([NAME, 'cts.stable.example.com'].map(async (n) => conditionOf(await env.get(n), 'NamesAccepted')?.status));
  assert.deepEqual(accepted.sort(), ['False', 'True'], 'the singular "crontab" went to one of them');
  assert.equal(conditionOf(await env.get('crontabs.other.example.com'), 'NamesAccepted')?.status, 'True');
  assert.deepEqual(env.errors, []);
  await naming.controller.stop();
  await env.close();
});

/** The CRD after the naming sync with Established decided in the same write, and after kube's two syncs. */
async function bothWays(crd: CustomResourceDefinition, deleted = false) {
  const run = async (establish: boolean) => {
    const env = await crdEnv();
    const naming = new NamingController(env.crds, env.informer, { ...env.opts, establish });
    const establishing = new EstablishingController(env.crds, env.informer, env.opts);
    await env.create(structuredClone(crd));
    await env.informer.start();
    // A finalizer keeps a deleted CRD around, as the CRD finalizer does.
    if (deleted) {
      await env.crds.update('', NAME, (cur) => ({ ...cur!, metadata: { ...(cur!['metadata'] as JSONObject), finalizers: ['keep'] } }), '');
      await env.crds.delete('', NAME);
      await env.settle();
    }
    const before = Number((await env.get(NAME)).metadata.resourceVersion);
    await naming.sync(NAME);
    await env.settle();
    const writes = Number((await env.get(NAME)).metadata.resourceVersion) - before;
    await establishing.sync(NAME);
    await env.settle();
    const got = await env.get(NAME);
    await env.close();
    return { status: got.status, writes, totalWrites: Number(got.metadata.resourceVersion) - before };
  };
  return { one: await run(true), kube: await run(false) };
}

test('naming sync that also establishes: one write, the same status as the naming and establishing syncs', async () => {
  const { one, kube } = await bothWays(cronTab());
  assert.deepEqual(one.status, kube.status);
  assert.equal(conditionOf({ status: one.status } as CustomResourceDefinition, 'Established')?.reason, 'InitialNamesAccepted');
  assert.equal(one.writes, 1);
  assert.equal(one.totalWrites, 1, 'the establishing sync has nothing left to write');
  assert.equal(kube.totalWrites, 2);
});

test('naming sync that also establishes: an invalid conversion CA bundle and a deleted CRD as the establishing controller has them', async () => {
  const crd = cronTab();
  crd.spec.conversion = {
    strategy: 'Webhook',
    webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://webhook.example.com/convert', caBundle: Buffer.from('not a certificate').toString('base64') } },
  };
  const invalidCA = await bothWays(crd);
  assert.deepEqual(invalidCA.one.status, invalidCA.kube.status);
  assert.equal(conditionOf({ status: invalidCA.one.status } as CustomResourceDefinition, 'Established')?.reason, 'InvalidCABundle');
  const deleted = await bothWays(cronTab(), true);
  assert.deepEqual(deleted.one.status, deleted.kube.status);
  assert.equal(conditionOf({ status: deleted.one.status } as CustomResourceDefinition, 'Established')?.reason, 'Installing');
});
