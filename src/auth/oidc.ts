// JWT authenticators for external OIDC issuers (k8s.io/apiserver plugin/pkg/authenticator/token/oidc): a token
// whose (unverified) `iss` is the authenticator's issuer is verified as go-oidc verifies ID tokens (issuer,
// audience, expiry, not-before, an allowed algorithm, the signature by a key of the issuer's key set), then
// mapped to a user by the claim mappings (claims or CEL), checked by the required claims, the claim validation
// rules and the user validation rules. Distributed claims (`_claim_names`/`_claim_sources`) are not resolved:
// a groups claim given only that way is absent.
import type { UserInfo } from '../api/user.js';
import type { JWTAuthenticator } from './authentication-config.js';
import type { JwtCelMapper } from './authentication-config-validation.js';
import { parseJwt, verifyJwtAs, type ParsedJwt } from './jwt.js';
import { celStringList, evalClaims, evalUser, type CompiledJwtExpression } from './jwt-cel.js';
import { discover, issuerClient, RemoteKeySet, type HttpGet } from './oidc-provider.js';

export type JwtOutcome = { user: UserInfo } | { error: string };

export interface JwtAuthenticatorOptions {
  /** --oidc-signing-algs; with a configuration file every algorithm kube knows is allowed. */
  signingAlgs?: readonly string[];
  /** The clock tokens are checked against (ms since the epoch). */
  now?: () => number;
  /** How the issuer is reached (default: HTTPS with the configured CA, 30 s timeout). */
  get?: HttpGet;
  /** Time between discovery attempts until one succeeds (kube: 10 s). */
  retryMs?: number;
  /** Where failed discovery attempts are reported. */
  log?: (msg: string) => void;
}

const NOT_BEFORE_LEEWAY_MS = 5 * 60_000;
const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';

/** untrustedIssuer: the token's `iss` before verification (Google's scheme-less form coalesced), or undefined. */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trimStart().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]*$/.test(parts[1]!)) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    const iss = (payload as { iss?: unknown } | null)?.iss;
    if (iss === undefined || iss === null) return '';
    if (typeof iss !== 'string') return undefined;
    return iss === 'accounts.google.com' ? 'https://accounts.google.com' : iss;
  } catch {
    return undefined;
  }
}

/** Go's %q of a []string: ["a" "b"]. */
const goQuoteList = (xs: readonly string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

/** Go's time.Time String, in UTC. */
function goTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const frac = ms % 1000 === 0 ? '' : `.${pad(((ms % 1000) + 1000) % 1000, 3).replace(/0+$/, '')}`;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac} +0000 UTC`;
}

const ZERO_TIME = '0001-01-01 00:00:00 +0000 UTC';

const goJsonKind = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v);

/** json.Unmarshal of a claim into a Go string: null leaves it empty. */
function claimString(v: unknown): string | { error: string } {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  return { error: `json: cannot unmarshal ${goJsonKind(v)} into Go value of type string` };
}

/** stringOrArray: a string, or a list of strings. */
function claimStrings(v: unknown): string[] | { error: string } {
  if (v === null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) {
    const bad = v.find((x) => typeof x !== 'string' && x !== null);
    if (bad === undefined) return v.map((x) => (typeof x === 'string' ? x : ''));
    return { error: `json: cannot unmarshal ${goJsonKind(bad)} into Go value of type string` };
  }
  return { error: `json: cannot unmarshal ${goJsonKind(v)} into Go value of type string` };
}

const isErr = (v: unknown): v is { error: string } => typeof v === 'object' && v !== null && !Array.isArray(v) && 'error' in v;

export class JwtAuthenticator {
  private keySet: RemoteKeySet | undefined;
  private firstAttempt: Promise<void> | undefined;
  private lastError: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly get: HttpGet;
  private readonly signingAlgs: readonly string[];
  private readonly now: () => number;
  /** Claims that must be present with a value, from claim validation rules that name a claim. */
  private readonly requiredClaims: [string, string][];

  constructor(
    readonly config: JWTAuthenticator,
    private readonly mapper: JwtCelMapper,
    private readonly opts: JwtAuthenticatorOptions = {},
  ) {
    this.get = opts.get ?? issuerClient(config.issuer.certificateAuthority || undefined);
    this.signingAlgs = opts.signingAlgs?.length ? opts.signingAlgs : ['RS256'];
    this.now = opts.now ?? Date.now;
    this.requiredClaims = (config.claimValidationRules ?? []).filter((r) => r.claim).map((r) => [r.claim!, r.requiredValue ?? '']);
    this.lastError = `oidc: authenticator for issuer ${JSON.stringify(config.issuer.url)} is not initialized`;
  }

  get issuer(): string {
    return this.config.issuer.url;
  }

  /** Discovery in the background, retried until it succeeds (kube's PollUntilContextCancel every 10 s). */
  start(): this {
    const attempt = async (): Promise<void> => {
      if (this.stopped) return;
      try {
        const jwksURI = await discover(this.issuer, this.config.issuer.discoveryURL, this.get);
        const keySet = new RemoteKeySet(jwksURI, this.get);
        if (this.stopped) return;
        this.keySet = keySet;
        this.lastError = undefined;
      } catch (e) {
        this.lastError = (e as Error).message;
        this.opts.log?.(`oidc authenticator: initializing plugin: ${this.lastError}`);
        if (!this.stopped) this.timer = setTimeout(() => void attempt(), this.opts.retryMs ?? 10_000);
      }
    };
    this.firstAttempt = attempt();
    return this;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** HealthCheck: undefined once discovery succeeded. */
  healthError(): string | undefined {
    return this.lastError === undefined ? undefined : `oidc: authenticator for issuer ${JSON.stringify(this.issuer)} is not healthy: ${this.lastError}`;
  }

  /** Resolves once the first discovery attempt has finished (successfully or not). */
  async settled(): Promise<void> {
    await this.firstAttempt;
  }

  /** undefined: not this issuer's token (the next authenticator may take it); otherwise the user or the error. */
  authenticate(token: string): Promise<JwtOutcome> | undefined {
    if (untrustedIssuer(token) !== this.issuer) return undefined;
    return this.verifyAndMap(token);
  }

  private async verifyAndMap(token: string): Promise<JwtOutcome> {
    // A token that arrives while the first discovery is under way waits for it rather than failing at once.
    if (!this.keySet) await this.firstAttempt;
    if (!this.keySet) return { error: 'oidc: authenticator not initialized' };
    const verified = await this.verify(token, this.keySet);
    if ('error' in verified) return { error: `oidc: verify token: ${verified.error}` };
    return this.map(verified.claims);
  }

  /** go-oidc's IDTokenVerifier.Verify, then kube's check of several audiences. */
  private async verify(token: string, keySet: RemoteKeySet): Promise<{ claims: Record<string, unknown> } | { error: string }> {
    const jwt = parseJwt(token);
    if (!jwt) return { error: 'oidc: malformed jwt: square/go-jose: compact JWS format must have three parts' };
    const c = jwt.claims;
    const aud = c['aud'] === undefined || c['aud'] === null ? [] : claimStrings(c['aud']);
    if (isErr(aud)) return { error: `oidc: failed to unmarshal claims: ${aud.error}` };
    for (const t of ['exp', 'nbf']) {
      if (c[t] !== undefined && c[t] !== null && typeof c[t] !== 'number') return { error: `oidc: failed to unmarshal claims: json: cannot unmarshal ${goJsonKind(c[t])} into Go struct field idToken.${t} of type float64` };
    }
    const iss = typeof c['iss'] === 'string' ? c['iss'] : '';
    if (iss !== this.issuer && !(this.issuer === 'https://accounts.google.com' && iss === 'accounts.google.com')) {
      return { error: `oidc: id token issued by a different provider, expected ${JSON.stringify(this.issuer)} got ${JSON.stringify(iss)}` };
    }
    const audiences = this.config.issuer.audiences;
    if (audiences.length === 1 && !aud.includes(audiences[0]!)) return { error: `oidc: expected audience ${JSON.stringify(audiences[0])} got ${goQuoteList(aud)}` };
    const now = this.now();
    const exp = typeof c['exp'] === 'number' ? c['exp'] * 1000 : undefined;
    if (exp === undefined || exp < now) return { error: `oidc: token is expired (Token Expiry: ${exp === undefined ? ZERO_TIME : goTime(exp)})` };
    const nbf = typeof c['nbf'] === 'number' ? c['nbf'] * 1000 : undefined;
    if (nbf !== undefined && now + NOT_BEFORE_LEEWAY_MS < nbf) return { error: `oidc: current time ${goTime(now)} before the nbf (not before) time: ${goTime(nbf)}` };
    const alg = typeof jwt.header.alg === 'string' ? jwt.header.alg : '';
    if (!this.signingAlgs.includes(alg)) return { error: `oidc: id token signed with unsupported algorithm, expected ${goQuoteList(this.signingAlgs)} got ${JSON.stringify(alg)}` };
    const sig = await verifySignature(jwt, keySet);
    if (sig) return { error: `failed to verify signature: ${sig}` };
    if (audiences.length > 1 && !aud.some((a) => audiences.includes(a))) {
      return { error: `oidc: expected audience in ${goQuoteList([...new Set(audiences)].sort())} got ${goQuoteList(aud)}` };
    }
    return { claims: c };
  }

  /** AuthenticateToken after verification: the claim mappings, required claims and validation rules. */
  private map(claims: Record<string, unknown>): JwtOutcome {
    const m = this.mapper;
    const mappings = this.config.claimMappings;

    const name = this.username(claims);
    if (isErr(name)) return name;
    const user: UserInfo = { name, groups: [] };

    const groups = this.groups(claims);
    if (isErr(groups)) return groups;
    user.groups = groups;

    const uidClaim = mappings.uid?.claim ?? '';
    if (uidClaim) {
      const uid = claimValue(claims, uidClaim);
      if (isErr(uid)) return { error: `oidc: parse uid claim ${JSON.stringify(uidClaim)}: ${uid.error}` };
      user.uid = uid;
    } else if (m.uid) {
      const r = evalClaims(m.uid, claims);
      if ('error' in r) return { error: `oidc: error evaluating uid claim expression: ${r.error}` };
      if (typeof r.value !== 'string') return { error: 'oidc: error evaluating uid claim expression: uid claim expression must return a string' };
      user.uid = r.value;
    }

    const extra: Record<string, string[]> = {};
    const jti = claims['jti'];
    if (typeof jti === 'string' && jti !== '') extra[CREDENTIAL_ID_KEY] = [`JTI=${jti}`];
    // The mapper evaluates every expression before any value is converted.
    const evaluated = [];
    for (const { key, compiled } of m.extra) {
      const r = evalClaims(compiled, claims);
      if ('error' in r) return { error: r.error };
      evaluated.push({ key, compiled, value: r.value });
    }
    for (const { key, compiled, value } of evaluated) {
      const values = celStringList(value);
      if (isErr(values)) return { error: `oidc: error evaluating extra claim expression: ${compiled.expression}: ${values.error}` };
      if (values.length > 0) extra[key] = values;
    }
    if (Object.keys(extra).length > 0) user.extra = extra;

    for (const [claim, want] of this.requiredClaims) {
      if (!(claim in claims)) return { error: `oidc: required claim ${claim} not present in ID token` };
      const got = claimString(claims[claim]);
      if (isErr(got)) return { error: `oidc: parse claim ${claim}: ${got.error}` };
      if (got !== want) return { error: `oidc: required claim ${claim} value does not match. Got = ${got}, want = ${want}` };
    }

    const claimRules = checkRules(m.claimValidationRules, (c) => evalClaims(c, claims));
    if (claimRules) return { error: `oidc: error evaluating claim validation expression: ${claimRules}` };
    const userRules = checkRules(m.userValidationRules, (c) => evalUser(c, user));
    if (userRules) return { error: `oidc: error evaluating user info validation rule: ${userRules}` };
    return { user };
  }

  private username(claims: Record<string, unknown>): string | { error: string } {
    const m = this.mapper;
    if (m.username) {
      const r = evalClaims(m.username, claims);
      if ('error' in r) return { error: `oidc: error evaluating username claim expression: ${r.error}` };
      if (typeof r.value !== 'string') return { error: 'oidc: error evaluating username claim expression: username claim expression must return a string' };
      if (r.value === '') return { error: 'oidc: empty username via CEL expression is not allowed' };
      return r.value;
    }
    const mapping = this.config.claimMappings.username;
    const claim = mapping.claim ?? '';
    const username = claimValue(claims, claim);
    if (isErr(username)) return { error: `oidc: parse username claims ${JSON.stringify(claim)}: ${username.error}` };
    // OIDC's standard claims: an email that is not verified names no one.
    if (claim === 'email' && 'email_verified' in claims) {
      const v = claims['email_verified'];
      if (v !== null && typeof v !== 'boolean') return { error: `oidc: parse 'email_verified' claim: json: cannot unmarshal ${goJsonKind(v)} into Go value of type bool` };
      if (v !== true) return { error: 'oidc: email not verified' };
    }
    return mapping.prefix ? mapping.prefix + username : username;
  }

  private groups(claims: Record<string, unknown>): string[] | { error: string } {
    const mapping = this.config.claimMappings.groups;
    const claim = mapping?.claim ?? '';
    if (claim && claim in claims) {
      // A single string is one group (kube accepts roles given as a string claim).
      const groups = claimStrings(claims[claim]);
      if (isErr(groups)) return { error: `oidc: parse groups claim ${JSON.stringify(claim)}: ${groups.error}` };
      return mapping?.prefix ? groups.map((g) => mapping.prefix + g) : groups;
    }
    if (!this.mapper.groups) return [];
    const r = evalClaims(this.mapper.groups, claims);
    if ('error' in r) return { error: `oidc: error evaluating group claim expression: ${r.error}` };
    const groups = celStringList(r.value);
    if (isErr(groups)) return { error: `oidc: error evaluating group claim expression: ${groups.error}` };
    return groups;
  }
}

function claimValue(claims: Record<string, unknown>, name: string): string | { error: string } {
  if (!(name in claims)) return { error: 'claim not present' };
  return claimString(claims[name]);
}

/** The mapper's eval (all rules, stopping at an error), then checkValidationRulesEvaluation; the error text or undefined. */
function checkRules(
  rules: readonly { compiled: CompiledJwtExpression; message: string }[],
  run: (c: CompiledJwtExpression) => { value: unknown } | { error: string },
): string | undefined {
  const results = [];
  for (const rule of rules) {
    const r = run(rule.compiled);
    if ('error' in r) return r.error;
    results.push({ rule, value: r.value });
  }
  for (const { rule, value } of results) {
    if (typeof value !== 'boolean') return 'validation expression must return a boolean';
    if (!value) return `validation expression '${rule.compiled.expression}' failed: ${rule.message}`;
  }
  return undefined;
}

/**
 * remoteKeySet.VerifySignature: the keys in hand whose kid matches (all of them when the token names none);
 * when none verifies, the set is fetched again (a rotation) and tried once more.
 */
async function verifySignature(jwt: ParsedJwt, keySet: RemoteKeySet): Promise<string | undefined> {
  const kid = typeof jwt.header.kid === 'string' ? jwt.header.kid : '';
  const tryKeys = (keys: readonly { kid: string; key: import('node:crypto').KeyObject }[]): boolean =>
    keys.some((k) => (kid === '' || k.kid === kid) && verifyJwtAs(jwt, k.key));
  if (tryKeys(keySet.keys())) return undefined;
  let fresh;
  try {
    fresh = await keySet.refresh();
  } catch (e) {
    return `fetching keys ${(e as Error).message}`;
  }
  return tryKeys(fresh) ? undefined : 'failed to verify id token signature';
}

/**
 * The JWT authenticators of one configuration, as kube unions them (the first error fails; issuers are
 * unique, so at most one takes a token), swapped whole when the configuration file is reloaded.
 */
export class JwtAuthenticators {
  constructor(private current: readonly JwtAuthenticator[] = []) {}

  get authenticators(): readonly JwtAuthenticator[] {
    return this.current;
  }

  authenticate(token: string): Promise<JwtOutcome> | undefined {
    for (const a of this.current) {
      const r = a.authenticate(token);
      if (r) return r;
    }
    return undefined;
  }

  /** Replace the set; the old authenticators stop. */
  replace(next: readonly JwtAuthenticator[]): void {
    const old = this.current;
    this.current = next;
    for (const a of old) a.stop();
  }

  stop(): void {
    for (const a of this.current) a.stop();
  }
}
