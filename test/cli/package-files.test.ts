// What `npm publish` would ship (package.json's `files`): everything the package reads at run time from its root
// (src/util/package-root.ts: package.json, the RBAC bootstrap policy, the console and its bundler, dist/), and
// neither the tests and benchmarks nor the V8 code caches a local run leaves in dist/ (made for that machine's
// bundle; an installed package makes its own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the published package holds what runs and nothing of the tests, benchmarks or local code caches', async (t) => {
  // A cache as a local run leaves one (only when dist/ exists: the tests run from sources).
  const cache = join(root, 'dist', 'cli', `package-files-test-${process.pid}.v8cache`);
  const built = existsSync(join(root, 'dist', 'cli'));
  if (built) {
    writeFileSync(cache, 'x');
    t.after(() => rmSync(cache, { force: true }));
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const { stdout } = await promisify(execFile)(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const files = new Set((JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
  for (const f of ['package.json', 'README.md', 'bin/crd-apiserver.cjs', 'policy/rbac-bootstrap', 'scripts/console-bundle.mjs', 'scripts/command-bundle.mjs', 'scripts/build.mjs', 'console/main.tsx', 'src/index.ts']) {
    assert.ok([...files].some((p) => p === f || p.startsWith(`${f}/`)), `${f} is in the package`);
  }
  for (const p of files) {
    assert.doesNotMatch(p, /^(test|bench|docs|\.test-bundles)\//, `${p} is not published`);
    assert.doesNotMatch(p, /\.v8cache$/, `${p} (a local code cache) is not published`);
  }
  if (built) {
    for (const f of ['dist/index.js', 'dist/cli/crd-apiserver.cjs', 'dist/cli/crd-apiserver.bundle.cjs', 'dist/testing/entry.js', 'dist/testing/testing.bundle.cjs', 'dist/util/manifest-worker.js']) {
      assert.ok(files.has(f), `${f} is in the package`);
    }
  }
});
