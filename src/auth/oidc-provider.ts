// The issuer side of a JWT authenticator, as go-oidc (v2, which kube vendors) reaches it: the discovery
// document at {issuer}/.well-known/openid-configuration (or the configured discoveryURL), whose issuer must be
// the configured one, and the key set at its jwks_uri, fetched again whenever a token names a key not in hand
// (the only way go-oidc notices a key rotation).
import http from 'node:http';
import https from 'node:https';
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { isObject } from '../util/json.js';

export interface HttpResponse {
  /** Go's resp.Status: "404 Not Found". */
  status: string;
  ok: boolean;
  body: string;
}

/** A GET against the issuer; rejects on network and TLS failures. */
export type HttpGet = (url: string) => Promise<HttpResponse>;

/** The client kube builds for an issuer: its CA bundle (else the system's roots), a 30 s timeout. */
export function issuerClient(ca: string | undefined, timeoutMs = 30_000): HttpGet {
  return (url) =>
    new Promise((resolve, reject) => {
      const u = new URL(url);
      const mod = u.protocol === 'http:' ? http : https;
      const req = mod.get(u, { ...(ca ? { ca } : {}), timeout: timeoutMs, headers: { accept: 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          resolve({ status: `${code} ${res.statusMessage ?? ''}`.trim(), ok: code === 200, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`Get ${JSON.stringify(url)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`)));
      req.on('error', (e) => reject(new Error(`Get ${JSON.stringify(url)}: ${e.message}`)));
    });
}

export const WELL_KNOWN_PATH = '/.well-known/openid-configuration';

/** oidc.NewProvider: the key set's URL, or go-oidc's error. */
export async function discover(issuerURL: string, discoveryURL: string | undefined, get: HttpGet): Promise<string> {
  const url = discoveryURL || issuerURL.replace(/\/$/, '') + WELL_KNOWN_PATH;
  const res = await get(url);
  if (!res.ok) throw new Error(`${res.status}: ${res.body}`);
  let doc: unknown;
  try {
    doc = JSON.parse(res.body);
  } catch (e) {
    throw new Error(`oidc: failed to decode provider discovery object: ${(e as Error).message}`);
  }
  const d = isObject(doc) ? doc : {};
  const issuer = typeof d.issuer === 'string' ? d.issuer : '';
  if (issuer !== issuerURL) throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(issuerURL)} got ${JSON.stringify(issuer)}`);
  return typeof d.jwks_uri === 'string' ? d.jwks_uri : '';
}

export interface Jwk {
  kid: string;
  key: KeyObject;
}

/** go-oidc's remoteKeySet: the keys last fetched, and one fetch at a time. */
export class RemoteKeySet {
  private cached: Jwk[] = [];
  private inflight: Promise<Jwk[]> | undefined;

  constructor(
    private readonly jwksURI: string,
    private readonly get: HttpGet,
  ) {}

  keys(): readonly Jwk[] {
    return this.cached;
  }

  /** Fetch the set again (callers that arrive while a fetch runs share it). */
  refresh(): Promise<Jwk[]> {
    this.inflight ??= this.fetch().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async fetch(): Promise<Jwk[]> {
    const res = await this.get(this.jwksURI);
    if (!res.ok) throw new Error(`oidc: get keys failed: ${res.status} ${res.body}`);
    let doc: unknown;
    try {
      doc = JSON.parse(res.body);
    } catch (e) {
      throw new Error(`oidc: failed to decode keys: ${(e as Error).message} ${res.body}`);
    }
    const keys = isObject(doc) && Array.isArray(doc.keys) ? doc.keys : [];
    const out: Jwk[] = [];
    for (const k of keys) {
      if (!isObject(k)) continue;
      try {
        // Only public parts: a JWK that carries a private key still yields its public key.
        const key = createPublicKey({ key: k as JsonWebKey, format: 'jwk' });
        out.push({ kid: typeof k.kid === 'string' ? k.kid : '', key });
      } catch {
        // A key node:crypto cannot use (an unsupported kty or curve) can verify nothing here; skip it.
      }
    }
    this.cached = out;
    return out;
  }
}
