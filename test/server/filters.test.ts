// Each filter of the handler chain on its own, over a fake request and response, and the chain's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { composeChain, newRequestContext, type Filter, type RequestContext } from '../../src/server/context.js';
import { withPanicRecovery } from '../../src/server/filters/panic-recovery.js';
import { withRequestInfo } from '../../src/server/filters/request-info.js';
import { withAuthentication } from '../../src/server/filters/authentication.js';
import { withAuthorization } from '../../src/server/filters/authorization.js';
import { buildHandlerChain } from '../../src/server/handler-chain.js';
import { checkWith } from '../../src/auth/authorize.js';

// An authorizer that allows authenticated users only (the filter is under test, not the policy).
const checkAuthorized = checkWith({ authorize: (a) => ({ allowed: a.user.groups.includes('system:authenticated'), reason: '' }) });
import * as S from '../../src/api/status.js';
import { EventEmitter } from 'node:events';

interface Written {
  code?: number;
  headers: Record<string, string | string[]>;
  body: string;
}

function fake(method: string, url: string, headers: Record<string, string> = {}): { ctx: RequestContext; out: Written; res: ServerResponse } {
  const out: Written = { headers: {}, body: '' };
  const res = Object.assign(new EventEmitter(), {
    headersSent: false,
    writableEnded: false,
    destroyed: false,
    writeHead(code: number, headers: Record<string, string>) {
      out.code = code;
      Object.assign(out.headers, headers);
      this.headersSent = true;
      return this;
    },
    setHeader(name: string, v: string | string[]) {
      out.headers[name] = v;
    },
    getHeader(name: string) {
      return out.headers[name];
    },
    end(body?: string) {
      out.body += body ?? '';
      this.writableEnded = true;
    },
  }) as unknown as ServerResponse;
  const req = { method, url, headers, socket: {} } as unknown as IncomingMessage;
  return { ctx: newRequestContext(req, res, ''), out, res };
}

const done: Filter = async () => undefined;

test('composeChain runs filters outermost first, each deciding whether to go on', async () => {
  const seen: string[] = [];
  const f = (name: string, stop = false): Filter => async (_ctx, next) => {
    seen.push(`${name}>`);
    if (!stop) await next();
    seen.push(`<${name}`);
  };
  const { ctx } = fake('GET', '/');
  await composeChain([f('a'), f('b')], async () => void seen.push('handler'))(ctx);
  assert.deepEqual(seen, ['a>', 'b>', 'handler', '<b', '<a']);
  seen.length = 0;
  await composeChain([f('a', true), f('b')], async () => void seen.push('handler'))(ctx);
  assert.deepEqual(seen, ['a>', '<a']);
});

test('panic recovery: a StatusError is answered as its Status, anything else as a 500', async () => {
  let { ctx, out } = fake('GET', '/');
  await withPanicRecovery(ctx, async () => {
    throw S.notFound({ group: '', resource: 'namespaces' }, 'x');
  });
  assert.equal(out.code, 404);
  assert.equal(JSON.parse(out.body).message, 'namespaces "x" not found');
  ({ ctx, out } = fake('GET', '/'));
  const logged = console.error;
  console.error = () => undefined;
  try {
    await withPanicRecovery(ctx, async () => {
      throw new TypeError('boom');
    });
  } finally {
    console.error = logged;
  }
  assert.equal(out.code, 500);
  assert.deepEqual(JSON.parse(out.body), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Internal error occurred: boom', reason: 'InternalError', details: { causes: [{ message: 'boom' }] }, code: 500 });
});

test('panic recovery writes the Status in the format the request accepts (ErrorNegotiated)', async () => {
  const notFound = async (): Promise<void> => {
    throw S.notFound({ group: '', resource: 'namespaces' }, 'x');
  };
  let { ctx, out } = fake('GET', '/api/v1/namespaces/x', { accept: 'application/yaml' });
  await withPanicRecovery(ctx, notFound);
  assert.equal(out.code, 404);
  assert.equal(out.headers['Content-Type'], 'application/yaml');
  assert.equal(out.body, 'apiVersion: v1\ncode: 404\ndetails:\n  kind: namespaces\n  name: x\nkind: Status\nmessage: namespaces "x" not found\nmetadata: {}\nreason: NotFound\nstatus: Failure\n');
  // Nothing acceptable: the error's own code, as Go's json.MarshalIndent.
  ({ ctx, out } = fake('GET', '/api/v1/namespaces/x', { accept: 'text/html' }));
  await withPanicRecovery(ctx, notFound);
  assert.equal(out.code, 404);
  assert.equal(out.headers['Content-Type'], 'application/json');
  assert.equal(
    out.body,
    '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "namespaces \\"x\\" not found",\n  "reason": "NotFound",\n  "details": {\n    "name": "x",\n    "kind": "namespaces"\n  },\n  "code": 404\n}',
  );
});

test('request info: parsed from method and path before the next filter', async () => {
  const { ctx } = fake('DELETE', '/apis/stable.example.com/v1/namespaces/ns1/crontabs/c1?dryRun=All');
  assert.equal(ctx.info.isResourceRequest, false);
  await withRequestInfo(ctx, async () => {
    assert.equal(ctx.info.verb, 'delete');
    assert.equal(ctx.info.apiGroup, 'stable.example.com');
    assert.equal(ctx.info.namespace, 'ns1');
    assert.equal(ctx.info.resource, 'crontabs');
    assert.equal(ctx.info.name, 'c1');
  });
  assert.equal(ctx.query.get('dryRun'), 'All');
});

test('authentication: the user is set for later filters, or the request ends with 401', async () => {
  const user = { name: 'jane', groups: ['system:authenticated'] };
  const { ctx } = fake('GET', '/');
  let reached = false;
  await withAuthentication(() => user)(ctx, async () => {
    reached = true;
    assert.deepEqual(ctx.user, user);
  });
  assert.ok(reached);
  const other = fake('GET', '/');
  await assert.rejects(
    withAuthentication(() => undefined)(other.ctx, done as never),
    (e: unknown) => e instanceof S.StatusError && e.code === 401 && e.status.message === 'Unauthorized',
  );
});

test('authorization: decides on the request info and the user', async () => {
  const { ctx } = fake('GET', '/apis');
  await withRequestInfo(ctx, async () => undefined);
  ctx.user = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  await assert.rejects(withAuthorization(checkAuthorized)(ctx, done as never), (e: unknown) => {
    assert.ok(e instanceof S.StatusError);
    assert.equal(e.code, 403);
    assert.equal(e.status.message, 'forbidden: User "system:anonymous" cannot get path "/apis"');
    return true;
  });
  let reached = false;
  ctx.user = { name: 'jane', groups: ['system:authenticated'] };
  await withAuthorization(checkAuthorized)(ctx, async () => void (reached = true));
  assert.ok(reached);
});

test('the built chain answers refusals of inner filters as Status responses', async () => {
  const chain = buildHandlerChain(async (ctx) => void ctx.res.end('handled'), {
    authenticator: () => undefined,
    authorizer: () => undefined,
  });
  const { ctx, out } = fake('GET', '/api/v1/namespaces');
  await chain(ctx);
  assert.equal(out.code, 401);
  assert.equal(JSON.parse(out.body).reason, 'Unauthorized');
  const allowed = buildHandlerChain(async (c) => void c.res.end(`handled ${c.info.resource} for ${c.user!.name}`), {
    authenticator: () => ({ name: 'jane', groups: [] }),
    authorizer: () => undefined,
  });
  const second = fake('GET', '/api/v1/namespaces');
  await allowed(second.ctx);
  assert.equal(second.out.body, 'handled namespaces for jane');
});

test('the context: warnings become Warning headers once each; the signal aborts when the client goes away', () => {
  const { ctx, out, res } = fake('GET', '/');
  ctx.warn('a');
  ctx.warn('b');
  ctx.warn('a');
  assert.deepEqual(out.headers['Warning'], ['299 - "a"', '299 - "b"']);
  const signal = ctx.signal;
  assert.equal(signal.aborted, false);
  res.emit('close');
  assert.equal(signal.aborted, true);
});
