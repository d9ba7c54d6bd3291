// x-kubernetes-list-type invariants (apiextensions listtype.ValidateListSetsAndMaps): items of a
// set are unique, items of a map are objects (or null) with unique keys. Compiled once per schema;
// only the parts of the schema holding set or map lists are walked.
import { type FieldError, duplicate, invalid } from '../api/field-error.js';
import { type StructuralNode, anyNode } from './compile-structural.js';
import { goBadValue, goJSON, setOwn } from './value-go.js';

type JSONObject = Record<string, unknown>;
type Walk = (x: unknown, path: string, errs: FieldError[]) => void;

const isListNode = (n: StructuralNode): boolean => n.listType === 'set' || n.listType === 'map';
const child = (path: string, k: string): string => (path === '' ? k : `${path}.${k}`);

/** A marker for "key field absent" (distinct from a null key). */
const UNSPECIFIED = Symbol('unspecifiedKeyValue');

/**
 * validateListSet: indices of the second occurrence of each repeated value. Scalars compare as
 * Go's == does, objects and arrays by their JSON encoding.
 */
function nonUniqueIndices(values: readonly unknown[]): number[] {
  if (values.length <= 1) return [];
  const seen = new Map<unknown, number>();
  const out: number[] = [];
  values.forEach((x, i) => {
    const key = x !== null && typeof x === 'object' ? `\u0000${goJSON(x)}` : x;
    const times = seen.get(key) ?? 0;
    seen.set(key, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}

function validateListMap(s: StructuralNode, list: unknown[], path: string, errs: FieldError[]): void {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && (typeof x !== 'object' || Array.isArray(x))) {
      errs.push(invalid(`${path}[${i}]`, goBadValue(x), 'must be an object for an array of list-type map'));
      return;
    }
  }
  if (list.length <= 1) return;
  const keyFields = s.listMapKeys;
  if (keyFields.length === 1) {
    const kf = keyFields[0]!;
    const keys = list.map((x) => (x === null || !Object.hasOwn(x as JSONObject, kf) ? UNSPECIFIED : (x as JSONObject)[kf]));
    for (const i of nonUniqueIndices(keys)) {
      const k = keys[i];
      errs.push(duplicate(`${path}[${i}]`, k === UNSPECIFIED ? {} : { [kf]: k }));
    }
    return;
  }
  const keys = list.map((x) => {
    const key: JSONObject = {};
    if (x !== null) for (const kf of keyFields) if (Object.hasOwn(x as JSONObject, kf)) setOwn(key, kf, (x as JSONObject)[kf]);
    return key;
  });
  for (const i of nonUniqueIndices(keys)) errs.push(duplicate(`${path}[${i}]`, keys[i]));
}

function compileWalk(s: StructuralNode): Walk {
  const props = new Map<string, Walk>();
  if (s.properties) for (const [k, p] of s.properties) if (anyNode(p, isListNode)) props.set(k, compileWalk(p));
  const ap = s.additionalProperties && anyNode(s.additionalProperties, isListNode) ? compileWalk(s.additionalProperties) : null;
  const items = s.items && anyNode(s.items, isListNode) ? compileWalk(s.items) : null;
  return (x, path, errs) => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      if (s.listType === 'set') {
        for (const i of nonUniqueIndices(x)) errs.push(duplicate(`${path}[${i}]`, goBadValue(x[i])));
      } else if (s.listType === 'map') {
        validateListMap(s, x, path, errs);
      }
      if (items !== null) for (let i = 0; i < x.length; i++) items(x[i], `${path}[${i}]`, errs);
      return;
    }
    const o = x as JSONObject;
    if (ap !== null) for (const k in o) ap(o[k], `${path}[${k}]`, errs);
    // Only the properties that hold lists matter; walking them beats walking the object's keys.
    for (const [k, w] of props) {
      const v = o[k];
      if (v !== null && typeof v === 'object' && Object.hasOwn(o, k)) w(v, child(path, k), errs);
    }
  };
}

/** Compiles the list-type checks; null when the schema has no set or map lists. */
export function compileListTypeValidation(s: StructuralNode): ((obj: unknown) => FieldError[]) | null {
  if (!anyNode(s, isListNode)) return null;
  const walk = compileWalk(s);
  return (obj) => {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [];
    const errs: FieldError[] = [];
    walk(obj, '', errs);
    return errs;
  };
}
