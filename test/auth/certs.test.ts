import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type TLSSocket } from 'node:tls';
import forge from 'node-forge';
import { ensureCertificates, certSANs, coversHosts, servingHosts, type Certs } from '../../src/auth/certs.js';
import { authenticate, type UserInfo } from '../../src/auth/authenticate.js';

const EKU_SERVER = '1.3.6.1.5.5.7.3.1';
const EKU_CLIENT = '1.3.6.1.5.5.7.3.2';
const DAY = 24 * 3600_000;

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'auth-certs-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function subjectKeyId(pem: string): string {
  const e = forge.pki.certificateFromPem(pem).getExtension('subjectKeyIdentifier') as { subjectKeyIdentifier: string };
  return e.subjectKeyIdentifier;
}

// forge does not decode the AKI; its value is SEQUENCE { [0] keyIdentifier }.
function authorityKeyId(pem: string): string {
  const e = forge.pki.certificateFromPem(pem).getExtension('authorityKeyIdentifier') as { value: string };
  const seq = forge.asn1.fromDer(e.value).value as forge.asn1.Asn1[];
  return forge.util.bytesToHex(seq[0]!.value as string);
}

interface Seen {
  authorized: boolean;
  subject: Record<string, unknown> | undefined;
  user: UserInfo | undefined;
}

/** An https server shaped like the real one: our serving cert, client certs requested but optional. */
async function startServer(certs: Certs): Promise<{ server: Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer(
    { cert: certs.serverCert, key: certs.serverKey, ca: certs.caCert, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      const peer = socket.getPeerCertificate();
      seen.push({ authorized: socket.authorized, subject: peer.subject ? { ...peer.subject } : undefined, user: authenticate(req) });
      res.end('ok');
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

function get(
  port: number,
  opts: { ca: string; cert?: string; key?: string; servername?: string },
): Promise<{ status: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca: opts.ca, cert: opts.cert, key: opts.key, servername: opts.servername ?? 'localhost' });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('secureConnect', () => socket.write('GET /version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    socket.on('data', (d: string) => (data += d));
    socket.on('end', () => resolve({ status: data.split('\r\n')[0] ?? '', body: data.split('\r\n\r\n')[1] ?? '' }));
    socket.on('error', reject);
  });
}

test('generates a CA, a serving cert and an admin cert with the expected extensions', async (t) => {
  const dir = await tempDir(t);
  const before = Date.now();
  const certs = await ensureCertificates(dir, { hosts: [] });

  assert.equal(certs.dir, join(dir, 'pki'));
  for (const [file, mode] of [
    ['ca.crt', 0o644],
    ['ca.key', 0o600],
    ['apiserver.crt', 0o644],
    ['apiserver.key', 0o600],
    ['admin.crt', 0o644],
    ['admin.key', 0o600],
  ] as const) {
    const st = await stat(join(dir, 'pki', file));
    assert.equal(st.mode & 0o777, mode, `${file} mode`);
  }
  assert.equal(await readFile(certs.paths.caCert, 'utf8'), certs.caCert);
  assert.equal(await readFile(certs.paths.adminKey, 'utf8'), certs.adminKey);

  const ca = new X509Certificate(certs.caCert);
  const server = new X509Certificate(certs.serverCert);
  const admin = new X509Certificate(certs.adminCert);

  assert.equal(ca.ca, true);
  assert.equal(ca.subject, 'CN=crd-apiserver-ca');
  assert.ok(ca.verify(ca.publicKey), 'CA is self-signed');
  assert.ok(Date.parse(ca.validFrom) < before - 10 * 60_000, 'notBefore is backdated');
  assert.ok(Date.parse(ca.validTo) - before > 3649 * DAY, 'CA valid ~10 years');

  for (const leaf of [server, admin]) {
    assert.equal(leaf.ca, false);
    assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey), 'signed by the CA');
    assert.ok(Date.parse(leaf.validFrom) < before - 10 * 60_000);
    const life = Date.parse(leaf.validTo) - before;
    assert.ok(life > 364 * DAY && life < 366 * DAY, 'leaf valid ~1 year');
  }
  assert.deepEqual(server.keyUsage, [EKU_SERVER]);
  assert.deepEqual(admin.keyUsage, [EKU_CLIENT]);
  assert.equal(admin.subject, 'O=system:masters\nCN=kubernetes-admin');
  assert.equal(server.subjectAltName, 'IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');

  // Key identifiers chain: each leaf's AKI is the CA's SKI (and the CA's AKI is its own SKI).
  const caSki = subjectKeyId(certs.caCert);
  assert.equal(caSki.length, 40);
  for (const pem of [certs.caCert, certs.serverCert, certs.adminCert]) assert.equal(authorityKeyId(pem), caSki);
  assert.notEqual(subjectKeyId(certs.serverCert), caSki);
  assert.notEqual(ca.serialNumber, server.serialNumber);
  assert.match(certs.caKey, /^-----BEGIN PRIVATE KEY-----/);
});

test('TLS works end to end: server cert verifies for every SAN, admin client cert is authorized', async (t) => {
  const dir = await tempDir(t);
  const certs = await ensureCertificates(dir, { hosts: ['api.example.test'] });
  const { server, port, seen } = await startServer(certs);
  t.after(() => new Promise<void>((r) => server.close(() => r())));

  for (const servername of ['localhost', 'api.example.test']) {
    const res = await get(port, { ca: certs.caCert, cert: certs.adminCert, key: certs.adminKey, servername });
    assert.equal(res.status, 'HTTP/1.1 200 OK');
  }
  assert.equal(seen.length, 2);
  for (const s of seen) {
    assert.equal(s.authorized, true);
    assert.deepEqual(s.subject, { O: 'system:masters', CN: 'kubernetes-admin' });
    assert.deepEqual(s.user, { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
  }

  // A name the certificate does not carry is refused by the client.
  await assert.rejects(get(port, { ca: certs.caCert, servername: 'other.example.test' }), /does not match certificate's altnames|Hostname\/IP does not match/);

  // No client certificate: the connection is fine, the user is anonymous.
  const anon = await get(port, { ca: certs.caCert });
  assert.equal(anon.status, 'HTTP/1.1 200 OK');
  assert.equal(seen.at(-1)!.authorized, false);
  assert.deepEqual(seen.at(-1)!.user, { name: 'system:anonymous', groups: ['system:unauthenticated'] });
});

test('a client certificate from another CA, or one without clientAuth, is rejected (401), not anonymous', async (t) => {
  const dir = await tempDir(t);
  const other = await tempDir(t);
  const certs = await ensureCertificates(dir, { hosts: [] });
  const foreign = await ensureCertificates(other, { hosts: [] });
  const { server, port, seen } = await startServer(certs);
  t.after(() => new Promise<void>((r) => server.close(() => r())));

  await get(port, { ca: certs.caCert, cert: foreign.adminCert, key: foreign.adminKey });
  assert.equal(seen.at(-1)!.authorized, false);
  assert.equal(seen.at(-1)!.user, undefined);

  // Our own serving certificate is signed by our CA but only for serverAuth.
  await get(port, { ca: certs.caCert, cert: certs.serverCert, key: certs.serverKey });
  assert.equal(seen.at(-1)!.user, undefined);
});

test('second start reuses the files byte for byte, quickly', async (t) => {
  const dir = await tempDir(t);
  const first = await ensureCertificates(dir, { hosts: ['10.0.0.5'] });
  const mtime = (await stat(first.paths.serverCert)).mtimeMs;

  const started = performance.now();
  const second = await ensureCertificates(dir, { hosts: ['10.0.0.5'] });
  const elapsed = performance.now() - started;

  assert.deepEqual(second, first);
  assert.equal((await stat(first.paths.serverCert)).mtimeMs, mtime);
  assert.ok(elapsed < 250, `reuse took ${elapsed.toFixed(0)}ms`);

  // Fewer hosts, or the same IPv6 address spelled differently, are still covered.
  assert.deepEqual(await ensureCertificates(dir, { hosts: [] }), first);
  assert.deepEqual(await ensureCertificates(dir, { hosts: ['0:0:0:0:0:0:0:1', 'LOCALHOST', '[::1]'] }), first);
});

test('an uncovered host reissues only the serving certificate', async (t) => {
  const dir = await tempDir(t);
  const first = await ensureCertificates(dir, { hosts: [] });
  assert.equal(coversHosts(first.serverCert, ['my.host.test']), false);

  const second = await ensureCertificates(dir, { hosts: ['my.host.test', '192.168.7.7', 'fd00::7'] });
  assert.equal(second.caCert, first.caCert);
  assert.equal(second.caKey, first.caKey);
  assert.equal(second.adminCert, first.adminCert);
  assert.notEqual(second.serverCert, first.serverCert);
  assert.notEqual(second.serverKey, first.serverKey);

  const sans = certSANs(second.serverCert);
  assert.deepEqual([...sans.dns].sort(), ['localhost', 'my.host.test']);
  assert.deepEqual([...sans.ips].sort(), ['127.0.0.1', '192.168.7.7', '::1', 'fd00::7']);
  assert.ok(coversHosts(second.serverCert, ['MY.host.test', 'fd00:0::7']));
  assert.ok(new X509Certificate(second.serverCert).verify(new X509Certificate(first.caCert).publicKey));

  // And it is stable from then on.
  assert.deepEqual(await ensureCertificates(dir, { hosts: ['my.host.test'] }), second);
});

test('missing or broken files are regenerated; a new CA reissues both leaves', async (t) => {
  const dir = await tempDir(t);
  const first = await ensureCertificates(dir, { hosts: [] });

  await unlink(first.paths.adminKey);
  const second = await ensureCertificates(dir, { hosts: [] });
  assert.equal(second.caCert, first.caCert);
  assert.equal(second.serverCert, first.serverCert);
  assert.notEqual(second.adminCert, first.adminCert);
  assert.ok(new X509Certificate(second.adminCert).checkPrivateKey(createPrivateKey(second.adminKey)));

  await writeFile(first.paths.caCert, 'garbage');
  const third = await ensureCertificates(dir, { hosts: [] });
  assert.notEqual(third.caCert, first.caCert);
  const ca = new X509Certificate(third.caCert);
  assert.ok(new X509Certificate(third.serverCert).verify(ca.publicKey));
  assert.ok(new X509Certificate(third.adminCert).verify(ca.publicKey));
});

test('servingHosts puts the loopback names first, de-duplicates and drops wildcard addresses', () => {
  assert.deepEqual(servingHosts(['0.0.0.0', '::', 'Example.COM', 'localhost', '0:0::1', '10.0.0.1']), [
    '127.0.0.1',
    '::1',
    'localhost',
    'example.com',
    '10.0.0.1',
  ]);
});
