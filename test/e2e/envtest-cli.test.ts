// `crd-apiserver envtest` for test suites in other languages (here Debian's python client), and
// `crd-apiserver kubeconfig --user` minting identities from a data directory's CA (kubectl auth whoami).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireKubectl, startTestServer } from './harness.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const CRD = fileURLToPath(new URL('../fixtures/crontab-crd.yaml', import.meta.url));
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

// Debian's interpreter, where python3-kubernetes is installed (a python3 earlier on PATH may be another one).
const PY = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

function requirePythonClient(): void {
  const r = spawnSync(PY, ['-c', 'import kubernetes'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 with the kubernetes client is required (apt-get install python3-kubernetes): ${r.stderr}`);
}

const PYTHON = `
import sys
from kubernetes import client, config
config.load_kube_config()
crd = client.ApiextensionsV1Api().read_custom_resource_definition("crontabs.stable.example.com")
print("established", [c.status for c in crd.status.conditions if c.type == "Established"])
api = client.CustomObjectsApi()
api.create_namespaced_custom_object("stable.example.com", "v1", "default", "crontabs",
    {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "from-python"}, "spec": {"cronSpec": "* * * * */5", "image": "img"}})
print("listed", [o["metadata"]["name"] for o in api.list_namespaced_custom_object("stable.example.com", "v1", "default", "crontabs")["items"]])
`;

test('envtest: CRDs installed and Established, export KUBECONFIG=..., a python test suite uses it, SIGTERM ends it', async () => {
  requirePythonClient();
  const child = spawn(process.execPath, ['--import', 'tsx', main, 'envtest', '--crds', CRD], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  try {
    const kubeconfig = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`envtest did not start: ${out} ${err}`)), 60_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^export KUBECONFIG=(.+)$/m.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    const py = spawnSync(PY, ['-c', PYTHON], { encoding: 'utf8', env: { ...process.env, KUBECONFIG: kubeconfig }, timeout: 60_000 });
    assert.equal(py.status, 0, py.stderr);
    assert.equal(py.stdout, "established ['True']\nlisted ['from-python']\n");
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exited, 0, err);
});

test('envtest: a CRD that cannot be installed ends it with exit code 1 and the reason', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crd-envtest-bad-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'bad.yaml'), 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: wrong.example.com}\nspec: {}\n');
  const r = spawnSync(process.execPath, ['--import', 'tsx', main, 'envtest', '--crds', dir], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^crd-apiserver: .*bad\.yaml: installing CustomResourceDefinition failed: CustomResourceDefinition\.apiextensions\.k8s\.io "wrong\.example\.com" is invalid: /);
});

test('kubeconfig --user alice --group devs: kubectl auth whoami as alice', async () => {
  requireKubectl();
  const s = await startTestServer();
  try {
    const path = join(s.dataDir, 'alice.kubeconfig');
    const r = spawnSync(process.execPath, ['--import', 'tsx', main, 'kubeconfig', '--user', 'alice', '--group', 'devs', '--group', 'qa', '--data-dir', s.dataDir, '--out', path], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    // kubectl asynchronously: the server answering it runs in this process.
    const who = await s.kubectl(['--kubeconfig', path, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}']);
    assert.equal(who.stdout, 'alice ["devs","qa","system:authenticated"]', who.stderr);
    const missing = spawnSync(process.execPath, ['--import', 'tsx', main, 'kubeconfig', '--group', 'devs'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^crd-apiserver: --user is required\n/);
  } finally {
    await s.close();
  }
});
