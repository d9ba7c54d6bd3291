// Logical clusters' figures (issue 22): clusters created per second and create-to-Ready latency, the memory of
// BENCH_CLUSTERS empty clusters and of clusters holding the CronTab CRD, and a create and a GET in cluster
// number 1,000 against the same in root, on one server. Memory is the server process's RSS (/proc).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crontabBody, crontabs, createNamespace, setupCrd } from './fixtures.mjs';
import { expectOk, median, percentile, request, sleep, startChild, stopChild } from './util.mjs';

export const CLUSTER_FIGURES = ['clusters'];

const LCS = '/apis/tenancy.crd-apiserver.io/v1alpha1/logicalclusters';
const MiB = 1024 * 1024;

/** The process's resident set, from /proc (Linux). */
const rss = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

async function settledRss(pid) {
  await sleep(1500);
  return rss(pid);
}

async function createCluster(url, name) {
  await expectOk(request(`${url}${LCS}`, 'POST', { metadata: { name } }), `create cluster ${name}`);
}

async function waitReady(url, name) {
  for (;;) {
    const r = await request(`${url}${LCS}/${name}`);
    if (r.status === 200 && r.json().status?.phase === 'Ready') return;
    await sleep(1);
  }
}

/** ctx: { cfg, timing, tmp, log, notes, ratioRow, absRow, fmt, serverExecArgv, throughput }. */
export async function clusterFigures(ctx) {
  const { cfg, timing, tmp, log, notes, ratioRow, absRow, fmt, serverExecArgv, throughput } = ctx;
  const count = cfg.clusters;
  const { proc, reply } = await startChild('./server.mjs', { dataDir: join(tmp, 'clusters') }, serverExecArgv);
  const url = reply.url;
  const port = Number(new URL(url).port);
  try {
    const rss0 = await settledRss(proc.pid);
    log(`clusters: creating ${count.toLocaleString('en-US')} logical clusters...`);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < count) await createCluster(url, `c${next++}`);
      }),
    );
    const createSeconds = (performance.now() - t0) / 1000;
    await waitReady(url, `c${count - 1}`);
    absRow(`logical clusters: created per second (${count.toLocaleString('en-US')}, 32 at a time)`, count / createSeconds, fmt.rate, undefined);
    const latencies = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await createCluster(url, `ready-${i}`);
      await waitReady(url, `ready-${i}`);
      latencies.push(performance.now() - t);
    }
    absRow('logical clusters: create to Ready, median of 50 one at a time', median(latencies), fmt.ms, { text: '≤ 5 ms', ok: (x) => x <= 5 });
    notes.push(`clusters: create to Ready p99 ${percentile(latencies, 0.99).toFixed(1)} ms`);
    const rss1 = await settledRss(proc.pid);
    const perTenThousand = ((rss1 - rss0) / count) * 10_000;
    absRow(`logical clusters: RSS of 10,000 empty clusters above an empty server (from ${count.toLocaleString('en-US')})`, perTenThousand / MiB, (x) => `${x.toFixed(0)} MiB`, {
      text: '≤ 200 MiB',
      ok: (x) => x <= 200,
    });
    // Twenty clusters in use, each with the CronTab CRD: each cluster's server starts on its first request.
    const used = 20;
    const first = [];
    for (let i = 0; i < used; i++) {
      const t = performance.now();
      await expectOk(request(`${url}/clusters/c${i}/api/v1/namespaces/default`), 'first request');
      first.push(performance.now() - t);
      await setupCrd(`${url}/clusters/c${i}`);
    }
    const rss2 = await settledRss(proc.pid);
    absRow('logical clusters: first request to a cluster (its server starts), median of 20', median(first), fmt.ms, undefined);
    absRow('logical clusters: RSS per cluster in use with the CronTab CRD', (rss2 - rss1) / used / MiB, (x) => `${x.toFixed(2)} MiB`, undefined);
    // A create and a GET in cluster number 1,000 against the same in root.
    const target = `c${Math.min(999, count - 1)}`;
    for (const base of ['', `/clusters/${target}`]) {
      await setupCrd(`${url}${base}`);
      await createNamespace(`${url}${base}`, 'bench');
      const one = crontabBody('bench').replace('__NAME__', 'one');
      await expectOk(request(`${url}${base}${crontabs('bench')}`, 'POST', one, { 'Content-Type': 'application/json' }), 'create one');
    }
    const get = (base) => () => ({ ...timing, port, method: 'GET', path: `${base}${crontabs('bench')}/one` });
    const g = await throughput(`GET in cluster ${target}`, get(''), get(`/clusters/${target}`));
    ratioRow(`logical clusters: GET a CronTab in cluster ${target} vs the same in root, req/s`, g.ours, g.base, fmt.rate, { text: '≥ 0.95×', ok: (x) => x >= 0.95 }, g.ratio);
    const body = crontabBody('bench');
    const headers = { 'Content-Type': 'application/json' };
    const post = (base, prefix) => (i) => ({ ...timing, port, method: 'POST', path: `${base}${crontabs('bench')}`, headers, body, nameTemplate: `${prefix}${i}-` });
    const c = await throughput(`create in cluster ${target}`, post('', 'r'), post(`/clusters/${target}`, 'l'));
    ratioRow(`logical clusters: create CronTabs in cluster ${target} vs the same in root, creates/s`, c.ours, c.base, fmt.rate, { text: '≥ 0.95×', ok: (x) => x >= 0.95 }, c.ratio);
  } finally {
    await stopChild(proc);
  }
}
