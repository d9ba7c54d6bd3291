// Server-side printing: meta.k8s.io Table responses, as kube-apiserver builds them for kubectl get.
import type { JSONObject } from '../util/json.js';
import { humanDuration } from '../util/time.js';
import type { TableColumn, TableConvertor } from '../registry/resource-type.js';
import { evalJsonPath, parseJsonPath } from '../util/jsonpath.js';
import type { PrinterColumn } from '../api/resource.js';

const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const CREATION_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const nameColumn: TableColumn = { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 };

const meta = (obj: JSONObject): JSONObject => (obj['metadata'] as JSONObject | undefined) ?? {};

/** rest.NewDefaultTableConvertor: Name and Created At (an RFC 3339 timestamp). Built-in types without printers use it. */
export const defaultTableConvertor: TableConvertor = {
  columns: [nameColumn, { name: 'Created At', type: 'date', format: '', description: CREATION_DESCRIPTION, priority: 0 }],
  cells: (obj) => [meta(obj)['name'] ?? '', meta(obj)['creationTimestamp'] ?? ''],
};

/** The Namespace printer of kube-apiserver: NAME, STATUS, AGE. */
export const namespaceTableConvertor: TableConvertor = {
  columns: [
    nameColumn,
    { name: 'Status', type: 'string', format: '', description: 'The status of the namespace', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_DESCRIPTION, priority: 0 },
  ],
  cells: (obj) => [
    meta(obj)['name'] ?? '',
    (obj['status'] as JSONObject | undefined)?.['phase'] ?? '',
    ageOf(meta(obj)['creationTimestamp']),
  ],
};

function ageOf(ts: unknown): string {
  if (typeof ts !== 'string') return '<unknown>';
  const t = Date.parse(ts);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(Date.now() - t);
}

/** The columns a CRD version prints; with none given, Age, as apiextensions serves them. */
export function customResourceTableConvertor(columns: readonly PrinterColumn[] | undefined): TableConvertor {
  const cols: PrinterColumn[] = columns?.length
    ? [...columns]
    : [{ name: 'Age', type: 'date', description: CREATION_DESCRIPTION, jsonPath: '.metadata.creationTimestamp' }];
  const compiled = cols.map((c) => {
    let path: ReturnType<typeof parseJsonPath> | undefined;
    try {
      path = parseJsonPath(c.jsonPath);
    } catch {
      path = undefined;
    }
    return { c, path };
  });
  return {
    columns: [
      nameColumn,
      ...cols.map((c) => ({
        name: c.name,
        type: c.type,
        format: c.format ?? '',
        description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
        priority: c.priority ?? 0,
      })),
    ],
    cells: (obj) => [
      meta(obj)['name'] ?? '',
      ...compiled.map(({ c, path }) => {
        if (!path) return null;
        const results = evalJsonPath(path, obj);
        if (results.length === 0) return null;
        return cellForValue(c.type, results[0]);
      }),
    ],
  };
}

function cellForValue(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      // kube prints any value through JSONPath's printer for string columns.
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = Date.parse(value);
      if (Number.isNaN(t)) return '<invalid>';
      return humanDuration(Date.now() - t);
    }
    default:
      return null;
  }
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
  if (!opts.noHeaders) table['columnDefinitions'] = conv.columns;
  table['rows'] = objs.map((obj) => {
    const row: JSONObject = { cells: conv.cells(obj) };
    if (opts.includeObject === 'Object') row['object'] = obj;
    else if (opts.includeObject === 'Metadata') row['object'] = partialObjectMetadata(obj, opts.version);
    return row;
  });
  return table;
}
