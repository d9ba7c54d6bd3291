// `node bench/tls-handshake.mjs` (after `npm run build`): what a request on a new TLS connection costs our secure
// port against a bare node:https server with the same certificate, key and client-certificate request, answering
// the same bytes. The request is a namespace GET with a bearer token, `Connection: close` (as the soak's
// new-connection probe). Figures:
//  1. idle: connections/s from TLS_CONNECTIONS (8) closed loops and the server's CPU time per connection (from
//     /proc, so that other load on the machine moves it little), with full handshakes (no session offered, as
//     kubectl and client-go connect) and with the previous connection's session offered (resumption);
//  2. under load: 50 keep-alive connections sending GETs flat out (bench/load.mjs) while a new connection is
//     opened every 50 ms, in turn with a full handshake and resuming: latency of those against the keep-alive
//     requests'.
// Servers and load in processes of their own. TLS_SECONDS (default 5) per figure; TLS_LEGACY_RSA=1 serves an
// RSA-2048 key (a data dir from the version that made them) instead of the ECDSA P-256 one generated today.
import { fork } from 'node:child_process';
import { X509Certificate, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { load, median, percentile, sleep, startChild, stopChild } from './util.mjs';

const role = process.argv[2];
const self = fileURLToPath(import.meta.url);

/** A child of this file in the given role: sends msg, resolves with it and its first reply. */
function child(roleName, msg) {
  const proc = fork(self, [roleName], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    proc.once('message', (reply) => resolve({ proc, reply }));
    proc.once('exit', (code) => reject(new Error(`${roleName} exited with ${code}`)));
    proc.send(msg);
  });
}

/** One request on a new connection; resolves { ms, reused } or undefined on a failure. */
function once(port, request, session, onSession) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let reused = false;
    const s = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, session }, () => {
      reused = s.isSessionReused();
      s.end(request);
    });
    if (onSession) s.on('session', onSession);
    let head = '';
    s.on('data', (d) => {
      if (head.length < 16) head += d.toString('latin1');
    });
    s.on('error', () => resolve(undefined));
    s.on('close', () => resolve(head.startsWith('HTTP/1.1 200') ? { ms: performance.now() - t0, reused } : undefined));
  });
}

const requestText = (path, headers) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

if (role === 'bare') {
  // The baseline server: node:https as ours sets it up (client certificates asked for, not required).
  process.on('disconnect', () => process.exit(1));
  process.once('message', ({ cert, key, ca, body }) => {
    const s = https.createServer({ cert, key, ca, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
    s.keepAliveTimeout = 65_000;
    s.listen(0, '127.0.0.1', () => process.send({ port: s.address().port }));
  });
} else if (role === 'client') {
  // Closed loops of one request per connection; with resume, each connection offers the last session received.
  process.on('disconnect', () => process.exit(1));
  process.once('message', async ({ port, path, headers, connections, seconds, resume }) => {
    const request = requestText(path, headers);
    let session;
    const lat = [];
    let resumed = 0;
    let errors = 0;
    const until = performance.now() + seconds * 1000;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          const r = await once(port, request, resume ? session : undefined, resume ? (s) => (session = s) : undefined);
          if (!r) errors++;
          else {
            lat.push(r.ms);
            if (r.reused) resumed++;
          }
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    process.send({ rate: lat.length / elapsed, p50: percentile(lat, 0.5), p99: percentile(lat, 0.99), resumed, n: lat.length, errors });
    process.exit(0);
  });
} else {
  const seconds = Number(process.env.TLS_SECONDS || 5);
  const connections = Number(process.env.TLS_CONNECTIONS || 8);
  const tmp = mkdtempSync(join(os.tmpdir(), 'crd-apiserver-tls-'));
  const token = randomBytes(16).toString('hex');
  // TLS_LEGACY_RSA=1: a data dir from the RSA version (test/auth/fixtures/legacy-rsa-pki), which is reused as it is.
  if (process.env.TLS_LEGACY_RSA === '1') {
    mkdirSync(join(tmp, 'data'), { recursive: true });
    cpSync(fileURLToPath(new URL('../test/auth/fixtures/legacy-rsa-pki', import.meta.url)), join(tmp, 'data', 'pki'), { recursive: true });
  }
  const ours = await startChild('./server.mjs', { dataDir: join(tmp, 'data'), tokens: [[token, { name: 'bench', uid: 'bench', groups: ['system:masters'] }]] });
  const pki = (f) => readFileSync(join(tmp, 'data', 'pki', f), 'utf8');
  const path = '/api/v1/namespaces/default';
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  const body = await new Promise((resolve, reject) => {
    https
      .get(`${ours.reply.secureUrl}${path}`, { headers, rejectUnauthorized: false }, (res) => {
        let b = '';
        res.on('data', (d) => (b += d));
        res.on('end', () => (res.statusCode === 200 ? resolve(b) : reject(new Error(`GET ${path}: ${res.statusCode} ${b}`))));
      })
      .on('error', reject);
  });
  const bare = await child('bare', { cert: pki('apiserver.crt'), key: pki('apiserver.key'), ca: pki('ca.crt'), body });
  const keyType = new X509Certificate(pki('apiserver.crt')).publicKey.asymmetricKeyType;
  const servers = [
    { name: 'ours', port: Number(new URL(ours.reply.secureUrl).port), pid: ours.proc.pid },
    { name: 'bare node:https', port: bare.reply.port, pid: bare.proc.pid },
  ];
  const idle = async (srv, resume) => {
    const cpu0 = cpuSeconds(srv.pid);
    const { reply } = await child('client', { port: srv.port, path, headers, connections, seconds, resume });
    return { ...reply, cpuMs: (1000 * (cpuSeconds(srv.pid) - cpu0)) / reply.n };
  };
  const underLoad = async (srv) => {
    const request = requestText(path, headers);
    const loadDone = load({ port: srv.port, method: 'GET', path, headers, connections: 50, warmupMs: 1000, durationMs: seconds * 1000, tls: true });
    await sleep(1000);
    // New connections in turn with a full handshake and resuming the session of the one before.
    const fresh = { full: [], resumed: [] };
    let session;
    const until = performance.now() + seconds * 1000;
    for (let i = 0; performance.now() < until; i++) {
      const r = await once(srv.port, request, i % 2 ? session : undefined, (s) => (session = s));
      if (r) fresh[r.reused ? 'resumed' : 'full'].push(r.ms);
      await sleep(50);
    }
    const kept = await loadDone;
    const stats = (xs) => ({ p50: median(xs), p99: percentile(xs, 0.99), n: xs.length });
    return { full: stats(fresh.full), resumed: stats(fresh.resumed), kept: { p50: kept.p50ms, p99: kept.p99ms, rps: kept.rps } };
  };
  const int = (x) => Math.round(x).toLocaleString('en-US');
  const fmt = (r) =>
    `${int(r.rate)}/s, ${r.cpuMs.toFixed(2)} ms of server CPU each (p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms${r.resumed ? `; ${r.resumed} of ${r.n} resumed` : ''}${r.errors ? `; ${r.errors} errors` : ''})`;
  try {
    process.stderr.write(
      `${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; serving key ${keyType}; ${connections} connections at once, ${seconds} s each\n`,
    );
    for (const resume of [false, true]) {
      // Each pair back to back, so that a change in the machine's load falls on both.
      const [o, b] = [await idle(servers[0], resume), await idle(servers[1], resume)];
      console.log(`idle, ${resume ? 'resumed' : 'full'} handshake + GET: ours ${fmt(o)}; bare ${fmt(b)}; server CPU per connection ${(o.cpuMs / b.cpuMs).toFixed(2)}× bare's`);
    }
    for (const srv of servers) {
      const r = await underLoad(srv);
      const f = (x) => `p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms (${x.n})`;
      console.log(
        `under load, ${srv.name}: keep-alive GETs ${int(r.kept.rps)}/s, p50 ${r.kept.p50.toFixed(1)} ms, p99 ${r.kept.p99.toFixed(1)} ms; ` +
          `new connection, full handshake ${f(r.full)}, resumed ${f(r.resumed)}; new (full) vs kept p50 ${(r.full.p50 / r.kept.p50).toFixed(1)}×, p99 ${(r.full.p99 / r.kept.p99).toFixed(1)}×`,
      );
    }
  } finally {
    bare.proc.kill();
    await stopChild(ours.proc);
    rmSync(tmp, { recursive: true, force: true });
  }
}
