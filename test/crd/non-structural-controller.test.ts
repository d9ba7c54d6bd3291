// The NonStructuralSchema condition controller, alone and as CrdController starts it (after the pass that
// readiness waits for).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_ADMISSION } from '../../src/registry/admission.js';
import { CrdController } from '../../src/crd/controller.js';
import { CrdServing } from '../../src/crd/serving.js';
import { NamingController } from '../../src/crd/naming-controller.js';
import { NonStructuralSchemaController } from '../../src/crd/non-structural-controller.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import type { JSONObject } from '../../src/util/json.js';
import { crdEnv, conditionOf } from './controller-env.js';

/** v1beta1 defaults preserveUnknownFields to true, which a structural schema forbids. */
const OLD = {
  apiVersion: 'apiextensions.k8s.io/v1beta1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'olds.example.com' },
  spec: { group: 'example.com', version: 'v1', scope: 'Namespaced', names: { plural: 'olds', kind: 'Old' } },
};

test('NonStructuralSchema: set for a non-structural schema (through v1beta1), left alone when unchanged, dropped once fixed', async () => {
  const env = await crdEnv();
  const naming = new NamingController(env.crds, env.informer, env.opts);
  const nonStructural = new NonStructuralSchemaController(env.crds, env.informer, env.opts);
  await env.v1beta1.create('', OLD);
  await env.informer.start();
  await naming.sync('olds.example.com');
  await env.settle();
  assert.equal(conditionOf(await env.get('olds.example.com'), 'NonStructuralSchema'), undefined, 'the naming controller no longer sets it');
  await nonStructural.sync('olds.example.com');
  let crd = await env.get('olds.example.com');
  const cond = conditionOf(crd, 'NonStructuralSchema');
  assert.equal(cond?.status, 'True');
  assert.equal(cond?.reason, 'Violations');
  assert.match(cond?.message ?? '', /spec\.preserveUnknownFields: Invalid value: true: must be false/);
  assert.equal(conditionOf(crd, 'NamesAccepted')?.status, 'True');

  // Nothing to change: no write.
  await env.settle();
  const rv = crd.metadata.resourceVersion;
  await nonStructural.sync('olds.example.com');
  assert.equal((await env.get('olds.example.com')).metadata.resourceVersion, rv);

  await env.crds.update(
    '',
    'olds.example.com',
    (cur) => {
      const spec = cur!['spec'] as JSONObject;
      spec['preserveUnknownFields'] = false;
      (spec['versions'] as JSONObject[])[0]!['schema'] = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
      return cur!;
    },
    '',
  );
  await env.settle();
  await nonStructural.sync('olds.example.com');
  crd = await env.get('olds.example.com');
  assert.equal(conditionOf(crd, 'NonStructuralSchema'), undefined);
  assert.equal(conditionOf(crd, 'NamesAccepted')?.status, 'True');
  assert.deepEqual(env.errors, []);
  await env.close();
});

test('CrdController: start is not held up by NonStructuralSchema checks, which follow it; idle waits for them', async () => {
  const env = await crdEnv();
  await env.v1beta1.create('', OLD);
  const serving = new CrdServing(env.kv, NO_ADMISSION);
  const c = new CrdController(env.crds, serving);
  await c.start();
  const cached = (): CustomResourceDefinition => c['informer'].get('olds.example.com') as unknown as CustomResourceDefinition;
  // Named and established (so served) at once; the check not yet made (it waits for a turn of the event loop).
  assert.equal(conditionOf(cached(), 'Established')?.status, 'True');
  assert.equal(conditionOf(cached(), 'NonStructuralSchema'), undefined);
  assert.ok(serving.lookup('example.com', 'v1', 'olds'));
  await c.idle();
  assert.equal(conditionOf(await env.get('olds.example.com'), 'NonStructuralSchema')?.status, 'True');
  c.stop();
  await env.close();
});
