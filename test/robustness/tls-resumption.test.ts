// A client that offers its previous session skips the full handshake (the signature and the key exchange) on
// the secure port, as Go's server allows by default, and is still the same user when it authenticated with a
// client certificate: the resumed session carries the verified certificate.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { ensureCertificates, type Certs } from '../../src/auth/certs.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';

interface Outcome {
  reused: boolean;
  version: string;
  username: string;
  session: Buffer | undefined;
}

/** A SelfSubjectReview on a new connection (opts.session: offering it); the user it names and whether the session was resumed. */
function whoami(url: string, opts: tls.ConnectionOptions): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let session: Buffer | undefined;
    const socket = tls.connect({ host: hostname, port: Number(port), rejectUnauthorized: false, ...opts });
    socket.on('session', (s: Buffer) => (session = s));
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      const reused = socket.isSessionReused();
      const version = socket.getProtocol() ?? '';
      const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
      const req = http.request(
        {
          createConnection: () => socket,
          method: 'POST',
          path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
          headers: { 'Content-Type': 'application/json', Connection: 'close' },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d));
          res.on('end', () => {
            // TLS 1.3 tickets arrive after the handshake: wait for the connection's end so that the last is kept.
            socket.once('close', () => {
              // system:anonymous may not create the review: its 403 names the user instead.
              const username = res.statusCode === 201 ? JSON.parse(text).status.userInfo.username : /User "([^"]+)"/.exec(String(JSON.parse(text).message))?.[1];
              if (!username) return reject(new Error(`HTTP ${res.statusCode}: ${text}`));
              resolve({ reused, version, username, session });
            });
            socket.end();
          });
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  });
}

describe('TLS session resumption on the secure port', () => {
  let dir: string;
  let certs: Certs;
  let server: RunningServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crd-tls-resume-'));
    certs = await ensureCertificates(dir, { hosts: ['127.0.0.1'] });
    const kv = openSqliteStore(':memory:', { compactionIntervalMs: 0 });
    server = await startServer({ kv, securePort: 0, tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.caCert } });
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves with an ECDSA P-256 key, whose handshake signature is the cheap one', () => {
    const key = new X509Certificate(certs.serverCert).publicKey;
    assert.equal(key.asymmetricKeyType, 'ec');
    assert.equal(key.asymmetricKeyDetails?.namedCurve, 'prime256v1');
  });

  for (const version of ['TLSv1.3', 'TLSv1.2'] as const) {
    it(`resumes a ${version} session, and the client certificate's user stays authenticated`, async () => {
      const client = { cert: certs.adminCert, key: certs.adminKey, minVersion: version, maxVersion: version };
      const first = await whoami(server.secureUrl!, client);
      assert.deepEqual([first.version, first.reused, first.username], [version, false, 'kubernetes-admin']);
      assert.ok(first.session, 'the server issued no session ticket');
      const second = await whoami(server.secureUrl!, { ...client, session: first.session });
      assert.deepEqual([second.version, second.reused, second.username], [version, true, 'kubernetes-admin']);
      // Without a certificate the resumed session is anonymous, as its full handshake was.
      const anon = await whoami(server.secureUrl!, { minVersion: version, maxVersion: version });
      const anonAgain = await whoami(server.secureUrl!, { minVersion: version, maxVersion: version, session: anon.session });
      assert.deepEqual([anonAgain.reused, anonAgain.username], [true, 'system:anonymous']);
    });
  }
});
