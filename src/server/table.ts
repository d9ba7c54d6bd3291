// Server-side printing: meta.k8s.io Table responses, as kube-apiserver builds them for kubectl get, from
// each resource's table convertor (registry/table-convertors.ts).
import type { JSONObject } from '../util/json.js';
import type { TableConvertor } from '../registry/resource-type.js';
import type { GenericStore, RawObject } from '../registry/store.js';
import type { KeyValue } from '../storage/types.js';
import { defaultTableConvertor } from '../registry/table-convertors.js';
import { stringifyJSON } from '../util/json-int64.js';

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
  const rows = (conv.order ? [...objs].sort(conv.order) : objs).map((obj) => tableRow(conv, obj, opts));
  table['rows'] = rows.length === 0 && conv === defaultTableConvertor ? null : rows;
  return table;
}

/** One row of a Table: the object's cells, and the object as includeObject asks. */
export function tableRow(conv: TableConvertor, obj: JSONObject, opts: TableOptions): JSONObject {
  const row: JSONObject = { cells: conv.cells(obj) };
  if (opts.includeObject === 'Object') row['object'] = obj;
  else if (opts.includeObject === 'Metadata') row['object'] = partialObjectMetadata(obj, opts.version);
  return row;
}

/**
 * A Table's JSON around its rows, for writing the rows one at a time: what toTable encodes before the
 * first row and after the last. Undefined where the rows cannot be written in the objects' order (a
 * convertor that sorts them) or toTable would not encode a list of rows (no objects).
 */
export function tableJsonEnvelope(
  conv: TableConvertor,
  count: number,
  listMeta: { resourceVersion?: string; continue?: string; remainingItemCount?: number },
  opts: TableOptions,
): { head: string; tail: string } | undefined {
  if (conv.order || count === 0) return undefined;
  const text = stringifyJSON({ ...toTable(conv, [], listMeta, opts), rows: [] });
  const end = '"rows":[]}';
  if (!text.endsWith(end)) return undefined;
  return { head: text.slice(0, -2), tail: ']}\n' };
}

/** What a row's PartialObjectMetadata says before its metadata, by Table version. */
const OBJECT_METADATA = {
  v1: ',"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":',
  v1beta1: ',"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1beta1","metadata":',
};

/**
 * One row of a Table as JSON text, as stringifying tableRow would write it. For an object served as stored,
 * with a convertor whose cells can be kept and without the whole object asked for, the row is made without
 * parsing it again: its cells kept from the first time, its metadata the stored bytes (resourceVersion at
 * `at`). Otherwise from the decoded object, which `obj` gives.
 */
export function tableRowJson(store: GenericStore, conv: TableConvertor, kv: KeyValue, obj: () => JSONObject, opts: TableOptions, now: number): RawObject {
  const parts = opts.includeObject !== 'Object' && conv === store.type.table ? store.tableRowParts(kv, obj) : undefined;
  if (!parts) return { text: stringifyJSON(tableRow(conv, obj(), opts)), at: -1, resourceVersion: '' };
  const head = `{"cells":${stringifyJSON(parts.cells(now))}`;
  if (opts.includeObject === 'None') return { text: `${head}}`, at: -1, resourceVersion: '' };
  const before = head + OBJECT_METADATA[opts.version];
  return { before, text: kv.value, start: parts.start, end: parts.end, after: '}}', at: parts.at, resourceVersion: String(kv.modRevision) };
}
