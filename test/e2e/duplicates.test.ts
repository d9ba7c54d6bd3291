// Duplicate keys through kubectl: kubectl reads a YAML file, converts it to JSON (the last key wins) and sends
// that, so the server never sees the duplicate; what kubectl itself says about it is what this pins down.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
  const crd = await s.kubectl(['apply', '-f', 'test/fixtures/crontab-crd.yaml']);
  assert.equal(crd.code, 0, crd.stderr);
  const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd', '--all']);
  assert.equal(w.code, 0, w.stderr);
});
after(() => s.close());

const manifest = (name: string, labels = ''): string => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
${labels}spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 1
  replicas: 3
`;

test('kubectl create -f: the client converts YAML to JSON and drops duplicates itself (last wins), silently', async () => {
  for (const [name, args] of [['dup-a', []], ['dup-b', ['--validate=false']]] as const) {
    const r = await s.kubectl(['create', ...args, '-f', s.file(`${name}.yaml`, manifest(name, '  labels:\n    a: "1"\n    a: "2"\n'))]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `crontab.stable.example.com/${name} created\n`);
    assert.equal(r.stderr, ''); // no Warning: the server never saw a duplicate
    const g = await s.kubectl(['get', 'crontab', name, '-o', 'json']);
    const obj = JSON.parse(g.stdout);
    assert.equal(obj.spec.replicas, 3);
    assert.deepEqual(obj.metadata.labels, { a: '2' });
  }
});

test('kubectl create --raw sends the bytes as they are: the server warns of the duplicate', async () => {
  const text = '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"dup-raw"},"spec":{"replicas":1,"replicas":2}}';
  const r = await s.kubectl(['create', '--raw', '/apis/stable.example.com/v1/namespaces/default/crontabs', '-f', s.file('raw.json', text)]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, 'Warning: duplicate field "spec.replicas"\n');
  assert.equal(JSON.parse(r.stdout).spec.replicas, 2);
  const strict = await s.kubectl(['create', '--raw', '/apis/stable.example.com/v1/namespaces/default/crontabs?fieldValidation=Strict', '-f', s.file('raw2.json', text.replace('dup-raw', 'dup-raw2'))]);
  assert.notEqual(strict.code, 0);
  assert.match(strict.stderr, /cannot be handled as a CronTab: strict decoding error: duplicate field \\?"spec.replicas\\?"/);
});
