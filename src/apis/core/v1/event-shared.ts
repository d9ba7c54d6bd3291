// What core/v1 and events.k8s.io/v1 events share, both working on the core (stored) form: the printer of
// kube-apiserver's internal Event (pkg/printers/internalversion printEvent), the field selectors
// (pkg/registry/core/event ToSelectableFields), and the Go zero values encoding/json writes.
import type { GoStruct } from '../../../api/go-struct.js';
import { goZero } from '../../../api/go-zero.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject, deepCopyJSON } from '../../../util/json.js';
import { metaOf } from '../../../registry/store.js';
import { ageOf } from '../../../registry/table-cells.js';
import { NAME_DESCRIPTION } from '../../meta/v1/object-meta.js';
import type { TableColumnDecl } from '../../kind.js';
import { Event, EventSource, ObjectReference } from './event-types.js';

const str = (o: unknown, k: string): string => (isObject(o) && typeof o[k] === 'string' ? (o[k] as string) : '');
const docOf = (s: GoStruct, json: string): string => s.fields.find((f) => f.json === json)?.doc ?? '';
const firstNonEmpty = (...xs: string[]): string => xs.find((x) => x !== '') ?? '';

/**
 * Fields a decoded Go struct always encodes but a JSON body may lack: structs ({}), zero times (null) and
 * scalars without omitempty. Set in place where absent, one level down into present struct members too.
 */
export function fillGoZeros(obj: JSONObject, s: GoStruct): void {
  const zero = goZero(s);
  for (const [k, v] of Object.entries(zero)) if (!(k in obj)) obj[k] = deepCopyJSON(v) as JSONObject[string];
  for (const f of s.fields) {
    const v = obj[f.json];
    if (typeof f.type === 'object' && !f.slice && !f.map && isObject(v) && f.json !== 'metadata') fillGoZeros(v, f.type);
  }
}

const isEmpty = (v: unknown): boolean =>
  v === null || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);

/**
 * Leaves out top-level fields encoding/json would omit: omitempty scalars, slices, maps and pointers at their
 * zero value (a converted object carries the other version's zero values, such as core's reportingComponent "").
 */
export function dropGoOmitted(obj: JSONObject, s: GoStruct): void {
  for (const f of s.fields) {
    if (!f.omitempty || !(f.json in obj)) continue;
    const struct = !f.pointer && !f.slice && !f.map && (typeof f.type === 'object' || f.type === 'time' || f.type === 'microTime');
    if (struct) continue; // omitempty never leaves a struct out
    const v = obj[f.json];
    if (f.pointer ? v === null : isEmpty(v)) delete obj[f.json];
  }
}

/** Printer cells of a core event, as printEvent with Wide set (the server prints every column). */
function eventCells(ev: JSONObject): unknown[] {
  const first = ev['firstTimestamp'] ? ageOf(ev['firstTimestamp']) : ageOf(ev['eventTime']);
  let last = ev['lastTimestamp'] ? ageOf(ev['lastTimestamp']) : first;
  let count = typeof ev['count'] === 'number' ? ev['count'] : 0;
  const series = ev['series'];
  if (isObject(series)) {
    last = ageOf(series['lastObservedTime']);
    count = typeof series['count'] === 'number' ? series['count'] : 0;
  } else if (count === 0) {
    count = 1; // singleton events of the new API have no count
  }
  const involved = ev['involvedObject'];
  const kind = str(involved, 'kind').toLowerCase();
  const name = str(involved, 'name');
  const target = name ? `${kind}/${name}` : kind;
  const source = ev['source'];
  const component = firstNonEmpty(str(source, 'component'), str(ev, 'reportingComponent'));
  const instance = firstNonEmpty(str(source, 'host'), str(ev, 'reportingInstance'));
  return [
    last,
    str(ev, 'type'),
    str(ev, 'reason'),
    target,
    str(involved, 'fieldPath'),
    instance ? `${component}, ${instance}` : component,
    str(ev, 'message').trim(),
    first,
    count,
    String(metaOf(ev).name ?? ''),
  ];
}

/** The event printer's columns, each cell taken from the core form `toCore` gives of a served object. */
export function eventTable(toCore: (obj: JSONObject) => JSONObject = (o) => o): TableColumnDecl[] {
  const cells = (obj: JSONObject): unknown[] => eventCells(toCore(obj));
  const col = (name: string, description: string, priority: number, i: number, format = ''): TableColumnDecl => ({
    name,
    type: 'string',
    format,
    description,
    priority,
    cell: (obj) => cells(obj)[i],
  });
  return [
    col('Last Seen', docOf(Event, 'lastTimestamp'), 0, 0),
    col('Type', docOf(Event, 'type'), 0, 1),
    col('Reason', docOf(Event, 'reason'), 0, 2),
    col('Object', docOf(Event, 'involvedObject'), 0, 3),
    col('Subobject', docOf(ObjectReference, 'fieldPath'), 1, 4),
    col('Source', docOf(Event, 'source'), 1, 5),
    col('Message', docOf(Event, 'message'), 0, 6),
    col('First Seen', docOf(Event, 'firstTimestamp'), 1, 7),
    col('Count', docOf(Event, 'count'), 1, 8),
    col('Name', NAME_DESCRIPTION, 1, 9, 'name'),
  ];
}

/** ToSelectableFields of a core event: metadata.name and .namespace, the involved object's fields, and more. */
export function eventSelectableFields(ev: JSONObject): Record<string, string> {
  const involved = ev['involvedObject'];
  const meta = metaOf(ev);
  return {
    'involvedObject.kind': str(involved, 'kind'),
    'involvedObject.namespace': str(involved, 'namespace'),
    'involvedObject.name': str(involved, 'name'),
    'involvedObject.uid': str(involved, 'uid'),
    'involvedObject.apiVersion': str(involved, 'apiVersion'),
    'involvedObject.resourceVersion': str(involved, 'resourceVersion'),
    'involvedObject.fieldPath': str(involved, 'fieldPath'),
    reason: str(ev, 'reason'),
    reportingComponent: str(ev, 'reportingComponent'),
    source: firstNonEmpty(str(ev['source'], 'component'), str(ev, 'reportingComponent')),
    type: str(ev, 'type'),
    'metadata.name': String(meta.name ?? ''),
    'metadata.namespace': String(meta.namespace ?? ''),
  };
}

export { EventSource };
