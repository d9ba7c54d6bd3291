// Lists large enough to be streamed in chunks (the stored bytes of each object, resourceVersion inserted),
// read by real clients: @kubernetes/client-node, kubectl (JSON and the Table it prints), python3-kubernetes.
// kubectl's output is compared with what it prints from the decoding path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { requireKubectl } from './harness.js';
import { startWithClients, installCrd, crontabCrd, GROUP, VERSION, PLURAL, API_VERSION, type Clients } from '../client-node/helpers.js';
import { serveStoredBytes } from '../../src/server/resource-handler.js';

requireKubectl();
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const COUNT = 300;

let c: Clients;
before(async () => {
  c = await startWithClients();
  await installCrd(c, crontabCrd());
  for (let i = 0; i < COUNT; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, COUNT - i) }, (_, j) =>
        c.custom.createNamespacedCustomObject({
          group: GROUP,
          version: VERSION,
          namespace: 'default',
          plural: PLURAL,
          body: { apiVersion: API_VERSION, kind: 'CronTab', metadata: { name: `ct-${i + j}`, labels: { n: String(i + j) } }, spec: { cronSpec: '* * * * */5', image: `img-${'é'.repeat(2000)}` } },
        }),
      ),
    );
  }
});
after(async () => {
  serveStoredBytes(true);
  await c?.server.close();
});

test('client-node lists a streamed list whole, each object at its resourceVersion', async () => {
  const list = (await c.custom.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL })) as {
    items: { metadata: { name: string; resourceVersion: string } }[];
  };
  assert.equal(list.items.length, COUNT);
  const one = (await c.custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'ct-7' })) as { metadata: { resourceVersion: string } };
  assert.equal(list.items.find((o) => o.metadata.name === 'ct-7')!.metadata.resourceVersion, one.metadata.resourceVersion);
});

test('kubectl get prints the same from the stored bytes as from decoded objects, as JSON and as a table', async () => {
  const run = async (args: string[]): Promise<string> => {
    const r = await c.server.kubectl(args);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const json = await run(['get', 'crontabs', '-o', 'json']);
  const table = await run(['get', 'crontabs', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name,RV:.metadata.resourceVersion']);
  const printed = await run(['get', 'crontabs']);
  serveStoredBytes(false);
  try {
    assert.equal(await run(['get', 'crontabs', '-o', 'json']), json);
    assert.equal(await run(['get', 'crontabs', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name,RV:.metadata.resourceVersion']), table);
  } finally {
    serveStoredBytes(true);
  }
  assert.equal(JSON.parse(json).items.length, COUNT);
  assert.equal(table.trim().split('\n').length, COUNT);
  const lines = printed.trim().split('\n');
  assert.match(lines[0]!, /^NAME\s/);
  assert.equal(lines.length, COUNT + 1);
});

test('python3-kubernetes lists the streamed list', async () => {
  const script = `
import json, sys
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
items = client.CustomObjectsApi().list_namespaced_custom_object("${GROUP}", "${VERSION}", "default", "${PLURAL}")["items"]
print(json.dumps([len(items), sorted(i["metadata"]["name"] for i in items)[0], len(items[0]["spec"]["image"])]))
`;
  const r = await promisify(execFile)(PYTHON, ['-c', script, c.server.kubeconfig], { timeout: 60_000, maxBuffer: 1 << 24 });
  assert.deepEqual(JSON.parse(r.stdout), [COUNT, 'ct-0', 2004]);
});
