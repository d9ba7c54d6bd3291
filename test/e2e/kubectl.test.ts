// kubectl against the server beyond the seed walkthrough: discovery, printing, watch, create options,
// patches, namespaces, errors, and every kubectl version shipped here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

const crdYaml = readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8');
const cron = (name: string, extra = ''): string =>
  `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\n${extra}spec:\n  cronSpec: "* * * * */5"\n  image: my-awesome-cron-image\n`;

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
  const r = await s.kubectl(['apply', '-f', s.file('crd.yaml', crdYaml)]);
  assert.equal(r.code, 0, r.stderr);
  const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(w.code, 0, w.stderr);
});
after(async () => {
  await s?.close();
});

test('api-resources lists the built-ins and the CRD with short names and categories', async () => {
  const r = await s.kubectl(['api-resources']);
  assert.equal(r.code, 0, r.stderr);
  const lines = squeeze(r.stdout).split('\n');
  assert.equal(lines[0], 'NAME SHORTNAMES APIVERSION NAMESPACED KIND');
  assert.ok(lines.includes('namespaces ns v1 false Namespace'), r.stdout);
  assert.ok(lines.includes('configmaps cm v1 true ConfigMap'), r.stdout);
  assert.ok(lines.includes('secrets v1 true Secret'), r.stdout);
  assert.ok(lines.includes('serviceaccounts sa v1 true ServiceAccount'), r.stdout);
  assert.ok(lines.includes('leases coordination.k8s.io/v1 true Lease'), r.stdout);
  assert.ok(lines.includes('customresourcedefinitions crd,crds apiextensions.k8s.io/v1 false CustomResourceDefinition'), r.stdout);
  assert.ok(lines.includes('crontabs ct stable.example.com/v1 true CronTab'), r.stdout);
  const cat = await s.kubectl(['api-resources', '--categories=api-extensions', '-o', 'name']);
  // kube's api-extensions category: the webhook configurations, the admission policy kinds and CRDs (APIServices are not served here).
  assert.equal(
    cat.stdout.trim(),
    ['mutatingwebhookconfigurations.admissionregistration.k8s.io', 'validatingadmissionpolicies.admissionregistration.k8s.io', 'validatingadmissionpolicybindings.admissionregistration.k8s.io', 'validatingwebhookconfigurations.admissionregistration.k8s.io', 'customresourcedefinitions.apiextensions.k8s.io'].join('\n'),
  );
});

test('kubectl get crd prints NAME and CREATED AT', async () => {
  const r = await s.kubectl(['get', 'crd']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(squeeze(r.stdout), /^NAME CREATED AT\ncrontabs\.stable\.example\.com \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const y = await s.kubectl(['get', 'crd', 'crontabs.stable.example.com', '-o', 'yaml']);
  const crd = parseYaml(y.stdout) as any;
  assert.deepEqual(crd.status.acceptedNames, { kind: 'CronTab', listKind: 'CronTabList', plural: 'crontabs', shortNames: ['ct'], singular: 'crontab' });
  assert.deepEqual(crd.status.storedVersions, ['v1']);
  const types = crd.status.conditions.map((c: any) => `${c.type}=${c.status}`);
  assert.deepEqual(types, ['NamesAccepted=True', 'Established=True']);
  assert.equal(crd.spec.conversion.strategy, 'None');
});

test('create with generateName, server dry run, and get -o wide', async () => {
  let r = await s.kubectl(['create', '-f', '-'], {
    stdin: `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  generateName: gen-\nspec:\n  image: x\n`,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout.trim(), /^crontab\.stable\.example\.com\/gen-[bcdfghjklmnpqrstvwxz2456789]{5} created$/);

  r = await s.kubectl(['create', '--dry-run=server', '-f', '-'], { stdin: cron('dry') });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/dry created (server dry run)');
  r = await s.kubectl(['get', 'crontab', 'dry']);
  assert.equal(r.stderr.trim(), 'Error from server (NotFound): crontabs.stable.example.com "dry" not found');

  r = await s.kubectl(['get', 'crontabs', '-o', 'wide']);
  assert.match(squeeze(r.stdout), /^NAME AGE\ngen-\w{5} \d+s$/);
});

test('patches: merge, json, and strategic refused for custom resources', async () => {
  let r = await s.kubectl(['create', '-f', '-'], { stdin: cron('patchme') });
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['patch', 'crontab', 'patchme', '--type=merge', '-p', '{"spec":{"replicas":3}}']);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/patchme patched');
  r = await s.kubectl(['patch', 'crontab', 'patchme', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":4}]']);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/patchme patched');
  r = await s.kubectl(['get', 'crontab', 'patchme', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}']);
  assert.equal(r.stdout, '4 3');
  r = await s.kubectl(['patch', 'crontab', 'patchme', '--type=merge', '-p', '{"spec":{"replicas":4}}']);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/patchme patched (no change)');
  r = await s.kubectl(['patch', 'crontab', 'patchme', '--type=json', '-p', '[{"op":"test","path":"/spec/replicas","value":5}]']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /the server rejected our request due to an error in our request/);
  r = await s.kubectl(['label', 'crontab', 'patchme', 'team=a']);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/patchme labeled');
  r = await s.kubectl(['get', 'crontabs', '-l', 'team=a', '-o', 'name']);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/patchme');
  r = await s.kubectl(['get', 'crontabs', '--field-selector', 'metadata.name=patchme', '-o', 'name']);
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/patchme');
  r = await s.kubectl(['get', 'crontabs', '--field-selector', 'spec.image=x']);
  assert.equal(r.stderr.trim(), 'Error from server (BadRequest): Unable to find "stable.example.com/v1, Resource=crontabs" that match label selector "", field selector "spec.image=x": field label not supported: spec.image');
  r = await s.kubectl(['patch', 'crontab', 'patchme', '-p', '{"spec":{"replicas":5}}']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /application\/strategic-merge-patch\+json is not supported by stable.example.com\/v1, Kind=CronTab/);
});

test('replace with a stale resourceVersion is a conflict', async () => {
  let r = await s.kubectl(['create', '-f', '-'], { stdin: cron('conflict') });
  assert.equal(r.code, 0, r.stderr);
  const got = await s.kubectl(['get', 'crontab', 'conflict', '-o', 'json']);
  const obj = JSON.parse(got.stdout);
  r = await s.kubectl(['patch', 'crontab', 'conflict', '--type=merge', '-p', '{"spec":{"replicas":1}}']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['replace', '-f', '-'], { stdin: JSON.stringify(obj) });
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    'Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on crontabs.stable.example.com "conflict": the object has been modified; please apply your changes to the latest version and try again',
  );
});

test('list in chunks returns every object', async () => {
  for (let i = 0; i < 7; i++) {
    const r = await s.kubectl(['create', '-f', '-'], { stdin: cron(`chunk-${i}`, '  labels:\n    chunk: "yes"\n') });
    assert.equal(r.code, 0, r.stderr);
  }
  const r = await s.kubectl(['get', 'crontabs', '-l', 'chunk=yes', '--chunk-size=2', '-o', 'name']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), [0, 1, 2, 3, 4, 5, 6].map((i) => `crontab.stable.example.com/chunk-${i}`));
  const d = await s.kubectl(['delete', 'crontabs', '-l', 'chunk=yes']);
  assert.equal(d.code, 0, d.stderr);
  assert.equal(d.stdout.trim().split('\n').length, 7);
});

test('get -w streams rows as objects change', async () => {
  const child = spawn('kubectl', ['--kubeconfig', s.kubeconfig, 'get', 'crontabs', '-w', '--output-watch-events'], {
    env: { ...process.env, HOME: s.home },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const waitFor = async (re: RegExp): Promise<void> => {
    for (let i = 0; i < 100 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 100));
    assert.match(out, re);
  };
  try {
    await waitFor(/EVENT\s+NAME\s+AGE/);
    let r = await s.kubectl(['create', '-f', '-'], { stdin: cron('watched') });
    assert.equal(r.code, 0, r.stderr);
    await waitFor(/ADDED\s+watched\s+\d+s/);
    r = await s.kubectl(['patch', 'crontab', 'watched', '--type=merge', '-p', '{"spec":{"replicas":2}}']);
    await waitFor(/MODIFIED\s+watched\s+\d+s/);
    r = await s.kubectl(['delete', 'crontab', 'watched']);
    assert.equal(r.stdout.trim(), 'crontab.stable.example.com "watched" deleted');
    await waitFor(/DELETED\s+watched\s+\d+s/);
  } finally {
    child.kill();
  }
});

test('namespaces: content goes with the namespace; missing namespaces are refused', async () => {
  let r = await s.kubectl(['apply', '-f', '-'], { stdin: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n' });
  assert.equal(r.stdout.trim(), 'namespace/team-a created');
  r = await s.kubectl(['apply', '-n', 'team-a', '-f', '-'], { stdin: cron('in-ns') });
  assert.equal(r.stdout.trim(), 'crontab.stable.example.com/in-ns created');
  r = await s.kubectl(['get', 'crontabs', '-A']);
  assert.match(squeeze(r.stdout), /^NAMESPACE NAME AGE\n(.*\n)*team-a in-ns \d+s/);
  r = await s.kubectl(['get', 'ns', 'team-a']);
  assert.match(squeeze(r.stdout), /^NAME STATUS AGE\nteam-a Active \d+s$/);
  r = await s.kubectl(['get', 'ns', 'team-a', '-o', 'jsonpath={.status.phase} {.metadata.labels}']);
  assert.equal(r.stdout, 'Active {"kubernetes.io/metadata.name":"team-a"}');
  r = await s.kubectl(['delete', 'namespace', 'team-a', '--timeout=20s']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'namespace "team-a" deleted');
  r = await s.kubectl(['get', 'ns', 'team-a']);
  assert.equal(r.stderr.trim(), 'Error from server (NotFound): namespaces "team-a" not found');
  r = await s.kubectl(['get', 'crontabs', '-n', 'team-a']);
  assert.equal(r.stderr.trim(), 'No resources found in team-a namespace.');

  r = await s.kubectl(['apply', '-n', 'nope', '-f', '-'], { stdin: cron('lost') });
  assert.notEqual(r.code, 0);
  assert.equal(r.stderr.trim(), 'Error from server (NotFound): error when creating "STDIN": namespaces "nope" not found');

  // kubectl create namespace sends Kubernetes protobuf.
  r = await s.kubectl(['create', 'namespace', 'team-b']);
  assert.equal(r.stdout.trim(), 'namespace/team-b created', r.stderr);
  r = await s.kubectl(['get', 'ns', 'team-b', '-o', 'jsonpath={.status.phase}']);
  assert.equal(r.stdout, 'Active');

  r = await s.kubectl(['delete', 'namespace', 'default']);
  assert.equal(r.stderr.trim(), 'Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted');
});

test('an invalid CRD is refused with kube-apiserver\'s message', async () => {
  const bad = crdYaml.replace('name: crontabs.stable.example.com', 'name: wrong.stable.example.com');
  const r = await s.kubectl(['apply', '-f', '-'], { stdin: bad });
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    'The CustomResourceDefinition "wrong.stable.example.com" is invalid: metadata.name: Invalid value: "wrong.stable.example.com": must be spec.names.plural+"."+spec.group',
  );
});

test('kubectl explain reads the published schema', async () => {
  const r = await s.kubectl(['explain', 'crontabs.spec']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /GROUP:\s+stable\.example\.com/);
  assert.match(r.stdout, /cronSpec\s+<string>/);
  assert.match(r.stdout, /replicas\s+<integer>/);
});

test('every kubectl from 1.27 to 1.33 discovers and lists', async () => {
  const dir = '/usr/lib/google-cloud-sdk/bin';
  const versions = ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'].filter((v) => existsSync(`${dir}/kubectl.${v}`));
  assert.ok(versions.length > 0, `no versioned kubectl found in ${dir}`);
  for (const v of versions) {
    const bin = `${dir}/kubectl.${v}`;
    const r = await s.kubectl(['get', 'ct', '-A', '-o', 'name'], { bin });
    assert.equal(r.code, 0, `${v}: ${r.stderr}`);
    const a = await s.kubectl(['create', '--dry-run=server', '-f', '-'], { bin, stdin: cron(`v${v.replace('.', '-')}`) });
    assert.equal(a.code, 0, `${v}: ${a.stderr}`);
  }
});
