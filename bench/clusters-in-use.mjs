// Not a figure of run.mjs: a GET (or create) of a CronTab in the last of BENCH_CLUSTERS (1,000) logical
// clusters against the same in root, paired runs, as more clusters are put in use (each started and given the
// CronTab CRD): BENCH_CLUSTERS_IN_USE (1,20,60) are the steps. Besides requests/s, the server's CPU time per
// request (its own cpuUsage) and its scavenges and GC time per 1,000 requests. Needs `npm run build`.
//   node bench/clusters-in-use.mjs   BENCH_KIND=create  BENCH_RUNS (5)  BENCH_SECONDS (2)  BENCH_IN_USE_FIRST (0)
// BENCH_PROFILE=1: each run is CPU-profiled in the server, and each step ends with the functions whose self time
// per request differs most between the cluster and root (summed over the runs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { crontabBody, crontabs, createNamespace, setupCrd } from './fixtures.mjs';
import { expectOk, load, median, request, startChild, stopChild } from './util.mjs';

const env = (name, def) => process.env[name] || def;
const count = Number(env('BENCH_CLUSTERS', 1000));
const steps = env('BENCH_CLUSTERS_IN_USE', '1,20,60').split(',').map(Number);
const runs = Number(env('BENCH_RUNS', 5));
const kind = env('BENCH_KIND', 'get');
const timing = { connections: 50, warmupMs: 1000, durationMs: Number(env('BENCH_SECONDS', 2)) * 1000 };
const LCS = '/apis/tenancy.crd-apiserver.io/v1alpha1/logicalclusters';

const tmp = mkdtempSync(join(os.tmpdir(), 'crd-apiserver-clusters-'));
// BENCH_SERVER_ARGS: node/V8 flags for the server process (e.g. --max-valid-polymorphic-map-count=64).
const serverArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const { proc, reply } = await startChild('./server-stats.mjs', { dataDir: join(tmp, 'data') }, serverArgs);
const url = reply.url;
const port = Number(new URL(url).port);
const stats = () =>
  new Promise((resolve) => {
    const h = (m) => m?.stats && (proc.off('message', h), resolve(m.stats));
    proc.on('message', h);
    proc.send('stats');
  });
const ask = (msg, key) =>
  new Promise((resolve) => {
    const h = (m) => m?.[key] !== undefined && (proc.off('message', h), resolve(m[key]));
    proc.on('message', h);
    proc.send(msg);
  });
const profiling = Boolean(process.env.BENCH_PROFILE || process.env.BENCH_PROFILE_DIR);
let profiles = 0;
/** Self time (µs) per function of a V8 CPU profile, keyed by name and place. */
function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
    out.set(key, (out.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return out;
}
/** One load run, with the server's CPU µs, scavenges and GC ms per request over it (warm-up included in both). */
async function run(job) {
  if (profiling) await ask('profile:start', 'profiling');
  const s0 = await stats();
  const r = await load(job);
  const s1 = await stats();
  const profile = profiling ? await ask('profile:stop', 'profile') : undefined;
  // BENCH_PROFILE_DIR: the profiles too, for a look in a profile viewer (root-N and cluster-N).
  if (profile && process.env.BENCH_PROFILE_DIR) writeFileSync(join(process.env.BENCH_PROFILE_DIR, `${job.path.startsWith('/clusters/') ? 'cluster' : 'root'}-${profiles++}.cpuprofile`), JSON.stringify(profile));
  const self = profile && selfTimes(profile);
  if (r.errors > 0) throw new Error(`${job.path}: ${JSON.stringify(r.statuses)}`);
  const n = r.requests * (1 + job.warmupMs / job.durationMs);
  const cpu = (s) => s.cpu.user + s.cpu.system;
  return { self, requests: n, rps: r.rps, sysUs: (s1.cpu.system - s0.cpu.system) / n, cpuUs: (cpu(s1) - cpu(s0)) / n, scavenges: ((s1.scavenges - s0.scavenges) / n) * 1000, gcMs: ((s1.scavengeMs + s1.majorMs - s0.scavengeMs - s0.majorMs) / n) * 1000 };
}
/** Self µs per request by function, cluster against root, the largest differences first. */
function printDifferences(root, cluster) {
  const perRequest = (rs) => {
    const sum = new Map();
    const n = rs.reduce((a, r) => a + r.requests, 0);
    for (const r of rs) for (const [k, us] of r.self) sum.set(k, (sum.get(k) ?? 0) + us);
    for (const [k, us] of sum) sum.set(k, us / n);
    return sum;
  };
  const a = perRequest(root);
  const b = perRequest(cluster);
  const total = (m) => [...m.values()].reduce((x, y) => x + y, 0);
  console.log(`  profiled self µs/request: root ${total(a).toFixed(1)}, cluster ${total(b).toFixed(1)}`);
  const keys = new Set([...a.keys(), ...b.keys()]);
  const rows = [...keys].map((k) => [k, a.get(k) ?? 0, b.get(k) ?? 0]).sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]));
  for (const [k, x, y] of rows.slice(0, 30)) console.log(`  ${(y - x >= 0 ? '+' : '') + (y - x).toFixed(2)} µs  (${x.toFixed(2)} → ${y.toFixed(2)})  ${k}`);
}
try {
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < count) await expectOk(request(`${url}${LCS}`, 'POST', { metadata: { name: `c${next++}` } }), 'create cluster');
    }),
  );
  // BENCH_IN_USE_FIRST: that many clusters put in use before root and the target get their CronTab (as in run.mjs).
  let inUse = 1; // the target
  const putInUse = async (n) => {
    for (; inUse < n; inUse++) {
      await expectOk(request(`${url}/clusters/c${inUse - 1}/api/v1/namespaces/default`), 'first request');
      await setupCrd(`${url}/clusters/c${inUse - 1}`);
    }
  };
  await putInUse(Number(env('BENCH_IN_USE_FIRST', 0)) + 1);
  // BENCH_TARGET=root: the other side is root again through /clusters/root/ (the dispatch and the path's slicing alone).
  const target = process.env.BENCH_TARGET || `c${count - 1}`;
  for (const base of target === 'root' ? [''] : ['', `/clusters/${target}`]) {
    await setupCrd(`${url}${base}`);
    await createNamespace(`${url}${base}`, 'bench');
    await expectOk(request(`${url}${base}${crontabs('bench')}`, 'POST', crontabBody('bench').replace('__NAME__', 'one'), { 'Content-Type': 'application/json' }), 'create one');
  }
  const body = crontabBody('bench');
  const job = (base, prefix) =>
    kind === 'get'
      ? { ...timing, port, method: 'GET', path: `${base}${crontabs('bench')}/one` }
      : { ...timing, port, method: 'POST', path: `${base}${crontabs('bench')}`, headers: { 'Content-Type': 'application/json' }, body, nameTemplate: prefix };
  let seq = 0;
  const show = (xs, f) => xs.map(f).join(', ');
  for (const step of steps) {
    await putInUse(step);
    const root = [];
    const cluster = [];
    for (let i = 0; i < runs; i++) {
      // Alternating which goes first, as run.mjs does.
      if (i % 2 === 1) cluster.push(await run(job(`/clusters/${target}`, `l${seq++}-`)));
      root.push(await run(job('', `r${seq++}-`)));
      if (i % 2 === 0) cluster.push(await run(job(`/clusters/${target}`, `l${seq++}-`)));
    }
    const ratios = root.map((r, i) => cluster[i].rps / r.rps);
    console.log(
      `${kind}, ${inUse} clusters in use: root ${show(root, (r) => Math.round(r.rps))}/s, ${target} ${show(cluster, (r) => Math.round(r.rps))}/s; ` +
        `ratios ${show(ratios, (x) => x.toFixed(2))} (median ${median(ratios).toFixed(2)}); ` +
        `CPU µs/request root ${median(root.map((r) => r.cpuUs)).toFixed(1)}, ${target} ${median(cluster.map((r) => r.cpuUs)).toFixed(1)} ` +
        `(system ${median(root.map((r) => r.sysUs)).toFixed(1)}, ${median(cluster.map((r) => r.sysUs)).toFixed(1)}); ` +
        `scavenges per 1,000 requests ${median(root.map((r) => r.scavenges)).toFixed(2)} vs ${median(cluster.map((r) => r.scavenges)).toFixed(2)}, ` +
        `GC ms per 1,000 ${median(root.map((r) => r.gcMs)).toFixed(2)} vs ${median(cluster.map((r) => r.gcMs)).toFixed(2)}`,
    );
    if (profiling) printDifferences(root, cluster);
  }
} finally {
  await stopChild(proc);
  rmSync(tmp, { recursive: true, force: true });
}
