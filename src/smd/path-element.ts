// One step of a field path (structured-merge-diff's fieldpath.PathElement): a field of an object, the key
// fields of an associative-list item, the value of a set item, or a list index. Elements are ordered
// field < key < value < index, each kind by its own content, and written in FieldsV1 as
// `f:<name>`, `k:<json object>`, `v:<json value>`, `i:<index>`.
import { goJsonMarshal } from '../util/go-json.js';
import { parseJSON as parseJSONInt64 } from '../util/json-int64.js';
import { isObject } from '../util/json.js';
import { compareStrings, compareValues } from './value-order.js';

/** An associative-list key field: the list-map key's name and the item's value for it. */
export interface KeyField {
  name: string;
  value: unknown;
}

export type PathElement = { field: string } | { key: readonly KeyField[] } | { value: unknown } | { index: number };

export const fieldElement = (field: string): PathElement => ({ field });
export const indexElement = (index: number): PathElement => ({ index });
export const valueElement = (value: unknown): PathElement => ({ value });
/** A key element from its fields, sorted by name as structured-merge-diff keeps them. */
export const keyElement = (fields: readonly KeyField[]): PathElement => ({ key: [...fields].sort((a, b) => compareStrings(a.name, b.name)) });

const kindRank = (e: PathElement): number => ('field' in e ? 0 : 'key' in e ? 1 : 'value' in e ? 2 : 3);

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const c = compareStrings(a[i]!.name, b[i]!.name) || compareValues(a[i]!.value, b[i]!.value);
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function compareElements(a: PathElement, b: PathElement): number {
  const ra = kindRank(a);
  const rb = kindRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if ('field' in a) return compareStrings(a.field, (b as { field: string }).field);
  if ('key' in a) return compareKeys(a.key, (b as { key: readonly KeyField[] }).key);
  if ('value' in a) return compareValues(a.value, (b as { value: unknown }).value);
  const ib = (b as { index: number }).index;
  return a.index === ib ? 0 : a.index < ib ? -1 : 1;
}

/** value.ToString: how values print inside element strings (strings quoted, the rest as JSON). */
const valueString = (v: unknown): string => goJsonMarshal(v);

/** PathElement.String: `.name`, `[k=v,...]`, `[=value]`, `[i]`. */
export function elementString(e: PathElement): string {
  if ('field' in e) return `.${e.field}`;
  if ('key' in e) return `[${e.key.map((k) => `${k.name}=${valueString(k.value)}`).join(',')}]`;
  if ('value' in e) return `[=${valueString(e.value)}]`;
  return `[${e.index}]`;
}

/** The FieldsV1 key of an element. */
export function serializeElement(e: PathElement): string {
  if ('field' in e) return `f:${e.field}`;
  if ('key' in e) return `k:{${e.key.map((k) => `${goJsonMarshal(k.name)}:${goJsonMarshal(k.value)}`).join(',')}}`;
  if ('value' in e) return `v:${goJsonMarshal(e.value)}`;
  return `i:${e.index}`;
}

/** Unknown element kinds are skipped when reading FieldsV1 (a newer writer's kinds), not errors. */
export const UNKNOWN_ELEMENT = Symbol('unknown path element type');

/** DeserializePathElement: the element of a FieldsV1 key, UNKNOWN_ELEMENT, or an Error. */
export function deserializeElement(s: string): PathElement | typeof UNKNOWN_ELEMENT | Error {
  if (s.length < 2) return new Error('key must be 2 characters long:');
  if (s[1] !== ':') return new Error(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { field: body };
    case 'v': {
      const v = parseJSON(body);
      return v instanceof Error ? v : { value: v.value };
    }
    case 'k': {
      const v = parseJSON(body);
      if (v instanceof Error) return v;
      if (!isObject(v.value)) return new Error(`ReadObjectCB: expect { or n, but found ${body.trimStart()[0] ?? 'EOF'}`);
      return keyElement(Object.entries(v.value).map(([name, value]) => ({ name, value })));
    }
    case 'i': {
      // strconv.Atoi: an optional sign and decimal digits only.
      if (!/^[+-]?\d+$/.test(body)) return new Error(`strconv.Atoi: parsing ${JSON.stringify(body)}: invalid syntax`);
      return { index: Number(body) };
    }
    default:
      return UNKNOWN_ELEMENT;
  }
}

function parseJSON(text: string): { value: unknown } | Error {
  try {
    return { value: parseJSONInt64(text) };
  } catch (e) {
    return new Error(`managedFields parsing: ${(e as Error).message}`);
  }
}
