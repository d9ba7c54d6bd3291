// Watch streams over HTTP: initial events, resume from a resourceVersion, selector transitions,
// bookmarks, timeouts, initial-events-end, and 410 Gone after compaction.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, cronTab, type Api } from './helpers.js';
import { openWatch, type Stream } from './watch-stream.js';

let api: Api;
const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';
before(async () => {
  api = await startApi({ bookmarkIntervalMs: 100 });
  await installCronTab(api);
});
after(async () => {
  await api?.close();
});

const watch = (path: string, headers: Record<string, string> = {}): Promise<Stream> => openWatch(api, path, headers);

const summary = (ev: any): string => `${ev.type} ${ev.object.metadata?.name ?? ''}`;

test('a watch without resourceVersion starts with the current objects, then follows changes', async () => {
  await api.req('POST', base, cronTab('w1'));
  const w = await watch(`${base}?watch=true&fieldSelector=metadata.name%3Dw1`);
  try {
    assert.equal(summary(await w.next()), 'ADDED w1');
    await api.req('PATCH', `${base}/w1`, { spec: { replicas: 1 } }, { 'Content-Type': 'application/merge-patch+json' });
    const mod = await w.next();
    assert.equal(summary(mod), 'MODIFIED w1');
    assert.equal(mod.object.spec.replicas, 1);
    await api.req('DELETE', `${base}/w1`);
    const ev = await w.next();
    assert.equal(summary(ev), 'DELETED w1');
    assert.ok(Number(ev.object.metadata.resourceVersion) > Number(mod.object.metadata.resourceVersion), 'a delete has its own revision');
  } finally {
    w.close();
  }
});

test('a watch from a resourceVersion replays what came after it, in order', async () => {
  const first = await api.req('POST', base, cronTab('r1'));
  const rv = first.json.metadata.resourceVersion;
  await api.req('POST', base, cronTab('r2'));
  await api.req('DELETE', `${base}/r1`);
  const w = await watch(`${base}?watch=1&resourceVersion=${rv}`);
  try {
    assert.equal(summary(await w.next()), 'ADDED r2');
    assert.equal(summary(await w.next()), 'DELETED r1');
  } finally {
    w.close();
  }
});

test('objects entering and leaving a label selector are ADDED and DELETED', async () => {
  const w = await watch(`${base}?watch=true&labelSelector=tier%3Dgold&resourceVersion=${(await api.req('GET', base)).json.metadata.resourceVersion}`);
  try {
    await api.req('POST', base, cronTab('sel'));
    await api.req('PATCH', `${base}/sel`, { metadata: { labels: { tier: 'gold' } } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(summary(await w.next()), 'ADDED sel');
    const left = await api.req('PATCH', `${base}/sel`, { metadata: { labels: { tier: 'silver' } } }, { 'Content-Type': 'application/merge-patch+json' });
    const ev = await w.next();
    assert.equal(summary(ev), 'DELETED sel');
    // The object as it was when it last matched, at the resourceVersion of the change that made it leave.
    assert.deepEqual(ev.object.metadata.labels, { tier: 'gold' });
    assert.equal(ev.object.metadata.resourceVersion, left.json.metadata.resourceVersion);
  } finally {
    w.close();
  }
});

test('bookmarks carry the latest resourceVersion; timeoutSeconds ends the stream', async () => {
  const w = await watch(`${base}?watch=true&allowWatchBookmarks=true&timeoutSeconds=1&resourceVersion=1`);
  let sawBookmark = false;
  try {
    for (let i = 0; i < 50 && !sawBookmark; i++) {
      const ev = await w.next();
      if (ev.type === 'BOOKMARK') {
        sawBookmark = true;
        assert.equal(ev.object.kind, 'CronTab');
        assert.equal(ev.object.apiVersion, 'stable.example.com/v1');
        assert.match(ev.object.metadata.resourceVersion, /^\d+$/);
      }
    }
    assert.ok(sawBookmark);
    const start = Date.now();
    await w.ended;
    assert.ok(Date.now() - start < 3000);
  } finally {
    w.close();
  }
});

test('sendInitialEvents ends the initial objects with an annotated bookmark', async () => {
  await api.req('POST', base, cronTab('init'));
  const w = await watch(
    `${base}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dinit`,
  );
  try {
    assert.equal(summary(await w.next()), 'ADDED init');
    const bm = await w.next();
    assert.equal(bm.type, 'BOOKMARK');
    assert.deepEqual(bm.object.metadata.annotations, { 'k8s.io/initial-events-end': 'true' });
  } finally {
    w.close();
  }
  const bad = await api.req("GET", `${base}?watch=true&sendInitialEvents=true`);
  assert.equal(bad.status, 422);
});

test('a watch from a compacted resourceVersion gets a 410 Expired ERROR event', async () => {
  const c = await api.req('POST', base, cronTab('old'));
  const rv = Number(c.json.metadata.resourceVersion);
  await api.req('POST', base, cronTab('newer'));
  await api.kv.compact(rv + 1);
  const w = await watch(`${base}?watch=true&resourceVersion=${rv - 1}`);
  const ev = await w.next();
  assert.equal(ev.type, 'ERROR');
  assert.equal(ev.object.kind, 'Status');
  assert.equal(ev.object.code, 410);
  assert.equal(ev.object.reason, 'Expired');
  assert.match(ev.object.message, /^too old resource version: \d+ \(\d+\)$/);
  await w.ended;
});

test('a list at a compacted resourceVersion is 410 Expired', async () => {
  const c = await api.req('POST', base, cronTab('listold'));
  const rv = Number(c.json.metadata.resourceVersion);
  await api.req('POST', base, cronTab('listnewer'));
  await api.kv.compact(rv + 1);
  const r = await api.req('GET', `${base}?resourceVersion=${rv - 1}&resourceVersionMatch=Exact`);
  assert.equal(r.status, 410);
  assert.equal(r.json.reason, 'Expired');
  assert.equal(r.json.message, 'The resourceVersion for the provided list is too old.');
});

const rvOf = (ev: any): number => Number(ev.object.metadata.resourceVersion);

test('bookmarks of a watch with initial events never go below the snapshot those events came from', async () => {
  const first = await api.req('POST', base, cronTab('snap'));
  await api.req('POST', base, cronTab('snap-other'));
  const w = await watch(`${base}?watch=true&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dsnap`);
  try {
    const added = await w.next();
    assert.equal(summary(added), 'ADDED snap');
    assert.equal(added.object.metadata.resourceVersion, first.json.metadata.resourceVersion);
    // The snapshot is newer than the object: no bookmark may carry the object's revision.
    const snapshot = Number((await api.req('GET', base)).json.metadata.resourceVersion);
    assert.ok(snapshot > rvOf(added));
    const other = await api.req('PATCH', `${base}/snap-other`, { spec: { replicas: 2 } }, { 'Content-Type': 'application/merge-patch+json' });
    const bm = await w.next();
    assert.equal(bm.type, 'BOOKMARK');
    assert.equal(bm.object.metadata.resourceVersion, other.json.metadata.resourceVersion);
  } finally {
    w.close();
  }
});

test('bookmarks of a filtered watch carry the resource\'s newest revision, not the last event the watch got', async () => {
  const start = (await api.req('GET', base)).json.metadata.resourceVersion;
  const w = await watch(`${base}?watch=true&allowWatchBookmarks=true&labelSelector=tier%3Dnone&resourceVersion=${start}`);
  try {
    await api.req('POST', base, cronTab('unseen-1'));
    const last = await api.req('POST', base, cronTab('unseen-2'));
    let bm = await w.next();
    while (rvOf(bm) < Number(last.json.metadata.resourceVersion)) bm = await w.next();
    assert.equal(bm.type, 'BOOKMARK');
    assert.equal(bm.object.metadata.resourceVersion, last.json.metadata.resourceVersion);
    assert.equal(bm.object.kind, 'CronTab');
  } finally {
    w.close();
  }
});

test('a watch whose resource has not changed since it started sends no bookmark', async () => {
  const start = (await api.req('GET', base)).json.metadata.resourceVersion;
  const w = await watch(`${base}?watch=true&allowWatchBookmarks=true&timeoutSeconds=1&resourceVersion=${start}`);
  await w.ended;
  await assert.rejects(w.next(), /stream ended/);
});

// client-go's metadata client puts a protobuf clause first, which is answered in protobuf
// (test/server/protobuf-responses.test.ts); these read the JSON form of the same watch.
const METADATA_ONLY = { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json' };

test('a metadata-only watch of custom resources streams PartialObjectMetadata, bookmarks included', async () => {
  const start = (await api.req('GET', base)).json.metadata.resourceVersion;
  const w = await watch(`${base}?watch=true&allowWatchBookmarks=true&resourceVersion=${start}`, METADATA_ONLY);
  try {
    const made = await api.req('POST', base, { ...cronTab('meta-only'), metadata: { name: 'meta-only', labels: { a: 'b' } } });
    const ev = await w.next();
    assert.equal(ev.type, 'ADDED');
    assert.deepEqual(Object.keys(ev.object), ['kind', 'apiVersion', 'metadata']);
    assert.equal(ev.object.kind, 'PartialObjectMetadata');
    assert.equal(ev.object.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(ev.object.metadata, made.json.metadata);
    const bm = await w.next();
    assert.equal(bm.type, 'BOOKMARK');
    assert.deepEqual(bm.object, {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: made.json.metadata.resourceVersion, creationTimestamp: null },
    });
  } finally {
    w.close();
  }
});

test('a metadata-only watch of a built-in resource streams PartialObjectMetadata', async () => {
  const w = await watch('/api/v1/namespaces?watch=true&fieldSelector=metadata.name%3Ddefault', {
    Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1',
  });
  try {
    const ev = await w.next();
    assert.equal(ev.type, 'ADDED');
    assert.equal(ev.object.kind, 'PartialObjectMetadata');
    assert.equal(ev.object.apiVersion, 'meta.k8s.io/v1beta1');
    assert.equal(ev.object.metadata.name, 'default');
    assert.equal(ev.object.spec, undefined);
    assert.equal(ev.object.status, undefined);
  } finally {
    w.close();
  }
});
