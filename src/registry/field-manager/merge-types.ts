// The ManagedFieldsTypes of one kind from its resource types, one per API version: each version's merge
// schema (built on first use), and conversion between versions through the stored form, as kube converts
// through the internal (hub) version.
import type { JSONObject } from '../../util/json.js';
import type { MergeSchema, TypeRef } from '../../smd/schema.js';
import type { Typed } from '../../smd/updater.js';
import type { ResourceType } from '../resource-type.js';
import type { ManagedFieldsTypes } from './field-manager.js';

export interface TypedSchema {
  schema: MergeSchema;
  root: TypeRef;
}

export interface KindVersion {
  apiVersion: string;
  type: Pick<ResourceType, 'toStorage' | 'fromStorage'>;
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
    convert(obj: Typed, apiVersion: string): Typed | undefined {
      if (obj.version === apiVersion) return obj;
      const from = byVersion.get(obj.version);
      const to = byVersion.get(apiVersion);
      if (!from || !to) return undefined;
      const value = to.type.fromStorage(from.type.toStorage(structuredClone(obj.value) as JSONObject));
      return { value, version: apiVersion };
    },
    newObject(apiVersion) {
      return byVersion.get(apiVersion)?.newObject() ?? {};
    },
    ...(defaults ? { defaults: (obj: JSONObject) => defaults(String(obj['apiVersion'] ?? ''), obj) } : {}),
  };
}
