// The request metrics filters in a handler chain of their own: which requests kube counts in
// apiserver_request_total (what its instrumented handlers serve, and flow control's 429s as dropped requests)
// and which it does not (401 by authentication, 403 by authorization, resources nobody serves), the in-flight
// high-water mark, and the long-running gauge of a watch.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as S from '../../src/api/status.js';
import { buildHandlerChain } from '../../src/server/handler-chain.js';
import { newRequestContext } from '../../src/server/context.js';
import { ServerMetrics } from '../../src/server/metrics/server-metrics.js';
import { parsePrometheusText, total, type Family } from './prometheus-text.js';

let waiting: (() => void)[] = [];
const release = (): void => {
  for (const r of waiting) r();
  waiting = [];
};
const metrics = new ServerMetrics(() => [['', 'configmaps', 3], ['stable.example.com', 'crontabs', 2]]);
const chain = buildHandlerChain(
  async (ctx) => {
    if (ctx.query.has('hold')) await new Promise<void>((r) => waiting.push(r));
    if (ctx.info.name === 'missing') throw S.notFound({ group: '', resource: 'configmaps' }, 'missing');
    if (ctx.info.verb === 'watch') {
      ctx.res.writeHead(200);
      ctx.res.write('{}\n');
      setTimeout(() => ctx.res.end(), 300);
      return;
    }
    ctx.res.writeHead(ctx.info.verb === 'create' ? 201 : 200).end('{}');
  },
  {
    authenticator: (req) => (req.headers['authorization'] === 'Bearer bad' ? undefined : { name: req.headers['x-user'] === 'nobody' ? 'nobody' : 'jane', groups: ['system:authenticated'] }),
    authorizer: (a) => (a.user.name === 'nobody' ? S.forbidden({ group: '', resource: 'configmaps' }, '', 'nope') : undefined),
    maxInFlight: { readOnly: 1, mutating: 1 },
    metrics: { metrics, isServed: (group, version, resource) => group === '' && version === 'v1' && resource === 'configmaps' },
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
const scrape = async (): Promise<Map<string, Family>> => parsePrometheusText(await metrics.expose());
const cm = { group: '', version: 'v1', resource: 'configmaps', component: 'apiserver', subresource: '' };

test('counted: what the handlers serve, and 429s as dropped; not counted: 401, 403, unknown resources', { timeout: 10_000 }, async () => {
  assert.equal((await go(CM, { method: 'POST', body: '{}' })).status, 201);
  assert.equal((await go(`${CM}/missing`)).status, 404);
  const held = go(`${CM}?hold`);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal((await go(CM)).status, 429);
  release();
  assert.equal((await held).status, 200);
  assert.equal((await go(CM, { headers: { authorization: 'Bearer bad' } })).status, 401);
  assert.equal((await go(CM, { headers: { 'x-user': 'nobody' } })).status, 403);
  assert.equal((await go('/apis/example.com/v1/widgets')).status, 200, 'served by the test handler, but not a known resource');

  const f = await scrape();
  assert.equal(total(f, 'apiserver_request_total', { ...cm, verb: 'POST', scope: 'resource', code: '201', dry_run: '' }), 1);
  assert.equal(total(f, 'apiserver_request_total', { ...cm, verb: 'GET', scope: 'resource', code: '404' }), 1);
  assert.equal(total(f, 'apiserver_request_total', { ...cm, verb: 'LIST', scope: 'namespace', code: '200' }), 1, 'the held list');
  assert.equal(total(f, 'apiserver_request_total', { ...cm, verb: 'LIST', scope: 'namespace', code: '429' }), 1, 'the dropped list');
  assert.equal(total(f, 'apiserver_request_terminations_total', { ...cm, verb: 'LIST', scope: 'namespace', code: '429' }), 1);
  assert.equal(total(f, 'apiserver_request_total', { code: '401' }), 0);
  assert.equal(total(f, 'apiserver_request_total', { code: '403' }), 0);
  assert.equal(total(f, 'apiserver_request_total', { resource: 'widgets' }), 0);
  assert.equal(total(f, 'apiserver_request_duration_seconds_count', { ...cm, verb: 'LIST', scope: 'namespace' }), 1, 'dropped requests have no latency');
  // The held list and the refused one overlapped: one read-only request at most executed at once.
  assert.equal(total(f, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' }), 1);
  assert.equal(total(await scrape(), 'apiserver_current_inflight_requests', { request_kind: 'readOnly' }), 0, 'reset to what executes now once read');
  assert.equal(total(f, 'apiserver_storage_objects', { resource: 'crontabs.stable.example.com' }), 2);
  assert.equal(total(f, 'apiserver_storage_objects', { resource: 'configmaps' }), 3);
});

test('a watch is long-running until its response ends, then counted with its latency', { timeout: 10_000 }, async () => {
  const res = await go(`${CM}?watch=true`);
  assert.equal(res.status, 200);
  const watch = { ...cm, verb: 'WATCH', scope: 'namespace' };
  assert.equal(total(await scrape(), 'apiserver_longrunning_requests', watch), 1);
  assert.equal(total(await scrape(), 'apiserver_request_total', watch), 0);
  await res.text();
  await new Promise((r) => setTimeout(r, 50));
  const f = await scrape();
  assert.equal(total(f, 'apiserver_longrunning_requests', watch), 0);
  assert.equal(total(f, 'apiserver_request_total', { ...watch, code: '200' }), 1);
  assert.ok(total(f, 'apiserver_request_duration_seconds_sum', watch) >= 0.25, 'the latency of the whole watch');
});
