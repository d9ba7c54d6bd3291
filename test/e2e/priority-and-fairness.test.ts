// API Priority and Fairness end to end with kubectl: every response names (by UID, in
// X-Kubernetes-PF-FlowSchema-UID and -PriorityLevel-UID) the stored FlowSchema and priority level that
// classified it — the admin's certificate (system:masters) lands in exempt, a ServiceAccount's token in
// service-accounts / workload-low — and a FlowSchema created with kubectl takes effect for the next request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, type KubectlResult, type TestServer } from './harness.js';

requireKubectl();
let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

const kubectlWithToken = (token: string, args: string[]): Promise<KubectlResult> => s.kubectlAs({ token }, args);

/** The PF headers of the response kubectl -v=8 logs for its request. */
function pfHeaders(r: KubectlResult): { flowSchema: string; priorityLevel: string } {
  const fs = /X-Kubernetes-Pf-Flowschema-Uid: (\S+)/i.exec(r.stderr);
  const pl = /X-Kubernetes-Pf-Prioritylevel-Uid: (\S+)/i.exec(r.stderr);
  assert.ok(fs && pl, `no PF headers in:\n${r.stderr}`);
  return { flowSchema: fs[1]!, priorityLevel: pl[1]! };
}

async function uid(resource: string, name: string): Promise<string> {
  const r = await s.kubectl(['get', resource, name, '-o', 'jsonpath={.metadata.uid}']);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

test('the admin (system:masters) is classified exempt', async () => {
  const r = await s.kubectl(['get', '--raw', '/api/v1/namespaces/default', '-v=8']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(pfHeaders(r), { flowSchema: await uid('flowschema', 'exempt'), priorityLevel: await uid('prioritylevelconfiguration', 'exempt') });
});

test('a ServiceAccount lands in service-accounts at workload-low; a new FlowSchema with a lower precedence takes over', async () => {
  const token = (await s.kubectl(['create', 'token', 'default'])).stdout.trim();
  assert.ok(token);
  const before = await kubectlWithToken(token, ['get', '--raw', '/api', '-v=8']);
  assert.deepEqual(pfHeaders(before), { flowSchema: await uid('flowschema', 'service-accounts'), priorityLevel: await uid('prioritylevelconfiguration', 'workload-low') });

  const created = await s.kubectl(['apply', '-f', '-'], {
    stdin: `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: batch}
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 5
    limitResponse: {type: Queue, queuing: {queues: 8, handSize: 2, queueLengthLimit: 20}}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: default-sa}
spec:
  priorityLevelConfiguration: {name: batch}
  matchingPrecedence: 500
  distinguisherMethod: {type: ByUser}
  rules:
  - subjects: [{kind: ServiceAccount, serviceAccount: {namespace: default, name: default}}]
    nonResourceRules: [{verbs: ["*"], nonResourceURLs: ["*"]}]
    resourceRules: [{verbs: ["*"], apiGroups: ["*"], resources: ["*"], namespaces: ["*"], clusterScope: true}]
`,
  });
  assert.equal(created.code, 0, created.stderr);
  const want = { flowSchema: await uid('flowschema', 'default-sa'), priorityLevel: await uid('prioritylevelconfiguration', 'batch') };
  let got: { flowSchema: string; priorityLevel: string } | undefined;
  for (let i = 0; i < 50; i++) {
    got = pfHeaders(await kubectlWithToken(token, ['get', '--raw', '/api', '-v=8']));
    if (got.flowSchema === want.flowSchema) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(got, want);

  // Removing it puts the account back where the bootstrap configuration classifies it.
  assert.equal((await s.kubectl(['delete', 'flowschema', 'default-sa'])).code, 0);
  for (let i = 0; i < 50; i++) {
    got = pfHeaders(await kubectlWithToken(token, ['get', '--raw', '/api', '-v=8']));
    if (got.flowSchema !== want.flowSchema) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(got!.flowSchema, await uid('flowschema', 'service-accounts'));
});

test('health probes are classified by the probes FlowSchema', async () => {
  const r = await s.kubectl(['get', '--raw', '/readyz', '-v=8']);
  assert.equal(r.code, 0, r.stderr);
  // The admin is exempt before any other schema is considered (precedence 1).
  assert.equal(pfHeaders(r).flowSchema, await uid('flowschema', 'exempt'));
  const token = (await s.kubectl(['create', 'token', 'default'])).stdout.trim();
  const probe = await kubectlWithToken(token, ['get', '--raw', '/livez', '-v=8']);
  assert.equal(pfHeaders(probe).flowSchema, await uid('flowschema', 'probes'));
});
