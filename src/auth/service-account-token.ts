// Bound ServiceAccount tokens, as kube-apiserver issues them for TokenRequests (pkg/serviceaccount/claims.go,
// jwt.go) and authenticates them: a JWT with the standard claims and the private "kubernetes.io" claim
// naming the namespace, the ServiceAccount and the object the token is bound to (a Secret here), signed with
// the server's service-account key. A token authenticates while its signature, issuer, audience and times
// hold and the ServiceAccount (and bound Secret) it names still exist with the UIDs it names.
import { randomUUID } from 'node:crypto';
import type { UserInfo } from '../api/user.js';
import type { JSONObject } from '../util/json.js';
import { parseJwt, signJwt, verifyJwt, type JwtClaims } from './jwt.js';
import type { ServiceAccountKeys, VerifyingKey } from './service-account-keys.js';

/** kube-apiserver's --service-account-issuer default in kubeadm and kind clusters (kube itself has none). */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';
const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
/** The user extra naming the token's jti (serviceaccount.CredentialIDKey), set since kube 1.30. */
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';
/** go-jose's jwt.DefaultLeeway, which kube validates times with. */
const LEEWAY_SECONDS = 60;

export interface ServiceAccountTokenConfig {
  /** --service-account-issuer: the first issues tokens; every one is accepted. */
  issuers: readonly string[];
  /** --api-audiences: tokens must name one of them; the default audiences of a TokenRequest (default: the issuers). */
  apiAudiences: readonly string[];
  /** --service-account-max-token-expiration in seconds; 0: none. */
  maxExpirationSeconds: number;
  /** The keys tokens are verified with now: none until an embedded server issues its first token. */
  verifying(): readonly VerifyingKey[];
  /** Generates keys when none exist yet (embedded servers, on their first TokenRequest). */
  signingKeys(): ServiceAccountKeys;
  /**
   * For keys given as a promise or deferred: settles once they are there (or failed), setting a deferred key's
   * making on its way. What signs or publishes keys waits for it.
   */
  whenReady?(): Promise<void> | undefined;
}

/** serviceaccount.MakeUsername */
export const serviceAccountUsername = (namespace: string, name: string): string => `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${name}`;

interface ObjectRef {
  name: string;
  uid: string;
}

/** What a token is issued for: the ServiceAccount, and the Secret it is bound to, if any. */
export interface TokenSubject {
  namespace: string;
  serviceAccount: ObjectRef;
  secret?: ObjectRef;
}

/**
 * token.Claims plus the issuer the generator adds: iat and nbf now, exp now + expirationSeconds, a fresh jti,
 * the private claim naming the ServiceAccount and bound object. Times are whole seconds (NumericDate).
 */
export function tokenClaims(subject: TokenSubject, audiences: readonly string[], expirationSeconds: number, issuer: string, nowMs: number): JwtClaims {
  const now = Math.floor(nowMs / 1000);
  const k8s: Record<string, unknown> = { namespace: subject.namespace, serviceaccount: { ...subject.serviceAccount } };
  if (subject.secret) k8s['secret'] = { ...subject.secret };
  return {
    aud: [...audiences],
    exp: now + expirationSeconds,
    iat: now,
    iss: issuer,
    jti: randomUUID(),
    'kubernetes.io': k8s,
    nbf: now,
    sub: serviceAccountUsername(subject.namespace, subject.serviceAccount.name),
  };
}

/** A signed token for the subject, with the config's issuing issuer. */
export function issueToken(config: ServiceAccountTokenConfig, subject: TokenSubject, audiences: readonly string[], expirationSeconds: number, nowMs: number): string {
  const keys = config.signingKeys();
  return signJwt(tokenClaims(subject, audiences, expirationSeconds, config.issuers[0]!, nowMs), keys.signing.key, keys.signing.kid);
}

/** Reads the ServiceAccounts and Secrets a token names; undefined when the object does not exist. */
export interface TokenObjectGetter {
  serviceAccount(namespace: string, name: string): Promise<JSONObject | undefined>;
  secret(namespace: string, name: string): Promise<JSONObject | undefined>;
}

/** Not a token of ours (another issuer, or not a JWT): other authenticators may have it. */
export const NOT_OURS = undefined;

/** Why a token of ours is refused (kube logs these; the client sees a 401). */
export type TokenRefusal = { error: string };

/** serviceaccount.LegacyIssuer: the issuer of the tokens the token controller writes into Secrets. */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';

/**
 * The issuer-independent checks of a token, synchronous (jwt.go's AuthenticateToken up to the validator):
 * the issuer is ours (one of the configured issuers, or the legacy one), the signature is by a known key, the
 * audience meets the requested ones (by default the API's). A token naming no audience (a legacy one) stands
 * for the API audiences. Returns the verified claims with the audiences granted, a refusal, or NOT_OURS.
 */
export function verifyServiceAccountJwt(
  token: string,
  config: ServiceAccountTokenConfig,
  requested: readonly string[] = config.apiAudiences,
): { claims: JwtClaims; audiences: string[] } | TokenRefusal | undefined {
  const jwt = parseJwt(token);
  const iss = jwt?.claims['iss'];
  // hasCorrectIssuer: a token another issuer wrote is left to the other authenticators.
  if (!jwt || typeof iss !== 'string' || (!config.issuers.includes(iss) && iss !== LEGACY_ISSUER)) return NOT_OURS;
  const keys = config.verifying();
  const kid = typeof jwt.header.kid === 'string' ? jwt.header.kid : undefined;
  // A kid that names a key selects it; otherwise every key is tried, as kube does.
  const candidates = kid !== undefined && keys.some((k) => k.kid === kid) ? keys.filter((k) => k.kid === kid) : keys;
  if (!candidates.some((k) => verifyJwt(jwt, k.key))) return { error: 'invalid signature' };
  const claims = jwt.claims;
  const named = audiencesOf(claims['aud']);
  if (named === undefined) return { error: 'invalid audience claim' };
  // "only apiserver audiences are allowed for legacy tokens"
  const tokenAudiences = named.length > 0 ? named : [...config.apiAudiences];
  // Audiences.Intersect keeps the requested order.
  const auds = requested.filter((a) => tokenAudiences.includes(a));
  if (auds.length === 0 && config.apiAudiences.length > 0) {
    return { error: `token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(requested)}` };
  }
  return { claims, audiences: auds };
}

/** go-jose's Audience: a string or a list of strings. */
function audiencesOf(v: unknown): string[] | undefined {
  if (v === undefined) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return undefined;
}

const goQuoteList = (xs: readonly string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

const numericDate = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * claims.go's validator: the times (with go-jose's minute of leeway), then the ServiceAccount and the bound
 * Secret, which must exist, not have been deleted more than the leeway ago, and carry the UIDs the token names.
 */
export async function validateServiceAccountClaims(claims: JwtClaims, getter: TokenObjectGetter, nowMs: number): Promise<{ user: UserInfo } | TokenRefusal> {
  const now = nowMs / 1000;
  const nbf = numericDate(claims['nbf']);
  const exp = numericDate(claims['exp']);
  const iat = numericDate(claims['iat']);
  if (nbf !== undefined && now + LEEWAY_SECONDS < nbf) return { error: 'service account token is not valid yet' };
  if (exp !== undefined && now - LEEWAY_SECONDS > exp) return { error: 'service account token has expired' };
  if (iat !== undefined && now + LEEWAY_SECONDS < iat) return { error: 'service account token is issued in the future' };

  const k8s = objectClaim(claims['kubernetes.io']);
  const namespace = stringClaim(k8s['namespace']);
  const saRef = refClaim(k8s['serviceaccount']);
  const secretRef = k8s['secret'] === undefined ? undefined : refClaim(k8s['secret']);
  const invalidIfDeletedBefore = nowMs - LEEWAY_SECONDS * 1000;
  const deletedBefore = (obj: JSONObject): boolean => {
    const ts = (obj['metadata'] as JSONObject | undefined)?.['deletionTimestamp'];
    return typeof ts === 'string' && Date.parse(ts) < invalidIfDeletedBefore;
  };
  const uidOf = (obj: JSONObject): string => String((obj['metadata'] as JSONObject | undefined)?.['uid'] ?? '');

  const sa = await getter.serviceAccount(namespace, saRef.name);
  if (!sa) return { error: `serviceaccounts "${saRef.name}" not found` };
  if (deletedBefore(sa)) return { error: `service account ${namespace}/${saRef.name} has been deleted` };
  if (uidOf(sa) !== saRef.uid) return { error: `service account UID (${uidOf(sa)}) does not match claim (${saRef.uid})` };

  if (secretRef) {
    const secret = await getter.secret(namespace, secretRef.name);
    if (!secret || deletedBefore(secret)) return { error: 'service account token has been invalidated' };
    if (uidOf(secret) !== secretRef.uid) return { error: `secret UID (${uidOf(secret)}) does not match service account secret ref claim (${secretRef.uid})` };
  }

  // ServiceAccountInfo.UserInfo; the authenticated group is added by the chain.
  const user: UserInfo = {
    name: serviceAccountUsername(namespace, saRef.name),
    uid: saRef.uid,
    groups: [ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${namespace}`],
  };
  const jti = stringClaim(claims['jti']);
  if (jti) user.extra = { [CREDENTIAL_ID_KEY]: [`JTI=${jti}`] };
  return { user };
}

const objectClaim = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const stringClaim = (v: unknown): string => (typeof v === 'string' ? v : '');
const refClaim = (v: unknown): ObjectRef => {
  const o = objectClaim(v);
  return { name: stringClaim(o['name']), uid: stringClaim(o['uid']) };
};
