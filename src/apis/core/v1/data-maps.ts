// What ConfigMaps and Secrets share: their data maps' key rules and size limit (pkg/apis/core/validation),
// the `immutable` rule of their updates, and the map key order encoding/json writes.
import { type FieldError, forbidden, invalid, tooLong } from '../../../api/field-error.js';
import { field as f, type GoField } from '../../../api/go-struct.js';
import { isConfigMapKey } from '../../../schema/names.js';
import { metaOf } from '../../../registry/store.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { metadataField } from '../../meta/v1/object-meta.js';

/** Their metadata field, with its published doc. */
export const objectMetadata = (): GoField =>
  metadataField("Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata");

/** Their `immutable` field (*bool), with its published doc naming the kind. */
export const immutableField = (proto: number, kind: string): GoField =>
  f(proto, 'immutable', 'bool', 'ptr omit', {
    doc: `Immutable, if set to true, ensures that data stored in the ${kind} cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.`,
  });

/** generic.ObjectMetaFieldsSet of a namespaced object: the field selectors every kind has. */
export const objectMetaFields = (obj: JSONObject): Record<string, string> => ({
  'metadata.name': String(metaOf(obj).name ?? ''),
  'metadata.namespace': String(metaOf(obj).namespace ?? ''),
});

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
