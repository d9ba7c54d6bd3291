// The seed's "Finalizers" section through kubectl: an object with a finalizer survives its first delete
// with a deletionTimestamp, takes no new finalizers, and goes once its finalizers are removed; propagation
// flags cascade through the garbage collector; a namespace waits for the finalizers of its content.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

const crdYaml = readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8');

// The seed's example: a CronTab with a finalizer.
const finalizedCronTab = (name: string): string => `apiVersion: "stable.example.com/v1"
kind: CronTab
metadata:
  name: ${name}
  finalizers:
  - stable.example.com/finalizer
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
`;

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
  let r = await s.kubectl(['apply', '-f', s.file('crd.yaml', crdYaml)]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
});
after(async () => {
  await s?.close();
});

const getYaml = async (args: string[]): Promise<Record<string, any>> => {
  const r = await s.kubectl(['get', ...args, '-o', 'yaml']);
  assert.equal(r.code, 0, r.stderr);
  return parseYaml(r.stdout) as Record<string, any>;
};

test('seed: the first delete sets deletionTimestamp; removing the finalizer deletes the object', async () => {
  let r = await s.kubectl(['apply', '-f', s.file('fin.yaml', finalizedCronTab('my-new-cron-object'))]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object created');

  r = await s.kubectl(['delete', 'crontab', 'my-new-cron-object', '--wait=false']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com "my-new-cron-object" deleted');

  // Still there, marked.
  r = await s.kubectl(['get', 'crontab']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(squeeze(r.stdout), /^NAME AGE\nmy-new-cron-object \d+s$/);
  const obj = await getYaml(['crontab', 'my-new-cron-object']);
  assert.match(obj['metadata'].deletionTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(obj['metadata'].deletionGracePeriodSeconds, 0);
  assert.deepEqual(obj['metadata'].finalizers, ['stable.example.com/finalizer']);
  assert.equal(obj['metadata'].generation, 2);

  // A waiting delete times out while the finalizer is there. (client-go may log its cancelled watch
  // first: the last line is kubectl's.)
  r = await s.kubectl(['delete', 'crontab', 'my-new-cron-object', '--timeout=1s']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com "my-new-cron-object" deleted');
  assert.equal(r.stderr.trim().split('\n').at(-1), 'error: timed out waiting for the condition on crontabs/my-new-cron-object');

  // While any finalizer remains, the deletion cannot be forced either.
  r = await s.kubectl(['delete', 'crontab', 'my-new-cron-object', '--force', '--grace-period=0', '--wait=false']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com "my-new-cron-object" force deleted');
  r = await s.kubectl(['get', 'crontab', 'my-new-cron-object', '-o', 'jsonpath={.metadata.deletionTimestamp} {.metadata.finalizers}']);
  assert.equal(r.stdout, `${obj['metadata'].deletionTimestamp} ["stable.example.com/finalizer"]`);

  // A server-side dry run reports the deletion and changes nothing.
  r = await s.kubectl(['delete', 'crontab', 'my-new-cron-object', '--dry-run=server']);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com "my-new-cron-object" deleted (server dry run)');

  // Once deleting, finalizers can only be removed.
  r = await s.kubectl([
    'patch',
    'crontab',
    'my-new-cron-object',
    '--type=merge',
    '-p',
    '{"metadata":{"finalizers":["stable.example.com/finalizer","example.com/other"]}}',
  ]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr.trim(),
    'The CronTab "my-new-cron-object" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/other"}',
  );

  // The controller's part, done by hand: remove the finalizer, and the object is gone.
  r = await s.kubectl(['patch', 'crontab', 'my-new-cron-object', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers/0"}]']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object patched');
  r = await s.kubectl(['get', 'crontab', 'my-new-cron-object']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim(), 'Error from server (NotFound): crontabs.stable.example.com "my-new-cron-object" not found');
});

const dependent = (name: string, owner: { name: string; uid: string }, extra = ''): string => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
  ownerReferences:
  - apiVersion: stable.example.com/v1
    kind: CronTab
    name: ${owner.name}
    uid: ${owner.uid}
    blockOwnerDeletion: true
${extra}spec:
  cronSpec: "* * * * */5"
`;

async function ownerNamed(name: string): Promise<{ name: string; uid: string }> {
  let r = await s.kubectl(['apply', '-f', '-'], { stdin: `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\nspec:\n  cronSpec: "x"\n` });
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['get', 'crontab', name, '-o', 'jsonpath={.metadata.uid}']);
  return { name, uid: r.stdout };
}

test('kubectl delete --cascade=foreground|orphan|background, with the garbage collector acting as on a cluster', async () => {
  // Foreground: the owner waits, marked, with the foregroundDeletion finalizer while a blocking dependent lingers.
  const fg = await ownerNamed('cascade-fg');
  let r = await s.kubectl(['apply', '-f', '-'], { stdin: dependent('cascade-fg-dep', fg, '  finalizers:\n  - stable.example.com/finalizer\n') });
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['delete', 'crontab', 'cascade-fg', '--cascade=foreground', '--wait=false']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['get', 'crontab', 'cascade-fg', '-o', 'jsonpath={.metadata.finalizers}']);
  assert.equal(r.stdout, '["foregroundDeletion"]');
  r = await s.kubectl(['wait', '--for=jsonpath={.metadata.deletionGracePeriodSeconds}=0', 'crontab/cascade-fg-dep', '--timeout=10s']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['patch', 'crontab', 'cascade-fg-dep', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for=delete', 'crontab/cascade-fg', '--timeout=10s']);
  assert.equal(r.code, 0, r.stderr);
  // Orphan: kubectl waits for the owner; the dependent stays, without its reference.
  const or = await ownerNamed('cascade-or');
  r = await s.kubectl(['apply', '-f', '-'], { stdin: dependent('cascade-or-dep', or) });
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['delete', 'crontab', 'cascade-or', '--cascade=orphan', '--timeout=10s']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com "cascade-or" deleted');
  r = await s.kubectl(['get', 'crontab', 'cascade-or-dep', '-o', 'jsonpath={.metadata.ownerReferences}']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  // Background (kubectl's default): the owner goes at once, the dependent after it.
  const bg = await ownerNamed('cascade-bg');
  r = await s.kubectl(['apply', '-f', '-'], { stdin: dependent('cascade-bg-dep', bg) });
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['delete', 'crontab', 'cascade-bg']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for=delete', 'crontab/cascade-bg-dep', '--timeout=10s']);
  assert.equal(r.code, 0, r.stderr);
  await s.kubectl(['delete', 'crontab', 'cascade-or-dep']);
});

test('a deleted namespace stays Terminating while its content has finalizers', async () => {
  let r = await s.kubectl(['create', 'namespace', 'gone']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['apply', '-n', 'gone', '-f', s.file('in-ns.yaml', finalizedCronTab('held'))]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['delete', 'namespace', 'gone', '--wait=false']);
  assert.equal(r.stdout.trim(), 'namespace "gone" deleted');

  const conditions = async (): Promise<string> =>
    (await s.kubectl(['get', 'ns', 'gone', '-o', 'jsonpath={range .status.conditions[*]}{.type}={.status} {.reason}: {.message}{"\\n"}{end}'])).stdout;
  const deadline = Date.now() + 10_000;
  let text = await conditions();
  while (!text.includes('NamespaceFinalizersRemaining=True') && Date.now() < deadline) {
    await new Promise((res) => setTimeout(res, 100));
    text = await conditions();
  }
  assert.equal(
    text,
    [
      'NamespaceDeletionDiscoveryFailure=False ResourcesDiscovered: All resources successfully discovered',
      'NamespaceDeletionGroupVersionParsingFailure=False ParsedGroupVersions: All legacy kube types successfully parsed',
      'NamespaceDeletionContentFailure=False ContentDeleted: All content successfully deleted, may be waiting on finalization',
      'NamespaceContentRemaining=True SomeResourcesRemain: Some resources are remaining: crontabs.stable.example.com has 1 resource instances',
      'NamespaceFinalizersRemaining=True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: stable.example.com/finalizer in 1 resource instances',
      '',
    ].join('\n'),
  );
  r = await s.kubectl(['get', 'namespace', 'gone']);
  assert.match(squeeze(r.stdout), /^NAME STATUS AGE\ngone Terminating \d+s$/);
  r = await s.kubectl(['get', 'crontab', '-n', 'gone', 'held', '-o', 'jsonpath={.metadata.deletionTimestamp}']);
  assert.match(r.stdout, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  // Deleting it again is no error while it terminates.
  r = await s.kubectl(['delete', 'namespace', 'gone', '--wait=false']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'namespace "gone" deleted');

  r = await s.kubectl(['patch', '-n', 'gone', 'crontab', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for=delete', 'namespace/gone', '--timeout=10s']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['get', 'namespace', 'gone']);
  assert.equal(r.stderr.trim(), 'Error from server (NotFound): namespaces "gone" not found');
});

test('a deleted CRD waits for the finalizers of its objects', async () => {
  const widgets = crdYaml
    .replace('name: crontabs.stable.example.com', 'name: widgets.example.org')
    .replace('group: stable.example.com', 'group: example.org')
    .replace('plural: crontabs', 'plural: widgets')
    .replace('singular: crontab', 'singular: widget')
    .replace('kind: CronTab', 'kind: Widget')
    .replace(/shortNames:\n\s+- ct/, 'shortNames:\n    - wd');
  let r = await s.kubectl(['apply', '-f', s.file('widgets.yaml', widgets)]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.org']);
  assert.equal(r.code, 0, r.stderr);
  const w = finalizedCronTab('w1').replace('stable.example.com/v1', 'example.org/v1').replace('kind: CronTab', 'kind: Widget');
  r = await s.kubectl(['apply', '-f', s.file('w1.yaml', w)]);
  assert.equal(r.code, 0, r.stderr);

  r = await s.kubectl(['delete', 'crd', 'widgets.example.org', '--wait=false']);
  assert.equal(r.stdout.trim(), 'customresourcedefinition.apiextensions.k8s.io "widgets.example.org" deleted');
  const condition = async (): Promise<string> =>
    (await s.kubectl(['get', 'crd', 'widgets.example.org', '-o', 'jsonpath={.status.conditions[?(@.type=="Terminating")].reason}'])).stdout;
  const deadline = Date.now() + 10_000;
  while ((await condition()) !== 'InstanceDeletionInProgress' && Date.now() < deadline) await new Promise((res) => setTimeout(res, 100));
  assert.equal(await condition(), 'InstanceDeletionInProgress');
  r = await s.kubectl(['get', 'widget', 'w1', '-o', 'jsonpath={.metadata.deletionTimestamp}']);
  assert.match(r.stdout, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  // New objects are refused while the CRD terminates.
  r = await s.kubectl(['create', '-f', s.file('w2.yaml', w.replace('name: w1', 'name: w2'))]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim(), 'Error from server (MethodNotAllowed): error when creating "' + s.file('w2.yaml', w.replace('name: w1', 'name: w2')) + '": create not allowed while custom resource definition is terminating');

  // Discovery lists the verbs a terminating CRD still serves.
  r = await s.kubectl(['api-resources', '--api-group=example.org', '-o', 'wide', '--no-headers']);
  assert.match(squeeze(r.stdout), /^widgets wd example\.org\/v1 true Widget delete,deletecollection,get,list,watch$/);

  r = await s.kubectl(['patch', 'widget', 'w1', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for=delete', 'crd/widgets.example.org', '--timeout=10s']);
  assert.equal(r.code, 0, r.stderr);
});
