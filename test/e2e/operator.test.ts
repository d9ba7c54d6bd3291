// An operator written with @kubernetes/client-node, run as two separate processes against the server (issue 14's
// end-to-end check): one takes the leader Lease and reconciles each CronTab into a ConfigMap and a Secret it
// owns, with an Event and a status update; deleting the CronTab removes its children (the garbage collector);
// when the leader is killed, the other instance takes over after the lease duration.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

const OPERATOR = fileURLToPath(new URL('../fixtures/crontab-operator.mjs', import.meta.url));

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {cronSpec: {type: string}, image: {type: string}}}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

const cronTab = (name: string): string => `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: ${name}}
spec: {cronSpec: "*/5 * * * *", image: img-${name}}
`;

let s: TestServer;
const operators = new Map<string, { proc: ChildProcess; out: string }>();

function startOperator(id: string): void {
  const proc = spawn(process.execPath, [OPERATOR, s.kubeconfig, id], { stdio: ['ignore', 'pipe', 'pipe'] });
  const entry = { proc, out: '' };
  proc.stdout!.on('data', (d: Buffer) => (entry.out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (entry.out += d.toString()));
  operators.set(id, entry);
}

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) assert.fail(`timed out waiting until ${what}; operators said: ${[...operators].map(([id, o]) => `${id}: ${o.out}`).join(' | ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function json(args: string[]): Promise<any | undefined> {
  const r = await s.kubectl([...args, '-o', 'json']);
  return r.code === 0 ? JSON.parse(r.stdout) : undefined;
}

before(async () => {
  requireKubectl();
  s = await startTestServer();
  let r = await s.kubectl(['apply', '-f', s.file('crd.yaml', CRD)]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  startOperator('op-a');
  startOperator('op-b');
});

after(async () => {
  for (const o of operators.values()) o.proc.kill('SIGKILL');
  await s?.close();
});

test('the operator reconciles, owns its children, records events, and a second instance takes over', async () => {
  let r = await s.kubectl(['apply', '-f', s.file('ct1.yaml', cronTab('ct1'))]);
  assert.equal(r.code, 0, r.stderr);
  const leader = await until('one instance leads', async () => (await json(['get', 'lease', 'crontab-operator']))?.spec?.holderIdentity as string | undefined);
  assert.ok(['op-a', 'op-b'].includes(leader));
  const ct = await until('ct1 is reconciled', async () => {
    const obj = await json(['get', 'crontab', 'ct1']);
    return obj?.status?.reconciledBy ? obj : undefined;
  });
  assert.deepEqual(ct.status, { observedGeneration: 1, reconciledBy: leader, configMap: 'ct1-config' });
  const cm = await json(['get', 'configmap', 'ct1-config']);
  assert.deepEqual(cm.data, { cronSpec: '*/5 * * * *' });
  assert.deepEqual(cm.metadata.ownerReferences, [{ apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'ct1', uid: ct.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  const secret = await json(['get', 'secret', 'ct1-secret']);
  assert.equal(Buffer.from(secret.data.image, 'base64').toString(), 'img-ct1');
  assert.equal(secret.type, 'Opaque');
  const events = await until('the Reconciled event', async () => {
    const l = await json(['get', 'events', '--field-selector', 'involvedObject.name=ct1,reason=Reconciled']);
    return l?.items?.length ? l.items : undefined;
  });
  assert.equal(events[0].message, `reconciled by ${leader}`);
  r = await s.kubectl(['describe', 'crontab', 'ct1']);
  assert.match(r.stdout, /Normal\s+Reconciled\s+\S+\s+crontab-operator\s+reconciled by op-/);

  // The leader dies; the other takes the lease once it has expired, and reconciles what comes next.
  operators.get(leader)!.proc.kill('SIGKILL');
  const follower = leader === 'op-a' ? 'op-b' : 'op-a';
  r = await s.kubectl(['apply', '-f', s.file('ct2.yaml', cronTab('ct2'))]);
  assert.equal(r.code, 0, r.stderr);
  const lease = await until('the follower leads', async () => {
    const l = await json(['get', 'lease', 'crontab-operator']);
    return l?.spec?.holderIdentity === follower ? l : undefined;
  });
  assert.equal(lease.spec.leaseTransitions, 1);
  await until('ct2 is reconciled by the follower', async () => ((await json(['get', 'crontab', 'ct2']))?.status?.reconciledBy === follower ? true : undefined));
  assert.ok(await json(['get', 'configmap', 'ct2-config']));

  // Deleting a CronTab deletes what it owns.
  r = await s.kubectl(['delete', 'crontab', 'ct1']);
  assert.equal(r.code, 0, r.stderr);
  await until('ct1\'s children are gone', async () => {
    const cmGone = (await s.kubectl(['get', 'configmap', 'ct1-config'])).code !== 0;
    const secretGone = (await s.kubectl(['get', 'secret', 'ct1-secret'])).code !== 0;
    return cmGone && secretGone ? true : undefined;
  });
  assert.ok(await json(['get', 'configmap', 'ct2-config']));
});
