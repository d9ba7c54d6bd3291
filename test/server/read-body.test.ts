// readBody: a body of a declared length is read with plain listeners, any other through the stream's
// iterator with the size limit; both give the whole body, and a client that goes away mid-body fails it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../src/server/http.js';

async function withServer(fn: (port: number, results: Promise<Buffer | Error>[]) => Promise<void>): Promise<void> {
  const results: Promise<Buffer | Error>[] = [];
  const server = http.createServer((req, res) => {
    const p = readBody(req).then(
      (b) => b,
      (e: Error) => e,
    );
    results.push(p);
    void p.then((b) => {
      if (b instanceof Error) return;
      res.writeHead(200, { 'Content-Length': String(b.length) });
      res.end(b);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn((server.address() as AddressInfo).port, results);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

function send(port: number, headers: Record<string, string>, parts: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString()));
    });
    req.on('error', reject);
    let i = 0;
    const next = (): void => {
      if (i === parts.length) return void req.end();
      req.write(parts[i++]);
      setTimeout(next, 5);
    };
    next();
  });
}

test('a body of declared length arriving in pieces, and a chunked one, are read whole', async () => {
  await withServer(async (port) => {
    const parts = ['{"a":', '"é'.repeat(1000) + '"', ',"b":[1,2,3]}'];
    const whole = parts.join('');
    assert.equal(await send(port, { 'Content-Length': String(Buffer.byteLength(whole)) }, parts), whole);
    assert.equal(await send(port, { 'Transfer-Encoding': 'chunked' }, parts), whole);
    assert.equal(await send(port, { 'Content-Length': '0' }, []), '');
  });
});

test('a client that goes away before the declared length fails the read', async () => {
  await withServer(async (port, results) => {
    const sock = net.connect(port, '127.0.0.1');
    await new Promise((r) => sock.once('connect', r));
    sock.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"half":');
    for (let i = 0; i < 100 && results.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    sock.destroy();
    const r = await results[0]!;
    assert.ok(r instanceof Error, 'the read fails');
  });
});
