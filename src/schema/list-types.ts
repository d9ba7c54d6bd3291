// x-kubernetes-list-type invariants (apiextensions listtype.ValidateListSetsAndMaps): items of a
// set are unique, items of a map are objects (or null) with unique keys. Compiled once per schema;
// only the parts of the schema holding set or map lists are walked.
import { type FieldError, duplicate, invalid } from '../api/field-error.js';
import { type StructuralNode, anyNode } from './compile-structural.js';
import { goBadValue, goJSON } from './value-go.js';
import { CodeGenerator } from './codegen.js';
import { setOwn } from '../util/json.js';

type JSONObject = Record<string, unknown>;

const isListNode = (n: StructuralNode): boolean => n.listType === 'set' || n.listType === 'map';

const NO_INDICES: number[] = [];

/** A marker for "key field absent" (distinct from a null key). */
const UNSPECIFIED = Symbol('unspecifiedKeyValue');

/**
 * validateListSet: indices of the second occurrence of each repeated value. Scalars compare as
 * Go's == does, objects and arrays by their JSON encoding.
 */
function nonUniqueIndices(values: readonly unknown[]): number[] {
  if (values.length <= 1) return NO_INDICES;
  if (values.length <= 8 && values.every((x) => x === null || typeof x !== 'object')) {
    // Short lists of scalars: compare pairwise, allocating nothing unless something repeats.
    let out: number[] | null = null;
    for (let i = 1; i < values.length; i++) {
      let times = 0;
      for (let j = 0; j < i; j++) if (values[j] === values[i]) times++;
      if (times === 1) (out ??= []).push(i);
    }
    return out ?? NO_INDICES;
  }
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

function validateListMap(s: StructuralNode, list: unknown[], st: ListState): void {
  const errs = st.errs;
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && (typeof x !== 'object' || Array.isArray(x))) {
      errs.push(invalid(`${st.path()}[${i}]`, goBadValue(x), 'must be an object for an array of list-type map'));
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
      errs.push(duplicate(`${st.path()}[${i}]`, k === UNSPECIFIED ? {} : { [kf]: k }));
    }
    return;
  }
  const keys = list.map((x) => {
    const key: JSONObject = {};
    if (x !== null) for (const kf of keyFields) if (Object.hasOwn(x as JSONObject, kf)) setOwn(key, kf, (x as JSONObject)[kf]);
    return key;
  });
  for (const i of nonUniqueIndices(keys)) errs.push(duplicate(`${st.path()}[${i}]`, keys[i]));
}

// ---- code generation: one function per node that leads to a set or map list ----

const SEG_PROP = 0;
const SEG_KEY = 1;
const SEG_INDEX = 2;

class ListState {
  segs: Array<string | number> = [];
  kinds: number[] = [];
  depth = 0;
  errs: FieldError[] = [];

  /** field.Path rendering: properties .k, map keys [k], indices [i]. */
  path(): string {
    let s = '';
    for (let i = 0; i < this.depth; i++) {
      const k = this.kinds[i];
      if (k === SEG_PROP) s += s === '' ? (this.segs[i] as string) : '.' + (this.segs[i] as string);
      else s += `[${this.segs[i] as string | number}]`;
    }
    return s;
  }
}

const listHelpers = {
  set(list: unknown[], st: ListState): void {
    for (const i of nonUniqueIndices(list)) st.errs.push(duplicate(`${st.path()}[${i}]`, goBadValue(list[i])));
  },
  map(s: StructuralNode, list: unknown[], st: ListState): void {
    validateListMap(s, list, st);
  },
};

const lit = (x: string): string => JSON.stringify(x);
const PROTO_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype).concat(['__proto__']));

const visit = (fn: string, kind: number, seg: string, value: string): string =>
  `{ const w = ${value}; if (w !== null && typeof w === "object") { st.segs[d] = ${seg}; st.kinds[d] = ${kind}; st.depth = d + 1; ${fn}(w, st); st.depth = d; } }`;

function genWalk(g: CodeGenerator, s: StructuralNode): string {
  const fn = g.name();
  const arrayCode: string[] = [];
  if (s.listType === 'set') arrayCode.push('H.set(x, st);');
  else if (s.listType === 'map') arrayCode.push(`H.map(${g.constant(s)}, x, st);`);
  if (s.items && anyNode(s.items, isListNode)) {
    arrayCode.push(visit(genWalk(g, s.items), SEG_INDEX, 'j', 'x[j]').replace('{ const w', 'for (let j = 0; j < x.length; j++) { const w'));
  }
  const objectCode: string[] = [];
  if (s.additionalProperties && anyNode(s.additionalProperties, isListNode)) {
    objectCode.push(`for (const k in x) ${visit(genWalk(g, s.additionalProperties), SEG_KEY, 'k', 'x[k]')}`);
  }
  for (const [k, p] of s.properties ?? []) {
    if (!anyNode(p, isListNode)) continue;
    const read = PROTO_NAMES.has(k) ? `(Object.hasOwn(x, ${lit(k)}) ? x[${lit(k)}] : undefined)` : `x[${lit(k)}]`;
    objectCode.push(visit(genWalk(g, p), SEG_PROP, lit(k), read));
  }
  g.fns.push(`function ${fn}(x, st) {\nconst d = st.depth;\nif (Array.isArray(x)) { ${arrayCode.join('\n')} return; }\n${objectCode.join('\n')}\n}`);
  return fn;
}

/** Compiles the list-type checks; null when the schema has no set or map lists. */
const NONE: readonly FieldError[] = Object.freeze([]);

export function compileListTypeValidation(s: StructuralNode): ((obj: unknown) => readonly FieldError[]) | null {
  if (!anyNode(s, isListNode)) return null;
  const g = new CodeGenerator('l');
  const top = genWalk(g, s);
  const walk = new Function('H', 'K', `"use strict";\n${g.fns.join('\n')}\nreturn ${top};`)(listHelpers, g.consts) as (x: unknown, st: ListState) => void;
  const st = new ListState();
  return (obj) => {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return NONE;
    st.depth = 0;
    walk(obj, st);
    const errs = st.errs;
    if (errs.length === 0) return NONE;
    st.errs = [];
    return errs;
  };
}
