// Several replicas on one etcd cluster of three members, as a team scales out: one replica at a time runs the
// controllers that write (under the kube-system/crd-apiserver-controllers Lease) and hands over when it goes;
// every replica serves what the CRDs say; a write through any replica is read through any other at once
// and reaches every replica's watchers in order, once; resourceVersions and continue tokens travel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';
import { requireEtcd, startEtcdCluster, type EtcdProcess } from '../storage/etcd-process.js';

const crdYaml = readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8');
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const cron = (name: string): Record<string, unknown> => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name },
  spec: { cronSpec: '* * * * */5', image: 'img' },
});
/** Short terms, so that a handover fits in a test. */
const ELECTION = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };

let etcd: EtcdProcess[] = [];
const replicas: TestServer[] = [];
const dirs: string[] = [];

async function startReplica(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'crd-replica-'));
  dirs.push(dir);
  // Replicas share the first one's CA, serving certificate and ServiceAccount key, as a deployment would.
  if (replicas.length > 0) cpSync(join(replicas[0]!.dataDir, 'pki'), join(dir, 'pki'), { recursive: true });
  const s = await startTestServer({ dataDir: dir, etcd: { servers: etcd.map((e) => e.url) }, leaderElection: ELECTION });
  replicas.push(s);
  return s;
}

before(async () => {
  requireKubectl();
  requireEtcd();
  etcd = await startEtcdCluster(3);
  for (let i = 0; i < 3; i++) await startReplica();
});
after(async () => {
  for (const s of replicas) await s.close().catch(() => {});
  for (const e of etcd) await e.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Reply {
  status: number;
  json: Record<string, unknown>;
}

/** One request as the admin of the replicas' shared CA. */
function api(s: TestServer, method: string, path: string, body?: unknown): Promise<Reply> {
  const pki = join(s.dataDir, 'pki');
  const url = new URL(path, s.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        ca: readFileSync(join(pki, 'ca.crt')),
        cert: readFileSync(join(pki, 'admin.crt')),
        key: readFileSync(join(pki, 'admin.key')),
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

interface WatchLog {
  events: Array<{ type: string; name: string; rv: number }>;
  stop(): void;
}

/** A watch of crontabs through one replica, from a resourceVersion, recording what it hears. */
function watch(s: TestServer, fromRv: string): WatchLog {
  const pki = join(s.dataDir, 'pki');
  const log: WatchLog = { events: [], stop: () => req.destroy() };
  let buf = '';
  const req = request(
    new URL(`${CRONTABS}?watch=1&resourceVersion=${fromRv}`, s.url),
    { ca: readFileSync(join(pki, 'ca.crt')), cert: readFileSync(join(pki, 'admin.crt')), key: readFileSync(join(pki, 'admin.key')) },
    (res) => {
      res.on('data', (d: Buffer) => {
        buf += d.toString();
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const ev = JSON.parse(line) as { type: string; object: { metadata: { name: string; resourceVersion: string } } };
          log.events.push({ type: ev.type, name: ev.object.metadata.name, rv: Number(ev.object.metadata.resourceVersion) });
        }
      });
    },
  );
  req.on('error', () => {});
  req.end();
  return log;
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('one replica runs the controllers, holding the Lease', async () => {
  const leaders = replicas.filter((s) => s.served.server.leading());
  assert.equal(leaders.length, 1);
  assert.equal(leaders[0], replicas[0], 'the first to start took the Lease');
  const r = await replicas[2]!.kubectl(['get', 'lease', '-n', 'kube-system', 'crd-apiserver-controllers', '-o', 'jsonpath={.spec.holderIdentity} {.spec.leaseDurationSeconds}']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^[^_\s]+_[0-9a-f-]{36} 3$/);
});

test('a CRD made through one replica is served by all; a write through one is read through another at once', async () => {
  const [a, b, c] = replicas as [TestServer, TestServer, TestServer];
  let r = await b.kubectl(['apply', '-f', b.file('crd.yaml', crdYaml)]);
  assert.equal(r.code, 0, r.stderr);
  // Established by the leader (a), seen through c.
  r = await c.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  for (const s of replicas) await until('crontabs served everywhere', async () => (await api(s, 'GET', CRONTABS)).status === 200);
  r = await a.kubectl(['api-resources', '--api-group=stable.example.com', '--no-headers']);
  assert.match(r.stdout, /^crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab$/m);
  // Read-your-writes across replicas: no retries, no waiting.
  for (let i = 0; i < 20; i++) {
    const [writer, reader] = [replicas[i % 3]!, replicas[(i + 1) % 3]!];
    const created = await api(writer, 'POST', CRONTABS, cron(`ryw-${i}`));
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const got = await api(reader, 'GET', `${CRONTABS}/ryw-${i}`);
    assert.equal(got.status, 200, `ryw-${i} written through one replica, not read through the next`);
    const listed = await api(reader, 'GET', CRONTABS);
    assert.ok((listed.json['items'] as unknown[]).length >= i + 1);
  }
});

test('watchers on every replica see writes through all of them in order, once; resourceVersions and continue tokens travel', async () => {
  const [a, b, c] = replicas as [TestServer, TestServer, TestServer];
  const listed = await api(a, 'GET', CRONTABS);
  const rv = (listed.json['metadata'] as { resourceVersion: string }).resourceVersion;
  const logs = replicas.map((s) => watch(s, rv));
  const written: number[] = [];
  try {
    await Promise.all(
      replicas.map(async (s, w) => {
        for (let i = 0; i < 15; i++) {
          const res = await api(s, 'POST', CRONTABS, cron(`w${w}-${i}`));
          assert.equal(res.status, 201);
          written.push(Number((res.json['metadata'] as { resourceVersion: string }).resourceVersion));
        }
      }),
    );
    const want = [...written].sort((x, y) => x - y);
    for (const log of logs) {
      await until('every write on every watch', () => log.events.length >= want.length);
      assert.deepEqual(log.events.map((e) => e.rv), want, 'in revision order, each once');
      assert.ok(log.events.every((e) => e.type === 'ADDED'));
    }
  } finally {
    for (const l of logs) l.stop();
  }
  // A list page from one replica continues on another, at the first page's revision.
  const page = await api(b, 'GET', `${CRONTABS}?limit=10`);
  const meta = page.json['metadata'] as { continue: string; resourceVersion: string };
  assert.ok(meta.continue);
  const next = await api(c, 'GET', `${CRONTABS}?limit=100&continue=${encodeURIComponent(meta.continue)}`);
  assert.equal(next.status, 200, JSON.stringify(next.json));
  assert.equal((next.json['metadata'] as { resourceVersion: string }).resourceVersion, meta.resourceVersion);
  assert.equal((page.json['items'] as unknown[]).length + (next.json['items'] as unknown[]).length, 20 + 45);
  // A watch resumed on another replica from a resourceVersion one of them returned.
  const resumed = watch(c, meta.resourceVersion);
  try {
    await api(a, 'DELETE', `${CRONTABS}/w0-0`);
    await until('the delete on the resumed watch', () => resumed.events.some((e) => e.type === 'DELETED' && e.name === 'w0-0'));
  } finally {
    resumed.stop();
  }
});

test('when the leader goes, another replica takes the Lease and runs the controllers', async () => {
  const leader = replicas.find((s) => s.served.server.leading())!;
  const others = replicas.filter((s) => s !== leader);
  // A namespace's deletion needs the namespace controller, on the leader.
  const other = others[0]!;
  let r = await other.kubectl(['create', 'namespace', 'handover']);
  assert.equal(r.code, 0, r.stderr);
  await leader.close();
  replicas.splice(replicas.indexOf(leader), 1);
  // Released on a clean stop: taken at the next attempt, not after the lease duration.
  const t0 = Date.now();
  await until('a new leader', () => others.some((s) => s.served.server.leading()), 5_000);
  assert.ok(Date.now() - t0 < ELECTION.leaseDurationMs, `took ${Date.now() - t0} ms`);
  assert.equal(others.filter((s) => s.served.server.leading()).length, 1);
  r = await other.kubectl(['delete', 'namespace', 'handover', '--timeout=20s']);
  assert.equal(r.code, 0, r.stderr);
  r = await others[1]!.kubectl(['get', 'namespace', 'handover']);
  assert.match(r.stderr, /namespaces "handover" not found/);
  // A replica that joins later waits its turn.
  const late = await startReplica();
  assert.equal(late.served.server.leading(), false);
  r = await late.kubectl(['get', 'crontabs', '--no-headers']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim().split('\n').length, 64);
});
