// The serviceaccounts/token subresource over HTTP, against kube-apiserver 1.33's TokenREST: the answer to a
// TokenRequest (defaults, key order, the token's claims), its refusals with their exact Status, binding to a
// Secret, --service-account-max-token-expiration, the routes and discovery entries, and the issuer's OIDC
// discovery documents.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { serviceAccountKeys, type DeferredServiceAccountKeys, type ServiceAccountKeys } from '../../src/auth/service-account-keys.js';
import { issueToken } from '../../src/auth/service-account-token.js';
import { startApi, type Api } from './helpers.js';
import { parseJwt, verifyJwt } from '../../src/auth/jwt.js';
import { envelope, int, msg, str } from '../protobuf/wire-writer.js';

let api: Api;
let capped: Api;
before(async () => {
  api = await startApi();
  capped = await startApi({ serviceAccountTokens: { maxExpirationSeconds: 3600, issuers: ['https://issuer.example', 'https://old.example'], apiAudiences: ['api'] } });
});
after(async () => {
  await api.close();
  await capped.close();
});

const TOKEN = '/api/v1/namespaces/default/serviceaccounts/default/token';
const ISSUER = 'https://kubernetes.default.svc.cluster.local';

const claimsOf = (token: string): Record<string, any> => parseJwt(token)!.claims as Record<string, any>;

function invalid422(name: string, field: string, value: string, detail: string) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `TokenRequest.authentication.k8s.io "${name}" is invalid: ${field}: Invalid value: ${value}: ${detail}`,
    reason: 'Invalid',
    details: { ...(name ? { name } : {}), group: 'authentication.k8s.io', kind: 'TokenRequest', causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${value}: ${detail}`, field }] },
    code: 422,
  };
}

test('a TokenRequest is answered 201 with the defaulted request and a signed token for the ServiceAccount', async () => {
  const sa = (await api.req('GET', '/api/v1/namespaces/default/serviceaccounts/default')).json;
  // What `kubectl create token` sends.
  const r = await api.req('POST', TOKEN, {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec: { audiences: null, expirationSeconds: null, boundObjectRef: null },
    status: { token: '', expirationTimestamp: null },
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.deepEqual(Object.keys(r.json), ['kind', 'apiVersion', 'metadata', 'spec', 'status']);
  assert.deepEqual(Object.keys(r.json.metadata), ['name', 'namespace', 'creationTimestamp']);
  assert.equal(r.json.metadata.name, 'default');
  assert.equal(r.json.metadata.namespace, 'default');
  assert.deepEqual(r.json.spec, { audiences: [ISSUER], expirationSeconds: 3600, boundObjectRef: null });
  assert.deepEqual(Object.keys(r.json.status), ['token', 'expirationTimestamp']);
  assert.equal(Date.parse(r.json.status.expirationTimestamp) - Date.parse(r.json.metadata.creationTimestamp), 3600_000);
  assert.match(r.json.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  const jwt = parseJwt(r.json.status.token)!;
  assert.equal(jwt.header.alg, 'RS256');
  const c = claimsOf(r.json.status.token);
  assert.equal(c['iss'], ISSUER);
  assert.equal(c['sub'], 'system:serviceaccount:default:default');
  assert.deepEqual(c['aud'], [ISSUER]);
  assert.equal(c['exp'] - c['iat'], 3600);
  assert.equal(c['exp'], Date.parse(r.json.status.expirationTimestamp) / 1000);
  assert.deepEqual(c['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'default', uid: sa.metadata.uid } });

  // The published key set verifies it.
  const set = await api.req('GET', '/openid/v1/jwks');
  const key = set.json.keys.find((k: any) => k.kid === jwt.header.kid);
  assert.ok(key, set.text);
  assert.equal(verifyJwt(jwt, createPublicKey({ key, format: 'jwk' })), true);
});

test('an empty body, audiences and a duration asked for; YAML in and out; labels kept, system fields wiped', async () => {
  let r = await api.req('POST', TOKEN, {});
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json.kind, 'TokenRequest');
  assert.equal(r.json.apiVersion, 'authentication.k8s.io/v1');

  r = await api.req('POST', TOKEN, { metadata: { labels: { a: 'b' }, uid: 'mine', name: 'default' }, spec: { audiences: ['vault', 'x'], expirationSeconds: 7200 } });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.metadata.labels, { a: 'b' });
  assert.equal(r.json.metadata.uid, undefined);
  assert.deepEqual(r.json.spec, { audiences: ['vault', 'x'], expirationSeconds: 7200, boundObjectRef: null });
  assert.deepEqual(claimsOf(r.json.status.token)['aud'], ['vault', 'x']);
  assert.equal(claimsOf(r.json.status.token)['exp'] - claimsOf(r.json.status.token)['iat'], 7200);

  r = await api.req('POST', TOKEN, 'apiVersion: authentication.k8s.io/v1\nkind: TokenRequest\nspec:\n  expirationSeconds: 600\n', {
    'Content-Type': 'application/yaml',
    Accept: 'application/yaml',
  });
  assert.equal(r.status, 201, r.text);
  assert.match(r.text, /^apiVersion: authentication.k8s.io\/v1\nkind: TokenRequest\nmetadata:\n/);
  assert.match(r.text, /\n  boundObjectRef: null\n  expirationSeconds: 600\n/);
});

test('a protobuf TokenRequest, as typed Go clients may send it', async () => {
  // TokenRequest{spec{audiences: ["pb"], expirationSeconds: 1200, boundObjectRef{kind: Secret, apiVersion: v1, name: none}}}
  const body = envelope('authentication.k8s.io/v1', 'TokenRequest', [...msg(2, str(1, 'pb'), int(4, 1200), msg(3, str(1, 'Secret'), str(2, 'v1'), str(3, 'none')))]);
  const res = await fetch(api.url + TOKEN, { method: 'POST', body: new Uint8Array(body), headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/json' } });
  const json = (await res.json()) as any;
  assert.equal(res.status, 404, JSON.stringify(json));
  assert.equal(json.message, 'secrets "none" not found');
  const ok = envelope('authentication.k8s.io/v1', 'TokenRequest', [...msg(2, str(1, 'pb'), int(4, 1200))]);
  const r = await fetch(api.url + TOKEN, { method: 'POST', body: new Uint8Array(ok), headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/json' } });
  const out = (await r.json()) as any;
  assert.equal(r.status, 201, JSON.stringify(out));
  assert.deepEqual(out.spec, { audiences: ['pb'], expirationSeconds: 1200, boundObjectRef: null });
});

test('refusals: duration out of range, another name or namespace, a missing ServiceAccount, a wrong body', async () => {
  let r = await api.req('POST', TOKEN, { spec: { expirationSeconds: 599 } });
  assert.deepEqual(r.json, invalid422('', 'spec.expirationSeconds', '599', 'may not specify a duration less than 10 minutes'));
  r = await api.req('POST', TOKEN, { spec: { expirationSeconds: 0 } });
  assert.deepEqual(r.json, invalid422('', 'spec.expirationSeconds', '0', 'may not specify a duration less than 10 minutes'));
  r = await api.req('POST', TOKEN, { spec: { expirationSeconds: 2 ** 32 + 1 } });
  assert.deepEqual(r.json, invalid422('', 'spec.expirationSeconds', '4294967297', 'may not specify a duration larger than 2^32 seconds'));
  r = await api.req('POST', TOKEN, '{"spec":{"expirationSeconds":9223372036854775807}}');
  assert.deepEqual(r.json, invalid422('', 'spec.expirationSeconds', '9223372036854775807', 'may not specify a duration larger than 2^32 seconds'));
  r = await api.req('POST', TOKEN, '{"spec":{"expirationSeconds":-9007199254740993}}');
  assert.deepEqual(r.json, invalid422('', 'spec.expirationSeconds', '-9007199254740993', 'may not specify a duration less than 10 minutes'));

  r = await api.req('POST', TOKEN, { metadata: { name: 'other' } });
  assert.deepEqual(r.json, invalid422('default', 'metadata.name', '"other"', 'must match the service account name if specified'));
  r = await api.req('POST', TOKEN, { metadata: { namespace: 'kube-system' } });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the namespace of the provided object does not match the namespace sent on the request');

  r = await api.req('POST', '/api/v1/namespaces/default/serviceaccounts/nope/token', {});
  assert.equal(r.status, 404);
  assert.deepEqual(r.json.details, { name: 'nope', kind: 'serviceaccounts' });
  assert.equal(r.json.message, 'serviceaccounts "nope" not found');

  r = await api.req('POST', TOKEN, { apiVersion: 'v1', kind: 'TokenRequest' });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the API version in the data (v1) does not match the expected API version (authentication.k8s.io/v1)');
  r = await api.req('POST', TOKEN, { spec: { expirationSeconds: 'long' } });
  assert.equal(r.status, 400);
  assert.equal(
    r.json.message,
    'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64',
  );
  r = await api.req('POST', TOKEN, { spec: { bogus: 1 } });
  assert.equal(r.status, 201);
  assert.equal(r.headers.get('warning'), '299 - "unknown field \\"spec.bogus\\""');
});

test('admission: no tokens in a missing namespace, nor in one being terminated (NamespaceLifecycle)', async () => {
  let r = await api.req('POST', '/api/v1/namespaces/nowhere/serviceaccounts/default/token', {});
  assert.equal(r.status, 404);
  assert.equal(r.json.message, 'namespaces "nowhere" not found');

  assert.equal((await api.req('POST', '/api/v1/namespaces', { metadata: { name: 'ending' } })).status, 201);
  const sa = `/api/v1/namespaces/ending/serviceaccounts`;
  assert.equal((await api.req('POST', sa, { metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status, 201);
  assert.equal((await api.req('DELETE', '/api/v1/namespaces/ending')).status, 200);
  r = await api.req('POST', `${sa}/held/token`, {});
  assert.equal(r.status, 403, r.text);
  // admission.NewForbidden names the body's object, which has no name here.
  assert.deepEqual(r.json, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'serviceaccounts "Unknown" is forbidden: unable to create new content in namespace ending because it is being terminated',
    reason: 'Forbidden',
    details: { name: 'Unknown', kind: 'serviceaccounts', causes: [{ reason: 'NamespaceTerminating', message: 'namespace ending is being terminated', field: 'metadata.namespace' }] },
    code: 403,
  });
  r = await api.req('POST', `${sa}/held/token`, { metadata: { name: 'held' } });
  assert.equal(r.json.message, 'serviceaccounts "held" is forbidden: unable to create new content in namespace ending because it is being terminated');
  await api.req('PATCH', `${sa}/held`, { metadata: { finalizers: null } }, { 'Content-Type': 'application/merge-patch+json' });
});

test('binding: to a Secret (named in the token), not to a missing one or one with another UID; Pods and other kinds are refused', async () => {
  const secret = await api.req('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 'bind-me' } });
  assert.equal(secret.status, 201, secret.text);
  const uid = secret.json.metadata.uid;
  let r = await api.req('POST', TOKEN, { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'bind-me' } } });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.spec.boundObjectRef, { kind: 'Secret', apiVersion: 'v1', name: 'bind-me' });
  assert.deepEqual(claimsOf(r.json.status.token)['kubernetes.io'].secret, { name: 'bind-me', uid });
  r = await api.req('POST', TOKEN, { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'bind-me', uid } } });
  assert.equal(r.status, 201, r.text);

  r = await api.req('POST', TOKEN, { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'bind-me', uid: 'stale' } } });
  assert.equal(r.status, 409);
  assert.equal(
    r.json.message,
    'Operation cannot be fulfilled on Secret "bind-me": the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated',
  );
  assert.deepEqual(r.json.details, { name: 'bind-me', kind: 'Secret' });

  r = await api.req('POST', TOKEN, { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'missing' } } });
  assert.equal(r.status, 404);
  assert.equal(r.json.message, 'secrets "missing" not found');
  r = await api.req('POST', TOKEN, { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-0' } } });
  assert.equal(r.status, 404);
  assert.equal(r.json.message, 'pods "web-0" not found');
  r = await api.req('POST', TOKEN, { spec: { boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'web' } } });
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'cannot bind token to object of type apps/v1, Kind=Deployment');
});

test('--service-account-max-token-expiration shortens with a warning; the first issuer issues; API audiences are the default', async () => {
  const r = await capped.req('POST', TOKEN, { spec: { expirationSeconds: 7200 } });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.headers.get('warning'), '299 - "requested expiration of 7200 seconds shortened to 3600 seconds"');
  assert.equal(r.json.spec.expirationSeconds, 3600);
  assert.deepEqual(r.json.spec.audiences, ['api']);
  assert.equal(claimsOf(r.json.status.token)['iss'], 'https://issuer.example');
  const conf = await capped.req('GET', '/.well-known/openid-configuration');
  assert.equal(conf.json.issuer, 'https://issuer.example');
});

test('routes: only POST on a named ServiceAccount; discovery lists serviceaccounts/token as kube does', async () => {
  for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
    const r = await api.req(method, TOKEN, method === 'GET' || method === 'DELETE' ? undefined : {});
    assert.equal(r.status, 405, `${method}: ${r.text}`);
  }
  const core = await api.req('GET', '/api/v1');
  const names = (core.json.resources as any[]).map((x) => x.name);
  assert.equal(names.indexOf('serviceaccounts/token'), names.indexOf('serviceaccounts') + 1);
  assert.deepEqual(
    (core.json.resources as any[]).find((x) => x.name === 'serviceaccounts/token'),
    { name: 'serviceaccounts/token', singularName: '', namespaced: true, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] },
  );
  const agg = await api.req('GET', '/api', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
  const sa = agg.json.items[0].versions[0].resources.find((x: any) => x.resource === 'serviceaccounts');
  assert.deepEqual(sa.subresources, [{ subresource: 'token', responseKind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] }]);
});

test('OpenAPI: the token route, createCoreV1NamespacedServiceAccountToken, and the TokenRequest types, in v3 and v2', async () => {
  const path = '/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token';
  const v3 = (await api.req('GET', '/openapi/v3/api/v1')).json;
  const post = v3.paths[path].post;
  assert.deepEqual(Object.keys(v3.paths[path]).sort(), ['parameters', 'post']);
  assert.equal(post.operationId, 'createCoreV1NamespacedServiceAccountToken');
  assert.equal(post.description, 'create token of a ServiceAccount');
  assert.deepEqual(post['x-kubernetes-group-version-kind'], { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' });
  assert.equal(post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/io.k8s.api.authentication.v1.TokenRequest');
  assert.deepEqual(Object.keys(post.responses), ['200', '201', '202', '401']);
  const schemas = v3.components.schemas;
  assert.deepEqual(schemas['io.k8s.api.authentication.v1.TokenRequest']['x-kubernetes-group-version-kind'], [{ group: 'authentication.k8s.io', kind: 'TokenRequest', version: 'v1' }]);
  assert.deepEqual(schemas['io.k8s.api.authentication.v1.TokenRequest'].required, ['spec']);
  assert.deepEqual(schemas['io.k8s.api.authentication.v1.TokenRequestSpec'].required, ['audiences']);
  assert.deepEqual(schemas['io.k8s.api.authentication.v1.TokenRequestStatus'].required, ['token', 'expirationTimestamp']);
  const v2 = (await api.req('GET', '/openapi/v2')).json;
  assert.equal(v2.paths[path].post.operationId, 'createCoreV1NamespacedServiceAccountToken');
  assert.ok(v2.definitions['io.k8s.api.authentication.v1.BoundObjectReference']);
});

test('issuer discovery: /.well-known/openid-configuration and /openid/v1/jwks', async () => {
  const conf = await api.req('GET', '/.well-known/openid-configuration');
  assert.equal(conf.status, 200);
  assert.equal(conf.headers.get('content-type'), 'application/json');
  assert.equal(conf.headers.get('cache-control'), 'public, max-age=3600');
  assert.deepEqual(conf.json, {
    issuer: ISSUER,
    jwks_uri: `${api.url.replace('http://', 'https://')}/openid/v1/jwks`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  });
  const set = await api.req('GET', '/openid/v1/jwks');
  assert.equal(set.headers.get('content-type'), 'application/jwk-set+json');
  assert.equal(set.json.keys.length, 1);
  assert.deepEqual(Object.keys(set.json.keys[0]), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
});

test('keys still being generated (a first start): the server serves meanwhile; token requests and the key set wait for them', async () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let give!: (k: ServiceAccountKeys) => void;
  const keys = new Promise<ServiceAccountKeys>((resolve) => (give = resolve));
  const pending = await startApi({ serviceAccountTokens: { keys } });
  try {
    // Started and serving before the key is there.
    assert.equal((await pending.req('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status, 200);
    let answered = false;
    const tokenRequest = pending.req('POST', TOKEN, {}).then((r) => ((answered = true), r));
    const keySet = pending.req('GET', '/openid/v1/jwks');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(answered, false, 'a token request waits for the key');
    const given = serviceAccountKeys(privateKey);
    give(given);
    const r = await tokenRequest;
    assert.equal(r.status, 201, r.text);
    // Signed with the key that came, and published in the key set.
    const jwt = parseJwt(r.json.status.token)!;
    assert.equal(jwt.header.kid, given.signing.kid);
    assert.equal(verifyJwt(jwt, given.verifying[0]!.key), true);
    assert.deepEqual((await keySet).json.keys.map((k: { kid: string }) => k.kid), [given.signing.kid]);
  } finally {
    await pending.close();
  }
});

test('deferred keys (the data directory key of a first start): made once, by the first token request or key set; tokens of a key file verify before', async () => {
  const ec = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  const fromFile = serviceAccountKeys(ec());
  const made = serviceAccountKeys(ec(), fromFile.verifying.map((v) => v.key));
  let makes = 0;
  let give!: () => void;
  const gate = new Promise<void>((resolve) => (give = resolve));
  const keys: DeferredServiceAccountKeys = { verifying: fromFile.verifying, make: async () => (makes++, await gate, made) };
  const deferred = await startApi({ serviceAccountTokens: { keys } });
  try {
    const review = async (token: string) =>
      (await deferred.req('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } })).json.status;
    const sa = (await deferred.req('GET', '/api/v1/namespaces/default/serviceaccounts/default')).json;
    // A token signed with the key file's key, as another server would have issued it.
    const config = { issuers: [ISSUER], apiAudiences: [ISSUER], maxExpirationSeconds: 0, verifying: () => fromFile.verifying, signingKeys: () => fromFile };
    const external = issueToken(config, { namespace: 'default', serviceAccount: { name: 'default', uid: sa.metadata.uid } }, [ISSUER], 3600, Date.now());
    assert.equal((await review(external)).authenticated, true);
    assert.equal(makes, 0, 'nothing made by serving, nor by verifying');
    // The first token request and the key set start the making, once, and wait for it.
    const answers = Promise.all([deferred.req('POST', TOKEN, {}), deferred.req('GET', '/openid/v1/jwks'), deferred.req('POST', TOKEN, {})]);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(makes, 1);
    give();
    const [first, set, second] = await answers;
    assert.equal(first.status, 201, first.text);
    assert.equal(second.status, 201, second.text);
    assert.equal(parseJwt(first.json.status.token)!.header.kid, made.signing.kid);
    assert.deepEqual(set.json.keys.map((k: { kid: string }) => k.kid), made.verifying.map((v) => v.kid));
    assert.equal((await review(first.json.status.token)).authenticated, true);
    assert.equal((await review(external)).authenticated, true);
    assert.equal(makes, 1);
  } finally {
    await deferred.close();
  }
});

test('deferred keys whose making fails: the request that needed them fails, and the next need makes them again', async () => {
  const made = serviceAccountKeys(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey);
  let makes = 0;
  const keys: DeferredServiceAccountKeys = {
    verifying: [],
    make: async () => {
      makes++;
      if (makes === 1) throw new Error('EACCES: permission denied, mkdir pki');
      return made;
    },
  };
  const errors: unknown[] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => void errors.push(args.join(' '));
  const deferred = await startApi({ serviceAccountTokens: { keys } });
  try {
    const first = await deferred.req('POST', TOKEN, {});
    assert.equal(first.status, 500, first.text);
    assert.match(first.json.message, /EACCES/);
    assert.match(String(errors[0]), /the signing key could not be made: EACCES/);
    const second = await deferred.req('POST', TOKEN, {});
    assert.equal(second.status, 201, second.text);
    assert.equal(parseJwt(second.json.status.token)!.header.kid, made.signing.kid);
    assert.equal(makes, 2);
  } finally {
    console.error = log;
    await deferred.close();
  }
});
