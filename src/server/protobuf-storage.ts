// Built-in kinds in etcd as kube-apiserver stores them: Kubernetes protobuf of the storage version in the
// `k8s\0` envelope (runtime.Unknown with empty contentEncoding and contentType), which kube-apiserver
// reads and writes too. The storage layer gets these codecs as plain functions (see
// storage/etcd-value-codec.ts); the JSON they decode to is, byte for byte, what the registry writes for
// the same object, so an update that changes nothing is still recognised as one.
import type { ObjectCodec, ObjectCodecLookup } from '../storage/etcd-value-codec.js';
import { ObjectMeta } from '../apis/meta/v1/object-meta.js';
import { BUILTIN_KINDS } from '../apis/index.js';
import { gvString } from '../api/resource.js';
import { parseJSON, stringifyJSON } from '../util/json-int64.js';
import { decodeStoredObject, encodeProtobufObject, hasProtobufForm } from './protobuf.js';

/** A built-in kind's storage: its key prefix (`/registry/configmaps/`) and the version it is stored at. */
export interface StoredKind {
  keyPrefix: string;
  apiVersion: string;
  kind: string;
}

/** Every built-in kind with storage: its key prefix and the version its objects are stored at. */
export function builtinStoredKinds(): StoredKind[] {
  return BUILTIN_KINDS.filter((k) => !k.createOnly).map((k) => ({
    keyPrefix: k.keyPrefix,
    apiVersion: gvString(k.storageGroup ?? k.served.group, k.storageVersion),
    kind: k.storage?.object?.name ?? k.object.name,
  }));
}

const META_KEYS = ObjectMeta.fields.map((f) => f.json);

/**
 * The registry stores `metadata.resourceVersion` as "" in its place (reads splice the revision in there);
 * Go's JSON leaves an empty resourceVersion out (omitempty), so the decoded object gets it back.
 */
export function withResourceVersionSlot(meta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of META_KEYS) {
    if (k === 'resourceVersion') out[k] = meta[k] ?? '';
    else if (meta[k] !== undefined) out[k] = meta[k];
  }
  return out;
}

function codecOf(kind: StoredKind, write: boolean): ObjectCodec {
  return {
    encode(json) {
      if (!write) return undefined;
      let obj: unknown;
      try {
        obj = parseJSON(json);
      } catch {
        return undefined;
      }
      // Only objects of the storage version: anything else (there should be nothing) stays JSON.
      if (typeof obj !== 'object' || obj === null) return undefined;
      const o = obj as Record<string, unknown>;
      if (o['apiVersion'] !== kind.apiVersion || o['kind'] !== kind.kind) return undefined;
      return encodeProtobufObject(o);
    },
    decode(bytes) {
      const obj = decodeStoredObject(bytes);
      const meta = obj['metadata'];
      if (typeof meta === 'object' && meta !== null) obj['metadata'] = withResourceVersionSlot(meta as Record<string, unknown>);
      return stringifyJSON(obj);
    },
    // JSON an earlier version of this server wrote: read as is, rewritten as protobuf by the next update.
    readText: (text) => (write ? { value: text, stale: true } : { value: text }),
  };
}

/**
 * The codec lookup of the etcd store: keys under a built-in kind's prefix (with a protobuf form here) are
 * protobuf; custom resources, CRDs (kube stores them as JSON too) and kinds without a protobuf form stay JSON.
 * write: false (--storage-media-type application/json) writes JSON but still reads protobuf, as kube's
 * storage decoder does.
 */
export function protobufStorageCodecs(opts: { write?: boolean; kinds?: readonly StoredKind[] } = {}): ObjectCodecLookup {
  const byPrefix = new Map<string, ObjectCodec>();
  for (const k of opts.kinds ?? builtinStoredKinds()) {
    if (hasProtobufForm(k.apiVersion, k.kind) && !byPrefix.has(k.keyPrefix)) byPrefix.set(k.keyPrefix, codecOf(k, opts.write ?? true));
  }
  return (key) => {
    if (!key.startsWith('/registry/')) return undefined;
    // `/registry/<resource>/...` or `/registry/<group>/<resource>/...`: the prefix is the first one or two segments.
    const second = key.indexOf('/', 10);
    if (second < 0) return undefined;
    const one = byPrefix.get(key.slice(0, second + 1));
    if (one) return one;
    const third = key.indexOf('/', second + 1);
    return third < 0 ? undefined : byPrefix.get(key.slice(0, third + 1));
  };
}
