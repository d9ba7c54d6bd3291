// --etcd-cafile, --etcd-certfile, --etcd-keyfile: the etcd store over TLS with client certificates,
// against an etcd that requires them. Certificates are made with openssl, as an operator would.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { openEtcdStore, StorageError } from '../../src/storage/index.js';
import { startEtcd, type EtcdProcess, type EtcdTls } from './etcd-process.js';

let dir: string;
let tls: EtcdTls;
let etcd: EtcdProcess;

function openssl(args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A key pair signed by the test CA, with the given extensions. */
function issue(name: string, ext: string): void {
  openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '1', '-extfile', `${name}.ext`]);
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crd-etcd-tls-'));
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=etcd-test-ca']);
  issue('server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  issue('client', 'extendedKeyUsage=clientAuth\n');
  const f = (n: string) => join(dir, n);
  tls = { ca: f('ca.crt'), cert: f('server.crt'), key: f('server.key'), clientCert: f('client.crt'), clientKey: f('client.key') };
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
