// The JWT authenticator against an in-memory issuer: go-oidc's checks (issuer, audience, expiry, algorithm,
// signature, key rotation) and kube's claim mapping (claims with prefixes, CEL for username, groups, uid and
// extra), required claims, claim and user validation rules, with kube's error messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { decodeAuthenticationConfig } from '../../src/auth/authentication-config.js';
import { buildJwtAuthenticators } from '../../src/auth/jwt-authentication.js';
import { JwtAuthenticator, type JwtOutcome } from '../../src/auth/oidc.js';
import { ALL_SIGNING_ALGORITHMS } from '../../src/auth/jwt.js';
import type { HttpGet } from '../../src/auth/oidc-provider.js';

const ISSUER = 'https://issuer.example.com';
const NOW = Date.UTC(2026, 0, 1) ;

function rsaKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

/** An issuer in memory: discovery, and a key set that can change; counts key set fetches. */
function memoryIssuer(keys: { kid: string; key: KeyObject }[]): { get: HttpGet; keys: typeof keys; fetches: () => number } {
  let fetches = 0;
  const state = { keys };
  const get: HttpGet = async (url) => {
    if (url === `${ISSUER}/.well-known/openid-configuration`) return { status: '200 OK', ok: true, body: JSON.stringify({ issuer: ISSUER, jwks_uri: `${ISSUER}/keys` }) };
    if (url === `${ISSUER}/keys`) {
      fetches++;
      return { status: '200 OK', ok: true, body: JSON.stringify({ keys: state.keys.map((k) => ({ ...createPublicKey(k.key).export({ format: 'jwk' }), kid: k.kid, use: 'sig' })) }) };
    }
    return { status: '404 Not Found', ok: false, body: 'nope' };
  };
  return { get, keys: state.keys, fetches: () => fetches };
}

function mint(claims: Record<string, unknown>, key: KeyObject, kid: string, alg = 'RS256'): string {
  const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${enc({ alg, kid, typ: 'JWT' })}.${enc(claims)}`;
  const sig = alg.startsWith('ES') ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }) : sign('sha256', Buffer.from(input), key);
  return `${input}.${sig.toString('base64url')}`;
}

const base = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ iss: ISSUER, aud: 'my-app', sub: 'alice-id', exp: NOW / 1000 + 600, iat: NOW / 1000, ...extra });

function authenticator(configJwt: string, get: HttpGet, signingAlgs: readonly string[] = ALL_SIGNING_ALGORITHMS): JwtAuthenticator {
  const config = decodeAuthenticationConfig(`apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n${configJwt}`);
  return buildJwtAuthenticators(config, signingAlgs, [], { get, now: () => NOW, retryMs: 50 })[0]!.start();
}

async function run(a: JwtAuthenticator, token: string): Promise<JwtOutcome> {
  const r = a.authenticate(token);
  assert.ok(r, 'the token is for this issuer');
  return r;
}

const CONFIG = `- issuer:
    url: ${ISSUER}
    audiences: [my-app, other-app]
    audienceMatchPolicy: MatchAny
  claimValidationRules:
  - {claim: hd, requiredValue: example.com}
  - expression: "claims.?tier.orValue('') != 'banned'"
    message: banned tier
  claimMappings:
    username: {expression: "'oidc:' + claims.preferred_username"}
    groups: {claim: roles, prefix: "oidc:"}
    uid: {expression: "claims.sub"}
    extra:
    - {key: example.com/tier, valueExpression: "claims.?tier.orValue('')"}
    - {key: example.com/scopes, valueExpression: "claims.?scopes.orValue([])"}
  userValidationRules:
  - expression: "!user.username.startsWith('oidc:system:')"
    message: no system users
`;

test('claims map to the user as configured (CEL and claims), with kube\'s extra credential id', async () => {
  const key = rsaKey();
  const issuer = memoryIssuer([{ kid: 'k1', key }]);
  const a = authenticator(CONFIG, issuer.get);
  const r = await run(a, mint(base({ preferred_username: 'alice', roles: ['admin', 'dev'], hd: 'example.com', tier: 'gold', scopes: ['a', '', 'b'], jti: 'j-1' }), key, 'k1'));
  assert.deepEqual(r, {
    user: {
      name: 'oidc:alice',
      groups: ['oidc:admin', 'oidc:dev'],
      uid: 'alice-id',
      extra: { 'authentication.kubernetes.io/credential-id': ['JTI=j-1'], 'example.com/tier': ['gold'], 'example.com/scopes': ['a', 'b'] },
    },
  });
  // A single string is one group; an empty extra value is no extra.
  const r2 = await run(a, mint(base({ preferred_username: 'bob', roles: 'ops', hd: 'example.com', aud: ['x', 'other-app'] }), key, 'k1'));
  assert.deepEqual(r2, { user: { name: 'oidc:bob', groups: ['oidc:ops'], uid: 'alice-id' } });
  // Another issuer's token is not this authenticator's to judge.
  assert.equal(a.authenticate(mint(base({ iss: 'https://elsewhere' }), key, 'k1')), undefined);
  a.stop();
});

test('refusals carry kube\'s messages', async () => {
  const key = rsaKey();
  const issuer = memoryIssuer([{ kid: 'k1', key }]);
  const a = authenticator(CONFIG, issuer.get);
  const ok = { preferred_username: 'alice', hd: 'example.com' };
  const cases: [Record<string, unknown>, string][] = [
    [{ ...ok, aud: 'nope' }, 'oidc: verify token: oidc: expected audience in ["my-app" "other-app"] got ["nope"]'],
    [{ ...ok, exp: NOW / 1000 - 1 }, 'oidc: verify token: oidc: token is expired (Token Expiry: 2025-12-31 23:59:59 +0000 UTC)'],
    [{ ...ok, exp: undefined }, 'oidc: verify token: oidc: token is expired (Token Expiry: 0001-01-01 00:00:00 +0000 UTC)'],
    [{ ...ok, nbf: NOW / 1000 + 3600 }, 'oidc: verify token: oidc: current time 2026-01-01 00:00:00 +0000 UTC before the nbf (not before) time: 2026-01-01 01:00:00 +0000 UTC'],
    [{ preferred_username: 'alice' }, 'oidc: required claim hd not present in ID token'],
    [{ preferred_username: 'alice', hd: 'evil.com' }, 'oidc: required claim hd value does not match. Got = evil.com, want = example.com'],
    [{ ...ok, tier: 'banned' }, "oidc: error evaluating claim validation expression: validation expression 'claims.?tier.orValue('') != 'banned'' failed: banned tier"],
    [{ ...ok, preferred_username: 'system:admin' }, "oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith('oidc:system:')' failed: no system users"],
    [{ hd: 'example.com' }, "oidc: error evaluating username claim expression: expression ''oidc:' + claims.preferred_username' resulted in error: no such key: preferred_username"],
    [{ ...ok, roles: 5 }, 'oidc: parse groups claim "roles": json: cannot unmarshal number into Go value of type string'],
  ];
  for (const [claims, error] of cases) {
    const all = base(claims);
    for (const [k, v] of Object.entries(all)) if (v === undefined) delete all[k];
    assert.deepEqual(await run(a, mint(all, key, 'k1')), { error }, JSON.stringify(claims));
  }
  // A signature by a key the issuer does not publish; the key set is fetched again first (a rotation?).
  const before = issuer.fetches();
  assert.deepEqual(await run(a, mint(base(ok), rsaKey(), 'k1')), { error: 'oidc: verify token: failed to verify signature: failed to verify id token signature' });
  assert.equal(issuer.fetches(), before + 1);
  a.stop();
});

test('key rotation: a token with a new kid makes the key set be fetched again', async () => {
  const k1 = rsaKey();
  const issuer = memoryIssuer([{ kid: 'k1', key: k1 }]);
  const a = authenticator(CONFIG, issuer.get);
  const claims = base({ preferred_username: 'alice', hd: 'example.com' });
  assert.ok('user' in (await run(a, mint(claims, k1, 'k1'))));
  const k2 = rsaKey();
  issuer.keys.splice(0, 1, { kid: 'k2', key: k2 });
  const fetched = issuer.fetches();
  assert.ok('user' in (await run(a, mint(claims, k2, 'k2'))));
  assert.equal(issuer.fetches(), fetched + 1);
  // k1 is gone from the set now.
  assert.ok('error' in (await run(a, mint(claims, k1, 'k1'))));
  a.stop();
});

test('legacy flags: email with email_verified, the issuer prefix, the signing algorithms', async () => {
  const rsa = rsaKey();
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  const issuer = memoryIssuer([{ kid: 'r', key: rsa }, { kid: 'e', key: ec }]);
  const legacy = (claim: string, prefix?: string): string => `- issuer: {url: ${ISSUER}, audiences: [my-app]}\n  claimMappings:\n    username: {claim: ${claim}, prefix: "${prefix ?? `${ISSUER}#`}"}\n`;
  const bySub = authenticator(legacy('sub'), issuer.get, ['RS256']);
  assert.deepEqual(await run(bySub, mint(base(), rsa, 'r')), { user: { name: `${ISSUER}#alice-id`, groups: [] } });
  assert.deepEqual(await run(bySub, mint(base(), ec, 'e', 'ES256')), { error: 'oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256"] got "ES256"' });
  assert.deepEqual(await run(bySub, mint(base({ aud: ['a', 'b'] }), rsa, 'r')), { error: 'oidc: verify token: oidc: expected audience "my-app" got ["a" "b"]' });
  bySub.stop();
  const byEmail = authenticator(legacy('email', ''), issuer.get, ['RS256', 'ES256']);
  assert.deepEqual(await run(byEmail, mint(base({ email: 'a@example.com', email_verified: true }), ec, 'e', 'ES256')), { user: { name: 'a@example.com', groups: [] } });
  assert.deepEqual(await run(byEmail, mint(base({ email: 'a@example.com', email_verified: false }), rsa, 'r')), { error: 'oidc: email not verified' });
  assert.deepEqual(await run(byEmail, mint(base({ email: 'a@example.com' }), rsa, 'r')), { user: { name: 'a@example.com', groups: [] } });
  assert.deepEqual(await run(byEmail, mint(base(), rsa, 'r')), { error: 'oidc: parse username claims "email": claim not present' });
  byEmail.stop();
});

test('discovery: the issuer the document names must be the configured one; retried until it is', async () => {
  let wrong = true;
  const key = rsaKey();
  const good = memoryIssuer([{ kid: 'k', key }]).get;
  const get: HttpGet = async (url) => (wrong && url.endsWith('openid-configuration') ? { status: '200 OK', ok: true, body: JSON.stringify({ issuer: 'https://other', jwks_uri: 'x' }) } : good(url));
  const logs: string[] = [];
  const config = decodeAuthenticationConfig(`apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: ${ISSUER}, audiences: [my-app]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n`);
  const a = buildJwtAuthenticators(config, ALL_SIGNING_ALGORITHMS, [], { get, now: () => NOW, retryMs: 20, log: (m) => logs.push(m) })[0]!.start();
  await a.settled();
  assert.equal(a.healthError(), `oidc: authenticator for issuer "${ISSUER}" is not healthy: oidc: issuer did not match the issuer returned by provider, expected "${ISSUER}" got "https://other"`);
  assert.deepEqual(await run(a, mint(base(), key, 'k')), { error: 'oidc: authenticator not initialized' });
  assert.match(logs[0]!, /^oidc authenticator: initializing plugin: oidc: issuer did not match/);
  wrong = false;
  for (let i = 0; i < 100 && a.healthError() !== undefined; i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(await run(a, mint(base(), key, 'k')), { user: { name: 'alice-id', groups: [] } });
  a.stop();
});

test('discoveryURL: the document is fetched there, and must still name the configured issuer', async () => {
  const key = rsaKey();
  const inner = memoryIssuer([{ kid: 'k', key }]).get;
  const asked: string[] = [];
  const get: HttpGet = async (url) => {
    asked.push(url);
    return url === 'https://oidc.internal/discovery' ? inner(`${ISSUER}/.well-known/openid-configuration`) : inner(url);
  };
  const a = authenticator(`- issuer: {url: ${ISSUER}, discoveryURL: "https://oidc.internal/discovery", audiences: [my-app]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n`, get);
  assert.deepEqual(await run(a, mint(base(), key, 'k')), { user: { name: 'alice-id', groups: [] } });
  assert.deepEqual(asked, ['https://oidc.internal/discovery', `${ISSUER}/keys`]);
  a.stop();
});
