// Server-side apply through @kubernetes/client-node, as operators use it: a user applies spec with
// one field manager, a controller applies status through /status with its own; neither clobbers the
// other, a second user applying a field the first owns gets a 409 FieldManagerConflict, and force
// takes the field over. Also the generic KubernetesObjectApi's apply.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { API_VERSION, GROUP, PLURAL, VERSION, crontabCrd, expectStatus, installCrd, patchAs, startWithClients, type Clients, type CronTab } from './helpers.js';

const NS = 'ssa';
const base = { group: GROUP, version: VERSION, plural: PLURAL, namespace: NS };
const apply = patchAs(k8s.PatchStrategy.ServerSideApply);

type Obj = CronTab & { status?: { phase?: string; observedGeneration?: number } };
type Entry = k8s.V1ManagedFieldsEntry & { fieldsV1?: Record<string, unknown> };

let c: Clients;
before(async () => {
  c = await startWithClients();
  // The seed CRD with the status subresource and a status schema.
  const crd = crontabCrd();
  const v = crd.spec.versions[0]!;
  v.subresources = { status: {} };
  v.schema!.openAPIV3Schema!.properties!['status'] = {
    type: 'object',
    properties: { phase: { type: 'string' }, observedGeneration: { type: 'integer' } },
  };
  await installCrd(c, crd);
  await c.core.createNamespace({ body: { metadata: { name: NS } } });
});
after(async () => {
  await c?.server.close();
});

/** An apply configuration: only the fields the manager has an opinion about. */
const config = (name: string, rest: Record<string, unknown>): Obj => ({ apiVersion: API_VERSION, kind: 'CronTab', metadata: { name, namespace: NS }, ...rest });

const applySpec = (name: string, spec: Record<string, unknown>, fieldManager: string, force?: boolean): Promise<Obj> =>
  c.custom.patchNamespacedCustomObject({ ...base, name, body: config(name, { spec }), fieldManager, force }, apply) as Promise<Obj>;

const applyStatus = (name: string, status: Record<string, unknown>, fieldManager: string): Promise<Obj> =>
  c.custom.patchNamespacedCustomObjectStatus({ ...base, name, body: config(name, { status }), fieldManager }, apply) as Promise<Obj>;

const entries = (o: Obj): Entry[] => (o.metadata.managedFields ?? []) as Entry[];
const entryOf = (o: Obj, manager: string): Entry | undefined => entries(o).find((e) => e.manager === manager);
/** The spec fields an entry owns, as `f:` keys. */
const specFields = (e: Entry | undefined): string[] => Object.keys((e?.fieldsV1?.['f:spec'] as Record<string, unknown> | undefined) ?? {}).sort();

test('a user applies spec, a controller applies status through /status: neither clobbers the other', async () => {
  // The user's apply creates the object.
  const created = await applySpec('ct', { cronSpec: '* * * * */5', image: 'img:1' }, 'user');
  assert.deepEqual(created.spec, { cronSpec: '* * * * */5', image: 'img:1' });
  assert.equal(created.metadata.generation, 1);
  const user0 = entryOf(created, 'user');
  assert.ok(user0, JSON.stringify(created.metadata.managedFields));
  assert.equal(user0.operation, 'Apply');
  assert.equal(user0.apiVersion, API_VERSION);
  assert.equal(user0.fieldsType, 'FieldsV1');
  assert.equal(user0.subresource, undefined);
  assert.deepEqual(specFields(user0), ['f:cronSpec', 'f:image']);
  assert.equal(entries(created).length, 1);

  // The controller applies status through /status with its own manager: spec is untouched.
  const withStatus = await applyStatus('ct', { phase: 'Ready', observedGeneration: 1 }, 'ctrl');
  assert.deepEqual(withStatus.spec, created.spec);
  assert.deepEqual(withStatus.status, { phase: 'Ready', observedGeneration: 1 });
  assert.equal(withStatus.metadata.generation, 1, 'a status write does not bump the generation');
  const ctrl = entryOf(withStatus, 'ctrl');
  assert.ok(ctrl, JSON.stringify(withStatus.metadata.managedFields));
  assert.equal(ctrl.operation, 'Apply');
  assert.equal(ctrl.subresource, 'status');
  assert.deepEqual(ctrl.fieldsV1, { 'f:status': { 'f:phase': {}, 'f:observedGeneration': {} } });
  assert.deepEqual(entryOf(withStatus, 'user'), user0, "the user's entry is kept as it was");

  // The user re-applies spec (changing the image, not mentioning status): status stays.
  const reapplied = await applySpec('ct', { cronSpec: '* * * * */5', image: 'img:2' }, 'user');
  assert.deepEqual(reapplied.spec, { cronSpec: '* * * * */5', image: 'img:2' });
  assert.deepEqual(reapplied.status, { phase: 'Ready', observedGeneration: 1 });
  assert.equal(reapplied.metadata.generation, 2);
  assert.equal(entryOf(reapplied, 'user')?.operation, 'Apply');
  assert.deepEqual(entryOf(reapplied, 'ctrl'), ctrl, "the controller's entry survives the user's apply");

  // Applying status on the main resource is not the way to write it: the main resource ignores
  // status (reset fields), so the user's apply of status changes nothing there.
  const ignored = (await c.custom.patchNamespacedCustomObject(
    { ...base, name: 'ct', body: config('ct', { spec: { cronSpec: '* * * * */5', image: 'img:2' }, status: { phase: 'Hacked' } }), fieldManager: 'user' },
    apply,
  )) as Obj;
  assert.deepEqual(ignored.status, { phase: 'Ready', observedGeneration: 1 });
  assert.deepEqual(ignored.spec, reapplied.spec);
  assert.equal(ignored.metadata.generation, 2);
  // As kube's: the merge did change the object (status), which the reset then undid, so the user's entry takes
  // the apply's time. Within the second of the last write that is no change and nothing is written; past it,
  // the write changes that time alone.
  const withoutTime = (o: Obj) => entries(o).map(({ time: _time, ...e }) => e);
  assert.deepEqual(withoutTime(ignored), withoutTime(reapplied));
  assert.deepEqual(entryOf(ignored, 'ctrl'), entryOf(reapplied, 'ctrl'));
  if (String(entryOf(ignored, 'user')?.time) === String(entryOf(reapplied, 'user')?.time)) {
    assert.equal(ignored.metadata.resourceVersion, reapplied.metadata.resourceVersion, 'a no-op apply writes nothing');
  }

  // The controller observes the new generation: again only status moves, and the user's fields
  // are still the user's.
  const observed = await applyStatus('ct', { phase: 'Ready', observedGeneration: 2 }, 'ctrl');
  assert.deepEqual(observed.spec, reapplied.spec);
  assert.equal(observed.status?.observedGeneration, 2);
  assert.deepEqual(specFields(entryOf(observed, 'user')), ['f:cronSpec', 'f:image']);
  assert.deepEqual(
    entries(observed).map((e) => [e.manager, e.operation, e.subresource ?? '']).sort(),
    [
      ['ctrl', 'Apply', 'status'],
      ['user', 'Apply', ''],
    ],
  );

  // The controller's status apply dropping a field it owned removes that field (and only it).
  const dropped = await applyStatus('ct', { phase: 'Ready' }, 'ctrl');
  assert.deepEqual(dropped.status, { phase: 'Ready' });
  assert.deepEqual(dropped.spec, reapplied.spec);

  // A read shows the same.
  const read = (await c.custom.getNamespacedCustomObject({ ...base, name: 'ct' })) as Obj;
  assert.deepEqual(read.spec, dropped.spec);
  assert.deepEqual(read.status, dropped.status);
  assert.deepEqual(read.metadata.managedFields, dropped.metadata.managedFields);
});

test('a second manager applying a field the first owns gets a 409 FieldManagerConflict; force takes it over', async () => {
  await applySpec('owned', { cronSpec: '1 * * * *', image: 'mine', replicas: 1 }, 'alice');

  // Same value: no conflict (both become owners of image); a different value: conflict.
  const shared = await applySpec('owned', { image: 'mine' }, 'bob');
  assert.deepEqual(specFields(entryOf(shared, 'bob')), ['f:image']);
  assert.deepEqual(specFields(entryOf(shared, 'alice')), ['f:cronSpec', 'f:image', 'f:replicas']);

  const status = await expectStatus(applySpec('owned', { replicas: 5 }, 'bob'), 409);
  assert.equal(status.reason, 'Conflict');
  assert.ok(status.details?.causes?.length, JSON.stringify(status));
  assert.ok(
    status.details.causes.every((x) => x.reason === 'FieldManagerConflict'),
    JSON.stringify(status.details.causes),
  );
  assert.deepEqual(
    status.details.causes.map((x) => x.field),
    ['.spec.replicas'],
  );
  assert.match(status.details.causes[0]!.message ?? '', /conflict with "alice"/);
  assert.match(status.message, /Apply failed with 1 conflict: conflict with "alice": \.spec\.replicas/);
  const unchanged = (await c.custom.getNamespacedCustomObject({ ...base, name: 'owned' })) as Obj;
  assert.equal(unchanged.spec?.['replicas'], 1, 'the conflicting apply changed nothing');

  // force: bob takes replicas over; alice keeps the rest.
  const forced = await applySpec('owned', { image: 'mine', replicas: 5 }, 'bob', true);
  assert.equal(forced.spec?.['replicas'], 5);
  assert.deepEqual(specFields(entryOf(forced, 'bob')), ['f:image', 'f:replicas']);
  assert.deepEqual(specFields(entryOf(forced, 'alice')), ['f:cronSpec', 'f:image']);

  // Now alice conflicts on replicas, with bob.
  const back = await expectStatus(applySpec('owned', { cronSpec: '1 * * * *', image: 'mine', replicas: 1 }, 'alice'), 409);
  assert.deepEqual(
    back.details?.causes?.map((x) => [x.reason, x.field]),
    [['FieldManagerConflict', '.spec.replicas']],
  );
  assert.match(back.details!.causes![0]!.message ?? '', /conflict with "bob"/);

  // alice giving up replicas (leaving it out of her configuration) is no conflict.
  const released = await applySpec('owned', { cronSpec: '1 * * * *', image: 'mine' }, 'alice');
  assert.equal(released.spec?.['replicas'], 5, "bob's value stays: bob still owns it");
});

test('the controller and the user do not conflict across /status and the main resource', async () => {
  await applySpec('split', { cronSpec: '2 * * * *', image: 'a' }, 'user');
  await applyStatus('split', { phase: 'Pending' }, 'ctrl');
  // Another status manager setting a field ctrl owns conflicts; a spec manager never sees status.
  const status = await expectStatus(applyStatus('split', { phase: 'Failed' }, 'other-ctrl'), 409);
  assert.deepEqual(
    status.details?.causes?.map((x) => [x.reason, x.field]),
    [['FieldManagerConflict', '.status.phase']],
  );
  assert.match(status.message, /conflict with "ctrl" with subresource "status"/);
  const forced = (await c.custom.patchNamespacedCustomObjectStatus(
    { ...base, name: 'split', body: config('split', { status: { phase: 'Failed' } }), fieldManager: 'other-ctrl', force: true },
    apply,
  )) as Obj;
  assert.equal(forced.status?.phase, 'Failed');
  assert.equal(entryOf(forced, 'ctrl'), undefined, 'ctrl owned nothing else, so its entry is gone');
  assert.equal(entryOf(forced, 'other-ctrl')?.subresource, 'status');
  assert.deepEqual(forced.spec, { cronSpec: '2 * * * *', image: 'a' });
});

test('KubernetesObjectApi.patch with PatchStrategy.ServerSideApply', async () => {
  const objects = k8s.KubernetesObjectApi.makeApiClient(c.kc);
  const manifest = config('generic', { spec: { cronSpec: '3 * * * *', image: 'g:1' } });

  // Creates the object when missing, as kubectl apply --server-side does.
  const made = (await objects.patch(manifest, undefined, undefined, 'generic-user', undefined, k8s.PatchStrategy.ServerSideApply)) as Obj;
  assert.equal(made.metadata.name, 'generic');
  assert.equal(made.metadata.namespace, NS);
  assert.deepEqual(made.spec, { cronSpec: '3 * * * *', image: 'g:1' });
  assert.equal(entryOf(made, 'generic-user')?.operation, 'Apply');

  const changed = (await objects.patch(
    config('generic', { spec: { cronSpec: '3 * * * *', image: 'g:2' } }),
    undefined,
    undefined,
    'generic-user',
    undefined,
    k8s.PatchStrategy.ServerSideApply,
  )) as Obj;
  assert.equal(changed.spec?.['image'], 'g:2');
  assert.equal(changed.metadata.generation, 2);

  // A conflict through the generic client, then force.
  const status = await expectStatus(
    objects.patch(config('generic', { spec: { image: 'g:3' } }), undefined, undefined, 'intruder', undefined, k8s.PatchStrategy.ServerSideApply),
    409,
  );
  assert.equal(status.reason, 'Conflict');
  assert.deepEqual(
    status.details?.causes?.map((x) => [x.reason, x.field]),
    [['FieldManagerConflict', '.spec.image']],
  );
  const forced = (await objects.patch(config('generic', { spec: { image: 'g:3' } }), undefined, undefined, 'intruder', true, k8s.PatchStrategy.ServerSideApply)) as Obj;
  assert.equal(forced.spec?.['image'], 'g:3');
  assert.deepEqual(specFields(entryOf(forced, 'intruder')), ['f:image']);
  assert.deepEqual(specFields(entryOf(forced, 'generic-user')), ['f:cronSpec']);

  // An apply without a field manager is refused (kube: PatchOptions invalid, fieldManager required for apply).
  const missing = await expectStatus(objects.patch(manifest, undefined, undefined, undefined, undefined, k8s.PatchStrategy.ServerSideApply), 422);
  assert.match(missing.message, /fieldManager/);
});
