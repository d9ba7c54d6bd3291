// CRUD on custom resources through @kubernetes/client-node's CustomObjectsApi, against a real server over
// TLS with client certificates: create (generateName, dryRun), get, list (selectors, paging,
// resourceVersion semantics), replace, patch, delete (preconditions), deletecollection, generation.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import {
  API_VERSION,
  GROUP,
  PLURAL,
  VERSION,
  clusterCrontabCrd,
  crontab,
  crontabCrd,
  expectHttpError,
  expectStatus,
  installCrd,
  patchAs,
  startWithClients,
  type Clients,
  type CronTab,
  type CronTabList,
} from './helpers.js';

let c: Clients;
const NS = 'default';
const base = { group: GROUP, version: VERSION, plural: PLURAL };
const nsBase = { ...base, namespace: NS };

before(async () => {
  c = await startWithClients();
  await installCrd(c, crontabCrd());
  await installCrd(c, clusterCrontabCrd());
});
after(async () => {
  await c?.server.close();
});

const create = (body: CronTab, extra: { dryRun?: string; namespace?: string } = {}): Promise<CronTab> =>
  c.custom.createNamespacedCustomObject({ ...nsBase, ...extra, body }) as Promise<CronTab>;
const get = (name: string): Promise<CronTab> => c.custom.getNamespacedCustomObject({ ...nsBase, name }) as Promise<CronTab>;
const list = (q: Partial<k8s.CustomObjectsApiListNamespacedCustomObjectRequest> = {}): Promise<CronTabList> =>
  c.custom.listNamespacedCustomObject({ ...nsBase, ...q }) as Promise<CronTabList>;
const names = (l: CronTabList): string[] => l.items.map((i) => i.metadata.name!);

describe('create and get', () => {
  test('create returns the stored object with server-set metadata; get reads it back', async () => {
    const out = await create(crontab('crud-a', { cronSpec: '* * * * */5', image: 'my-awesome-cron-image' }, { labels: { app: 'a' } }));
    assert.equal(out.apiVersion, API_VERSION);
    assert.equal(out.kind, 'CronTab');
    assert.equal(out.metadata.name, 'crud-a');
    assert.equal(out.metadata.namespace, NS);
    assert.equal(out.metadata.generation, 1);
    assert.match(out.metadata.uid!, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.match(out.metadata.resourceVersion!, /^[1-9]\d*$/);
    // client-node turns RFC 3339 timestamps into Dates only for typed models; custom objects stay raw JSON.
    assert.match(String(out.metadata.creationTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(out.spec, { cronSpec: '* * * * */5', image: 'my-awesome-cron-image' });

    const got = await get('crud-a');
    assert.deepEqual(got, out);

    const dup = await expectStatus(create(crontab('crud-a')), 409);
    assert.equal(dup.reason, 'AlreadyExists');
    assert.equal(dup.message, `${PLURAL}.${GROUP} "crud-a" already exists`);
    assert.deepEqual(dup.details, { name: 'crud-a', group: GROUP, kind: PLURAL });

    const missing = await expectStatus(get('nothing-here'), 404);
    assert.equal(missing.reason, 'NotFound');
    assert.equal(missing.message, `${PLURAL}.${GROUP} "nothing-here" not found`);
    assert.deepEqual(missing.details, { name: 'nothing-here', group: GROUP, kind: PLURAL });
  });

  test('generateName makes a name from the prefix and five random characters', async () => {
    const out = await create({ apiVersion: API_VERSION, kind: 'CronTab', metadata: { generateName: 'gen-' }, spec: { image: 'x' } });
    assert.match(out.metadata.name!, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(out.metadata.generateName, 'gen-');
    assert.equal((await get(out.metadata.name!)).metadata.uid, out.metadata.uid);
  });

  test('dryRun=All validates and answers like a create, and stores nothing', async () => {
    const before = await list();
    const out = await create(crontab('dry-one'), { dryRun: 'All' });
    assert.equal(out.metadata.name, 'dry-one');
    assert.equal(out.metadata.generation, 1);
    assert.ok(out.metadata.uid);
    assert.equal(out.metadata.resourceVersion, undefined);
    await expectStatus(get('dry-one'), 404);
    const afterList = await list();
    assert.deepEqual(names(afterList), names(before));
    assert.equal(afterList.metadata.resourceVersion, before.metadata.resourceVersion, 'a dry run must not advance the revision');

    // Dry runs still see conflicts with stored objects, and invalid dryRun values are refused.
    const dup = await expectStatus(create(crontab('crud-a'), { dryRun: 'All' }), 409);
    assert.equal(dup.reason, 'AlreadyExists');
    const bad = await expectStatus(create(crontab('dry-two'), { dryRun: 'Some' }), 422);
    assert.equal(bad.reason, 'Invalid');
    assert.match(bad.message, /^CreateOptions\.meta\.k8s\.io "" is invalid: dryRun: Unsupported value: .*"Some".*: supported values: "All"$/);
  });

  test('a body whose namespace differs from the URL is refused', async () => {
    const st = await expectStatus(create(crontab('crud-ns', undefined, { namespace: 'kube-system' })), 400);
    assert.equal(st.reason, 'BadRequest');
    assert.equal(st.message, 'the namespace of the provided object does not match the namespace sent on the request');
  });
});

describe('list', () => {
  before(async () => {
    for (let i = 0; i < 25; i++) {
      const n = String(i).padStart(2, '0');
      await create(crontab(`page-${n}`, { image: `i${n}` }, { labels: { set: 'paging', parity: i % 2 ? 'odd' : 'even' } }));
    }
  });

  test('labelSelector and fieldSelector metadata.name filter the list', async () => {
    const odd = await list({ labelSelector: 'set=paging,parity=odd' });
    assert.equal(odd.items.length, 12);
    assert.ok(odd.items.every((i) => i.metadata.labels!['parity'] === 'odd'));
    assert.equal(odd.kind, 'CronTabList');
    assert.equal(odd.apiVersion, API_VERSION);

    await create(crontab('unpaged', { image: 'u' }, { labels: { set: 'other' } }));
    const notPaging = await list({ labelSelector: 'set!=paging' });
    assert.ok(names(notPaging).includes('unpaged'));
    assert.ok(!names(notPaging).some((n) => n.startsWith('page-')));

    const inSet = await list({ labelSelector: 'parity in (even),set' });
    assert.equal(inSet.items.length, 13);

    const one = await list({ fieldSelector: 'metadata.name=page-07' });
    assert.deepEqual(names(one), ['page-07']);
    const others = await list({ fieldSelector: 'metadata.name!=page-07', labelSelector: 'set=paging' });
    assert.equal(others.items.length, 24);
    const byNs = await list({ fieldSelector: `metadata.namespace=${NS},metadata.name=page-08` });
    assert.deepEqual(names(byNs), ['page-08']);

    const badField = await expectStatus(list({ fieldSelector: 'spec.image=i01' }), 400);
    assert.equal(badField.reason, 'BadRequest');
    assert.equal(badField.message, 'field label not supported: spec.image');
  });

  test('limit and continue page through 25 objects in name order, at one snapshot', async () => {
    const seen: string[] = [];
    let cont: string | undefined;
    let rv: string | undefined;
    let pages = 0;
    do {
      const page = await list({ labelSelector: 'set=paging', limit: 10, _continue: cont });
      pages++;
      seen.push(...names(page));
      rv ??= page.metadata.resourceVersion;
      // Every page of one paged list is read at the first page's revision.
      assert.equal(page.metadata.resourceVersion, rv);
      cont = page.metadata.continue;
      if (pages === 1) {
        assert.equal(page.items.length, 10);
        assert.ok(cont);
        // Writes after the first page do not show up in later pages.
        await create(crontab('page-100', { image: 'late' }, { labels: { set: 'paging' } }));
        await c.custom.deleteNamespacedCustomObject({ ...nsBase, name: 'page-20' });
      }
    } while (cont);
    assert.equal(pages, 3);
    assert.deepEqual(
      seen,
      Array.from({ length: 25 }, (_, i) => `page-${String(i).padStart(2, '0')}`),
    );

    // Without a selector the server knows how many items remain.
    const first = await list({ limit: 5 });
    assert.equal(first.items.length, 5);
    assert.ok(first.metadata.continue);
    const total = (await list()).items.length;
    assert.equal(first.metadata.remainingItemCount, total - 5);

    // A token that is not one of ours is refused.
    const bad = await expectStatus(list({ limit: 5, _continue: 'not-a-token' }), 400);
    assert.equal(bad.reason, 'BadRequest');
    assert.match(bad.message, /^continue key is not valid: /);
  });

  test('resourceVersion: 0 and NotOlderThan read the newest state, Exact reads the past', async () => {
    const start = await list({ labelSelector: 'set=rv' });
    assert.equal(start.items.length, 0);
    const rv0 = start.metadata.resourceVersion!;
    const made = await create(crontab('rv-a', { image: 'one' }, { labels: { set: 'rv' } }));
    await c.custom.patchNamespacedCustomObject({ ...nsBase, name: 'rv-a', body: { spec: { image: 'two' } } }, patchAs(k8s.PatchStrategy.MergePatch));

    const any = await list({ labelSelector: 'set=rv', resourceVersion: '0' });
    assert.equal(any.items[0]?.spec?.['image'], 'two');
    const notOlder = await list({ labelSelector: 'set=rv', resourceVersion: rv0, resourceVersionMatch: 'NotOlderThan' });
    assert.equal(notOlder.items[0]?.spec?.['image'], 'two');
    assert.ok(Number(notOlder.metadata.resourceVersion) > Number(made.metadata.resourceVersion));

    const exactBefore = await list({ labelSelector: 'set=rv', resourceVersion: rv0, resourceVersionMatch: 'Exact' });
    assert.equal(exactBefore.items.length, 0);
    assert.equal(exactBefore.metadata.resourceVersion, rv0);
    const exactMade = await list({ labelSelector: 'set=rv', resourceVersion: made.metadata.resourceVersion, resourceVersionMatch: 'Exact' });
    assert.equal(exactMade.items[0]?.spec?.['image'], 'one');
    assert.equal(exactMade.items[0]?.metadata.resourceVersion, made.metadata.resourceVersion);
    // A limited list with a resourceVersion and no match is Exact too (the legacy paging semantics).
    const legacy = await list({ labelSelector: 'set=rv', resourceVersion: made.metadata.resourceVersion, limit: 5 });
    assert.equal(legacy.items[0]?.spec?.['image'], 'one');

    const future = String(Number(notOlder.metadata.resourceVersion) + 1000);
    const tooNew = await expectStatus(list({ resourceVersion: future, resourceVersionMatch: 'NotOlderThan' }), 504);
    assert.equal(tooNew.reason, 'Timeout');
    assert.match(tooNew.message, new RegExp(`^Timeout: Too large resource version: ${future}, current: \\d+$`));
    assert.deepEqual(tooNew.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
    // An Exact read goes to storage, which offers no retry delay.
    const tooNewExact = await expectStatus(list({ resourceVersion: future, resourceVersionMatch: 'Exact' }), 504);
    assert.match(tooNewExact.message, new RegExp(`^Timeout: Too large resource version: ${future}, current: \\d+$`));
    assert.deepEqual(tooNewExact.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] });

    const exactZero = await expectStatus(list({ resourceVersion: '0', resourceVersionMatch: 'Exact' }), 422);
    assert.equal(exactZero.message, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  });
});

describe('replace and patch', () => {
  test('replace with the current resourceVersion succeeds; with a stale one it is a 409 Conflict', async () => {
    const made = await create(crontab('x', { image: 'one' }));
    const replaced = (await c.custom.replaceNamespacedCustomObject({
      ...nsBase,
      name: 'x',
      body: { ...made, spec: { image: 'two' } },
    })) as CronTab;
    assert.equal(replaced.spec?.['image'], 'two');
    assert.ok(Number(replaced.metadata.resourceVersion) > Number(made.metadata.resourceVersion));
    assert.equal(replaced.metadata.uid, made.metadata.uid);
    assert.equal(replaced.metadata.creationTimestamp, made.metadata.creationTimestamp);

    const stale = await expectStatus(
      c.custom.replaceNamespacedCustomObject({ ...nsBase, name: 'x', body: { ...made, spec: { image: 'three' } } }),
      409,
    );
    assert.deepEqual(stale, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Operation cannot be fulfilled on crontabs.stable.example.com "x": the object has been modified; please apply your changes to the latest version and try again`,
      reason: 'Conflict',
      details: { name: 'x', group: GROUP, kind: PLURAL },
      code: 409,
    });
    assert.equal((await get('x')).spec?.['image'], 'two');

    // Custom resources need a resourceVersion on update.
    const { resourceVersion: _rv, ...meta } = replaced.metadata;
    const unconditional = await expectStatus(
      c.custom.replaceNamespacedCustomObject({ ...nsBase, name: 'x', body: { ...replaced, metadata: meta } }),
      422,
    );
    // The store words it with the resource as the kind and the Go uint64 zero, as genericregistry.Store does.
    assert.equal(unconditional.reason, 'Invalid');
    assert.equal(unconditional.message, 'crontabs.stable.example.com "x" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    assert.deepEqual(unconditional.details, {
      name: 'x',
      group: GROUP,
      kind: PLURAL,
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }],
    });

    const renamed = await expectStatus(
      c.custom.replaceNamespacedCustomObject({ ...nsBase, name: 'x', body: { ...replaced, metadata: { ...replaced.metadata, name: 'y' } } }),
      400,
    );
    assert.equal(renamed.message, 'the name of the object (y) does not match the name on the URL (x)');
  });

  test('merge patch and JSON patch, selected with the Content-Type header', async () => {
    await create(crontab('patchy', { cronSpec: '1 * * * *', image: 'one', replicas: 1 }));
    const merged = (await c.custom.patchNamespacedCustomObject(
      { ...nsBase, name: 'patchy', body: { metadata: { labels: { tier: 'gold' } }, spec: { image: 'two', replicas: null } } },
      patchAs(k8s.PatchStrategy.MergePatch),
    )) as CronTab;
    assert.deepEqual(merged.spec, { cronSpec: '1 * * * *', image: 'two' });
    assert.deepEqual(merged.metadata.labels, { tier: 'gold' });

    // client-node's own default for this call is JSON patch; say so explicitly anyway.
    const patched = (await c.custom.patchNamespacedCustomObject(
      {
        ...nsBase,
        name: 'patchy',
        body: [
          { op: 'test', path: '/spec/image', value: 'two' },
          { op: 'replace', path: '/spec/image', value: 'three' },
          { op: 'add', path: '/spec/replicas', value: 3 },
          { op: 'remove', path: '/metadata/labels/tier' },
        ],
      },
      patchAs(k8s.PatchStrategy.JsonPatch),
    )) as CronTab;
    assert.deepEqual(patched.spec, { cronSpec: '1 * * * *', image: 'three', replicas: 3 });
    assert.equal(patched.metadata.labels, undefined);

    const failedTest = await expectStatus(
      c.custom.patchNamespacedCustomObject(
        { ...nsBase, name: 'patchy', body: [{ op: 'test', path: '/spec/image', value: 'nope' }] },
        patchAs(k8s.PatchStrategy.JsonPatch),
      ),
      422,
    );
    assert.equal(failedTest.reason, 'Invalid');
    assert.equal(failedTest.message, 'the server rejected our request due to an error in our request');

    // A resourceVersion in a patch is a precondition.
    const stale = await expectStatus(
      c.custom.patchNamespacedCustomObject(
        { ...nsBase, name: 'patchy', body: { metadata: { resourceVersion: '1' }, spec: { image: 'four' } } },
        patchAs(k8s.PatchStrategy.MergePatch),
      ),
      409,
    );
    assert.equal(stale.message, `Operation cannot be fulfilled on crontabs.stable.example.com "patchy": ${'the object has been modified; please apply your changes to the latest version and try again'}`);

    const absent = await expectStatus(
      c.custom.patchNamespacedCustomObject({ ...nsBase, name: 'absent', body: { spec: {} } }, patchAs(k8s.PatchStrategy.MergePatch)),
      404,
    );
    assert.equal(absent.message, 'crontabs.stable.example.com "absent" not found');

    // A patch that changes nothing writes nothing.
    const again = (await c.custom.patchNamespacedCustomObject(
      { ...nsBase, name: 'patchy', body: { spec: { image: 'three' } } },
      patchAs(k8s.PatchStrategy.MergePatch),
    )) as CronTab;
    assert.equal(again.metadata.resourceVersion, patched.metadata.resourceVersion);
  });

  test('strategic merge patch is refused for custom resources with 415', async () => {
    await create(crontab('smp'));
    const st = await expectStatus(
      c.custom.patchNamespacedCustomObject({ ...nsBase, name: 'smp', body: { spec: { image: 'x' } } }, patchAs(k8s.PatchStrategy.StrategicMergePatch)),
      415,
    );
    assert.equal(st.reason, 'UnsupportedMediaType');
    // kube-apiserver goes on to list application/apply-patch+yaml as well, where server-side apply is served.
    assert.match(
      st.message,
      /^the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json(, application\/apply-patch\+yaml)?$/,
    );
  });

  test('generation starts at 1, grows with spec changes only', async () => {
    const made = await create(crontab('gen', { image: 'one' }));
    assert.equal(made.metadata.generation, 1);
    const meta = (await c.custom.patchNamespacedCustomObject(
      { ...nsBase, name: 'gen', body: { metadata: { labels: { a: 'b' }, annotations: { note: 'x' } } } },
      patchAs(k8s.PatchStrategy.MergePatch),
    )) as CronTab;
    assert.equal(meta.metadata.generation, 1);
    assert.notEqual(meta.metadata.resourceVersion, made.metadata.resourceVersion);
    const spec = (await c.custom.patchNamespacedCustomObject(
      { ...nsBase, name: 'gen', body: { spec: { image: 'two' } } },
      patchAs(k8s.PatchStrategy.MergePatch),
    )) as CronTab;
    assert.equal(spec.metadata.generation, 2);
    const replaced = (await c.custom.replaceNamespacedCustomObject({
      ...nsBase,
      name: 'gen',
      body: { ...spec, spec: { image: 'three' } },
    })) as CronTab;
    assert.equal(replaced.metadata.generation, 3);
    // A client cannot set generation itself.
    const forced = (await c.custom.patchNamespacedCustomObject(
      { ...nsBase, name: 'gen', body: { metadata: { generation: 42 } } },
      patchAs(k8s.PatchStrategy.MergePatch),
    )) as CronTab;
    assert.equal(forced.metadata.generation, 3);
  });
});

describe('delete', () => {
  test('delete returns the object; preconditions on uid and resourceVersion are checked', async () => {
    const made = await create(crontab('del-a'));
    const wrongUid = await expectStatus(
      c.custom.deleteNamespacedCustomObject({ ...nsBase, name: 'del-a', body: { preconditions: { uid: 'not-the-uid' } } }),
      409,
    );
    assert.deepEqual(wrongUid, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      // rest.BeforeDelete checks preconditions early and names the object by its kind.
      message: `Operation cannot be fulfilled on CronTab.stable.example.com "del-a": the UID in the precondition (not-the-uid) does not match the UID in record (${made.metadata.uid}). The object might have been deleted and then recreated`,
      reason: 'Conflict',
      details: { name: 'del-a', group: GROUP, kind: 'CronTab' },
      code: 409,
    });
    const wrongRv = await expectStatus(
      c.custom.deleteNamespacedCustomObject({ ...nsBase, name: 'del-a', body: { preconditions: { resourceVersion: '1' } } }),
      409,
    );
    assert.equal(
      wrongRv.message,
      `Operation cannot be fulfilled on CronTab.stable.example.com "del-a": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${made.metadata.resourceVersion}). The object might have been modified`,
    );
    await get('del-a');

    // A completed delete of a custom resource answers with a Success Status naming the object
    // (genericregistry.Store.finalizeDelete; only stores with ReturnDeletedObject send the object).
    const success = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'del-a', group: GROUP, kind: PLURAL, uid: made.metadata.uid },
    };
    const dry = await c.custom.deleteNamespacedCustomObject({ ...nsBase, name: 'del-a', dryRun: 'All' });
    assert.deepEqual(dry, success);
    await get('del-a');

    const gone = await c.custom.deleteNamespacedCustomObject({
      ...nsBase,
      name: 'del-a',
      body: { preconditions: { uid: made.metadata.uid, resourceVersion: made.metadata.resourceVersion } },
    });
    assert.deepEqual(gone, success);
    await expectStatus(get('del-a'), 404);
    const again = await expectStatus(c.custom.deleteNamespacedCustomObject({ ...nsBase, name: 'del-a' }), 404);
    assert.equal(again.message, 'crontabs.stable.example.com "del-a" not found');
  });

  test('deletecollection removes what the label selector matches and nothing else', async () => {
    for (const [n, team] of [['dc-1', 'red'], ['dc-2', 'red'], ['dc-3', 'blue']] as const) {
      await create(crontab(n, { image: n }, { labels: { team } }));
    }
    const out = (await c.custom.deleteCollectionNamespacedCustomObject({ ...nsBase, labelSelector: 'team=red' })) as CronTabList;
    assert.equal(out.kind, 'CronTabList');
    assert.deepEqual(names(out).sort(), ['dc-1', 'dc-2']);
    assert.deepEqual(names(await list({ labelSelector: 'team' })), ['dc-3']);
    assert.ok(names(await list()).includes('crud-a'));
  });
});

describe('cluster-scoped custom resources', () => {
  const cl = { group: GROUP, version: VERSION, plural: 'clustercrontabs' };
  const obj = (name: string, labels?: Record<string, string>): CronTab => ({
    apiVersion: API_VERSION,
    kind: 'ClusterCronTab',
    metadata: { name, labels },
    spec: { image: name },
  });

  test('create, get, list, patch, delete without a namespace', async () => {
    const made = (await c.custom.createClusterCustomObject({ ...cl, body: obj('c1', { k: 'v' }) })) as CronTab;
    assert.equal(made.metadata.namespace, undefined);
    assert.equal(made.metadata.generation, 1);
    await c.custom.createClusterCustomObject({ ...cl, body: obj('c2') });

    const got = (await c.custom.getClusterCustomObject({ ...cl, name: 'c1' })) as CronTab;
    assert.deepEqual(got, made);
    const all = (await c.custom.listClusterCustomObject({ ...cl })) as CronTabList;
    assert.equal(all.kind, 'ClusterCronTabList');
    assert.deepEqual(names(all), ['c1', 'c2']);
    const sel = (await c.custom.listClusterCustomObject({ ...cl, labelSelector: 'k=v' })) as CronTabList;
    assert.deepEqual(names(sel), ['c1']);

    const patched = (await c.custom.patchClusterCustomObject(
      { ...cl, name: 'c1', body: { spec: { image: 'changed' } } },
      patchAs(k8s.PatchStrategy.MergePatch),
    )) as CronTab;
    assert.equal(patched.metadata.generation, 2);

    const stale = await expectStatus(c.custom.replaceClusterCustomObject({ ...cl, name: 'c1', body: made }), 409);
    assert.equal(
      stale.message,
      'Operation cannot be fulfilled on clustercrontabs.stable.example.com "c1": the object has been modified; please apply your changes to the latest version and try again',
    );

    // The namespaced path does not exist for a cluster-scoped resource: the crd handler delegates it to
    // the plain not-found handler.
    const nsPath = await expectHttpError(c.custom.getNamespacedCustomObject({ ...cl, namespace: NS, name: 'c1' }), 404);
    assert.equal(nsPath, '404 page not found\n');

    await c.custom.deleteClusterCustomObject({ ...cl, name: 'c1' });
    await expectStatus(c.custom.getClusterCustomObject({ ...cl, name: 'c1' }), 404);
    await c.custom.deleteCollectionClusterCustomObject({ ...cl });
    assert.deepEqual(names((await c.custom.listClusterCustomObject({ ...cl })) as CronTabList), []);
  });

  test('listing a namespaced resource across namespaces', async () => {
    await c.custom.createNamespacedCustomObject({ ...base, namespace: 'kube-public', body: crontab('elsewhere', { image: 'e' }, { labels: { where: 'x' } }) });
    await create(crontab('here', { image: 'h' }, { labels: { where: 'x' } }));
    const all = (await c.custom.listCustomObjectForAllNamespaces({ ...base, labelSelector: 'where=x' })) as CronTabList;
    assert.deepEqual(
      all.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`),
      ['default/here', 'kube-public/elsewhere'],
    );
  });
});
