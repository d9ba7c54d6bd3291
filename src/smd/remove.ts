// Removing fields from a value (structured-merge-diff's TypedValue.RemoveItems), and the schema-aware
// widening of a field set that pruning uses (EnsureNamedFieldsAreMembers).
import { isObject, type JSONObject } from '../util/json.js';
import { fieldElement } from './path-element.js';
import { FieldSet } from './set.js';
import { deduceAtom, type MergeSchema, type TypeRef } from './schema.js';
import { listItemElement } from './to-field-set.js';

/** The value without the fields of `toRemove`; null when nothing is left of a map or list. */
export function removeItems(schema: MergeSchema, ref: TypeRef, value: unknown, toRemove: FieldSet): unknown {
  return removeOrExtract(schema, ref, value, toRemove, false);
}

/**
 * TypedValue.ExtractItems: only the fields of `set` (what a manager owns), atomic lists and maps whole.
 * A field or item that is itself in the set is extracted against the whole set again, as smd does (with
 * a set of leaves, the paths it is called with, that keeps scalars and atomic values as they are).
 */
export function extractItems(schema: MergeSchema, ref: TypeRef, value: unknown, set: FieldSet): unknown {
  return removeOrExtract(schema, ref, value, set, true);
}

function removeOrExtract(schema: MergeSchema, ref: TypeRef, value: unknown, toRemove: FieldSet, extract: boolean): unknown {
  const resolved = schema.resolve(ref);
  if (!resolved) return null;
  const atom = deduceAtom(resolved, value);
  if (atom.map) {
    const t = atom.map;
    if (!isObject(value)) return null;
    if (Object.keys(value).length === 0) return null;
    if (t.elementRelationship === 'atomic') return extract ? value : null;
    const out: JSONObject = {};
    for (const [k, v] of Object.entries(value)) {
      const pe = fieldElement(k);
      const type = schema.field(t, k)?.type ?? t.elementType ?? {};
      if (toRemove.has([pe])) {
        if (extract) out[k] = removeOrExtract(schema, type, v, toRemove, extract);
        continue;
      }
      const below = toRemove.child(pe);
      if (below && !below.empty()) out[k] = removeOrExtract(schema, type, v, below, extract);
      else if (!extract) out[k] = v;
    }
    return Object.keys(out).length > 0 ? out : null;
  }
  if (atom.scalar) return value;
  if (atom.list) {
    const t = atom.list;
    if (!Array.isArray(value)) return null;
    if (value.length === 0) return null;
    if (t.elementRelationship !== 'associative') return extract ? value : null;
    const out: unknown[] = [];
    for (const item of value) {
      const pe = listItemElement(schema, t, item);
      if (pe && toRemove.has([pe])) {
        if (!extract) continue;
        out.push(removeOrExtract(schema, t.elementType, item, toRemove, extract));
      }
      const below = pe ? toRemove.child(pe) : undefined;
      if (below && !below.empty()) out.push(removeOrExtract(schema, t.elementType, item, below, extract));
      else if (!extract) out.push(item);
    }
    return out.length > 0 ? out : null;
  }
  return null;
}

/** The set plus, at every level, the declared fields of a map that have members below them. */
export function ensureNamedFieldsAreMembers(schema: MergeSchema, ref: TypeRef, set: FieldSet): FieldSet {
  const atom = schema.resolve(ref);
  const members = [...set.members];
  const out = new FieldSet(members, []);
  for (const c of set.children) {
    let childRef: TypeRef = {};
    if ('field' in c.element && atom?.map) {
      const field = schema.field(atom.map, c.element.field);
      if (field) out.insert([c.element]);
      childRef = field?.type ?? atom.map.elementType ?? {};
    } else if ('key' in c.element && atom?.list) {
      childRef = atom.list.elementType;
    }
    out.setChild(c.element, ensureNamedFieldsAreMembers(schema, childRef, c.set));
  }
  return out;
}
