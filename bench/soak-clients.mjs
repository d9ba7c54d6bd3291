// The soak benchmark's clients, in a process of their own (so that they do not share an event loop with
// the benchmark's sampling or with the server): many well-behaved clients in a closed loop of creates,
// updates, deletes, gets and lists of CronTabs and ConfigMaps, watchers that read their streams, and
// hostile clients: watchers that never read, uploaders that trickle a body, connections that say nothing.
//
// Messages over IPC: { start: { port, tls, token, namespaces, clients, live, watchers, stalled, slow, silent,
// baselineOps } }: first the baseline (the same requests one at a time), then the traffic, replied
// { ready, idle } once it runs. With tls, every client talks HTTPS to the secure port with a bearer token
// (a user held to max-in-flight, as real clients are; the plain port's user is in system:masters and
// exempt); the silent connections never start their handshake. { stalledCheck }, replied with what became of the stalled watchers;
// { killing }: the server is about to be killed, so a write that fails on its connection from here on
// was in flight (its client stops); { stop }: replied with the figures and every object's last
// acknowledged state (see finish()).
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { crontabBody, crontabs } from './fixtures.mjs';
import { percentile, sleep } from './util.mjs';

process.on('disconnect', () => process.exit(1));

const SEQ = 'soak.example.com/seq';
let cfg;
let lib = http;
let authHeaders = {};
const newAgent = () => new lib.Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
/** A raw connection to the server (TLS on the secure port); onOpen once it can carry a request. */
function rawConnect(onOpen) {
  if (!cfg.tls) return net.connect(cfg.port, '127.0.0.1', onOpen);
  return tls.connect({ host: '127.0.0.1', port: cfg.port, rejectUnauthorized: false }, onOpen);
}
const rawHeaders = () => Object.entries(authHeaders).map(([k, v]) => `${k}: ${v}\r\n`).join('');
let stopping = false;
let killing = false;
let killAt = 0;
const verbs = {}; // verb → { lat: [], statuses: {} }
const networkErrors = {}; // error code → count (before the kill)
const objects = new Map(); // path → { kind, path, acked, seq, ackAt, inflight }
const running = [];

const record = (verb, ms, status) => {
  const v = (verbs[verb] ??= { lat: [], statuses: {} });
  v.lat.push(ms);
  v.statuses[status] = (v.statuses[status] ?? 0) + 1;
};

const KINDS = {
  crontab: { collection: crontabs },
  configmap: { collection: (ns) => `/api/v1/namespaces/${ns}/configmaps` },
};

/** A new object of kind, about 1 KB, with its write sequence number in an annotation. */
function newObject(kind, ns, name) {
  if (kind === 'crontab') {
    const o = JSON.parse(crontabBody(ns).replace('__NAME__', name));
    o.metadata.annotations[SEQ] = '0';
    return o;
  }
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns, labels: { app: 'soak' }, annotations: { [SEQ]: '0' } },
    data: { payload: 'y'.repeat(900) },
  };
}

/** One request over agent; resolves { status, body } (body parsed when wanted), rejects on a connection error. */
function call(agent, method, path, body, { parse = false } = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = lib.request(
      { host: '127.0.0.1', port: cfg.port, method, path, agent, rejectUnauthorized: false, headers: { Accept: 'application/json', ...authHeaders, ...(data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => parse && chunks.push(c));
        res.on('end', () => {
          let json;
          if (parse && res.statusCode < 300) {
            try {
              json = JSON.parse(Buffer.concat(chunks).toString());
            } catch {
              json = undefined;
            }
          }
          resolve({ status: res.statusCode, json, retryAfter: Number(res.headers['retry-after'] ?? 0) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** A timed call recorded under verb; a connection error is returned as { error }. */
async function timed(verb, agent, method, path, body, opts) {
  const t0 = performance.now();
  try {
    const r = await call(agent, method, path, body, opts);
    record(verb, performance.now() - t0, r.status);
    return r;
  } catch (e) {
    return { error: e };
  }
}

/** A write that failed on its connection: before the kill a fault (counted, retried later); after it, the end. */
function connectionFailed(error, obj) {
  if (error.code === 'ECONNREFUSED' && obj) obj.inflight = undefined; // never reached the server
  if (killing) return true;
  networkErrors[error.code ?? error.message] = (networkErrors[error.code ?? error.message] ?? 0) + 1;
  return false;
}

async function mixedClient(i) {
  const ns = cfg.namespaces[i % cfg.namespaces.length];
  const agent = newAgent();
  const live = []; // objects of this client that exist
  const last = new Map(); // path → last object seen (the next update's base)
  let n = 0;
  const pick = () => live[Math.floor(Math.random() * live.length)];
  while (!stopping) {
    const r = Math.random() * 100;
    let verb = r < 40 ? 'get' : r < 50 ? 'list' : r < 80 ? 'update' : r < 90 ? 'create' : 'delete';
    if (live.length === 0 && verb !== 'list') verb = 'create';
    if (verb === 'create' && live.length >= cfg.live) verb = 'delete';
    let res;
    let obj;
    if (verb === 'get') {
      res = await timed('get', agent, 'GET', pick().path);
    } else if (verb === 'list') {
      const kind = Math.random() < 0.6 ? 'crontab' : 'configmap';
      res = await timed('list', agent, 'GET', `${KINDS[kind].collection(ns)}?limit=100`);
    } else if (verb === 'create') {
      const kind = Math.random() < 0.6 ? 'crontab' : 'configmap';
      const name = `c${i}-${n++}`;
      const collection = KINDS[kind].collection(ns);
      obj = { kind, path: `${collection}/${name}`, acked: undefined, seq: -1, ackAt: 0, inflight: { op: 'create', seq: 0 } };
      objects.set(obj.path, obj);
      res = await timed('create', agent, 'POST', collection, newObject(kind, ns, name), { parse: true });
      if (res.status === 201) {
        Object.assign(obj, { acked: 'create', seq: 0, ackAt: performance.now(), inflight: undefined });
        live.push(obj);
        last.set(obj.path, res.json);
      }
    } else if (verb === 'update') {
      obj = pick();
      const base = structuredClone(last.get(obj.path));
      const seq = obj.seq + 1;
      base.metadata.annotations[SEQ] = String(seq);
      obj.inflight = { op: 'update', seq };
      res = await timed('update', agent, 'PUT', obj.path, base, { parse: true });
      if (res.status === 200) {
        Object.assign(obj, { acked: 'update', seq, ackAt: performance.now(), inflight: undefined });
        last.set(obj.path, res.json);
      }
    } else {
      obj = live.shift(); // the oldest
      obj.inflight = { op: 'delete' };
      res = await timed('delete', agent, 'DELETE', obj.path);
      if (res.status === 200) {
        Object.assign(obj, { acked: 'delete', ackAt: performance.now(), inflight: undefined });
        last.delete(obj.path);
      } else if (res.status !== undefined) live.unshift(obj);
    }
    if (res.error) {
      if (connectionFailed(res.error, obj)) break;
      if (verb === 'delete') live.unshift(obj);
      await sleep(100);
      continue;
    }
    if (obj && res.status >= 300) {
      // Refused (429, 409) before storage: not applied. A 5xx might have been: read back what is stored.
      if (res.status === 429 || res.status === 409 || res.status === 422) obj.inflight = undefined;
      else await resync(agent, obj, live, last);
      if (obj.acked === undefined && obj.inflight === undefined) objects.delete(obj.path);
    }
    if (res.status === 429) await sleep(Math.max(1, res.retryAfter) * 1000); // as client-go honours Retry-After
  }
  agent.destroy();
}

/** After an answer that leaves a write's outcome unknown, take the stored object as the acknowledged state. */
async function resync(agent, obj, live, last) {
  const r = await call(agent, 'GET', obj.path, undefined, { parse: true }).catch(() => undefined);
  if (r?.status === 200) {
    Object.assign(obj, { acked: 'update', seq: Number(r.json.metadata.annotations[SEQ]), ackAt: performance.now(), inflight: undefined });
    last.set(obj.path, r.json);
    if (!live.includes(obj)) live.push(obj);
  } else if (r?.status === 404) {
    Object.assign(obj, { acked: obj.acked === undefined ? undefined : 'delete', inflight: undefined });
    const k = live.indexOf(obj);
    if (k >= 0) live.splice(k, 1);
  }
}

/** A watcher that reads its stream, watching again from the last resourceVersion when it ends. */
async function watcher(i) {
  const ns = cfg.namespaces[i % cfg.namespaces.length];
  const collection = KINDS[i % 2 ? 'configmap' : 'crontab'].collection(ns);
  const agent = newAgent();
  let rv;
  while (!stopping && !killing) {
    if (rv === undefined) {
      const r = await call(agent, 'GET', `${collection}?limit=1`, undefined, { parse: true }).catch(() => undefined);
      rv = r?.json?.metadata?.resourceVersion;
      if (rv === undefined) {
        await sleep(500);
        continue;
      }
    }
    const timeout = 10 + Math.floor(Math.random() * 20);
    const t0 = performance.now();
    await new Promise((resolve) => {
      const req = lib.get(
        {
          host: '127.0.0.1',
          port: cfg.port,
          path: `${collection}?watch=1&allowWatchBookmarks=true&timeoutSeconds=${timeout}&resourceVersion=${rv}`,
          headers: authHeaders,
          agent: process.env.SOAK_WATCH_FRESH ? false : agent,
          rejectUnauthorized: false,
        },
        (res) => {
          record('watch', performance.now() - t0, res.statusCode);
          if (res.statusCode !== 200) rv = undefined;
          let buf = '';
          res.setEncoding('utf8');
          res.on('data', (c) => {
            buf += c;
            let nl;
            while ((nl = buf.indexOf('\n')) >= 0) {
              const line = buf.slice(0, nl);
              buf = buf.slice(nl + 1);
              const ev = JSON.parse(line);
              if (ev.type === 'ERROR') rv = undefined; // 410 Gone: list again
              else {
                rv = ev.object.metadata.resourceVersion;
                watchEvents.count++;
              }
            }
          });
          res.on('end', resolve);
          res.on('error', resolve);
        },
      );
      req.on('error', resolve);
    });
  }
  agent.destroy();
}
const watchEvents = { count: 0 };

/**
 * Twice a second, a GET over a connection of its own (TCP and TLS handshakes included), as a client that
 * has just started sees the server; the soak's other clients keep their connections.
 */
async function newConnectionProber() {
  while (!stopping && !killing) {
    await timed('get, new connection', false, 'GET', `/api/v1/namespaces/${cfg.namespaces[0]}`);
    await sleep(500);
  }
}

/** Watchers that never read: the server must drop them (slow-watcher limit), not buffer without end. */
const stalled = [];
function stalledWatcher(i) {
  const ns = cfg.namespaces[i % cfg.namespaces.length];
  const s = rawConnect();
  s.on('error', () => {});
  // No 'data' listener: the socket stays paused and its kernel buffers fill up.
  s.write(`GET ${crontabs(ns)}?watch=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n${rawHeaders()}\r\n`);
  stalled.push(s);
}

/** After the run: resume each stalled watcher; the server closed it if its stream ends within a few seconds. */
async function stalledOutcome() {
  const outcomes = await Promise.all(
    stalled.map(
      (s) =>
        new Promise((resolve) => {
          let bytes = 0;
          const timer = setTimeout(() => {
            s.destroy();
            resolve({ closed: false, bytes });
          }, 3000);
          s.on('data', (c) => (bytes += c.length));
          s.once('close', () => {
            clearTimeout(timer);
            resolve({ closed: true, bytes });
          });
          s.resume();
        }),
    ),
  );
  return { watchers: outcomes.length, closedByServer: outcomes.filter((o) => o.closed).length, bytesUnread: outcomes.reduce((a, o) => a + o.bytes, 0) };
}

/** An uploader that sends its headers, then a 2 KB body 16 bytes a second: the request timeout must cut it. */
const slowResults = { statuses: {}, ms: [], cut: 0 };
async function slowUploader(i) {
  const ns = cfg.namespaces[i % cfg.namespaces.length];
  while (!stopping && !killing) {
    const t0 = performance.now();
    await new Promise((resolve) => {
      let timer;
      let head = '';
      const done = () => {
        clearInterval(timer);
        s.destroy();
        resolve();
      };
      const s = rawConnect(() => {
        s.write(`POST /api/v1/namespaces/${ns}/configmaps HTTP/1.1\r\nHost: 127.0.0.1\r\n${rawHeaders()}Content-Type: application/json\r\nContent-Length: 2048\r\n\r\n`);
        const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"slow-${i}"},"data":{"a":"${'z'.repeat(2048)}`;
        let sent = 0;
        timer = setInterval(() => {
          if (stopping || killing) return done();
          s.write(body.slice(sent, sent + 16));
          sent += 16;
        }, 1000);
      });
      s.on('error', done);
      s.on('data', (c) => {
        head += c.toString('latin1');
        if (!head.includes('\r\n')) return;
        const status = head.slice(9, 12);
        slowResults.statuses[status] = (slowResults.statuses[status] ?? 0) + 1;
        slowResults.ms.push(performance.now() - t0);
        done();
      });
      s.on('close', () => {
        if (!head && !stopping && !killing) slowResults.cut++;
        done();
      });
    });
  }
}

/** A connection that sends nothing (on the secure port: not even a TLS hello): the header timeout must close it. */
const silentResults = { closed: 0, ms: [] };
async function silentClient() {
  while (!stopping && !killing) {
    const t0 = performance.now();
    await new Promise((resolve) => {
      const s = net.connect(cfg.port, '127.0.0.1');
      const poll = setInterval(() => (stopping || killing) && s.destroy(), 200);
      s.on('error', () => {});
      s.on('close', () => {
        clearInterval(poll);
        if (!stopping && !killing) {
          silentResults.closed++;
          silentResults.ms.push(performance.now() - t0);
        }
        resolve();
      });
      s.resume();
    });
  }
}

/** Time to the response headers of a watch that ends after a second, over agent, as the watchers measure theirs. */
function watchStart(agent, path) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = lib.get({ host: '127.0.0.1', port: cfg.port, path: `${path}?watch=1&timeoutSeconds=1`, headers: authHeaders, agent, rejectUnauthorized: false }, (res) => {
      const t = performance.now() - t0;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, t }));
    });
    req.on('error', reject);
  });
}

/**
 * The mixed clients' requests one at a time on the idle server, over the same transport, in namespace
 * soak-base: each verb's latencies, to hold the soak's against.
 */
async function idleBaseline() {
  const ns = 'soak-base';
  const agent = newAgent();
  const lat = { create: [], get: [], update: [], list: [], watch: [], delete: [], 'get, new connection': [] };
  const time = async (verb, method, path, body, opts = {}) => {
    const t0 = performance.now();
    const r = await call(opts.agent ?? agent, method, path, body, opts);
    if (r.status >= 300) throw new Error(`idle ${verb} ${path}: HTTP ${r.status}`);
    lat[verb].push(performance.now() - t0);
    return r;
  };
  const kindOf = (i) => (i % 2 ? 'crontab' : 'configmap');
  const path = (i) => `${KINDS[kindOf(i)].collection(ns)}/b-${i}`;
  // Twice: the first round warms the server up (JIT) and is not kept.
  for (const round of [0, 1]) {
    const n = round === 0 ? 50 : cfg.baselineOps;
    const made = [];
    for (let i = 0; i < n; i++) made.push((await time('create', 'POST', KINDS[kindOf(i)].collection(ns), newObject(kindOf(i), ns, `b-${i}`), { parse: true })).json);
    for (let i = 0; i < n; i++) await time('get', 'GET', path(i));
    for (let i = 0; i < n; i++) {
      made[i].metadata.annotations[SEQ] = '1';
      await time('update', 'PUT', path(i), made[i]);
    }
    for (let i = 0; i < n; i++) await time('list', 'GET', `${KINDS[kindOf(i)].collection(ns)}?limit=100`);
    for (let i = 0; i < (round === 0 ? 2 : 10); i++) {
      const r = await watchStart(agent, KINDS[kindOf(i)].collection(ns));
      if (r.status !== 200) throw new Error(`idle watch: HTTP ${r.status}`);
      lat.watch.push(r.t);
    }
    for (let i = 0; i < n; i++) await time('delete', 'DELETE', path(i));
    for (let i = 0; i < Math.min(n, 50); i++) await time('get, new connection', 'GET', `/api/v1/namespaces/${ns}`, undefined, { agent: false });
    if (round === 0) for (const k of Object.keys(lat)) lat[k] = [];
  }
  agent.destroy();
  const out = {};
  for (const [verb, xs] of Object.entries(lat)) out[verb] = { n: xs.length, p50: percentile(xs, 0.5), p99: percentile(xs, 0.99) };
  return out;
}

const summary = (xs) => (xs.length ? { n: xs.length, p50: percentile(xs, 0.5), p99: percentile(xs, 0.99), max: Math.max(...xs) } : { n: 0 });

let stalledWatchers;
async function finish() {
  stopping = true;
  await Promise.race([Promise.all(running), sleep(5000)]);
  const out = {};
  for (const [verb, v] of Object.entries(verbs)) {
    v.lat.sort((a, b) => a - b);
    out[verb] = { n: v.lat.length, p50: percentile(v.lat, 0.5), p99: percentile(v.lat, 0.99), max: v.lat[v.lat.length - 1], statuses: v.statuses };
  }
  return {
    verbs: out,
    networkErrors,
    watchEvents: watchEvents.count,
    stalledWatchers,
    slow: { statuses: slowResults.statuses, ...summary(slowResults.ms), closedUnanswered: slowResults.cut },
    silent: { closed: silentResults.closed, ...summary(silentResults.ms) },
    // Each object's last acknowledged write, and the one in flight when the server died (if any).
    objects: [...objects.values()].map((o) => ({ path: o.path, acked: o.acked, seq: o.seq, recent: o.ackAt > 0 && killAt - o.ackAt < 1000, inflight: o.inflight })),
  };
}

process.on('message', async (m) => {
  if (m.start) {
    cfg = m.start;
    if (cfg.tls) {
      lib = https;
      authHeaders = { Authorization: `Bearer ${cfg.token}` };
    }
    const idle = await idleBaseline();
    for (let i = 0; i < cfg.stalled; i++) stalledWatcher(i);
    for (let i = 0; i < cfg.silent; i++) running.push(silentClient());
    for (let i = 0; i < cfg.slow; i++) running.push(slowUploader(i));
    for (let i = 0; i < cfg.watchers; i++) running.push(watcher(i));
    running.push(newConnectionProber());
    for (let i = 0; i < cfg.clients; i++) running.push(mixedClient(i));
    process.send({ ready: true, idle });
  } else if (m.stalledCheck) {
    // Judged while the server still runs (its death closes every connection).
    stalledWatchers = await stalledOutcome();
    process.send({ stalledWatchers });
  } else if (m.killing) {
    killing = true;
    killAt = performance.now();
  } else if (m.stop) {
    process.send(await finish(), () => process.exit(0));
  }
});
