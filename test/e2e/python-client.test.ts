// A second language: Debian's python3-kubernetes (the official python client) creates and reads the built-in
// objects operators touch (ConfigMaps, Secrets, ServiceAccounts, Leases, Events of both versions) against a
// server the test starts. It fails loudly when the client is missing (CI installs python3-kubernetes).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from './harness.js';

const SCRIPT = fileURLToPath(new URL('../fixtures/python-client.py', import.meta.url));
// Debian's interpreter, where python3-kubernetes is installed (a python3 earlier on PATH may be another one).
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

let s: TestServer;
before(async () => {
  const probe = await promisify(execFile)(PYTHON, ['-c', 'import kubernetes']).catch((e: Error) => e);
  if (probe instanceof Error) throw new Error(`python3-kubernetes is required by this test (apt-get install -y python3-kubernetes): ${probe.message}`);
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

test('python client: ConfigMaps, Secrets, ServiceAccounts, Leases and Events, core/v1 and events.k8s.io/v1', async () => {
  const r = await promisify(execFile)(PYTHON, [SCRIPT, s.kubeconfig, 'default'], { timeout: 60_000 });
  assert.deepEqual(JSON.parse(r.stdout), {
    configmap: { a: '1' },
    configmaps: ['kube-root-ca.crt', 'py-config'],
    secret: { type: 'Opaque', password: 's3cret' },
    serviceaccounts: ['default', 'py-sa'],
    lease: { holder: 'py', duration: 10 },
    events: [['Checked', 'checked by python'], ['Created', 'made by python']],
    eventsV1: [['Checked', 'checked by python', 'py-config'], ['Created', 'made by python', 'py-config']],
    deleted: true,
  });
});
