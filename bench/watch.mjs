// Watch latency: a write is made, its response received (the acknowledgement), and the time until
// its event reaches the watcher(s) is taken. Watchers are raw sockets that only look for the
// written object's name in what arrives, so 1,000 of them cost the client little beyond the reads.
import net from 'node:net';
import { crontabs, crontabBody } from './fixtures.mjs';
import { expectOk, request } from './util.mjs';

function openWatcher(port, path) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.setNoDelay(true);
    const w = { sock, marker: '', tail: '', seenAt: 0, onSeen: () => {} };
    let started = false;
    sock.on('connect', () => sock.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\n\r\n`));
    sock.on('data', (chunk) => {
      const now = performance.now();
      const text = chunk.toString('latin1');
      if (!started) {
        // The server registers the watch before it flushes the response headers.
        if (!text.startsWith('HTTP/1.1 200')) return reject(new Error(`watch refused: ${text.slice(0, 300)}`));
        started = true;
        resolve(w);
      }
      if (w.marker === '' || w.seenAt !== 0) return;
      const s = w.tail + text;
      if (s.includes(w.marker)) {
        w.seenAt = now;
        w.onSeen();
      } else w.tail = s.slice(-w.marker.length);
    });
    sock.on('error', (e) => (started ? undefined : reject(e)));
  });
}

async function openWatchers(port, path, n) {
  const out = [];
  for (let i = 0; i < n; i += 100) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + 100); j++) batch.push(openWatcher(port, path));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/** Write one object; resolve when the response and every watcher's event are in. */
async function oneWrite(url, ns, body, name, watchers) {
  const marker = `"name":"${name}"`;
  let remaining = watchers.length;
  let allSeen;
  const seen = new Promise((r) => (allSeen = r));
  for (const w of watchers) {
    w.marker = marker;
    w.tail = '';
    w.seenAt = 0;
    w.onSeen = () => {
      if (--remaining === 0) allSeen();
    };
  }
  const sentAt = performance.now();
  await expectOk(request(`${url}${crontabs(ns)}`, 'POST', body.replace('__NAME__', name)), 'watch write');
  const ackAt = performance.now();
  await seen;
  const last = Math.max(...watchers.map((w) => w.seenAt));
  return { fromAck: Math.max(0, last - ackAt), fromSend: last - sentAt, beforeAck: last < ackAt };
}

/**
 * Returns { single: [{fromAck, fromSend, beforeAck}...], many: [...] } for `writes` writes at one
 * watcher and `rounds` writes at `watchers` watchers.
 */
export async function measureWatch(url, ns, { writes, watchers, rounds }) {
  const port = Number(new URL(url).port);
  const body = crontabBody(ns);
  const rv = (await expectOk(request(`${url}${crontabs(ns)}?limit=1`), 'list')).json().metadata.resourceVersion;
  const path = `${crontabs(ns)}?watch=1&resourceVersion=${rv}`;

  const one = await openWatchers(port, path, 1);
  for (let i = 0; i < 20; i++) await oneWrite(url, ns, body, `w1warm-${i}`, one); // warm up
  const single = [];
  for (let i = 0; i < writes; i++) single.push(await oneWrite(url, ns, body, `w1-${i}`, one));
  for (const w of one) w.sock.destroy();

  const all = await openWatchers(port, path, watchers);
  await oneWrite(url, ns, body, 'wnwarm-0', all);
  const many = [];
  for (let i = 0; i < rounds; i++) many.push(await oneWrite(url, ns, body, `wn-${i}`, all));
  for (const w of all) w.sock.destroy();
  return { single, many };
}
