// --authentication-config: strict decoding of AuthenticationConfiguration, kube's validation messages
// (pkg/apis/apiserver/validation), CEL compilation errors, and the legacy --oidc-* flags as kube maps them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregate } from '../../src/api/field-error.js';
import { decodeAuthenticationConfig, jwtAuthenticatorFromFlags, validateOidcFlags, type AuthenticationConfiguration } from '../../src/auth/authentication-config.js';
import { validateAuthenticationConfiguration, validateJwtAuthenticator } from '../../src/auth/authentication-config-validation.js';
import { setUpJwtAuthentication } from '../../src/auth/jwt-authentication.js';

const yaml = (jwt: string, version = 'v1beta1'): string => `apiVersion: apiserver.config.k8s.io/${version}\nkind: AuthenticationConfiguration\njwt:\n${jwt}`;

const GOOD = `- issuer:
    url: https://issuer.example.com
    audiences: [my-app]
  claimMappings:
    username: {claim: sub, prefix: "oidc:"}
`;

/** The aggregate message validation gives for a config whose jwt list is `jwt`. */
const errorsOf = (jwt: string): string => {
  const errs = validateAuthenticationConfiguration(decodeAuthenticationConfig(yaml(jwt)));
  return errs.length === 0 ? '' : aggregate(errs);
};

test('decoding: both versions 1.33 serves, strictly', () => {
  for (const v of ['v1beta1', 'v1alpha1']) {
    const c = decodeAuthenticationConfig(yaml(GOOD, v));
    assert.equal(c.jwt[0]!.issuer.url, 'https://issuer.example.com');
    assert.equal(c.jwt[0]!.claimMappings.username.prefix, 'oidc:');
    assert.equal(c.jwt[0]!.claimMappings.groups?.prefix, undefined, 'an unset prefix stays unset (a pointer in kube)');
  }
  assert.throws(() => decodeAuthenticationConfig(yaml(GOOD, 'v1')), /no kind "AuthenticationConfiguration" is registered for version "apiserver.config.k8s.io\/v1"/);
  assert.throws(() => decodeAuthenticationConfig(yaml(GOOD + '  claimMapping: {}\n')), /^Error: strict decoding error: unknown field "jwt\[0\].claimMapping"$/);
  assert.throws(() => decodeAuthenticationConfig(yaml(GOOD.replace('url: https://issuer.example.com', 'url: 5'))), /cannot unmarshal number into Go struct field Issuer.jwt\[0\].issuer.url of type string/);
  assert.throws(() => decodeAuthenticationConfig(''), /empty config data/);
  assert.throws(() => decodeAuthenticationConfig('kind: AuthenticationConfiguration\n'), /Object 'apiVersion' is missing/);
});

test('validation: the issuer', () => {
  assert.equal(errorsOf(GOOD), '');
  assert.equal(
    errorsOf(GOOD.replace('https://issuer.example.com', 'http://issuer.example.com?x=1#f')),
    '[jwt[0].issuer.url: Invalid value: "http://issuer.example.com?x=1#f": URL scheme must be https, jwt[0].issuer.url: Invalid value: "http://issuer.example.com?x=1#f": URL must not contain a query, jwt[0].issuer.url: Invalid value: "http://issuer.example.com?x=1#f": URL must not contain a fragment]',
  );
  assert.equal(errorsOf(GOOD.replace('url: https://issuer.example.com', 'url: ""')), 'jwt[0].issuer.url: Required value: URL is required');
  assert.equal(errorsOf(GOOD.replace('audiences: [my-app]', 'audiences: []')), 'jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required');
  assert.equal(
    errorsOf(GOOD.replace('audiences: [my-app]', 'audiences: [a, b, a]')),
    '[jwt[0].issuer.audiences[2]: Duplicate value: "a", jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences]',
  );
  assert.equal(errorsOf(GOOD.replace('audiences: [my-app]', 'audiences: [a, b]\n    audienceMatchPolicy: MatchAny')), '');
  assert.equal(
    errorsOf(GOOD.replace('audiences: [my-app]', 'audiences: [a]\n    discoveryURL: https://issuer.example.com/')),
    'jwt[0].issuer.discoveryURL: Invalid value: "https://issuer.example.com/": discoveryURL must be different from URL',
  );
  assert.equal(
    errorsOf(GOOD.replace('audiences: [my-app]', 'audiences: [a]\n    certificateAuthority: nope')),
    'jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates',
  );
  assert.equal(errorsOf(GOOD + GOOD), 'jwt[1].issuer.url: Duplicate value: "https://issuer.example.com"');
});

test('validation: claim mappings and rules', () => {
  assert.equal(errorsOf(GOOD.replace('username: {claim: sub, prefix: "oidc:"}', 'username: {claim: sub}')), 'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing');
  assert.equal(errorsOf(GOOD.replace('username: {claim: sub, prefix: "oidc:"}', 'username: {}')), 'jwt[0].claimMappings.username: Required value: claim or expression is required');
  assert.equal(
    errorsOf(GOOD.replace('username: {claim: sub, prefix: "oidc:"}', 'username: {claim: sub, expression: claims.sub}')),
    'jwt[0].claimMappings.username: Invalid value: "": claim and expression can\'t both be set',
  );
  assert.equal(
    errorsOf(GOOD.replace('username: {claim: sub, prefix: "oidc:"}', 'username: {expression: claims.email}')),
    'jwt[0].claimMappings.username.expression: Invalid value: "claims.email": claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
  );
  // The documented way: a validation rule that reads email_verified.
  assert.equal(
    errorsOf(GOOD.replace('username: {claim: sub, prefix: "oidc:"}', 'username: {expression: claims.email}').replace('  claimMappings:', "  claimValidationRules:\n  - expression: 'claims.?email_verified.orValue(true) == true'\n  claimMappings:")),
    '',
  );
  assert.equal(
    errorsOf(GOOD + "    extra:\n    - {key: example.com/Foo, valueExpression: claims.x}\n    - {key: kubernetes.io/x, valueExpression: claims.x}\n    - {key: nodomain, valueExpression: claims.x}\n    - {key: example.com/y}\n"),
    '[jwt[0].claimMappings.extra[0].key: Invalid value: "example.com/Foo": key must be lowercase, jwt[0].claimMappings.extra[1].key: Invalid value: "kubernetes.io/x": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use, jwt[0].claimMappings.extra[2].key: Invalid value: "nodomain": must be a domain-prefixed path (such as "acme.io/foo"), jwt[0].claimMappings.extra[3].valueExpression: Required value: valueExpression is required]',
  );
  assert.equal(
    errorsOf(GOOD.replace('  claimMappings:', '  claimValidationRules:\n  - {claim: hd, requiredValue: example.com, message: nope}\n  - {expression: claims.hd}\n  - {}\n  claimMappings:')),
    '[jwt[0].claimValidationRules[0].message: Invalid value: "nope": message can\'t be set when claim is set, jwt[0].claimValidationRules[1].expression: Invalid value: "claims.hd": must evaluate to bool, jwt[0].claimValidationRules[2]: Required value: claim or expression is required]',
  );
  assert.equal(
    errorsOf(GOOD + '  userValidationRules:\n  - {expression: "user.username.startsWith(1)"}\n'),
    `jwt[0].userValidationRules[0].expression: Invalid value: "user.username.startsWith(1)": compilation failed: ERROR: <input>:1:25: found no matching overload for 'startsWith' applied to 'string.(int)'\n | user.username.startsWith(1)\n | ........................^`,
  );
  assert.equal(errorsOf(GOOD + "  userValidationRules:\n  - {expression: \"!user.username.startsWith('system:')\", message: no system users}\n"), '');
});

test('validation: a ServiceAccount issuer may not be a JWT issuer (oidc.New, unprefixed paths)', () => {
  const c = decodeAuthenticationConfig(yaml(GOOD.replace('https://issuer.example.com', 'https://kubernetes.default.svc.cluster.local')));
  assert.equal(
    aggregate(validateJwtAuthenticator(c.jwt[0]!, '', ['https://kubernetes.default.svc.cluster.local']).errors),
    'issuer.url: Invalid value: "https://kubernetes.default.svc.cluster.local": URL must not overlap with disallowed issuers: [https://kubernetes.default.svc.cluster.local]',
  );
});

test('startup: a JWT issuer that is a ServiceAccount issuer stops the server with oidc.New\'s unprefixed message', () => {
  const dir = mkdtempSync(join(tmpdir(), 'authn-'));
  try {
    const path = join(dir, 'authn.yaml');
    writeFileSync(path, yaml(GOOD.replace('https://issuer.example.com', 'https://kubernetes.default.svc.cluster.local')));
    assert.throws(
      () => setUpJwtAuthentication({ configFile: path, serviceAccountIssuers: ['https://kubernetes.default.svc.cluster.local'] }),
      /^Error: issuer\.url: Invalid value: "https:\/\/kubernetes\.default\.svc\.cluster\.local": URL must not overlap with disallowed issuers: \[https:\/\/kubernetes\.default\.svc\.cluster\.local\]$/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('validation: anonymous conditions need enabled', () => {
  const c: AuthenticationConfiguration = { jwt: [], anonymous: { enabled: false, conditions: [{ path: '/livez' }] } };
  assert.equal(
    aggregate(validateAuthenticationConfiguration(c)),
    'anonymous.conditions: Invalid value: []apiserver.AnonymousAuthCondition{apiserver.AnonymousAuthCondition{Path:"/livez"}}: enabled should be set to true when conditions are defined',
  );
});

test('legacy --oidc-* flags: the authenticator kube builds, and the flag rules', () => {
  const a = jwtAuthenticatorFromFlags({ issuerURL: 'https://i.example', clientID: 'kubernetes', groupsClaim: 'groups', requiredClaims: { hd: 'example.com' } })!;
  assert.deepEqual(a, {
    issuer: { url: 'https://i.example', audiences: ['kubernetes'] },
    claimMappings: { username: { claim: 'sub', prefix: 'https://i.example#' }, groups: { claim: 'groups', prefix: '' } },
    claimValidationRules: [{ claim: 'hd', requiredValue: 'example.com' }],
  });
  assert.equal(jwtAuthenticatorFromFlags({ issuerURL: 'https://i.example', clientID: 'k', usernameClaim: 'email' })!.claimMappings.username.prefix, '');
  assert.equal(jwtAuthenticatorFromFlags({ issuerURL: 'https://i.example', clientID: 'k', usernamePrefix: '-' })!.claimMappings.username.prefix, '');
  assert.equal(jwtAuthenticatorFromFlags({ issuerURL: 'https://i.example', clientID: 'k', usernamePrefix: 'x:' })!.claimMappings.username.prefix, 'x:');
  assert.deepEqual(validateOidcFlags({ issuerURL: 'https://i.example' }, true, undefined), ['oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set']);
  assert.deepEqual(validateOidcFlags({ issuerURL: 'https://i.example', clientID: 'k' }, true, '/x.yaml'), ['authentication-config file and oidc-* flags are mutually exclusive']);
  assert.throws(() => setUpJwtAuthentication({ configFile: '/nonexistent.yaml', oidc: { clientID: 'k' }, oidcFlagsSet: true }), /^Error: authentication-config file and oidc-\* flags are mutually exclusive$/);
  assert.throws(
    () => setUpJwtAuthentication({ oidc: { issuerURL: 'http://i.example', clientID: 'k' }, oidcFlagsSet: true }),
    /^Error: invalid authentication configuration: jwt\[0\]\.issuer\.url: Invalid value: "http:\/\/i\.example": URL scheme must be https$/,
  );
  assert.throws(() => setUpJwtAuthentication({ oidc: { issuerURL: 'https://i.example', clientID: 'k', signingAlgs: ['HS256'] }, oidcFlagsSet: true }), /oidc: unsupported signing alg: "HS256"/);
  assert.throws(() => setUpJwtAuthentication({ oidc: { issuerURL: 'https://i.example', clientID: 'k', caFile: '/nonexistent/ca.crt' }, oidcFlagsSet: true }), /^Error: open \/nonexistent\/ca.crt: no such file or directory$/);
  assert.throws(
    () => setUpJwtAuthentication({ configFile: '/nonexistent/authn.yaml' }),
    /^Error: failed to load authentication configuration from file "\/nonexistent\/authn.yaml": open \/nonexistent\/authn.yaml: no such file or directory$/,
  );
});
