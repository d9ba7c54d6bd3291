// kube-apiserver's value transformers for encryption at rest (k8s.io/apiserver pkg/storage/value and
// value/encrypt/{aes,secretbox,identity}): a list of prefixed transformers, the first writing, any of them
// reading the values that carry its prefix.
//
// On disk a value is kube's prefix (`k8s:enc:aescbc:v1:<key name>:`) followed by the ciphertext kube's
// transformer produces. In SQLite it is base64-encoded (those stored values are text); on etcd the
// transformers run in binary mode, where strings are bytes (latin1, one char per byte) and the ciphertext
// is raw, as kube writes it. Identity leaves the value as it is.
import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import nacl from 'tweetnacl';

/** What reading a stored value gives: the plaintext, and whether it was not written as the first transformer writes (kube's "stale"). */
export interface FromStorage {
  value: string;
  stale: boolean;
}

export interface ValueTransformer {
  /** dataCtx is the storage key: AES-GCM authenticates it, as kube does. */
  toStorage(plain: string, dataCtx: string): string;
  /** Throws a TransformError when the value cannot be read. */
  fromStorage(stored: string, dataCtx: string): FromStorage;
}

export class TransformError extends Error {}

/** A byte cipher under one key: kube's cbc and gcm transformers. */
export interface BlockTransformer {
  encrypt(plain: Buffer, aad: Buffer): Buffer;
  decrypt(data: Buffer, aad: Buffer): Buffer;
}

const AES_BLOCK = 16;
const GCM_NONCE = 12;
const GCM_TAG = 16;

const aesName = (key: Buffer, mode: 'cbc' | 'gcm'): string => `aes-${key.length * 8}-${mode}`;

/** AES-CBC: a random IV, then the PKCS#7-padded plaintext encrypted (aes.NewCBCTransformer). */
export function aesCBC(key: Buffer): BlockTransformer {
  return {
    encrypt(plain) {
      const iv = randomBytes(AES_BLOCK);
      const c = createCipheriv(aesName(key, 'cbc'), key, iv);
      return Buffer.concat([iv, c.update(plain), c.final()]);
    },
    decrypt(data) {
      if (data.length < AES_BLOCK) throw new TransformError('the stored data was shorter than the required size');
      const body = data.subarray(AES_BLOCK);
      if (body.length % AES_BLOCK !== 0) throw new TransformError('the stored data is not a multiple of the block size');
      const d = createDecipheriv(aesName(key, 'cbc'), key, data.subarray(0, AES_BLOCK));
      d.setAutoPadding(false);
      const out = Buffer.concat([d.update(body), d.final()]);
      // PKCS#7 checked by hand, for kube's messages.
      if (out.length === 0) throw new TransformError('invalid PKCS7 data (empty or not padded)');
      const pad = out[out.length - 1]!;
      if (pad === 0 || pad > out.length || out.subarray(out.length - pad).some((b) => b !== pad)) throw new TransformError('invalid padding on input');
      return out.subarray(0, out.length - pad);
    },
  };
}

/** AES-GCM: a random 12-byte nonce, then the sealed data with its tag, authenticating the storage key (aes.NewGCMTransformer). */
export function aesGCM(key: Buffer): BlockTransformer {
  return {
    encrypt(plain, aad) {
      const nonce = randomBytes(GCM_NONCE);
      const c = createCipheriv(aesName(key, 'gcm') as CipherGCMTypes, key, nonce);
      c.setAAD(aad);
      const sealed = Buffer.concat([c.update(plain), c.final()]);
      return Buffer.concat([nonce, sealed, c.getAuthTag()]);
    },
    decrypt(data, aad) {
      if (data.length < GCM_NONCE) throw new TransformError('the stored data was shorter than the required size');
      // Go's crypto/cipher error for any failed Open.
      if (data.length < GCM_NONCE + GCM_TAG) throw new TransformError('cipher: message authentication failed');
      const d = createDecipheriv(aesName(key, 'gcm') as CipherGCMTypes, key, data.subarray(0, GCM_NONCE));
      d.setAAD(aad);
      d.setAuthTag(data.subarray(data.length - GCM_TAG));
      try {
        return Buffer.concat([d.update(data.subarray(GCM_NONCE, data.length - GCM_TAG)), d.final()]);
      } catch {
        throw new TransformError('cipher: message authentication failed');
      }
    },
  };
}

const SECRETBOX_NONCE = 24;

/**
 * secretbox: NaCl's XSalsa20-Poly1305 under a 32-byte key, a random 24-byte nonce first, then the sealed box
 * (Poly1305 tag, then the ciphertext), as golang.org/x/crypto/nacl/secretbox.Seal appends it. Nothing else is
 * authenticated: kube's secretbox ignores the storage key.
 */
export function secretbox(key: Buffer): BlockTransformer {
  return {
    encrypt(plain) {
      const nonce = randomBytes(SECRETBOX_NONCE);
      return Buffer.concat([nonce, nacl.secretbox(plain, nonce, key)]);
    },
    decrypt(data) {
      if (data.length < SECRETBOX_NONCE + nacl.secretbox.overheadLength) throw new TransformError('the stored data was shorter than the required size');
      const opened = nacl.secretbox.open(data.subarray(SECRETBOX_NONCE), data.subarray(0, SECRETBOX_NONCE), key);
      // kube's message for a box that does not open.
      if (!opened) throw new TransformError('output array was not large enough for encryption');
      return Buffer.from(opened);
    },
  };
}

export interface PrefixTransformer {
  prefix: string;
  transformer: ValueTransformer;
}

/** utilerrors.Reduce(NewAggregate(errs)): one error as itself, several as a bracketed list. */
function reduce(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
}

/**
 * value.NewPrefixTransformers: the first transformer writes (its prefix, then its output); reading
 * tries each transformer whose prefix the value starts with, in order. A transformer with an empty
 * prefix (identity) that fails is skipped silently. Anything but the first one reading is "stale".
 */
export function prefixTransformers(noMatch: string, list: readonly PrefixTransformer[]): ValueTransformer {
  return {
    toStorage(plain, dataCtx) {
      const first = list[0]!;
      return first.prefix + first.transformer.toStorage(plain, dataCtx);
    },
    fromStorage(stored, dataCtx) {
      const errs: string[] = [];
      for (const [i, t] of list.entries()) {
        if (!stored.startsWith(t.prefix)) continue;
        try {
          const r = t.transformer.fromStorage(stored.slice(t.prefix.length), dataCtx);
          return { value: r.value, stale: r.stale || i !== 0 };
        } catch (err) {
          if (t.prefix !== '') errs.push(err instanceof Error ? err.message : String(err));
        }
      }
      throw new TransformError(errs.length ? reduce(errs) : noMatch);
    },
  };
}

/**
 * Binary mode (etcd): plaintext and stored values are byte strings (latin1) and the ciphertext is raw, as kube
 * stores it. A value in the text form (base64 ciphertext over UTF-8 JSON, as earlier versions of this server
 * wrote to etcd) is still read, and is stale so that rewriting objects converts it.
 */
function binaryKeyTransformer(cipher: BlockTransformer): ValueTransformer {
  return {
    toStorage: (plain, dataCtx) => cipher.encrypt(Buffer.from(plain, 'latin1'), Buffer.from(dataCtx, 'utf8')).toString('latin1'),
    fromStorage(stored, dataCtx) {
      const aad = Buffer.from(dataCtx, 'utf8');
      // Raw ciphertext of a block or more is all base64 letters with odds of 4^-16 at best.
      if (stored.length >= 24 && stored.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(stored)) {
        try {
          return { value: cipher.decrypt(Buffer.from(stored, 'base64'), aad).toString('latin1'), stale: true };
        } catch {
          // Not the text form after all: read it as raw bytes below.
        }
      }
      return { value: cipher.decrypt(Buffer.from(stored, 'latin1'), aad).toString('latin1'), stale: false };
    },
  };
}

/** One key of an AES provider: its cipher over UTF-8 plaintext and base64 ciphertext (or raw bytes in binary mode). */
export function keyTransformer(cipher: BlockTransformer, binary = false): ValueTransformer {
  if (binary) return binaryKeyTransformer(cipher);
  return {
    toStorage: (plain, dataCtx) => cipher.encrypt(Buffer.from(plain, 'utf8'), Buffer.from(dataCtx, 'utf8')).toString('base64'),
    fromStorage(stored, dataCtx) {
      // Base64 the strict way: anything else is not our ciphertext.
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(stored) || stored.length % 4 !== 0) throw new TransformError('illegal base64 data in stored value');
      return { value: cipher.decrypt(Buffer.from(stored, 'base64'), Buffer.from(dataCtx, 'utf8')).toString('utf8'), stale: false };
    },
  };
}

const ENCRYPTED_PREFIX = 'k8s:enc:';

/** identity: values as they are; it refuses values another transformer encrypted. */
export const identityTransformer: ValueTransformer = {
  toStorage: (plain) => plain,
  fromStorage(stored) {
    if (stored.startsWith(ENCRYPTED_PREFIX)) throw new TransformError('identity transformer tried to read encrypted data');
    return { value: stored, stale: false };
  },
};

export interface NamedKey {
  name: string;
  secret: Buffer;
}

/** An AES provider (aescbc or aesgcm) over its keys, as kube's aesPrefixTransformer builds it. */
export function aesProvider(mode: 'aescbc' | 'aesgcm', keys: readonly NamedKey[], binary = false): PrefixTransformer {
  const make = mode === 'aescbc' ? aesCBC : aesGCM;
  return {
    prefix: `k8s:enc:${mode}:v1:`,
    transformer: prefixTransformers(
      'no matching key was found for the provided AES transformer',
      keys.map((k) => ({ prefix: `${k.name}:`, transformer: keyTransformer(make(k.secret), binary) })),
    ),
  };
}

/** The secretbox provider over its keys, as kube's secretboxPrefixTransformer builds it. */
export function secretboxProvider(keys: readonly NamedKey[], binary = false): PrefixTransformer {
  return {
    prefix: 'k8s:enc:secretbox:v1:',
    transformer: prefixTransformers(
      'no matching key was found for the provided Secretbox transformer',
      keys.map((k) => ({ prefix: `${k.name}:`, transformer: keyTransformer(secretbox(k.secret), binary) })),
    ),
  };
}

export const identityProvider: PrefixTransformer = { prefix: '', transformer: identityTransformer };
