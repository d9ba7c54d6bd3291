// The planner's intermediate form: what each expression becomes before it is compiled to closures.
// It mirrors cel-go's Interpretable kinds closely enough to reproduce its runtime cost: variables,
// selections and indexing form attributes (a root plus qualifiers, costing one per step), the
// operands of `?:` are resolved rather than evaluated, and constants cost nothing.

import type { Overload } from './decls.js';
import type { Val } from './values.js';

type Impl = Overload['impl'];

export type PNode =
  | { k: 'const'; value: Val }
  | { k: 'attr'; attr: Attr; testOnly: boolean }
  | { k: 'call'; fn: string; args: PNode[]; overload?: Overload; candidates: Overload[]; guard: boolean; idCost: boolean }
  | { k: 'and' | 'or'; terms: PNode[] }
  | { k: 'eq' | 'ne'; lhs: PNode; rhs: PNode }
  | { k: 'list'; elems: PNode[]; optional: boolean[] }
  | { k: 'map'; keys: PNode[]; values: PNode[]; optional: boolean[] }
  | { k: 'fold'; fold: Fold }
  | { k: 'optOr' | 'optOrValue'; lhs: PNode; rhs: PNode }
  | { k: 'setIn'; arg: PNode; set: Set<unknown> };

/** How an attribute starts: a variable (by slot for comprehension variables, else by name), the
 * value of another expression, or a conditional choosing between two attributes. */
export type Root =
  | { k: 'var'; name: string; slot?: Slot; candidates?: string[]; typeIdent?: Val }
  | { k: 'rel'; operand: PNode }
  | { k: 'cond'; cond: PNode; t: Attr; f: Attr };

export interface Slot {
  index: number;
  /** For accumulators: the initializer, evaluated on first reference. */
  init?: PNode;
}

export type Qual =
  | { k: 'const'; key: Val; optional: boolean; testOnly: boolean }
  | { k: 'attr'; attr: Attr; optional: boolean };

export interface Attr {
  root: Root;
  quals: Qual[];
  /** For unchecked expressions: the dotted name prefix a select chain may spell (`a.b.c`). */
  path?: string[];
}

export interface Fold {
  range: PNode;
  iterVar: Slot;
  iterVar2?: Slot;
  accu: Slot & { init: PNode };
  cond: PNode;
  step: PNode;
  result: PNode;
}

/** Append a qualifier; a conditional attribute passes it on to both branches (cel-go's
 * conditionalAttribute.AddQualifier). */
export function addQualifier(attr: Attr, q: Qual): void {
  if (attr.root.k === 'cond') {
    addQualifier(attr.root.t, q);
    if (attr.root.f !== attr.root.t) addQualifier(attr.root.f, q);
    return;
  }
  attr.quals.push(q);
}

/** Overloads whose implementations check their operand types themselves (the standard, optional
 * and comprehension libraries), so calls to them need no runtime signature guard. */
export const SELF_CHECKING_OVERLOADS = new WeakSet<Overload>();

export function selfChecking<T extends { functions: { overloads: Overload[] }[] }>(lib: T): T {
  for (const f of lib.functions) for (const o of f.overloads) SELF_CHECKING_OVERLOADS.add(o);
  return lib;
}

/** Implementations that are a function of one or two separate arguments, registered by the
 * libraries that build their overloads from such functions: the interpreter then calls them
 * directly instead of through an argument array. */
export const UNARY_IMPLS = new WeakMap<Impl, (a: Val) => Val>();
export const BINARY_IMPLS = new WeakMap<Impl, (a: Val, b: Val) => Val>();

export function unaryImpl(f: (a: Val) => Val): Impl {
  const impl: Impl = (args) => f(args[0]!);
  UNARY_IMPLS.set(impl, f);
  return impl;
}

export function binaryImpl(f: (a: Val, b: Val) => Val): Impl {
  const impl: Impl = (args) => f(args[0]!, args[1]!);
  BINARY_IMPLS.set(impl, f);
  return impl;
}
