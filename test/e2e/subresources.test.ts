// The seed's "Subresources" example through kubectl: a CRD with status and scale, `kubectl scale`, and
// `--subresource=scale` reads and patches (HTTP details are in test/server/subresources.test.ts and scale.test.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { requireKubectl, squeeze, startTestServer, type TestServer } from './harness.js';

// The seed's CRD with status and scale (and a maximum on replicas, for validation through /scale).
const CRD = readFileSync(new URL('../fixtures/crontab-subresources-crd.yaml', import.meta.url), 'utf8');

const CRONTAB = `apiVersion: "stable.example.com/v1"
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 3
`;

let s: TestServer;

before(async () => {
  requireKubectl();
  s = await startTestServer();
  let r = await s.kubectl(['apply', '-f', s.file('crd.yaml', CRD)]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['apply', '-f', s.file('my-crontab.yaml', CRONTAB)]);
  assert.equal(r.code, 0, r.stderr);
});
after(async () => {
  await s?.close();
});

test('kubectl scale sets .spec.replicas, as the seed shows', async () => {
  const r = await s.kubectl(['scale', '--replicas=5', 'crontabs/my-new-cron-object']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object scaled');
  const g = await s.kubectl(['get', 'crontabs', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas}']);
  assert.equal(g.stdout, '5');
  // A change to spec through /scale is a spec change: the generation moves.
  const gen = await s.kubectl(['get', 'crontabs', 'my-new-cron-object', '-o', 'jsonpath={.metadata.generation}']);
  assert.equal(gen.stdout, '2');
});

test('kubectl get and patch --subresource=scale', async () => {
  let r = await s.kubectl(['patch', 'crontab', 'my-new-cron-object', '--subresource=scale', '--type=merge', '-p', '{"spec":{"replicas":6}}']);
  assert.equal(r.code, 0, r.stderr);
  // kubectl names what the server returned: a Scale.
  assert.equal(r.stdout.trim(), 'scale.autoscaling/my-new-cron-object patched');
  r = await s.kubectl(['get', 'crontab', 'my-new-cron-object', '--subresource=scale', '-o', 'jsonpath={.kind} {.apiVersion} {.spec.replicas} {.status.replicas}']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Scale autoscaling/v1 6 0');
});

test('status: kubectl patch, get and edit --subresource=status; main-resource writes leave status alone', async () => {
  let r = await s.kubectl(['patch', 'crontab', 'my-new-cron-object', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":3,"labelSelector":"app=cron"}}']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object patched');
  r = await s.kubectl(['get', 'crontab', 'my-new-cron-object', '--subresource=status', '-o', 'jsonpath={.status.replicas} {.status.labelSelector} {.metadata.generation}']);
  assert.equal(r.stdout, '3 app=cron 3');
  // Through the main resource, status does not change: kube reports no change.
  r = await s.kubectl(['patch', 'crontab', 'my-new-cron-object', '--type=merge', '-p', '{"status":{"replicas":9}}']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object patched (no change)');
  // Through /status, spec does not change.
  r = await s.kubectl(['patch', 'crontab', 'my-new-cron-object', '--subresource=status', '--type=merge', '-p', '{"spec":{"replicas":1}}']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['get', 'crontab', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas} {.status.replicas}']);
  assert.equal(r.stdout, '6 3');
  // kubectl edit --subresource=status: the editor changes status.replicas from 3 to 33.
  const editor = s.file('editor.sh', "#!/bin/sh\nsed -i 's/^  replicas: 3$/  replicas: 33/' \"$1\"\n");
  chmodSync(editor, 0o755);
  r = await s.kubectl(['edit', 'crontab', 'my-new-cron-object', '--subresource=status'], { env: { KUBE_EDITOR: editor, EDITOR: editor } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object edited');
  r = await s.kubectl(['get', 'crontab', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas} {.status.replicas}']);
  assert.equal(r.stdout, '6 33');
});

test('kubectl scale with preconditions goes through GET and PUT of the Scale', async () => {
  let r = await s.kubectl(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas}']);
  const current = r.stdout;
  // --current-replicas: kubectl reads the Scale, checks it, and PUTs it back with its resourceVersion.
  r = await s.kubectl(['scale', `--current-replicas=${current}`, '--replicas=2', 'crontab/my-new-cron-object']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object scaled');
  r = await s.kubectl(['scale', '--current-replicas=9', '--replicas=4', 'crontab/my-new-cron-object']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim(), 'error: Expected replicas to be 9, was 2');
  r = await s.kubectl(['scale', '--resource-version=1', '--replicas=4', 'crontab/my-new-cron-object']);
  assert.equal(r.code, 1);
  assert.match(r.stderr.trim(), /^error: Expected resource version to be 1, was \d+$/);
  // Server-side dry run answers without writing.
  r = await s.kubectl(['scale', '--replicas=7', 'crontab/my-new-cron-object', '--dry-run=server']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object scaled (server dry run)');
  r = await s.kubectl(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas}']);
  assert.equal(r.stdout, '2');
});

test('kubectl scale past the schema maximum: the resource is invalid', async () => {
  const r = await s.kubectl(['scale', '--replicas=11', 'crontab/my-new-cron-object']);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr.trim(),
    'The CronTab "my-new-cron-object" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
  );
});

test('kubectl get --subresource prints the Scale and status tables', async () => {
  let r = await s.kubectl(['get', 'crontab', 'my-new-cron-object', '--subresource=scale']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(squeeze(r.stdout), /^NAME DESIRED AVAILABLE AGE\nmy-new-cron-object 2 33 \d+s$/);
  r = await s.kubectl(['get', 'crontab', 'my-new-cron-object', '--subresource=status']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(squeeze(r.stdout), /^NAME AGE\nmy-new-cron-object \d+s$/);
  r = await s.kubectl(['get', 'crontab', 'my-new-cron-object', '--subresource=scale', '-o', 'yaml']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^apiVersion: autoscaling\/v1\nkind: Scale\nmetadata:\n/);
  assert.match(r.stdout, /\nspec:\n {2}replicas: 2\nstatus:\n {2}replicas: 33\n {2}selector: app=cron\n$/);
});

test('every kubectl from 1.27 to 1.33 scales and reads status', async () => {
  const dir = '/usr/lib/google-cloud-sdk/bin';
  const versions = ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'].filter((v) => existsSync(`${dir}/kubectl.${v}`));
  assert.ok(versions.length > 0, `no versioned kubectl found in ${dir}`);
  for (const [i, v] of versions.entries()) {
    const bin = `${dir}/kubectl.${v}`;
    let r = await s.kubectl(['scale', `--replicas=${i + 1}`, 'crontabs/my-new-cron-object'], { bin });
    assert.equal(r.code, 0, `${v}: ${r.stderr}`);
    r = await s.kubectl(['get', 'crontabs', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas}'], { bin });
    assert.equal(r.stdout, String(i + 1), v);
    r = await s.kubectl(['get', 'crontab', 'my-new-cron-object', '--subresource=status', '-o', 'jsonpath={.status.replicas}'], { bin });
    assert.equal(r.code, 0, `${v}: ${r.stderr}`);
    assert.equal(r.stdout, '33', v);
  }
});
