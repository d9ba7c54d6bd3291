// The bytes of a value in etcd, as kube-apiserver's etcd3 store writes them: the object in its storage
// encoding (Kubernetes protobuf with the `k8s\0` envelope for built-in kinds, CRDs as v1beta1 JSON, JSON
// for the rest), then the encryption-at-rest transformer when its resource has one. Above the etcd store
// values stay the object's JSON text, so the conversion happens here, on the way in and out of etcd.
//
// The object codecs come from above (the server's tables of Go structs, the CRD conversion): storage only
// composes them.
import type { KeyTransformerLookup } from './encryption/encrypting-store.js';

/** How the objects under one key are written: the JSON text to its storage bytes and back. */
export interface ObjectCodec {
  /** The storage bytes, or undefined to store the JSON itself (an object this codec has no form for). */
  encode(json: string): Buffer | undefined;
  /** The JSON text the server's own encoder writes for the object; throws when the bytes cannot be read. */
  decode(bytes: Buffer): string;
  /**
   * A value stored as JSON text (`{`): what the server holds for it, stale when a write would store it in
   * another form (default: as is, stale when `encode` writes protobuf). CRDs' is their JSON at another
   * version (kube's v1beta1), converted to the server's.
   */
  readText?(text: string): DecodedValue;
}

/** The codec of a storage key's objects, or undefined: stored as JSON. */
export type ObjectCodecLookup = (key: string) => ObjectCodec | undefined;

export interface DecodedValue {
  value: string;
  /** Not in the form a write would store now (another key or provider, or JSON where protobuf is written): rewrite on update. */
  stale?: boolean;
}

export interface EtcdValueCodec {
  toStorage(key: string, value: string): Buffer;
  /** Throws when the value cannot be read (a decryption or decoding failure). */
  fromStorage(key: string, stored: Buffer): DecodedValue;
}

/** Values as UTF-8 text: what the store writes without a codec. */
export const TEXT_CODEC: EtcdValueCodec = {
  toStorage: (_key, value) => Buffer.from(value, 'utf8'),
  fromStorage: (_key, stored) => ({ value: stored.toString('utf8') }),
};

/** Whether stored bytes begin with the protobuf serializer's `k8s\0`. */
export const isProtobufValue = (b: Buffer): boolean => b.length >= 4 && b[0] === 0x6b && b[1] === 0x38 && b[2] === 0x73 && b[3] === 0x00;

export interface EtcdValueCodecOptions {
  /** Built-in kinds' protobuf codecs (and CRDs' v1beta1 JSON) by key. */
  objects?: ObjectCodecLookup;
  /** Encryption at rest, in binary mode (strings are latin1 bytes): encrypts the encoded object, as kube does. */
  transformers?: KeyTransformerLookup;
}

/**
 * Encode, then encrypt; decrypt, then decode. Reading tells the encodings apart by their first bytes (`k8s\0`
 * or JSON's `{`), so values an earlier version wrote as JSON are still read; they are stale where protobuf
 * is written now, so that an update that changes nothing still rewrites them.
 */
export function etcdValueCodec(opts: EtcdValueCodecOptions): EtcdValueCodec {
  const { objects, transformers } = opts;
  return {
    toStorage(key, value) {
      const plain = objects?.(key)?.encode(value) ?? Buffer.from(value, 'utf8');
      const t = transformers?.(key);
      return t ? Buffer.from(t.toStorage(plain.toString('latin1'), key), 'latin1') : plain;
    },
    fromStorage(key, stored) {
      let bytes = stored;
      let stale = false;
      const t = transformers?.(key);
      if (t) {
        const r = t.fromStorage(stored.toString('latin1'), key);
        bytes = Buffer.from(r.value, 'latin1');
        stale = r.stale;
      }
      const codec = objects?.(key);
      let value: string;
      if (codec && isProtobufValue(bytes)) value = codec.decode(bytes);
      else if (codec?.readText) {
        const r = codec.readText(bytes.toString('utf8'));
        value = r.value;
        stale ||= r.stale === true;
      } else {
        // Also a kind we have no protobuf form for that kube-apiserver wrote (one not served here): left
        // as text, which only reading it as an object refuses.
        value = bytes.toString('utf8');
      }
      return stale ? { value, stale } : { value };
    },
  };
}
