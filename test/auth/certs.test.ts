import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { isIP as netIsIP, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { ensureCertificates, certSANs, coversHosts, isIP, servingHosts, type Certs } from '../../src/auth/certs.js';
import { authenticate, type UserInfo } from '../../src/auth/authenticate.js';
import * as x509 from '../../src/auth/x509.js';

const EKU_SERVER = '1.3.6.1.5.5.7.3.1';
const EKU_CLIENT = '1.3.6.1.5.5.7.3.2';
const DAY = 24 * 3600_000;
// A data dir written by the previous, node-forge based version: RSA-2048 keys, PrintableString
// names, CRLF PEM. Its leaves were minted with the CA's 10-year lifetime (valid until 2036-11) so
// that the reuse test does not depend on today's date.
const LEGACY_PKI = fileURLToPath(new URL('./fixtures/legacy-rsa-pki/', import.meta.url));

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'auth-certs-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function parsed(pem: string): x509.ParsedCertificate {
  return x509.parseCertificate(new X509Certificate(pem).raw);
}

function extension(pem: string, oid: string): { critical: boolean; value: Buffer } {
  const ext = parsed(pem).extensions.get(oid);
  assert.ok(ext, `extension ${oid} present`);
  return ext;
}

function subjectKeyId(pem: string): string {
  return x509.readSubjectKeyIdentifier(extension(pem, x509.OID.subjectKeyIdentifier).value).toString('hex');
}

function authorityKeyId(pem: string): string {
  return x509.readAuthorityKeyIdentifier(extension(pem, x509.OID.authorityKeyIdentifier).value)!.toString('hex');
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

  // ECDSA P-256 keys in PKCS#8, certificates signed ecdsa-with-SHA256.
  for (const [pem, keyPem] of [
    [certs.caCert, certs.caKey],
    [certs.serverCert, certs.serverKey],
    [certs.adminCert, certs.adminKey],
  ] as const) {
    assert.match(keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
    const key = createPrivateKey(keyPem);
    assert.equal(key.asymmetricKeyType, 'ec');
    assert.equal(key.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.equal(parsed(pem).signatureAlgorithm, x509.OID.ecdsaWithSHA256);
  }

  // basicConstraints and keyUsage are critical; an ECDSA leaf only signs (no keyEncipherment).
  const bc = (pem: string): string => extension(pem, x509.OID.basicConstraints).value.toString('hex');
  const ku = (pem: string): string => extension(pem, x509.OID.keyUsage).value.toString('hex');
  assert.equal(bc(certs.caCert), '30030101ff');
  assert.equal(bc(certs.serverCert), '3000');
  assert.equal(ku(certs.caCert), '03020186'); // digitalSignature, keyCertSign, cRLSign
  assert.equal(ku(certs.serverCert), '03020780'); // digitalSignature
  assert.equal(ku(certs.adminCert), '03020780');
  for (const pem of [certs.caCert, certs.serverCert, certs.adminCert]) {
    assert.equal(extension(pem, x509.OID.basicConstraints).critical, true);
    assert.equal(extension(pem, x509.OID.keyUsage).critical, true);
    assert.equal(extension(pem, x509.OID.subjectKeyIdentifier).critical, false);
  }
  assert.equal(extension(certs.serverCert, x509.OID.extKeyUsage).critical, false);
  assert.equal(extension(certs.serverCert, x509.OID.subjectAltName).critical, false);

  // Node's own host checks read our SANs.
  assert.equal(server.checkHost('localhost'), 'localhost');
  assert.equal(server.checkHost('other.test'), undefined);
  assert.equal(server.checkIP('127.0.0.1'), '127.0.0.1');
  assert.equal(server.checkIP('::1'), '::1');
  assert.equal(server.checkIP('10.0.0.1'), undefined);
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

test('second start reuses the files byte for byte', async (t) => {
  const dir = await tempDir(t);
  const first = await ensureCertificates(dir, { hosts: ['10.0.0.5'] });
  const mtime = (await stat(first.paths.serverCert)).mtimeMs;

  const second = await ensureCertificates(dir, { hosts: ['10.0.0.5'] });

  assert.deepEqual(second, first);
  assert.equal((await stat(first.paths.serverCert)).mtimeMs, mtime);

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
  const serving = new X509Certificate(second.serverCert);
  assert.ok(serving.verify(new X509Certificate(first.caCert).publicKey));
  assert.equal(serving.checkIP('fd00::7'), 'fd00::7');
  assert.equal(serving.checkIP('192.168.7.7'), '192.168.7.7');
  assert.equal(serving.checkHost('my.host.test'), 'my.host.test');

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

test('a data dir from the RSA (node-forge) version is reused as it is, and new leaves chain to its CA', async (t) => {
  const dir = await tempDir(t);
  await cp(LEGACY_PKI, join(dir, 'pki'), { recursive: true });
  const files = Object.fromEntries(
    await Promise.all((await readdir(LEGACY_PKI)).map(async (f) => [f, await readFile(join(LEGACY_PKI, f), 'utf8')] as const)),
  );

  const reused = await ensureCertificates(dir, { hosts: [] });
  assert.equal(reused.caCert, files['ca.crt']);
  assert.equal(reused.caKey, files['ca.key']);
  assert.equal(reused.serverCert, files['apiserver.crt']);
  assert.equal(reused.serverKey, files['apiserver.key']);
  assert.equal(reused.adminCert, files['admin.crt']);
  assert.equal(reused.adminKey, files['admin.key']);
  assert.equal(createPrivateKey(reused.caKey).asymmetricKeyType, 'rsa');
  assert.deepEqual([...certSANs(reused.serverCert).ips].sort(), ['127.0.0.1', '::1']);

  // A new host: only the serving certificate is reissued, with an ECDSA key, signed by the RSA CA.
  const grown = await ensureCertificates(dir, { hosts: ['api.example.test'] });
  assert.equal(grown.caCert, files['ca.crt']);
  assert.equal(grown.adminCert, files['admin.crt']);
  assert.notEqual(grown.serverCert, files['apiserver.crt']);
  assert.equal(createPrivateKey(grown.serverKey).asymmetricKeyType, 'ec');
  const ca = new X509Certificate(grown.caCert);
  const serving = new X509Certificate(grown.serverCert);
  assert.ok(serving.checkIssued(ca) && serving.verify(ca.publicKey));
  assert.equal(parsed(grown.serverCert).signatureAlgorithm, x509.OID.sha256WithRSAEncryption);
  // Issuer name and AKI are taken from the CA as written, so they match its subject and SKI exactly.
  assert.equal(serving.issuer, ca.subject);
  assert.equal(authorityKeyId(grown.serverCert), subjectKeyId(grown.caCert));

  // Mixed chain over TLS: ECDSA server cert under the RSA CA, the RSA admin cert as client.
  const { server, port, seen } = await startServer(grown);
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  for (const servername of ['localhost', 'api.example.test']) {
    const res = await get(port, { ca: grown.caCert, cert: grown.adminCert, key: grown.adminKey, servername });
    assert.equal(res.status, 'HTTP/1.1 200 OK');
  }
  assert.deepEqual(seen.at(-1)!.user, { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
});

test('IPv4-mapped IPv6 and internationalized names round-trip through the SANs', async (t) => {
  const dir = await tempDir(t);
  const hosts = ['::ffff:10.1.2.3', 'Bücher.example', '2001:db8::1:0:0:1'];
  const first = await ensureCertificates(dir, { hosts });
  const sans = certSANs(first.serverCert);
  assert.deepEqual([...sans.dns].sort(), ['localhost', 'xn--bcher-kva.example']);
  assert.deepEqual([...sans.ips].sort(), ['127.0.0.1', '2001:db8::1:0:0:1', '::1', '::ffff:a01:203']);
  assert.ok(coversHosts(first.serverCert, hosts));
  assert.equal(new X509Certificate(first.serverCert).checkHost('xn--bcher-kva.example'), 'xn--bcher-kva.example');
  assert.deepEqual(await ensureCertificates(dir, { hosts }), first);
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

test('certs: hosts are told IP addresses as net.isIP tells them (without its IPv6 regular expression)', () => {
  const hosts = ['127.0.0.1', '1.2.3.4', '256.1.1.1', '1.2.3', '01.2.3.4', '::', '::1', '1::', 'fe80::1', '::ffff:1.2.3.4', '::ffff:1.2.3', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1::2::3', 'ffff::fffff', 'g::1', ':', ':::', '1.2.3.4::', '::1]/x[', '[::1]', 'localhost', 'example.com', '', ' ::1'];
  for (const h of hosts) assert.equal(isIP(h), netIsIP(h), h);
});
