// Namespaces through @kubernetes/client-node's CoreV1Api: the initial namespaces, the lifecycle of a
// deleted namespace (Terminating, its content removed, then itself), and the NamespaceLifecycle
// admission errors for content in missing and terminating namespaces.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import {
  GROUP,
  PLURAL,
  VERSION,
  crontab,
  crontabCrd,
  eventually,
  expectStatus,
  installCrd,
  patchAs,
  startWithClients,
  type Clients,
  type CronTabList,
} from './helpers.js';

let c: Clients;
const base = { group: GROUP, version: VERSION, plural: PLURAL };

before(async () => {
  c = await startWithClients();
  await installCrd(c, crontabCrd());
});
after(async () => {
  await c?.server.close();
});

const readNs = (name: string): Promise<k8s.V1Namespace> => c.core.readNamespace({ name });
const condition = (ns: k8s.V1Namespace, type: string) => ns.status?.conditions?.find((x) => x.type === type);

test('the four initial namespaces exist and are Active', async () => {
  const list = await c.core.listNamespace();
  const initial = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];
  assert.deepEqual(
    list.items.map((n) => n.metadata!.name).filter((n) => initial.includes(n!)),
    initial,
  );
  for (const ns of list.items.filter((n) => initial.includes(n.metadata!.name!))) {
    assert.equal(ns.status?.phase, 'Active');
    assert.deepEqual(ns.spec?.finalizers, ['kubernetes']);
    assert.deepEqual(ns.metadata!.labels, { 'kubernetes.io/metadata.name': ns.metadata!.name });
  }
  const byField = await c.core.listNamespace({ fieldSelector: 'metadata.name=kube-public' });
  assert.deepEqual(byField.items.map((n) => n.metadata!.name), ['kube-public']);

  // The immortal ones cannot be deleted.
  const st = await expectStatus(c.core.deleteNamespace({ name: 'default' }), 403);
  assert.equal(st.reason, 'Forbidden');
  assert.equal(st.message, 'namespaces "default" is forbidden: this namespace may not be deleted');
});

test('content in a namespace that does not exist is refused with 404', async () => {
  const st = await expectStatus(c.custom.createNamespacedCustomObject({ ...base, namespace: 'nope', body: crontab('x') }), 404);
  assert.deepEqual(st, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'namespaces "nope" not found',
    reason: 'NotFound',
    details: { name: 'nope', kind: 'namespaces' },
    code: 404,
  });
  // Admission comes before validation: an invalid object gets the same answer.
  const invalid = await expectStatus(
    c.custom.createNamespacedCustomObject({ ...base, namespace: 'nope', body: crontab('Not_A_Name') }),
    404,
  );
  assert.equal(invalid.message, 'namespaces "nope" not found');
});

test('a deleted namespace turns Terminating, loses its content, then goes away', async () => {
  const name = 'doomed';
  // client-node sends built-in objects without kind and apiVersion; the server fills them in as kube's typed decoding does.
  const made = await c.core.createNamespace({ body: { metadata: { name, labels: { team: 'x' } } } });
  assert.equal(made.kind, 'Namespace');
  assert.equal(made.apiVersion, 'v1');
  assert.equal(made.status?.phase, 'Active');
  assert.deepEqual(made.spec?.finalizers, ['kubernetes']);
  assert.deepEqual(made.metadata!.labels, { team: 'x', 'kubernetes.io/metadata.name': name });

  const nsBase = { ...base, namespace: name };
  for (const n of ['one', 'two', 'three']) await c.custom.createNamespacedCustomObject({ ...nsBase, body: crontab(n) });
  // One object holds the namespace open until its finalizer goes.
  await c.custom.createNamespacedCustomObject({ ...nsBase, body: crontab('held', undefined, { finalizers: ['example.com/hold'] }) });

  await c.core.deleteNamespace({ name });
  const terminating = await readNs(name);
  assert.equal(terminating.status?.phase, 'Terminating');
  assert.ok(terminating.metadata!.deletionTimestamp instanceof Date);
  assert.equal(terminating.metadata!.deletionGracePeriodSeconds, undefined);
  assert.deepEqual(terminating.spec?.finalizers, ['kubernetes']);

  // Nothing new goes in while it terminates.
  const st = await expectStatus(c.custom.createNamespacedCustomObject({ ...nsBase, body: crontab('late') }), 403);
  assert.deepEqual(st, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `crontabs.stable.example.com "late" is forbidden: unable to create new content in namespace ${name} because it is being terminated`,
    reason: 'Forbidden',
    details: {
      name: 'late',
      group: GROUP,
      kind: PLURAL,
      causes: [{ reason: 'NamespaceTerminating', message: `namespace ${name} is being terminated`, field: 'metadata.namespace' }],
    },
    code: 403,
  });
  // With generateName the error names the prefix, as admission sees the object before a name is made.
  const gen = await expectStatus(
    c.custom.createNamespacedCustomObject({ ...nsBase, body: { ...crontab(''), metadata: { generateName: 'late-' } } }),
    403,
  );
  assert.equal(gen.message, `crontabs.stable.example.com "late-" is forbidden: unable to create new content in namespace ${name} because it is being terminated`);

  // Deleting it again answers with the namespace as it is while the namespace finalizer is there (since
  // Kubernetes 1.17; it used to be a 409 Conflict).
  // (client-node reads the answer as a V1Status, so only its kind survives.)
  const again = await c.core.deleteNamespace({ name });
  assert.equal(again.kind, 'Namespace');
  const still = await readNs(name);
  assert.deepEqual(still.metadata!.deletionTimestamp, terminating.metadata!.deletionTimestamp);
  assert.deepEqual(still.spec?.finalizers, ['kubernetes']);

  // The controller deletes the content; the finalizer keeps one object (and so the namespace).
  const left = await eventually('the content without finalizers to go', async () => {
    const l = (await c.custom.listNamespacedCustomObject({ ...nsBase })) as CronTabList;
    return l.items.length === 1 ? l : undefined;
  });
  assert.equal(left.items[0]!.metadata.name, 'held');
  assert.ok(left.items[0]!.metadata.deletionTimestamp);
  const waiting = await eventually('the namespace conditions', async () => {
    const ns = await readNs(name);
    return condition(ns, 'NamespaceContentRemaining')?.status === 'True' ? ns : undefined;
  });
  assert.equal(waiting.status?.phase, 'Terminating');
  assert.deepEqual(
    waiting.status?.conditions?.map((x) => [x.type, x.status, x.reason, x.message]),
    [
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
      ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain', 'Some resources are remaining: crontabs.stable.example.com has 1 resource instances'],
      [
        'NamespaceFinalizersRemaining',
        'True',
        'SomeFinalizersRemain',
        'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
      ],
    ],
  );

  // Releasing the finalizer lets the object, then the namespace, go.
  await c.custom.patchNamespacedCustomObject(
    { ...nsBase, name: 'held', body: { metadata: { finalizers: null } } },
    patchAs(k8s.PatchStrategy.MergePatch),
  );
  const gone = await eventually('the namespace to be gone', async () => {
    try {
      await readNs(name);
      return undefined;
    } catch (e) {
      return e;
    }
  });
  assert.ok(gone instanceof k8s.ApiException);
  const st404 = await expectStatus(readNs(name), 404);
  assert.equal(st404.message, `namespaces "${name}" not found`);
  const all = (await c.custom.listCustomObjectForAllNamespaces({ ...base })) as CronTabList;
  assert.ok(!all.items.some((i) => i.metadata.namespace === name));

  // The name is free again, and the new namespace starts empty and Active.
  const reborn = await c.core.createNamespace({ body: { metadata: { name } } });
  assert.equal(reborn.status?.phase, 'Active');
  assert.notEqual(reborn.metadata!.uid, made.metadata!.uid);
  const empty = (await c.custom.listNamespacedCustomObject({ ...nsBase })) as CronTabList;
  assert.deepEqual(empty.items, []);
});

test('an empty namespace is removed promptly after delete; a wrong UID precondition is refused', async () => {
  const made = await c.core.createNamespace({ body: { metadata: { name: 'brief' } } });
  // The namespace REST checks a UID precondition itself, in the storage layer's words.
  const wrong = await expectStatus(c.core.deleteNamespace({ name: 'brief', body: { preconditions: { uid: 'wrong' } } }), 409);
  assert.equal(wrong.message, `Operation cannot be fulfilled on namespaces "brief": Precondition failed: UID in precondition: wrong, UID in object meta: ${made.metadata!.uid}`);
  assert.deepEqual(wrong.details, { name: 'brief', kind: 'namespaces' });
  await c.core.deleteNamespace({ name: 'brief', body: { preconditions: { uid: made.metadata!.uid } } });
  await eventually('the namespace to be gone', async () => {
    const l = await c.core.listNamespace({ fieldSelector: 'metadata.name=brief' });
    return l.items.length === 0 ? true : undefined;
  });
});
