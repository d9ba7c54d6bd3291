// Server-side printing: meta.k8s.io Table responses, as kube-apiserver builds them for kubectl get.
import type { JSONObject } from '../util/json.js';
import type { TableColumn, TableConvertor } from '../registry/resource-type.js';
import { JsonPath, JsonPathParseError } from '../util/jsonpath.js';
import type { PrinterColumn } from '../api/resource.js';
import { cellForJsonValue, createdAt } from './table-cells.js';
import { CREATION_TIMESTAMP_DESCRIPTION as CREATION_DESCRIPTION, NAME_DESCRIPTION } from '../apis/meta/v1/object-meta.js';

const nameColumn: TableColumn = { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 };

const meta = (obj: JSONObject): JSONObject => (obj['metadata'] as JSONObject | undefined) ?? {};
const nameOf = (obj: JSONObject): string => {
  const name = meta(obj)['name'];
  return typeof name === 'string' ? name : '';
};

/** rest.NewDefaultTableConvertor: Name and Created At (RFC 3339, UTC). CustomResourceDefinitions print with it. */
export const defaultTableConvertor: TableConvertor = {
  columns: [nameColumn, { name: 'Created At', type: 'date', format: '', description: CREATION_DESCRIPTION, priority: 0 }],
  cells: (obj) => [nameOf(obj), createdAt(meta(obj)['creationTimestamp'])],
};

/** What a CRD version without additionalPrinterColumns serves (serveDefaultColumnsIfEmpty). */
export const DEFAULT_PRINTER_COLUMNS: readonly PrinterColumn[] = [
  { name: 'Age', type: 'date', description: CREATION_DESCRIPTION, jsonPath: '.metadata.creationTimestamp' },
];

/** The columns of a /scale subresource's table (getScaleColumnsForVersion): over the Scale object. */
export function scalePrinterColumns(scale: { specReplicasPath?: string; statusReplicasPath?: string }): PrinterColumn[] {
  const cols: PrinterColumn[] = [];
  if (scale.specReplicasPath) cols.push({ name: 'Desired', type: 'integer', description: 'Number of desired replicas', jsonPath: '.spec.replicas' });
  if (scale.statusReplicasPath) cols.push({ name: 'Available', type: 'integer', description: 'Number of actual replicas', jsonPath: '.status.replicas' });
  return [...cols, ...DEFAULT_PRINTER_COLUMNS];
}

interface CompiledColumn {
  header: TableColumn;
  path: JsonPath;
}

/**
 * The apiextensions table convertor for a CRD version's additionalPrinterColumns (none: Age). Each
 * jsonPath is evaluated as the template `{<jsonPath>}` with missing keys allowed; the first result
 * fills the cell. A column whose path does not parse, and every column after it, is left out, as
 * kube-apiserver falls back to the convertor built so far.
 */
export function customResourceTableConvertor(columns: readonly PrinterColumn[] | undefined): TableConvertor {
  const compiled: CompiledColumn[] = [];
  for (const col of columns?.length ? columns : DEFAULT_PRINTER_COLUMNS) {
    const path = new JsonPath(col.name).allowMissingKeys(true);
    try {
      path.parse(`{${col.jsonPath}}`);
    } catch (e) {
      if (e instanceof JsonPathParseError) break;
      throw e;
    }
    compiled.push({
      path,
      header: {
        name: col.name,
        type: col.type,
        format: col.format ?? '',
        description: col.description || `Custom resource definition column (in JSONPath format): ${col.jsonPath}`,
        priority: col.priority ?? 0,
      },
    });
  }
  return {
    columns: [nameColumn, ...compiled.map((c) => c.header)],
    cells: (obj) => [nameOf(obj), ...compiled.map((c) => columnCell(c, obj))],
  };
}

function columnCell({ header, path }: CompiledColumn, obj: JSONObject): unknown {
  let results: unknown[][];
  try {
    results = path.findResults(obj);
  } catch {
    return null;
  }
  const first = results[0];
  if (!first || first.length === 0) return null;
  const value = first[0];
  // String columns print any value as JSONPath does (objects as JSON; a null is an invalid reflect.Value there).
  if (header.type === 'string') return path.printResults([value === null ? undefined : value]);
  return cellForJsonValue(header.type, value);
}

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
  const rows = objs.map((obj) => {
    const row: JSONObject = { cells: conv.cells(obj) };
    if (opts.includeObject === 'Object') row['object'] = obj;
    else if (opts.includeObject === 'Metadata') row['object'] = partialObjectMetadata(obj, opts.version);
    return row;
  });
  table['rows'] = rows.length === 0 && conv === defaultTableConvertor ? null : rows;
  return table;
}
