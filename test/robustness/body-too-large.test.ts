// A body over the 3 MiB limit gets kube's 413, and since the rest of it was never read the connection is
// closed (Connection: close), as Go's server closes it; the server goes on serving.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApi } from '../server/helpers.js';
import { connect, parseHead, readUntilClosed } from './raw-http.js';

test('413 for a too-large body says Connection: close and closes the connection', { timeout: 10_000 }, async () => {
  const api = await startApi();
  try {
    const s = await connect(api.url);
    const size = 4 * 1024 * 1024;
    s.write(`POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
    // Part of the body only: the server answers before the rest and must not wait for it.
    s.write(Buffer.alloc(3 * 1024 * 1024 + 1024, 0x20));
    const { data, closed } = await readUntilClosed(s, 5000);
    assert.ok(closed, 'the connection is closed');
    const r = parseHead(data);
    assert.equal(r.status, 413);
    assert.equal(r.headers.get('connection'), 'close');
    const status = JSON.parse(r.body);
    assert.equal(status.reason, 'RequestEntityTooLarge');
    assert.equal(status.message, 'Request entity too large: limit is 3145728');
    assert.equal((await api.req('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
  } finally {
    await api.close();
  }
});
