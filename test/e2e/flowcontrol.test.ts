// API Priority and Fairness objects through kubectl: kube 1.33's bootstrap FlowSchemas and
// PriorityLevelConfigurations with kube's printers, validation errors, the Dangling condition following the
// priority level, the ensurer bringing back deleted objects, /status, explain and api-resources.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../src/cli/serve.js';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

let s: TestServer;
before(async () => {
  requireKubectl();
  // The ensurer's passes every 200 ms rather than every minute.
  s = await startTestServer({ apfEnsureIntervalMs: 200 });
});
after(async () => {
  await s?.close();
});

const ok = async (args: string[], stdin?: string): Promise<string> => {
  const r = await s.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** Runs kubectl until its output matches (the controllers act a moment after a change). */
async function until(args: string[], re: RegExp): Promise<string> {
  let out = '';
  for (let i = 0; i < 100; i++) {
    out = squeeze((await s.kubectl(args)).stdout);
    if (re.test(out)) return out;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`kubectl ${args.join(' ')}: ${out} does not match ${re}`);
}

const withoutAge = (out: string): string => squeeze(out).replace(/ \d+[smh](?= |$)/gm, ' <age>');

test('kubectl get flowschemas: the bootstrap schemas in matching order, with kube`s columns', async () => {
  const out = withoutAge(await ok(['get', 'flowschemas']));
  assert.equal(
    out,
    [
      'NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL',
      'exempt exempt 1 <none> <age> False',
      'probes exempt 2 <none> <age> False',
      'system-leader-election leader-election 100 ByUser <age> False',
      'endpoint-controller workload-high 150 ByUser <age> False',
      'workload-leader-election leader-election 200 ByUser <age> False',
      'system-node-high node-high 400 ByUser <age> False',
      'system-nodes system 500 ByUser <age> False',
      'kube-controller-manager workload-high 800 ByNamespace <age> False',
      'kube-scheduler workload-high 800 ByNamespace <age> False',
      'kube-system-service-accounts workload-high 900 ByNamespace <age> False',
      'service-accounts workload-low 9000 ByUser <age> False',
      'global-default global-default 9900 ByUser <age> False',
      'catch-all catch-all 10000 ByUser <age> False',
    ].join('\n'),
  );
});

test('kubectl get prioritylevelconfigurations: kube`s columns, <none> where a level has no queuing', async () => {
  assert.equal(
    withoutAge(await ok(['get', 'prioritylevelconfigurations'])),
    [
      'NAME TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE',
      'catch-all Limited 5 <none> <none> <none> <age>',
      'exempt Exempt <none> <none> <none> <none> <age>',
      'global-default Limited 20 128 6 50 <age>',
      'leader-election Limited 10 16 4 50 <age>',
      'node-high Limited 40 64 6 50 <age>',
      'system Limited 30 64 6 50 <age>',
      'workload-high Limited 40 128 6 50 <age>',
      'workload-low Limited 100 128 6 50 <age>',
    ].join('\n'),
  );
  const exempt = JSON.parse(await ok(['get', 'prioritylevelconfiguration', 'exempt', '-o', 'json', '--show-managed-fields'])) as Record<string, any>;
  assert.deepEqual(exempt['spec'], { exempt: { lendablePercent: 0, nominalConcurrencyShares: 0 }, type: 'Exempt' });
  assert.deepEqual(exempt['metadata']['annotations'], { 'apf.kubernetes.io/autoupdate-spec': 'true' });
  assert.equal(exempt['metadata']['managedFields'][0]['manager'], 'api-priority-and-fairness-config-producer-v1');
});

test('api-resources and explain', async () => {
  const lines = squeeze(await ok(['api-resources', '--api-group=flowcontrol.apiserver.k8s.io'])).split('\n');
  assert.deepEqual(lines, [
    'NAME SHORTNAMES APIVERSION NAMESPACED KIND',
    'flowschemas flowcontrol.apiserver.k8s.io/v1 false FlowSchema',
    'prioritylevelconfigurations flowcontrol.apiserver.k8s.io/v1 false PriorityLevelConfiguration',
  ]);
  const explain = await ok(['explain', 'flowschema.spec']);
  assert.match(explain, /FIELD: spec <FlowSchemaSpec>/);
  assert.match(explain, /priorityLevelConfiguration\t<PriorityLevelConfigurationReference> -required-/);
  assert.match(explain, /matchingPrecedence\t<integer>/);
  assert.match(await ok(['explain', 'prioritylevelconfiguration.spec.limited.limitResponse.queuing.handSize']), /This field has a default value of 8\./);
});

const badFlowSchema = `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata:
  name: bad
spec:
  matchingPrecedence: 1
  distinguisherMethod: {type: Foo}
  priorityLevelConfiguration: {name: ""}
  rules:
  - subjects: [{kind: User}]
    resourceRules:
    - verbs: ["*", get]
      apiGroups: [""]
      resources: [pods]
`;

test('create refused with kube`s messages; mandatory specs are fixed', async () => {
  const r = await s.kubectl(['create', '-f', '-'], { stdin: badFlowSchema });
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr.trim(),
    [
      'The FlowSchema "bad" is invalid: ',
      "* spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
      '* spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"Foo"}: supported values: "ByNamespace", "ByUser"',
      '* spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
      "* spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
      `* spec.rules[0].resourceRules[0].verbs: Invalid value: []string{"*", "get"}: if '*' is present, must not specify other verbs`,
      '* spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace',
    ].join('\n'),
  );
  const pl = await s.kubectl(['create', '-f', '-'], {
    stdin: 'apiVersion: flowcontrol.apiserver.k8s.io/v1\nkind: PriorityLevelConfiguration\nmetadata: {name: wide}\nspec:\n  type: Limited\n  limited:\n    limitResponse: {type: Queue, queuing: {queues: 512, handSize: 8}}\n',
  });
  assert.equal(
    pl.stderr.trim(),
    'The PriorityLevelConfiguration "wide" is invalid: spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60',
  );
  const catchAll = await s.kubectl(['patch', 'prioritylevelconfiguration', 'catch-all', '--type=merge', '-p', '{"spec":{"limited":{"nominalConcurrencyShares":6}}}']);
  assert.match(catchAll.stderr, /^The PriorityLevelConfiguration "catch-all" is invalid: spec: Invalid value: flowcontrol\.PriorityLevelConfigurationSpec\{.*\}: spec of 'catch-all' must equal the fixed value/);
  // The exempt level's `exempt` field is the operator's to change, and the ensurer leaves it.
  await ok(['patch', 'prioritylevelconfiguration', 'exempt', '--type=merge', '-p', '{"spec":{"exempt":{"nominalConcurrencyShares":7}}}']);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(await ok(['get', 'prioritylevelconfiguration', 'exempt', '-o', 'jsonpath={.spec.exempt.nominalConcurrencyShares} {.metadata.generation}']), '7 2');
});

test('a FlowSchema naming a missing level is Dangling until the level is created, with kube`s defaults', async () => {
  await ok(['create', '-f', '-'], `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: mine}
spec:
  priorityLevelConfiguration: {name: my-level}
  rules:
  - subjects: [{kind: Group, group: {name: system:authenticated}}]
    nonResourceRules: [{verbs: [get], nonResourceURLs: [/mine/*]}]
`);
  assert.match(await until(['get', 'flowschema', 'mine'], / True$/), /^NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL\nmine my-level 1000 <none> \d+s True$/);
  const condition = JSON.parse(await ok(['get', 'flowschema', 'mine', '-o', 'jsonpath={.status.conditions[0]}'])) as Record<string, string>;
  assert.equal(condition['message'], 'This FlowSchema references the PriorityLevelConfiguration object named "my-level" but there is no such object');
  assert.equal(condition['reason'], 'NotFound');

  await ok(['create', '-f', '-'], `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: my-level}
spec:
  type: Limited
  limited:
    limitResponse:
      type: Queue
      queuing: {}
`);
  await until(['get', 'flowschema', 'mine'], / False$/);
  const found = JSON.parse(await ok(['get', 'flowschema', 'mine', '-o', 'json', '--show-managed-fields'])) as Record<string, any>;
  assert.deepEqual(found['status']['conditions'].map((c: Record<string, string>) => [c['type'], c['status'], c['reason'], c['message']]), [
    ['Dangling', 'False', 'Found', 'This FlowSchema references the PriorityLevelConfiguration object named "my-level" and it exists'],
  ]);
  assert.ok(found['metadata']['managedFields'].some((m: Record<string, string>) => m['manager'] === 'api-priority-and-fairness-config-consumer-v1' && m['operation'] === 'Apply' && m['subresource'] === 'status'));
  assert.match(squeeze(await ok(['get', 'prioritylevelconfiguration', 'my-level'])), /\nmy-level Limited 30 64 8 50 \d+s$/);
  const level = JSON.parse(await ok(['get', 'prioritylevelconfiguration', 'my-level', '-o', 'jsonpath={.spec.limited}'])) as Record<string, unknown>;
  assert.deepEqual(level, { lendablePercent: 0, limitResponse: { queuing: { handSize: 8, queueLengthLimit: 50, queues: 64 }, type: 'Queue' }, nominalConcurrencyShares: 30 });
});

test('the ensurer brings back a deleted suggested object and stomps an auto-updated spec', async () => {
  await ok(['delete', 'flowschema', 'service-accounts']);
  await until(['get', 'flowschema', 'service-accounts', '-o', 'name'], /^flowschema.flowcontrol.apiserver.k8s.io\/service-accounts$/);
  await ok(['patch', 'flowschema', 'kube-scheduler', '--type=merge', '-p', '{"spec":{"matchingPrecedence":850}}']);
  await until(['get', 'flowschema', 'kube-scheduler', '-o', 'jsonpath={.spec.matchingPrecedence} {.metadata.generation}'], /^800 3$/);
  // Opted out: kept.
  await ok(['annotate', '--overwrite', 'flowschema', 'kube-controller-manager', 'apf.kubernetes.io/autoupdate-spec=false']);
  await ok(['patch', 'flowschema', 'kube-controller-manager', '--type=merge', '-p', '{"spec":{"matchingPrecedence":850}}']);
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(await ok(['get', 'flowschema', 'kube-controller-manager', '-o', 'jsonpath={.spec.matchingPrecedence}']), '850');
});

test('/status writes keep spec; spec writes keep status', async () => {
  await ok(['patch', 'flowschema', 'mine', '--subresource=status', '--type=merge', '-p', '{"spec":{"matchingPrecedence":5},"status":{"conditions":[{"type":"Extra","status":"True"}]}}']);
  const fs = JSON.parse(await ok(['get', 'flowschema', 'mine', '-o', 'json'])) as Record<string, any>;
  assert.equal(fs['spec']['matchingPrecedence'], 1000);
  assert.deepEqual(fs['status']['conditions'].map((c: Record<string, string>) => c['type']).sort(), ['Dangling', 'Extra']);
  assert.equal(fs['metadata']['generation'], 1);
  await ok(['patch', 'flowschema', 'mine', '--type=merge', '-p', '{"spec":{"matchingPrecedence":5},"status":null}']);
  const after = JSON.parse(await ok(['get', 'flowschema', 'mine', '-o', 'json'])) as Record<string, any>;
  assert.equal(after['spec']['matchingPrecedence'], 5);
  assert.equal(after['metadata']['generation'], 2);
  assert.equal(after['status']['conditions'].length, 2);
});

test('a restart brings back deleted suggested objects and keeps an opted-out change (the ensurer`s first pass)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crd-apiserver-apf-'));
  const kubectl = (kubeconfig: string, args: string[]): Promise<string> =>
    new Promise((resolve, reject) =>
      execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { env: { ...process.env, HOME: join(dataDir, 'home') } }, (err, stdout, stderr) =>
        err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr}`)) : resolve(stdout),
      ),
    );
  try {
    const first = await serve({ dataDir, securePort: 0, bindAddress: '127.0.0.1', hosts: [] });
    try {
      await kubectl(first.kubeconfigPath, ['delete', 'flowschema', 'global-default']);
      await kubectl(first.kubeconfigPath, ['delete', 'prioritylevelconfiguration', 'global-default']);
      await kubectl(first.kubeconfigPath, ['annotate', '--overwrite', 'prioritylevelconfiguration', 'workload-low', 'apf.kubernetes.io/autoupdate-spec=false']);
      await kubectl(first.kubeconfigPath, ['patch', 'prioritylevelconfiguration', 'workload-low', '--type=merge', '-p', '{"spec":{"limited":{"nominalConcurrencyShares":11}}}']);
    } finally {
      await first.close();
    }
    const second = await serve({ dataDir, securePort: 0, bindAddress: '127.0.0.1', hosts: [] });
    try {
      // Present as soon as the server answers: the first pass runs before it serves.
      assert.equal((await kubectl(second.kubeconfigPath, ['get', 'flowschema,prioritylevelconfiguration', 'global-default', '-o', 'name'])).trim(), [
        'flowschema.flowcontrol.apiserver.k8s.io/global-default',
        'prioritylevelconfiguration.flowcontrol.apiserver.k8s.io/global-default',
      ].join('\n'));
      assert.equal(await kubectl(second.kubeconfigPath, ['get', 'prioritylevelconfiguration', 'workload-low', '-o', 'jsonpath={.spec.limited.nominalConcurrencyShares}']), '11');
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
