// JSON Web Tokens in JWS compact form (RFC 7515/7519), as go-jose writes and reads them for kube's
// ServiceAccount tokens: `base64url(header).base64url(claims).base64url(signature)`, signed with RS256 (RSA
// keys) or ES256/384/512 (ECDSA keys) by node:crypto. Tokens of external OIDC issuers may also use
// RS384/512 and PS256/384/512 (verifyJwtAs). No encryption.
import { constants, createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export type JwtClaims = Record<string, unknown>;

interface Algorithm {
  alg: string;
  hash: string;
  /** JOSE's ECDSA signatures are r||s, not DER. */
  ecdsa?: true;
}

const ALGORITHMS: Readonly<Record<string, Algorithm>> = {
  RS256: { alg: 'RS256', hash: 'sha256' },
  ES256: { alg: 'ES256', hash: 'sha256', ecdsa: true },
  ES384: { alg: 'ES384', hash: 'sha384', ecdsa: true },
  ES512: { alg: 'ES512', hash: 'sha512', ecdsa: true },
};

const EC_CURVE_ALG: Readonly<Record<string, string>> = { 'prime256v1': 'ES256', 'secp384r1': 'ES384', 'secp521r1': 'ES512' };

/** The algorithm kube signs with for a key (RS256 for RSA, by curve for ECDSA); undefined for other keys. */
export function algorithmFor(key: KeyObject): string | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') return EC_CURVE_ALG[key.asymmetricKeyDetails?.namedCurve ?? ''];
  return undefined;
}

/**
 * kube's key id (serviceaccount.keyIDFromPublicKey): the unpadded base64url SHA-256 of the public key's
 * DER (PKIX) encoding, so that verifiers can pick the key from the JWKS.
 */
export function keyId(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256').update(pub.export({ type: 'spki', format: 'der' })).digest('base64url');
}

const encodeSegment = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A signed token; the header is `{"alg":...,"kid":...}` as go-jose writes it. */
export function signJwt(claims: JwtClaims, key: KeyObject, kid: string): string {
  const algName = algorithmFor(key);
  if (!algName) throw new Error(`unsupported service account signing key type ${key.asymmetricKeyType ?? '?'}`);
  const alg = ALGORITHMS[algName]!;
  const input = `${encodeSegment({ alg: alg.alg, kid })}.${encodeSegment(sortKeys(claims))}`;
  const sig = sign(alg.hash, Buffer.from(input), alg.ecdsa ? { key, dsaEncoding: 'ieee-p1363' } : key);
  return `${input}.${sig.toString('base64url')}`;
}

/** go-jose builds the claims as a map and encoding/json writes maps with sorted keys, at every level. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) out[k] = sortKeys(x);
  }
  return out;
}

export interface ParsedJwt {
  header: { alg?: unknown; kid?: unknown; [k: string]: unknown };
  claims: JwtClaims;
  signingInput: string;
  signature: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function decodeSegment(s: string): Record<string, unknown> | undefined {
  if (!BASE64URL.test(s)) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The parts of a compact JWS, unverified; undefined when the text is not one. */
export function parseJwt(token: string): ParsedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [h, c, s] = parts as [string, string, string];
  const header = decodeSegment(h);
  const claims = decodeSegment(c);
  if (!header || !claims || !BASE64URL.test(s)) return undefined;
  return { header, claims, signingInput: `${h}.${c}`, signature: Buffer.from(s, 'base64url') };
}

/** Whether the token was signed by `key` with the algorithm its header names (which must suit the key). */
export function verifyJwt(jwt: ParsedJwt, key: KeyObject): boolean {
  const algName = typeof jwt.header.alg === 'string' ? jwt.header.alg : '';
  const alg = ALGORITHMS[algName];
  // The key decides the algorithm: a token may not pick a weaker or different one ("alg confusion").
  if (!alg || algorithmFor(key) !== algName) return false;
  try {
    return verify(alg.hash, Buffer.from(jwt.signingInput), alg.ecdsa ? { key, dsaEncoding: 'ieee-p1363' } : key, jwt.signature);
  } catch {
    return false;
  }
}

/** The JOSE algorithms kube's OIDC authenticator allows (oidc.AllValidSigningAlgorithms), by name. */
const VERIFY_ALGORITHMS: Readonly<Record<string, { hash: string; kty: 'rsa' | 'ec'; curve?: string; pss?: true }>> = {
  RS256: { hash: 'sha256', kty: 'rsa' },
  RS384: { hash: 'sha384', kty: 'rsa' },
  RS512: { hash: 'sha512', kty: 'rsa' },
  PS256: { hash: 'sha256', kty: 'rsa', pss: true },
  PS384: { hash: 'sha384', kty: 'rsa', pss: true },
  PS512: { hash: 'sha512', kty: 'rsa', pss: true },
  ES256: { hash: 'sha256', kty: 'ec', curve: 'prime256v1' },
  ES384: { hash: 'sha384', kty: 'ec', curve: 'secp384r1' },
  ES512: { hash: 'sha512', kty: 'ec', curve: 'secp521r1' },
};

export const ALL_SIGNING_ALGORITHMS: readonly string[] = Object.keys(VERIFY_ALGORITHMS).sort();

/**
 * Whether the token was signed by `key` with the algorithm its header names, which must be one go-jose
 * accepts for the key's type (RSA for RS and PS, the matching curve for ES).
 */
export function verifyJwtAs(jwt: ParsedJwt, key: KeyObject): boolean {
  const name = typeof jwt.header.alg === 'string' ? jwt.header.alg : '';
  const alg = VERIFY_ALGORITHMS[name];
  if (!alg || key.asymmetricKeyType !== alg.kty) return false;
  if (alg.curve && key.asymmetricKeyDetails?.namedCurve !== alg.curve) return false;
  try {
    const input = Buffer.from(jwt.signingInput);
    if (alg.kty === 'ec') return verify(alg.hash, input, { key, dsaEncoding: 'ieee-p1363' }, jwt.signature);
    if (alg.pss) return verify(alg.hash, input, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }, jwt.signature);
    return verify(alg.hash, input, key, jwt.signature);
  } catch {
    return false;
  }
}
