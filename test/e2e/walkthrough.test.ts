// The seed walkthrough ("Create a CustomResourceDefinition", "Create custom objects", "Delete a
// CustomResourceDefinition") through kubectl, output included.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

const crdYaml = readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8');
const crYaml = readFileSync(new URL('../fixtures/my-crontab.yaml', import.meta.url), 'utf8');

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

test('seed walkthrough: create the CRD, objects, read them back, delete the CRD', async () => {
  const crdFile = s.file('resourcedefinition.yaml', crdYaml);
  const crFile = s.file('my-crontab.yaml', crYaml);

  let r = await s.kubectl(['apply', '-f', crdFile]);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout.trim(), 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created');

  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met');

  r = await s.kubectl(['apply', '-f', crFile]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object created');

  r = await s.kubectl(['get', 'crontab']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(squeeze(r.stdout), /^NAME AGE\nmy-new-cron-object \d+s$/);

  // Plural, singular, short name, kind and the fully qualified forms all resolve.
  for (const name of ['crontabs', 'crontab', 'ct', 'CronTab', 'crontabs.stable.example.com', 'crontabs.v1.stable.example.com']) {
    r = await s.kubectl(['get', name, 'my-new-cron-object', '-o', 'name']);
    assert.equal(r.code, 0, `${name}: ${r.stderr}`);
    assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object');
  }

  r = await s.kubectl(['get', 'ct', '-o', 'yaml']);
  assert.equal(r.code, 0, r.stderr);
  const list = parseYaml(r.stdout) as Record<string, any>;
  assert.equal(list['apiVersion'], 'v1');
  assert.equal(list['kind'], 'List');
  assert.equal(list['items'].length, 1);
  const item = list['items'][0];
  assert.equal(item.apiVersion, 'stable.example.com/v1');
  assert.equal(item.kind, 'CronTab');
  assert.deepEqual(item.spec, { cronSpec: '* * * * */5', image: 'my-awesome-cron-image' });
  assert.equal(item.metadata.name, 'my-new-cron-object');
  assert.equal(item.metadata.namespace, 'default');
  assert.equal(item.metadata.generation, 1);
  assert.match(item.metadata.uid, /^[0-9a-f-]{36}$/);
  assert.match(item.metadata.resourceVersion, /^\d+$/);
  assert.match(item.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(
    item.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'].trim(),
    '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"annotations":{},"name":"my-new-cron-object","namespace":"default"},"spec":{"cronSpec":"* * * * */5","image":"my-awesome-cron-image"}}',
  );
  // The seed prints the list's metadata as kubectl renders it.
  assert.match(r.stdout, /kind: List\nmetadata:\n {2}resourceVersion: ""\n/);

  // Applying the same file again changes nothing.
  r = await s.kubectl(['apply', '-f', crFile]);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object unchanged');

  r = await s.kubectl(['delete', '-f', crdFile]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted');

  r = await s.kubectl(['get', 'crontabs']);
  assert.notEqual(r.code, 0);
  // The seed's kubectl printed the resource as {"stable.example.com" "v1" "crontabs"}; kubectl 1.27 and later
  // render the same GroupVersionResource as "stable.example.com/v1, Resource=crontabs". The server's part is the same.
  assert.equal(
    r.stderr.trim(),
    'Error from server (NotFound): Unable to list "stable.example.com/v1, Resource=crontabs": the server could not find the requested resource (get crontabs.stable.example.com)',
  );

  // Recreated, it starts out empty.
  r = await s.kubectl(['apply', '-f', crdFile]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['get', 'crontabs']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr.trim(), 'No resources found in default namespace.');
});
