// The set of fields a value sets (structured-merge-diff's TypedValue.ToFieldSet), the basis of ownership:
// scalars and atomic lists and maps are one field each; a separable map contributes its fields (and a key
// that is null, an empty map, or not a declared field as a field of its own); an associative list its items
// by key or value, each item a field too. A list with the same item twice owns that item atomically.
import { isObject } from '../util/json.js';
import { fieldElement, keyElement, valueElement, type KeyField, type PathElement } from './path-element.js';
import { FieldSet } from './set.js';
import { deduceAtom, type ListType, type MergeSchema, type TypeRef } from './schema.js';

export function toFieldSet(schema: MergeSchema, root: TypeRef, value: unknown): FieldSet {
  const set = new FieldSet();
  walk(schema, root, value, [], set);
  return set;
}

function walk(schema: MergeSchema, ref: TypeRef, value: unknown, path: PathElement[], set: FieldSet): void {
  const resolved = schema.resolve(ref);
  if (!resolved) return;
  const atom = deduceAtom(resolved, value);
  if (atom.map) {
    const map = atom.map;
    if (map.elementRelationship === 'atomic') return set.insert(path);
    if (!isObject(value)) return;
    for (const [key, v] of Object.entries(value)) {
      const field = schema.field(map, key);
      const child = [...path, fieldElement(key)];
      walk(schema, field?.type ?? map.elementType ?? {}, v, child, set);
      if (v === null || (isObject(v) && Object.keys(v).length === 0) || !field) set.insert(child);
    }
    return;
  }
  if (atom.scalar) return set.insert(path);
  if (atom.list) {
    const list = atom.list;
    if (list.elementRelationship !== 'associative') return set.insert(path);
    if (!Array.isArray(value)) return;
    visitListItems(schema, list, value, path, set);
  }
}

function visitListItems(schema: MergeSchema, list: ListType, items: unknown[], path: PathElement[], set: FieldSet): void {
  const seen = new FieldSet();
  const duplicates = new FieldSet();
  const elements = items.map((item) => listItemElement(schema, list, item));
  for (const pe of elements) {
    if (!pe) continue;
    if (!seen.hasMember(pe)) seen.insert([pe]);
    else if (!duplicates.hasMember(pe)) {
      // An item given twice is owned as a whole.
      set.insert([...path, pe]);
      duplicates.insert([pe]);
    }
  }
  items.forEach((item, i) => {
    const pe = elements[i];
    if (!pe || duplicates.hasMember(pe)) return;
    const child = [...path, pe];
    walk(schema, list.elementType, item, child, set);
    set.insert(child);
  });
}

/** listItemToPathElement: an associative list item's key element, or its value for a set; undefined when invalid. */
export function listItemElement(schema: MergeSchema, list: ListType, item: unknown): PathElement | undefined {
  if (!list.keys?.length) {
    // A set of scalars: maps, lists and nulls are not valid members.
    return item === null || Array.isArray(item) || isObject(item) ? undefined : valueElement(item);
  }
  if (!isObject(item)) return undefined;
  const keys: KeyField[] = [];
  const elementMap = schema.resolve(list.elementType)?.map;
  for (const name of list.keys) {
    if (name in item) keys.push({ name, value: item[name] });
    else {
      const def = elementMap ? schema.field(elementMap, name)?.default : undefined;
      if (def !== undefined && def !== null) keys.push({ name, value: def });
    }
  }
  return keys.length ? keyElement(keys) : undefined;
}
