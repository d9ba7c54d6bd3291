// Load generator, run as a child process so it has its own core and does not share an event loop
// with the server. Raw keep-alive sockets with pre-built requests and a minimal response parser:
// node:http's client costs more CPU per request than the servers under test, and would then be
// what is measured.
//
// Receives one job over IPC:
//   { port, method, path, headers, body, nameTemplate?, connections, warmupMs, durationMs, total?, tls? }
// With tls, the connections are TLS (the server's certificate is not checked): the secure port, where
// bearer tokens authenticate.
// body and path may hold the placeholder __NAME__, replaced by `${nameTemplate}${counter}` in each
// request (creates need unique names), and __SHARD__ in the body by the counter modulo `shards` (a label
// that selects every shards-th object). With `total`, sends exactly that many requests (no time limit).
// Per connection instead: `bodies` (an array) makes each connection send them in turn, over and over
// (e.g. a field's two values, so that every write changes its object), and __CONN__ in path and
// bodies is replaced by the connection's index (each connection writing its own object).
// Replies { requests, seconds, rps, statuses, errors, p50ms, p99ms }.
import net from 'node:net';
import tls from 'node:tls';

const CRLF2 = Buffer.from('\r\n\r\n');

/** Bytes of the first complete response in b, or -1 when it is not complete yet. */
function responseLength(b) {
  const he = b.indexOf(CRLF2);
  if (he < 0) return -1;
  const head = b.toString('latin1', 0, he).toLowerCase();
  const cl = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (cl) {
    const total = he + 4 + Number(cl[1]);
    return b.length >= total ? total : -1;
  }
  if (/\r\ntransfer-encoding:\s*chunked/.test(head)) {
    let p = he + 4;
    for (;;) {
      const le = b.indexOf('\r\n', p);
      if (le < 0) return -1;
      const size = parseInt(b.toString('latin1', p, le), 16);
      p = le + 2 + size + 2;
      if (p > b.length) return -1;
      if (size === 0) return p; // no trailers in these responses
    }
  }
  return he + 4;
}

function percentile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function run(job) {
  return new Promise((resolve, reject) => {
    const headerFor = (path) =>
      `${job.method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${job.port}\r\nConnection: keep-alive\r\n` +
      Object.entries(job.headers ?? {})
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
    const build = (path, body) =>
      body === undefined
        ? Buffer.from(headerFor(path) + '\r\n', 'latin1')
        : Buffer.from(headerFor(path) + `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` + body);
    const named = (job.body !== undefined && job.body.includes('__NAME__')) || job.path.includes('__NAME__');
    const fixedReq = named ? undefined : build(job.path, job.body);
    let counter = 0;
    const nextRequest = () => {
      if (fixedReq) return fixedReq;
      const shard = String(counter % (job.shards ?? 1));
      const name = `${job.nameTemplate}${counter++}`;
      return build(job.path.replace('__NAME__', name), job.body?.replace('__NAME__', name).replace('__SHARD__', shard));
    };
    // Per-connection cycles of requests (see above), built before the clock starts.
    const perConnection = job.bodies !== undefined || job.path.includes('__CONN__');
    const cycleFor = (i) =>
      (job.bodies ?? [job.body]).map((b) => build(job.path.replaceAll('__CONN__', String(i)), b?.replaceAll('__CONN__', String(i))));

    const start = performance.now();
    const measureFrom = job.total ? start : start + job.warmupMs;
    const deadline = job.total ? Infinity : measureFrom + job.durationMs;
    let issued = 0;
    let counted = 0;
    let lastDone = start;
    let open = 0;
    let failed;
    const statuses = {};
    const latencies = [];

    const more = () => (job.total ? issued < job.total : performance.now() < deadline);
    const finish = () => {
      const seconds = ((job.total ? lastDone : deadline) - measureFrom) / 1000;
      latencies.sort((a, b) => a - b);
      const errors = Object.entries(statuses).reduce((n, [s, c]) => (s.startsWith('2') ? n : n + c), 0);
      resolve({
        requests: counted,
        seconds,
        rps: counted / seconds,
        statuses,
        errors,
        p50ms: percentile(latencies, 0.5),
        p99ms: percentile(latencies, 0.99),
      });
    };

    for (let i = 0; i < job.connections; i++) {
      const sock = job.tls ? tls.connect({ port: job.port, host: '127.0.0.1', rejectUnauthorized: false }) : net.connect(job.port, '127.0.0.1');
      sock.setNoDelay(true);
      open++;
      let buf = null;
      let sentAt = 0;
      const cycle = perConnection ? cycleFor(i) : undefined;
      let sent = 0;
      const send = () => {
        if (!more()) {
          sock.end();
          return;
        }
        issued++;
        sentAt = performance.now();
        sock.write(cycle ? cycle[sent++ % cycle.length] : nextRequest());
      };
      sock.on(job.tls ? 'secureConnect' : 'connect', send);
      sock.on('data', (chunk) => {
        buf = buf === null ? chunk : Buffer.concat([buf, chunk]);
        const n = responseLength(buf);
        if (n < 0) return;
        const status = buf.toString('latin1', 9, 12);
        buf = n === buf.length ? null : buf.subarray(n);
        const now = performance.now();
        if (now >= measureFrom && now <= deadline) {
          counted++;
          statuses[status] = (statuses[status] ?? 0) + 1;
          latencies.push(now - sentAt);
          lastDone = now;
        }
        send();
      });
      sock.on('error', (e) => (failed ??= e));
      sock.on('close', () => {
        if (--open > 0) return;
        if (failed && counted === 0) reject(failed);
        else finish();
      });
    }
  });
}

process.on('disconnect', () => process.exit(1));

process.once('message', (job) => {
  run(job).then(
    (r) => process.send(r, () => process.exit(0)),
    (e) => {
      process.send({ error: String(e?.stack ?? e) }, () => process.exit(1));
    },
  );
});
