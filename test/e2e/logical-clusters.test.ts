// Logical clusters through kubectl: LogicalClusters in root, kubeconfigs whose server ends in /clusters/<name>,
// and isolation: conflicting CRDs, same-named objects, RBAC of each cluster's own, deletion of one cluster.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { requireKubectl, startTestServer, squeeze, type KubectlResult, type TestServer } from './harness.js';
import { issueClientCertificate } from '../../src/auth/certs.js';
import { schemaCompilations } from '../../src/crd/custom-resource.js';

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

/** The server's kubeconfig with its server URL ending in /clusters/<name>. */
function clusterKubeconfig(name: string): string {
  const text = readFileSync(s.kubeconfig, 'utf8').replace(/(server: https:\/\/[^\s]+)/, `$1/clusters/${name}`);
  return s.file(`${name}.kubeconfig`, text);
}

const inCluster = (name: string, args: string[], stdin?: string): Promise<KubectlResult> =>
  s.kubectl(['--kubeconfig', clusterKubeconfig(name), ...args], stdin === undefined ? {} : { stdin });

async function ok(p: Promise<KubectlResult>): Promise<string> {
  const r = await p;
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

/** The seed's CronTab CRD (test/fixtures) with spec holding one field of the given type, and an optional schema description. */
function crontabCrd(field: string, type: string, description?: string): string {
  const crd = parse(readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8'));
  const schema = crd.spec.versions[0].schema.openAPIV3Schema;
  schema.properties.spec.properties = { [field]: { type } };
  if (description) schema.description = description;
  return stringify(crd);
}

async function createCluster(name: string): Promise<void> {
  await ok(s.kubectl(['apply', '-f', '-'], { stdin: `apiVersion: tenancy.crd-apiserver.io/v1alpha1\nkind: LogicalCluster\nmetadata:\n  name: ${name}\n` }));
  await ok(s.kubectl(['wait', '--for=condition=Ready', `logicalcluster/${name}`, '--timeout=30s']));
}

test('a LogicalCluster in root becomes Ready and serves a whole API under /clusters/<name>/', async () => {
  await createCluster('team-a');
  assert.match(squeeze(await ok(s.kubectl(['get', 'logicalclusters']))), /^NAME PHASE AGE\nteam-a Ready \d+s$/);
  // Its own initial namespaces, its own discovery.
  assert.match(squeeze(await ok(inCluster('team-a', ['get', 'namespaces']))), /^NAME STATUS AGE\ndefault Active \d+s\nkube-node-lease Active \d+s\nkube-public Active \d+s\nkube-system Active \d+s$/);
  const resources = await ok(inCluster('team-a', ['api-resources', '-o', 'name']));
  assert.ok(resources.split('\n').includes('configmaps'));
  // LogicalClusters are root's alone.
  assert.ok(!resources.includes('logicalclusters'), resources);
  assert.ok((await ok(s.kubectl(['api-resources', '-o', 'name']))).split('\n').includes('logicalclusters.tenancy.crd-apiserver.io'));
  // root is also reachable by name.
  assert.ok((await ok(inCluster('root', ['get', 'logicalclusters', '-o', 'name']))).includes('logicalcluster.tenancy.crd-apiserver.io/team-a'));
});

test('two clusters hold conflicting CRDs and same-named objects, each seeing only its own', async () => {
  await createCluster('iso-a');
  await createCluster('iso-b');
  await ok(inCluster('iso-a', ['apply', '-f', '-'], crontabCrd('cronSpec', 'string')));
  await ok(inCluster('iso-b', ['apply', '-f', '-'], crontabCrd('cronSpec', 'integer')));
  for (const c of ['iso-a', 'iso-b']) await ok(inCluster(c, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=30s']));
  // The same object is valid in one cluster and invalid in the other.
  const ct = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: same\nspec:\n  cronSpec: "* * * * */5"\n';
  await ok(inCluster('iso-a', ['apply', '-f', '-'], ct));
  const refused = await inCluster('iso-b', ['apply', '-f', '-'], ct);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /spec\.cronSpec: Invalid value: "string": spec\.cronSpec in body must be of type integer: "string"/);
  await ok(inCluster('iso-b', ['apply', '-f', '-'], ct.replace('"* * * * */5"', '5')));
  assert.equal(await ok(inCluster('iso-a', ['get', 'ct', 'same', '-o', 'jsonpath={.spec.cronSpec}'])), '* * * * */5');
  assert.equal(await ok(inCluster('iso-b', ['get', 'ct', 'same', '-o', 'jsonpath={.spec.cronSpec}'])), '5');
  // Same-named ConfigMaps with different data; root has neither, nor the CRD.
  await ok(inCluster('iso-a', ['create', 'configmap', 'cm', '--from-literal=who=a']));
  await ok(inCluster('iso-b', ['create', 'configmap', 'cm', '--from-literal=who=b']));
  assert.equal(await ok(inCluster('iso-a', ['get', 'cm', 'cm', '-o', 'jsonpath={.data.who}'])), 'a');
  assert.equal(await ok(inCluster('iso-b', ['get', 'cm', 'cm', '-o', 'jsonpath={.data.who}'])), 'b');
  assert.match((await s.kubectl(['get', 'cm', 'cm'])).stderr, /NotFound/);
  assert.match((await s.kubectl(['get', 'crd', 'crontabs.stable.example.com'])).stderr, /NotFound/);
});

test('RBAC is per cluster: a user bound in one cluster cannot read another', async () => {
  await createCluster('rbac-a');
  await createCluster('rbac-b');
  const issued = issueClientCertificate({ certPem: readFileSync(`${s.dataDir}/pki/ca.crt`, 'utf8'), keyPem: readFileSync(`${s.dataDir}/pki/ca.key`, 'utf8') }, 'alice', []);
  const alice = { cert: issued.certPem, key: issued.keyPem };
  await ok(inCluster('rbac-a', ['create', 'rolebinding', 'alice-view', '--clusterrole=view', '--user=alice', '-n', 'default']));
  await ok(inCluster('rbac-a', ['create', 'configmap', 'visible']));
  await ok(inCluster('rbac-b', ['create', 'configmap', 'hidden']));
  const base = readFileSync(s.kubeconfig, 'utf8').match(/server: (https:\/\/[^\s]+)/)![1]!;
  const as = async (cluster: string, args: string[]): Promise<KubectlResult> => {
    const r = await s.kubectlAs(alice, ['--server', `${base}/clusters/${cluster}`, ...args]);
    return r;
  };
  assert.match(await ok(as('rbac-a', ['get', 'configmaps', '-o', 'name'])), /configmap\/visible/);
  const denied = await as('rbac-b', ['get', 'configmaps']);
  assert.notEqual(denied.code, 0);
  assert.match(denied.stderr, /configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"/);
  // Nor root's, where alice has no binding either.
  assert.match((await s.kubectlAs(alice, ['get', 'configmaps'])).stderr, /forbidden/);
});

test('a path naming no cluster is not found for system:masters and forbidden for others', async () => {
  const r = await s.kubectl(['get', '--raw', '/clusters/nowhere/api/v1/namespaces']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /NotFound|not found/);
});

test('deleting a LogicalCluster removes everything in it and leaves the others untouched', async () => {
  await createCluster('doomed');
  await createCluster('kept');
  for (const c of ['doomed', 'kept']) {
    await ok(inCluster(c, ['create', 'namespace', 'work']));
    await ok(inCluster(c, ['create', 'configmap', 'x', '-n', 'work', '--from-literal=k=v']));
  }
  await ok(s.kubectl(['delete', 'logicalcluster', 'doomed', '--timeout=60s']));
  assert.match((await s.kubectl(['get', 'logicalcluster', 'doomed'])).stderr, /NotFound/);
  const left = await s.kv.list('/registry/clusters/doomed/');
  assert.equal(left.items.length, 0, left.items.map((i) => i.key).join(', '));
  assert.equal(await ok(inCluster('kept', ['get', 'cm', 'x', '-n', 'work', '-o', 'jsonpath={.data.k}'])), 'v');
  // Created again, it starts empty.
  await createCluster('doomed');
  assert.match((await inCluster('doomed', ['get', 'namespace', 'work'])).stderr, /NotFound/);
});

test('crd-apiserver cluster create, kubeconfig and delete', async () => {
  const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
  const cli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', main, 'cluster', ...args, '--data-dir', s.dataDir], { timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const created = await cli(['create', 'from-cli']);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stdout, 'logicalcluster.tenancy.crd-apiserver.io/from-cli created\n');
  const out = s.file('from-cli.kubeconfig', '');
  assert.equal((await cli(['kubeconfig', 'from-cli', '--out', out])).code, 0);
  assert.match(readFileSync(out, 'utf8'), /server: https:\/\/127\.0\.0\.1:\d+\/clusters\/from-cli\n/);
  await ok(s.kubectl(['--kubeconfig', out, 'create', 'configmap', 'made-by-cli']));
  assert.equal(await ok(s.kubectl(['--kubeconfig', out, 'get', 'cm', 'made-by-cli', '-o', 'name'])), 'configmap/made-by-cli\n');
  const deleted = await cli(['delete', 'from-cli']);
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(deleted.stdout, 'logicalcluster.tenancy.crd-apiserver.io "from-cli" deleted\n');
  const usage = await cli(['rename', 'x']);
  assert.equal(usage.code, 2);
});

test('a ServiceAccount token is valid in its own cluster only; flow control is root`s alone', async () => {
  await createCluster('sa-a');
  await createCluster('sa-b');
  await ok(inCluster('sa-a', ['create', 'serviceaccount', 'robot']));
  await ok(inCluster('sa-b', ['create', 'serviceaccount', 'robot']));
  const token = (await ok(inCluster('sa-a', ['create', 'token', 'robot']))).trim();
  const base = readFileSync(s.kubeconfig, 'utf8').match(/server: (https:\/\/[^\s]+)/)![1]!;
  const whoami = (cluster: string): Promise<KubectlResult> => s.kubectlAs({ token }, ['--server', `${base}/clusters/${cluster}`, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
  assert.equal(await ok(whoami('sa-a')), 'system:serviceaccount:default:robot');
  // The same name in another cluster is another ServiceAccount (another uid): the token is refused there, and in root.
  const refused = await whoami('sa-b');
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /Unauthorized/);
  assert.match((await s.kubectlAs({ token }, ['auth', 'whoami'])).stderr, /Unauthorized/);
  // One dispatcher for the process, configured in root: FlowSchemas are not served in a cluster.
  assert.ok(!(await ok(inCluster('sa-a', ['api-resources', '-o', 'name']))).includes('flowschemas'));
  assert.match(await ok(s.kubectl(['get', 'flowschemas', '-o', 'name'])), /flowschema.flowcontrol.apiserver.k8s.io\/exempt/);
});

test('/clusters/*/ lists and watches one resource across every cluster, each object annotated with its cluster', async () => {
  await createCluster('wild-a');
  await createCluster('wild-b');
  const cm = (name: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels: {wild: "yes"}\ndata: {k: v}\n`;
  await ok(s.kubectl(['apply', '-f', '-'], { stdin: cm('same') }));
  await ok(inCluster('wild-a', ['apply', '-f', '-'], cm('same')));
  await ok(inCluster('wild-b', ['apply', '-f', '-'], cm('same')));
  await ok(inCluster('wild-b', ['apply', '-f', '-'], cm('other')));
  const list = JSON.parse(await ok(s.kubectl(['get', '--raw', '/clusters/*/api/v1/configmaps?labelSelector=wild%3Dyes'])));
  const seen = (items: any[]): string[] => items.map((i) => `${i.metadata.annotations['tenancy.crd-apiserver.io/cluster']}/${i.metadata.namespace}/${i.metadata.name}`);
  assert.deepEqual(seen(list.items), ['wild-b/default/other', 'root/default/same', 'wild-a/default/same', 'wild-b/default/same']);
  // kubectl itself, pointed at /clusters/*, pages through them one at a time.
  const paged = await ok(inCluster('*', ['get', 'configmaps', '-A', '-l', 'wild=yes', '--chunk-size=1', '-o', 'jsonpath={range .items[*]}{.metadata.annotations.tenancy\\.crd-apiserver\\.io/cluster}/{.metadata.name} {end}']));
  assert.equal(paged.trim(), 'wild-b/other root/same wild-a/same wild-b/same');
  // A watch from the list's resourceVersion sees a later change in any cluster, annotated.
  const watching = s.kubectl(['get', '--raw', `/clusters/*/api/v1/configmaps?watch=1&labelSelector=wild%3Dyes&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=3`]);
  await new Promise((r) => setTimeout(r, 500));
  await ok(inCluster('wild-a', ['label', 'configmap', 'same', 'changed=now']));
  const events = (await ok(watching)).trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.annotations['tenancy.crd-apiserver.io/cluster']}/${e.object.metadata.name} ${e.object.metadata.labels.changed ?? ''}`), ['MODIFIED wild-a/same now']);
  // Reads alone, and for those root's RBAC lets list the resource everywhere.
  const write = await s.kubectl(['--server', `${readFileSync(s.kubeconfig, 'utf8').match(/server: (https:\/\/[^\s]+)/)![1]!}/clusters/*`, 'create', 'configmap', 'nope']);
  assert.notEqual(write.code, 0);
  assert.match(write.stderr, /MethodNotAllowed|the server does not allow this method/);
  const issued = issueClientCertificate({ certPem: readFileSync(`${s.dataDir}/pki/ca.crt`, 'utf8'), keyPem: readFileSync(`${s.dataDir}/pki/ca.key`, 'utf8') }, 'mallory', []);
  const denied = await s.kubectlAs({ cert: issued.certPem, key: issued.keyPem }, ['get', '--raw', '/clusters/*/api/v1/configmaps']);
  assert.match(denied.stderr, /forbidden/);
});

/** A Widget CRD of a group no other test uses; `sizeType` sets its one field's type. */
const widgetCrd = (sizeType: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.wild.example.com
spec:
  group: wild.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: ${sizeType}}
    additionalPrinterColumns:
    - {name: Size, type: ${sizeType}, jsonPath: .spec.size}
`;

test('/clusters/*/ serves a custom resource that only the clusters define, when they define it alike', async () => {
  for (const c of ['wcrd-a', 'wcrd-b']) {
    await createCluster(c);
    await ok(inCluster(c, ['apply', '-f', '-'], widgetCrd('integer')));
    await ok(inCluster(c, ['wait', '--for=condition=Established', 'crd/widgets.wild.example.com', '--timeout=30s']));
  }
  const widget = (name: string, size: number): string => `apiVersion: wild.example.com/v1
kind: Widget
metadata:
  name: ${name}
spec:
  size: ${size}
`;
  await ok(inCluster('wcrd-a', ['apply', '-f', '-'], widget('w1', 1)));
  await ok(inCluster('wcrd-b', ['apply', '-f', '-'], widget('w1', 2)));
  await ok(inCluster('wcrd-b', ['apply', '-f', '-'], widget('w2', 3)));
  // Root has no such CRD; across clusters, discovery lists it and kubectl reads it with its printer columns.
  assert.notEqual((await s.kubectl(['get', 'widgets'])).code, 0);
  assert.ok((await ok(inCluster('*', ['api-resources', '-o', 'name']))).split('\n').includes('widgets.wild.example.com'));
  const listed = await ok(inCluster('*', ['get', 'widgets', '-A', '-o', 'jsonpath={range .items[*]}{.metadata.annotations.tenancy\\.crd-apiserver\\.io/cluster}/{.metadata.name}={.spec.size} {end}']));
  assert.equal(listed.trim(), 'wcrd-a/w1=1 wcrd-b/w1=2 wcrd-b/w2=3');
  assert.match(squeeze(await ok(inCluster('*', ['get', 'widgets', '-A']))), /^NAMESPACE NAME SIZE\ndefault w1 1\ndefault w1 2\ndefault w2 3$/);
  // A watch from the list's resourceVersion sees a create in either cluster.
  const list = JSON.parse(await ok(s.kubectl(['get', '--raw', '/clusters/*/apis/wild.example.com/v1/widgets'])));
  const watching = s.kubectl(['get', '--raw', `/clusters/*/apis/wild.example.com/v1/widgets?watch=1&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=3`]);
  await new Promise((r) => setTimeout(r, 500));
  await ok(inCluster('wcrd-a', ['apply', '-f', '-'], widget('w3', 4)));
  const events = (await ok(watching)).trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.annotations['tenancy.crd-apiserver.io/cluster']}/${e.object.metadata.name} ${e.object.spec.size}`), ['ADDED wcrd-a/w3 4']);
  // A cluster defining it differently: one definition cannot read both, so the request is refused, naming them.
  await createCluster('wcrd-c');
  await ok(inCluster('wcrd-c', ['apply', '-f', '-'], widgetCrd('string')));
  await ok(inCluster('wcrd-c', ['wait', '--for=condition=Established', 'crd/widgets.wild.example.com', '--timeout=30s']));
  const conflict = await s.kubectl(['get', '--raw', '/clusters/*/apis/wild.example.com/v1/widgets']);
  assert.notEqual(conflict.code, 0);
  assert.match(conflict.stderr, /Operation cannot be fulfilled on customresourcedefinitions\.apiextensions\.k8s\.io "widgets\.wild\.example\.com": it is defined differently in logical clusters "wcrd-a" and "wcrd-c"/);
  // Once it defines it alike again, the request is served, the third cluster's objects included.
  await ok(inCluster('wcrd-c', ['apply', '-f', '-'], widgetCrd('integer')));
  await ok(inCluster('wcrd-c', ['apply', '-f', '-'], widget('w9', 9)));
  const all = await ok(inCluster('*', ['get', 'widgets', '-A', '-o', 'jsonpath={range .items[*]}{.metadata.annotations.tenancy\\.crd-apiserver\\.io/cluster}/{.metadata.name} {end}']));
  assert.equal(all.trim(), 'wcrd-a/w1 wcrd-b/w1 wcrd-b/w2 wcrd-a/w3 wcrd-c/w9');
  // Reads alone, as for built-in resources.
  const write = await inCluster('*', ['apply', '-f', '-'], widget('nope', 1));
  assert.notEqual(write.code, 0);
});

test('the same CRD in several clusters is compiled once', async () => {
  const names = ['share-a', 'share-b', 'share-c'];
  for (const c of names) await createCluster(c);
  // A schema no other test installs, so that this test's compilations are its own.
  const crd = crontabCrd('cronSpec', 'string', 'shared across clusters');
  const before = schemaCompilations();
  for (const c of names) {
    await ok(inCluster(c, ['apply', '-f', '-'], crd));
    await ok(inCluster(c, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=30s']));
    await ok(inCluster(c, ['apply', '-f', '-'], 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c\nspec:\n  cronSpec: x\n'));
  }
  assert.equal(schemaCompilations() - before, 1);
});

test("a cluster's garbage collector removes the dependents of a deleted owner", async () => {
  await createCluster('gc-a');
  await ok(inCluster('gc-a', ['create', 'configmap', 'owner']));
  const uid = await ok(inCluster('gc-a', ['get', 'configmap', 'owner', '-o', 'jsonpath={.metadata.uid}']));
  const dependent = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dependent\n  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: owner\n    uid: ${uid}\n`;
  await ok(inCluster('gc-a', ['apply', '-f', '-'], dependent));
  await ok(inCluster('gc-a', ['delete', 'configmap', 'owner']));
  await ok(inCluster('gc-a', ['wait', '--for=delete', 'configmap/dependent', '--timeout=30s']));
});
