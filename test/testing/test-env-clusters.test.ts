// The test kit with isolation: 'cluster': each environment a new logical cluster of one server the process's
// environments share. Two at once, each with its own CRDs and objects of the same names; reset() within one
// cluster; stop() deletes the cluster, and the last stop stops the shared server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { startTestEnv } from '../../src/testing/index.js';

const CRD = fileURLToPath(new URL('../fixtures/crontab-crd.yaml', import.meta.url));
const GROUP = { group: 'stable.example.com', version: 'v1', plural: 'crontabs' };

test('environments in logical clusters of one shared server: isolated, reset alone, deleted on stop', async () => {
  const [a, b] = await Promise.all([startTestEnv({ crds: [CRD], isolation: 'cluster' }), startTestEnv({ crds: [CRD], isolation: 'cluster' })]);
  const origin = (u: string): string => new URL(u).origin;
  assert.equal(origin(a.url), origin(b.url), 'one server');
  assert.match(a.url, /\/clusters\/test-\d+-\d+$/);
  assert.notEqual(a.url, b.url);
  const custom = async (env: typeof a): Promise<k8s.CustomObjectsApi> => (await env.kubeConfig()).makeApiClient(k8s.CustomObjectsApi);
  const core = async (env: typeof a): Promise<k8s.CoreV1Api> => (await env.kubeConfig()).makeApiClient(k8s.CoreV1Api);
  const crontab = (spec: string) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'same' }, spec: { cronSpec: spec } });
  await (await custom(a)).createNamespacedCustomObject({ ...GROUP, namespace: 'default', body: crontab('a') });
  await (await custom(b)).createNamespacedCustomObject({ ...GROUP, namespace: 'default', body: crontab('b') });
  const spec = async (env: typeof a): Promise<string> =>
    ((await (await custom(env)).getNamespacedCustomObject({ ...GROUP, namespace: 'default', name: 'same' })) as { spec: { cronSpec: string } }).spec.cronSpec;
  assert.equal(await spec(a), 'a');
  assert.equal(await spec(b), 'b');
  // reset() empties a's cluster (CRD kept) and leaves b's alone.
  await (await core(a)).createNamespace({ body: { metadata: { name: 'scratch' } } });
  await a.reset();
  const names = (await (await core(a)).listNamespace()).items.map((n) => n.metadata?.name);
  assert.ok(!names.includes('scratch'), String(names));
  const left = (await (await custom(a)).listNamespacedCustomObject({ ...GROUP, namespace: 'default' })) as { items: unknown[] };
  assert.equal(left.items.length, 0);
  assert.equal(await spec(b), 'b');
  // stop() deletes a's cluster; b's server goes on, until b stops too.
  await a.stop();
  await assert.rejects((await custom(a)).getNamespacedCustomObject({ ...GROUP, namespace: 'default', name: 'same' }));
  assert.equal(await spec(b), 'b');
  await b.stop();
  await assert.rejects((await core(b)).listNamespace(), /ECONNREFUSED|fetch failed|connect/);
});

test("reset() in a cluster keeps what the cluster's server made at its start: bootstrap RBAC, namespaces, ServiceAccounts", async () => {
  // No CRDs: nothing but the kit itself starts the cluster's server before reset()'s baseline is taken.
  const env = await startTestEnv({ isolation: 'cluster' });
  try {
    const rbac = (await env.kubeConfig()).makeApiClient(k8s.RbacAuthorizationV1Api);
    await rbac.createNamespacedRoleBinding({
      namespace: 'default',
      body: { metadata: { name: 'alice-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }] },
    });
    await env.reset();
    const roles = (await rbac.listClusterRole()).items.map((r) => r.metadata?.name);
    for (const name of ['cluster-admin', 'view', 'system:discovery']) assert.ok(roles.includes(name), `${name} after reset: ${roles.length} ClusterRoles`);
    const core = (await env.kubeConfig()).makeApiClient(k8s.CoreV1Api);
    assert.deepEqual((await core.listNamespace()).items.map((n) => n.metadata?.name).sort(), ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    assert.ok((await core.listNamespacedServiceAccount({ namespace: 'default' })).items.some((sa) => sa.metadata?.name === 'default'));
    // The binding made after the baseline is gone; binding again works through the bootstrap role.
    assert.equal((await rbac.listNamespacedRoleBinding({ namespace: 'default' })).items.length, 0);
    await rbac.createNamespacedRoleBinding({
      namespace: 'default',
      body: { metadata: { name: 'alice-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }] },
    });
    const alice = new k8s.KubeConfig();
    alice.loadFromString(env.user('alice').kubeconfig);
    await alice.makeApiClient(k8s.CoreV1Api).listNamespacedConfigMap({ namespace: 'default' });
  } finally {
    await env.stop();
  }
});
