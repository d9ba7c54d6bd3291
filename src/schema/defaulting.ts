// Defaulting (apiextensions structuraldefaulting.Default), compiled once per schema into generated
// code: absent fields with a default get a deep copy of it, and so do nulls of non-nullable
// fields (nullable nulls stay). Defaults apply inside items and additionalProperties too. Only
// the parts of the schema that have defaults somewhere below are walked. Default values are
// pruned once at compile time, as kube's PruneDefaults does when it builds the serving schemas.
import type { StructuralNode } from './compile-structural.js';
import { PruneState, compilePrune } from './prune.js';
import { CodeGenerator } from './codegen.js';
import { deepCopyJSON, setOwn } from '../util/json.js';

export type DefaultFn = (x: unknown) => void;

const lit = (s: string): string => JSON.stringify(s);
const PROTO_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype).concat(['__proto__']));

/** PruneDefaults for one node's default: pruned with the node's own schema, metadata coerced leniently. */
function prunedDefault(s: StructuralNode): unknown {
  const v = deepCopyJSON(s.default);
  if (v === null || typeof v !== 'object') return v;
  const st = new PruneState();
  st.reset(false, true, false);
  compilePrune(s)(v, st);
  return v;
}

class DefaultGenerator extends CodeGenerator {
  readonly below = new Map<StructuralNode, boolean>();
  constructor() {
    super('d');
  }
  /** Whether any node strictly below s has a default. */
  hasDefaultBelow(s: StructuralNode): boolean {
    let r = this.below.get(s);
    if (r !== undefined) return r;
    r = false;
    for (const c of [s.items, s.additionalProperties, ...(s.properties?.values() ?? [])]) {
      if (c && (c.default !== undefined || this.hasDefaultBelow(c))) r = true;
    }
    this.below.set(s, r);
    return r;
  }
  /** The expression of s's (pruned) default: literals inline, objects copied from a constant. */
  make(s: StructuralNode): string {
    const v = prunedDefault(s);
    if (v !== null && typeof v === 'object') return `H.copy(${this.constant(v)})`;
    return typeof v === 'string' ? lit(v) : typeof v === 'bigint' ? `${v}n` : String(v);
  }
}

const recurse = (fn: string | null, expr: string): string => (fn ? `{ const w = ${expr}; if (w !== null && typeof w === "object") ${fn}(w); }` : '');

function genDefault(g: DefaultGenerator, s: StructuralNode): string | null {
  if (!g.hasDefaultBelow(s)) return null;
  const fn = g.name();
  const objectCode: string[] = [];
  const children: string[] = [];
  for (const [k, p] of s.properties ?? []) {
    const key = lit(k);
    if (p.default !== undefined) {
      const absent = PROTO_NAMES.has(k) ? `!Object.hasOwn(x, ${key})` : `x[${key}] === undefined`;
      const replace = p.nullable ? absent : `${absent} || x[${key}] === null`;
      const assign = k === '__proto__' ? `H.setOwn(x, ${key}, ${g.make(p)})` : `x[${key}] = ${g.make(p)}`;
      objectCode.push(`if (${replace}) ${assign};`);
    }
    const c = genDefault(g, p);
    if (c) children.push(recurse(c, PROTO_NAMES.has(k) ? `(Object.hasOwn(x, ${key}) ? x[${key}] : undefined)` : `x[${key}]`));
  }
  objectCode.push(...children);
  const ap = s.additionalProperties ?? null;
  if (ap !== null) {
    const apDefault = ap.default !== undefined && !ap.nullable ? `if (x[k] === null) H.setOwn(x, k, ${g.make(ap)});` : '';
    const apFn = genDefault(g, ap);
    if (apDefault || apFn) {
      const skip = s.properties ? `if (${g.constant(new Set(s.properties.keys()))}.has(k)) continue; ` : '';
      objectCode.push(`for (const k in x) { ${skip}${apDefault} ${recurse(apFn, 'x[k]')} }`);
    }
  }
  let arrayCode = '';
  const items = s.items;
  if (items !== null) {
    const itemDefault = items.default !== undefined && !items.nullable ? `if (x[j] === null) x[j] = ${g.make(items)};` : '';
    const itemsFn = genDefault(g, items);
    if (itemDefault || itemsFn) arrayCode = `for (let j = 0; j < x.length; j++) { ${itemDefault} ${recurse(itemsFn, 'x[j]')} }`;
  }
  g.fns.push(`function ${fn}(x) {\nif (Array.isArray(x)) { ${arrayCode} return; }\n${objectCode.join('\n')}\n}`);
  return fn;
}

/** Compiles defaulting for a schema; null when the schema has no defaults. */
export function compileDefaulting(s: StructuralNode): DefaultFn | null {
  const g = new DefaultGenerator();
  const top = genDefault(g, s);
  if (top === null) return null;
  const source = `"use strict";\n${g.fns.join('\n')}\nreturn ${top};`;
  const fn = new Function('H', 'K', source)({ copy: deepCopyJSON, setOwn }, g.consts) as DefaultFn;
  return (x) => {
    if (x !== null && typeof x === 'object') fn(x);
  };
}
