// ServiceAccount tokens without a server: the JWS form and its signature checks, kube's claims, the
// authenticator's checks (issuer, key, audience, times with a minute of leeway, the objects named still
// existing with their UIDs), the user they stand for, the key files, and the issuer discovery documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyId, parseJwt, signJwt, verifyJwt } from '../../src/auth/jwt.js';
import { generatedKeys, loadServiceAccountKeys, publicKeysFromPem, serviceAccountKeys, type ServiceAccountKeys } from '../../src/auth/service-account-keys.js';
import {
  DEFAULT_ISSUER,
  issueToken,
  tokenClaims,
  validateServiceAccountClaims,
  verifyServiceAccountJwt,
  type ServiceAccountTokenConfig,
  type TokenObjectGetter,
} from '../../src/auth/service-account-token.js';
import { authenticate } from '../../src/auth/authenticate.js';
import { jwks, openIDConfiguration } from '../../src/auth/openid-metadata.js';
import { TokenCache } from '../../src/auth/token-cache.js';
import type { JSONObject } from '../../src/util/json.js';

const rsa = (): KeyObject => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const ec = (): KeyObject => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;

function configWith(keys: ServiceAccountKeys, over: Partial<ServiceAccountTokenConfig> = {}): ServiceAccountTokenConfig {
  return { issuers: [DEFAULT_ISSUER], apiAudiences: [DEFAULT_ISSUER], maxExpirationSeconds: 0, verifying: () => keys.verifying, signingKeys: () => keys, ...over };
}

const SA_UID = '11111111-2222-3333-4444-555555555555';
const SECRET_UID = '99999999-8888-7777-6666-555555555555';
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

function getterOf(objects: Record<string, JSONObject>): TokenObjectGetter {
  return {
    serviceAccount: async (ns, name) => objects[`sa/${ns}/${name}`],
    secret: async (ns, name) => objects[`secret/${ns}/${name}`],
  };
}
const obj = (uid: string, extra: JSONObject = {}): JSONObject => ({ metadata: { uid, ...extra } });

test('claims: kube sorted claim set, sub, aud, iat = nbf, exp after the duration, a jti, the private claim', () => {
  const c = tokenClaims({ namespace: 'ns1', serviceAccount: { name: 'builder', uid: SA_UID } }, ['a', 'b'], 3600, DEFAULT_ISSUER, T0 + 999);
  assert.deepEqual(Object.keys(c), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
  assert.deepEqual(c['aud'], ['a', 'b']);
  assert.equal(c['iat'], T0 / 1000);
  assert.equal(c['nbf'], T0 / 1000);
  assert.equal(c['exp'], T0 / 1000 + 3600);
  assert.equal(c['iss'], DEFAULT_ISSUER);
  assert.equal(c['sub'], 'system:serviceaccount:ns1:builder');
  assert.match(String(c['jti']), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual(c['kubernetes.io'], { namespace: 'ns1', serviceaccount: { name: 'builder', uid: SA_UID } });
  const bound = tokenClaims({ namespace: 'ns1', serviceAccount: { name: 'builder', uid: SA_UID }, secret: { name: 's', uid: SECRET_UID } }, ['a'], 600, DEFAULT_ISSUER, T0);
  assert.deepEqual(bound['kubernetes.io'], { namespace: 'ns1', secret: { name: 's', uid: SECRET_UID }, serviceaccount: { name: 'builder', uid: SA_UID } });
});

test('JWS: RS256 and ES256 tokens verify with their key only; a changed payload, another key or another alg do not', () => {
  for (const [key, alg] of [[rsa(), 'RS256'], [ec(), 'ES256']] as const) {
    const kid = keyId(key);
    const token = signJwt({ sub: 'x', b: 1, a: { z: 1, y: 2 } }, key, kid);
    const jwt = parseJwt(token)!;
    assert.deepEqual(jwt.header, { alg, kid });
    // go-jose writes the claims as a sorted map.
    assert.equal(Buffer.from(token.split('.')[1]!, 'base64url').toString(), '{"a":{"y":2,"z":1},"b":1,"sub":"x"}');
    assert.equal(verifyJwt(jwt, createPublicKey(key)), true);
    assert.equal(verifyJwt(jwt, createPublicKey(alg === 'RS256' ? rsa() : ec())), false);
    const [h, , s] = token.split('.');
    const forged = parseJwt(`${h}.${Buffer.from('{"sub":"admin"}').toString('base64url')}.${s}`)!;
    assert.equal(verifyJwt(forged, createPublicKey(key)), false);
    for (const other of ['none', 'HS256', alg === 'RS256' ? 'ES256' : 'RS256']) {
      assert.equal(verifyJwt({ ...jwt, header: { ...jwt.header, alg: other } }, createPublicKey(key)), false, other);
    }
  }
  for (const bad of ['', 'a.b', 'a.b.c.d', 'not a jwt', '!!!.e30.', 'e30.W10.']) assert.equal(parseJwt(bad), undefined, bad);
});

test('key id: the unpadded base64url SHA-256 of the public key DER, the same for the private and public halves', () => {
  const key = rsa();
  const der = createPublicKey(key).export({ type: 'spki', format: 'der' });
  assert.equal(keyId(key), createHash('sha256').update(der).digest('base64url'));
  assert.equal(keyId(createPublicKey(key)), keyId(key));
  assert.match(keyId(key), /^[A-Za-z0-9_-]{43}$/);
});

test('verification: another issuer is not ours; an unknown key, a foreign audience are refused', () => {
  const keys = serviceAccountKeys(rsa());
  const config = configWith(keys);
  const subject = { namespace: 'default', serviceAccount: { name: 'default', uid: SA_UID } };
  const good = issueToken(config, subject, [DEFAULT_ISSUER], 3600, T0);
  const ok = verifyServiceAccountJwt(good, config);
  assert.ok(ok && 'claims' in ok);

  assert.equal(verifyServiceAccountJwt('garbage', config), undefined);
  const otherIssuer = issueToken(configWith(keys, { issuers: ['https://elsewhere'] }), subject, [DEFAULT_ISSUER], 3600, T0);
  assert.equal(verifyServiceAccountJwt(otherIssuer, config), undefined);

  const foreignKey = issueToken(configWith(serviceAccountKeys(rsa())), subject, [DEFAULT_ISSUER], 3600, T0);
  assert.deepEqual(verifyServiceAccountJwt(foreignKey, config), { error: 'invalid signature' });

  const otherAudience = issueToken(config, subject, ['vault'], 3600, T0);
  assert.deepEqual(verifyServiceAccountJwt(otherAudience, config), {
    error: 'token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]',
  });
  // One audience in common is enough.
  assert.ok('claims' in verifyServiceAccountJwt(issueToken(config, subject, ['vault', DEFAULT_ISSUER], 3600, T0), config)!);

  // A second, verification-only key (a rotation) is accepted too.
  const old = rsa();
  const rotated = configWith(serviceAccountKeys(rsa(), [createPublicKey(old)]));
  const byOld = issueToken(configWith(serviceAccountKeys(old)), subject, [DEFAULT_ISSUER], 3600, T0);
  assert.ok('claims' in verifyServiceAccountJwt(byOld, rotated)!);
});

test('validation: times with a minute of leeway, the ServiceAccount and the bound Secret by name and UID', async () => {
  const keys = serviceAccountKeys(rsa());
  const config = configWith(keys);
  const claimsOf = (token: string): Record<string, unknown> => (verifyServiceAccountJwt(token, config) as { claims: Record<string, unknown> }).claims;
  const subject = { namespace: 'default', serviceAccount: { name: 'robot', uid: SA_UID } };
  const claims = claimsOf(issueToken(config, subject, [DEFAULT_ISSUER], 600, T0));
  const live = getterOf({ 'sa/default/robot': obj(SA_UID) });

  const r = await validateServiceAccountClaims(claims, live, T0 + 1000);
  assert.deepEqual(r, {
    user: {
      name: 'system:serviceaccount:default:robot',
      uid: SA_UID,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default'],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${String(claims['jti'])}`] },
    },
  });
  // Expiry and not-before, each with go-jose's 60 s of leeway.
  assert.ok('user' in (await validateServiceAccountClaims(claims, live, T0 + 660_000)));
  assert.deepEqual(await validateServiceAccountClaims(claims, live, T0 + 661_000), { error: 'service account token has expired' });
  assert.ok('user' in (await validateServiceAccountClaims(claims, live, T0 - 60_000)));
  assert.deepEqual(await validateServiceAccountClaims(claims, live, T0 - 61_000), { error: 'service account token is not valid yet' });

  assert.deepEqual(await validateServiceAccountClaims(claims, getterOf({}), T0), { error: 'serviceaccounts "robot" not found' });
  assert.deepEqual(await validateServiceAccountClaims(claims, getterOf({ 'sa/default/robot': obj('other-uid') }), T0), {
    error: `service account UID (other-uid) does not match claim (${SA_UID})`,
  });
  // Being deleted (finalizers pending): still valid for the leeway, then not.
  const deleting = getterOf({ 'sa/default/robot': obj(SA_UID, { deletionTimestamp: new Date(T0).toISOString() }) });
  assert.ok('user' in (await validateServiceAccountClaims(claims, deleting, T0 + 30_000)));
  assert.deepEqual(await validateServiceAccountClaims(claims, deleting, T0 + 61_000), { error: 'service account default/robot has been deleted' });

  const bound = claimsOf(issueToken(config, { ...subject, secret: { name: 'tok', uid: SECRET_UID } }, [DEFAULT_ISSUER], 600, T0));
  assert.ok('user' in (await validateServiceAccountClaims(bound, getterOf({ 'sa/default/robot': obj(SA_UID), 'secret/default/tok': obj(SECRET_UID) }), T0)));
  assert.deepEqual(await validateServiceAccountClaims(bound, live, T0), { error: 'service account token has been invalidated' });
  assert.deepEqual(await validateServiceAccountClaims(bound, getterOf({ 'sa/default/robot': obj(SA_UID), 'secret/default/tok': obj('x') }), T0), {
    error: `secret UID (x) does not match service account secret ref claim (${SECRET_UID})`,
  });
});

const bearer = (token: string): IncomingMessage => ({ headers: { authorization: `Bearer ${token}` }, socket: {} }) as unknown as IncomingMessage;

test('authenticate: a ServiceAccount token is settled asynchronously; static tokens, garbage and no token synchronously', async () => {
  const keys = serviceAccountKeys(ec());
  const config = configWith(keys);
  const getter = getterOf({ 'sa/default/robot': obj(SA_UID) });
  const opts = { tokens: new Map([['static', { name: 'jane', groups: ['dev'] }]]), serviceAccounts: { config, getter, now: () => T0 } };
  const token = issueToken(config, { namespace: 'default', serviceAccount: { name: 'robot', uid: SA_UID } }, [DEFAULT_ISSUER], 3600, T0);

  const pending = authenticate(bearer(token), opts);
  assert.ok(pending instanceof Promise);
  const user = await pending;
  assert.deepEqual(user, {
    name: 'system:serviceaccount:default:robot',
    uid: SA_UID,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${String(parseJwt(token)!.claims['jti'])}`] },
  });
  assert.deepEqual(authenticate(bearer('static'), opts), { name: 'jane', groups: ['dev', 'system:authenticated'] });
  assert.equal(authenticate(bearer('garbage'), opts), undefined);
  assert.deepEqual(authenticate({ headers: {}, socket: {} } as unknown as IncomingMessage, opts), { name: 'system:anonymous', groups: ['system:unauthenticated'] });
  // Refusals, also when the lookup itself fails, are 401s, never anonymous.
  assert.equal(await authenticate(bearer(token), { ...opts, serviceAccounts: { config, getter: getterOf({}), now: () => T0 } }), undefined);
  const failing: TokenObjectGetter = { serviceAccount: () => Promise.reject(new Error('storage down')), secret: () => Promise.reject(new Error('storage down')) };
  assert.equal(await authenticate(bearer(token), { ...opts, serviceAccounts: { config, getter: failing, now: () => T0 } }), undefined);
  assert.equal(await authenticate(bearer(token), { ...opts, serviceAccounts: { config, getter, now: () => T0 + 3661_000 } }), undefined);
});

test('authenticate: a success is remembered for 10 s (kube\'s token cache), answered without a lookup; failures are not', async () => {
  const keys = serviceAccountKeys(ec());
  const config = configWith(keys);
  const objects: Record<string, JSONObject> = { 'sa/default/robot': obj(SA_UID) };
  let lookups = 0;
  const getter: TokenObjectGetter = { serviceAccount: async (ns, name) => (lookups++, objects[`sa/${ns}/${name}`]), secret: async () => undefined };
  let now = T0;
  const opts = { serviceAccounts: { config, getter, now: () => now, cache: new TokenCache() } };
  const token = issueToken(config, { namespace: 'default', serviceAccount: { name: 'robot', uid: SA_UID } }, [DEFAULT_ISSUER], 3600, T0);

  assert.equal((await authenticate(bearer(token), opts))?.name, 'system:serviceaccount:default:robot');
  delete objects['sa/default/robot'];
  now += 9_999;
  const cached = authenticate(bearer(token), opts);
  assert.ok(!(cached instanceof Promise));
  assert.equal(cached?.name, 'system:serviceaccount:default:robot');
  assert.equal(lookups, 1);
  now += 1;
  assert.equal(await authenticate(bearer(token), opts), undefined);
  assert.equal(await authenticate(bearer(token), opts), undefined);
  assert.equal(lookups, 3);
});

test('key files: PEM private keys, public keys and certificates; the data directory key is generated once, 0600', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sa-keys-'));
  try {
    const a = rsa();
    const b = ec();
    const pem = [
      a.export({ type: 'pkcs1', format: 'pem' }),
      createPublicKey(b).export({ type: 'spki', format: 'pem' }),
      'junk between blocks\n',
    ].join('');
    assert.deepEqual(publicKeysFromPem(pem).map((k) => keyId(k)), [keyId(a), keyId(b)]);
    assert.throws(() => publicKeysFromPem('nothing', 'x.pem'), /data does not contain any valid RSA or ECDSA public keys: x.pem/);

    const first = await loadServiceAccountKeys(dir);
    assert.equal((await stat(join(dir, 'pki', 'sa.key'))).mode & 0o777, 0o600);
    assert.equal(keyId(publicKeysFromPem(await readFile(join(dir, 'pki', 'sa.pub'), 'utf8'))[0]!), first.signing.kid);
    const again = await loadServiceAccountKeys(dir);
    assert.equal(again.signing.kid, first.signing.kid);
    assert.equal(first.signing.key.asymmetricKeyType, 'rsa');

    // Flags: a signing key file, and extra verification keys.
    const signingPath = join(dir, 'signing.pem');
    await writeFile(signingPath, b.export({ type: 'sec1', format: 'pem' }));
    const extraPath = join(dir, 'old.pem');
    await writeFile(extraPath, createPublicKey(a).export({ type: 'spki', format: 'pem' }));
    const flagged = await loadServiceAccountKeys(dir, { signingKeyFile: signingPath, keyFiles: [extraPath] });
    assert.equal(flagged.signing.kid, keyId(b));
    assert.deepEqual(flagged.verifying.map((v) => v.kid), [keyId(b), keyId(a)]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('issuer discovery: the OpenID configuration and the JWK set as kube serves them', () => {
  const keys = generatedKeys();
  const e = ec();
  const all = serviceAccountKeys(keys.signing.key, [createPublicKey(e)]);
  assert.deepEqual(openIDConfiguration(DEFAULT_ISSUER, 'https://127.0.0.1:6443/openid/v1/jwks', all.verifying), {
    issuer: DEFAULT_ISSUER,
    jwks_uri: 'https://127.0.0.1:6443/openid/v1/jwks',
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256', 'RS256'],
  });
  const set = jwks(all.verifying);
  assert.deepEqual(Object.keys(set.keys[0]!), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
  assert.deepEqual(Object.keys(set.keys[1]!), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
  assert.equal(set.keys[0]!['kid'], keys.signing.kid);
  assert.equal(set.keys[0]!['e'], 'AQAB');
  // The published key verifies a token the signing key made.
  const published = createPublicKey({ key: set.keys[0] as any, format: 'jwk' });
  const token = signJwt({ sub: 'x' }, keys.signing.key, keys.signing.kid);
  assert.equal(verifyJwt(parseJwt(token)!, published), true);
});
