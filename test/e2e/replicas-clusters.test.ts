// Logical clusters on several replicas: a cluster's writing controllers (namespaces, ServiceAccounts, ...) run on
// the replica holding root's controllers Lease, whichever replica the cluster's requests go to, and move with
// the Lease.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireKubectl, startTestServer, type KubectlResult, type TestServer } from './harness.js';
import { requireEtcd, startEtcd, type EtcdProcess } from '../storage/etcd-process.js';

const ELECTION = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };

let etcd: EtcdProcess;
const replicas: TestServer[] = [];
const dirs: string[] = [];

async function startReplica(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'crd-replica-lc-'));
  dirs.push(dir);
  if (replicas.length > 0) cpSync(join(replicas[0]!.dataDir, 'pki'), join(dir, 'pki'), { recursive: true });
  const s = await startTestServer({ dataDir: dir, etcd: { servers: [etcd.url] }, leaderElection: ELECTION });
  replicas.push(s);
  return s;
}

before(async () => {
  requireKubectl();
  requireEtcd();
  etcd = await startEtcd();
  for (let i = 0; i < 2; i++) await startReplica();
});
after(async () => {
  for (const s of replicas) await s.close().catch(() => {});
  await etcd?.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** kubectl through one replica, inside a logical cluster. */
function inCluster(s: TestServer, cluster: string, args: string[]): Promise<KubectlResult> {
  const text = readFileSync(s.kubeconfig, 'utf8').replace(/(server: https:\/\/[^\s]+)/, `$1/clusters/${cluster}`);
  return s.kubectl(['--kubeconfig', s.file(`${cluster}.kubeconfig`, text), ...args]);
}

async function ok(p: Promise<KubectlResult>): Promise<string> {
  const r = await p;
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const hasDefaultServiceAccount = (s: TestServer, cluster: string, ns: string) => async () =>
  (await inCluster(s, cluster, ['get', 'serviceaccount', 'default', '-n', ns])).code === 0;

test("a cluster used only through a follower gets its controllers on the leader, and they move with the Lease", async () => {
  const [leader, follower] = replicas as [TestServer, TestServer];
  assert.equal(leader.served.server.leading(), true);
  assert.equal(follower.served.server.leading(), false);
  await ok(follower.kubectl(['apply', '-f', follower.file('lc.yaml', 'apiVersion: tenancy.crd-apiserver.io/v1alpha1\nkind: LogicalCluster\nmetadata:\n  name: team\n')]));
  await ok(follower.kubectl(['wait', '--for=condition=Ready', 'logicalcluster/team', '--timeout=20s']));
  // Every request goes to the follower: the leader starts the cluster's server for the writes it sees.
  await ok(inCluster(follower, 'team', ['create', 'namespace', 'ns1']));
  await until('the default ServiceAccount in ns1', hasDefaultServiceAccount(follower, 'team', 'ns1'));
  assert.equal(leader.served.server.clusters?.isStarted('team'), true);
  await ok(inCluster(follower, 'team', ['delete', 'namespace', 'ns1', '--timeout=20s']));
  // The leader goes: the follower takes the Lease, and the cluster's server it runs starts its controllers.
  await leader.close();
  replicas.splice(replicas.indexOf(leader), 1);
  await until('the follower leads', async () => follower.served.server.leading(), 10_000);
  await ok(inCluster(follower, 'team', ['create', 'namespace', 'ns2']));
  await until('the default ServiceAccount in ns2', hasDefaultServiceAccount(follower, 'team', 'ns2'));
  await ok(inCluster(follower, 'team', ['delete', 'namespace', 'ns2', '--timeout=20s']));
});

test('a replica that does not lead runs no controllers for its clusters', async () => {
  const [leader] = replicas as [TestServer];
  const late = await startReplica();
  assert.equal(late.served.server.leading(), false);
  await ok(inCluster(late, 'team', ['create', 'namespace', 'ns3']));
  await until('the default ServiceAccount in ns3', hasDefaultServiceAccount(late, 'team', 'ns3'));
  // Both replicas serve the cluster; only the leader's runs its controllers.
  const here = await late.served.server.clusters!.instance('team');
  const there = await leader.served.server.clusters!.instance('team');
  assert.equal(here.leading(), false);
  assert.equal(there.leading(), true);
});
