// Requests that are not long-running end with kube's 504 after --request-timeout (or the shorter `timeout`
// parameter); a body uploaded too slowly is cut by it, and its connection closed; watches are exempt.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from '../server/helpers.js';
import { connect, parseHead, readUntilClosed } from './raw-http.js';

const TIMEOUT_STATUS = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Timeout: request did not complete within the allotted timeout',
  reason: 'Timeout',
  details: {},
  code: 504,
};
const CM = '/api/v1/namespaces/default/configmaps';

let api: Api;
before(async () => {
  api = await startApi({ requestTimeoutMs: 800, minRequestTimeoutSeconds: 1 });
});
after(() => api.close());

test('a body that arrives too slowly is cut at the request timeout: 504, Status, connection closed', { timeout: 10_000 }, async () => {
  const s = await connect(api.url);
  const body = JSON.stringify({ metadata: { name: 'slow' } });
  s.write(`POST ${CM} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
  s.write(body.slice(0, 5)); // and the rest never comes
  const started = Date.now();
  const { data, closed } = await readUntilClosed(s, 5000);
  const elapsed = Date.now() - started;
  assert.ok(closed, 'the server closes the connection');
  assert.ok(elapsed >= 750 && elapsed < 4000, `answered after ${elapsed} ms`);
  const r = parseHead(data);
  assert.equal(r.status, 504);
  assert.equal(r.headers.get('connection'), 'close');
  assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.deepEqual(JSON.parse(r.body), TIMEOUT_STATUS);
  // Nothing was created from the cut body.
  assert.equal((await api.req('GET', `${CM}/slow`)).status, 404);
});

test('the timeout parameter shortens the request timeout; a bad one is a 400', async () => {
  const s = await connect(api.url);
  s.write(`POST ${CM}?timeout=50ms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{`);
  const started = Date.now();
  const { data } = await readUntilClosed(s, 5000);
  // Well before the server's 800 ms, with room for a busy machine.
  assert.ok(Date.now() - started < 600, 'answered before the server timeout');
  assert.equal(parseHead(data).status, 504);

  const bad = await api.req('GET', `${CM}?timeout=abc`);
  assert.equal(bad.status, 400);
  assert.equal(bad.json.message, 'invalid timeout specified in the request URL - time: invalid duration "abc"');
  const noUnit = await api.req('GET', `${CM}?timeout=5`);
  assert.equal(noUnit.json.message, 'invalid timeout specified in the request URL - time: missing unit in duration "5"');
  // A longer timeout than the server's does not lengthen it; quick requests are unaffected.
  assert.equal((await api.req('GET', `${CM}?timeout=10m`)).status, 200);
});

test('watches are exempt: they outlive the request timeout', async () => {
  const ac = new AbortController();
  const res = await fetch(`${api.url}${CM}?watch=true&timeoutSeconds=2`, { signal: ac.signal });
  assert.equal(res.status, 200);
  const started = Date.now();
  await res.text(); // ends at timeoutSeconds, not at the 800 ms request timeout
  assert.ok(Date.now() - started >= 1900, `the watch lasted ${Date.now() - started} ms`);
});

test('the server stays usable: a request after the timeouts succeeds', async () => {
  const r = await api.req('POST', CM, { metadata: { name: 'fine' } });
  assert.equal(r.status, 201);
});
