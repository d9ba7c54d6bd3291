import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  authenticate,
  authenticateOrThrow,
  bearerToken,
  loadTokenFile,
  parseCsv,
  parseTokenFile,
  type TokenTable,
} from '../../src/auth/authenticate.js';
import { isStatusError } from '../../src/api/status.js';

const ANON = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

interface FakePeer {
  raw?: Buffer;
  subject?: Record<string, string | string[]>;
  ext_key_usage?: string[];
}

/** A TLS socket as the https server hands it over; counts certificate look-ups. */
function tlsSocket(authorized: boolean, peer: FakePeer) {
  const sock = {
    authorized,
    calls: 0,
    getPeerCertificate() {
      sock.calls++;
      return peer;
    },
  };
  return sock;
}

const certOf = (subject: Record<string, string | string[]>, eku?: string[]): FakePeer => ({
  raw: Buffer.from('der'),
  subject,
  ...(eku ? { ext_key_usage: eku } : {}),
});

function req(opts: { authorization?: string; socket?: object } = {}): IncomingMessage {
  const headers: Record<string, string> = {};
  if (opts.authorization !== undefined) headers.authorization = opts.authorization;
  return { headers, socket: opts.socket ?? {} } as unknown as IncomingMessage;
}

const tokens: TokenTable = new Map([
  ['secret-token', { name: 'alice', uid: 'u-1', groups: ['dev', 'ops'] }],
  ['admin-token', { name: 'root', uid: 'u-0', groups: ['system:masters'] }],
]);

test('no credentials: system:anonymous in system:unauthenticated', () => {
  assert.deepEqual(authenticate(req()), ANON);
  // A TLS connection without a client certificate (Node gives an empty object).
  assert.deepEqual(authenticate(req({ socket: tlsSocket(false, {}) })), ANON);
});

test('no credentials with anonymous auth disabled: rejected', () => {
  assert.equal(authenticate(req(), { anonymous: false }), undefined);
  assert.throws(
    () => authenticateOrThrow(req(), { anonymous: false }),
    (e: unknown) => isStatusError(e) && e.code === 401 && e.status.reason === 'Unauthorized' && e.status.message === 'Unauthorized',
  );
});

test('anonymous conditions (AuthenticationConfiguration anonymous.conditions): anonymous only for those paths', () => {
  const at = (url: string): IncomingMessage => ({ ...req(), url }) as IncomingMessage;
  const opts = { anonymousPaths: ['/livez', '/readyz'] };
  assert.deepEqual(authenticate(at('/livez'), opts), ANON);
  assert.deepEqual(authenticate(at('/readyz?verbose'), opts), ANON);
  assert.equal(authenticate(at('/api'), opts), undefined);
  assert.equal(authenticate(at('/livez/'), opts), undefined);
});

test('verified client certificate: CN is the name, every O a group, plus system:authenticated', () => {
  const socket = tlsSocket(true, certOf({ CN: 'jane', O: ['team-a', 'team-b'] }, ['1.3.6.1.5.5.7.3.2']));
  assert.deepEqual(authenticate(req({ socket })), { name: 'jane', groups: ['team-a', 'team-b', 'system:authenticated'] });

  const single = tlsSocket(true, certOf({ CN: 'kubernetes-admin', O: 'system:masters' }));
  assert.deepEqual(authenticate(req({ socket: single })), { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });

  const noOrg = tlsSocket(true, certOf({ CN: 'bob' }));
  assert.deepEqual(authenticate(req({ socket: noOrg })), { name: 'bob', groups: ['system:authenticated'] });
});

test('system:authenticated is not added twice', () => {
  const socket = tlsSocket(true, certOf({ CN: 'x', O: ['system:authenticated', 'g'] }));
  assert.deepEqual(authenticate(req({ socket })), { name: 'x', groups: ['system:authenticated', 'g'] });
});

test('the certificate outcome is computed once per connection', () => {
  const socket = tlsSocket(true, certOf({ CN: 'jane' }));
  authenticate(req({ socket }));
  authenticate(req({ socket }));
  authenticate(req({ socket }));
  assert.equal(socket.calls, 1);
});

test('an unverified client certificate is 401, not anonymous', () => {
  const socket = tlsSocket(false, certOf({ CN: 'mallory', O: 'system:masters' }));
  assert.equal(authenticate(req({ socket })), undefined);
});

test('a certificate whose extended key usage excludes clientAuth is 401', () => {
  const socket = tlsSocket(true, certOf({ CN: 'srv' }, ['1.3.6.1.5.5.7.3.1']));
  assert.equal(authenticate(req({ socket })), undefined);
  const any = tlsSocket(true, certOf({ CN: 'srv' }, ['2.5.29.37.0']));
  assert.deepEqual(authenticate(req({ socket: any })), { name: 'srv', groups: ['system:authenticated'] });
});

test('a verified certificate without a CN identifies nobody: falls through to token or anonymous', () => {
  const socket = tlsSocket(true, certOf({ O: 'g' }));
  assert.deepEqual(authenticate(req({ socket })), ANON);
  const socket2 = tlsSocket(true, certOf({ O: 'g' }));
  assert.equal(authenticate(req({ socket: socket2, authorization: 'Bearer secret-token' }), { tokens })?.name, 'alice');
});

test('bearer token from the token file', () => {
  assert.deepEqual(authenticate(req({ authorization: 'Bearer secret-token' }), { tokens }), {
    name: 'alice',
    uid: 'u-1',
    groups: ['dev', 'ops', 'system:authenticated'],
  });
  // The scheme is case-insensitive; surrounding space is trimmed; extra words after the token are ignored.
  assert.equal(authenticate(req({ authorization: '  bearer admin-token  ' }), { tokens })?.name, 'root');
  assert.equal(authenticate(req({ authorization: 'BEARER admin-token extra' }), { tokens })?.name, 'root');
});

test('an unknown bearer token is 401, with or without a token file', () => {
  assert.equal(authenticate(req({ authorization: 'Bearer nope' }), { tokens }), undefined);
  assert.equal(authenticate(req({ authorization: 'Bearer nope' })), undefined);
});

test('headers that are not bearer credentials are ignored', () => {
  assert.deepEqual(authenticate(req({ authorization: 'Basic YWxpY2U6cHc=' }), { tokens }), ANON);
  assert.deepEqual(authenticate(req({ authorization: 'Bearer' }), { tokens }), ANON);
  assert.deepEqual(authenticate(req({ authorization: 'Bearer  secret-token' }), { tokens }), ANON);
  assert.deepEqual(authenticate(req({ authorization: '' }), { tokens }), ANON);
});

test('the certificate is tried first; a failed certificate does not stop a valid token', () => {
  const good = tlsSocket(true, certOf({ CN: 'jane' }));
  assert.equal(authenticate(req({ socket: good, authorization: 'Bearer nope' }), { tokens })?.name, 'jane');
  const bad = tlsSocket(false, certOf({ CN: 'mallory' }));
  assert.equal(authenticate(req({ socket: bad, authorization: 'Bearer secret-token' }), { tokens })?.name, 'alice');
  const bad2 = tlsSocket(false, certOf({ CN: 'mallory' }));
  assert.equal(authenticate(req({ socket: bad2, authorization: 'Bearer nope' }), { tokens }), undefined);
});

test('bearerToken parsing', () => {
  assert.equal(bearerToken(undefined), undefined);
  assert.equal(bearerToken('Bearer abc'), 'abc');
  assert.equal(bearerToken('Token abc'), undefined);
  assert.equal(bearerToken('Bearer\tabc'), undefined);
});

test('loadTokenFile reads the kube-apiserver CSV format', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'auth-tokens-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'tokens.csv');
  await writeFile(
    path,
    [
      'tok1,alice,uid-1,"system:masters,dev"',
      'tok2,bob,uid-2',
      '',
      ',nobody,uid-x',
      'tok3,carol,uid-3,single',
      'tok2,bob-again,uid-22,""',
      '"tok,4","dave ""d""",uid-4',
    ].join('\r\n') + '\r\n',
  );
  const table = loadTokenFile(path);
  assert.deepEqual([...table.entries()], [
    ['tok1', { name: 'alice', uid: 'uid-1', groups: ['system:masters', 'dev'] }],
    ['tok2', { name: 'bob-again', uid: 'uid-22', groups: [] }],
    ['tok3', { name: 'carol', uid: 'uid-3', groups: ['single'] }],
    ['tok,4', { name: 'dave "d"', uid: 'uid-4', groups: [] }],
  ]);
  assert.deepEqual(authenticate(req({ authorization: 'Bearer tok1' }), { tokens: table }), {
    name: 'alice',
    uid: 'uid-1',
    groups: ['system:masters', 'dev', 'system:authenticated'],
  });
});

test('token file errors', async (t) => {
  assert.throws(
    () => parseTokenFile('tok,user\n', '/etc/tokens.csv'),
    { message: "token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2" },
  );
  assert.throws(() => parseTokenFile('to"k,user,uid\n'), /bare " in non-quoted-field/);
  assert.throws(() => parseTokenFile('"tok"x,user,uid\n'), /extraneous or missing " in quoted-field/);
  assert.throws(() => parseTokenFile('"tok,user,uid\n'), /extraneous or missing " in quoted-field/);
  const dir = await mkdtemp(join(tmpdir(), 'auth-tokens-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  assert.throws(() => loadTokenFile(join(dir, 'missing.csv')), { code: 'ENOENT' });
});

test('parseCsv', () => {
  assert.deepEqual(parseCsv('a,b\n\nc,"d\ne",\n"x"'), [['a', 'b'], ['c', 'd\ne', ''], ['x']]);
  assert.deepEqual(parseCsv(''), []);
});
