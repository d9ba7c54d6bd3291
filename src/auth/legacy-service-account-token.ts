// Legacy (Secret-based) ServiceAccount tokens, as kube writes them into `kubernetes.io/service-account-token`
// Secrets (pkg/serviceaccount/legacy.go): a JWT without expiry or audience, issuer `kubernetes/serviceaccount`,
// whose private claims name the namespace, the Secret and the ServiceAccount. It authenticates while the Secret
// exists and still holds that very token and the ServiceAccount exists with the uid it names; each use labels
// the Secret with the day it was last used (LegacyServiceAccountTokenTracking), at most once a day.
import { timingSafeEqual } from 'node:crypto';
import type { UserInfo } from '../api/user.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { signJwt, type JwtClaims } from './jwt.js';
import { LEGACY_ISSUER, serviceAccountUsername, type ServiceAccountTokenConfig, type TokenObjectGetter, type TokenRefusal } from './service-account-token.js';

/** The label kube-apiserver stamps on a Secret whose token authenticated, with the (UTC) date. */
export const LAST_USED_LABEL = 'kubernetes.io/legacy-token-last-used';
/** The label the legacy-token cleaner sets on tokens it will delete: such a token no longer authenticates. */
export const INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';

const CLAIM_NAMESPACE = 'kubernetes.io/serviceaccount/namespace';
const CLAIM_SECRET_NAME = 'kubernetes.io/serviceaccount/secret.name';
const CLAIM_SA_NAME = 'kubernetes.io/serviceaccount/service-account.name';
const CLAIM_SA_UID = 'kubernetes.io/serviceaccount/service-account.uid';

/** Writes the last-used label (kube: a merge patch by the apiserver's loopback client, with the Secret's uid). */
export type LabelSecret = (namespace: string, name: string, uid: string, labels: Record<string, string>) => Promise<void>;

export const isLegacyToken = (claims: JwtClaims): boolean => claims['iss'] === LEGACY_ISSUER;

/** LegacyClaims plus the generator's issuer. */
export function legacyClaims(serviceAccount: { namespace: string; name: string; uid: string }, secretName: string): JwtClaims {
  return {
    iss: LEGACY_ISSUER,
    [CLAIM_NAMESPACE]: serviceAccount.namespace,
    [CLAIM_SECRET_NAME]: secretName,
    [CLAIM_SA_NAME]: serviceAccount.name,
    [CLAIM_SA_UID]: serviceAccount.uid,
    sub: serviceAccountUsername(serviceAccount.namespace, serviceAccount.name),
  };
}

/** The token the token controller writes into a Secret, signed with the server's service-account key. */
export function issueLegacyToken(config: ServiceAccountTokenConfig, serviceAccount: { namespace: string; name: string; uid: string }, secretName: string): string {
  const keys = config.signingKeys();
  return signJwt(legacyClaims(serviceAccount, secretName), keys.signing.key, keys.signing.kid);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const metaField = (obj: JSONObject, f: string): unknown => (isObject(obj['metadata']) ? obj['metadata'][f] : undefined);

/** SplitUsername: `system:serviceaccount:<ns>:<name>`, both parts non-empty. */
function splitUsername(sub: string): [string, string] | undefined {
  const prefix = 'system:serviceaccount:';
  if (!sub.startsWith(prefix)) return undefined;
  const parts = sub.slice(prefix.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return [parts[0], parts[1]];
}

/** time.Now().UTC().Format("2006-01-02") */
const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * legacyValidator.Validate with lookup (kube-apiserver's default --service-account-lookup): the claims, then
 * the Secret (present, not being deleted, holding this token, not marked invalid) and the ServiceAccount
 * (present, not being deleted, same uid); a success labels the Secret with today's date unless it has today's
 * (or tomorrow's) already. Messages are kube's.
 */
export async function validateLegacyClaims(
  token: string,
  claims: JwtClaims,
  getter: TokenObjectGetter,
  label: LabelSecret | undefined,
  nowMs: number,
): Promise<{ user: UserInfo } | TokenRefusal> {
  if (!str(claims['sub'])) return { error: 'sub claim is missing' };
  const namespace = str(claims[CLAIM_NAMESPACE]);
  if (!namespace) return { error: 'namespace claim is missing' };
  const secretName = str(claims[CLAIM_SECRET_NAME]);
  if (!secretName) return { error: 'secretName claim is missing' };
  const saName = str(claims[CLAIM_SA_NAME]);
  if (!saName) return { error: 'serviceAccountName claim is missing' };
  const saUid = str(claims[CLAIM_SA_UID]);
  if (!saUid) return { error: 'serviceAccountUID claim is missing' };
  const subject = splitUsername(str(claims['sub']));
  if (!subject || subject[0] !== namespace || subject[1] !== saName) return { error: 'sub claim is invalid' };

  const secret = await getter.secret(namespace, secretName);
  if (!secret || metaField(secret, 'deletionTimestamp')) return { error: 'Token has been invalidated' };
  const held = Buffer.from(str(isObject(secret['data']) ? secret['data']['token'] : undefined), 'base64');
  const given = Buffer.from(token);
  if (held.length !== given.length || !timingSafeEqual(held, given)) return { error: "Token does not match server's copy" };

  const sa = await getter.serviceAccount(namespace, saName);
  if (!sa) return { error: `serviceaccounts "${saName}" not found` };
  if (metaField(sa, 'deletionTimestamp')) return { error: `ServiceAccount ${namespace}/${saName} has been deleted` };
  const uid = str(metaField(sa, 'uid'));
  if (uid !== saUid) return { error: `ServiceAccount UID (${uid}) does not match claim (${saUid})` };

  const labels = isObject(metaField(secret, 'labels')) ? (metaField(secret, 'labels') as Record<string, unknown>) : {};
  const markUsed = async (): Promise<void> => {
    const today = utcDate(nowMs);
    const lastUsed = labels[LAST_USED_LABEL];
    if (!label || lastUsed === today || lastUsed === utcDate(nowMs + 86_400_000)) return;
    // Failing to label is logged, never a reason to refuse the token.
    await label(namespace, secretName, str(metaField(secret, 'uid')), { [LAST_USED_LABEL]: today }).catch((e: unknown) =>
      console.error(`Failed to label legacy service account token ${secretName}/${namespace} with last-used date, err: ${e instanceof Error ? e.message : String(e)}`),
    );
  };
  if (str(labels[INVALID_SINCE_LABEL])) {
    await markUsed();
    return {
      error: `the token in secret ${namespace}/${secretName} for service account ${namespace}/${saName} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`,
    };
  }
  await markUsed();
  // ServiceAccountInfo.UserInfo without a credential id: a legacy token has no jti.
  return { user: { name: serviceAccountUsername(namespace, saName), uid: saUid, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] } };
}
