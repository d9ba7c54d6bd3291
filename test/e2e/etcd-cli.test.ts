// The command line of `serve --storage etcd`: the flags reach the store (--etcd-prefix puts the keys
// where kube-apiserver with that prefix would), and wrong combinations are refused before anything starts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Etcd3 } from 'etcd3';
import { requireEtcd, startEtcd, type EtcdProcess } from '../storage/etcd-process.js';
import { decodeStoredObject } from '../../src/server/protobuf.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
let etcd: EtcdProcess;
let dir: string;
before(async () => {
  requireEtcd();
  dir = mkdtempSync(join(tmpdir(), 'crd-etcd-cli-'));
  etcd = await startEtcd();
});
after(async () => {
  await etcd?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const refused = (args: string[]): string => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', main, 'serve', `--data-dir=${join(dir, 'never')}`, '--secure-port=0', ...args], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(r.status, 1, r.stderr);
  return r.stderr.trim();
};

test('wrong storage flags are refused with a message', () => {
  assert.equal(refused(['--storage=etcd']), 'crd-apiserver: --etcd-servers must be specified');
  assert.equal(refused([`--etcd-servers=${etcd.url}`]), 'crd-apiserver: --etcd-servers is only used with --storage etcd');
  assert.equal(refused(['--storage=mysql']), 'crd-apiserver: invalid --storage: mysql (want sqlite or etcd)');
  assert.equal(
    refused(['--storage-media-type=application/yaml']),
    'crd-apiserver: invalid --storage-media-type: application/yaml (want application/vnd.kubernetes.protobuf or application/json)',
  );
  assert.equal(
    refused(['--storage=etcd', '--etcd-servers=127.0.0.1:2379']),
    'crd-apiserver: invalid --etcd-servers URL 127.0.0.1:2379 (want http://HOST:PORT or https://HOST:PORT)',
  );
  assert.equal(
    refused(['--storage=etcd', `--etcd-servers=${etcd.url}`, '--etcd-certfile=x.pem']),
    'crd-apiserver: --etcd-certfile and --etcd-keyfile must be given together',
  );
  // A value that is not a duration at all is a usage error (exit code 2), in pflag's words.
  const r = spawnSync(process.execPath, ['--import', 'tsx', main, 'serve', '--storage=etcd', `--etcd-servers=${etcd.url}`, '--etcd-compaction-interval=soon'], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stderr.split('\n')[0], 'crd-apiserver: invalid argument "soon" for "--etcd-compaction-interval" flag: time: invalid duration "soon"');
});

test('serve --storage etcd --etcd-prefix keeps its state under the prefix', async () => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', main, 'serve', `--data-dir=${join(dir, 'data')}`, '--secure-port=0', '--storage=etcd', `--etcd-servers=${etcd.url}`, '--etcd-prefix=/custom/', '--etcd-compaction-interval=1m'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    for (let i = 0; i < 300 && !/serving on/.test(out); i++) await new Promise((r) => setTimeout(r, 100));
    assert.match(out, /crd-apiserver serving on https:\/\/127\.0\.0\.1:\d+/);
    const raw = new Etcd3({ hosts: etcd.url });
    try {
      // The default namespace the server creates at start-up, at kube's key under the prefix (as kube's protobuf).
      const ns = decodeStoredObject((await raw.get('/custom/namespaces/default').buffer())!);
      assert.equal((ns as { metadata: { name: string } }).metadata.name, 'default');
      assert.equal((await raw.getAll().prefix('/registry/').keys()).length, 0);
    } finally {
      raw.close();
    }
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exited, 0, out);
});
