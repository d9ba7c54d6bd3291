// API Priority and Fairness' debug dumps through the running server while requests are queued: a user's creates
// held by a validating webhook fill its one-queue flow's seats at a small priority level, more wait behind them,
// and ten open watches make each create cost a final seat for 5 ms (kube's mutating work estimator). The admin
// reads /debug/api_priority_and_fairness/dump_* with kubectl; a user without the non-resource URL is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ClientRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTokenFile } from '../../src/auth/authenticate.js';
import { ensureCertificates } from '../../src/auth/certs.js';
import { requireKubectl, startTestServer } from './harness.js';

requireKubectl();

/** A validating webhook that allows everything, holding its answers while `hold` is on. */
async function holdingWebhook(dir: string) {
  const certs = await ensureCertificates(join(dir, 'hook-pki'), { hosts: ['127.0.0.1'] });
  const held: (() => void)[] = [];
  const state = { hold: false, reviews: 0 };
  const server = https.createServer({ cert: certs.serverCert, key: certs.serverKey }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.reviews++;
      const review = JSON.parse(Buffer.concat(chunks).toString());
      const answer = (): void => {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }));
      };
      if (state.hold) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/validate`,
    caBundle: Buffer.from(certs.caCert).toString('base64'),
    state,
    held,
    release: () => {
      state.hold = false;
      for (const a of held.splice(0)) a();
    },
    close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())),
  };
}

/** The dump's rows as cells: kube's ",\t" separators padded into columns by Go's tabwriter. */
function parse(dump: string): string[][] {
  return dump.trimEnd().split('\n').map((l) => l.split(/,\s*/));
}

/** Every row's cells start at the header's column offsets (the tabwriter's alignment). */
function assertAligned(dump: string): void {
  const starts = (line: string): number[] => {
    const out = [0];
    for (const m of line.matchAll(/, *(?=\S|$)/g)) out.push(m.index! + m[0].length);
    return out;
  };
  const lines = dump.trimEnd().split('\n');
  const header = starts(lines[0]!);
  for (const l of lines.slice(1)) {
    // A trailing empty cell ends its line right after the comma: compare the columns both have.
    const s = starts(l);
    assert.deepEqual(s.slice(0, -1), header.slice(0, s.length - 1), `misaligned:\n${lines[0]}\n${l}`);
  }
}

test('dump_priority_levels, dump_queues and dump_requests show the queued and executing requests in kube\'s columns', async () => {
  const t = await startTestServer({ tokens: parseTokenFile('bob-token,bob,u-bob\neve-token,eve,u-eve\n') });
  const hook = await holdingWebhook(t.dataDir);
  const ca = readFileSync(join(t.dataDir, 'pki', 'ca.crt'));
  const open: ClientRequest[] = [];
  try {
    const setup = await t.kubectl(['apply', '-f', '-'], {
      stdin: `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: dump-test}
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 1
    lendablePercent: 0
    borrowingLimitPercent: 0
    limitResponse: {type: Queue, queuing: {queues: 4, handSize: 1, queueLengthLimit: 50}}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: dump-test}
spec:
  priorityLevelConfiguration: {name: dump-test}
  matchingPrecedence: 500
  distinguisherMethod: {type: ByUser}
  rules:
  - subjects: [{kind: User, user: {name: bob}}]
    resourceRules: [{verbs: ["*"], apiGroups: ["*"], resources: ["*"], namespaces: ["*"], clusterScope: true}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: bob-admin}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: User, name: bob, apiGroup: rbac.authorization.k8s.io}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: hold}
webhooks:
- name: hold.example.com
  clientConfig: {url: "${hook.url}", caBundle: ${hook.caBundle}}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
  sideEffects: None
  admissionReviewVersions: [v1]
  failurePolicy: Ignore
  timeoutSeconds: 30
`,
    });
    assert.equal(setup.code, 0, setup.stderr);
    // The webhook is called a moment after it is written.
    for (let i = 0; i < 100 && hook.state.reviews === 0; i++) {
      assert.equal((await t.kubectl(['create', 'configmap', `probe-${i}`])).code, 0);
      if (hook.state.reviews === 0) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(hook.state.reviews > 0, 'the webhook was never called');

    // Ten watches of the namespace's configmaps (bob's: they hold a seat of his level while they start, then
    // stay open): each create will notify them.
    for (let i = 0; i < 10; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = https.get(`${t.url}/api/v1/namespaces/default/configmaps?watch=1`, { ca, headers: { Authorization: 'Bearer bob-token' } }, (res) => {
          assert.equal(res.statusCode, 200);
          resolve();
        });
        req.on('error', reject);
        open.push(req);
      });
    }

    const { stdout: levels0 } = await t.kubectl(['get', '--raw', '/debug/api_priority_and_fairness/dump_priority_levels']);
    assert.deepEqual(parse(levels0).find((r) => r[0] === 'dump-test')?.slice(4, 6), ['0', '0']);
    const { stdout: queues0 } = await t.kubectl(['get', '--raw', '/debug/api_priority_and_fairness/dump_queues']);
    const limit = 3; // ceil(600 × 1 / 246 shares): the level's seats with the bootstrap levels beside it
    assert.equal(parse(queues0).filter((r) => r[0] === 'dump-test').length, 4);

    // Bob's creates: `limit` of them hold the seats (in the webhook), two more wait in his flow's queue.
    hook.state.hold = true;
    const results: Promise<number>[] = [];
    for (let i = 0; i < limit + 2; i++) {
      results.push(
        new Promise((resolve, reject) => {
          const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `held-${i}` } });
          const req = https.request(`${t.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', ca, headers: { Authorization: 'Bearer bob-token', 'Content-Type': 'application/json' } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end(body);
        }),
      );
    }
    let levels = '';
    for (let i = 0; i < 200; i++) {
      levels = (await t.kubectl(['get', '--raw', '/debug/api_priority_and_fairness/dump_priority_levels'])).stdout;
      const row = parse(levels).find((r) => r[0] === 'dump-test');
      if (hook.held.length === limit && row?.[4] === '2') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(hook.held.length, limit);

    // Priority levels: sorted by name, kube's header, bob's level with one active queue, 2 waiting, 3 executing.
    const pl = parse(levels);
    assert.deepEqual(pl[0], ['PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests', 'DispatchedRequests', 'RejectedRequests', 'TimedoutRequests', 'CancelledRequests']);
    const names = pl.slice(1).map((r) => r[0]!);
    assert.deepEqual(names, [...names].sort());
    assert.ok(names.includes('exempt') && names.includes('catch-all') && names.includes('workload-low'));
    assert.deepEqual(pl.find((r) => r[0] === 'dump-test'), ['dump-test', '1', 'false', 'false', '2', String(limit), String(10 + limit), '0', '0', '0']);
    assert.match(levels, /^PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests, DispatchedRequests, RejectedRequests, TimedoutRequests, CancelledRequests\n/);
    assertAligned(levels);

    // Queues: the one queue bob's flow uses holds the three seats and the two waiting requests' work:
    // each 1 seat × 3 s plus 1 final seat × 5 ms.
    const queues = (await t.kubectl(['get', '--raw', '/debug/api_priority_and_fairness/dump_queues'])).stdout;
    const qrows = parse(queues);
    assert.deepEqual(qrows[0], ['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum']);
    const busy = qrows.filter((r) => r[0] === 'dump-test' && r[2] !== '0');
    assert.equal(busy.length, 1);
    const [, index, pending, executing, inUse, nextR, initialSum, maxSum, workSum] = busy[0]!;
    assert.deepEqual([pending, executing, inUse, initialSum, maxSum, workSum], ['2', String(limit), String(limit), '2', '2', '6.01000000ss']);
    assert.match(nextR!, /^\d+\.\d{8}ss$/);
    assertAligned(queues);

    // Requests, with details: the two waiting (index 0 and 1 in the queue, no start time) and the three executing (-1).
    const reqs = (await t.kubectl(['get', '--raw', '/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1'])).stdout;
    const rrows = parse(reqs);
    assert.deepEqual(rrows[0], ['PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency', 'StartTime', 'UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource']);
    const bobs = rrows.filter((r) => r[0] === 'dump-test');
    assert.deepEqual(bobs.map((r) => r[3]), ['0', '1', '-1', '-1', '-1']);
    for (const r of bobs) {
      assert.deepEqual([r[1], r[2], r[4], r[6], r[7], r[8]], ['dump-test', index, 'bob', '1', '1', '5ms']);
      assert.match(r[5]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      assert.deepEqual(r.slice(10), ['bob', 'create', '/api/v1/namespaces/default/configmaps', 'default', '', 'v1', 'configmaps', '']);
    }
    assert.equal(bobs[0]![9], '0001-01-01T00:00:00Z');
    assert.notEqual(bobs[2]![9], '0001-01-01T00:00:00Z');
    // The dump request itself executes at exempt, without a queue.
    assert.ok(rrows.some((r) => r[0] === 'exempt' && r[2] === '-1' && r[3] === '-1' && r[12] === '/debug/api_priority_and_fairness/dump_requests'));
    assertAligned(reqs);
    // Without details: the first ten columns only.
    const plain = parse((await t.kubectl(['get', '--raw', '/debug/api_priority_and_fairness/dump_requests'])).stdout);
    assert.equal(plain[0]!.length, 10);

    // A non-resource URL: a user without it is refused (kube's 403 for the path).
    const eve = await t.kubectlAs({ token: 'eve-token' }, ['get', '--raw', '/debug/api_priority_and_fairness/dump_queues']);
    assert.notEqual(eve.code, 0);
    assert.match(eve.stderr, /forbidden: User "eve" cannot get path "\/debug\/api_priority_and_fairness\/dump_queues"/);

    hook.release();
    assert.deepEqual(await Promise.all(results), Array(limit + 2).fill(201));
  } finally {
    for (const r of open) r.destroy();
    hook.release();
    await hook.close();
    await t.close();
  }
});
