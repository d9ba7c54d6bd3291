// `crd-apiserver snapshot save|restore` on the SQLite backend: a snapshot taken while a client writes through
// the server holds every write acknowledged before it began (and nothing torn), restores into a new data
// directory that then serves it through kubectl, is refused over a non-empty one without --force, and with
// --force replaces the state while the directory keeps its CA (the old kubeconfig still works).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const crdYaml = readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8');

let dir: string;
before(() => {
  requireKubectl();
  dir = mkdtempSync(join(tmpdir(), 'crd-snapshot-'));
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', main, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

async function configMapNames(s: TestServer): Promise<Set<string>> {
  const r = await s.kubectl(['get', 'configmaps', '-n', 'default', '-o', 'jsonpath={.items[*].metadata.name}']);
  assert.equal(r.code, 0, r.stderr);
  return new Set(r.stdout.split(/\s+/).filter((n) => n.startsWith('w-')));
}

test('snapshot save while a client writes, restore, serve', async () => {
  const src = join(dir, 'src');
  const file = join(dir, 'backup.db');
  let s = await startTestServer({ dataDir: src });
  const acknowledged: string[] = [];
  let atStart: string[] = [];
  let written = 0;
  try {
    let r = await s.kubectl(['apply', '-f', s.file('crd.yaml', crdYaml)]);
    assert.equal(r.code, 0, r.stderr);
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(s.kubeconfig);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    // Four writers creating ConfigMaps as fast as the server takes them, until told to stop.
    let stop = false;
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const name = `w-${w}-${i}`;
        written++;
        await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name }, data: { i: String(i) } } });
        acknowledged.push(name);
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    while (acknowledged.length < 50) await new Promise((res) => setTimeout(res, 20));
    atStart = [...acknowledged];
    r = await cli(['snapshot', 'save', file, '--data-dir', src]);
    const afterSave = acknowledged.length;
    stop = true;
    await Promise.all(writers);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^saved the state of .* at revision \d+ \(\d+ keys, \d+ bytes\) to /);
    assert.ok(afterSave > atStart.length, 'writes went on while the snapshot was taken');
    // One self-contained file, owner-only.
    assert.ok(!existsSync(`${file}-wal`) && !existsSync(`${file}.part`));
    assert.equal(statSync(file).mode & 0o777, 0o600);
  } finally {
    await s.close();
  }

  // Restore into a new data directory: it serves the snapshot, with a CA of its own.
  const restored = join(dir, 'restored');
  let r = await cli(['snapshot', 'restore', file, '--data-dir', restored]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /the server generates a new CA, certificates and keys when it first starts there/);
  r = await cli(['snapshot', 'restore', file, '--data-dir', restored]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /state\.db already holds \d+ keys: restore into a new data directory, or pass --force to replace them/);
  s = await startTestServer({ dataDir: restored });
  let inSnapshot: Set<string>;
  try {
    inSnapshot = await configMapNames(s);
    for (const name of atStart) assert.ok(inSnapshot.has(name), `${name}, acknowledged before the snapshot began, is in it`);
    assert.ok(inSnapshot.size <= written);
    // A writer's creates are sequential: what the snapshot holds of each is a prefix of what it wrote.
    for (const w of [0, 1, 2, 3]) {
      const mine = [...inSnapshot].filter((n) => n.startsWith(`w-${w}-`)).map((n) => Number(n.split('-')[2])).sort((a, b) => a - b);
      assert.deepEqual(mine, mine.map((_, i) => i));
    }
    r = await s.kubectl(['get', 'crd', 'crontabs.stable.example.com', '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', 'configmap', 'after-restore']);
    assert.equal(r.code, 0, r.stderr);
    // Not under a running server, even with --force.
    r = await cli(['snapshot', 'restore', file, '--data-dir', restored, '--force']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /state\.db is in use by another process: stop the server on it first/);
  } finally {
    await s.close();
  }

  // --force over the original directory: its state goes back to the snapshot, and its CA stays.
  r = await cli(['snapshot', 'restore', file, '--data-dir', src, '--force']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /the data directory's certificates and keys were kept/);
  const caBefore = readFileSync(join(src, 'pki', 'ca.crt'), 'utf8');
  s = await startTestServer({ dataDir: src });
  try {
    assert.equal(readFileSync(join(src, 'pki', 'ca.crt'), 'utf8'), caBefore);
    assert.deepEqual(await configMapNames(s), inSnapshot);
  } finally {
    await s.close();
  }
});

test('snapshot: a data directory without state, a file that is not a snapshot, and usage', async () => {
  let r = await cli(['snapshot', 'save', join(dir, 'x.db'), '--data-dir', join(dir, 'empty')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /holds no state\.db: not a crd-apiserver data directory/);
  r = await cli(['snapshot', 'restore', crdYamlPath(), '--data-dir', join(dir, 'never')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /is not a crd-apiserver snapshot/);
  assert.ok(!existsSync(join(dir, 'never', 'state.db')));
  r = await cli(['snapshot', 'take', 'x']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /snapshot needs save FILE or restore FILE/);
});

const crdYamlPath = (): string => fileURLToPath(new URL('../fixtures/crontab-crd.yaml', import.meta.url));
