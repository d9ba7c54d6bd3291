// A built-in kind's resource type and endpoint, derived from its declaration (src/apis): the discovery
// entry with its storage version hash, the typed key order, the printer, the stored form.
import type { KindDeclaration, TableColumnDecl } from './kind.js';
import type { ResourceType, TableConvertor } from '../registry/resource-type.js';
import type { GenericStore } from '../registry/store.js';
import { goJSONForm, typedOrder } from '../registry/typed-order.js';
import { gvString } from '../api/resource.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import type { Endpoint } from '../registry/endpoint.js';
import { BUILT_IN_PATCH_TYPES } from '../registry/patch.js';
import { storageVersionHash } from '../api/versions.js';
import { defaultTableConvertor } from '../registry/table-convertors.js';
import { ageOf } from '../registry/table-cells.js';


function valueAt(obj: JSONObject, path: readonly string[]): unknown {
  let v: unknown = obj;
  for (const k of path) v = isObject(v) ? v[k] : undefined;
  return v;
}

const keyCount = (v: unknown): number => (Array.isArray(v) ? v.length : isObject(v) ? Object.keys(v).length : 0);

/** A printer from declared columns: each cell the string at its field ('' when absent), an age, or a key (or list item) count. */
function tableConvertorOf(columns: readonly TableColumnDecl[], order?: TableConvertor['order']): TableConvertor {
  return {
    ...(order ? { order } : {}),
    columns: columns.map(({ name, type, format, description, priority }) => ({ name, type, format, description, priority })),
    cells: (obj) =>
      columns.map((c) => {
        if ('cell' in c) return c.cell(obj);
        const v = valueAt(obj, c.field);
        if (c.render === 'count') return (c.alsoCount ?? []).reduce((n, p) => n + keyCount(valueAt(obj, p)), keyCount(v));
        return c.render === 'age' ? ageOf(v) : typeof v === 'string' ? v : '';
      }),
  };
}

export function builtinResourceType(k: KindDeclaration): ResourceType {
  const { group, version, kind, resource } = k.served;
  return {
    // Create-only kinds have no storage, so discovery publishes no hash for them.
    served: { ...k.served, storageVersionHash: k.createOnly ? '' : storageVersionHash(k.storageGroup ?? group, k.storageVersion, kind) },
    gr: { group, resource },
    keyPrefix: k.keyPrefix,
    goType: k.object,
    // Kinds with a protobuf form are held as Go's JSON of the typed object: what their protobuf decodes to.
    strategy: { ...k.strategy, canonicalize: (k.protobuf ? goJSONForm : typedOrder)(k.object) },
    table: k.table ? tableConvertorOf(k.table, k.tableOrder) : defaultTableConvertor,
    selectableFields: k.selectableFields,
    ...(k.defaultFieldLabelConversion ? { defaultFieldLabelConversion: true as const } : {}),
    // Objects stored at this version are returned as stored: their bytes begin with their TypeMeta.
    storedBytesPrefix: k.storage ? undefined : `{"kind":"${kind}","apiVersion":"${gvString(group, version)}",`,
    fromStorage: k.storage?.fromStorage ?? ((obj) => obj),
    toStorage: k.storage?.toStorage ?? ((obj) => obj),
    ...(k.storage?.object ? { storedOrder: (k.protobuf ? goJSONForm : typedOrder)(k.storage.object) } : {}),
  };
}

export function builtinEndpoint(k: KindDeclaration, store: GenericStore): Endpoint {
  const ep: Endpoint = { store, subresources: new Set(k.subresources), patchTypes: BUILT_IN_PATCH_TYPES };
  if (k.warnings) ep.warnings = k.warnings;
  return ep;
}
