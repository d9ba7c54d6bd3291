// The audit filters in the handler chain over a real HTTP listener: stages, a panic, a response never written,
// a client's Audit-ID, and omitStages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { newRequestContext, type Handler } from '../../src/server/context.js';
import { buildHandlerChain } from '../../src/server/handler-chain.js';
import { parsePolicy, type Policy } from '../../src/audit/policy.js';
import { writeObject } from '../../src/server/http.js';

const policy = (yaml: string): Policy => {
  const p = parsePolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\n${yaml}`);
  if ('error' in p) throw new Error(p.error);
  return p;
};

async function serve(p: Policy, api: Handler): Promise<{ url: string; lines: Record<string, any>[]; close(): Promise<void> }> {
  const lines: Record<string, any>[] = [];
  const chain = buildHandlerChain(api, {
    authenticator: () => ({ name: 'alice', groups: ['system:authenticated'] }),
    authorizer: () => undefined,
    // Events as the log would write them (JSON drops what is undefined).
    audit: { policy: p, backend: { name: 'test', processEvents: (evs) => (lines.push(...evs.map((e) => JSON.parse(JSON.stringify(e)))), true), shutdown: async () => {} } },
  });
  const s = http.createServer((req, res) => void chain(newRequestContext(req, res, '')));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    lines,
    close: () => new Promise<void>((r) => (s.close(() => r()), s.closeAllConnections())),
  };
}

const get = async (url: string, headers: Record<string, string> = {}): Promise<Response> => {
  const r = await fetch(url, { headers });
  await r.text();
  // ResponseComplete is written when the response has closed on the server's side.
  await new Promise((res) => setTimeout(res, 20));
  return r;
};

test('a panic is the Panic stage with kube\'s status, and no ResponseComplete follows', async () => {
  const s = await serve(policy('rules:\n- level: Metadata\n'), async () => {
    throw new Error('boom');
  });
  try {
    const r = await get(`${s.url}/api/v1/namespaces/default/configmaps/x`);
    assert.equal(r.status, 500);
    assert.deepEqual(s.lines.map((e) => e.stage), ['RequestReceived', 'Panic']);
    assert.deepEqual(s.lines[1]!.responseStatus, { metadata: {}, status: 'Failure', message: "APIServer panic'd: boom", reason: 'InternalError', code: 500 });
    assert.equal(s.lines[1]!.auditID, r.headers.get('audit-id'));
  } finally {
    await s.close();
  }
});

test('omitStages, a client\'s Audit-ID, RequestResponse objects without managedFields', async () => {
  const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', managedFields: [{ manager: 'm' }] }, data: { a: 'b' } };
  const s = await serve(policy('omitStages: [RequestReceived]\nrules:\n- level: RequestResponse\n  omitManagedFields: true\n'), async (ctx) =>
    writeObject(ctx.res, 200, obj, { format: 'json', contentType: 'application/json' }),
  );
  try {
    const r = await get(`${s.url}/api/v1/namespaces/default/configmaps/x`, { 'Audit-ID': 'given' });
    assert.equal(r.headers.get('audit-id'), 'given');
    assert.equal(s.lines.length, 1);
    const e = s.lines[0]!;
    assert.equal(e.stage, 'ResponseComplete');
    assert.equal(e.auditID, 'given');
    assert.deepEqual(e.objectRef, { resource: 'configmaps', namespace: 'default', name: 'x', apiVersion: 'v1' });
    assert.deepEqual(e.responseObject, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x' }, data: { a: 'b' } });
    assert.equal(e.verb, 'get');
    assert.deepEqual(e.user, { username: 'alice', groups: ['system:authenticated'] });
  } finally {
    await s.close();
  }
});

test('level None writes nothing, yet the response has an Audit-Id', async () => {
  const s = await serve(policy('rules:\n- level: None\n  nonResourceURLs: ["/healthz*"]\n- level: Metadata\n'), async (ctx) => {
    ctx.res.writeHead(200).end('ok');
  });
  try {
    const r = await get(`${s.url}/healthz/ping`);
    assert.match(r.headers.get('audit-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(s.lines.length, 0);
    await get(`${s.url}/metrics`);
    assert.deepEqual(s.lines.map((e) => [e.stage, e.verb, e.requestURI, e.objectRef]), [
      ['RequestReceived', 'get', '/metrics', undefined],
      ['ResponseComplete', 'get', '/metrics', undefined],
    ]);
    assert.deepEqual(s.lines[1]!.responseStatus, { metadata: {}, code: 200 });
  } finally {
    await s.close();
  }
});
