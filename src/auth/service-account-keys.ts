// The keys ServiceAccount tokens are signed and verified with: kube-apiserver's
// --service-account-signing-key-file (the private key tokens are signed with) and --service-account-key-file
// (PEM files of further public keys, private keys or certificates whose keys verify tokens, e.g. during a
// key rotation). Without a signing key file the server generates an RSA key when it first needs one (its first
// token, or its key set asked for) and keeps it in the data directory (pki/sa.key, 0600, with pki/sa.pub beside
// it, as kubeadm lays them out).
import { X509Certificate, createPrivateKey, createPublicKey, generateKeyPair, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { algorithmFor, keyId } from './jwt.js';

export interface VerifyingKey {
  key: KeyObject;
  kid: string;
}

export interface ServiceAccountKeys {
  /** The private key tokens are signed with, and its key id. */
  signing: { key: KeyObject; kid: string };
  /** Every public key a token may be signed by: the signing key's first. */
  verifying: readonly VerifyingKey[];
}

/**
 * Keys whose signing key is made when first needed: the verification keys known now (the key files'), and `make`,
 * which the first request that signs a token or publishes the key set calls (once).
 */
export interface DeferredServiceAccountKeys {
  verifying: readonly VerifyingKey[];
  make(): Promise<ServiceAccountKeys>;
}

export const isDeferredKeys = (k: unknown): k is DeferredServiceAccountKeys => typeof k === 'object' && k !== null && typeof (k as DeferredServiceAccountKeys).make === 'function';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** The public keys in a PEM file (private keys count for their public half), as keyutil.ParsePublicKeysPEM reads them. */
export function publicKeysFromPem(pem: string, path = '<pem>'): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const type = m[1]!;
    const block = m[0];
    let key: KeyObject;
    if (type === 'CERTIFICATE') key = new X509Certificate(block).publicKey;
    else if (type.endsWith('PRIVATE KEY')) key = createPublicKey(createPrivateKey(block));
    else if (type.endsWith('PUBLIC KEY')) key = createPublicKey(block);
    else continue;
    if (!algorithmFor(key)) throw new Error(`${path}: unsupported key type ${key.asymmetricKeyType ?? '?'} (RSA or ECDSA P-256/384/521 expected)`);
    keys.push(key);
  }
  if (keys.length === 0) throw new Error(`data does not contain any valid RSA or ECDSA public keys: ${path}`);
  return keys;
}

/** The private key of a PEM file (--service-account-signing-key-file). */
export function privateKeyFromPem(pem: string, path = '<pem>'): KeyObject {
  for (const m of pem.matchAll(PEM_BLOCK)) {
    if (!m[1]!.endsWith('PRIVATE KEY')) continue;
    const key = createPrivateKey(m[0]);
    if (!algorithmFor(key)) throw new Error(`${path}: unsupported key type ${key.asymmetricKeyType ?? '?'} (RSA or ECDSA P-256/384/521 expected)`);
    return key;
  }
  throw new Error(`failed to parse service-account-signing-key-file ${path}: no private key found`);
}

/** Keys from a signing key and extra verification keys (deduplicated by key id). */
export function serviceAccountKeys(signing: KeyObject, extraPublic: readonly KeyObject[] = []): ServiceAccountKeys {
  const kid = keyId(signing);
  const verifying: VerifyingKey[] = [{ key: createPublicKey(signing), kid }];
  for (const key of extraPublic) {
    const k = keyId(key);
    if (!verifying.some((v) => v.kid === k)) verifying.push({ key, kid: k });
  }
  return { signing: { key: signing, kid }, verifying };
}

/** A fresh in-memory key, for servers embedded without a data directory (tokens die with the process). */
export const generatedKeys = (): ServiceAccountKeys => serviceAccountKeys(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);

interface LoadOptions {
  /** --service-account-signing-key-file; absent: <dataDir>/pki/sa.key, generated when missing. */
  signingKeyFile?: string;
  /** --service-account-key-file (each may hold several keys). */
  keyFiles?: readonly string[];
}

const extraKeys = (opts: LoadOptions): KeyObject[] => (opts.keyFiles ?? []).flatMap((p) => publicKeysFromPem(readFileSync(p, 'utf8'), p));

/**
 * The keys `serve` runs with, as loadServiceAccountKeys reads them, except that a data directory key not made yet
 * is deferred: made by the first request that needs it. RSA-2048 takes 100-300 ms of a core, which a first start
 * spent beside its own work (on two cores, against it), and which a server that never signs a token never needs.
 * The key files are read now, so that one that cannot be read fails the start.
 */
export function serviceAccountKeysOrDeferred(dataDir: string, opts: LoadOptions = {}): Promise<ServiceAccountKeys> | DeferredServiceAccountKeys {
  if (opts.signingKeyFile || existsSync(join(dataDir, 'pki', 'sa.key'))) return loadServiceAccountKeys(dataDir, opts);
  const verifying: VerifyingKey[] = [];
  for (const key of extraKeys(opts)) {
    const kid = keyId(key);
    if (!verifying.some((v) => v.kid === kid)) verifying.push({ key, kid });
  }
  return { verifying, make: () => loadServiceAccountKeys(dataDir, opts) };
}

/** The keys `serve` runs with: from the flags' files, else the data directory's own key (generated once). */
export async function loadServiceAccountKeys(dataDir: string, opts: LoadOptions = {}): Promise<ServiceAccountKeys> {
  const extra = extraKeys(opts);
  if (opts.signingKeyFile) return serviceAccountKeys(privateKeyFromPem(readFileSync(opts.signingKeyFile, 'utf8'), opts.signingKeyFile), extra);
  const dir = join(dataDir, 'pki');
  const keyPath = join(dir, 'sa.key');
  let pem: string | undefined;
  try {
    // Synchronously, as start-up reads its certificates: one small file, not a turn of the thread pool to wait for.
    pem = readFileSync(keyPath, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (pem === undefined) {
    // Generated off the event loop: RSA-2048 takes tens of milliseconds.
    const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await atomicWrite(keyPath, pem, 0o600);
    await atomicWrite(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }) as string, 0o644);
  }
  return serviceAccountKeys(privateKeyFromPem(pem, keyPath), extra);
}

// Write-then-rename, so that a crash never leaves half a key to be read on the next start.
async function atomicWrite(path: string, data: string, mode: number): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, data, { mode, flag: 'wx' });
  await rename(tmp, path);
}
