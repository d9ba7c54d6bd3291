// crd-apiserver/testing as the package exports it (src/testing/entry.ts): the test kit bundled into one CommonJS
// file and loaded through V8's code cache, made once an environment is ready. This bundles the sources the same
// way, two directories below the root as dist/testing/ is, and loads the bundle as entry.ts does, in two processes:
// the first makes the cache, the second runs from it (and so leaves it as it is); the CRD schema the first checked is
// known to the second (bundle-entry.ts). Without CRDs at start: those are parsed on
// dist/util/'s worker, which needs a build (the tests run from sources).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { requireKubectl } from '../e2e/harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { bundleCommand } = (await import(new URL('../../scripts/command-bundle.mjs', import.meta.url).href)) as { bundleCommand(entry: string, outfile: string): Promise<void> };
const run = promisify(execFile);

test('the bundled test kit starts environments, and its code cache is made by the first process and used by the next', async (t) => {
  const kubectl = requireKubectl();
  const dir = join(root, '.test-bundles', `t${process.pid}`);
  mkdirSync(dir, { recursive: true });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = join(dir, 'testing.bundle.cjs');
  await bundleCommand(join(root, 'src', 'testing', 'bundle-entry.ts'), bundle);
  const cache = join(dir, 'testing.bundle.v8cache');
  const crd = join(root, 'test', 'fixtures', 'crontab-crd.yaml');
  // As entry.ts loads it; then a kubectl apply of a CRD and a custom resource against the environment.
  const script = join(dir, 'use.mjs');
  writeFileSync(
    script,
    `import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TEST_ENV_READY_EVENT, cacheHeader, loadBundle } from ${JSON.stringify(new URL('../../src/util/code-cache.ts', import.meta.url).href)};
const { startTestEnv, rememberSchemaChecks } = loadBundle(${JSON.stringify(bundle)}, ${JSON.stringify(cache)}, TEST_ENV_READY_EVENT);
rememberSchemaChecks(cacheHeader(${JSON.stringify(bundle)}));
const env = await startTestEnv();
try {
  // Not execFileSync: the server answering kubectl is in this process.
  const k = async (...args) => (await promisify(execFile)(${JSON.stringify(kubectl)}, ['--kubeconfig', env.kubeconfigPath, ...args])).stdout;
  await k('apply', '-f', ${JSON.stringify(crd)});
  await k('wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s');
  await k('create', 'namespace', 'x');
  process.stdout.write(await k('get', '--raw', '/apis/stable.example.com/v1'));
} finally {
  await new Promise((r) => setImmediate(r));
  await env.stop();
}
`,
  );
  // The CRD's schema, once checked, is remembered for the next process in a file of this bundle's.
  const cacheDir = join(dir, 'cache');
  const env = { ...process.env, CRD_APISERVER_CACHE_DIR: cacheDir };
  const schemaKeys = (): string[] => readdirSync(join(cacheDir, 'schema-checks')).flatMap((f) => readFileSync(join(cacheDir, 'schema-checks', f), 'latin1').split('\n').filter(Boolean));
  const first = await run(process.execPath, ['--import', 'tsx', script], { env });
  assert.equal(JSON.parse(first.stdout).groupVersion, 'stable.example.com/v1');
  const made = statSync(cache);
  assert.ok(made.size > 1000, 'the first process made the code cache');
  assert.match(readFileSync(cache, 'latin1').split('\n')[0]!, /^crd-apiserver code cache \d+ /);
  assert.equal(readdirSync(join(cacheDir, 'schema-checks')).length, 1);
  const keys = schemaKeys();
  assert.ok(keys.length >= 1, 'the CRD schema that passed is remembered');
  const second = await run(process.execPath, ['--import', 'tsx', script], { env });
  assert.equal(JSON.parse(second.stdout).groupVersion, 'stable.example.com/v1');
  assert.equal(statSync(cache).mtimeMs, made.mtimeMs, 'the second process ran from the cache: it did not make another');
  assert.deepEqual(schemaKeys(), keys, 'the second process knew the schema: nothing new to remember');
});
