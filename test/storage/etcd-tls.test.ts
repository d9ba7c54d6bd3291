// --etcd-cafile, --etcd-certfile, --etcd-keyfile: the etcd store over TLS with client certificates,
// against an etcd that requires them. Certificates are made with openssl, as an operator would.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { openEtcdStore, StorageError } from '../../src/storage/index.js';
import { startEtcd, type EtcdProcess, type EtcdTls, makeEtcdTls } from './etcd-process.js';

let dir: string;
let tls: EtcdTls;
let etcd: EtcdProcess;



before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crd-etcd-tls-'));
  tls = makeEtcdTls(dir);
  etcd = await startEtcd({ tls });
});
after(async () => {
  await etcd?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

it('connects with the CA and a client certificate, and writes, reads and watches', async () => {
  const s = await openEtcdStore({ servers: [etcd.url], caFile: tls.ca, certFile: tls.clientCert, keyFile: tls.clientKey });
  try {
    const res = await s.create('/registry/things/a', '{}');
    assert.ok(res.ok);
    assert.equal((await s.get('/registry/things/a'))?.modRevision, res.revision);
    const got: number[] = [];
    const w = s.watch('/registry/things/', { fromRevision: 0, onEvent: (e) => got.push(e.kv.modRevision) });
    for (let i = 0; i < 100 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(got, [res.revision]);
    w.close();
  } finally {
    await s.close();
  }
});

it('fails to start without a client certificate that etcd accepts', async () => {
  await assert.rejects(openEtcdStore({ servers: [etcd.url], caFile: tls.ca, dialTimeoutMs: 2_000 }), (err: unknown) => {
    assert.ok(err instanceof StorageError);
    assert.equal(err.code, 'unavailable');
    assert.match(err.message, /^cannot reach etcd at https:\/\/127\.0\.0\.1:\d+: /);
    return true;
  });
});
