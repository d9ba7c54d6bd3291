// The status and scale subresources through @kubernetes/client-node's CustomObjectsApi, as an operator
// or an autoscaler uses them: read and write the Scale, write status apart from spec.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import * as k8s from '@kubernetes/client-node';
import { GROUP, PLURAL, VERSION, crontab, expectStatus, installCrd, patchAs, startWithClients, type Clients, type CronTab } from './helpers.js';

let c: Clients;
const base = { group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL };

before(async () => {
  c = await startWithClients();
  const crd = parseYaml(readFileSync(new URL('../fixtures/crontab-subresources-crd.yaml', import.meta.url), 'utf8')) as k8s.V1CustomResourceDefinition;
  await installCrd(c, crd);
  await c.custom.createNamespacedCustomObject({ ...base, body: crontab('sub', { cronSpec: '* * * * */5', image: 'img', replicas: 3 }) });
});
after(async () => {
  await c?.server.close();
});

const getObject = async (): Promise<CronTab> => (await c.custom.getNamespacedCustomObject({ ...base, name: 'sub' })) as CronTab;

test('the Scale: read, replaced and patched; the object follows', async () => {
  const obj = await getObject();
  const scale = (await c.custom.getNamespacedCustomObjectScale({ ...base, name: 'sub' })) as k8s.V1Scale;
  assert.deepEqual(scale, {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: 'sub',
      namespace: 'default',
      uid: obj.metadata.uid,
      resourceVersion: obj.metadata.resourceVersion,
      creationTimestamp: obj.metadata.creationTimestamp,
    },
    spec: { replicas: 3 },
    status: { replicas: 0 },
  });
  const replaced = (await c.custom.replaceNamespacedCustomObjectScale({ ...base, name: 'sub', body: { ...scale, spec: { replicas: 4 } } })) as k8s.V1Scale;
  assert.equal(replaced.spec?.replicas, 4);
  assert.equal((await getObject()).spec?.['replicas'], 4);
  // The replaced Scale's resourceVersion is now stale.
  const conflict = await expectStatus(c.custom.replaceNamespacedCustomObjectScale({ ...base, name: 'sub', body: { ...scale, spec: { replicas: 5 } } }), 409);
  assert.equal(conflict.reason, 'Conflict');
  const patched = (await c.custom.patchNamespacedCustomObjectScale(
    { ...base, name: 'sub', body: { spec: { replicas: 6 } } },
    patchAs(k8s.PatchStrategy.MergePatch),
  )) as k8s.V1Scale;
  assert.equal(patched.spec?.replicas, 6);
  const after = await getObject();
  assert.equal(after.spec?.['replicas'], 6);
  assert.equal(after.metadata.generation, 3);
  // The schema's maximum (10) holds through /scale.
  const invalid = await expectStatus(
    c.custom.patchNamespacedCustomObjectScale({ ...base, name: 'sub', body: [{ op: 'replace', path: '/spec/replicas', value: 20 }] }, patchAs(k8s.PatchStrategy.JsonPatch)),
    422,
  );
  assert.equal(invalid.message, 'CronTab.stable.example.com "sub" is invalid: spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10');
  assert.deepEqual(invalid.details?.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: 20: spec.replicas in body should be less than or equal to 10', field: 'spec.replicas' }]);
});

test('status: written through /status only, without moving the generation', async () => {
  const before = await getObject();
  const patched = (await c.custom.patchNamespacedCustomObjectStatus(
    { ...base, name: 'sub', body: { status: { replicas: 2, labelSelector: 'app=cron' }, spec: { replicas: 1 } } },
    patchAs(k8s.PatchStrategy.MergePatch),
  )) as CronTab;
  assert.deepEqual(patched['status'], { labelSelector: 'app=cron', replicas: 2 });
  assert.equal(patched.spec?.['replicas'], before.spec?.['replicas']);
  assert.equal(patched.metadata.generation, before.metadata.generation);
  const viaStatus = (await c.custom.getNamespacedCustomObjectStatus({ ...base, name: 'sub' })) as CronTab;
  assert.deepEqual(viaStatus, patched);
  // The Scale reads status through its paths.
  const scale = (await c.custom.getNamespacedCustomObjectScale({ ...base, name: 'sub' })) as k8s.V1Scale;
  assert.deepEqual(scale.status, { replicas: 2, selector: 'app=cron' });
  // Replacing status with a stale resourceVersion conflicts; with the current one it writes.
  const stale = await expectStatus(c.custom.replaceNamespacedCustomObjectStatus({ ...base, name: 'sub', body: { ...before, status: { replicas: 9 } } }), 409);
  assert.equal(stale.message, 'Operation cannot be fulfilled on crontabs.stable.example.com "sub": the object has been modified; please apply your changes to the latest version and try again');
  const replaced = (await c.custom.replaceNamespacedCustomObjectStatus({ ...base, name: 'sub', body: { ...viaStatus, status: { replicas: 9 } } })) as CronTab;
  assert.deepEqual(replaced['status'], { replicas: 9 });
  // Through the main resource, status is left as it is.
  const main = (await c.custom.patchNamespacedCustomObject({ ...base, name: 'sub', body: { status: { replicas: 1 } } }, patchAs(k8s.PatchStrategy.MergePatch))) as CronTab;
  assert.deepEqual(main['status'], { replicas: 9 });
  // Status validation: a negative status replicas is refused at its scale path.
  const bad = await expectStatus(
    c.custom.patchNamespacedCustomObjectStatus({ ...base, name: 'sub', body: { status: { replicas: -1 } } }, patchAs(k8s.PatchStrategy.MergePatch)),
    422,
  );
  assert.equal(bad.message, 'CronTab.stable.example.com "sub" is invalid: .status.replicas: Invalid value: -1: should be a non-negative integer');
});
