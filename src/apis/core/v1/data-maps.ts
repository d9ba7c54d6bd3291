// What ConfigMaps and Secrets share: their data maps' key rules and size limit (pkg/apis/core/validation),
// the `immutable` rule of their updates, and the map key order encoding/json writes.
import { type FieldError, forbidden, invalid, tooLong } from '../../../api/field-error.js';
import { isConfigMapKey } from '../../../schema/names.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';

/** core.MaxSecretSize, the limit of a Secret's data and of a ConfigMap's data and binaryData together. */
export const MAX_SECRET_SIZE = 1024 * 1024;

export const IMMUTABLE_MESSAGE = 'field is immutable when `immutable` is set';

/** A map member of the object: its entries, none when absent. */
export const entriesOf = (obj: JSONObject, key: string): [string, unknown][] => (isObject(obj[key]) ? Object.entries(obj[key] as JSONObject) : []);

/** Go's len() of a []byte value as JSON carries it (base64). */
export const bytesLength = (v: unknown): number => (typeof v === 'string' ? Buffer.from(v, 'base64').length : 0);
/** Go's len() of a string: UTF-8 bytes. */
export const stringLength = (v: unknown): number => (typeof v === 'string' ? Buffer.byteLength(v, 'utf8') : 0);

/** IsConfigMapKey of every key of a map, as field.Invalid at `<path>[<key>]`. */
export function keyErrors(path: string, keys: readonly string[]): FieldError[] {
  return keys.flatMap((k) => isConfigMapKey(k).map((msg) => invalid(`${path}[${k}]`, k, msg)));
}

export const sizeError = (path: string): FieldError => (path === '' ? { ...tooLong('', '', MAX_SECRET_SIZE), root: true } : tooLong(path, '', MAX_SECRET_SIZE));

/** reflect.DeepEqual of two map members as JSON holds them (an absent map is nil, unlike an empty one). */
function sameMap(a: unknown, b: unknown): boolean {
  const nil = (v: unknown): boolean => v === undefined || v === null;
  if (!isObject(a) || !isObject(b)) return nil(a) && nil(b);
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** Once `immutable` is true it stays so, and the data maps stay as they are. */
export function immutableErrors(obj: JSONObject, old: JSONObject, maps: readonly string[]): FieldError[] {
  if (old['immutable'] !== true) return [];
  const errs: FieldError[] = [];
  if (obj['immutable'] !== true) errs.push(forbidden('immutable', IMMUTABLE_MESSAGE));
  for (const m of maps) if (!sameMap(obj[m], old[m])) errs.push(forbidden(m, IMMUTABLE_MESSAGE));
  return errs;
}

/**
 * The maps' keys sorted bytewise, as encoding/json writes them: stored so, they are served so. (Empty maps
 * stay for validation to see, as kube's do; the typed key order leaves them out of what is stored.)
 */
export function sortMaps(obj: JSONObject, maps: readonly string[]): void {
  for (const m of maps) {
    const v = obj[m];
    if (!isObject(v)) continue;
    const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    obj[m] = Object.fromEntries(keys.map((k) => [k, v[k]]));
  }
}
