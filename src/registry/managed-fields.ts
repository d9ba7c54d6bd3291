// metadata.managedFields as kube's field manager reads and writes it (k8s.io/apimachinery
// util/managedfields/internal/managedfields.go): each entry is a manager's field set in FieldsV1 with its
// operation, API version, subresource and time. Managers are identified by the JSON of the entry's
// manager, operation, subresource and (for updates) API version, as kube identifies them.
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { fromFieldsV1, toFieldsV1 } from '../smd/fields-v1.js';
import type { ManagedFields } from '../smd/managers.js';

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update' | string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: JSONObject;
  subresource?: string;
}

/** The decoded form: sets by manager identifier, and each identifier's time. */
export interface Managed {
  fields: ManagedFields;
  times: Map<string, string | undefined>;
}

/** BuildManagerIdentifier: the entry without its fields and time (and, for an apply, its API version), as JSON in Go's field order. */
export function managerIdentifier(e: ManagedFieldsEntry): string {
  const id: Record<string, string> = {};
  if (e.manager) id['manager'] = e.manager;
  if (e.operation) id['operation'] = e.operation;
  if (e.apiVersion && e.operation !== 'Apply') id['apiVersion'] = e.apiVersion;
  if (e.subresource) id['subresource'] = e.subresource;
  return JSON.stringify(id);
}

/** DecodeManagedFields: the managers of an object, or the reason its managedFields are not usable. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[]): Managed | Error {
  const fields: ManagedFields = new Map();
  const times = new Map<string, string | undefined>();
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.operation !== 'Apply' && e.operation !== 'Update') return new Error('operation must be `Apply` or `Update`');
    if (!e.apiVersion) return new Error('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') return new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') return new Error(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    const set = fromFieldsV1(e.fieldsV1 ?? {});
    if (set instanceof Error) return new Error(`error decoding versioned set: error decoding set: ${set.message}`);
    const id = managerIdentifier(e);
    fields.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    times.set(id, e.time);
  }
  return { fields, times };
}

/** encodeManagedFields: the entries, sorted as kube sorts them; undefined when there are none. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const base = parsedIdentifier(id);
    const e: ManagedFieldsEntry = {};
    if (base.manager) e.manager = base.manager;
    e.operation = vs.applied ? 'Apply' : (base.operation ?? 'Update');
    e.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time) e.time = time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = toFieldsV1(vs.set);
    if (base.subresource) e.subresource = base.subresource;
    out.push(e);
  }
  return sortManagedFields(out);
}

/** An identifier's fields (read only), parsed once: the same few managers write again and again. */
function parsedIdentifier(id: string): Readonly<ManagedFieldsEntry> {
  let e = parsedIds.get(id);
  if (e === undefined) {
    e = JSON.parse(id) as ManagedFieldsEntry;
    if (parsedIds.size >= 1024) parsedIds.clear();
    parsedIds.set(id, e);
  }
  return e;
}

const parsedIds = new Map<string, ManagedFieldsEntry>();

/** sortEncodedManagedFields: applies before updates, then oldest first, then by manager, version, subresource. */
export function sortManagedFields(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const seconds = (t: string | undefined): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);
  const cmp = (a: string | undefined, b: string | undefined): number => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);
  return entries.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource, q.subresource),
  );
}

/** The entries of an object's metadata, when they have the shape of a list of entries. */
export function managedFieldsOf(meta: JSONObject): ManagedFieldsEntry[] | undefined {
  const mf = meta['managedFields'];
  return Array.isArray(mf) && mf.every(isObject) ? (mf as ManagedFieldsEntry[]) : undefined;
}
