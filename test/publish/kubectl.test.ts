// Real kubectl binaries against a server that serves only the published documents: discovery must
// resolve crontabs, `kubectl explain` must render the CronTab schema from OpenAPI v3, and `kubectl
// create --validate=strict` (the default) must find fieldValidation support and send it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { pickDiscoveryFormat } from '../../src/server/discovery.js';
import { startFakeApiserver } from './fake-apiserver.js';
import { allResources } from './seed.js';

const run = promisify(execFile);

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const onPath = (name: string): string | undefined =>
  (process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, name)).find(executable);

// kubectl on PATH (1.32), plus every versioned binary the Cloud SDK ships.
const SDK = '/usr/lib/google-cloud-sdk/bin';
const kubectls = [onPath('kubectl'), ...[27, 28, 29, 30, 31, 32, 33].map((m) => `${SDK}/kubectl.1.${m}`)].filter(
  (p): p is string => p !== undefined && executable(p),
);

const CRONTAB_YAML = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
`;

test('kubectl is available', () => {
  assert.ok(kubectls.length > 0, 'no kubectl found on PATH');
});

for (const kubectl of kubectls) {
  test(`${kubectl}: discovery, explain and strict create against the published documents`, async () => {
    const home = mkdtempSync(join(tmpdir(), 'publish-kubectl-'));
    const server = await startFakeApiserver(allResources());
    try {
      const manifest = join(home, 'crontab.yaml');
      writeFileSync(manifest, CRONTAB_YAML);
      const env = { PATH: process.env['PATH'] ?? '', HOME: home, KUBECONFIG: join(home, 'no-kubeconfig') };
      const k = (...args: string[]): Promise<{ stdout: string; stderr: string }> =>
        run(kubectl, ['--server', server.url, '--cache-dir', join(home, 'cache'), ...args], { env, timeout: 60_000 });

      const { stdout: versionJSON } = await run(kubectl, ['version', '--client', '-o', 'json'], { env, timeout: 60_000 });
      const minor = Number.parseInt((JSON.parse(versionJSON) as { clientVersion: { minor: string } }).clientVersion.minor, 10);

      // Discovery: aggregated, in the apidiscovery version this client asks for first.
      const resources = await k('api-resources');
      assert.match(resources.stdout, /crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab/);
      assert.match(resources.stdout, /namespaces\s+ns\s+v1\s+false\s+Namespace/);
      assert.match(resources.stdout, /customresourcedefinitions\s+crd,crds\s+apiextensions\.k8s\.io\/v1\s+false\s+CustomResourceDefinition/);
      const apis = server.requests.find((r) => r.url.startsWith('/apis?'));
      assert.ok(apis, 'kubectl fetched /apis');
      const expected = minor >= 30 ? 'v2' : 'v2beta1';
      assert.equal(pickDiscoveryFormat(apis.accept), expected);
      assert.equal(apis.responseContentType, `application/json;g=apidiscovery.k8s.io;v=${expected};as=APIGroupDiscoveryList`);
      // Aggregated discovery means no per-group-version requests.
      assert.ok(!server.requests.some((r) => r.url.startsWith('/apis/stable.example.com')));

      // explain reads the CronTab schema from the OpenAPI v3 group-version document.
      const explain = await k('explain', 'crontabs.spec');
      assert.match(explain.stdout, /GROUP:\s+stable\.example\.com/);
      assert.match(explain.stdout, /KIND:\s+CronTab/);
      assert.match(explain.stdout, /VERSION:\s+v1/);
      assert.match(explain.stdout, /FIELD: spec <Object>/);
      assert.match(explain.stdout, /cronSpec\s+<string>/);
      assert.match(explain.stdout, /image\s+<string>/);
      assert.match(explain.stdout, /replicas\s+<integer>/);

      // create with the default --validate=strict: OpenAPI v3 says PATCH takes fieldValidation, so
      // the POST carries fieldValidation=Strict.
      const create = await k('create', '-f', manifest, '--dry-run=server', '-v=6');
      assert.match(create.stdout, /crontab\.stable\.example\.com\/my-new-cron-object created \(server dry run\)/);
      assert.doesNotMatch(create.stderr, /failed to download openapi|error/i);
      assert.ok(server.requests.some((r) => r.method === 'GET' && r.url.startsWith('/openapi/v3/apis/stable.example.com/v1?hash=') && r.status === 200));
      const post = server.requests.find((r) => r.method === 'POST');
      assert.ok(post, 'kubectl posted the CronTab');
      const url = new URL(post.url, server.url);
      assert.equal(url.pathname, '/apis/stable.example.com/v1/namespaces/default/crontabs');
      assert.equal(url.searchParams.get('fieldValidation'), 'Strict');
      assert.equal(url.searchParams.get('dryRun'), 'All');
      assert.equal((JSON.parse(post.body) as { spec: { image: string } }).spec.image, 'my-awesome-cron-image');

      // apply twice: the second run finds no strategic-merge-patch support for the kind in OpenAPI v3
      // and sends a JSON merge patch, still with fieldValidation=Strict.
      await k('apply', '-f', manifest);
      writeFileSync(manifest, CRONTAB_YAML.replace('my-awesome-cron-image', 'my-newer-cron-image'));
      const apply = await k('apply', '-f', manifest);
      assert.match(apply.stdout, /crontab\.stable\.example\.com\/my-new-cron-object configured/);
      const patch = server.requests.find((r) => r.method === 'PATCH');
      assert.ok(patch, 'kubectl patched the CronTab');
      assert.equal(patch.contentType, 'application/merge-patch+json');
      const patchURL = new URL(patch.url, server.url);
      assert.equal(patchURL.pathname, '/apis/stable.example.com/v1/namespaces/default/crontabs/my-new-cron-object');
      assert.equal(patchURL.searchParams.get('fieldValidation'), 'Strict');
      assert.equal((JSON.parse(patch.body) as { spec: { image: string } }).spec.image, 'my-newer-cron-image');
    } finally {
      await server.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
}
