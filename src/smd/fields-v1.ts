// FieldsV1, the form managedFields entries carry a field set in: an object whose keys are serialized path
// elements (`f:`, `k:`, `v:`, `i:`), each holding the same structure for what is below it, with `"."`
// marking an element that is itself a member while having children. A leaf member is an empty object.
import { isObject, type JSONObject } from '../util/json.js';
import { goJsonMarshal } from '../util/go-json.js';
import { stringifyJSON } from '../util/json-int64.js';
import { compareElements, deserializeElement, serializeElement, UNKNOWN_ELEMENT, type PathElement } from './path-element.js';
import { FieldSet } from './set.js';

/** The FieldsV1 object of a set, its keys in the order structured-merge-diff writes them. */
export function toFieldsV1(set: FieldSet): JSONObject {
  return contents(set, false);
}

/**
 * FieldsV1 keys of field elements, made once per name: every write writes the same few fields' keys, and a
 * key made anew is a new string to hash each time it becomes a property.
 */
const fieldKeys = new Map<string, string>();
const FIELD_KEYS_MAX = 4096;

function keyOf(e: PathElement): string {
  if (!('field' in e)) return serializeElement(e);
  let k = fieldKeys.get(e.field);
  if (k === undefined) {
    k = serializeElement(e);
    if (fieldKeys.size >= FIELD_KEYS_MAX) fieldKeys.clear();
    fieldKeys.set(e.field, k);
  }
  return k;
}

function contents(set: FieldSet, includeSelf: boolean): JSONObject {
  const out: JSONObject = {};
  if (includeSelf && !(set.members.length === 0 && set.children.length === 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  const { members, children } = set;
  // Members and children interleave in element order; an element that is both writes "." in its child.
  while (mi < members.length || ci < children.length) {
    const m = members[mi];
    const c = children[ci];
    if (c === undefined || (m !== undefined && compareElements(m, c.element) < 0)) {
      out[keyOf(m!)] = {};
      mi++;
    } else if (m === undefined || compareElements(m, c.element) > 0) {
      out[keyOf(c.element)] = contents(c.set, false);
      ci++;
    } else {
      out[keyOf(c.element)] = contents(c.set, true);
      mi++;
      ci++;
    }
  }
  return out;
}

/** The exact JSON text kube writes for a set (Go's escaping of the keys and of values inside them). */
export function fieldsV1Text(set: FieldSet): string {
  const write = (o: JSONObject): string => `{${Object.entries(o).map(([k, v]) => `${goJsonMarshal(k)}:${write(v as JSONObject)}`).join(',')}}`;
  return write(toFieldsV1(set));
}

/** Set.FromJSON over a decoded FieldsV1 object: the set, or the first error (kube then ignores the entry). */
export function fromFieldsV1(v: unknown): FieldSet | Error {
  if (!isObject(v)) return new Error(`ReadMapCB: expect { or n, but found ${typeof v}`);
  const r = readNode(v);
  if (r instanceof Error) return r;
  return r.children ?? new FieldSet();
}

function readNode(obj: JSONObject): { children?: FieldSet; isMember: boolean } | Error {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const [key, val] of Object.entries(obj)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    const pe = deserializeElement(key);
    if (pe === UNKNOWN_ELEMENT) continue;
    if (pe instanceof Error) return new Error(`parsing key as path element: ${pe.message}`);
    if (!isObject(val)) return new Error(`ReadMapCB: expect { or n, but found ${stringifyJSON(val)}`);
    const child = readNode(val);
    if (child instanceof Error) return child;
    children ??= new FieldSet();
    if (child.isMember) children.insert([pe]);
    // A second key for the same element (written differently) replaces the first, as in Go.
    if (child.children) children.setChild(pe, child.children);
  }
  // A node with nothing below it (an empty object) is a member.
  if (!children) isMember = true;
  return { children, isMember };
}
