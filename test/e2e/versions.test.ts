// The seed's "Versions in CustomResourceDefinitions" page through kubectl: two versions with None
// conversion, version priority, deprecation warnings, served: false, the storage walk-through, storedVersions
// and the storage migration command (in-process and as a real CLI process).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';
import { migrateStorage } from '../../src/cli/migrate-storage.js';
import { connectionFromKubeconfig } from '../../src/cli/kube-client.js';

const version = (name: string, served: boolean, storage: boolean, extra = ''): string => `  - name: ${name}
    served: ${served}
    storage: ${storage}
${extra}    schema:
      openAPIV3Schema:
        type: object
        properties:
          host:
            type: string
          port:
            type: string
`;
const crontabs = (versions: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.example.com
spec:
  group: example.com
  versions:
${versions}  conversion:
    strategy: None
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
`;

let s: TestServer;
const KEY = '/registry/example.com/crontabs/default/';

async function ok(args: string[], stdin?: string): Promise<{ stdout: string; stderr: string }> {
  const r = await s.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r;
}
const storedVersion = async (name: string): Promise<string> => JSON.parse((await s.kv.get(KEY + name))!.value).apiVersion;
const crd = async (): Promise<any> => parseYaml((await ok(['get', 'crd', 'crontabs.example.com', '-o', 'yaml'])).stdout);
const obj = (apiVersion: string, name: string, host: string): string =>
  `apiVersion: ${apiVersion}\nkind: CronTab\nmetadata:\n  name: ${name}\nhost: ${host}\nport: "80"\n`;

before(async () => {
  requireKubectl();
  s = await startTestServer({});
});
after(async () => {
  await s?.close();
});

test('two versions with None conversion: both served, kubectl uses v1, and the storage walk-through', async () => {
  // 1. The storage version is v1beta1. You create an object. It is stored at version v1beta1.
  await ok(['apply', '-f', s.file('v.yaml', crontabs(version('v1beta1', true, true) + version('v1', true, false)))]);
  await ok(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.example.com']);
  for (const v of ['v1beta1', 'v1']) {
    const r = JSON.parse((await ok(['get', '--raw', `/apis/example.com/${v}`])).stdout);
    assert.equal(r.groupVersion, `example.com/${v}`);
    assert.deepEqual(r.resources.map((x: any) => x.name), ['crontabs']);
  }
  const group = JSON.parse((await ok(['get', '--raw', '/apis/example.com'])).stdout);
  assert.deepEqual(group.versions.map((v: any) => v.version), ['v1', 'v1beta1'], 'v1 sorts before v1beta1');
  assert.equal(group.preferredVersion.version, 'v1');
  await ok(['apply', '-f', '-'], obj('example.com/v1beta1', 'first', 'a'));
  assert.equal(await storedVersion('first'), 'example.com/v1beta1');
  assert.equal((await ok(['get', 'crontab', 'first', '-o', 'jsonpath={.apiVersion}'])).stdout, 'example.com/v1', 'kubectl uses v1 by default');

  // 2. Add v1 as the storage version.
  await ok(['apply', '-f', s.file('v2.yaml', crontabs(version('v1beta1', true, false) + version('v1', true, true)))]);
  assert.deepEqual((await crd()).status.storedVersions, ['v1beta1', 'v1']);
  // 3. Read at both versions: identical except apiVersion.
  const a = parseYaml((await ok(['get', 'crontabs.v1beta1.example.com', 'first', '-o', 'yaml'])).stdout) as any;
  const b = parseYaml((await ok(['get', 'crontabs.v1.example.com', 'first', '-o', 'yaml'])).stdout) as any;
  assert.equal(a.apiVersion, 'example.com/v1beta1');
  assert.equal(b.apiVersion, 'example.com/v1');
  assert.deepEqual({ ...a, apiVersion: '' }, { ...b, apiVersion: '' });
  assert.equal(await storedVersion('first'), 'example.com/v1beta1', 'reads do not rewrite');
  // 4. A new object is stored at v1.
  await ok(['apply', '-f', '-'], obj('example.com/v1beta1', 'second', 'b'));
  assert.equal(await storedVersion('second'), 'example.com/v1');
  // 5. Updating the first object stores it at v1.
  await ok(['patch', 'crontab', 'first', '--type=merge', '-p', '{"host":"a2"}']);
  assert.equal(await storedVersion('first'), 'example.com/v1');
});

test('storedVersions: removing a stored version is refused until status says it is gone', async () => {
  const r = await s.kubectl(['apply', '-f', s.file('v3.yaml', crontabs(version('v1', true, true)))]);
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /status\.storedVersions\[0\]: Invalid value: "v1beta1": missing from spec\.versions; v1beta1 was previously a storage version, and must remain in spec\.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status\.storedVersions/,
  );
  // served: false: that version's endpoint is gone, the others stay.
  await ok(['apply', '-f', s.file('v4.yaml', crontabs(version('v1beta1', false, false) + version('v1', true, true)))]);
  let nf = '';
  for (let i = 0; i < 50; i++) {
    nf = (await s.kubectl(['get', '--raw', '/apis/example.com/v1beta1/namespaces/default/crontabs'])).stderr;
    if (nf.includes('NotFound')) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  assert.equal(nf.trim(), 'Error from server (NotFound): the server could not find the requested resource');
  assert.equal(squeeze((await ok(['get', 'crontabs'])).stdout).split('\n')[0], 'NAME AGE');

  await ok(['patch', 'customresourcedefinitions', 'crontabs.example.com', '--subresource=status', '--type=merge', '-p', '{"status":{"storedVersions":["v1"]}}']);
  assert.deepEqual((await crd()).status.storedVersions, ['v1']);
  await ok(['apply', '-f', s.file('v5.yaml', crontabs(version('v1', true, true)))]);
  assert.deepEqual((await crd()).spec.versions.map((v: any) => v.name), ['v1']);
  await ok(['delete', 'crd', 'crontabs.example.com']);
});

test('version priority orders discovery and picks kubectl\'s version', async () => {
  const names = ['foo10', 'v1', 'v11alpha2', 'v3beta1', 'foo1', 'v10', 'v12alpha1', 'v2', 'v10beta3', 'v11beta2'];
  const versions = names.map((n) => version(n, true, n === 'v1')).join('');
  await ok(['apply', '-f', s.file('prio.yaml', crontabs(versions).replace(/crontabs/g, 'widgets').replace(/CronTab/g, 'Widget').replace(/- ct/, '- wd').replace('singular: crontab', 'singular: widget'))]);
  await ok(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.com']);
  const group = JSON.parse((await ok(['get', '--raw', '/apis/example.com'])).stdout);
  assert.deepEqual(
    group.versions.map((v: any) => v.version),
    ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10'],
  );
  assert.equal(group.preferredVersion.version, 'v10');
  await ok(['apply', '-f', '-'], 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n');
  assert.equal((await ok(['get', 'widget', 'w', '-o', 'jsonpath={.apiVersion}'])).stdout, 'example.com/v10');
  await ok(['delete', 'crd', 'widgets.example.com']);
});

test('deprecated versions answer with the custom or the default warning', async () => {
  const versions =
    version('v1alpha1', true, false, '    deprecated: true\n    deprecationWarning: "example.com/v1alpha1 CronTab is deprecated; see http://example.com/v1alpha1-v1 for instructions to migrate to example.com/v1 CronTab"\n') +
    version('v1beta1', true, false, '    deprecated: true\n') +
    version('v1', true, true) +
    version('v2', true, false, '    deprecated: true\n');
  await ok(['apply', '-f', s.file('dep.yaml', crontabs(versions))]);
  await ok(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.example.com']);
  const alpha = await ok(['get', 'crontabs.v1alpha1.example.com']);
  assert.equal(
    alpha.stderr.trim(),
    'Warning: example.com/v1alpha1 CronTab is deprecated; see http://example.com/v1alpha1-v1 for instructions to migrate to example.com/v1 CronTab\nNo resources found in default namespace.',
  );
  const beta = await ok(['get', 'crontabs.v1beta1.example.com']);
  // The default names the highest-priority served, non-deprecated version above the deprecated one.
  assert.equal(beta.stderr.trim(), 'Warning: example.com/v1beta1 CronTab is deprecated; use example.com/v1 CronTab\nNo resources found in default namespace.');
  const v2 = await ok(['get', 'crontabs.v2.example.com']);
  assert.equal(v2.stderr.trim(), 'Warning: example.com/v2 CronTab is deprecated\nNo resources found in default namespace.');
  const v1 = await ok(['get', 'crontabs.v1.example.com']);
  assert.equal(v1.stderr.trim(), 'No resources found in default namespace.');
  await ok(['delete', 'crd', 'crontabs.example.com']);
});

test('migrate-storage rewrites every object at the storage version and trims storedVersions', async () => {
  await ok(['apply', '-f', s.file('m1.yaml', crontabs(version('v1beta1', true, true) + version('v1', true, false)))]);
  await ok(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.example.com']);
  const many = Array.from({ length: 7 }, (_, i) => obj('example.com/v1beta1', `m${i}`, `h${i}`)).join('---\n');
  await ok(['apply', '-f', '-'], many);
  await ok(['apply', '-f', s.file('m2.yaml', crontabs(version('v1beta1', true, false) + version('v1', true, true)))]);
  assert.equal(await storedVersion('m0'), 'example.com/v1beta1');

  const lines: string[] = [];
  const result = await migrateStorage({ conn: connectionFromKubeconfig(s.kubeconfig), crdName: 'crontabs.example.com', chunkSize: 3, log: (l) => lines.push(l) });
  assert.deepEqual(result, { storageVersion: 'v1', migrated: 7, skipped: 0, storedVersions: ['v1'] });
  assert.deepEqual(lines, [
    'migrating crontabs.example.com to example.com/v1 (stored versions: v1beta1, v1)',
    'migrated 3/7 crontabs.example.com',
    'migrated 6/7 crontabs.example.com',
    'migrated 7 crontabs.example.com',
    'done: 7 objects rewritten; storedVersions now v1',
  ]);
  for (let i = 0; i < 7; i++) assert.equal(await storedVersion(`m${i}`), 'example.com/v1');
  assert.deepEqual((await crd()).status.storedVersions, ['v1']);
  // The old version can go now.
  await ok(['apply', '-f', s.file('m3.yaml', crontabs(version('v1', true, true)))]);

  // The same as a real command line process, after another storage switch.
  await ok(['apply', '-f', s.file('m4.yaml', crontabs(version('v1', true, true) + version('v2', true, false)))]);
  await ok(['apply', '-f', s.file('m5.yaml', crontabs(version('v1', true, false) + version('v2', true, true)))]);
  const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
  const cli = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', main, 'migrate-storage', 'crontabs.example.com', '--kubeconfig', s.kubeconfig], (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, stdout, stderr }),
    );
  });
  assert.equal(cli.code, 0, cli.stderr);
  assert.equal(
    cli.stdout,
    'migrating crontabs.example.com to example.com/v2 (stored versions: v1, v2)\nmigrated 7 crontabs.example.com\ndone: 7 objects rewritten; storedVersions now v2\n',
  );
  for (let i = 0; i < 7; i++) assert.equal(await storedVersion(`m${i}`), 'example.com/v2');
  const bad = await new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', main, 'migrate-storage', 'nothings.example.com', '--kubeconfig', s.kubeconfig], (err, _o, stderr) =>
      resolve({ code: err ? 1 : 0, stderr }),
    );
  });
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr.trim(), 'crd-apiserver: Error from server (NotFound): customresourcedefinitions.apiextensions.k8s.io "nothings.example.com" not found');
  await ok(['delete', 'crd', 'crontabs.example.com']);
});
