// Many CRDs stored (issue 19): restart to /readyz, then the first and warm /openapi/v3 index, aggregated
// discovery and one CRD group-version's document. The data dir is filled once (a fresh server installs
// `count` renamed corpus CRDs) and reused, so two builds can be compared on the same data in turn.
// Run: npm run build && node bench/crd-restart.mjs <dataDir> [count] [starts]
//   (BENCH_CPU_PROF=<dir>: the restarted servers run with --cpu-prof there)
import { existsSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { corpusCrds, install, renamed } from './crd-install.mjs';
import { probe } from './startup.mjs';
import { expectOk, freePort, here, median, request, sleep, startChild, stopChild } from './util.mjs';

const DISCOVERY_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

async function fillDataDir(dataDir, count) {
  const { proc, reply } = await startChild('./server.mjs', { dataDir });
  try {
    const kubeconfig = readFileSync(join(dataDir, 'kubeconfig'), 'utf8');
    const r = await install({ url: reply.secureUrl, kubeconfig }, renamed(corpusCrds(), count, 's'), 8);
    console.error(`filled ${dataDir}: ${count} CRDs at ${r.perSecond.toFixed(1)}/s`);
  } finally {
    await stopChild(proc);
  }
}

async function timed(url, headers = {}) {
  const t0 = performance.now();
  const r = await expectOk(request(url, 'GET', undefined, headers, { discard: true }), url);
  return { ms: performance.now() - t0, bytes: r.bytes };
}

/** Spawn `serve` on the data dir; ms to /readyz 200, then the documents' times; stops it. */
async function restart(dataDir, group, version) {
  const port = await freePort();
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const t0 = performance.now();
  const proc = spawn(process.execPath, [...prof, here('../dist/cli/crd-apiserver.cjs'), 'serve', '--data-dir', dataDir, '--secure-port', '0', '--insecure-port', String(port)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => proc.once('exit', r));
  try {
    while ((await probe(port)) !== 200) {
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
      await sleep(2);
    }
    const readyMs = performance.now() - t0;
    const base = `http://127.0.0.1:${port}`;
    const openapi = await timed(`${base}/openapi/v3`);
    const discovery = await timed(`${base}/apis`, { Accept: DISCOVERY_V2 });
    const oa = [];
    const di = [];
    for (let i = 0; i < 5; i++) {
      oa.push((await timed(`${base}/openapi/v3`)).ms);
      di.push((await timed(`${base}/apis`, { Accept: DISCOVERY_V2 })).ms);
    }
    const gv = await timed(`${base}/openapi/v3/apis/${group}/${version}`);
    return { readyMs, openapiFirstMs: openapi.ms, openapiWarmMs: median(oa), discoveryFirstMs: discovery.ms, discoveryWarmMs: median(di), groupVersionFirstMs: gv.ms };
  } finally {
    proc.kill('SIGTERM');
    await exited;
  }
}

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: node bench/crd-restart.mjs <dataDir> [count] [starts]');
const count = Number(process.argv[3] ?? 1000);
const starts = Number(process.argv[4] ?? 3);
if (!existsSync(join(dataDir, 'kubeconfig'))) await fillDataDir(dataDir, count);
const last = renamed(corpusCrds(), count, 's').at(-1).spec;
const runs = [];
for (let i = 0; i < starts; i++) runs.push(await restart(dataDir, last.group, last.versions.find((v) => v.storage).name));
const out = {};
for (const k of Object.keys(runs[0])) out[k] = Math.round(median(runs.map((r) => r[k])));
out.readyRuns = runs.map((r) => Math.round(r.readyMs));
console.log(JSON.stringify(out));
process.exit(0);
