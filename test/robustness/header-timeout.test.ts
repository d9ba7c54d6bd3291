// A client that starts a request and never finishes its headers is cut off after the header read timeout
// (kube's 32 s ReadHeaderTimeout; shortened here). An idle keep-alive connection between requests is not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from '../server/helpers.js';
import { connect, parseHead, readUntilClosed } from './raw-http.js';

let api: Api;
before(async () => {
  api = await startApi({ headerReadTimeoutMs: 400 });
});
after(() => api.close());

test('headers that never finish: the connection is closed after the header read timeout', { timeout: 5000 }, async () => {
  const s = await connect(api.url);
  s.write('GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Slow: ');
  const started = Date.now();
  const { closed, data } = await readUntilClosed(s, 3000);
  const elapsed = Date.now() - started;
  assert.ok(closed, 'the server closes the connection');
  // As Go's server: closed without an answer (Node's own handling would send a 408).
  assert.equal(data, '');
  assert.ok(elapsed >= 350 && elapsed < 2000, `closed after ${elapsed} ms`);
});

test('an idle keep-alive connection outlives the header read timeout', { timeout: 5000 }, async () => {
  const s = await connect(api.url);
  const chunks: Buffer[] = [];
  const collect = (c: Buffer): number => chunks.push(c);
  s.on('data', collect);
  s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((r) => setTimeout(r, 1000));
  s.off('data', collect);
  s.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  const { data } = await readUntilClosed(s, 3000);
  const all = Buffer.concat(chunks).toString('latin1') + data;
  assert.equal(all.match(/HTTP\/1\.1 200 OK/g)?.length, 2, all);
  assert.equal(parseHead(all).status, 200);
});
