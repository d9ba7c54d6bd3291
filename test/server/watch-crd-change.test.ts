// A change to a CRD's spec rebuilds its storage, as crdHandler does: watches on the old storage end (the
// stream simply stops, no event), so clients watch again and get objects under the new schema.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, cronTab, CRONTAB_CRD, type Api } from './helpers.js';
import { openWatch } from './watch-stream.js';

let api: Api;
const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com';
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };
before(async () => {
  api = await startApi();
  await installCronTab(api);
});
after(async () => {
  await api?.close();
});

test('a change to the CRD spec ends the watches of its resources, without an event', async () => {
  await api.req('POST', base, cronTab('before'));
  const w = await openWatch(api, `${base}?watch=true&timeoutSeconds=10`);
  assert.equal((await w.next()).type, 'ADDED');
  const changed = structuredClone(CRONTAB_CRD.spec.versions[0]!) as any;
  changed.schema.openAPIV3Schema.properties.spec.properties.color = { type: 'string' };
  const started = Date.now();
  const r = await api.req('PATCH', crdPath, { spec: { versions: [changed] } }, mergePatch);
  assert.equal(r.status, 200, r.text);
  await w.ended;
  const ms = Date.now() - started;
  assert.ok(ms >= 900 && ms < 4000, `the watch ended ${ms} ms after the change`);
  await assert.rejects(w.next(), /stream ended/);

  // A new watch is served by the new storage: the new field is kept.
  const again = await openWatch(api, `${base}?watch=true&fieldSelector=metadata.name%3Dcolored`);
  try {
    await api.req('POST', base, { ...cronTab('colored'), spec: { color: 'blue' } });
    const ev = await again.next();
    assert.equal(ev.type, 'ADDED');
    assert.equal(ev.object.spec.color, 'blue');
  } finally {
    again.close();
  }
});

test('a change to the CRD outside its spec leaves the watches open', async () => {
  const start = (await api.req('GET', base)).json.metadata.resourceVersion;
  const w = await openWatch(api, `${base}?watch=true&resourceVersion=${start}`);
  try {
    const r = await api.req('PATCH', crdPath, { metadata: { labels: { touched: 'yes' } } }, mergePatch);
    assert.equal(r.status, 200, r.text);
    await new Promise((res) => setTimeout(res, 1500));
    await api.req('POST', base, cronTab('after-label'));
    const ev = await w.next();
    assert.equal(ev.type, 'ADDED');
    assert.equal(ev.object.metadata.name, 'after-label');
  } finally {
    w.close();
  }
});
