// ValidateAuthenticationConfiguration and CompileAndValidateJWTAuthenticator (k8s.io/apiserver
// pkg/apis/apiserver/validation), with kube's field paths and messages; compiling the CEL expressions is part
// of validating them, so the compiled mapper comes out of the same pass.
import { X509Certificate } from 'node:crypto';
import { GO_VALUE, duplicate, internalError, invalid, required, tooMany, type FieldError } from '../api/field-error.js';
import { isDNS1123Subdomain, regexError } from '../schema/names.js';
import type { AuthenticationConfiguration, JWTAuthenticator, PrefixedClaimOrExpression } from './authentication-config.js';
import { compileJwtExpression, selectsClaim, type CompiledJwtExpression, type JwtCelError, type JwtCelVariable } from './jwt-cel.js';

/** kube's CELMapper: what each part of the authenticator compiled to. */
export interface JwtCelMapper {
  username?: CompiledJwtExpression;
  groups?: CompiledJwtExpression;
  uid?: CompiledJwtExpression;
  extra: { key: string; compiled: CompiledJwtExpression }[];
  claimValidationRules: { compiled: CompiledJwtExpression; message: string }[];
  userValidationRules: { compiled: CompiledJwtExpression; message: string }[];
}

const MAX_JWT_AUTHENTICATORS = 64;

/** ValidateAuthenticationConfiguration: every authenticator (paths under jwt[i]), unique issuers, anonymous. */
export function validateAuthenticationConfiguration(c: AuthenticationConfiguration, disallowedIssuers: readonly string[] = []): FieldError[] {
  if (c.jwt.length > MAX_JWT_AUTHENTICATORS) return [tooMany('jwt', c.jwt.length, MAX_JWT_AUTHENTICATORS)];
  const errs: FieldError[] = [];
  const issuers = new Set<string>();
  const discoveryURLs = new Set<string>();
  c.jwt.forEach((a, i) => {
    const at = `jwt[${i}]`;
    errs.push(...validateJwtAuthenticator(a, at, disallowedIssuers).errors);
    if (issuers.has(a.issuer.url)) errs.push(duplicate(`${at}.issuer.url`, a.issuer.url));
    issuers.add(a.issuer.url);
    const d = a.issuer.discoveryURL ?? '';
    if (d !== '') {
      if (discoveryURLs.has(d)) errs.push(duplicate(`${at}.issuer.discoveryURL`, d));
      discoveryURLs.add(d);
    }
  });
  if (c.anonymous && !c.anonymous.enabled && (c.anonymous.conditions?.length ?? 0) > 0) {
    const conditions = c.anonymous.conditions!;
    const shown = `[]apiserver.AnonymousAuthCondition{${conditions.map((x) => `apiserver.AnonymousAuthCondition{Path:${JSON.stringify(x.path)}}`).join(', ')}}`;
    errs.push(invalid('anonymous.conditions', { [GO_VALUE]: shown }, 'enabled should be set to true when conditions are defined'));
  }
  return errs;
}

/**
 * validateJWTAuthenticator: the issuer, then claim validation rules, claim mappings and user validation rules,
 * compiling each expression. `path` is '' for CompileAndValidateJWTAuthenticator (kube's nil path).
 */
export function validateJwtAuthenticator(a: JWTAuthenticator, path: string, disallowedIssuers: readonly string[] = []): { mapper: JwtCelMapper; errors: FieldError[] } {
  const p = (child: string): string => (path ? `${path}.${child}` : child);
  const state: State = { mapper: { extra: [], claimValidationRules: [], userValidationRules: [] }, usesEmail: false, usesEmailVerified: false };
  const errors = [
    ...validateIssuer(a, p('issuer'), disallowedIssuers),
    ...validateClaimValidationRules(a, p('claimValidationRules'), state),
    ...validateClaimMappings(a, p('claimMappings'), state),
    ...validateUserValidationRules(a, p('userValidationRules'), state),
  ];
  return { mapper: state.mapper, errors };
}

interface State {
  mapper: JwtCelMapper;
  usesEmail: boolean;
  usesEmailVerified: boolean;
}

function validateIssuer(a: JWTAuthenticator, path: string, disallowed: readonly string[]): FieldError[] {
  const { url, discoveryURL = '', audiences, audienceMatchPolicy = '', certificateAuthority = '' } = a.issuer;
  const errs: FieldError[] = [];
  if (url === '') errs.push(required(`${path}.url`, 'URL is required'));
  else errs.push(...validateURL(url, disallowed, `${path}.url`));
  if (discoveryURL !== '') {
    if (url !== '' && url.replace(/\/+$/, '') === discoveryURL.replace(/\/+$/, '')) errs.push(invalid(`${path}.discoveryURL`, discoveryURL, 'discoveryURL must be different from URL'));
    errs.push(...validateURL(discoveryURL, [], `${path}.discoveryURL`));
  }
  errs.push(...validateAudiences(audiences, audienceMatchPolicy, `${path}.audiences`, `${path}.audienceMatchPolicy`));
  if (certificateAuthority !== '') {
    const err = caPoolError(certificateAuthority);
    if (err) errs.push(invalid(`${path}.certificateAuthority`, '<omitted>', err));
  }
  return errs;
}

/** What Go's url.Parse makes of the parts validateURL looks at (it accepts relative references). */
function parseGoUrl(raw: string): { error: string } | { scheme: string; user: boolean; query: string; fragment: string } {
  if (/[\x00-\x1f\x7f]/.test(raw)) return { error: `parse ${JSON.stringify(raw)}: net/url: invalid control character in URL` };
  const hash = raw.indexOf('#');
  const fragment = hash >= 0 ? raw.slice(hash + 1) : '';
  let rest = hash >= 0 ? raw.slice(0, hash) : raw;
  if (rest.startsWith(':')) return { error: `parse ${JSON.stringify(raw)}: missing protocol scheme` };
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  const scheme = m ? m[1]!.toLowerCase() : '';
  if (m) rest = rest.slice(m[0].length);
  const q = rest.indexOf('?');
  const query = q >= 0 ? rest.slice(q + 1) : '';
  if (q >= 0) rest = rest.slice(0, q);
  let user = false;
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split('/')[0]!;
    user = authority.includes('@');
  }
  return { scheme, user, query, fragment };
}

function validateURL(url: string, disallowed: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (disallowed.includes(url)) errs.push(invalid(path, url, `URL must not overlap with disallowed issuers: [${[...new Set(disallowed)].sort().join(' ')}]`));
  const u = parseGoUrl(url);
  if ('error' in u) return [...errs, invalid(path, url, u.error)];
  if (u.scheme !== 'https') errs.push(invalid(path, url, 'URL scheme must be https'));
  if (u.user) errs.push(invalid(path, url, 'URL must not contain a username or password'));
  if (u.query.length > 0) errs.push(invalid(path, url, 'URL must not contain a query'));
  if (u.fragment.length > 0) errs.push(invalid(path, url, 'URL must not contain a fragment'));
  return errs;
}

function validateAudiences(audiences: readonly string[], policy: string, path: string, policyPath: string): FieldError[] {
  if (audiences.length === 0) return [required(path, `at least one ${path} is required`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  audiences.forEach((aud, i) => {
    if (aud === '') errs.push(required(`${path}[${i}]`, "audience can't be empty"));
    if (seen.has(aud)) errs.push(duplicate(`${path}[${i}]`, aud));
    seen.add(aud);
  });
  if (audiences.length > 1 && policy !== 'MatchAny') errs.push(invalid(policyPath, policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
  if (audiences.length === 1 && policy !== '' && policy !== 'MatchAny') errs.push(invalid(policyPath, policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
  return errs;
}

/** cert.NewPoolFromBytes: at least one PEM certificate, each of which parses. */
export function caPoolError(pem: string): string | undefined {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return 'data does not contain any valid RSA or ECDSA certificates';
  for (const b of blocks) {
    try {
      new X509Certificate(b);
    } catch (e) {
      return `x509: malformed certificate: ${(e as Error).message}`;
    }
  }
  return undefined;
}

/** convertCELErrorToValidationError. */
function celFieldError(path: string, expression: string, e: JwtCelError): FieldError {
  return e.type === 'Invalid' ? invalid(path, expression, e.detail) : internalError(path, e.detail);
}

function compileAt(expression: string, variable: JwtCelVariable, returns: 'bool' | 'any', path: string, errs: FieldError[]): CompiledJwtExpression | undefined {
  const c = compileJwtExpression(expression, variable, returns);
  if ('error' in c) {
    errs.push(celFieldError(path, expression, c.error));
    return undefined;
  }
  return c;
}

function validateClaimValidationRules(a: JWTAuthenticator, path: string, state: State): FieldError[] {
  const errs: FieldError[] = [];
  const claims = new Set<string>();
  const expressions = new Set<string>();
  (a.claimValidationRules ?? []).forEach((rule, i) => {
    const at = `${path}[${i}]`;
    const claim = rule.claim ?? '';
    const expression = rule.expression ?? '';
    if (claim && expression) errs.push(invalid(at, claim, "claim and expression can't both be set"));
    else if (!claim && !expression) errs.push(required(at, 'claim or expression is required'));
    else if (claim) {
      if (rule.message) errs.push(invalid(`${at}.message`, rule.message, "message can't be set when claim is set"));
      if (claims.has(claim)) errs.push(duplicate(`${at}.claim`, claim));
      claims.add(claim);
    } else {
      if (rule.requiredValue) errs.push(invalid(`${at}.requiredValue`, rule.requiredValue, "requiredValue can't be set when expression is set"));
      if (expressions.has(expression)) {
        errs.push(duplicate(`${at}.expression`, expression));
        return;
      }
      expressions.add(expression);
      const c = compileAt(expression, 'claims', 'bool', `${at}.expression`, errs);
      if (c) {
        state.mapper.claimValidationRules.push({ compiled: c, message: rule.message ?? '' });
        state.usesEmailVerified ||= selectsClaim(c.ast, 'email_verified');
      }
    }
  });
  return errs;
}

function validatePrefixClaimOrExpression(m: PrefixedClaimOrExpression | undefined, path: string, claimOrExpressionRequired: boolean): { compiled?: CompiledJwtExpression; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const claim = m?.claim ?? '';
  const expression = m?.expression ?? '';
  let compiled: CompiledJwtExpression | undefined;
  if (expression && claim) errors.push(invalid(path, '', "claim and expression can't both be set"));
  else if (!expression && !claim && claimOrExpressionRequired) errors.push(required(path, 'claim or expression is required'));
  else if (expression) {
    if (m?.prefix !== undefined) errors.push(invalid(`${path}.prefix`, m.prefix, "prefix can't be set when expression is set"));
    compiled = compileAt(expression, 'claims', 'any', `${path}.expression`, errors);
  } else if (claim && m?.prefix === undefined) {
    errors.push(required(`${path}.prefix`, 'prefix is required when claim is set. It can be set to an empty string to disable prefixing'));
  }
  return { compiled, errors };
}

const KEY_PATH = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

/** IsDomainPrefixedPath: `<DNS subdomain>/<HTTP path>`. */
function domainPrefixedPathErrors(path: string, key: string): FieldError[] {
  if (key === '') return [required(path)];
  const slash = key.indexOf('/');
  const host = slash >= 0 ? key.slice(0, slash) : key;
  const rest = slash >= 0 ? key.slice(slash + 1) : '';
  if (slash < 0 || host === '' || rest === '') return [invalid(path, key, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((msg) => invalid(path, host, msg));
  if (!KEY_PATH.test(rest)) errs.push(invalid(path, rest, regexError('Invalid path', "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+")));
  return errs;
}

function isKubernetesDomainPrefix(key: string): boolean {
  const slash = key.indexOf('/');
  const domain = slash >= 0 ? key.slice(0, slash) : '';
  return domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io') || domain === 'k8s.io' || domain.endsWith('.k8s.io');
}

function validateClaimMappings(a: JWTAuthenticator, path: string, state: State): FieldError[] {
  const m = a.claimMappings;
  const errs: FieldError[] = [];
  const username = validatePrefixClaimOrExpression(m.username, `${path}.username`, true);
  if (username.errors.length > 0) errs.push(...username.errors);
  else if (username.compiled) {
    state.usesEmail ||= selectsClaim(username.compiled.ast, 'email');
    state.usesEmailVerified ||= selectsClaim(username.compiled.ast, 'email_verified');
    state.mapper.username = username.compiled;
  }
  const groups = validatePrefixClaimOrExpression(m.groups, `${path}.groups`, false);
  if (groups.errors.length > 0) errs.push(...groups.errors);
  else if (groups.compiled) state.mapper.groups = groups.compiled;

  const uidClaim = m.uid?.claim ?? '';
  const uidExpression = m.uid?.expression ?? '';
  if (uidClaim && uidExpression) errs.push(invalid(`${path}.uid`, '', "claim and expression can't both be set"));
  else if (uidExpression) {
    const c = compileAt(uidExpression, 'claims', 'any', `${path}.uid.expression`, errs);
    if (c) state.mapper.uid = c;
  }

  const keys = new Set<string>();
  (m.extra ?? []).forEach((mapping, i) => {
    const at = `${path}.extra[${i}]`;
    errs.push(...domainPrefixedPathErrors(`${at}.key`, mapping.key));
    if (mapping.key !== mapping.key.toLowerCase()) errs.push(invalid(`${at}.key`, mapping.key, 'key must be lowercase'));
    if (isKubernetesDomainPrefix(mapping.key)) errs.push(invalid(`${at}.key`, mapping.key, 'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use'));
    if (keys.has(mapping.key)) {
      errs.push(duplicate(`${at}.key`, mapping.key));
      return;
    }
    keys.add(mapping.key);
    if (!mapping.valueExpression) {
      errs.push(required(`${at}.valueExpression`, 'valueExpression is required'));
      return;
    }
    const c = compileAt(mapping.valueExpression, 'claims', 'any', `${at}.valueExpression`, errs);
    if (c) {
      state.mapper.extra.push({ key: mapping.key, compiled: c });
      state.usesEmailVerified ||= selectsClaim(c.ast, 'email_verified');
    }
  });

  if (state.usesEmail && !state.usesEmailVerified) {
    errs.push(
      invalid(
        `${path}.username.expression`,
        m.username.expression ?? '',
        'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
      ),
    );
  }
  return errs;
}

function validateUserValidationRules(a: JWTAuthenticator, path: string, state: State): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (a.userValidationRules ?? []).forEach((rule, i) => {
    const at = `${path}[${i}]`;
    if (!rule.expression) {
      errs.push(required(`${at}.expression`, 'expression is required'));
      return;
    }
    if (seen.has(rule.expression)) {
      errs.push(duplicate(`${at}.expression`, rule.expression));
      return;
    }
    seen.add(rule.expression);
    const c = compileAt(rule.expression, 'user', 'bool', `${at}.expression`, errs);
    if (c) state.mapper.userValidationRules.push({ compiled: c, message: rule.message ?? '' });
  });
  return errs;
}
