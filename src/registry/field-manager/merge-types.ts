// The ManagedFieldsTypes of one kind from its resource types, one per API version: each version's merge
// schema (built on first use), and conversion between versions through the stored form, as kube converts
// through the internal (hub) version.
import type { JSONObject } from '../../util/json.js';
import type { MergeSchema, TypeRef } from '../../smd/schema.js';
import type { Typed } from '../../smd/updater.js';
import type { ResourceType } from '../resource-type.js';
import { NeedsConversion, type ConversionCache, type ManagedFieldsTypes } from './types.js';
import { deepCopyJSON } from '../../util/json.js';



export interface TypedSchema {
  schema: MergeSchema;
  root: TypeRef;
}

export interface KindVersion {
  apiVersion: string;
  type: Pick<ResourceType, 'toStorage' | 'fromStorage' | 'asyncCodec'>;
  schema: () => TypedSchema;
  newObject: () => JSONObject;
}

export function managedFieldsTypes(versions: readonly KindVersion[], defaults?: (apiVersion: string, obj: JSONObject) => void): ManagedFieldsTypes {
  const byVersion = new Map(versions.map((v) => [v.apiVersion, v]));
  const schemas = new Map<string, TypedSchema>();
  return {
    versions: versions.map((v) => v.apiVersion),
    schemaFor(apiVersion) {
      let s = schemas.get(apiVersion);
      if (!s) {
        const v = byVersion.get(apiVersion);
        if (!v) return undefined;
        s = v.schema();
        schemas.set(apiVersion, s);
      }
      return s;
    },
    convert(obj: Typed, apiVersion: string, cache?: ConversionCache): Typed | undefined {
      if (obj.version === apiVersion) return obj;
      const from = byVersion.get(obj.version);
      const to = byVersion.get(apiVersion);
      if (!from || !to) return undefined;
      if (from.type.asyncCodec || to.type.asyncCodec) {
        const key = `${apiVersion}\u0000${JSON.stringify(obj.value)}`;
        if (cache?.has(key)) {
          const hit = cache.get(key);
          return hit && { value: deepCopyJSON(hit.value), version: hit.version };
        }
        throw new NeedsConversion(key, obj, apiVersion);
      }
      const value = to.type.fromStorage(from.type.toStorage(deepCopyJSON(obj.value) as JSONObject));
      return { value, version: apiVersion };
    },
    async convertAsync(obj: Typed, apiVersion: string): Promise<Typed | undefined> {
      const from = byVersion.get(obj.version);
      const to = byVersion.get(apiVersion);
      if (!from || !to) return undefined;
      // Through the stored (hub) version, each step by the webhook where the version has one.
      const value = deepCopyJSON(obj.value) as JSONObject;
      const stored = from.type.asyncCodec ? await from.type.asyncCodec.encode(value) : from.type.toStorage(value);
      const out = to.type.asyncCodec ? (await to.type.asyncCodec.decode([stored]))[0]! : to.type.fromStorage(stored);
      return { value: out, version: apiVersion };
    },
    newObject(apiVersion) {
      return byVersion.get(apiVersion)?.newObject() ?? {};
    },
    ...(defaults ? { defaults: (obj: JSONObject) => defaults(String(obj['apiVersion'] ?? ''), obj) } : {}),
  };
}
