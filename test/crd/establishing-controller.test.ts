import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EstablishingController } from '../../src/crd/establishing-controller.js';
import { NamingController } from '../../src/crd/naming-controller.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { crdEnv, conditionOf, T0 } from './controller-env.js';
import { cronTab } from './helpers.js';

const NAME = 'crontabs.stable.example.com';

async function setup(crd: CustomResourceDefinition = cronTab()) {
  const env = await crdEnv();
  const naming = new NamingController(env.crds, env.informer, env.opts);
  const establishing = new EstablishingController(env.crds, env.informer, env.opts);
  await env.create(crd);
  await env.informer.start();
  return { env, naming, establishing };
}

test('establishing sync: nothing before the names are accepted, then Established', async () => {
  const { env, naming, establishing } = await setup();
  const created = await env.get(NAME);
  await establishing.sync(NAME);
  assert.equal((await env.get(NAME)).metadata.resourceVersion, created.metadata.resourceVersion);

  await naming.sync(NAME);
  await env.settle();
  env.clock.advance(5000);
  await establishing.sync(NAME);
  const crd = await env.get(NAME);
  assert.deepEqual(conditionOf(crd, 'Established'), {
    type: 'Established',
    status: 'True',
    lastTransitionTime: '2026-01-01T00:00:05Z',
    reason: 'InitialNamesAccepted',
    message: 'the initial names have been accepted',
  });
  assert.equal(conditionOf(crd, 'NamesAccepted')?.lastTransitionTime, T0);
  await env.settle();
  await establishing.sync(NAME);
  assert.equal((await env.get(NAME)).metadata.resourceVersion, crd.metadata.resourceVersion);
  await env.close();
});

test('establishing controller: a CRD is queued once its names are accepted and until it is established', async () => {
  const { env, naming, establishing } = await setup();
  const q = establishing.controller.queue;
  assert.equal(q.len(), 0);
  await naming.sync(NAME);
  await env.settle();
  assert.equal(await q.get(), NAME);
  q.done(NAME);
  await establishing.sync(NAME);
  await env.settle();
  assert.equal(q.len(), 0);
  await env.close();
});

test('establishing sync: an invalid conversion webhook CA bundle keeps the CRD from being established', async () => {
  const crd = cronTab();
  crd.spec.conversion = {
    strategy: 'Webhook',
    webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://webhook.example.com/convert', caBundle: Buffer.from('not a certificate').toString('base64') } },
  };
  const { env, naming, establishing } = await setup(crd);
  await naming.sync(NAME);
  await env.settle();
  await establishing.sync(NAME);
  const got = await env.get(NAME);
  assert.deepEqual(conditionOf(got, 'Established'), {
    type: 'Established',
    status: 'False',
    lastTransitionTime: T0,
    reason: 'InvalidCABundle',
    message: 'The conversion webhook CABundle is invalid',
  });
  // Said once: the next sync has nothing new to write.
  await env.settle();
  await establishing.sync(NAME);
  assert.equal((await env.get(NAME)).metadata.resourceVersion, got.metadata.resourceVersion);
  await env.close();
});

test('establishing sync: a CRD deleted before it was established is not established', async () => {
  const { env, naming, establishing } = await setup();
  await naming.sync(NAME);
  await env.crds.delete('', NAME);
  await env.settle();
  const before = await env.get(NAME);
  assert.ok(before.metadata.deletionTimestamp);
  await establishing.sync(NAME);
  assert.equal(conditionOf(await env.get(NAME), 'Established')?.reason, 'Installing');
  await env.close();
});
