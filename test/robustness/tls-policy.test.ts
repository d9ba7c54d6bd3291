import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ensureCertificates, type Certs } from '../../src/auth/certs.js';
import { GO_DEFAULT_CIPHER_SUITES, tlsPolicy } from '../../src/auth/tls-policy.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import type { TlsPolicyFlags } from '../../src/auth/tls-policy.js';

/** The negotiated suite and version, or the handshake's error. */
function handshake(url: string, opts: tls.ConnectionOptions): Promise<{ cipher: string; version: string } | { error: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = tls.connect({ host: hostname, port: Number(port), rejectUnauthorized: false, ...opts });
    socket.setTimeout(5_000, () => socket.destroy(new Error('timeout')));
    socket.once('secureConnect', () => {
      resolve({ cipher: socket.getCipher().name, version: socket.getProtocol() ?? '' });
      socket.destroy();
    });
    socket.once('error', (e) => resolve({ error: e.message }));
  });
}

describe('secure port TLS policy', () => {
  let dir: string;
  let certs: Certs;
  const servers: RunningServer[] = [];
  const start = async (flags: TlsPolicyFlags = {}): Promise<string> => {
    const kv = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
    const s = await startServer({ kv, securePort: 0, tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.caCert, ...flags } });
    servers.push(s);
    return s.secureUrl!;
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crd-tls-'));
    certs = await ensureCertificates(dir, { hosts: ['127.0.0.1'] });
  });
  after(async () => {
    for (const s of servers) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("offers TLS 1.2 clients only Go's default suites (the serving key is ECDSA)", async () => {
    const url = await start();
    for (const cipher of ['ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-ECDSA-AES256-GCM-SHA384', 'ECDHE-ECDSA-CHACHA20-POLY1305', 'ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA']) {
      assert.deepEqual(await handshake(url, { ciphers: cipher, maxVersion: 'TLSv1.2' }), { cipher, version: 'TLSv1.2' });
    }
    // CBC with SHA-256/384, CCM, CCM8 and ARIA: accepted by OpenSSL's defaults, not by Go's.
    for (const cipher of ['ECDHE-ECDSA-AES128-SHA256', 'ECDHE-ECDSA-AES256-SHA384', 'ECDHE-ECDSA-AES128-CCM', 'ECDHE-ECDSA-AES128-CCM8', 'ECDHE-ECDSA-ARIA128-GCM-SHA256']) {
      const r = await handshake(url, { ciphers: cipher, maxVersion: 'TLSv1.2' });
      assert.ok('error' in r, `${cipher} was accepted`);
    }
    // TLS 1.1 is refused; TLS 1.3 is negotiated when offered.
    assert.ok('error' in (await handshake(url, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'ECDHE-ECDSA-AES128-SHA:@SECLEVEL=0' })));
    assert.deepEqual(await handshake(url, { ciphers: 'TLS_AES_256_GCM_SHA384' }), { cipher: 'TLS_AES_256_GCM_SHA384', version: 'TLSv1.3' });
  });

  it('--tls-min-version=VersionTLS13 refuses a TLS 1.2 client', async () => {
    const url = await start({ minVersion: 'VersionTLS13' });
    assert.ok('error' in (await handshake(url, { maxVersion: 'TLSv1.2' })));
    assert.deepEqual(await handshake(url, { ciphers: 'TLS_CHACHA20_POLY1305_SHA256' }), { cipher: 'TLS_CHACHA20_POLY1305_SHA256', version: 'TLSv1.3' });
  });

  it('--tls-cipher-suites limits TLS 1.2 to the named suites', async () => {
    const url = await start({ cipherSuites: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_AES_128_GCM_SHA256'] });
    assert.ok('error' in (await handshake(url, { ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256', maxVersion: 'TLSv1.2' })));
    assert.deepEqual(await handshake(url, { ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384', maxVersion: 'TLSv1.2' }), { cipher: 'ECDHE-ECDSA-AES256-GCM-SHA384', version: 'TLSv1.2' });
  });

  it("maps kube's names and refuses unknown ones with kube's errors", () => {
    assert.equal(GO_DEFAULT_CIPHER_SUITES.length, 10);
    assert.deepEqual(tlsPolicy(), {
      minVersion: 'TLSv1.2',
      ciphers:
        'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:' +
        'ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA:ECDHE-RSA-AES256-SHA:' +
        'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256',
      insecure: [],
    });
    assert.equal(tlsPolicy({ cipherSuites: ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305'] }).ciphers.split(':')[0], 'ECDHE-RSA-CHACHA20-POLY1305');
    assert.deepEqual(tlsPolicy({ cipherSuites: ['TLS_RSA_WITH_AES_128_CBC_SHA256', 'TLS_RSA_WITH_AES_128_GCM_SHA256'] }).insecure, ['TLS_RSA_WITH_AES_128_CBC_SHA256']);
    // Only TLS 1.3 names leave TLS 1.2 without a suite.
    assert.equal(tlsPolicy({ cipherSuites: ['TLS_AES_128_GCM_SHA256'] }).minVersion, 'TLSv1.3');
    assert.equal(tlsPolicy({ minVersion: 'VersionTLS13' }).minVersion, 'TLSv1.3');
    assert.throws(() => tlsPolicy({ cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256'] }), {
      message: "Cipher suite ECDHE-RSA-AES128-GCM-SHA256 not supported or doesn't exist",
    });
    assert.throws(() => tlsPolicy({ minVersion: 'TLSv1.3' }), { message: 'unknown tls version "TLSv1.3"' });
  });

  it('the CLI refuses an unknown suite before starting', () => {
    const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
    const data = join(dir, 'never');
    const r = spawnSync(process.execPath, ['--import', 'tsx', main, 'serve', `--data-dir=${data}`, '--secure-port=0', '--tls-cipher-suites=TLS_FOO'], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /Cipher suite TLS_FOO not supported or doesn't exist/);
  });
});
