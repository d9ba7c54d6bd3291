// migrate-backend to and from an etcd that requires TLS client certificates: --etcd-cafile, --etcd-certfile,
// --etcd-keyfile reach whichever side is etcd, and the --from-/--to- forms set one side's. Certificates are
// made with openssl, as test/storage/etcd-tls.test.ts makes them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, it } from 'node:test';
import { openEtcdStore, openSqliteStore } from '../../src/storage/index.js';
import { startEtcd, type EtcdProcess, type EtcdTls, makeEtcdTls } from '../storage/etcd-process.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
let dir: string;
let tls: EtcdTls;
let etcd: EtcdProcess;



function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', main, ...args], { timeout: 60_000 }, (err, _stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stderr });
    });
  });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crd-migrate-tls-'));
  tls = makeEtcdTls(dir);
  etcd = await startEtcd({ tls });
});
after(async () => {
  await etcd?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('copies into and out of an etcd that requires client certificates', async () => {
  const src = join(dir, 'src');
  const store = openSqliteStore(join(src, 'state.db'), { compactionIntervalMs: 0 });
  const keys = Array.from({ length: 25 }, (_, i) => `/registry/things/ns/t${String(i).padStart(2, '0')}`);
  for (const k of keys) await store.create(k, JSON.stringify({ metadata: { name: k, uid: `uid-${k}` } }));
  await store.close();

  const tlsFlags = ['--etcd-cafile', tls.ca, '--etcd-certfile', tls.clientCert, '--etcd-keyfile', tls.clientKey];
  let r = await cli(['migrate-backend', '--from', src, '--to', etcd.url, '--etcd-prefix', '/tls', ...tlsFlags]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /copied 25\/25 keys/);
  const e = await openEtcdStore({ servers: [etcd.url], prefix: '/tls', caFile: tls.ca, certFile: tls.clientCert, keyFile: tls.clientKey });
  try {
    const listed = await e.list('/registry/');
    assert.deepEqual(listed.items.map((kv) => kv.key), keys);
    assert.equal(JSON.parse(listed.items[3]!.value).metadata.uid, `uid-${keys[3]}`);
  } finally {
    await e.close();
  }

  // Without the client certificate etcd refuses the connection, and the message says where it tried.
  r = await cli(['migrate-backend', '--from', etcd.url, '--to', join(dir, 'never'), '--etcd-cafile', tls.ca]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /cannot reach etcd at https:\/\/127\.0\.0\.1:\d+/);
  r = await cli(['migrate-backend', '--from', etcd.url, '--to', join(dir, 'never'), '--etcd-certfile', tls.clientCert]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /--etcd-certfile and --etcd-keyfile must be given together/);

  // The --from- forms for the etcd side, back into a new data directory.
  const back = join(dir, 'back');
  r = await cli(['migrate-backend', '--from', etcd.url, '--from-etcd-prefix', '/tls', '--from-etcd-cafile', tls.ca, '--from-etcd-certfile', tls.clientCert, '--from-etcd-keyfile', tls.clientKey, '--to', back]);
  assert.equal(r.code, 0, r.stderr);
  const copy = openSqliteStore(join(back, 'state.db'), { compactionIntervalMs: 0 });
  try {
    const listed = await copy.list('/registry/');
    assert.deepEqual(listed.items.map((kv) => kv.key), keys);
    assert.equal(listed.items[3]!.value, JSON.stringify({ metadata: { name: keys[3], uid: `uid-${keys[3]}` } }));
  } finally {
    await copy.close();
  }
});
