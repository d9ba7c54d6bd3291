// Faults under load with several replicas on one etcd cluster of three members, each replica its own process:
// kill -9 the replica that leads the controllers, stop one etcd member and bring it back, kill -9 every etcd
// member and restart them, all while writers create ConfigMaps through every replica. Afterwards every
// acknowledged write is there, watchers on the surviving replicas saw each write once and in order (resuming
// from their last resourceVersion when a stream ended, as clients do), and another replica took over the
// controllers. Bounded: about a minute, loopback only.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireEtcd, startEtcdCluster, type EtcdProcess } from '../storage/etcd-process.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const LEASE = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/crd-apiserver-controllers';

interface Replica {
  child: ChildProcess;
  url: string;
  dir: string;
}

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function startReplica(etcd: EtcdProcess[], pkiFrom?: string): Promise<Replica> {
  const dir = mkdtempSync(join(tmpdir(), 'crd-replica-fault-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  if (pkiFrom) cpSync(join(pkiFrom, 'pki'), join(dir, 'pki'), { recursive: true });
  const child = spawn(
    process.execPath,
    [
      '--import', 'tsx', main, 'serve', `--data-dir=${dir}`, '--secure-port=0', '--insecure-port=0', '--storage=etcd',
      `--etcd-servers=${etcd.map((e) => e.url).join(',')}`,
      '--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=500ms',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cleanups.push(() => void child.kill('SIGKILL'));
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replica did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /and (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`replica exited with ${code}: ${out}`)));
  });
  return { child, url, dir };
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

function call(base: string, method: string, path: string, body?: unknown, timeoutMs = 10_000): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, agent, timeout: timeoutMs, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
        } catch (e) {
          reject(e as Error);
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A client's watch of ConfigMaps: resumes from the last resourceVersion it saw whenever the stream ends. */
function resumingWatch(base: string, fromRv: string): { events: Array<{ type: string; name: string; rv: number }>; stop(): void } {
  const events: Array<{ type: string; name: string; rv: number }> = [];
  let rv = fromRv;
  let stopped = false;
  let current: ReturnType<typeof request> | undefined;
  const open = (): void => {
    if (stopped) return;
    let buf = '';
    const again = (): void => {
      current = undefined;
      if (!stopped) setTimeout(open, 200);
    };
    current = request(new URL(`${CONFIGMAPS}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`, base), (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return again();
      }
      res.on('data', (d: Buffer) => {
        buf += d.toString();
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const ev = JSON.parse(buf.slice(0, nl)) as { type: string; object: { metadata: { name: string; resourceVersion: string } } };
          buf = buf.slice(nl + 1);
          rv = ev.object.metadata.resourceVersion;
          if (ev.type === 'ERROR') throw new Error(`watch error: ${JSON.stringify(ev.object)}`);
          if (ev.type !== 'BOOKMARK') events.push({ type: ev.type, name: ev.object.metadata.name, rv: Number(rv) });
        }
      });
      res.on('end', again);
      res.on('error', again);
    });
    current.on('error', again);
    current.end();
  };
  open();
  return {
    events,
    stop: () => {
      stopped = true;
      current?.destroy();
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const holderOf = async (r: Replica): Promise<string> => {
  const res = await call(r.url, 'GET', LEASE);
  return res.status === 200 ? String((res.json['spec'] as { holderIdentity?: string }).holderIdentity ?? '') : '';
};

test('replicas and etcd members die under load: nothing acknowledged is lost, watchers see every write once, in order', { timeout: 240_000 }, async () => {
  requireEtcd();
  const etcd = await startEtcdCluster(3);
  cleanups.push(async () => {
    for (const e of etcd) await e.destroy();
  });
  const first = await startReplica(etcd);
  const replicas = [first, await startReplica(etcd, first.dir), await startReplica(etcd, first.dir)];
  const holder = await holderOf(first);
  assert.ok(holder, 'the first replica took the Lease');

  const start = await call(first.url, 'GET', CONFIGMAPS);
  const fromRv = (start.json['metadata'] as { resourceVersion: string }).resourceVersion;
  // Watchers on the two replicas that survive (the leader, replicas[0], is the one killed).
  const watchers = [resumingWatch(replicas[1]!.url, fromRv), resumingWatch(replicas[2]!.url, fromRv)];
  cleanups.push(() => watchers.forEach((w) => w.stop()));

  const acked = new Map<string, number>();
  let failed = 0;
  let writing = true;
  let seq = 0;
  const writer = async (r: Replica): Promise<void> => {
    while (writing && r.child.exitCode === null && r.child.signalCode === null) {
      const name = `cm-${seq++}`;
      try {
        const res = await call(r.url, 'POST', CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } });
        if (res.status === 201) acked.set(name, Number((res.json['metadata'] as { resourceVersion: string }).resourceVersion));
        else {
          failed++;
          await sleep(50);
        }
      } catch {
        failed++;
        await sleep(50);
      }
    }
  };
  const writers = replicas.flatMap((r) => [writer(r), writer(r), writer(r)]);

  await sleep(2_000);
  // 1. kill -9 the replica that leads the controllers.
  replicas[0]!.child.kill('SIGKILL');
  const survivors = replicas.slice(1);
  await sleep(1_500);
  // 2. One etcd member of three stops and comes back: the other two keep quorum.
  await etcd[1]!.stop();
  await sleep(2_000);
  await etcd[1]!.restart();
  await sleep(1_500);
  // 3. Every etcd member killed at once, then restarted.
  await Promise.all(etcd.map((e) => e.kill()));
  await sleep(1_000);
  await Promise.all(etcd.map((e) => e.restart()));
  const ackedBeforeRecovery = acked.size;
  await until('writes to resume after etcd came back', () => acked.size > ackedBeforeRecovery + 20, 60_000);
  writing = false;
  await Promise.all(writers);

  // Every acknowledged write is there, through every surviving replica.
  for (const r of survivors) {
    // A replica whose etcd connection is still coming back answers 503 for a moment; clients retry.
    let list = await call(r.url, 'GET', CONFIGMAPS);
    for (let i = 0; i < 100 && list.status === 503; i++) {
      await sleep(100);
      list = await call(r.url, 'GET', CONFIGMAPS);
    }
    assert.equal(list.status, 200, JSON.stringify(list.json));
    const present = new Set((list.json['items'] as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name));
    const lost = [...acked.keys()].filter((n) => !present.has(n));
    assert.deepEqual(lost, [], `${lost.length} of ${acked.size} acknowledged writes lost`);
  }
  // Each watcher saw each write once, in revision order (the unacknowledged ones that landed too).
  for (const w of watchers) {
    await until('the watch to catch up', () => [...acked.keys()].every((n) => w.events.some((e) => e.name === n)), 30_000);
    const revs = w.events.map((e) => e.rv);
    assert.deepEqual(revs, [...revs].sort((x, y) => x - y), 'in order');
    assert.equal(new Set(revs).size, revs.length, 'no event twice');
    for (const e of w.events) if (acked.has(e.name)) assert.equal(e.rv, acked.get(e.name));
  }
  // Another replica took over the controllers once the dead leader's Lease ran out.
  await until('a new holder of the Lease', async () => !['', holder].includes(await holderOf(survivors[0]!)), 30_000);
  const ns = await call(survivors[0]!.url, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'after-faults' } });
  assert.equal(ns.status, 201);
  await call(survivors[1]!.url, 'DELETE', '/api/v1/namespaces/after-faults');
  await until('the namespace controller to finish the deletion', async () => (await call(survivors[0]!.url, 'GET', '/api/v1/namespaces/after-faults')).status === 404, 30_000);
  // The figures, for the README.
  console.log(`replica faults: ${acked.size} acknowledged writes, 0 lost; ${failed} refused or failed; watchers saw ${watchers.map((w) => w.events.length).join(' and ')} events`);
  for (const r of survivors) r.child.kill('SIGTERM');
});
