// `serve --storage etcd` end to end: kubectl against a server whose state is in etcd (a throwaway
// etcd this test starts): a CRD and its custom resources, a watch, the keys and JSON values as
// kube-apiserver lays them out, and a restart of the server that keeps everything.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Etcd3 } from 'etcd3';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';
import { requireEtcd, startEtcd, type EtcdProcess } from '../storage/etcd-process.js';

const crdYaml = readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8');
const cron = (name: string, replicas = 1): string =>
  `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\nspec:\n  cronSpec: "* * * * */5"\n  image: img\n  replicas: ${replicas}\n`;

let etcd: EtcdProcess;
let s: TestServer | undefined;
before(async () => {
  requireKubectl();
  requireEtcd();
  etcd = await startEtcd();
});
after(async () => {
  await s?.close();
  await etcd?.destroy();
});

const start = () => startTestServer({ etcd: { servers: [etcd.url], prefix: '/registry' } });

test('kubectl on etcd: a CRD, custom resources, a watch, and a restart that keeps the state', async () => {
  s = await start();
  let r = await s.kubectl(['apply', '-f', s.file('crd.yaml', crdYaml)]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['create', '-f', '-'], { stdin: cron('first') });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/first created');

  // A watch sees what is written after it starts.
  const child = spawn('kubectl', ['--kubeconfig', s.kubeconfig, 'get', 'crontabs', '-w', '--output-watch-events'], {
    env: { ...process.env, HOME: s.home },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const waitFor = async (re: RegExp): Promise<void> => {
    for (let i = 0; i < 100 && !re.test(out); i++) await new Promise((res) => setTimeout(res, 100));
    assert.match(out, re);
  };
  try {
    await waitFor(/ADDED\s+first\s+\d+s/);
    r = await s.kubectl(['create', '-f', '-'], { stdin: cron('second') });
    assert.equal(r.code, 0, r.stderr);
    await waitFor(/ADDED\s+second\s+\d+s/);
    r = await s.kubectl(['patch', 'crontab', 'second', '--type=merge', '-p', '{"spec":{"replicas":3}}']);
    assert.equal(r.code, 0, r.stderr);
    await waitFor(/MODIFIED\s+second\s+\d+s/);
    r = await s.kubectl(['create', '-f', '-'], { stdin: cron('doomed') });
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['delete', 'crontab', 'doomed']);
    assert.equal(r.code, 0, r.stderr);
    await waitFor(/DELETED\s+doomed\s+\d+s/);
  } finally {
    child.kill();
  }

  // resourceVersions are etcd revisions; a stale one is a conflict.
  const got = JSON.parse((await s.kubectl(['get', 'crontab', 'second', '-o', 'json'])).stdout);
  const raw = new Etcd3({ hosts: etcd.url });
  try {
    const key = '/registry/stable.example.com/crontabs/default/second';
    const stored = await raw.get(key).exec();
    assert.equal(stored.kvs.length, 1);
    assert.equal(got.metadata.resourceVersion, stored.kvs[0]!.mod_revision);
    // Custom resources are stored as JSON, as kube-apiserver stores them.
    const value = JSON.parse(stored.kvs[0]!.value.toString());
    assert.equal(value.kind, 'CronTab');
    assert.equal(value.spec.replicas, 3);
    assert.equal(value.metadata.uid, got.metadata.uid);
    assert.ok(await raw.get('/registry/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com').exec().then((x) => x.kvs.length === 1));
    assert.ok(await raw.get('/registry/namespaces/default').exec().then((x) => x.kvs.length === 1));
  } finally {
    raw.close();
  }
  const stale = { ...got, metadata: { ...got.metadata, resourceVersion: String(Number(got.metadata.resourceVersion) - 1) } };
  r = await s.kubectl(['replace', '-f', '-'], { stdin: JSON.stringify(stale) });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /the object has been modified; please apply your changes to the latest version and try again/);

  // A new server, with a new data directory, on the same etcd: everything is still there.
  await s.close();
  s = await start();
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['get', 'crontabs', '-o', 'custom-columns=NAME:.metadata.name,REPLICAS:.spec.replicas,UID:.metadata.uid']);
  assert.equal(r.code, 0, r.stderr);
  const rows = squeeze(r.stdout).split('\n');
  assert.deepEqual(rows.slice(0, 3).map((l) => l.split(' ').slice(0, 2).join(' ')), ['NAME REPLICAS', 'first 1', 'second 3']);
  assert.equal(rows.length, 3);
  assert.ok(rows[2]!.endsWith(got.metadata.uid));
  // Writes continue on the same revision counter.
  r = await s.kubectl(['create', '-f', '-'], { stdin: cron('third') });
  assert.equal(r.code, 0, r.stderr);
  const third = JSON.parse((await s.kubectl(['get', 'crontab', 'third', '-o', 'json'])).stdout);
  assert.ok(Number(third.metadata.resourceVersion) > Number(got.metadata.resourceVersion));

  // After compaction, a watch from an older resourceVersion ends with 410 Expired, from etcd's history.
  await s.kv.compact(Number(third.metadata.resourceVersion));
  const oldRv = got.metadata.resourceVersion as string;
  r = await s.kubectl(['get', '--raw', `/apis/stable.example.com/v1/namespaces/default/crontabs?watch=1&resourceVersion=${oldRv}`], { timeoutMs: 20_000 });
  assert.equal(r.code, 0, r.stderr);
  const ev = JSON.parse(r.stdout.trim()) as { type: string; object: { code: number; reason: string; message: string } };
  assert.equal(ev.type, 'ERROR');
  assert.equal(ev.object.code, 410);
  assert.equal(ev.object.reason, 'Expired');
  assert.match(ev.object.message, new RegExp(`^too old resource version: ${oldRv} \\(${third.metadata.resourceVersion}\\)$`));
});
