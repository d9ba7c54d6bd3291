// Small helpers shared by the benchmark figures.
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export const here = (name) => fileURLToPath(new URL(name, import.meta.url));
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const percentile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** Fork a bench child, send it msg, and resolve with it and its first reply. */
export function startChild(script, msg, execArgv = []) {
  const proc = fork(here(script), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    proc.once('message', (reply) => (reply?.error ? reject(new Error(reply.error)) : resolve({ proc, reply })));
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code} before replying`)));
    proc.send(msg);
  });
}

/** Ask a child started with startChild to shut down, and wait for it to exit. */
export function stopChild(proc) {
  if (proc.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.send('close');
  });
}

/** Run one load job in a fresh load-generator process. */
export async function load(job) {
  const { reply } = await startChild('./load.mjs', job);
  return reply;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One request with a JSON body (or none); resolves { status, text, json(), bytes }. With discard,
 * the body is only counted (text is empty unless the status is an error).
 */
export function request(url, method = 'GET', body = undefined, headers = {}, { discard = false } = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          Accept: 'application/json',
          ...(data !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        let bytes = 0;
        const keep = !discard || res.statusCode >= 300;
        res.on('data', (c) => {
          bytes += c.length;
          if (keep) chunks.push(c);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode, text, bytes, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

export async function expectOk(p, what) {
  const r = await p;
  if (r.status < 200 || r.status > 299) throw new Error(`${what}: HTTP ${r.status}: ${r.text.slice(0, 500)}`);
  return r;
}

/** A port that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export function closeAgent() {
  agent.destroy();
}

/** Percentage of all cores busy over the next ms milliseconds (someone else's load, before we start). */
export async function cpuBusy(ms) {
  const sample = () => os.cpus().reduce((a, c) => ({ idle: a.idle + c.times.idle, all: a.all + Object.values(c.times).reduce((x, y) => x + y, 0) }), { idle: 0, all: 0 });
  const a = sample();
  await sleep(ms);
  const b = sample();
  return 100 * (1 - (b.idle - a.idle) / Math.max(1, b.all - a.all));
}

/** A Markdown table of rows (objects) under cols ([key, heading] pairs): the first column left-aligned, the rest right. */
export function markdownTable(cols, rows) {
  const width = cols.map(([k, h]) => Math.max(h.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells) => `| ${cells.map((c, i) => (i === 0 ? String(c).padEnd(width[i]) : String(c).padStart(width[i]))).join(' | ')} |`;
  return [
    line(cols.map(([, h]) => h)),
    `|${width.map((w, i) => (i === 0 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`,
    ...rows.map((r) => line(cols.map(([k]) => r[k]))),
  ];
}

/** A process's resident set and its peak since the last resetPeakRss (Linux: /proc/PID/status), in bytes. */
export function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** CPU time (user + system) a process has used, in ms (clock ticks of 10 ms). */
export function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Start a new peak for rssOf (writing 5 to clear_refs resets VmHWM to the current RSS). */
export function resetPeakRss(pid) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Starts V8's CPU profiler in this process; resolves to a function that stops it and writes the profile to a file. */
export async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
  };
}
