// --client-ca-file: client certificates signed by another CA (made here with openssl, as a team's own CA would
// be) authenticate as their CN with their O as groups, next to the server's own admin certificate; without
// the flag the same certificate is refused with 401.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireKubectl, startTestServer, type KubectlResult, type TestServer } from './harness.js';

requireKubectl();
const dir = mkdtempSync(join(tmpdir(), 'client-ca-'));
const f = (n: string): string => join(dir, n);
const openssl = (args: string[]): void => void execFileSync('openssl', args, { stdio: 'pipe' });
let withCa: TestServer;
let without: TestServer;

before(async () => {
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.crt'), '-subj', '/CN=team-ca', '-days', '1']);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('carol.key'), '-out', f('carol.csr'), '-subj', '/CN=carol/O=devs/O=ops']);
  writeFileSync(f('ext.cnf'), 'extendedKeyUsage=clientAuth\n');
  openssl(['x509', '-req', '-in', f('carol.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('carol.crt'), '-days', '1', '-extfile', f('ext.cnf')]);
  [withCa, without] = await Promise.all([startTestServer({ clientCaFile: f('ca.crt') }), startTestServer()]);
});
after(async () => {
  await Promise.all([withCa?.close(), without?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** kubectl with carol's certificate as the only credential. */
const asCarol = (s: TestServer, args: string[]): Promise<KubectlResult> => s.kubectlAs({ cert: readFileSync(f('carol.crt'), 'utf8'), key: readFileSync(f('carol.key'), 'utf8') }, args);

test('a certificate from the --client-ca-file CA authenticates as its CN and O', async () => {
  const r = await asCarol(withCa, ['auth', 'whoami', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const info = JSON.parse(r.stdout).status.userInfo;
  assert.equal(info.username, 'carol');
  assert.deepEqual(info.groups, ['devs', 'ops', 'system:authenticated']);
  // The server's own admin certificate still works.
  assert.equal((await withCa.kubectl(['get', 'ns', 'default'])).code, 0);
  // RBAC applies to carol: nothing is bound to her.
  const denied = await asCarol(withCa, ['get', 'configmaps']);
  assert.notEqual(denied.code, 0);
  assert.match(denied.stderr, /User "carol" cannot list resource "configmaps" in API group "" in the namespace "default"/);
});

test('without the flag the same certificate is refused with 401', async () => {
  const r = await asCarol(without, ['auth', 'whoami']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /You must be logged in to the server \(Unauthorized\)/);
});
