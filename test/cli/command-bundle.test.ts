// The command line as users run it is one bundled file (scripts/command-bundle.mjs; bin/crd-apiserver.cjs and
// npm start run dist/cli/crd-apiserver.cjs, which runs dist/cli/crd-apiserver.bundle.cjs through V8's code cache:
// code-cache.test.ts). Bundled, every module's import.meta.url is the bundle's, so what the
// server reads beside its code (the RBAC bootstrap policy, package.json, the console, the manifest worker) must
// be found from the package root. This bundles the sources the same way, two directories below the root as
// dist/cli/ is, and runs it. (The manifest worker a bundle starts is dist/util/'s: not checked here, as the
// tests run from sources and need no build.)
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { requireKubectl } from '../e2e/harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// A script outside src/ (the build uses it), imported by URL: it has no types of its own.
const { bundleCommand } = (await import(new URL('../../scripts/command-bundle.mjs', import.meta.url).href)) as { bundleCommand(entry: string, outfile: string): Promise<void> };
const run = promisify(execFile);

test('the bundled command line serves: version, bootstrap RBAC policy, CRDs, console', async (t) => {
  const kubectl = requireKubectl();
  const dir = join(root, '.test-bundles', `b${process.pid}`);
  mkdirSync(dir, { recursive: true });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = join(dir, 'crd-apiserver.bundle.cjs');
  await bundleCommand(join(root, 'src', 'cli', 'main.ts'), bundle);
  // ASCII only, so that the loader reads it as a one-byte string.
  assert.doesNotMatch(readFileSync(bundle, 'latin1'), /[^\x00-\x7f]/);

  // package.json, found from the package root.
  const version = await run(process.execPath, [bundle, '--version']);
  assert.match(version.stdout, /^crd-apiserver \d+\.\d+\.\d+ \(Kubernetes v1\.33\.\d+\)/);

  // Run as dist/cli/crd-apiserver.cjs runs it: through the code-cache loader. The first start makes the cache, the
  // second runs from it (on Node 20 a script from cached code cannot run import() itself: the loader's must serve).
  // The entry bundled as the build bundles it: CommonJS, finding the bundle and its cache beside itself.
  const entry = join(dir, 'crd-apiserver.cjs');
  await bundleCommand(join(root, 'src', 'cli', 'crd-apiserver.ts'), entry);
  const cache = join(dir, 'crd-apiserver.bundle.v8cache');
  assert.match((await run(process.execPath, [entry, '--version'])).stdout, /^crd-apiserver \d+\.\d+\.\d+ /);
  const data = mkdtempSync(join(tmpdir(), 'bundle-'));
  t.after(() => rmSync(data, { recursive: true, force: true }));
  const first = await serveBundle(t, entry, data);
  first.kill('SIGTERM');
  await once(first, 'exit');
  assert.ok(existsSync(cache), 'the first start made the code cache');
  await serveBundle(t, entry, data);
  const kubeconfig = join(data, 'kubeconfig');
  // prom-client is imported on the first scrape: through the loader's import.
  const env = { ...process.env, KUBECONFIG: kubeconfig };
  const metrics = await run(kubectl, ['get', '--raw', '/metrics'], { env });
  assert.match(metrics.stdout, /^process_cpu_user_seconds_total \d/m);
  // The bootstrap ClusterRoles came from policy/rbac-bootstrap/ under the package root.
  const roles = await run(kubectl, ['get', 'clusterrole', 'cluster-admin', 'system:discovery', '-o', 'name'], { env });
  assert.equal(roles.stdout, 'clusterrole.rbac.authorization.k8s.io/cluster-admin\nclusterrole.rbac.authorization.k8s.io/system:discovery\n');
  const crd = join(root, 'test', 'fixtures', 'crontab-crd.yaml');
  await run(kubectl, ['apply', '-f', crd], { env });
  await run(kubectl, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s'], { env });
  const got = await run(kubectl, ['get', '--raw', '/apis/stable.example.com/v1'], { env });
  assert.equal(JSON.parse(got.stdout).groupVersion, 'stable.example.com/v1');
  // The web console's shell (from dist/console/ when built, else bundled from its sources on the first request).
  const shell = await run(kubectl, ['get', '--raw', '/console/'], { env });
  assert.match(shell.stdout, /<!doctype html>/i);
});

/** Starts `serve` through the entry, resolving once it has printed its kubeconfig line. */
async function serveBundle(t: TestContext, entry: string, data: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, [entry, 'serve', '--data-dir', data, '--secure-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => server.kill('SIGKILL'));
  let out = '';
  let err = '';
  server.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no kubeconfig line within 30 s: ${out} ${err}`)), 30_000);
    server.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/export KUBECONFIG=\S+\n/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    server.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return server;
}
