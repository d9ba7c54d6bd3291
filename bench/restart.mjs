// `node bench/restart.mjs DATA_DIR [STARTS] [OTHER_CHECKOUT]`: restart to /readyz on a data dir (bench/fill.mjs
// makes one), STARTS times (3), as bench/startup.mjs's timeStart (spawn `node dist/cli/crd-apiserver.cjs serve`, poll
// /readyz every 2 ms; the server's CPU time to that answer is read from /proc too), each round also timing a bare
// node:http process start (the baseline). With OTHER_CHECKOUT
// (a built clone, e.g. of main), its build and this one alternate on the same data dir (RESTART_FRESH=1: first
// starts on new data dirs instead). RESTART_PROBE_S=40: after each last start, that long a GET of one CronTab every
// 100 ms and a LIST ?limit=500 every fifth, with their latencies before and after the watch cache reports itself
// loaded.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import { probe, timeStartBare } from './startup.mjs';
import { cpuMsOf, freePort, here, median, sleep } from './util.mjs';

const [dataDir, starts = '3', other] = process.argv.slice(2);
if (!dataDir) {
  console.error('usage: node bench/restart.mjs DATA_DIR [STARTS] [OTHER_CHECKOUT]');
  process.exit(2);
}
const probeSeconds = Number(process.env.RESTART_PROBE_S ?? 0);
mkdirSync(dataDir, { recursive: true });
// The bundled command line's entry; an older build may have only the ES module entry, or no bundle at all (then its modules').
const command = (dir) => [`${dir}/dist/cli/crd-apiserver.cjs`, `${dir}/dist/cli/crd-apiserver.js`].find((f) => existsSync(f)) ?? `${dir}/dist/cli/main.js`;
const builds = [{ name: 'this build', main: here('../dist/cli/crd-apiserver.cjs') }, ...(other ? [{ name: other, main: command(other) }] : [])];

// RESTART_FRESH=1: every start on a new empty data dir under DATA_DIR (first starts: certificates, keys and the
// bootstrap objects written), removed after it.
const fresh = process.env.RESTART_FRESH === '1';

/** Start one server; resolves once /readyz answers 200, with the milliseconds from spawn and a stop(). */
async function start(main) {
  const port = await freePort();
  const dir = fresh ? mkdtempSync(join(dataDir, 'fresh-')) : dataDir;
  const t0 = performance.now();
  const proc = spawn(process.execPath, [main, 'serve', '--data-dir', dir, '--secure-port', '0', '--insecure-port', String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => proc.once('exit', r)).then(() => fresh && rmSync(dir, { recursive: true, force: true }));
  while ((await probe(port)) !== 200) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode} before it was ready`);
    await sleep(2);
  }
  const ms = performance.now() - t0;
  return { ms, cpuMs: cpuMsOf(proc.pid), port, t0, stop: async () => (proc.kill('SIGTERM'), await exited) };
}

function get(port, path) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let text = '';
        res.on('data', (c) => (text += path === '/metrics' ? c : ''));
        res.on('end', () => (res.statusCode === 200 ? resolve({ ms: performance.now() - t, text }) : reject(new Error(`${path}: ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

const q = (xs, p) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(1) : '-');
const stats = (xs) => `p50 ${q(xs, 0.5)} ms, max ${q(xs, 1)} ms (${xs.length})`;

/** GET and LIST latencies while the cache loads and after, and when it reported itself loaded. */
async function probeAfterReady(s) {
  const loadedRe = /apiserver_watch_cache_initializations_total\{resource="crontabs.stable.example.com"\} [1-9]/;
  const lat = { during: { get: [], list: [] }, after: { get: [], list: [] } };
  let loadedAt;
  const end = performance.now() + probeSeconds * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const phase = loadedAt === undefined ? lat.during : lat.after;
    phase.get.push((await get(s.port, '/apis/stable.example.com/v1/namespaces/scale/crontabs/f0-7')).ms);
    if (i % 5 === 0) {
      phase.list.push((await get(s.port, '/apis/stable.example.com/v1/namespaces/scale/crontabs?limit=500')).ms);
      if (loadedAt === undefined && loadedRe.test((await get(s.port, '/metrics')).text)) loadedAt = performance.now() - s.t0;
    }
    await sleep(100);
  }
  const loaded = loadedAt === undefined ? `not within ${probeSeconds} s` : `${(loadedAt / 1000).toFixed(1)} s after the spawn`;
  return `cache loaded ${loaded}; during the load GET ${stats(lat.during.get)}, LIST ${stats(lat.during.list)}; after GET ${stats(lat.after.get)}, LIST ${stats(lat.after.list)}`;
}

// A bare node:http process start in each round too: the baseline, on the machine as it is in that round.
const BARE = 'bare node:http';
const times = new Map([...builds.map((b) => [b.name, []]), [BARE, []]]);
// The server's CPU time (all threads) from spawn to its first /readyz 200: steadier than the wall time on a shared machine.
const cpu = new Map(builds.map((b) => [b.name, []]));
for (let i = 0; i < Number(starts); i++) {
  times.get(BARE).push(await timeStartBare());
  for (const b of builds) {
    const s = await start(b.main);
    times.get(b.name).push(s.ms);
    cpu.get(b.name).push(s.cpuMs);
    console.log(`${b.name}: ready in ${s.ms.toFixed(0)} ms (${s.cpuMs.toFixed(0)} ms of CPU)`);
    if (probeSeconds > 0 && i === Number(starts) - 1) console.log(`${b.name}: ${await probeAfterReady(s)}`);
    await s.stop();
  }
}
const bare = median(times.get(BARE));
for (const [name, xs] of times) {
  const ratio = name === BARE ? '' : `, ${(median(xs) / bare).toFixed(2)}× bare`;
  const cpuMs = cpu.get(name);
  const cpuNote = cpuMs ? `; CPU to ready median ${median(cpuMs).toFixed(0)} ms` : '';
  console.log(`${name}: median ${median(xs).toFixed(0)} ms${ratio} (${xs.map((x) => x.toFixed(0)).join(', ')})${cpuNote}`);
}
