// `npm run bench:soak`: minutes of mixed traffic from many clients plus hostile ones against our server
// (a child process on SQLite with an fsync per commit, as `serve` runs), then `kill -9` with writes in
// flight and a restart on the same data dir. Reports latency per verb beside the same requests on the
// idle server at the start, 429s and other failures, what became of the hostile clients, the server's
// RSS over time, and whether every acknowledged write survived. See README.md.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import { join } from 'node:path';
import { createNamespace, setupCrd } from './fixtures.mjs';
import { closeAgent, cpuBusy, expectOk, markdownTable, percentile, request, sleep, startChild, stopChild } from './util.mjs';

const env = (name, def) => (process.env[name] !== undefined && process.env[name] !== '' ? Number(process.env[name]) : def);
const cfg = {
  seconds: env('SOAK_SECONDS', 180),
  clients: env('SOAK_CLIENTS', 200),
  live: env('SOAK_LIVE', 20),
  namespaces: env('SOAK_NAMESPACES', 10),
  watchers: env('SOAK_WATCHERS', 20),
  stalled: env('SOAK_STALLED', 20),
  slow: env('SOAK_SLOW', 20),
  silent: env('SOAK_SILENT', 50),
  sampleSeconds: env('SOAK_SAMPLE_SECONDS', 5),
  baselineOps: env('SOAK_BASELINE_OPS', 200),
  // 1: the clients use the TLS port as a user held to max-in-flight; 0: the plain port (system:masters, exempt).
  tls: env('SOAK_TLS', 1),
};
const log = (s) => process.stderr.write(`${s}\n`);
const SEQ = 'soak.example.com/seq';
const ms = (x) => (x === undefined ? '—' : x < 10 ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ms`);
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const int = (x) => Math.round(x).toLocaleString('en-US');

/** VmRSS (kB) and open file descriptors of a process, from /proc. */
function sampleProcess(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  let fds = NaN;
  try {
    fds = readdirSync(`/proc/${pid}/fd`).length;
  } catch {}
  return { rss: kb('VmRSS'), hwm: kb('VmHWM'), fds };
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (clock ticks of 1/100 s on Linux). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The clients' bearer token: a user in system:authenticated only, not exempt from max-in-flight, allowed
 * everything by a ClusterRoleBinding to cluster-admin (RBAC).
 */
const TOKEN = randomBytes(16).toString('hex');

async function startServer(dataDir) {
  const t0 = performance.now();
  const { proc, reply } = await startChild('./server.mjs', { dataDir, tokens: [[TOKEN, { name: 'soak', uid: 'soak', groups: [] }]] });
  return { proc, url: reply.url, port: Number(new URL(reply.url).port), securePort: Number(new URL(reply.secureUrl).port), startMs: performance.now() - t0 };
}

const OWN_PROCESS = 'get, new connection, own process';

/**
 * A GET of a namespace on a connection of its own from this process, which does little else (it samples RSS), as
 * a client process that has just started (kubectl) meets the server; the clients' own probe also waits for
 * their busy event loop at each step of the handshake. Resolves { ms, status } (status: the error code on a failure).
 */
function freshGet(port, ns) {
  const lib = cfg.tls ? https : http;
  const headers = { Accept: 'application/json', ...(cfg.tls ? { Authorization: `Bearer ${TOKEN}` } : {}) };
  return new Promise((resolve) => {
    const t0 = performance.now();
    // When each step ended (ms from the start): TCP connected, TLS handshake done, response headers.
    const steps = {};
    const req = lib.get({ host: '127.0.0.1', port, path: `/api/v1/namespaces/${ns}`, agent: false, rejectUnauthorized: false, headers }, (res) => {
      steps.headers = performance.now() - t0;
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode, steps, at: t0 }));
    });
    req.on('socket', (sock) => {
      sock.once('connect', () => (steps.tcp = performance.now() - t0));
      sock.once('secureConnect', () => (steps.tls = performance.now() - t0));
    });
    req.on('error', (e) => resolve({ ms: performance.now() - t0, status: e.code ?? 'error', steps, at: t0 }));
  });
}

/** freshGet twice a second until stop() returns true; the figures as the clients report theirs. */
async function freshGetProbe(port, ns, stop) {
  const lat = [];
  const stepLat = { tcp: [], tls: [], headers: [] };
  const statuses = {};
  let slowest;
  const began = performance.now();
  while (!stop()) {
    const r = await freshGet(port, ns);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (typeof r.status === 'number') {
      lat.push(r.ms);
      for (const k of Object.keys(stepLat)) if (r.steps[k] !== undefined) stepLat[k].push(r.steps[k]);
    }
    if (!slowest || r.ms > slowest.ms) slowest = { ...r, atSeconds: (r.at - began) / 1000 };
    await sleep(500);
  }
  return { n: lat.length, p50: percentile(lat, 0.5), p99: percentile(lat, 0.99), max: lat.length ? Math.max(...lat) : undefined, statuses, slowest, stepsP50: Object.fromEntries(Object.entries(stepLat).map(([k, xs]) => [k, percentile(xs, 0.5)])) };
}

/** The next IPC message of a child started with startChild (which consumed the first). */
const nextMessage = (proc, msg) =>
  new Promise((resolve, reject) => {
    proc.once('message', resolve);
    proc.once('exit', (code) => reject(new Error(`soak clients exited with ${code}`)));
    proc.send(msg);
  });

/** Each object's state after the restart against its last acknowledged write (and the one in flight). */
async function checkDurability(url, objects) {
  const res = { checked: 0, present: 0, lost: [], resurrected: [], inflight: 0, inflightApplied: 0, recent: 0 };
  const queue = [...objects];
  const worker = async () => {
    for (let o; (o = queue.shift()); ) {
      const r = await request(`${url}${o.path}`);
      if (r.status !== 200 && r.status !== 404) throw new Error(`GET ${o.path} after the restart: HTTP ${r.status} ${r.text.slice(0, 200)}`);
      const seq = r.status === 200 ? Number(r.json().metadata.annotations?.[SEQ]) : undefined;
      if (o.inflight) {
        res.inflight++;
        const applied = o.inflight.op === 'delete' ? seq === undefined : seq === o.inflight.seq;
        if (applied) res.inflightApplied++;
        if (process.env.SOAK_DEBUG) log(`in flight ${o.path} ${JSON.stringify(o.inflight)} acked ${o.acked} ${o.seq} found ${r.status} ${seq}`);
      }
      if (o.acked === undefined) continue;
      res.checked++;
      if (o.recent) res.recent++;
      if (o.acked === 'delete') {
        if (seq === undefined) res.present++;
        else res.resurrected.push(o.path);
      } else if (seq !== undefined && seq >= o.seq) res.present++;
      else if (seq === undefined && o.inflight?.op === 'delete') res.present++; // deleted by the write in flight
      else res.lost.push(`${o.path} (acknowledged seq ${o.seq}, found ${seq ?? 'nothing'})`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return res;
}

async function main() {
  const busyAtStart = await cpuBusy(1000);
  const tmp = mkdtempSync(join(os.tmpdir(), 'crd-apiserver-soak-'));
  const dataDir = join(tmp, 'data');
  log(`crd-apiserver soak: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${JSON.stringify(cfg)}`);
  let server = await startServer(dataDir);
  let clients;
  try {
    await setupCrd(server.url);
    const namespaces = Array.from({ length: cfg.namespaces }, (_, i) => `soak-${i}`);
    for (const ns of [...namespaces, 'soak-base']) await createNamespace(server.url, ns);
    await expectOk(
      request(`${server.url}/apis/rbac.authorization.k8s.io/v1/clusterrolebindings`, 'POST', {
        metadata: { name: 'soak-cluster-admin' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'soak' }],
      }),
      'bind the soak user to cluster-admin',
    );
    log(`idle baseline, then soak: ${cfg.clients} clients, ${cfg.watchers} watchers, ${cfg.stalled} stalled watchers, ${cfg.slow} slow uploaders, ${cfg.silent} silent connections for ${cfg.seconds} s...`);
    const port = cfg.tls ? server.securePort : server.port;
    // This process's new-connection probe on the idle server first: 10 to warm up, then as many as the clients' own.
    for (let i = 0; i < 10; i++) await freshGet(port, 'soak-base');
    const idleOwn = [];
    for (let i = 0; i < Math.min(50, cfg.baselineOps); i++) idleOwn.push((await freshGet(port, 'soak-base')).ms);
    const idleSample = sampleProcess(server.proc.pid);
    const { proc, reply } = await startChild('./soak-clients.mjs', { start: { ...cfg, port, token: TOKEN, namespaces } });
    clients = proc;
    const idle = { ...reply.idle, [OWN_PROCESS]: { n: idleOwn.length, p50: percentile(idleOwn, 0.5), p99: percentile(idleOwn, 0.99) } };
    let probing = true;
    const ownProbe = freshGetProbe(port, namespaces[0], () => !probing);
    const samples = [{ t: 0, ...idleSample }];
    const started = performance.now();
    const serverCpu0 = cpuSeconds(server.proc.pid);
    const sampler = setInterval(() => {
      const s = { t: (performance.now() - started) / 1000, ...sampleProcess(server.proc.pid) };
      samples.push(s);
      if (samples.length % Math.max(1, Math.round(30 / cfg.sampleSeconds)) === 1) log(`  ${s.t.toFixed(0)} s: RSS ${mb(s.rss)}, ${s.fds} fds`);
    }, cfg.sampleSeconds * 1000);
    await sleep(cfg.seconds * 1000);
    clearInterval(sampler);
    samples.push({ t: (performance.now() - started) / 1000, ...sampleProcess(server.proc.pid) });
    const cpu = { server: cpuSeconds(server.proc.pid) - serverCpu0, clients: cpuSeconds(clients.pid), seconds: (performance.now() - started) / 1000 };

    const { stalledWatchers } = await nextMessage(clients, { stalledCheck: true });
    log('kill -9 with writes in flight...');
    probing = false;
    const ownProbeResult = await ownProbe;
    clients.send({ killing: true });
    await sleep(20);
    const killedAt = performance.now();
    server.proc.kill('SIGKILL');
    await new Promise((r) => (server.proc.exitCode !== null || server.proc.signalCode !== null ? r() : server.proc.once('exit', r)));
    await sleep(500);
    const result = await nextMessage(clients, { stop: true });
    result.verbs[OWN_PROCESS] = ownProbeResult;
    const soakSeconds = (killedAt - started) / 1000;

    log('restart on the same data dir...');
    server = await startServer(dataDir);
    const durable = await checkDurability(server.url, result.objects);
    await stopChild(server.proc);
    report({ busyAtStart, idle, result, samples, stalledWatchers, durable, soakSeconds, cpu, restartMs: server.startMs });
  } finally {
    closeAgent();
    if (clients && clients.exitCode === null) clients.kill();
    if (server.proc.exitCode === null) server.proc.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  }
}

function report({ busyAtStart, idle, result, samples, stalledWatchers, durable, soakSeconds, cpu, restartMs }) {
  const verbs = ['create', 'update', 'delete', 'get', 'list', 'watch', 'get, new connection', OWN_PROCESS];
  const rows = verbs.map((verb) => {
    const v = result.verbs[verb] ?? { n: 0, statuses: {} };
    const i = idle[verb];
    const count = (pred) => Object.entries(v.statuses).reduce((a, [s, c]) => (pred(Number(s)) ? a + c : a), 0);
    const ratio = (a, b) => (a !== undefined && b ? `${(a / b).toFixed(1)}×` : '—');
    return {
      verb,
      n: int(v.n),
      rate: `${int(v.n / soakSeconds)}/s`,
      p50: ms(v.p50),
      p99: ms(v.p99),
      max: ms(v.max),
      idle: `${ms(i.p50)} / ${ms(i.p99)}`,
      r50: ratio(v.p50, i.p50),
      r99: ratio(v.p99, i.p99),
      s429: int(count((s) => s === 429)),
      other: int(count((s) => s >= 300 && s !== 429)),
    };
  });
  const rss = samples.map((s) => s.rss);
  const pick = [0, 0.25, 0.5, 0.75, 1].map((q) => samples[Math.round(q * (samples.length - 1))]);
  const slow = result.slow;
  const nonOk = Object.fromEntries(
    verbs.map((v) => [v, Object.fromEntries(Object.entries(result.verbs[v]?.statuses ?? {}).filter(([s]) => Number(s) >= 300 && Number(s) !== 429))]).filter(([, s]) => Object.keys(s).length),
  );
  const acked = ['create', 'update', 'delete'].reduce((a, v) => a + Object.entries(result.verbs[v]?.statuses ?? {}).reduce((b, [s, c]) => (Number(s) < 300 ? b + c : b), 0), 0);
  const out = [
    '',
    `crd-apiserver soak — ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${soakSeconds.toFixed(0)} s of ${cfg.clients} clients ` +
      `(${cfg.tls ? 'HTTPS, bearer token of a user held to max-in-flight' : 'plain HTTP as system:masters, exempt from max-in-flight'}; ` +
      `closed loop, no think time) + ${cfg.watchers} watchers + ${cfg.stalled} stalled watchers + ${cfg.slow} slow uploaders + ${cfg.silent} silent connections; ` +
      `CPU ${busyAtStart.toFixed(0)}% busy in the second before the run, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} at the end`,
    ...(busyAtStart > 20 ? ['WARNING: other processes were using the CPU when the run started; the figures are unreliable'] : []),
    '',
    ...markdownTable(
      [
        ['verb', 'verb'],
        ['n', 'requests'],
        ['rate', 'rate'],
        ['p50', 'p50'],
        ['p99', 'p99'],
        ['max', 'max'],
        ['idle', 'idle p50 / p99'],
        ['r50', 'p50 vs idle'],
        ['r99', 'p99 vs idle'],
        ['s429', '429'],
        ['other', 'other non-2xx'],
      ],
      rows,
    ),
    '',
    `- latency: from sending the request to the end of the response (watch: to its response headers, on the watcher's keep-alive connection; get, new connection: a GET of a namespace on a connection of its own, TCP and TLS handshakes included, twice a second, from the clients' process; ${OWN_PROCESS}: the same from the benchmark's own process, which is otherwise idle, as a client that has just started meets the server); idle: the same requests one at a time on the idle server before the soak (${cfg.baselineOps} each, after a warm-up; watch 10, each ending after a second; a GET over a new connection ${Math.min(50, cfg.baselineOps)})`,
    `- ${int(verbs.reduce((a, v) => a + (result.verbs[v]?.n ?? 0), 0) / soakSeconds)} requests/s in all; CPU used: the server ${((100 * cpu.server) / cpu.seconds).toFixed(0)}% of a core, ` +
      `the clients' process ${((100 * cpu.clients) / cpu.seconds).toFixed(0)}% (a closed loop: latency ≈ clients in flight / throughput)`,
    `- non-2xx other than 429: ${JSON.stringify(nonOk)}; connection errors before the kill: ${JSON.stringify(result.networkErrors)}`,
    `- watchers: ${int(result.watchEvents)} events received`,
    `- stalled watchers (never read): ${stalledWatchers.closedByServer} of ${stalledWatchers.watchers} closed by the server by the end, ${(stalledWatchers.bytesUnread / 1e6).toFixed(1)} MB left unread in them`,
    ...(result.verbs[OWN_PROCESS]?.slowest
      ? [
          (({ slowest: { ms: total, steps, atSeconds }, stepsP50: p50 }) =>
            `- ${OWN_PROCESS}: TCP connected after p50 ${ms(p50.tcp)}, TLS handshake done after p50 ${ms(p50.tls)}, response headers after p50 ${ms(p50.headers)}; ` +
            `the slowest ${ms(total)}, ${atSeconds.toFixed(1)} s into the soak: TCP connected after ${ms(steps.tcp)}, TLS handshake done after ${ms(steps.tls)}, response headers after ${ms(steps.headers)}`)(
            result.verbs[OWN_PROCESS],
          ),
        ]
      : []),
    `- slow uploaders (2 KB body at 16 B/s): answers ${JSON.stringify(slow.statuses)} after p50 ${ms(slow.p50)}, max ${ms(slow.max)}; ${slow.closedUnanswered} closed without an answer`,
    `- silent connections: ${result.silent.closed} closed by the server, after p50 ${ms(result.silent.p50)}, max ${ms(result.silent.max)}`,
    `- server RSS: ${mb(samples[0].rss)} idle before the soak, min ${mb(Math.min(...rss))}, max ${mb(Math.max(...rss))}, last ${mb(rss[rss.length - 1])} (peak VmHWM ${mb(samples[samples.length - 1].hwm)}); ` +
      `samples ${pick.map((s) => `${s.t.toFixed(0)} s ${mb(s.rss)} (${s.fds} fds)`).join(', ')}`,
    `- kill -9 with writes in flight, restart on the same data dir (ready in ${restartMs.toFixed(0)} ms): ${int(acked)} writes acknowledged during the soak; ` +
      `the last acknowledged state of ${int(durable.checked)} objects checked, ${int(durable.present)} as acknowledged or later ` +
      `(${durable.recent} of them acknowledged in the last second before the kill), ${durable.lost.length} lost, ${durable.resurrected.length} deleted objects back; ` +
      `${durable.inflight} writes in flight at the kill, ${durable.inflightApplied} of them applied`,
    ...durable.lost.slice(0, 10).map((l) => `  LOST: ${l}`),
    ...durable.resurrected.slice(0, 10).map((l) => `  BACK: ${l}`),
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  if (durable.lost.length || durable.resurrected.length) process.exitCode = 1;
}

await main();
