import { test } from 'node:test';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import assert from 'node:assert/strict';
import * as S from '../../src/api/status.js';
import { RequeueAfter } from '../../src/controllers/controller.js';
import { EstablishingController } from '../../src/crd/establishing-controller.js';
import { FinalizerController, type FinalizerTiming } from '../../src/crd/finalizer-controller.js';
import { NamingController } from '../../src/crd/naming-controller.js';
import { CrdServing } from '../../src/crd/serving.js';
import { servingHandlers } from '../../src/crd/serving-handler.js';
import { CRD_CLEANUP_FINALIZER } from '../../src/crd/types.js';
import type { JSONObject } from '../../src/util/json.js';
import { crdEnv, conditionOf } from './controller-env.js';
import { cronTab } from './helpers.js';

const NAME = 'crontabs.stable.example.com';
const KEEP = 'example.com/keep';

const instance = (namespace: string, name: string, finalizers?: string[]): JSONObject => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { namespace, name, ...(finalizers ? { finalizers } : {}) },
  spec: { cronSpec: '* * * * *' },
});

/** A CRD kept after its cleanup by a finalizer of its own, so that the outcome can be read. */
async function setup(opts: { establish: boolean; timing?: Partial<FinalizerTiming> }) {
  const env = await crdEnv();
  const serving = new CrdServing(env.kv, NO_ADMISSION);
  env.informer.addEventHandler(servingHandlers(serving));
  const naming = new NamingController(env.crds, env.informer, env.opts);
  const establishing = new EstablishingController(env.crds, env.informer, env.opts);
  const finalizer = new FinalizerController(env.crds, env.informer, serving, opts.timing, env.opts);
  const crd = cronTab();
  crd.metadata.finalizers = [KEEP];
  await env.create(crd);
  await env.informer.start();
  if (opts.establish) {
    await naming.sync(NAME);
    await env.settle();
    await establishing.sync(NAME);
    await env.settle();
  }
  return { env, serving, finalizer, store: serving.storageStoreFor(NAME)! };
}

test('finalizer sync: deletes every instance, records the outcome and drops the cleanup finalizer', async () => {
  const { env, finalizer, store } = await setup({ establish: true });
  await store.create('a', instance('a', 'one'));
  await store.create('b', instance('b', 'two'));
  await env.crds.delete('', NAME);
  await env.settle();
  assert.deepEqual((await env.get(NAME)).metadata.finalizers, [KEEP, CRD_CLEANUP_FINALIZER]);
  await finalizer.sync(NAME);
  assert.equal((await store.list({ namespace: '' })).items.length, 0);
  const crd = await env.get(NAME);
  assert.deepEqual(crd.metadata.finalizers, [KEEP]);
  assert.deepEqual({ ...conditionOf(crd, 'Terminating'), lastTransitionTime: undefined }, {
    type: 'Terminating',
    status: 'False',
    reason: 'InstanceDeletionCompleted',
    message: 'removed all instances',
    lastTransitionTime: undefined,
  });
  await env.close();
});

test('finalizer sync: the cleanup finalizer going removes the CRD', async () => {
  const { env, finalizer } = await setup({ establish: true });
  await env.crds.update('', NAME, (cur) => ({ ...cur!, metadata: { ...(cur!['metadata'] as JSONObject), finalizers: [] } }), '');
  await env.crds.delete('', NAME);
  await env.settle();
  await finalizer.sync(NAME);
  await assert.rejects(env.get(NAME), (e) => e instanceof S.StatusError && e.code === 404);
  await env.close();
});

test('finalizer sync: a CRD never established has no instances to delete', async () => {
  const { env, finalizer } = await setup({ establish: false });
  await env.crds.delete('', NAME);
  await env.settle();
  await finalizer.sync(NAME);
  const crd = await env.get(NAME);
  assert.deepEqual(crd.metadata.finalizers, [KEEP]);
  assert.equal(conditionOf(crd, 'Terminating')?.reason, 'NeverEstablished');
  await env.close();
});

test('finalizer sync: a wait that times out is recorded and the CRD comes back after retryMs', async () => {
  const { env, finalizer, store } = await setup({ establish: true, timing: { waitMs: 0, retryMs: 42 } });
  await store.create('a', instance('a', 'held', [KEEP]));
  await env.crds.delete('', NAME);
  await env.settle();
  await assert.rejects(finalizer.sync(NAME), (e) => e instanceof RequeueAfter && e.delayMs === 42);
  const crd = await env.get(NAME);
  assert.deepEqual(crd.metadata.finalizers, [KEEP, CRD_CLEANUP_FINALIZER]);
  assert.deepEqual({ ...conditionOf(crd, 'Terminating'), lastTransitionTime: undefined }, {
    type: 'Terminating',
    status: 'True',
    reason: 'InstanceDeletionCheck',
    message: 'could not confirm zero CustomResources remaining: context deadline exceeded',
    lastTransitionTime: undefined,
  });
  // The instance is marked for deletion, kept by its finalizer.
  const held = await store.get('a', 'held');
  assert.ok((held['metadata'] as JSONObject)['deletionTimestamp']);
  await env.close();
});

test('finalizer sync: nothing to do for a CRD not being deleted', async () => {
  const { env, finalizer } = await setup({ establish: true });
  const before = await env.get(NAME);
  await finalizer.sync(NAME);
  assert.equal((await env.get(NAME)).metadata.resourceVersion, before.metadata.resourceVersion);
  assert.equal(finalizer.controller.queue.len(), 0);
  await env.close();
});

test('finalizer controller: a terminating CRD is queued', async () => {
  const { env, finalizer } = await setup({ establish: true });
  await env.crds.delete('', NAME);
  await env.settle();
  assert.equal(await finalizer.controller.queue.get(), NAME);
  await env.close();
});

/** Lets the sync run until it sleeps on the fake clock. */
async function untilSleeping(clock: { pending(): number[] }): Promise<void> {
  for (let i = 0; clock.pending().length === 0; i++) {
    assert.ok(i < 1000, 'the finalizer to wait between polls');
    await new Promise((r) => setImmediate(r));
  }
}

test('finalizer sync: polls until the last instance has gone, then completes', async () => {
  const { env, finalizer, store } = await setup({ establish: true, timing: { pollMs: 250, waitMs: 60_000 } });
  await store.create('a', instance('a', 'held', [KEEP]));
  await env.crds.delete('', NAME);
  await env.settle();
  const run = finalizer.sync(NAME);
  await untilSleeping(env.clock);
  assert.deepEqual(env.clock.pending(), [250]);
  await store.update('a', 'held', (cur) => ({ ...cur!, metadata: { ...(cur!['metadata'] as JSONObject), finalizers: [] } }), '');
  env.clock.advance(250);
  await run;
  const crd = await env.get(NAME);
  assert.equal(conditionOf(crd, 'Terminating')?.reason, 'InstanceDeletionCompleted');
  assert.deepEqual(crd.metadata.finalizers, [KEEP]);
  await env.close();
});

test('finalizer sync: stopping ends a wait without recording a timeout', async () => {
  const { env, finalizer, store } = await setup({ establish: true });
  await store.create('a', instance('a', 'held', [KEEP]));
  await env.crds.delete('', NAME);
  await env.settle();
  const abort = new AbortController();
  const run = finalizer.sync(NAME, abort.signal);
  await untilSleeping(env.clock);
  abort.abort();
  await run;
  assert.deepEqual(env.clock.pending(), []);
  assert.equal(conditionOf(await env.get(NAME), 'Terminating')?.reason, 'InstanceDeletionInProgress');
  await env.close();
});
