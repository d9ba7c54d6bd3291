// Deletion at the HTTP level, as kube-apiserver 1.33's generic store does it: finalizers and the
// deletion mark, what may change while an object is being deleted, the watch events, propagation
// policies and the garbage collector's finalizers, preconditions, dry run and deletecollection.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, cronTab, type Api } from './helpers.js';

let api: Api;
const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

before(async () => {
  api = await startApi();
  await installCronTab(api);
});
after(async () => {
  await api?.close();
});

interface Stream {
  next(): Promise<{ type: string; object: any }>;
  close(): void;
}

/** A raw watch: newline-delimited events, read one at a time. */
async function watch(path: string): Promise<Stream> {
  const ctrl = new AbortController();
  const res = await fetch(api.url + path, { signal: ctrl.signal });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  const queue: any[] = [];
  let done = false;
  void (async () => {
    try {
      for (;;) {
        const { value, done: d } = await reader.read();
        if (d) break;
        buf += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim()) queue.push(JSON.parse(line));
        }
      }
    } catch {
      // aborted
    } finally {
      done = true;
    }
  })();
  return {
    async next() {
      const deadline = Date.now() + 5000;
      while (queue.length === 0) {
        if (done) throw new Error('stream ended');
        if (Date.now() > deadline) throw new Error('no event within 5s');
        await new Promise((r) => setTimeout(r, 10));
      }
      return queue.shift();
    },
    close: () => ctrl.abort(),
  };
}

// The object's own resourceVersion: the server's controllers (APF, leases, RBAC) write elsewhere meanwhile, so the
// store's global revision says nothing about whether this object was written.
const revisionOf = async (name: string): Promise<string> => (await api.req('GET', `${base}/${name}`)).json.metadata.resourceVersion;

test('finalizers: the first delete marks the object, deleting again changes nothing, emptying them deletes it', async () => {
  let r = await api.req('POST', base, cronTab('fin', { finalizers: ['example.com/keep'] }));
  assert.equal(r.status, 201);
  const created = r.json;
  const w = await watch(`${base}?watch=1&fieldSelector=metadata.name%3Dfin&resourceVersion=${created.metadata.resourceVersion}`);
  try {
    // Custom resources have no graceful deletion: the mark is a timestamp and a grace period of 0, the
    // generation moves, and the answer is the object (200), not a Status.
    r = await api.req('DELETE', `${base}/fin`);
    assert.equal(r.status, 200);
    const marked = r.json;
    assert.equal(marked.kind, 'CronTab');
    assert.match(marked.metadata.deletionTimestamp, RFC3339);
    assert.equal(marked.metadata.deletionGracePeriodSeconds, 0);
    assert.equal(marked.metadata.generation, 2);
    assert.deepEqual(marked.metadata.finalizers, ['example.com/keep']);
    assert.ok(Number(marked.metadata.resourceVersion) > Number(created.metadata.resourceVersion));
    assert.deepEqual(await w.next(), { type: 'MODIFIED', object: marked });
    assert.deepEqual((await api.req('GET', `${base}/fin`)).json, marked);

    // Deleting again while the finalizer is there answers with the object as it is, without a write.
    const rev = await revisionOf('fin');
    r = await api.req('DELETE', `${base}/fin`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, marked);
    r = await api.req('DELETE', `${base}/fin`, { propagationPolicy: 'Background' });
    assert.deepEqual(r.json, marked);
    assert.equal(await revisionOf('fin'), rev);

    // No finalizer may be added once the deletion started.
    r = await api.req('PATCH', `${base}/fin`, { metadata: { finalizers: ['example.com/keep', 'example.com/other'] } }, MERGE);
    assert.equal(r.status, 422);
    assert.equal(r.json.reason, 'Invalid');
    assert.equal(
      r.json.message,
      'CronTab.stable.example.com "fin" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/other"}',
    );
    assert.ok(
      r.json.details.causes.some(
        (c: any) =>
          c.reason === 'FieldValueForbidden' &&
          c.field === 'metadata.finalizers' &&
          c.message === 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/other"}',
      ),
    );
    // The grace period cannot change; the deletion timestamp cannot be removed (an update leaving it out keeps it).
    r = await api.req('PATCH', `${base}/fin`, { metadata: { deletionGracePeriodSeconds: 30 } }, MERGE);
    assert.equal(r.status, 422);
    assert.equal(r.json.message, 'CronTab.stable.example.com "fin" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable');
    r = await api.req('PATCH', `${base}/fin`, { metadata: { deletionTimestamp: null, deletionGracePeriodSeconds: null } }, MERGE);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, marked);
    assert.equal(await revisionOf('fin'), rev);

    // Other changes go on as usual, the spec's bumping the generation.
    r = await api.req('PATCH', `${base}/fin`, { spec: { image: 'other' }, metadata: { labels: { a: 'b' } } }, MERGE);
    assert.equal(r.status, 200);
    const changed = r.json;
    assert.equal(changed.metadata.generation, 3);
    assert.equal(changed.metadata.deletionTimestamp, marked.metadata.deletionTimestamp);
    assert.deepEqual(await w.next(), { type: 'MODIFIED', object: changed });

    // The update that empties the finalizers deletes the object. It answers with the object as updated
    // (at the revision it was read at); watchers get DELETED with the last stored state, finalizer included.
    r = await api.req('PATCH', `${base}/fin`, { metadata: { finalizers: null } }, MERGE);
    assert.equal(r.status, 200);
    assert.equal(r.json.metadata.finalizers, undefined);
    assert.equal(r.json.metadata.resourceVersion, changed.metadata.resourceVersion);
    assert.equal(r.json.metadata.deletionTimestamp, marked.metadata.deletionTimestamp);
    const deleted = await w.next();
    assert.equal(deleted.type, 'DELETED');
    assert.deepEqual({ ...deleted.object, metadata: { ...deleted.object.metadata, resourceVersion: '' } }, { ...changed, metadata: { ...changed.metadata, resourceVersion: '' } });
    assert.ok(Number(deleted.object.metadata.resourceVersion) > Number(changed.metadata.resourceVersion));
    assert.equal((await api.req('GET', `${base}/fin`)).status, 404);
  } finally {
    w.close();
  }
});

test('an update cannot set a deletionTimestamp', async () => {
  await api.req('POST', base, cronTab('notdel'));
  const r = await api.req('PATCH', `${base}/notdel`, { metadata: { deletionTimestamp: '2030-01-01T00:00:00Z' } }, MERGE);
  assert.equal(r.status, 422);
  assert.match(r.json.message, /^CronTab\.stable\.example\.com "notdel" is invalid: metadata\.deletionTimestamp: Invalid value: .*2030.*: field is immutable$/);
  await api.req('DELETE', `${base}/notdel`);
});

test('propagation: Orphan and Foreground add their finalizers, Background and orphanDependents=false drop them', async () => {
  // Orphan adds the orphan finalizer, which the server's garbage collector removes once it has orphaned the
  // dependents (none here); another finalizer keeps the object for the rest of the test.
  await api.req('POST', base, cronTab('orph', { finalizers: ['example.com/keep'] }));
  let r = await api.req('DELETE', `${base}/orph`, { propagationPolicy: 'Orphan' });
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.metadata.finalizers, ['example.com/keep', 'orphan']);
  assert.match(r.json.metadata.deletionTimestamp, RFC3339);
  assert.equal(r.json.metadata.deletionGracePeriodSeconds, 0);
  for (let i = 0; i < 200; i++) {
    const got = await api.req('GET', `${base}/orph`);
    if (JSON.stringify(got.json.metadata.finalizers) === '["example.com/keep"]') break;
    await new Promise((res) => setTimeout(res, 20));
  }
  // A delete without options keeps what the finalizers say, and writes nothing.
  const rev = await revisionOf('orph');
  r = await api.req('DELETE', `${base}/orph`);
  assert.deepEqual(r.json.metadata.finalizers, ['example.com/keep']);
  assert.equal(await revisionOf('orph'), rev);
  // With the last finalizer gone the object goes.
  await api.req('PATCH', `${base}/orph`, { metadata: { finalizers: null } }, MERGE);
  assert.equal((await api.req('GET', `${base}/orph`)).status, 404);

  // Foreground asks for foregroundDeletion (200: only orphanDependents=false answers 202); a later
  // orphanDependents=true swaps it for orphan, even while being deleted.
  r = await api.req('POST', base, cronTab('fg', { finalizers: ['example.com/keep'] }));
  r = await api.req('DELETE', `${base}/fg`, { propagationPolicy: 'Foreground' });
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.metadata.finalizers, ['example.com/keep', 'foregroundDeletion']);
  const firstMark = r.json.metadata.deletionTimestamp;
  r = await api.req('DELETE', `${base}/fg`, { orphanDependents: true });
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.metadata.finalizers, ['example.com/keep', 'orphan']);
  assert.equal(r.json.metadata.deletionTimestamp, firstMark);
  assert.equal(r.json.metadata.generation, 2, 'the generation moves once, on the first mark');
  // orphanDependents=false on an object that stays: 202 Accepted.
  r = await api.req('DELETE', `${base}/fg`, { orphanDependents: false });
  assert.equal(r.status, 202);
  assert.deepEqual(r.json.metadata.finalizers, ['example.com/keep']);
  await api.req('PATCH', `${base}/fg`, { metadata: { finalizers: null } }, MERGE);
  assert.equal((await api.req('GET', `${base}/fg`)).status, 404);
  // Background drops the collector's finalizers; with the last one gone the object goes. (An object not being
  // deleted yet: the garbage collector leaves its orphan finalizer alone.)
  await api.req('POST', base, cronTab('bg', { finalizers: ['orphan'] }));
  r = await api.req('DELETE', `${base}/bg`, { propagationPolicy: 'Background' });
  assert.equal(r.status, 200);
  assert.equal(r.json.kind, 'Status');
  assert.equal((await api.req('GET', `${base}/bg`)).status, 404);
});

test('delete options are validated as ValidateDeleteOptions does', async () => {
  await api.req('POST', base, cronTab('opts'));
  let r = await api.req('DELETE', `${base}/opts`, { propagationPolicy: 'Orphan', orphanDependents: true });
  assert.equal(r.status, 422);
  assert.equal(
    r.json.message,
    'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
  );
  r = await api.req('DELETE', `${base}/opts?propagationPolicy=Sideways`);
  assert.equal(r.status, 422);
  assert.equal(
    r.json.message,
    'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
  );
  r = await api.req('DELETE', `${base}/opts?propagationPolicy=`);
  assert.equal(r.status, 422);
  assert.match(r.json.message, /propagationPolicy: Unsupported value: "": supported values/);
  // Any orphanDependents value but "false" and "0" is true.
  r = await api.req('DELETE', `${base}/opts?orphanDependents=yes`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.metadata.finalizers, ['orphan']);
  await api.req('DELETE', `${base}/opts?orphanDependents=0`);
  assert.equal((await api.req('GET', `${base}/opts`)).status, 404);
});

test('preconditions: uid and resourceVersion, checked before anything is written', async () => {
  let r = await api.req('POST', base, cronTab('pre', { finalizers: ['example.com/keep'] }));
  const { uid, resourceVersion } = r.json.metadata;
  r = await api.req('DELETE', `${base}/pre`, { preconditions: { resourceVersion: '1' } });
  assert.equal(r.status, 409);
  assert.deepEqual(r.json, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Operation cannot be fulfilled on CronTab.stable.example.com "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${resourceVersion}). The object might have been modified`,
    reason: 'Conflict',
    details: { name: 'pre', group: 'stable.example.com', kind: 'CronTab' },
    code: 409,
  });
  r = await api.req('DELETE', `${base}/pre`, { preconditions: { uid: 'other' } });
  assert.equal(r.status, 409);
  assert.equal(
    r.json.message,
    `Operation cannot be fulfilled on CronTab.stable.example.com "pre": the UID in the precondition (other) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
  );
  r = await api.req('DELETE', `${base}/pre`, { preconditions: { uid, resourceVersion } });
  assert.equal(r.status, 200);
  assert.ok(r.json.metadata.deletionTimestamp);
  // The mark wrote a new revision: the old one no longer matches.
  r = await api.req('DELETE', `${base}/pre`, { preconditions: { resourceVersion } });
  assert.equal(r.status, 409);
  await api.req('PATCH', `${base}/pre`, { metadata: { finalizers: null } }, MERGE);
});

test('dry run: no delete, no mark, no finalizer change is stored', async () => {
  let r = await api.req('POST', base, cronTab('dry'));
  const plain = r.json;
  r = await api.req('DELETE', `${base}/dry?dryRun=All`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: 'dry', group: 'stable.example.com', kind: 'crontabs', uid: plain.metadata.uid },
  });
  assert.deepEqual((await api.req('GET', `${base}/dry`)).json, plain);

  r = await api.req('POST', base, cronTab('dryfin', { finalizers: ['example.com/keep'] }));
  const held = r.json;
  r = await api.req('DELETE', `${base}/dryfin`, { dryRun: ['All'], propagationPolicy: 'Orphan' });
  assert.equal(r.status, 200);
  assert.match(r.json.metadata.deletionTimestamp, RFC3339);
  assert.deepEqual(r.json.metadata.finalizers, ['example.com/keep', 'orphan']);
  assert.equal(r.json.metadata.resourceVersion, held.metadata.resourceVersion);
  assert.deepEqual((await api.req('GET', `${base}/dryfin`)).json, held);

  // A dry-run update emptying the finalizers of an object being deleted leaves it there.
  const marked = (await api.req('DELETE', `${base}/dryfin`)).json;
  r = await api.req('PATCH', `${base}/dryfin?dryRun=All`, { metadata: { finalizers: null } }, MERGE);
  assert.equal(r.status, 200);
  assert.equal(r.json.metadata.finalizers, undefined);
  assert.deepEqual((await api.req('GET', `${base}/dryfin`)).json, marked);
  await api.req('PATCH', `${base}/dryfin`, { metadata: { finalizers: null } }, MERGE);
  await api.req('DELETE', `${base}/dry`);
});

test('deletecollection deletes each listed object as a single delete would, and answers with the list as read', async () => {
  await api.req('POST', base, cronTab('dc1', { labels: { dc: 'y' } }));
  const held = (await api.req('POST', base, cronTab('dc2', { labels: { dc: 'y' }, finalizers: ['example.com/keep'] }))).json;
  const r = await api.req('DELETE', `${base}?labelSelector=dc%3Dy`);
  assert.equal(r.status, 200);
  assert.equal(r.json.kind, 'CronTabList');
  assert.deepEqual(r.json.items.map((o: any) => o.metadata.name), ['dc1', 'dc2']);
  assert.deepEqual(r.json.items[1], held);
  assert.equal((await api.req('GET', `${base}/dc1`)).status, 404);
  const left = (await api.req('GET', `${base}/dc2`)).json;
  assert.ok(left.metadata.deletionTimestamp);
  await api.req('PATCH', `${base}/dc2`, { metadata: { finalizers: null } }, MERGE);
});

const WIDGETS = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.org' },
  spec: {
    group: 'example.org',
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
  },
};
const widget = (name: string, finalizers?: string[]) => ({ apiVersion: 'example.org/v1', kind: 'Widget', metadata: { name, ...(finalizers ? { finalizers } : {}) } });
const terminating = (crd: any) => crd.status?.conditions?.find((c: any) => c.type === 'Terminating');

async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a deleted CRD refuses new objects, deletes its instances and waits for their finalizers', async () => {
  await installCronTab(api, WIDGETS);
  const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.org';
  const wbase = '/apis/example.org/v1/namespaces/default/widgets';
  await api.req('POST', wbase, widget('w1', ['example.com/keep']));
  await api.req('POST', wbase, widget('w2'));
  const uid = (await api.req('GET', crdPath)).json.metadata.uid;

  // The CRD REST words precondition failures as storage does.
  let r = await api.req('DELETE', crdPath, { preconditions: { uid: 'nope' } });
  assert.equal(r.status, 409);
  assert.equal(
    r.json.message,
    `Operation cannot be fulfilled on customresourcedefinitions.apiextensions.k8s.io "widgets.example.org": Precondition failed: UID in precondition: nope, UID in object meta: ${uid}`,
  );

  r = await api.req('DELETE', crdPath);
  assert.equal(r.status, 200);
  assert.equal(r.json.kind, 'CustomResourceDefinition');
  assert.match(r.json.metadata.deletionTimestamp, RFC3339);
  assert.equal(r.json.metadata.deletionGracePeriodSeconds, undefined);
  assert.deepEqual(r.json.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
  assert.deepEqual(
    { ...terminating(r.json), lastTransitionTime: undefined },
    {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      lastTransitionTime: undefined,
    },
  );

  // The finalizer deletes the instances: one goes, the other waits on its finalizer (and so does the CRD).
  const crd = await eventually('the instances to be deleted', async () => {
    const l = (await api.req('GET', wbase)).json;
    const c = (await api.req('GET', crdPath)).json;
    return l.items.length === 1 && l.items[0].metadata.deletionTimestamp && terminating(c)?.reason === 'InstanceDeletionInProgress' ? c : undefined;
  });
  assert.equal(terminating(crd).status, 'True');
  assert.equal(terminating(crd).message, 'CustomResource deletion is in progress');

  r = await api.req('POST', wbase, widget('w3'));
  assert.equal(r.status, 405);
  assert.deepEqual(r.json, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'create not allowed while custom resource definition is terminating',
    reason: 'MethodNotAllowed',
    details: { group: 'example.org', kind: 'widgets' },
    code: 405,
  });

  // Discovery lists only the verbs a terminating CRD still serves (apiextensions' DiscoveryController).
  const TERMINATING_VERBS = ['delete', 'deletecollection', 'get', 'list', 'watch'];
  const legacy = (await api.req('GET', '/apis/example.org/v1')).json;
  assert.deepEqual(legacy.resources.find((x: any) => x.name === 'widgets').verbs, TERMINATING_VERBS);
  const aggregated = (await api.req('GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).json;
  const group = aggregated.items.find((g: any) => g.metadata.name === 'example.org');
  assert.deepEqual(group.versions[0].resources.find((x: any) => x.resource === 'widgets').verbs, TERMINATING_VERBS);

  // Deleting the CRD again goes to the generic store: the grace period of 0 is set, nothing else.
  r = await api.req('DELETE', crdPath);
  assert.equal(r.status, 200);
  assert.equal(r.json.metadata.deletionGracePeriodSeconds, 0);
  assert.equal(r.json.metadata.deletionTimestamp, crd.metadata.deletionTimestamp);

  // Releasing the instance lets it, then the CRD, go.
  r = await api.req('PATCH', `${wbase}/w1`, { metadata: { finalizers: null } }, MERGE);
  assert.equal(r.status, 200);
  await eventually('the CRD to be gone', async () => ((await api.req('GET', crdPath)).status === 404 ? true : undefined));
  assert.equal((await api.req('GET', wbase)).status, 404);
});

test('the CRD finalizer records a wait that times out, then starts over', async () => {
  const quick = await startApi({ crdFinalizerTiming: { pollMs: 20, waitMs: 200, retryMs: 20 } });
  try {
    await installCronTab(quick, WIDGETS);
    const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.org';
    const wbase = '/apis/example.org/v1/namespaces/default/widgets';
    await quick.req('POST', wbase, widget('held', ['example.com/keep']));
    assert.equal((await quick.req('DELETE', crdPath)).status, 200);
    const reasons = new Set<string>();
    const timedOut = await eventually('the timed-out wait to be recorded', async () => {
      const c = (await quick.req('GET', crdPath)).json;
      reasons.add(terminating(c)?.reason);
      return terminating(c)?.reason === 'InstanceDeletionCheck' ? c : undefined;
    });
    assert.deepEqual(
      { ...terminating(timedOut), lastTransitionTime: undefined },
      {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionCheck',
        message: 'could not confirm zero CustomResources remaining: context deadline exceeded',
        lastTransitionTime: undefined,
      },
    );
    // The next run marks the deletion in progress again.
    await eventually('a new run', async () => (terminating((await quick.req('GET', crdPath)).json)?.reason === 'InstanceDeletionInProgress' ? true : undefined));
    await quick.req('PATCH', `${wbase}/held`, { metadata: { finalizers: null } }, MERGE);
    await eventually('the CRD to be gone', async () => ((await quick.req('GET', crdPath)).status === 404 ? true : undefined));
  } finally {
    await quick.close();
  }
});

test('a namespace deleted with Orphan: the controller removes the content, the garbage collector the orphan finalizer', async () => {
  const nsPath = '/api/v1/namespaces/orphaned';
  await api.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'orphaned' } });
  await api.req('POST', '/apis/stable.example.com/v1/namespaces/orphaned/crontabs', cronTab('inside'));
  // The namespace REST: orphanDependents=false means foreground there, and the kept namespace answers 202.
  let r = await api.req('DELETE', nsPath, { orphanDependents: false, dryRun: ['All'] });
  assert.equal(r.status, 202);
  assert.deepEqual(r.json.metadata.finalizers, ['foregroundDeletion']);
  r = await api.req('DELETE', nsPath, { propagationPolicy: 'Orphan' });
  assert.equal(r.status, 200);
  assert.equal(r.json.status.phase, 'Terminating');
  assert.deepEqual(r.json.metadata.finalizers, ['orphan']);
  assert.equal(r.json.metadata.deletionGracePeriodSeconds, undefined);
  // The namespace controller removes the content and its spec finalizer; the collector orphans the namespace's
  // dependents (none) and drops the orphan finalizer; then the namespace goes.
  await eventually('the namespace to be gone', async () => ((await api.req('GET', nsPath)).status === 404 ? true : undefined));
  assert.equal((await api.req('GET', '/apis/stable.example.com/v1/namespaces/orphaned/crontabs/inside')).status, 404);
});
