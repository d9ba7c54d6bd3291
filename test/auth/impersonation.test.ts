// Impersonation as WithImpersonation decides it: the requests the headers make, the attributes each is
// authorized on (and kube's 403 for them), the user that results, and the filter in the built chain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { impersonatedUser, impersonationAttributes, impersonationRequests, splitServiceAccountUsername, type ImpersonationRequest } from '../../src/auth/impersonation.js';
import { forbiddenError, type RequestAttributes } from '../../src/auth/authorize.js';
import { buildHandlerChain } from '../../src/server/handler-chain.js';
import { newRequestContext } from '../../src/server/context.js';
import type { UserInfo } from '../../src/api/user.js';

const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };

function requests(headers: Record<string, string[]>): ImpersonationRequest[] {
  const r = impersonationRequests(headers);
  if ('error' in r) throw new Error(r.error);
  return r;
}

test('headers become impersonation requests in kube order: user (or ServiceAccount), groups, extras, uid', () => {
  const r = requests({
    'impersonate-uid': ['u-1'],
    'impersonate-extra-scopes': ['view', 'edit'],
    'impersonate-group': ['devs', 'ops'],
    'impersonate-user': ['jane'],
    accept: ['application/json'],
  });
  assert.deepEqual(
    r.map((x) => [x.kind, x.name, x.fieldPath]),
    [
      ['User', 'jane', ''],
      ['Group', 'devs', ''],
      ['Group', 'ops', ''],
      ['UserExtra', 'view', 'scopes'],
      ['UserExtra', 'edit', 'scopes'],
      ['UID', 'u-1', ''],
    ],
  );
  // Extra keys are percent-decoded (kube's escaping of characters a header name cannot hold).
  assert.equal(requests({ 'impersonate-user': ['jane'], 'impersonate-extra-example.com%2fteam': ['a'] })[1]!.fieldPath, 'example.com/team');
  assert.deepEqual(requests({}), []);
  // An empty Impersonate-User asks for nothing.
  assert.deepEqual(requests({ 'impersonate-user': [''] }), []);
});

test('ServiceAccount usernames are recognised only when namespace and name are valid', () => {
  assert.deepEqual(splitServiceAccountUsername('system:serviceaccount:ns1:builder'), { namespace: 'ns1', name: 'builder' });
  assert.equal(splitServiceAccountUsername('system:serviceaccount:ns1'), undefined);
  assert.equal(splitServiceAccountUsername('system:serviceaccount:a:b:c'), undefined);
  assert.equal(splitServiceAccountUsername('system:serviceaccount:Bad_NS:x'), undefined);
  assert.equal(splitServiceAccountUsername('system:serviceaccounts:ns1:x'), undefined);
  const [sa] = requests({ 'impersonate-user': ['system:serviceaccount:ns1:builder'] });
  assert.deepEqual([sa!.kind, sa!.namespace, sa!.name], ['ServiceAccount', 'ns1', 'builder']);
});

test('groups, extras or a uid without a user: the error kube answers with a 500', () => {
  assert.deepEqual(impersonationRequests({ 'impersonate-group': ['g1'] }), { error: 'requested [{Group  g1    }] without impersonating a user' });
  assert.deepEqual(impersonationRequests({ 'impersonate-group': ['g1'], 'impersonate-extra-scopes': ['a'], 'impersonate-uid': ['u'] }), {
    error: 'requested [{Group  g1    } {UserExtra  a  authentication.k8s.io/v1  scopes} {UID  u  authentication.k8s.io/v1  }] without impersonating a user',
  });
});

test('each request is authorized as `impersonate` on its resource, refused with kube\'s 403 message', () => {
  const r = requests({
    'impersonate-user': ['system:serviceaccount:ns1:builder'],
    'impersonate-group': ['devs'],
    'impersonate-extra-scopes': ['view'],
    'impersonate-uid': ['u-1'],
  });
  const messages = r.map((x) => forbiddenError(impersonationAttributes(bob, x)).status.message);
  assert.deepEqual(messages, [
    'serviceaccounts "builder" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1"',
    'groups "devs" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope',
    'userextras.authentication.k8s.io "view" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    'uids.authentication.k8s.io "u-1" is forbidden: User "bob" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
  ]);
  const user = forbiddenError(impersonationAttributes(bob, requests({ 'impersonate-user': ['jane'] })[0]!));
  assert.equal(user.status.message, 'users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope');
  assert.deepEqual(user.status.details, { name: 'jane', kind: 'users' });
});

test('the impersonated user: ServiceAccount groups unless groups are given, then system:authenticated as kube adds it', () => {
  assert.deepEqual(impersonatedUser(requests({ 'impersonate-user': ['jane'] })), { name: 'jane', groups: ['system:authenticated'] });
  assert.deepEqual(impersonatedUser(requests({ 'impersonate-user': ['system:serviceaccount:ns1:builder'] })), {
    name: 'system:serviceaccount:ns1:builder',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
  });
  assert.deepEqual(impersonatedUser(requests({ 'impersonate-user': ['system:serviceaccount:ns1:builder'], 'impersonate-group': ['g'] })).groups, ['g', 'system:authenticated']);
  // A given system:authenticated or system:unauthenticated is kept alone.
  assert.deepEqual(impersonatedUser(requests({ 'impersonate-user': ['jane'], 'impersonate-group': ['system:unauthenticated'] })).groups, ['system:unauthenticated']);
  assert.deepEqual(impersonatedUser(requests({ 'impersonate-user': ['system:anonymous'] })).groups, ['system:unauthenticated']);
  assert.deepEqual(impersonatedUser(requests({ 'impersonate-user': ['jane'], 'impersonate-extra-scopes': ['a', 'b'], 'impersonate-uid': ['u-1'] })), {
    name: 'jane',
    groups: ['system:authenticated'],
    uid: 'u-1',
    extra: { scopes: ['a', 'b'] },
  });
});

interface Written {
  code?: number;
  headers: Record<string, unknown>;
  body: string;
}

function fake(headers: Record<string, string[]>): { req: IncomingMessage; res: ServerResponse; out: Written } {
  const out: Written = { headers: {}, body: '' };
  const res = Object.assign(new EventEmitter(), {
    headersSent: false,
    writableEnded: false,
    destroyed: false,
    writeHead(code: number, h: Record<string, unknown>) {
      out.code = code;
      Object.assign(out.headers, h);
      return this;
    },
    setHeader(name: string, v: unknown) {
      out.headers[name] = v;
    },
    getHeader(name: string) {
      return out.headers[name];
    },
    end(body?: string) {
      out.body += body ?? '';
    },
  }) as unknown as ServerResponse;
  const joined = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.join(', ')]));
  const req = { method: 'GET', url: '/api/v1/namespaces?limit=1', headers: joined, headersDistinct: headers, socket: {} } as unknown as IncomingMessage;
  return { req, res, out };
}

test('in the chain: the handler and authorization see the impersonated user; refusals are 403, bad combinations 500', async () => {
  const seen: RequestAttributes[] = [];
  // bob may impersonate users and groups, not uids.
  const chain = buildHandlerChain(async (ctx) => void ctx.res.end(JSON.stringify(ctx.user)), {
    authenticator: () => bob,
    authorizer: (attrs) => {
      seen.push(attrs);
      return attrs.resource === 'uids' ? forbiddenError(attrs) : undefined;
    },
  });
  const ok = fake({ 'impersonate-user': ['jane'], 'impersonate-group': ['devs', 'ops'] });
  await chain(newRequestContext(ok.req, ok.res, ''));
  assert.deepEqual(JSON.parse(ok.out.body), { name: 'jane', groups: ['devs', 'ops', 'system:authenticated'] });
  assert.deepEqual(
    seen.map((a) => [a.user.name, a.verb, a.resource, a.name]),
    [
      ['bob', 'impersonate', 'users', 'jane'],
      ['bob', 'impersonate', 'groups', 'devs'],
      ['bob', 'impersonate', 'groups', 'ops'],
      ['jane', 'list', 'namespaces', ''],
    ],
  );

  const denied = fake({ 'impersonate-user': ['jane'], 'impersonate-uid': ['u-1'] });
  await chain(newRequestContext(denied.req, denied.res, ''));
  assert.equal(denied.out.code, 403);
  assert.equal(
    JSON.parse(denied.out.body).message,
    'uids.authentication.k8s.io "u-1" is forbidden: User "bob" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
  );

  const bad = fake({ 'impersonate-group': ['devs'] });
  await chain(newRequestContext(bad.req, bad.res, ''));
  assert.equal(bad.out.code, 500);
  assert.equal(bad.out.headers['Content-Type'], 'text/plain; charset=utf-8');
  assert.equal(bad.out.body, 'Internal Server Error: "/api/v1/namespaces?limit=1": requested [{Group  devs    }] without impersonating a user\n');
});
