// A watch whose client stops reading must not buffer events without limit: once what it has not taken
// exceeds the watch buffer, the server ends the watch and drops its output (kube closes a cacheWatcher
// whose channel stays full; the client re-lists). A client that reads keeps its watch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApi } from '../server/helpers.js';
import { connect, readUntilClosed } from './raw-http.js';

const BIG = 'x'.repeat(100 * 1024);
const UPDATES = 300; // 30 MiB of events: well over the 2 MiB limit plus what the kernel's socket buffers hold
const CM = '/api/v1/namespaces/default/configmaps';

test('a watcher that never reads is closed once its buffer is full; a reading one is not', { timeout: 30_000 }, async () => {
  // Room for 20 of the 100 KiB events: the reading client shares this process (and, in CI, two cores with another
  // test file), and must not fall that far behind while it reads.
  const api = await startApi({ watchBuffer: { bytes: 2 * 1024 * 1024, events: 1000 } });
  try {
    const created = await api.req('POST', CM, { metadata: { name: 'big' }, data: { v: BIG } });
    assert.equal(created.status, 201);
    const rv = created.json.metadata.resourceVersion;

    // The stuck client: sends the request, then never reads.
    const stuck = await connect(api.url);
    stuck.pause();
    stuck.write(`GET ${CM}?watch=true&resourceVersion=${rv} HTTP/1.1\r\nHost: x\r\n\r\n`);

    // The reading client counts the events it gets.
    const ac = new AbortController();
    const reading = await fetch(`${api.url}${CM}?watch=true&resourceVersion=${rv}`, { signal: ac.signal });
    let events = 0;
    const reader = (async () => {
      let buf = '';
      for await (const chunk of reading.body as unknown as AsyncIterable<Uint8Array>) {
        buf += Buffer.from(chunk).toString();
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          buf = buf.slice(i + 1);
          events++;
        }
      }
    })().catch(() => {});
    await new Promise((r) => setTimeout(r, 100));

    for (let i = 0; i < UPDATES; i++) {
      const r = await api.req('PUT', `${CM}/big`, { metadata: { name: 'big' }, data: { v: BIG, i: String(i) } });
      assert.equal(r.status, 200);
    }

    // The stuck watcher was ended: reading now gets what had reached the kernel, then the close, far less
    // than the 30 MiB written for the reading client.
    const { data, closed } = await readUntilClosed(stuck, 10_000);
    assert.ok(closed, 'the stuck watch is closed by the server');
    assert.ok(data.length < UPDATES * BIG.length / 2, `the stuck watch got ${data.length} bytes`);

    for (let i = 0; i < 100 && events < UPDATES; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(events, UPDATES, 'the reading watcher got every event');
    ac.abort();
    await reader;
  } finally {
    await api.close();
  }
});

test('a watch resumed thousands of events back gets them all: a burst to a reading client is not a stuck client', { timeout: 60_000 }, async () => {
  const api = await startApi({ watchBuffer: { bytes: 1024 * 1024, events: 1000 } });
  try {
    const first = await api.req('POST', CM, { metadata: { name: 'cm-start' } });
    assert.equal(first.status, 201);
    const rv = first.json.metadata.resourceVersion;
    const N = 2500;
    for (let i = 0; i < N; i += 50) {
      const batch = [];
      for (let j = i; j < i + 50; j++) batch.push(api.req('POST', CM, { metadata: { name: `cm-${j}` }, data: { v: 'y'.repeat(500) } }));
      for (const r of await Promise.all(batch)) assert.equal(r.status, 201);
    }
    // Every one of the N events is replayed in one go, well past the 1,000-event limit.
    const ac = new AbortController();
    const res = await fetch(`${api.url}${CM}?watch=true&resourceVersion=${rv}`, { signal: ac.signal });
    let events = 0;
    let buf = '';
    let error = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += Buffer.from(chunk).toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.startsWith('{"type":"ERROR"')) error = line;
        events++;
      }
      if (events >= N) break;
    }
    ac.abort();
    assert.equal(error, '');
    assert.equal(events, N, 'every replayed event arrived before the watch ended');
  } finally {
    await api.close();
  }
});
