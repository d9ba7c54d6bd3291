// The streamed JSON list: items are turned into bytes only as fast as the client reads them, and a client
// that goes away ends the writing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { once } from 'node:events';
import { writeJsonList } from '../../src/server/json-list-stream.js';
import type { RawObjects } from '../../src/registry/store.js';

const ITEMS = 40_000;
const ITEM = `{"metadata":{"name":"x","resourceVersion":""},"spec":"${'y'.repeat(1000)}"}`;
const AT = ITEM.indexOf('"resourceVersion":""') + '"resourceVersion":"'.length;

/** A server answering every request with the list, counting the items turned into bytes. */
async function listServer(): Promise<{ server: Server; port: number; made: () => number; done: Promise<void> }> {
  let made = 0;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const items: RawObjects = {
    length: ITEMS,
    item: (i) => {
      made++;
      return { text: ITEM, at: AT, resourceVersion: String(i + 1) };
    },
  };
  const server = createServer((_req, res) => {
    void writeJsonList(res, 'application/json', '{"items":[', items, ']}\n').then(finish);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, made: () => made, done };
}

function ask(port: number): Socket {
  const s = connect(port, '127.0.0.1');
  s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  return s;
}

/** Waits until `f` stops changing for `quietMs`. */
async function settled(f: () => number, quietMs = 300): Promise<number> {
  let last = -1;
  while (f() !== last) {
    last = f();
    await new Promise((r) => setTimeout(r, quietMs));
  }
  return last;
}

test('a client that does not read holds the list back; reading on, it gets every item', async () => {
  const { server, port, made, done } = await listServer();
  try {
    const s = ask(port);
    s.pause();
    const held = await settled(made);
    assert.ok(held < ITEMS / 2, `only what the socket buffers hold is made (${held} of ${ITEMS})`);
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.resume();
    await done;
    assert.equal(made(), ITEMS);
    // Read to the end of the chunked body.
    while (!Buffer.concat(chunks).includes('\r\n0\r\n\r\n')) await once(s, 'data');
    s.destroy();
    const raw = Buffer.concat(chunks).toString();
    const [head, chunked] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
    assert.match(head, /transfer-encoding: chunked/i);
    let body = '';
    for (let at = 0; ; ) {
      const eol = chunked.indexOf('\r\n', at);
      const size = parseInt(chunked.slice(at, eol), 16);
      if (size === 0) break;
      body += chunked.slice(eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    const list = JSON.parse(body);
    assert.equal(list.items.length, ITEMS);
    assert.equal(list.items[ITEMS - 1].metadata.resourceVersion, String(ITEMS));
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('a client that goes away mid-list ends the writing', async () => {
  const { server, port, made, done } = await listServer();
  try {
    const s = ask(port);
    s.pause();
    await settled(made);
    s.destroy();
    await done;
    assert.ok(made() < ITEMS, `the writer stopped early (${made()} of ${ITEMS})`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
