// The built-in objects of issue 14 through every kubectl from 1.27 to 1.33 the machine has: each creates a
// ConfigMap, a Secret and a ServiceAccount (kubectl's typed clients, protobuf bodies included), lists
// them with Leases and Events, and deletes what it made with a cascade.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

const DIR = '/usr/lib/google-cloud-sdk/bin';
const VERSIONS = ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'].filter((v) => existsSync(`${DIR}/kubectl.${v}`));

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

test('kubectl 1.27 to 1.33: create, list and delete ConfigMaps, Secrets and ServiceAccounts; list Leases and Events', async () => {
  assert.ok(VERSIONS.length > 0, `no versioned kubectl found in ${DIR}`);
  for (const v of VERSIONS) {
    const bin = `${DIR}/kubectl.${v}`;
    const n = `v${v.replace('.', '-')}`;
    const run = async (args: string[]): Promise<string> => {
      const r = await s.kubectl(args, { bin });
      assert.equal(r.code, 0, `kubectl ${v} ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    assert.equal((await run(['create', 'configmap', `cm-${n}`, '--from-literal=a=b'])).trim(), `configmap/cm-${n} created`);
    assert.equal((await run(['create', 'secret', 'generic', `s-${n}`, '--from-literal=p=q'])).trim(), `secret/s-${n} created`);
    assert.equal((await run(['create', 'serviceaccount', `sa-${n}`])).trim(), `serviceaccount/sa-${n} created`);
    const names = await run(['get', 'configmaps,secrets,serviceaccounts,leases,events', '-o', 'name']);
    for (const want of [`configmap/cm-${n}`, `secret/s-${n}`, `serviceaccount/sa-${n}`, 'serviceaccount/default', 'configmap/kube-root-ca.crt']) {
      assert.ok(names.split('\n').includes(want), `kubectl ${v}: ${want} not in\n${names}`);
    }
    assert.equal((await run(['get', 'configmap', `cm-${n}`, '-o', 'jsonpath={.data.a}'])), 'b');
    await run(['delete', 'configmap', `cm-${n}`, '--cascade=foreground']);
    await run(['delete', 'secret', `s-${n}`, '--cascade=orphan']);
    await run(['delete', 'serviceaccount', `sa-${n}`]);
  }
});
