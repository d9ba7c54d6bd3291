// Table convertors: the columns and cells each resource prints with (kube's TableConvertor of each
// registry: the default Name/Created At, the namespace printer, a CRD's additionalPrinterColumns).
import type { JSONObject } from '../util/json.js';
import type { TableColumn, TableConvertor } from './resource-type.js';
import { JsonPath, JsonPathParseError } from '../util/jsonpath.js';
import type { PrinterColumn } from '../api/resource.js';
import { ageOf, cellForJsonValue, createdAt, humanReadableAge, parseGoTime, type GoTime } from './table-cells.js';

// metav1.ObjectMeta{}.SwaggerDoc()["name"] and ["creationTimestamp"].
const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const CREATION_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

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
  cellsAt: (obj) => {
    const cells = [nameOf(obj), createdAt(meta(obj)['creationTimestamp'])];
    return () => cells;
  },
};

/** The Namespace printer of kube-apiserver: NAME, STATUS, AGE. */
export const namespaceTableConvertor: TableConvertor = {
  columns: [
    nameColumn,
    { name: 'Status', type: 'string', format: '', description: 'The status of the namespace', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_DESCRIPTION, priority: 0 },
  ],
  cells: (obj) => {
    const phase = (obj['status'] as JSONObject | undefined)?.['phase'];
    return [nameOf(obj), typeof phase === 'string' ? phase : '', ageOf(meta(obj)['creationTimestamp'])];
  },
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
  const cellsAt = (obj: JSONObject): ((now: number) => unknown[]) => {
    const cells = [nameOf(obj), ...compiled.map((c) => columnCell(c, obj))];
    if (!cells.some((c) => c instanceof AgeCell)) return () => cells;
    return (now) => {
      const out = cells.slice();
      for (let i = 1; i < out.length; i++) {
        const c = out[i];
        if (c instanceof AgeCell) out[i] = c.at(now);
      }
      return out;
    };
  };
  return {
    columns: [nameColumn, ...compiled.map((c) => c.header)],
    cells: (obj) => cellsAt(obj)(Date.now()),
    cellsAt,
  };
}

/** A date column's cell: an age, rendered at the time of the request (as cellForJsonValue renders it). */
class AgeCell {
  constructor(private readonly time: GoTime) {}
  at(now: number): unknown {
    return humanReadableAge(this.time, now);
  }
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
  if (header.type === 'date' && typeof value === 'string') {
    const t = parseGoTime(value);
    return t ? new AgeCell(t) : '<invalid>';
  }
  return cellForJsonValue(header.type, value);
}
