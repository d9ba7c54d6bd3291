// A client-node controller running as a ServiceAccount under RBAC: a Role grants exactly what it needs in
// its namespace (read and label CronTabs, write their status); everything else, and everything once the
// Role is gone, is kube's 403.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { GROUP, PLURAL, VERSION, crontab, crontabCrd, eventually, expectStatus, installCrd, patchAs, startWithClients, type Clients, type CronTab, type CronTabList } from './helpers.js';

const NS = 'ops';
const SA = 'crontab-controller';
const USER = `system:serviceaccount:${NS}:${SA}`;
let c: Clients;
let asSa: k8s.CustomObjectsApi;

before(async () => {
  c = await startWithClients();
  await installCrd(c, crontabCrd());
  await c.core.createNamespace({ body: { metadata: { name: NS } } });
  await c.core.createNamespacedServiceAccount({ namespace: NS, body: { metadata: { name: SA } } });
  const rbac = c.kc.makeApiClient(k8s.RbacAuthorizationV1Api);
  await rbac.createNamespacedRole({
    namespace: NS,
    body: {
      metadata: { name: SA },
      rules: [
        { apiGroups: [GROUP], resources: [PLURAL], verbs: ['get', 'list', 'watch', 'patch'] },
        { apiGroups: [GROUP], resources: [`${PLURAL}/status`], verbs: ['update', 'patch'] },
      ],
    },
  });
  await rbac.createNamespacedRoleBinding({
    namespace: NS,
    body: { metadata: { name: SA }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: SA }, subjects: [{ kind: 'ServiceAccount', name: SA, namespace: NS }] },
  });
  const tr = await c.core.createNamespacedServiceAccountToken({ name: SA, namespace: NS, body: { spec: { audiences: [] } } });
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: c.server.url, caData: readFileSync(join(c.server.dataDir, 'pki', 'ca.crt')).toString('base64') }],
    users: [{ name: SA, token: tr.status!.token }],
    contexts: [{ name: 'x', cluster: 'c', user: SA }],
    currentContext: 'x',
  });
  asSa = kc.makeApiClient(k8s.CustomObjectsApi);
  await c.server.served.server.rbac.waitForStores();
});
after(async () => {
  await c?.server.close();
});

test('the ServiceAccount does what its Role allows, and nothing else', async () => {
  await c.custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, body: crontab('nightly') });
  const list = (await asSa.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL })) as CronTabList;
  assert.deepEqual(
    list.items.map((i) => i.metadata.name),
    ['nightly'],
  );
  const patched = (await asSa.patchNamespacedCustomObject(
    { group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name: 'nightly', body: { metadata: { labels: { seen: 'yes' } } } },
    patchAs('application/merge-patch+json'),
  )) as CronTab;
  assert.equal(patched.metadata.labels?.['seen'], 'yes');
  const denied = await expectStatus(asSa.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name: 'nightly' }), 403);
  assert.equal(
    denied.message,
    `crontabs.${GROUP} "nightly" is forbidden: User "${USER}" cannot delete resource "crontabs" in API group "${GROUP}" in the namespace "${NS}"`,
  );
  assert.deepEqual(denied.details, { name: 'nightly', group: GROUP, kind: PLURAL });
  const elsewhere = await expectStatus(asSa.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL }), 403);
  assert.equal(elsewhere.message, `crontabs.${GROUP} is forbidden: User "${USER}" cannot list resource "crontabs" in API group "${GROUP}" in the namespace "default"`);
  assert.equal(elsewhere.reason, 'Forbidden');
});

test('with the Role deleted, the controller is refused, and kube says why', async () => {
  await c.kc.makeApiClient(k8s.RbacAuthorizationV1Api).deleteNamespacedRole({ name: SA, namespace: NS });
  const refused = await eventually('the Role\'s removal to reach the authorizer', async () => {
    try {
      await asSa.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL });
      return undefined;
    } catch {
      return expectStatus(asSa.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL }), 403);
    }
  });
  assert.equal(
    refused.message,
    `crontabs.${GROUP} is forbidden: User "${USER}" cannot list resource "crontabs" in API group "${GROUP}" in the namespace "${NS}": RBAC: role.rbac.authorization.k8s.io "${SA}" not found`,
  );
});
