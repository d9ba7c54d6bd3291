// Max in flight: past the read-only or mutating limit, requests get kube's 429 with Retry-After: 1 at once;
// watches, health probes and system:masters are let through; slots come back when requests end.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildHandlerChain } from '../../src/server/handler-chain.js';
import { newRequestContext } from '../../src/server/context.js';

// Handlers hold their slot until released.
let waiting: (() => void)[] = [];
const release = (): void => {
  for (const r of waiting) r();
  waiting = [];
};
const chain = buildHandlerChain(
  async (ctx) => {
    if (ctx.query.has('hold')) await new Promise<void>((r) => waiting.push(r));
    ctx.res.end(`served ${ctx.info.verb}`);
  },
  {
    authenticator: (req) => (req.headers['x-user'] === 'admin' ? { name: 'admin', groups: ['system:masters'] } : { name: 'jane', groups: ['system:authenticated'] }),
    authorizer: () => undefined,
    maxInFlight: { readOnly: 2, mutating: 1 },
  },
);
const server = http.createServer((req, res) => void chain(newRequestContext(req, res, '')));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(() => {
  release();
  server.closeAllConnections();
  server.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const go = (path: string, init: RequestInit = {}): Promise<Response> => fetch(base + path, init);

test('read-only requests over the limit get 429 Too many requests; slots come back', { timeout: 5000 }, async () => {
  const held = [go(`${CM}?hold`), go(`${CM}/a?hold`)];
  await new Promise((r) => setTimeout(r, 100));
  const refused = await go(CM);
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '1');
  assert.equal(refused.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.equal(await refused.text(), 'Too many requests, please try again later.\n');

  // Not counted: watches, probes; let through: system:masters. Mutations have their own limit.
  assert.equal((await go(`${CM}?watch=true`)).status, 200);
  for (const p of ['/healthz', '/livez', '/readyz']) assert.equal((await go(p)).status, 200, p);
  assert.equal((await go(CM, { headers: { 'x-user': 'admin' } })).status, 200);
  assert.equal((await go(CM, { method: 'POST', body: '{}' })).status, 200);

  release();
  for (const r of await Promise.all(held)) assert.equal(r.status, 200);
  assert.equal((await go(CM)).status, 200, 'the slots were given back');
});

test('mutating requests have their own limit', { timeout: 5000 }, async () => {
  const held = go(`${CM}?hold`, { method: 'POST', body: '{}' });
  await new Promise((r) => setTimeout(r, 100));
  assert.equal((await go(`${CM}/x`, { method: 'DELETE' })).status, 429);
  assert.equal((await go(CM)).status, 200, 'reads still pass');
  release();
  assert.equal((await held).status, 200);
  assert.equal((await go(`${CM}/x`, { method: 'DELETE' })).status, 200);
});
