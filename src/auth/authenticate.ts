// Request authentication, following kube-apiserver's chain: x509 client certificate first, then a
// bearer token from the static token file, then a bearer token that is a ServiceAccount JWT, then one of an
// external OIDC issuer (--authentication-config's JWT authenticators); if none
// yields a user and none failed, the request is anonymous. A failure (unverifiable client certificate,
// unknown or invalid bearer token) is a 401, never anonymous, as kube's union authenticator "fails on
// error" before reaching the anonymous one. Only a ServiceAccount token needs storage reads (does the
// ServiceAccount still exist?) or a JWT authenticator (the issuer's keys may need fetching), so only then is the
// answer a promise: other requests stay synchronous.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket, PeerCertificate } from 'node:tls';
import { unauthorized, type StatusError } from '../api/status.js';
import { validateServiceAccountClaims, verifyServiceAccountJwt, type ServiceAccountTokenConfig, type TokenObjectGetter } from './service-account-token.js';
import type { TokenCache } from './token-cache.js';
import type { JwtAuthenticators } from './oidc.js';
import { isLegacyToken, validateLegacyClaims, type LabelSecret } from './legacy-service-account-token.js';
import type { JwtClaims } from './jwt.js';

export type { UserInfo } from '../api/user.js';
import type { UserInfo } from '../api/user.js';

const ANONYMOUS_USER = 'system:anonymous';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const MASTERS_GROUP = 'system:masters';

/** Bearer token → the user it stands for (groups as listed in the file, without system:authenticated). */
export type TokenTable = ReadonlyMap<string, UserInfo>;

interface AuthenticateOptions {
  /** From --token-auth-file. */
  tokens?: TokenTable;
  /** --anonymous-auth; default true. When false, requests without credentials are 401. */
  anonymous?: boolean;
  /** ServiceAccount tokens: the issuer's configuration and where the objects they name are read. */
  serviceAccounts?: ServiceAccountAuthentication;
  /** With anonymous access on, the only paths it is granted for (AuthenticationConfiguration's anonymous.conditions). */
  anonymousPaths?: readonly string[];
  /** JWT authenticators of external issuers (--authentication-config, --oidc-*). */
  jwt?: JwtAuthenticators;
}

export interface ServiceAccountAuthentication {
  config: ServiceAccountTokenConfig;
  getter: TokenObjectGetter;
  /** The clock tokens' times are checked against (ms since the epoch). */
  now?: () => number;
  /** Recent successes, answered without a lookup (kube's 10 s token cache). */
  cache?: TokenCache;
  /** Labels a legacy token's Secret with the day it was last used. */
  labelSecret?: LabelSecret;
}

/** The validator for the token's kind: the legacy (Secret-based) one, or the bound one. */
function validateClaims(token: string, claims: JwtClaims, sa: ServiceAccountAuthentication, now: number): ReturnType<typeof validateServiceAccountClaims> {
  return isLegacyToken(claims) ? validateLegacyClaims(token, claims, sa.getter, sa.labelSecret, now) : validateServiceAccountClaims(claims, sa.getter, now);
}

/** The anonymous identity kube-apiserver gives requests that carry no credentials. */
export const anonymousUser = (): UserInfo => ({ name: ANONYMOUS_USER, groups: [ALL_UNAUTHENTICATED] });

/**
 * Who made the request. `undefined` means the request must be rejected with 401 Unauthorized
 * (see `unauthenticatedError`); unauthenticated-but-acceptable requests come back as system:anonymous.
 */
export function authenticate(req: IncomingMessage, opts?: AuthenticateOptions & { serviceAccounts?: undefined; jwt?: undefined }): UserInfo | undefined;
export function authenticate(req: IncomingMessage, opts: AuthenticateOptions): UserInfo | undefined | Promise<UserInfo | undefined>;
export function authenticate(req: IncomingMessage, opts: AuthenticateOptions = {}): UserInfo | undefined | Promise<UserInfo | undefined> {
  let failed = false;

  const fromCert = certificateUser(req);
  if (fromCert === 'error') failed = true;
  else if (fromCert) return withAuthenticatedGroup(fromCert);

  const fromToken = tokenUser(req, opts);
  if (fromToken instanceof Promise) {
    // A ServiceAccount token: whatever the certificate said, the token decides (a failure is a 401).
    return fromToken.then((u) => (u === 'error' ? undefined : withAuthenticatedGroup(u)));
  }
  if (fromToken === 'error') failed = true;
  else if (fromToken) return withAuthenticatedGroup(fromToken);

  if (failed || opts.anonymous === false) return undefined;
  if (opts.anonymousPaths && !opts.anonymousPaths.includes(requestPath(req))) return undefined;
  return anonymousUser();
}

/** The request's URL path, as kube's anonymous conditions compare it (the query left off). */
function requestPath(req: IncomingMessage): string {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}

/**
 * A bearer token through the token authenticators alone, as TokenReview runs it (a request carrying only that
 * token): the user with system:authenticated, or kube's "invalid bearer token". Static tokens are audience
 * agnostic: with API audiences configured, they are valid only for those (authenticator.WrapAudienceAgnosticToken).
 */
export function authenticateToken(
  token: string,
  audiences: readonly string[],
  opts: { tokens?: TokenTable; apiAudiences?: readonly string[]; serviceAccounts?: ServiceAccountAuthentication; jwt?: JwtAuthenticators } = {},
): TokenAuthentication | Promise<TokenAuthentication> {
  const user = opts.tokens?.get(token);
  const implicit = opts.apiAudiences ?? [];
  // Audience-agnostic authenticators (WrapAudienceAgnosticToken): with API audiences configured, valid only for those.
  const agnostic = (u: UserInfo): TokenAuthentication => {
    if (implicit.length === 0) return { user: withAuthenticatedGroup(u) };
    const valid = (audiences.length > 0 ? audiences : implicit).filter((a) => implicit.includes(a));
    return valid.length > 0 ? { user: withAuthenticatedGroup(u), audiences: valid } : { error: 'invalid bearer token' };
  };
  if (user) return agnostic(user);
  const sa = opts.serviceAccounts;
  // A ServiceAccount token is checked against the audiences asked for (the API's by default), and answers
  // with the ones it names among them.
  const wanted = audiences.length > 0 ? audiences : implicit;
  const verified = sa ? verifyServiceAccountJwt(token, sa.config, wanted) : undefined;
  if (verified === undefined || !sa) {
    const fromJwt = opts.jwt?.authenticate(token);
    if (!fromJwt) return { error: 'invalid bearer token' };
    return fromJwt.then((r) => ('error' in r ? { error: r.error } : agnostic(r.user)));
  }
  if ('error' in verified) return { error: verified.error };
  return validateClaims(token, verified.claims, sa, (sa.now ?? Date.now)()).then(
    (r) => ('error' in r ? { error: r.error } : { user: withAuthenticatedGroup(r.user), audiences: verified.audiences }),
    (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
  );
}

/** What a token authenticates to, as kube's authenticator.Response (or its error) has it. */
export interface TokenAuthentication {
  user?: UserInfo;
  /** The audiences the token is valid for, among those asked (absent for audience-agnostic authenticators). */
  audiences?: string[];
  /** Why the token was refused (status.error), e.g. "invalid bearer token". */
  error?: string;
}

/** The Status for a request `authenticate` rejected: 401, reason Unauthorized, message "Unauthorized". */
const unauthenticatedError = (): StatusError => unauthorized();

/** `authenticate`, throwing (or rejecting with) the 401 StatusError instead of answering undefined. */
export function authenticateOrThrow(req: IncomingMessage, opts?: AuthenticateOptions & { serviceAccounts?: undefined; jwt?: undefined }): UserInfo;
export function authenticateOrThrow(req: IncomingMessage, opts: AuthenticateOptions): UserInfo | Promise<UserInfo>;
export function authenticateOrThrow(req: IncomingMessage, opts: AuthenticateOptions = {}): UserInfo | Promise<UserInfo> {
  const user = authenticate(req, opts);
  const orThrow = (u: UserInfo | undefined): UserInfo => {
    if (!u) throw unauthenticatedError();
    return u;
  };
  return user instanceof Promise ? user.then(orThrow) : orThrow(user);
}

// As kube's AuthenticatedGroupAdder: add system:authenticated unless the user already carries
// either of the two "all" groups.
function withAuthenticatedGroup(user: UserInfo): UserInfo {
  const groups = user.groups.includes(ALL_AUTHENTICATED) || user.groups.includes(ALL_UNAUTHENTICATED)
    ? [...user.groups]
    : [...user.groups, ALL_AUTHENTICATED];
  const out: UserInfo = { name: user.name, groups };
  if (user.uid !== undefined) out.uid = user.uid;
  if (user.extra !== undefined) out.extra = user.extra;
  return out;
}

// ---- x509 client certificates ----

type CertOutcome = UserInfo | 'error' | undefined;

// A connection's certificate never changes, so its outcome is computed once per socket
// (keep-alive connections carry many requests).
const certCache = new WeakMap<object, CertOutcome>();

/**
 * The user named by the verified client certificate: CN → name, every O → a group.
 * 'error' when a certificate was presented but does not verify against our CA (or is not for
 * client auth); undefined when there is none or it has no CN.
 */
function certificateUser(req: IncomingMessage): CertOutcome {
  const socket = req.socket as Partial<TLSSocket> | undefined;
  if (!socket || typeof socket.getPeerCertificate !== 'function') return undefined;
  if (certCache.has(socket)) return certCache.get(socket);
  const outcome = certOutcome(socket as TLSSocket);
  certCache.set(socket, outcome);
  return outcome;
}

const EKU_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const EKU_ANY = '2.5.29.37.0';

function certOutcome(socket: TLSSocket): CertOutcome {
  const cert = socket.getPeerCertificate(false) as PeerCertificate | Record<string, never>;
  if (!cert || !('raw' in cert) || !cert.raw) return undefined;
  // The server runs with rejectUnauthorized: false so that cert-less clients can still connect;
  // the chain check against our CA therefore surfaces here.
  if (!socket.authorized) return 'error';
  // Go's verifier (used by kube) demands clientAuth when an EKU extension is present; OpenSSL's
  // server-side check does not guarantee that, so enforce it.
  const eku = cert.ext_key_usage;
  if (eku && eku.length > 0 && !eku.includes(EKU_CLIENT_AUTH) && !eku.includes(EKU_ANY)) return 'error';
  const name = firstValue(cert.subject?.CN);
  if (!name) return undefined;
  return { name, groups: allValues(cert.subject?.O) };
}

// Node gives a single-valued attribute as a string and a repeated one as an array.
function allValues(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? [...v] : [v];
}

function firstValue(v: string | string[] | undefined): string | undefined {
  return allValues(v)[0];
}

// ---- bearer tokens ----

/**
 * The user for the request's bearer token. Headers that are not `Bearer <token>` are ignored, as
 * kube does; a token neither in the table nor a valid ServiceAccount or external JWT is 'error' (also when
 * none is configured: a real kube-apiserver always has token authenticators that would reject it).
 * A ServiceAccount token that passes the synchronous checks, and an external JWT, finish asynchronously.
 */
function tokenUser(req: IncomingMessage, opts: AuthenticateOptions): UserInfo | 'error' | undefined | Promise<UserInfo | 'error'> {
  const token = bearerToken(req.headers.authorization);
  if (token === undefined) return undefined;
  const fromFile = opts.tokens?.get(token);
  if (fromFile) return fromFile;
  const sa = opts.serviceAccounts;
  const now = (sa?.now ?? Date.now)();
  const cached = sa?.cache?.get(token, now);
  if (cached) return cached;
  const verified = sa ? verifyServiceAccountJwt(token, sa.config) : undefined;
  if (verified === undefined || !sa) {
    // Not a ServiceAccount token: an external issuer's, or nobody's.
    const fromJwt = opts.jwt?.authenticate(token);
    if (!fromJwt) return 'error';
    return fromJwt.then((r) => {
      if ('error' in r) return 'error';
      sa?.cache?.set(token, r.user, now);
      return r.user;
    });
  }
  if ('error' in verified) return 'error';
  return validateClaims(token, verified.claims, sa, now).then(
    (r) => {
      if ('error' in r) return 'error';
      sa.cache?.set(token, r.user, now);
      return r.user;
    },
    () => 'error' as const,
  );
}

/** The token of an `Authorization: Bearer <token>` header, parsed as kube's bearertoken authenticator does. */
export function bearerToken(header: string | undefined): string | undefined {
  const auth = header?.trim();
  if (!auth) return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  // "Bearer  x" (two spaces) has an empty token: not a credential at all.
  const token = parts[1]!;
  return token === '' ? undefined : token;
}

/**
 * Read a --token-auth-file: CSV records `token,user,uid[,"group1,group2,..."]`. As kube-apiserver:
 * fewer than three columns is an error, records with an empty token are skipped, a later
 * duplicate token wins.
 */
export function loadTokenFile(path: string): Map<string, UserInfo> {
  return parseTokenFile(readFileSync(path, 'utf8'), path);
}

export function parseTokenFile(text: string, path = '<token file>'): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  for (const record of parseCsv(text)) {
    if (record.length < 3) {
      throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    }
    const [token, name, uid, groups] = record as [string, string, string, string | undefined];
    if (token === '') continue;
    const user: UserInfo = { name, uid, groups: groups === undefined ? [] : groups.split(',').filter((g) => g !== '') };
    tokens.set(token, user);
  }
  return tokens;
}

/** RFC 4180 CSV as Go's encoding/csv reads it (strict quotes, blank lines skipped, CRLF accepted). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let line = 1;
  let atFieldStart = true;
  let lineHasContent = false;

  const endField = (): void => {
    record.push(field);
    field = '';
    atFieldStart = true;
  };
  const endRecord = (): void => {
    if (lineHasContent) {
      endField();
      records.push(record);
    }
    record = [];
    field = '';
    atFieldStart = true;
    lineHasContent = false;
  };

  while (i < text.length) {
    const c = text[i]!;
    if (atFieldStart && c === '"') {
      // Quoted field: runs to the closing quote; "" is a literal quote; may span lines.
      lineHasContent = true;
      i++;
      for (;;) {
        if (i >= text.length) throw new Error(`parse error on line ${line}: extraneous or missing " in quoted-field`);
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n') line++;
        field += q;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && !(next === '\r' && text[i + 1] === '\n')) {
        throw new Error(`parse error on line ${line}: extraneous or missing " in quoted-field`);
      }
      atFieldStart = false;
      continue;
    }
    if (c === ',') {
      lineHasContent = true;
      endField();
      i++;
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      endRecord();
      i += c === '\r' ? 2 : 1;
      line++;
    } else if (c === '"') {
      throw new Error(`parse error on line ${line}: bare " in non-quoted-field`);
    } else {
      lineHasContent = true;
      atFieldStart = false;
      field += c;
      i++;
    }
  }
  endRecord();
  return records;
}
