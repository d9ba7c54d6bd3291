// How custom resources move between their stored form and a served version, as kube's CRD storage
// codec does it: the decoder prunes and defaults at the version an object was stored at, the converter
// changes the version (None: apiVersion only; Webhook: a ConversionReview) and prunes at the target
// version. Writes convert to the storage version of the moment and prune at it. With
// spec.preserveUnknownFields nothing is pruned; root metadata is still coerced to ObjectMeta.
import type { JSONObject } from '../util/json.js';
import { isObject, sortKeysDeep, deepCopyJSON } from '../util/json.js';
import type { CompiledSchema } from '../schema/compile.js';
import { coerceObjectMeta } from '../schema/prune-objectmeta.js';
import type { AsyncCodec } from '../registry/resource-type.js';
import type { ConvertObjects } from '../conversion/types.js';
import { plainError } from '../api/status.js';

/** What decoding needs of one version's compiled schema. */
interface CodecSchema {
  object: CompiledSchema;
  hasDefaults: boolean;
}

interface CodecContext {
  group: string;
  preserveUnknownFields: boolean;
  /** Every version in spec.versions (served or not), by name; undefined where there is no schema. */
  schemas: Pick<ReadonlyMap<string, CodecSchema | undefined>, 'get' | 'has'>;
}

/** The version part of an object's apiVersion, when it is in the CRD's group. */
function versionOf(ctx: CodecContext, obj: JSONObject): string | undefined {
  const av = obj['apiVersion'];
  if (typeof av !== 'string') return undefined;
  const slash = av.indexOf('/');
  return slash >= 0 && av.slice(0, slash) === ctx.group ? av.slice(slash + 1) : undefined;
}

/** unstructuredSchemaCoercer.apply at `version`, for objects read back (malformed metadata is dropped). */
function coerce(ctx: CodecContext, version: string | undefined, obj: JSONObject): void {
  const schema = version === undefined ? undefined : ctx.schemas.get(version);
  if (!ctx.preserveUnknownFields && schema) {
    schema.object.prune(obj, { dropInvalidMetadata: true });
    return;
  }
  if (Object.hasOwn(obj, 'metadata')) {
    const meta = coerceObjectMeta(obj['metadata'], { dropMalformedFields: true, returnUnknownFieldPaths: false, pathPrefix: 'metadata' });
    if (meta.meta !== undefined) obj['metadata'] = meta.meta;
  }
}

/**
 * crConverter refuses objects stored at a version the CRD no longer lists (storedVersions trimmed by hand
 * while such objects remained).
 */
function checkStoredVersion(ctx: CodecContext, obj: JSONObject): void {
  const version = versionOf(ctx, obj);
  if (version !== undefined && !ctx.schemas.has(version)) {
    throw plainError(`request to convert CR from an invalid group/version: ${String(obj['apiVersion'])}`);
  }
}

/** The storage decoder and defaulter: prune, then default, at the version the object was stored at. */
function decodeStored(ctx: CodecContext, obj: JSONObject): void {
  const version = versionOf(ctx, obj);
  coerce(ctx, version, obj);
  const schema = version === undefined ? undefined : ctx.schemas.get(version);
  if (schema?.hasDefaults) schema.object.default(obj);
}

interface VersionCodec {
  /** Stored form to this version, when no round trip is needed (None, or already at this version). */
  fromStorage(obj: JSONObject): JSONObject;
  /** This version to the stored form, when no round trip is needed. */
  toStorage(obj: JSONObject): JSONObject;
  /** Present for webhook conversion. */
  asyncCodec?: AsyncCodec;
}

/**
 * The codec of one served version. `storageVersion` is the storage version of the moment; `convert` is the
 * webhook converter for strategy Webhook (absent: None).
 */
export function versionCodec(ctx: CodecContext, version: string, storageVersion: string, convert?: ConvertObjects): VersionCodec {
  const apiVersion = `${ctx.group}/${version}`;
  const storageApiVersion = `${ctx.group}/${storageVersion}`;
  const fromStorage = (obj: JSONObject): JSONObject => {
    checkStoredVersion(ctx, obj);
    decodeStored(ctx, obj);
    if (obj['apiVersion'] === apiVersion) return obj;
    // The None converter: only apiVersion changes; then pruning at the version asked for.
    const out = { ...obj, apiVersion };
    coerce(ctx, version, out);
    return out;
  };
  const toStorage = (obj: JSONObject): JSONObject => {
    // At the storage version already: the request decoder pruned it at that version.
    if (obj['apiVersion'] === storageApiVersion) return obj;
    const out = deepCopyJSON({ ...obj, apiVersion: storageApiVersion });
    coerce(ctx, storageVersion, out);
    return out;
  };
  if (!convert) return { fromStorage, toStorage };

  const asyncCodec: AsyncCodec = {
    async decode(stored) {
      const out = stored.slice();
      const todo: number[] = [];
      for (let i = 0; i < out.length; i++) {
        const obj = out[i]!;
        checkStoredVersion(ctx, obj);
        decodeStored(ctx, obj);
        if (obj['apiVersion'] !== apiVersion) todo.push(i);
      }
      if (todo.length === 0) return out;
      // Stored objects carry an empty resourceVersion placeholder; kube's have none while they convert.
      const sent = todo.map((i) => withoutEmptyResourceVersion(out[i]!));
      const converted = await convert(sent, apiVersion);
      todo.forEach((i, j) => {
        const obj = converted[j]!;
        coerce(ctx, version, obj);
        // The placeholder back in place, so the resourceVersion set next keeps sorted key order.
        if (isObject(obj['metadata'])) obj['metadata']['resourceVersion'] = '';
        out[i] = sortKeysDeep(obj);
      });
      return out;
    },
    async encode(obj) {
      if (obj['apiVersion'] === storageApiVersion) return obj;
      const [converted] = await convert([obj], storageApiVersion);
      const out = converted!;
      coerce(ctx, storageVersion, out);
      return out;
    },
  };
  return { fromStorage, toStorage, asyncCodec };
}

function withoutEmptyResourceVersion(obj: JSONObject): JSONObject {
  const meta = obj['metadata'];
  if (!isObject(meta) || meta['resourceVersion'] !== '') return obj;
  const { resourceVersion: _rv, ...rest } = meta;
  return { ...obj, metadata: rest };
}
