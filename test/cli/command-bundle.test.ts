// The command line as users run it is one bundled file (scripts/command-bundle.mjs; bin/crd-apiserver.js and
// npm start load dist/cli/crd-apiserver.js). Bundled, every module's import.meta.url is the bundle's, so what the
// server reads beside its code (the RBAC bootstrap policy, package.json, the console, the manifest worker) must
// be found from the package root. This bundles the sources the same way, two directories below the root as
// dist/cli/ is, and runs it. (The manifest worker a bundle starts is dist/util/'s: not checked here, as the
// tests run from sources and need no build.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
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
  const bundle = join(dir, 'crd-apiserver.js');
  await bundleCommand(join(root, 'src', 'cli', 'main.ts'), bundle);

  // package.json, found from the package root.
  const version = await run(process.execPath, [bundle, '--version']);
  assert.match(version.stdout, /^crd-apiserver \d+\.\d+\.\d+ \(Kubernetes v1\.33\.\d+\)/);

  const data = mkdtempSync(join(tmpdir(), 'bundle-'));
  t.after(() => rmSync(data, { recursive: true, force: true }));
  const server = spawn(process.execPath, [bundle, 'serve', '--data-dir', data, '--secure-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => server.kill('SIGKILL'));
  let out = '';
  server.stdout.on('data', (d: Buffer) => (out += d.toString()));
  let err = '';
  server.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const kubeconfig = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no kubeconfig line within 30 s: ${out} ${err}`)), 30_000);
    server.stdout.on('data', () => {
      const m = /export KUBECONFIG=(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    server.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  const env = { ...process.env, KUBECONFIG: kubeconfig };
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
