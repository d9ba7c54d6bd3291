// Whether a value is of its type (structured-merge-diff's TypedValue.Validate, run by FromYAML and
// FromUnstructured): scalars of their kind, lists and maps where the schema says so, associative-list items
// that have their keys (or the keys' defaults) and, unless duplicates are allowed, no two items with the
// same key; map fields the schema declares unless the map takes any field. An applied configuration is
// checked with duplicates refused; an update's object (what the server already stores) with them allowed.
import { isObject } from '../util/json.js';
import { compareGoStrings, goSprint, goSprintV, goTypeName } from '../util/jsonpath-values.js';
import { elementString, fieldElement, serializeElement, type PathElement } from './path-element.js';
import { deduceAtom, type ListType, type MapType, type MergeSchema, type Scalar, type TypeRef } from './schema.js';
import { listItemElement } from './to-field-set.js';

export interface ValidateOptions {
  allowDuplicates?: boolean;
}

/** The errors, each prefixed with the path it is at; empty when the value is valid. */
export function validate(schema: MergeSchema, root: TypeRef, value: unknown, opts: ValidateOptions = {}): string[] {
  const errors: string[] = [];
  walk(schema, root, value, [], opts, errors);
  return errors;
}

/**
 * The path of the value being checked, as a stack: a map's field (its name), a list's item (its index, or its
 * associative key's path element). Written out only for an error: most values have none, and a path per field
 * would otherwise be made for every field of every object.
 */
type At = (string | number | PathElement)[];

const atString = (at: At): string => {
  let out = '';
  for (const step of at) out += typeof step === 'string' ? elementString(fieldElement(step)) : typeof step === 'number' ? `[${step}]` : elementString(step);
  return out;
};

function walk(schema: MergeSchema, ref: TypeRef, value: unknown, at: At, opts: ValidateOptions, errors: string[]): void {
  const resolved = schema.resolve(ref);
  if (!resolved) return void errors.push(`${atString(at)}: could not resolve the type`);
  const atom = deduceAtom(resolved, value);
  if (atom.map) return walkMap(schema, atom.map, value, at, opts, errors);
  if (atom.scalar) return checkScalar(atom.scalar, value, at, errors);
  if (atom.list) return walkList(schema, atom.list, value, at, opts, errors);
  errors.push(`${atString(at)}: schema error: invalid atom`);
}

/**
 * How smd prints the offending value: a decoded object's values are *value.valueUnstructured, so %v shows
 * `&{<value>}` and %#v `&value.valueUnstructured{Value:<value>}`; numeric's message has the Go type (%T).
 */
const printV = (v: unknown): string => `&{${goSprintV(v)}}`;
const printSharpV = (v: unknown): string => `&value.valueUnstructured{Value:${goSharpV(v)}}`;

/** fmt's %#v of a decoded JSON value (int64, float64, string, bool, map[string]interface {}, []interface {}). */
function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareGoStrings);
    return `map[string]interface {}{${keys.map((k) => `${JSON.stringify(k)}:${goSharpV(v[k])}`).join(', ')}}`;
  }
  return goSprint(v);
}

function checkScalar(t: Scalar, v: unknown, at: At, errors: string[]): void {
  if (v === null || v === undefined) return;
  const ok = t === 'numeric' ? typeof v === 'number' || typeof v === 'bigint' : t === 'string' ? typeof v === 'string' : t === 'boolean' ? typeof v === 'boolean' : ['number', 'bigint', 'string', 'boolean'].includes(typeof v);
  if (ok) return;
  // validateScalar's messages, each with its own verb.
  if (t === 'numeric') errors.push(`${atString(at)}: expected numeric (int or float), got ${goTypeName(v)}`);
  else if (t === 'string') errors.push(`${atString(at)}: expected string, got ${printSharpV(v)}`);
  else if (t === 'boolean') errors.push(`${atString(at)}: expected boolean, got ${printV(v)}`);
  else errors.push(`${atString(at)}: expected any scalar, got ${printV(v)}`);
}

function walkList(schema: MergeSchema, t: ListType, value: unknown, at: At, opts: ValidateOptions, errors: string[]): void {
  if (value === null || value === undefined) return;
  if (!Array.isArray(value)) return void errors.push(`${atString(at)}: expected list, got ${printV(value)}`);
  // Items told apart by their keys, for duplicates: only where they are refused.
  const seen = t.elementRelationship === 'associative' && !opts.allowDuplicates ? new Set<string>() : undefined;
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (t.elementRelationship !== 'associative') {
      at.push(i);
      walk(schema, t.elementType, item, at, opts, errors);
      at.pop();
      continue;
    }
    const itemError = associativeItemError(schema, t, item);
    // Without its path element nothing deeper can be reported: the rest of the list is not checked.
    if (itemError) return void errors.push(`${atString(at)}: element ${i}: ${itemError}`);
    const pe = listItemElement(schema, t, item)!;
    if (seen) {
      const id = serializeElement(pe);
      if (seen.has(id)) errors.push(`${atString(at)}: duplicate entries for key ${elementString(pe)}`);
      seen.add(id);
    }
    at.push(pe);
    walk(schema, t.elementType, item, at, opts, errors);
    at.pop();
  }
}

/** Why an associative list's item has no path element (listItemToPathElement's errors). */
function associativeItemError(schema: MergeSchema, t: ListType, item: unknown): string | undefined {
  if (!t.keys?.length) {
    if (isObject(item)) return "associative list without keys has an element that's a map type";
    if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
    if (item === null) return "associative list without keys has an element that's an explicit null";
    return undefined;
  }
  if (item === null) return 'associative list with keys may not have a null element';
  if (!isObject(item)) return 'associative list with keys may not have non-map elements';
  const elementMap = schema.resolve(t.elementType)?.map;
  for (const name of t.keys) {
    if (name in item) continue;
    const def = elementMap ? schema.field(elementMap, name)?.default : undefined;
    if (def === undefined || def === null) return `associative list with keys has an element that omits key field ${JSON.stringify(name)} (and doesn't have default value)`;
  }
  return undefined;
}

function walkMap(schema: MergeSchema, t: MapType, value: unknown, at: At, opts: ValidateOptions, errors: string[]): void {
  if (value === null) return;
  if (!isObject(value)) return void errors.push(`${atString(at)}: expected map, got ${printV(value)}`);
  for (const key of Object.keys(value)) {
    const field = schema.field(t, key);
    at.push(key);
    if (!field && !t.elementType) {
      errors.push(`${atString(at)}: field not declared in schema`);
      at.pop();
      return;
    }
    walk(schema, field?.type ?? t.elementType!, value[key], at, opts, errors);
    at.pop();
  }
}
