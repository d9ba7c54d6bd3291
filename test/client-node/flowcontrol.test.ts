// The API Priority and Fairness objects through @kubernetes/client-node's FlowcontrolApiserverV1Api, as a
// controller reading the configuration would use it: the bootstrap objects, a level and a schema created,
// the schema's status read through /status, validation refusals as 422 Status objects.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { expectStatus, startWithClients, type Clients } from './helpers.js';

/** A typed model as plain JSON (the models are class instances). */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

let c: Clients;
let fc: k8s.FlowcontrolApiserverV1Api;
before(async () => {
  c = await startWithClients();
  fc = c.kc.makeApiClient(k8s.FlowcontrolApiserverV1Api);
});
after(async () => {
  await c?.server.close();
});

test('the bootstrap configuration, typed', async () => {
  const levels = await fc.listPriorityLevelConfiguration();
  assert.deepEqual(levels.items.map((l) => l.metadata?.name).sort(), ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
  const system = await fc.readPriorityLevelConfiguration({ name: 'system' });
  assert.deepEqual(plain(system.spec?.limited), {
    nominalConcurrencyShares: 30,
    limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } },
    lendablePercent: 33,
  });
  const schemas = await fc.listFlowSchema();
  assert.equal(schemas.items.length, 13);
  const catchAll = await fc.readFlowSchema({ name: 'catch-all' });
  assert.equal(catchAll.spec?.matchingPrecedence, 10000);
  assert.equal(catchAll.spec?.distinguisherMethod?.type, 'ByUser');
  assert.deepEqual(catchAll.spec?.rules?.[0]?.subjects.map((s) => s.group?.name), ['system:unauthenticated', 'system:authenticated']);
});

test('a level and a schema created; the schema`s Dangling condition read through /status', async () => {
  const level = await fc.createPriorityLevelConfiguration({
    body: { metadata: { name: 'tenants' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 32 } } } } },
  });
  assert.deepEqual(plain(level.spec?.limited?.limitResponse?.queuing), { queues: 32, handSize: 8, queueLengthLimit: 50 });
  assert.equal(level.spec?.limited?.nominalConcurrencyShares, 30);
  await fc.createFlowSchema({
    body: {
      metadata: { name: 'tenants' },
      spec: {
        priorityLevelConfiguration: { name: 'tenants' },
        distinguisherMethod: { type: 'ByNamespace' },
        rules: [{ subjects: [{ kind: 'Group', group: { name: 'tenants' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }] }],
      },
    },
  });
  let condition: k8s.V1FlowSchemaCondition | undefined;
  for (let i = 0; i < 100 && !condition; i++) {
    condition = (await fc.readFlowSchemaStatus({ name: 'tenants' })).status?.conditions?.find((x) => x.type === 'Dangling');
    if (!condition) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(condition?.status, 'False');
  assert.equal(condition?.reason, 'Found');
  assert.ok(condition?.lastTransitionTime instanceof Date);
});

test('refusals are 422 with kube`s causes', async () => {
  const status = await expectStatus(fc.createPriorityLevelConfiguration({ body: { metadata: { name: 'exempt-like' }, spec: { type: 'Exempt' } } }), 422);
  assert.equal(status.reason, 'Invalid');
  assert.equal(
    status.message,
    `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "exempt-like" is invalid: spec.type: Invalid value: "Exempt": type must be 'Exempt' if and only if name is 'exempt'`,
  );
  assert.deepEqual(status.details, {
    name: 'exempt-like',
    group: 'flowcontrol.apiserver.k8s.io',
    kind: 'PriorityLevelConfiguration',
    causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Exempt": type must be 'Exempt' if and only if name is 'exempt'`, field: 'spec.type' }],
  });
});
