// Legacy (Secret-based) ServiceAccount tokens without a server: kube's claim set, the authenticator's checks
// (the Secret holding this very token, the ServiceAccount with the uid named, kube's messages), the implicit
// API audience, and the last-used label written at most once a day.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { parseJwt } from '../../src/auth/jwt.js';
import { serviceAccountKeys } from '../../src/auth/service-account-keys.js';
import { DEFAULT_ISSUER, verifyServiceAccountJwt, type ServiceAccountTokenConfig, type TokenObjectGetter } from '../../src/auth/service-account-token.js';
import { INVALID_SINCE_LABEL, LAST_USED_LABEL, issueLegacyToken, legacyClaims, validateLegacyClaims } from '../../src/auth/legacy-service-account-token.js';
import { authenticateToken } from '../../src/auth/authenticate.js';
import type { JSONObject } from '../../src/util/json.js';

const keys = serviceAccountKeys(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
const config: ServiceAccountTokenConfig = { issuers: [DEFAULT_ISSUER], apiAudiences: [DEFAULT_ISSUER], maxExpirationSeconds: 0, verifying: () => keys.verifying, signingKeys: () => keys };
const SA = { namespace: 'ns1', name: 'builder', uid: 'sa-uid-1' };
const T0 = Date.UTC(2026, 2, 4, 23, 30);

function world(token: string, secretExtra: Record<string, unknown> = {}) {
  const secret: JSONObject = {
    metadata: { name: 'builder-token', namespace: 'ns1', uid: 'secret-uid', ...secretExtra },
    data: { token: Buffer.from(token).toString('base64') },
  };
  const objects: Record<string, JSONObject | undefined> = { 'sa/ns1/builder': { metadata: { name: 'builder', uid: SA.uid } }, 'secret/ns1/builder-token': secret };
  const getter: TokenObjectGetter = { serviceAccount: async (ns, n) => objects[`sa/${ns}/${n}`], secret: async (ns, n) => objects[`secret/${ns}/${n}`] };
  const labelled: Array<[string, string, string, Record<string, string>]> = [];
  const label = async (ns: string, name: string, uid: string, labels: Record<string, string>): Promise<void> => {
    labelled.push([ns, name, uid, labels]);
  };
  return { objects, getter, labelled, label };
}

test('legacy claims: issuer kubernetes/serviceaccount, sub, the four private claims, no expiry or audience', () => {
  assert.deepEqual(legacyClaims(SA, 'builder-token'), {
    iss: 'kubernetes/serviceaccount',
    'kubernetes.io/serviceaccount/namespace': 'ns1',
    'kubernetes.io/serviceaccount/secret.name': 'builder-token',
    'kubernetes.io/serviceaccount/service-account.name': 'builder',
    'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid-1',
    sub: 'system:serviceaccount:ns1:builder',
  });
  const jwt = parseJwt(issueLegacyToken(config, SA, 'builder-token'))!;
  assert.deepEqual(Object.keys(jwt.claims), [
    'iss',
    'kubernetes.io/serviceaccount/namespace',
    'kubernetes.io/serviceaccount/secret.name',
    'kubernetes.io/serviceaccount/service-account.name',
    'kubernetes.io/serviceaccount/service-account.uid',
    'sub',
  ]);
  assert.equal(jwt.header.alg, 'RS256');
  assert.equal(jwt.header.kid, keys.signing.kid);
});

test('legacy token: verified by our keys, standing for the API audiences (asked for another: refused)', () => {
  const token = issueLegacyToken(config, SA, 'builder-token');
  const ok = verifyServiceAccountJwt(token, config);
  assert.ok(ok && 'claims' in ok);
  assert.deepEqual(ok.audiences, [DEFAULT_ISSUER]);
  assert.deepEqual(verifyServiceAccountJwt(token, config, ['vault']), {
    error: 'token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["vault"]',
  });
  const other = serviceAccountKeys(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
  assert.deepEqual(verifyServiceAccountJwt(issueLegacyToken({ ...config, signingKeys: () => other }, SA, 'x'), config), { error: 'invalid signature' });
});

test('legacy validator: the user, and the last-used label written once a day', async () => {
  const token = issueLegacyToken(config, SA, 'builder-token');
  const w = world(token);
  const claims = parseJwt(token)!.claims;
  const r = await validateLegacyClaims(token, claims, w.getter, w.label, T0);
  assert.deepEqual(r, { user: { name: 'system:serviceaccount:ns1:builder', uid: 'sa-uid-1', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1'] } });
  assert.deepEqual(w.labelled, [['ns1', 'builder-token', 'secret-uid', { [LAST_USED_LABEL]: '2026-03-04' }]]);
  // Labelled today (or, with a clock behind, tomorrow): no write.
  for (const day of ['2026-03-04', '2026-03-05']) {
    const again = world(token, { labels: { [LAST_USED_LABEL]: day } });
    assert.ok('user' in (await validateLegacyClaims(token, claims, again.getter, again.label, T0)));
    assert.deepEqual(again.labelled, []);
  }
  const old = world(token, { labels: { [LAST_USED_LABEL]: '2026-03-01' } });
  await validateLegacyClaims(token, claims, old.getter, old.label, T0);
  assert.equal(old.labelled.length, 1);
});

test('legacy validator: kube refusals', async () => {
  const token = issueLegacyToken(config, SA, 'builder-token');
  const claims = parseJwt(token)!.claims;
  const check = async (w: ReturnType<typeof world>, c = claims): Promise<unknown> => validateLegacyClaims(token, c, w.getter, w.label, T0);

  let w = world(token);
  w.objects['secret/ns1/builder-token'] = undefined;
  assert.deepEqual(await check(w), { error: 'Token has been invalidated' });
  assert.deepEqual(await check(world(token, { deletionTimestamp: '2026-03-04T00:00:00Z' })), { error: 'Token has been invalidated' });
  assert.deepEqual(await check(world('another token')), { error: "Token does not match server's copy" });
  w = world(token);
  w.objects['sa/ns1/builder'] = undefined;
  assert.deepEqual(await check(w), { error: 'serviceaccounts "builder" not found' });
  w = world(token);
  w.objects['sa/ns1/builder'] = { metadata: { uid: 'recreated' } };
  assert.deepEqual(await check(w), { error: 'ServiceAccount UID (recreated) does not match claim (sa-uid-1)' });
  w = world(token);
  w.objects['sa/ns1/builder'] = { metadata: { uid: SA.uid, deletionTimestamp: '2026-03-04T00:00:00Z' } };
  assert.deepEqual(await check(w), { error: 'ServiceAccount ns1/builder has been deleted' });
  assert.deepEqual(await check(world(token), { ...claims, sub: 'system:serviceaccount:ns1:other' }), { error: 'sub claim is invalid' });
  assert.deepEqual(await check(world(token), { ...claims, 'kubernetes.io/serviceaccount/secret.name': '' }), { error: 'secretName claim is missing' });
  // Marked invalid by the cleaner: refused, and still labelled as used.
  w = world(token, { labels: { [INVALID_SINCE_LABEL]: '2026-01-01' } });
  const r = (await check(w)) as { error: string };
  assert.match(r.error, /^the token in secret ns1\/builder-token for service account ns1\/builder has been marked invalid\. .*remove the 'kubernetes\.io\/legacy-token-invalid-since' label/);
  assert.equal(w.labelled.length, 1);
});

test('TokenReview path: a legacy token authenticates with the API audiences', async () => {
  const token = issueLegacyToken(config, SA, 'builder-token');
  const w = world(token);
  const r = await authenticateToken(token, [], { apiAudiences: config.apiAudiences, serviceAccounts: { config, getter: w.getter, labelSecret: w.label, now: () => T0 } });
  assert.equal(r.user?.name, 'system:serviceaccount:ns1:builder');
  assert.deepEqual(r.user?.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated']);
  assert.deepEqual(r.audiences, [DEFAULT_ISSUER]);
  assert.deepEqual(await authenticateToken(token, ['vault'], { apiAudiences: config.apiAudiences, serviceAccounts: { config, getter: w.getter } }), {
    error: 'token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["vault"]',
  });
});
