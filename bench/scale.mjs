// `npm run bench:scale` (issue 19): one million custom resources of ~1 KB filled through the API into the
// embedded SQLite store, and 1,000 corpus CRDs; each figure beside its baseline and goal, as bench/run.mjs
// prints them. Not part of `npm test` or `npm run bench`: it takes minutes. SCALE_OBJECTS=100000 runs smaller.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { GROUP_PATH, crontabBody, crontabs, createNamespace, setupCrd } from './fixtures.mjs';
import { corpusCrds, install, renamed } from './crd-install.mjs';
import { measureWatch } from './watch.mjs';
import { timeStart, timeStartBare } from './startup.mjs';
import { closeAgent, cpuBusy, cpuMsOf, expectOk, load, markdownTable, median, percentile, request, resetPeakRss, rssOf, sleep, startChild, stopChild } from './util.mjs';

const env = (name, def) => (process.env[name] !== undefined && process.env[name] !== '' ? Number(process.env[name]) : def);
const cfg = {
  objects: env('SCALE_OBJECTS', 1_000_000),
  baseObjects: env('SCALE_BASE_OBJECTS', 10_000),
  connections: env('SCALE_CONNECTIONS', 50),
  seconds: env('SCALE_SECONDS', 3),
  runs: env('SCALE_RUNS', 3),
  // One object in `shards` carries each value of the shard label: 62,500 of one million.
  shards: env('SCALE_SHARDS', 16),
  listRepeats: env('SCALE_LIST_REPEATS', 3),
  pageLimit: env('SCALE_PAGE_LIMIT', 500),
  replayEvents: env('SCALE_REPLAY_EVENTS', 100_000),
  watchers: env('SCALE_WATCHERS', 10_000),
  watchRounds: env('SCALE_WATCH_ROUNDS', 5),
  starts: env('SCALE_STARTS', 3),
  crds: env('SCALE_CRDS', 1_000),
  crdConcurrency: env('SCALE_CRD_CONCURRENCY', 8),
  // 1: no two CRDs share a schema (a description of each root differs), as with many providers' CRDs.
  crdsDistinct: env('SCALE_CRDS_DISTINCT', 0) === 1,
  settleSeconds: env('SCALE_SETTLE_SECONDS', 45),
};
const only = new Set((process.env.SCALE_ONLY ?? 'objects,crds').split(',').map((s) => s.trim()));
const serverExecArgv = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];

const NS = 'scale';
const SHARD_LABEL = 'bench.example.com/shard';
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const DISCOVERY_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

const rows = [];
const notes = [];
const log = (s) => process.stderr.write(`[${(performance.now() / 1000).toFixed(0)} s] ${s}\n`);
const n = (x) => Math.round(x).toLocaleString('en-US');
const fmt = {
  rate: (x) => `${n(x)}/s`,
  ms: (x) => (x < 10 ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ms`),
  ratio: (x) => `${x.toFixed(2)}×`,
  gib: (x) => `${(x / GiB).toFixed(2)} GiB`,
  mib: (x) => `${(x / MiB).toFixed(2)} MiB`,
};
const met = (goal, x) => (goal ? (goal.ok(x) ? 'yes' : 'NO') : '');
/** A row whose goal is a ratio to its baseline (ours / base unless given). */
function ratioRow(figure, ours, base, show, goal, ratio = ours / base) {
  rows.push({ figure, ours: show(ours), base: show(base), ratio: fmt.ratio(ratio), goal: goal?.text ?? 'info', met: met(goal, ratio) });
}
/** A row whose goal is absolute; base (optional) is shown for scale. */
function absRow(figure, ours, show, goal, base = undefined) {
  rows.push({ figure, ours: show(ours), base: base === undefined ? '—' : show(base), ratio: base === undefined ? '—' : fmt.ratio(ours / base), goal: goal?.text ?? 'info', met: met(goal, ours) });
}
/** Run one figure; a failure becomes a row saying so, and the run goes on to the next. */
async function attempt(figure, fn) {
  try {
    await fn();
  } catch (err) {
    log(`${figure} failed: ${err?.stack ?? err}`);
    rows.push({ figure: `${figure}: FAILED (${String(err?.message ?? err).slice(0, 160)})`, ours: '—', base: '—', ratio: '—', goal: '', met: 'NO' });
  }
}
const atMost = (limit, text) => ({ text, ok: (x) => x <= limit });

async function startOurs(dataDir) {
  // Room for every watcher and the benchmark's other connections: the default cap is 10,000 per listener
  // (less when the descriptor limit is lower), which the 10,000 watchers alone reach.
  const maxConnections = cfg.watchers + 1_000;
  const { proc, reply } = await startChild('./server.mjs', { dataDir, maxConnections }, serverExecArgv);
  return { proc, url: reply.url, secureUrl: reply.secureUrl, port: Number(new URL(reply.url).port) };
}

/** The CronTab create body with a shard label (__SHARD__), the padding shortened to keep it ~1 KB. */
function shardedBody(ns) {
  const o = JSON.parse(crontabBody(ns));
  const extra = JSON.stringify({ [SHARD_LABEL]: '__SHARD__' }).length - 1;
  o.metadata.labels[SHARD_LABEL] = '__SHARD__';
  const pad = o.metadata.annotations['bench.example.com/padding'];
  o.metadata.annotations['bench.example.com/padding'] = pad.slice(0, Math.max(0, pad.length - extra));
  return JSON.stringify(o);
}

/** Create `count` objects through the API in chunks; logs each chunk's rate and the server's RSS. */
async function fill(s, from, count, chunk = 100_000) {
  const body = shardedBody(NS);
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const rates = [];
  let done = 0;
  const t0 = performance.now();
  while (done < count) {
    // A multiple of the shards, so every chunk spreads its objects evenly over the label's values.
    const total = Math.min(chunk, count - done);
    const r = await load({ connections: cfg.connections, warmupMs: 0, durationMs: 0, total, port: s.port, method: 'POST', path: crontabs(NS), headers, body, nameTemplate: `f${from + done}-`, shards: cfg.shards });
    if (r.errors > 0) throw new Error(`fill: ${r.errors} failed creates ${JSON.stringify(r.statuses)}`);
    done += total;
    rates.push(r.rps);
    const m = rssOf(s.proc.pid);
    log(`  ${n(from + done)} objects: ${n(r.rps)} creates/s (p99 ${r.p99ms.toFixed(0)} ms), server RSS ${fmt.gib(m.rss)} (peak ${fmt.gib(m.peak)})`);
  }
  return { rate: (count / (performance.now() - t0)) * 1000, rates };
}

/** Creates/s (into another namespace, same resource) and GETs/s of one object: cfg.runs runs each, medians. */
async function createAndGet(s, tag) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const timing = { connections: cfg.connections, warmupMs: 500, durationMs: cfg.seconds * 1000 };
  const creates = [];
  const gets = [];
  for (let i = 0; i < cfg.runs; i++) {
    const c = await load({ ...timing, port: s.port, method: 'POST', path: crontabs(`${NS}-probe`), headers, body: crontabBody(`${NS}-probe`), nameTemplate: `${tag}${i}-` });
    const g = await load({ ...timing, port: s.port, method: 'GET', path: `${crontabs(NS)}/f0-7`, headers: { Accept: 'application/json' } });
    for (const r of [c, g]) if (r.errors > 0) throw new Error(`${tag}: ${r.errors} non-2xx responses ${JSON.stringify(r.statuses)}`);
    creates.push(c.rps);
    gets.push(g.rps);
  }
  return { create: median(creates), get: median(gets), creates, gets };
}

/** Time one request to its last byte (body counted, not kept). */
async function timed(url, headers = {}) {
  const t0 = performance.now();
  const r = await expectOk(request(url, 'GET', undefined, headers, { discard: true }), url);
  return { ms: performance.now() - t0, bytes: r.bytes };
}

/** A label-selected LIST, timed against JSON.stringify of the same list (paired, as run.mjs does for LIST). */
async function labelList(s) {
  const url = `${s.url}${crontabs(NS)}?labelSelector=${encodeURIComponent(`${SHARD_LABEL}=3`)}`;
  const before = rssOf(s.proc.pid).rss;
  resetPeakRss(s.proc.pid);
  // The first builds the resource's label index: timed on its own, with the server's CPU time and RSS peak.
  const cpu0 = cpuMsOf(s.proc.pid);
  const t0 = performance.now();
  const text = (await expectOk(request(url), 'label list')).text;
  const first = { ms: performance.now() - t0, cpuMs: cpuMsOf(s.proc.pid) - cpu0, peak: rssOf(s.proc.pid).peak };
  const list = JSON.parse(text);
  const bytes = Buffer.byteLength(text);
  const lat = [];
  const str = [];
  for (let i = 0; i < cfg.listRepeats; i++) {
    lat.push((await timed(url)).ms);
    const t0 = performance.now();
    JSON.stringify(list);
    str.push(performance.now() - t0);
  }
  const peak = rssOf(s.proc.pid).peak;
  await sleep(2000);
  const after = rssOf(s.proc.pid).rss;
  return { items: list.items.length, bytes, lat, str, before, peak, after, first };
}

/** Page through the whole namespace at cfg.pageLimit; the latency of every page, in order. */
async function pagedWalk(s) {
  const lat = [];
  let token = '';
  let items = 0;
  for (;;) {
    const url = `${s.url}${crontabs(NS)}?limit=${cfg.pageLimit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    const t0 = performance.now();
    const r = await expectOk(request(url), 'page');
    lat.push(performance.now() - t0);
    // The list's metadata is at one end: no need to parse 500 objects for the token.
    const ends = r.text.slice(0, 4096) + r.text.slice(-4096);
    token = /"continue":"([^"]*)"/.exec(ends)?.[1] ?? '';
    items += (r.text.match(/"kind":"CronTab"/g) ?? []).length;
    if (!token) break;
  }
  return { lat, items };
}

const EVENT = '{"type":"';

/** Open a raw watch; resolve when `marker` has arrived, with the number of events (lines) and the time. */
function replay(port, path, marker) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let t0 = 0;
    let first = 0;
    let lines = 0;
    let tail = '';
    let head = true;
    sock.on('connect', () => {
      t0 = performance.now();
      sock.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\n\r\n`);
    });
    sock.on('data', (chunk) => {
      const text = chunk.toString('latin1');
      if (head) {
        if (!text.startsWith('HTTP/1.1 200')) {
          sock.destroy();
          return reject(new Error(`watch refused: ${text.slice(0, 400)}`));
        }
        head = false;
        first = performance.now() - t0;
      }
      // Events, not lines (chunk framing has newlines too); one may straddle two reads.
      const seen = tail.slice(-(EVENT.length - 1)) + text;
      for (let i = seen.indexOf(EVENT); i >= 0; i = seen.indexOf(EVENT, i + 1)) lines++;
      if (text.includes('{"type":"ERROR"')) {
        sock.destroy();
        return reject(new Error(`watch ended: ${text.slice(text.indexOf('{"type":"ERROR"'), text.indexOf('{"type":"ERROR"') + 300)}`));
      }
      if ((tail + text).includes(marker)) {
        const ms = performance.now() - t0;
        sock.destroy();
        resolve({ ms, first, lines });
      }
      tail = text.slice(-(marker.length - 1));
    });
    sock.on('error', reject);
    sock.on('close', () => reject(new Error(`the watch closed after ${lines} events, before ${marker}`)));
  });
}

async function objectsPart(tmp) {
  const dataDir = join(tmp, 'objects');
  const s = await startOurs(dataDir);
  const pid = s.proc.pid;
  try {
    await setupCrd(s.url);
    await createNamespace(s.url, NS);
    await createNamespace(s.url, `${NS}-probe`);
    await createNamespace(s.url, `${NS}-watch`);

    // ---- at SCALE_BASE_OBJECTS: the baselines of GET and create ----
    log(`filling ${n(cfg.baseObjects)} CronTabs...`);
    resetPeakRss(pid);
    await fill(s, 0, cfg.baseObjects);
    log('create and GET at the baseline size...');
    const atBase = await createAndGet(s, 'b');

    // ---- the fill ----
    log(`filling up to ${n(cfg.objects)} CronTabs (${cfg.connections} connections)...`);
    const f = await fill(s, cfg.baseObjects, cfg.objects - cfg.baseObjects);
    const fillPeak = rssOf(pid).peak;
    absRow(`fill: creates/s through the API from ${n(cfg.baseObjects)} to ${n(cfg.objects)} CronTabs, ${cfg.connections} conns`, f.rate, fmt.rate, undefined);
    if (f.rates.length > 1) ratioRow(`fill: creates/s of the last ${n(Math.min(100_000, cfg.objects))} vs the first after the baseline`, f.rates.at(-1), f.rates[0], fmt.rate, undefined);
    notes.push(`fill: ${f.rates.map((x) => n(x)).join(', ')} creates/s per chunk of 100,000`);

    // ---- a watch from replayEvents revisions back (first: history older than 5 minutes is compacted) ----
    await attempt('watch replay', async () => {
      log(`watch replay of ${n(cfg.replayEvents)} events...`);
      const end = (await expectOk(request(`${s.url}${crontabs(NS)}`, 'POST', JSON.parse(crontabBody(NS).replace('__NAME__', 'replay-end'))), 'replay-end')).json();
      const endRv = Number(end.metadata.resourceVersion);
      const from = endRv - cfg.replayEvents;
      // The revisions in (from, endRv] are the fill's creates, and this one.
      const rp = await replay(s.port, `${GROUP_PATH}/crontabs?watch=1&resourceVersion=${from}`, '"name":"replay-end"');
      const events = rp.lines;
      ratioRow(`watch from a resourceVersion ${n(cfg.replayEvents)} revisions back: events/s replayed (${n(events)} events) vs the goal`, (events / rp.ms) * 1000, 100_000, fmt.rate, { text: '≥ 1.0× (100,000/s)', ok: (x) => x >= 1 });
      notes.push(`watch replay: ${n(events)} events in ${rp.ms.toFixed(0)} ms, first bytes after ${rp.first.toFixed(1)} ms, from resourceVersion ${from} to ${endRv}`);
    });

    log('create and GET at full size...');
    const atFull = await createAndGet(s, 'n');
    const within10 = { text: '≥ 0.9×', ok: (x) => x >= 0.9 };
    ratioRow(`create: creates/s at ${n(cfg.objects)} vs at ${n(cfg.baseObjects)} objects (same run, medians of ${cfg.runs})`, atFull.create, atBase.create, fmt.rate, within10);
    ratioRow(`GET one CR: req/s at ${n(cfg.objects)} vs at ${n(cfg.baseObjects)} objects`, atFull.get, atBase.get, fmt.rate, within10);
    notes.push(`create runs/s at ${n(cfg.baseObjects)}: ${atBase.creates.map(n).join(', ')}; at ${n(cfg.objects)}: ${atFull.creates.map(n).join(', ')} (each into a namespace of its own, same resource)`);
    notes.push(`GET runs/s at ${n(cfg.baseObjects)}: ${atBase.gets.map(n).join(', ')}; at ${n(cfg.objects)}: ${atFull.gets.map(n).join(', ')}`);

    // ---- a LIST selecting 1/shards of the objects by label ----
    log('label-selected LIST...');
    const l = await labelList(s);
    const pairedRatio = median(l.lat.map((x, i) => x / l.str[i]));
    ratioRow(`LIST selecting ${n(l.items)} of ${n(cfg.objects)} CRs by label (${(l.bytes / MiB).toFixed(0)} MiB) vs JSON.stringify of them`, median(l.lat), median(l.str), fmt.ms, atMost(1.0, '≤ 1.0×'), pairedRatio);
    notes.push(`first label LIST (builds the label index): ${l.first.ms.toFixed(0)} ms, server CPU ${l.first.cpuMs} ms, server RSS peak ${fmt.gib(l.first.peak)} (+${fmt.mib(l.first.peak - l.before)})`);
    notes.push(`label LIST: latencies ${l.lat.map((x) => x.toFixed(0)).join(', ')} ms; stringify ${l.str.map((x) => x.toFixed(0)).join(', ')} ms; server RSS ${fmt.gib(l.before)} before, peak ${fmt.gib(l.peak)} during (+${fmt.mib(l.peak - l.before)} for a ${fmt.mib(l.bytes)} response), ${fmt.gib(l.after)} 2 s after`);

    // ---- paged lists through the whole collection ----
    await attempt('paged LIST', async () => {
      log(`paged LIST (limit=${cfg.pageLimit}) through the whole namespace...`);
      resetPeakRss(pid);
      const w = await pagedWalk(s);
      if (w.items < cfg.objects) throw new Error(`paging returned ${w.items} objects, expected ${cfg.objects}`);
      const third = Math.max(1, Math.floor(w.lat.length / 3));
      absRow(`paged LIST limit=${cfg.pageLimit}: p99 per page over all ${n(w.lat.length)} pages of ${n(w.items)} CRs`, percentile(w.lat, 0.99), fmt.ms, atMost(20, '≤ 20 ms'));
      for (const [what, part] of [['first third', w.lat.slice(0, third)], ['middle third', w.lat.slice(third, 2 * third)], ['last third', w.lat.slice(2 * third)]]) {
        absRow(`paged LIST: p99 per page, ${what} of the collection`, percentile(part, 0.99), fmt.ms, atMost(20, '≤ 20 ms'));
      }
      notes.push(`paged LIST: first page ${fmt.ms(w.lat[0])}, middle page ${fmt.ms(w.lat[w.lat.length >> 1])}, last page ${fmt.ms(w.lat.at(-1))}; p50 ${fmt.ms(percentile(w.lat, 0.5))}; max ${fmt.ms(Math.max(...w.lat))}`);
    });
    const listPeak = Math.max(l.peak, rssOf(pid).peak);

    // ---- many watchers ----
    await attempt('many watchers', async () => {
      log(`${n(cfg.watchers)} watchers...`);
      resetPeakRss(pid);
      const ww = await measureWatch(s.url, `${NS}-watch`, { writes: 20, watchers: cfg.watchers, rounds: cfg.watchRounds });
      const ack = ww.many.map((x) => x.fromAck);
      absRow(`watch, last of ${n(cfg.watchers)} watchers: ack → event (max of ${cfg.watchRounds} writes)`, Math.max(...ack), fmt.ms, atMost(200, '≤ 200 ms'));
      notes.push(`watch, ${n(cfg.watchers)} watchers: ack → last event ${ack.map((x) => x.toFixed(0)).join(', ')} ms; 1 watcher p99 ${fmt.ms(percentile(ww.single.map((x) => x.fromAck), 0.99))}; server RSS peak ${fmt.gib(rssOf(pid).peak)} with them open`);
    });

    const rssGoal = atMost(2 * GiB, '≤ 2 GiB');
    absRow(`RSS: server peak during the fill of ${n(cfg.objects)} CRs`, fillPeak, fmt.gib, rssGoal);
    absRow('RSS: server peak during the label LIST and the paged walk', listPeak, fmt.gib, rssGoal);
    absRow('RSS: server after the LISTs (2 s after the label LIST)', l.after, fmt.gib, rssGoal);
  } finally {
    await stopChild(s.proc);
  }

  // ---- restart with everything stored ----
  log('restart...');
  const starts = [];
  const bare = [];
  for (let i = 0; i < cfg.starts; i++) {
    bare.push(await timeStartBare());
    starts.push(await timeStart(dataDir));
  }
  absRow(`restart to /readyz with ${n(cfg.objects)} CRs stored (median of ${cfg.starts}) vs bare node:http start`, median(starts), fmt.ms, atMost(5000, '≤ 5 s'), median(bare));
  notes.push(`restarts: ${starts.map((x) => x.toFixed(0)).join(', ')} ms; bare node:http ${bare.map((x) => x.toFixed(0)).join(', ')} ms`);
}

async function crdsPart(tmp) {
  const dataDir = join(tmp, 'crds');
  const corpus = corpusCrds();
  const crds = renamed(corpus, cfg.crds, 's', cfg.crdsDistinct);
  const s = await startOurs(dataDir);
  const pid = s.proc.pid;
  try {
    // The admin kubeconfig `serve` writes: install() speaks HTTPS with its client certificate.
    const kubeconfig = readFileSync(join(dataDir, 'kubeconfig'), 'utf8');
    await sleep(500);
    const before = rssOf(pid).rss;
    resetPeakRss(pid);
    log(`installing ${n(cfg.crds)} corpus CRDs (${cfg.crdsDistinct ? 'every schema its own' : `${corpus.length} distinct`}, renamed groups), ${cfg.crdConcurrency} at a time...`);
    const cpu0 = cpuMsOf(pid);
    const client0 = process.cpuUsage();
    const r = await install({ url: s.secureUrl, kubeconfig }, crds, cfg.crdConcurrency);
    // The server's CPU per CRD: what the rate would be on an idle core, whatever the other processes take.
    const cpuPerCrd = (cpuMsOf(pid) - cpu0) / cfg.crds;
    // The bench's own client shares the machine's cores: its CPU bounds the rate as much as the server's.
    const clientCpu = process.cpuUsage(client0);
    const clientCpuPerCrd = (clientCpu.user + clientCpu.system) / 1000 / cfg.crds;
    const peak = rssOf(pid).peak;
    await sleep(2000);
    const after = rssOf(pid).rss;
    absRow(`CRDs: ${n(cfg.crds)} installed, created and Established per second (${cfg.crdConcurrency} at a time)`, r.perSecond, fmt.rate, { text: '≥ 200/s', ok: (x) => x >= 200 });
    absRow('CRDs: create → Established, the slowest', r.maxEstablishedLagMs, fmt.ms, atMost(1000, '≤ 1 s'));
    absRow('CRDs: server CPU per CRD installed (user + system)', cpuPerCrd, fmt.ms, undefined);
    absRow('CRDs: the bench client\'s CPU per CRD installed (HTTPS, JSON, the watch)', clientCpuPerCrd, fmt.ms, undefined);
    absRow('CRDs: server RSS per CRD installed, 2 s after the installs', (after - before) / cfg.crds, fmt.mib, atMost(0.5 * MiB, '≤ 0.5 MiB'));

    const openapi = await timed(`${s.url}/openapi/v3`);
    const discovery = await timed(`${s.url}/apis`, { Accept: DISCOVERY_V2 });
    const oa = [];
    const di = [];
    for (let i = 0; i < 5; i++) {
      oa.push((await timed(`${s.url}/openapi/v3`)).ms);
      di.push((await timed(`${s.url}/apis`, { Accept: DISCOVERY_V2 })).ms);
    }
    const g = crds.at(-1).spec;
    const groupDoc = await timed(`${s.url}/openapi/v3/apis/${g.group}/${g.versions.find((v) => v.storage).name}`);
    const afterOpenapi = rssOf(pid);
    // What stays (the OpenAPI and discovery documents included): the installs' garbage goes once V8's memory
    // reducer has run on the idle process, tens of seconds later.
    await sleep(cfg.settleSeconds * 1000);
    const settled = rssOf(pid).rss;
    const goal100 = atMost(100, '≤ 100 ms');
    absRow(`CRDs: the same, settled (${cfg.settleSeconds} s after the OpenAPI and discovery requests below)`, (settled - before) / cfg.crds, fmt.mib, atMost(0.5 * MiB, '≤ 0.5 MiB'));
    absRow('CRDs: GET /openapi/v3, the first after the installs', openapi.ms, fmt.ms, goal100);
    absRow('CRDs: GET /openapi/v3, again (median of 5)', median(oa), fmt.ms, goal100);
    absRow('CRDs: GET /apis as aggregated discovery (apidiscovery v2), the first', discovery.ms, fmt.ms, goal100);
    absRow('CRDs: the same, again (median of 5)', median(di), fmt.ms, goal100);
    absRow(`CRDs: GET /openapi/v3/apis/<group>/<version> of one of them, the first`, groupDoc.ms, fmt.ms, undefined);
    notes.push(
      `CRDs: server RSS ${fmt.mib(before)} before, ${fmt.mib(after)} 2 s after the installs (peak ${fmt.mib(peak)}), ${fmt.mib(afterOpenapi.rss)} after the OpenAPI requests, ${fmt.mib(settled)} ${cfg.settleSeconds} s later; ` +
        `install ${r.createMs.toFixed(0)} ms to the last create response, ${r.totalMs.toFixed(0)} ms to the last Established; Established lag p50 ${fmt.ms(r.p50EstablishedLagMs)}; server CPU ${cpuPerCrd.toFixed(2)} ms per CRD; ` +
        `/openapi/v3 ${(openapi.bytes / 1024).toFixed(0)} KiB, discovery ${(discovery.bytes / 1024).toFixed(0)} KiB`,
    );
  } finally {
    await stopChild(s.proc);
  }
  log('restart with the CRDs...');
  const starts = [];
  const bare = [];
  for (let i = 0; i < cfg.starts; i++) {
    bare.push(await timeStartBare());
    starts.push(await timeStart(dataDir));
  }
  absRow(`CRDs: restart to /readyz with ${n(cfg.crds)} CRDs stored (median of ${cfg.starts}) vs bare node:http start`, median(starts), fmt.ms, atMost(2000, '≤ 2 s'), median(bare));
  notes.push(`CRD restarts: ${starts.map((x) => x.toFixed(0)).join(', ')} ms`);
}

function printTable(busyAtStart, t0) {
  const cols = [['figure', 'figure'], ['ours', 'ours'], ['base', 'baseline'], ['ratio', 'ratio'], ['goal', 'goal'], ['met', 'met']];
  const out = [
    '',
    `crd-apiserver bench:scale — ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / GiB).toFixed(0)} GiB, Node ${process.version}; ` +
      `${n(cfg.objects)} CronTabs of ~1 KB, ${n(cfg.crds)} CRDs; ${((performance.now() - t0) / 60000).toFixed(1)} min; CPU ${busyAtStart.toFixed(0)}% busy in the second before the run, ` +
      `load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} at the end`,
    ...(busyAtStart > 20 ? ['WARNING: other processes were using the CPU when the run started; the figures are unreliable'] : []),
    '',
    ...markdownTable(cols, rows),
    '',
    ...notes.map((x) => `- ${x}`),
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

const t0 = performance.now();
const busyAtStart = await cpuBusy(1000);
const tmp = mkdtempSync(join(process.env.SCALE_TMPDIR ?? os.tmpdir(), 'crd-apiserver-scale-'));
log(`crd-apiserver bench:scale: ${JSON.stringify(cfg)}; data in ${tmp}`);
try {
  if (only.has('objects')) await objectsPart(tmp);
  if (only.has('crds')) await attempt('CRDs', () => crdsPart(tmp));
} finally {
  printTable(busyAtStart, t0);
  closeAgent();
  rmSync(tmp, { recursive: true, force: true });
}
