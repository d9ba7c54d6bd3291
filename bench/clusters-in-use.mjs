// Not a figure of run.mjs: a GET (or create) of a CronTab in the last of BENCH_CLUSTERS (1,000) logical
// clusters against the same in root, paired runs, as more clusters are put in use (each started and given the
// CronTab CRD): BENCH_CLUSTERS_IN_USE (1,20,60) are the steps. Besides requests/s, the server's CPU time per
// request (its own cpuUsage) and its scavenges and GC time per 1,000 requests. Needs `npm run build`.
//   node bench/clusters-in-use.mjs   BENCH_KIND=create  BENCH_RUNS (5)  BENCH_SECONDS (2)  BENCH_IN_USE_FIRST (0)
import { mkdtempSync, rmSync } from 'node:fs';
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
/** One load run, with the server's CPU µs, scavenges and GC ms per request over it (warm-up included in both). */
async function run(job) {
  const s0 = await stats();
  const r = await load(job);
  const s1 = await stats();
  if (r.errors > 0) throw new Error(`${job.path}: ${JSON.stringify(r.statuses)}`);
  const n = r.requests * (1 + job.warmupMs / job.durationMs);
  const cpu = (s) => s.cpu.user + s.cpu.system;
  return { rps: r.rps, cpuUs: (cpu(s1) - cpu(s0)) / n, scavenges: ((s1.scavenges - s0.scavenges) / n) * 1000, gcMs: ((s1.scavengeMs + s1.majorMs - s0.scavengeMs - s0.majorMs) / n) * 1000 };
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
      root.push(await run(job('', `r${seq++}-`)));
      cluster.push(await run(job(`/clusters/${target}`, `l${seq++}-`)));
    }
    const ratios = root.map((r, i) => cluster[i].rps / r.rps);
    console.log(
      `${kind}, ${inUse} clusters in use: root ${show(root, (r) => Math.round(r.rps))}/s, ${target} ${show(cluster, (r) => Math.round(r.rps))}/s; ` +
        `ratios ${show(ratios, (x) => x.toFixed(2))} (median ${median(ratios).toFixed(2)}); ` +
        `CPU µs/request root ${median(root.map((r) => r.cpuUs)).toFixed(1)}, ${target} ${median(cluster.map((r) => r.cpuUs)).toFixed(1)}; ` +
        `scavenges per 1,000 requests ${median(root.map((r) => r.scavenges)).toFixed(2)} vs ${median(cluster.map((r) => r.scavenges)).toFixed(2)}, ` +
        `GC ms per 1,000 ${median(root.map((r) => r.gcMs)).toFixed(2)} vs ${median(cluster.map((r) => r.gcMs)).toFixed(2)}`,
    );
  }
} finally {
  await stopChild(proc);
  rmSync(tmp, { recursive: true, force: true });
}
