// ServiceAccount issuer discovery (pkg/serviceaccount/openidmetadata.go): the OpenID Connect discovery document
// at /.well-known/openid-configuration and the key set at /openid/v1/jwks, so that relying parties outside the
// cluster can verify ServiceAccount tokens.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { algorithmFor } from './jwt.js';
import type { VerifyingKey } from './service-account-keys.js';

export const OPENID_CONFIG_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

/** Whether kube serves the documents for an issuer: only an https URL can be discovered. */
export function discoverableIssuer(issuer: string): boolean {
  try {
    return new URL(issuer).protocol === 'https:';
  } catch {
    return false;
  }
}

/** The discovery document, fields in openIDMetadata's order. */
export function openIDConfiguration(issuer: string, jwksUri: string, keys: readonly VerifyingKey[]): Record<string, unknown> {
  const algs = [...new Set(keys.map((k) => algorithmFor(k.key)).filter((a): a is string => a !== undefined))].sort();
  return {
    issuer,
    jwks_uri: jwksUri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
  };
}

/** The public keys as a JWK set, each as go-jose writes a JSONWebKey (use, kty, kid, crv, alg, x, y, n, e). */
export function jwks(keys: readonly VerifyingKey[]): { keys: Record<string, unknown>[] } {
  return { keys: keys.map((k) => jwk(k.key, k.kid)) };
}

function jwk(key: KeyObject, kid: string): Record<string, unknown> {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const j = pub.export({ format: 'jwk' });
  const alg = algorithmFor(pub);
  if (j.kty === 'EC') return { use: 'sig', kty: 'EC', kid, crv: j.crv, alg, x: j.x, y: j.y };
  return { use: 'sig', kty: 'RSA', kid, alg, n: j.n, e: j.e };
}
