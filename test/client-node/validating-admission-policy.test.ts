// ValidatingAdmissionPolicy through @kubernetes/client-node's AdmissionregistrationV1Api, as a policy
// operator uses it: typed create and read (defaults filled in), the status the type checker writes, and a
// ConfigMap create refused with kube's Status.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { eventually, expectStatus, startWithClients, type Clients } from './helpers.js';

let c: Clients;
let ar: k8s.AdmissionregistrationV1Api;
before(async () => {
  c = await startWithClients();
  ar = c.kc.makeApiClient(k8s.AdmissionregistrationV1Api);
});
after(async () => {
  await c?.server.close();
});

test('a policy and binding created, read and enforced', async () => {
  const created = await ar.createValidatingAdmissionPolicy({
    body: {
      metadata: { name: 'no-debug' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
        validations: [{ expression: "!has(object.data) || !('debug' in object.data)", messageExpression: "'configmap ' + object.metadata.name + ' must not set debug'", reason: 'Forbidden' }],
      },
    },
  });
  assert.equal(created.spec?.failurePolicy, 'Fail');
  assert.equal(created.spec?.matchConstraints?.matchPolicy, 'Equivalent');
  assert.equal(created.spec?.matchConstraints?.resourceRules?.[0]?.scope, '*');
  assert.equal(created.metadata?.generation, 1);
  await ar.createValidatingAdmissionPolicyBinding({ body: { metadata: { name: 'no-debug' }, spec: { policyName: 'no-debug', validationActions: ['Deny'] } } });
  const status = await eventually('type checking', async () => {
    const p = await ar.readValidatingAdmissionPolicyStatus({ name: 'no-debug' });
    return p.status?.observedGeneration === 1 ? p.status : undefined;
  });
  assert.deepEqual(JSON.parse(JSON.stringify(status)), { observedGeneration: 1, typeChecking: {} });
  const refused = await eventually('the policy enforced', async () => {
    try {
      await c.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cfg' }, data: { debug: 'true' } } });
      await c.core.deleteNamespacedConfigMap({ namespace: 'default', name: 'cfg' });
      return undefined;
    } catch {
      return expectStatus(c.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cfg' }, data: { debug: 'true' } } }), 403);
    }
  });
  assert.deepEqual(refused, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `configmaps "cfg" is forbidden: ValidatingAdmissionPolicy 'no-debug' with binding 'no-debug' denied request: configmap cfg must not set debug`,
    reason: 'Forbidden',
    details: { name: 'cfg', kind: 'configmaps', causes: [{ message: `ValidatingAdmissionPolicy 'no-debug' with binding 'no-debug' denied request: configmap cfg must not set debug` }] },
    code: 403,
  });
  await c.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cfg' }, data: { level: 'info' } } });
  const list = await ar.listValidatingAdmissionPolicyBinding();
  assert.deepEqual(list.items.map((b) => b.spec?.policyName), ['no-debug']);
});
