// A small controller written with @kubernetes/client-node, as operators are: an informer on CronTabs,
// a finalizer added to every object, status written through /status, and on deletion the finalizer
// removed. An independent watch records every event the server sends; the sequence must be what
// kube-apiserver sends for the same requests, resourceVersions and generations included.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { GROUP, PLURAL, VERSION, crontab, crontabCrd, eventually, installCrd, patchAs, startWithClients, type Clients, type CronTab, type CronTabList } from './helpers.js';

const FINALIZER = 'stable.example.com/finalizer';
const NS = 'ctrl';
const base = { group: GROUP, version: VERSION, plural: PLURAL, namespace: NS };
const collectionPath = `/apis/${GROUP}/${VERSION}/namespaces/${NS}/${PLURAL}`;

interface Status {
  phase?: string;
  observedGeneration?: number;
}
type Obj = CronTab & { status?: Status };

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

/** What the controller wrote, with the resourceVersion and generation each write answered with. */
interface Write {
  what: 'add finalizer' | 'status' | 'remove finalizer';
  rv: string;
  generation: number;
}

/**
 * The controller: reconciles each object as the informer reports it, one at a time. Level-based as
 * controllers are: it looks only at the object it is handed.
 */
class CronTabController {
  readonly informer: k8s.Informer<Obj>;
  readonly seen: Array<[verb: string, rv: string]> = [];
  readonly writes: Write[] = [];
  readonly errors: unknown[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly clients: Clients) {
    this.informer = k8s.makeInformer<Obj>(
      clients.kc,
      collectionPath,
      () => clients.custom.listNamespacedCustomObject(base) as Promise<k8s.KubernetesListObject<Obj>>,
    );
    for (const verb of ['add', 'update', 'delete'] as const) {
      this.informer.on(verb, (obj) => {
        this.seen.push([verb, obj.metadata.resourceVersion!]);
        if (verb !== 'delete') this.enqueue(obj);
      });
    }
    this.informer.on('error', (e) => this.errors.push(e));
  }

  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): Promise<void> {
    return this.informer.stop();
  }

  /** Resolves once everything reported so far is reconciled. */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(obj: Obj): void {
    this.queue = this.queue.then(() => this.reconcile(structuredClone(obj))).catch((e: unknown) => void this.errors.push(e));
  }

  private async reconcile(obj: Obj): Promise<void> {
    const meta = obj.metadata;
    const finalizers = meta.finalizers ?? [];
    const name = meta.name!;
    if (meta.deletionTimestamp) {
      if (!finalizers.includes(FINALIZER)) return;
      // (Cleanup of whatever the object stands for would go here.) Then let the object go.
      meta.finalizers = finalizers.filter((f) => f !== FINALIZER);
      const out = (await this.clients.custom.replaceNamespacedCustomObject({ ...base, name, body: obj })) as Obj;
      this.record('remove finalizer', out);
      return;
    }
    if (!finalizers.includes(FINALIZER)) {
      meta.finalizers = [...finalizers, FINALIZER];
      const out = (await this.clients.custom.replaceNamespacedCustomObject({ ...base, name, body: obj })) as Obj;
      this.record('add finalizer', out);
      return;
    }
    if (obj.status?.observedGeneration !== meta.generation) {
      obj.status = { phase: 'Ready', observedGeneration: meta.generation };
      const out = (await this.clients.custom.replaceNamespacedCustomObjectStatus({ ...base, name, body: obj })) as Obj;
      this.record('status', out);
    }
  }

  private record(what: Write['what'], out: Obj): void {
    this.writes.push({ what, rv: out.metadata.resourceVersion!, generation: out.metadata.generation! });
  }
}

interface Event {
  type: string;
  object: Obj;
}

test('a controller with a finalizer and status sees exactly the events kube-apiserver sends', async () => {
  // The observer: a plain watch from before anything happens.
  const start = (await c.custom.listNamespacedCustomObject(base)) as CronTabList;
  const events: Event[] = [];
  const observer = await new k8s.Watch(c.kc).watch(
    collectionPath,
    { resourceVersion: start.metadata.resourceVersion },
    (type, object) => events.push({ type, object: object as Obj }),
    () => undefined,
  );
  const controller = new CronTabController(c);
  await controller.start();
  const settled = async (count: number): Promise<void> => {
    await eventually(`${count} events`, () => (events.length >= count ? true : undefined));
    await controller.idle();
  };

  try {
    // Created: the controller adds its finalizer, then reports status for generation 1.
    const created = (await c.custom.createNamespacedCustomObject({ ...base, body: crontab('ct1') })) as Obj;
    await settled(3);
    // A spec change: generation 2, and status follows.
    const changed = (await c.custom.patchNamespacedCustomObject(
      { ...base, name: 'ct1', body: { spec: { image: 'other' } } },
      patchAs(k8s.PatchStrategy.MergePatch),
    )) as Obj;
    await settled(5);
    // Deleted: marked (generation 3) and kept until the controller removes its finalizer.
    const deleting = (await c.custom.deleteNamespacedCustomObject({ ...base, name: 'ct1' })) as Obj;
    await settled(7);
    await eventually('the informer to report the deletion', () => (controller.seen.some(([v]) => v === 'delete') ? true : undefined));
    await controller.idle();

    assert.deepEqual(controller.errors, []);
    // The delete answered with the object, kept and marked, not a Status.
    assert.equal(deleting.kind, 'CronTab');
    assert.equal(deleting.metadata.generation, 3);
    assert.equal(deleting.metadata.deletionGracePeriodSeconds, 0);
    assert.deepEqual(deleting.metadata.finalizers, [FINALIZER]);

    const w = controller.writes;
    assert.deepEqual(
      w.map((x) => [x.what, x.generation]),
      [
        ['add finalizer', 1],
        ['status', 1],
        ['status', 2],
        ['remove finalizer', 3],
      ],
    );
    // Removing the last finalizer deleted the object; the update answers with it as updated, at the
    // revision it was read at.
    assert.equal(w[3]!.rv, deleting.metadata.resourceVersion);

    const summary = events.map((e) => [
      e.type,
      e.object.metadata.resourceVersion,
      e.object.metadata.generation,
      e.object.metadata.finalizers ?? null,
      e.object.status ?? null,
      e.object.metadata.deletionTimestamp !== undefined,
      e.object.spec?.['image'],
    ]);
    const gone = events[6]!.object.metadata.resourceVersion!;
    assert.deepEqual(summary, [
      ['ADDED', created.metadata.resourceVersion, 1, null, null, false, 'img'],
      ['MODIFIED', w[0]!.rv, 1, [FINALIZER], null, false, 'img'],
      ['MODIFIED', w[1]!.rv, 1, [FINALIZER], { phase: 'Ready', observedGeneration: 1 }, false, 'img'],
      ['MODIFIED', changed.metadata.resourceVersion, 2, [FINALIZER], { phase: 'Ready', observedGeneration: 1 }, false, 'other'],
      ['MODIFIED', w[2]!.rv, 2, [FINALIZER], { phase: 'Ready', observedGeneration: 2 }, false, 'other'],
      ['MODIFIED', deleting.metadata.resourceVersion, 3, [FINALIZER], { phase: 'Ready', observedGeneration: 2 }, true, 'other'],
      // DELETED carries the last stored state (the finalizer still listed) at the deletion's own revision.
      ['DELETED', gone, 3, [FINALIZER], { phase: 'Ready', observedGeneration: 2 }, true, 'other'],
    ]);
    const rvs = summary.map((s) => Number(s[1]));
    assert.deepEqual(rvs, [...rvs].sort((a, b) => a - b));
    assert.equal(new Set(rvs).size, rvs.length, 'each event has its own resourceVersion');
    // The deletion timestamp and grace period are set once and never move.
    assert.equal(events[6]!.object.metadata.deletionTimestamp, events[5]!.object.metadata.deletionTimestamp);
    assert.equal(events[6]!.object.metadata.deletionGracePeriodSeconds, 0);

    // The informer saw the same stream: the add, every modification, then the delete.
    assert.deepEqual(controller.seen, [
      ['add', created.metadata.resourceVersion],
      ['update', w[0]!.rv],
      ['update', w[1]!.rv],
      ['update', changed.metadata.resourceVersion],
      ['update', w[2]!.rv],
      ['update', deleting.metadata.resourceVersion],
      ['delete', gone],
    ]);
    const left = (await c.custom.listNamespacedCustomObject(base)) as CronTabList;
    assert.deepEqual(left.items, []);
    assert.ok(Number(left.metadata.resourceVersion) >= Number(gone));
  } finally {
    observer.abort();
    await controller.stop();
  }
});

test('status written through /status changes nothing else, and the main resource does not change status', async () => {
  const made = (await c.custom.createNamespacedCustomObject({ ...base, body: crontab('st', undefined, { finalizers: [FINALIZER] }) })) as Obj;
  // A /status write carrying other changes keeps only the status.
  const body = { ...structuredClone(made), spec: { image: 'ignored' }, status: { phase: 'Ready', observedGeneration: 1 } };
  body.metadata.labels = { ignored: 'yes' };
  const st = (await c.custom.replaceNamespacedCustomObjectStatus({ ...base, name: 'st', body })) as Obj;
  assert.deepEqual(st.status, { phase: 'Ready', observedGeneration: 1 });
  assert.equal(st.spec?.['image'], 'img');
  assert.equal(st.metadata.labels, undefined);
  assert.equal(st.metadata.generation, 1);
  // The main resource ignores a status change.
  const main = (await c.custom.replaceNamespacedCustomObject({ ...base, name: 'st', body: { ...st, status: { phase: 'Gone' } } })) as Obj;
  assert.deepEqual(main.status, { phase: 'Ready', observedGeneration: 1 });
  assert.equal(main.metadata.resourceVersion, st.metadata.resourceVersion, 'nothing changed: no new revision');

  // While being deleted, /status still writes; the object stays until the finalizer is removed.
  const deleting = (await c.custom.deleteNamespacedCustomObject({ ...base, name: 'st' })) as Obj;
  const late = (await c.custom.replaceNamespacedCustomObjectStatus({
    ...base,
    name: 'st',
    body: { ...deleting, status: { phase: 'Terminating', observedGeneration: deleting.metadata.generation } },
  })) as Obj;
  assert.equal(late.status?.phase, 'Terminating');
  assert.equal(late.metadata.deletionTimestamp?.toString(), deleting.metadata.deletionTimestamp?.toString());
  await c.custom.patchNamespacedCustomObject({ ...base, name: 'st', body: { metadata: { finalizers: null } } }, patchAs(k8s.PatchStrategy.MergePatch));
  const left = (await c.custom.listNamespacedCustomObject(base)) as CronTabList;
  assert.deepEqual(left.items, []);
});
