// On the secure port a connection that never completes its TLS handshake, or completes it and then sends no
// request, is closed after the header read timeout, as Go's server bounds the handshake by ReadHeaderTimeout
// (http.Server.tlsHandshakeTimeout); Node's own handshake timeout would leave it open for 120 s. And the
// connection cap holds on the secure port too: past it a connection is closed before its handshake.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import tls from 'node:tls';
import { ensureCertificates } from '../../src/auth/certs.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import type { KVStore } from '../../src/storage/types.js';

const TIMEOUT_MS = 400;
const CAP = 2;
let dir: string;
let kv: KVStore;
let server: RunningServer;
let port: number;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crd-tls-silent-'));
  const certs = await ensureCertificates(dir, { hosts: ['127.0.0.1'] });
  kv = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
  server = await startServer({ kv, securePort: 0, headerReadTimeoutMs: TIMEOUT_MS, maxConnections: CAP, tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.caCert } });
  port = Number(new URL(server.secureUrl!).port);
});
after(async () => {
  await server.close();
  await kv.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Milliseconds until the server closes s (or undefined if it has not within ms; s is then destroyed). */
function closedAfter(s: net.Socket, ms: number): Promise<number | undefined> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      s.destroy();
      resolve(undefined);
    }, ms);
    s.on('error', () => {});
    s.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - t0);
    });
    s.resume();
  });
}

test('a TCP connection that never starts the TLS handshake is closed after the header timeout', { timeout: 10_000 }, async () => {
  const s = await new Promise<net.Socket>((resolve, reject) => {
    const c = net.connect(port, '127.0.0.1', () => resolve(c));
    c.once('error', reject);
  });
  const ms = await closedAfter(s, 4000);
  assert.ok(ms !== undefined && ms >= TIMEOUT_MS - 50 && ms < 3000, `closed after ${ms} ms`);
});

test('a TLS connection that sends no request is closed after the header timeout', { timeout: 10_000 }, async () => {
  const s = await new Promise<tls.TLSSocket>((resolve, reject) => {
    const c = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => resolve(c));
    c.once('error', reject);
  });
  const ms = await closedAfter(s, 4000);
  assert.ok(ms !== undefined && ms < 3000, `closed after ${ms} ms`);
});

test('past the connection cap a TLS connection is closed before its handshake; the ones held still serve', { timeout: 10_000 }, async () => {
  const handshake = (): Promise<tls.TLSSocket> =>
    new Promise((resolve, reject) => {
      const c = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => resolve(c));
      c.once('error', reject);
      c.once('close', () => reject(new Error('closed before the handshake completed')));
    });
  const healthz = (s: tls.TLSSocket): Promise<string> =>
    new Promise((resolve) => {
      s.once('data', (c: Buffer) => resolve(c.toString('latin1').slice(9, 12)));
      s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    });
  const held: tls.TLSSocket[] = [];
  try {
    // Each held connection serves a request at once, so it is an idle keep-alive one (not cut by the short
    // header timeout) while the next connects.
    for (let i = 0; i < CAP; i++) {
      held.push(await handshake());
      assert.equal(await healthz(held[i]!), '200');
    }
    await assert.rejects(handshake(), /closed before the handshake|ECONNRESET|socket disconnected/);
    for (const s of held) assert.equal(await healthz(s), '200');
  } finally {
    for (const s of held) s.destroy();
  }
});
