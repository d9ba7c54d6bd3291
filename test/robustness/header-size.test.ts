// Headers and URLs are accepted up to 1 MiB as Go's DefaultMaxHeaderBytes (kube's), not Node's 16 KiB;
// beyond it the answer is 431 and the connection is closed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from '../server/helpers.js';
import { connect, parseHead, readUntilClosed } from './raw-http.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(() => api.close());

test('a 512 KiB header and a 512 KiB URL are served', async () => {
  const big = 'a'.repeat(512 * 1024);
  assert.equal((await api.req('GET', '/api/v1/namespaces', undefined, { 'X-Big': big })).status, 200);
  // An unknown query parameter is ignored: the long URL is read and served.
  assert.equal((await api.req('GET', `/api/v1/namespaces?ignored=${big}`)).status, 200);
});

test('headers over 1 MiB get 431 and the connection is closed', { timeout: 5000 }, async () => {
  const s = await connect(api.url);
  s.write(`GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(1100 * 1024)}\r\n\r\n`);
  const { data, closed } = await readUntilClosed(s, 3000);
  assert.ok(closed);
  assert.equal(parseHead(data).status, 431);
  assert.equal((await api.req('GET', '/api/v1/namespaces')).status, 200);
});
