// The CRD controllers together on the runtime, over a real (in-memory) store, with real timers.
import { NO_ADMISSION } from '../../src/registry/admission.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CrdController } from '../../src/crd/controller.js';
import { CrdServing } from '../../src/crd/serving.js';
import { servingHandlers } from '../../src/crd/serving-handler.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import type { JSONObject } from '../../src/util/json.js';
import { crdEnv, conditionOf } from './controller-env.js';
import { cronTab } from './helpers.js';

const NAME = 'crontabs.stable.example.com';

test('CrdController: start waits until stored CRDs are named, established and served', async () => {
  const env = await crdEnv();
  await env.create();
  const serving = new CrdServing(env.kv, NO_ADMISSION);
  const c = new CrdController(env.crds, serving);
  await c.start();
  const crd = await env.get(NAME);
  assert.equal(conditionOf(crd, 'NamesAccepted')?.status, 'True');
  assert.equal(conditionOf(crd, 'Established')?.status, 'True');
  assert.ok(serving.lookup('stable.example.com', 'v1', 'crontabs'));
  c.stop();
  await env.close();
});

test('CrdController: names freed by a deleted CRD go to the one that wanted them', async () => {
  const env = await crdEnv();
  const serving = new CrdServing(env.kv, NO_ADMISSION);
  const c = new CrdController(env.crds, serving);
  await c.start();
  await env.create();
  await c.idle();
  const squatter = cronTab();
  squatter.metadata.name = 'cts.stable.example.com';
  squatter.spec.names = { plural: 'cts', singular: 'crontab', kind: 'Ct', listKind: 'CtList' };
  await env.create(squatter);
  await c.idle();
  assert.equal(conditionOf(await env.get('cts.stable.example.com'), 'NamesAccepted')?.reason, 'SingularConflict');

  await env.crds.delete('', NAME);
  // The finalizer removes the CRD; then the naming controller hands its singular on.
  for (let tries = 0; ; tries++) {
    await c.idle();
    const s = await env.get('cts.stable.example.com');
    if (conditionOf(s, 'NamesAccepted')?.status === 'True') break;
    assert.ok(tries < 500, 'the freed names to be accepted');
    await new Promise((r) => setTimeout(r, 10));
  }
  const s = await env.get('cts.stable.example.com');
  assert.equal(s.status?.acceptedNames?.singular, 'crontab');
  assert.equal(conditionOf(s, 'Established')?.status, 'True');
  assert.equal(serving.lookup('stable.example.com', 'v1', 'crontabs'), undefined);
  c.stop();
  await env.close();
});

test('serving handler: CRDs are served as they come and go', () => {
  const calls: string[] = [];
  const h = servingHandlers({ update: (crd: CustomResourceDefinition) => void calls.push(`update ${crd.metadata.name}`), remove: (name: string) => void calls.push(`remove ${name}`) });
  const crd = cronTab() as unknown as JSONObject;
  h.add!(crd);
  h.update!(crd, crd);
  h.delete!(crd);
  assert.deepEqual(calls, [`update ${NAME}`, `update ${NAME}`, `remove ${NAME}`]);
});
