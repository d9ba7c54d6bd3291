// Server-side printing: meta.k8s.io Table responses, as kube-apiserver builds them for kubectl get, from
// each resource's table convertor (registry/table-convertors.ts).
import type { JSONObject } from '../util/json.js';
import type { TableConvertor } from '../registry/resource-type.js';
import { defaultTableConvertor } from '../registry/table-convertors.js';

const meta = (obj: JSONObject): JSONObject => (obj['metadata'] as JSONObject | undefined) ?? {};

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  noHeaders?: boolean;
  includeObject: IncludeObject;
  version: 'v1' | 'v1beta1';
}

/** PartialObjectMetadata of an object, as meta.AsPartialObjectMetadata. */
export function partialObjectMetadata(obj: JSONObject, version: string): JSONObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: meta(obj) };
}

export function toTable(
  conv: TableConvertor,
  objs: JSONObject[],
  listMeta: { resourceVersion?: string; continue?: string; remainingItemCount?: number },
  opts: TableOptions,
): JSONObject {
  const table: JSONObject = { kind: 'Table', apiVersion: `meta.k8s.io/${opts.version}`, metadata: { ...listMeta } };
  const md = table['metadata'] as JSONObject;
  for (const k of Object.keys(md)) if (md[k] === undefined || md[k] === '') delete md[k];
  // Both fields are always encoded: null without headers, and null rows from the default convertor's empty lists.
  table['columnDefinitions'] = opts.noHeaders ? null : conv.columns;
  const rows = (conv.order ? [...objs].sort(conv.order) : objs).map((obj) => {
    const row: JSONObject = { cells: conv.cells(obj) };
    if (opts.includeObject === 'Object') row['object'] = obj;
    else if (opts.includeObject === 'Metadata') row['object'] = partialObjectMetadata(obj, opts.version);
    return row;
  });
  table['rows'] = rows.length === 0 && conv === defaultTableConvertor ? null : rows;
  return table;
}
