// ApiResponse: headers known before a handler writes (Audit-Id, the priority and fairness UIDs) are held and
// written with the handler's own, whichever way the head goes out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiResponse, responseHeader, setEarlyHeader } from '../../src/server/response.js';

async function serve(handler: (res: ApiResponse) => void): Promise<{ headers: http.IncomingHttpHeaders; rawHeaders: string[]; status: number }> {
  const server = http.createServer({ ServerResponse: ApiResponse }, (_req, res) => handler(res as ApiResponse));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ headers: res.headers, rawHeaders: res.rawHeaders, status: res.statusCode ?? 0 }));
      }).on('error', reject);
    });
  } finally {
    server.close();
  }
}

const early = (res: ApiResponse) => {
  setEarlyHeader(res, 'Audit-Id', 'first');
  setEarlyHeader(res, 'X-Kubernetes-PF-FlowSchema-UID', 'fs');
  // A second of the same name (any case) replaces the first, as setHeader does.
  setEarlyHeader(res, 'audit-id', 'a-1');
  assert.equal(responseHeader(res, 'AUDIT-ID'), 'a-1');
};

test('early headers go out with writeHead\'s object, the handler\'s winning a clash', async () => {
  const r = await serve((res) => {
    early(res);
    res.writeHead(201, { 'Content-Type': 'text/plain', 'X-Kubernetes-PF-FlowSchema-UID': 'mine' });
    res.end('ok');
    // Still known once written (a request's log line names its Audit-Id when it is done).
    assert.equal(responseHeader(res, 'audit-id'), 'a-1');
  });
  assert.equal(r.status, 201);
  assert.equal(r.headers['audit-id'], 'a-1');
  assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], 'mine');
  assert.equal(r.headers['content-type'], 'text/plain');
  // Early ones first, in the order set (the replaced one kept its place and its first spelling).
  assert.deepEqual(r.rawHeaders.slice(0, 4), ['Audit-Id', 'a-1', 'X-Kubernetes-PF-FlowSchema-UID', 'mine']);
});

test('early headers go out with an implicit head, a status message, a raw array, and beside setHeader', async () => {
  let r = await serve((res) => {
    early(res);
    res.end('ok');
  });
  assert.equal(r.headers['audit-id'], 'a-1');
  r = await serve((res) => {
    early(res);
    res.setHeader('Warning', '299 - "x"');
    res.writeHead(404, 'Gone Fishing', { 'Content-Length': '2' });
    res.end('no');
  });
  assert.deepEqual([r.status, r.headers['audit-id'], r.headers['warning'], r.headers['x-kubernetes-pf-flowschema-uid']], [404, 'a-1', '299 - "x"', 'fs']);
  r = await serve((res) => {
    early(res);
    res.writeHead(200, ['Content-Type', 'text/plain']);
    res.end('ok');
  });
  assert.deepEqual([r.headers['audit-id'], r.headers['content-type']], ['a-1', 'text/plain']);
});

test('on a plain ServerResponse the early headers are set at once', async () => {
  const server = http.createServer((_req, res) => {
    setEarlyHeader(res, 'Audit-Id', 'x');
    assert.equal(responseHeader(res, 'audit-id'), 'x');
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const got = await new Promise<http.IncomingHttpHeaders>((resolve) =>
    http.get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, agent: false }, (res) => (res.resume(), resolve(res.headers))),
  );
  server.close();
  assert.equal(got['audit-id'], 'x');
});
