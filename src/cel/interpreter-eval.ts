// Compiles plan nodes into closures over an evaluation frame. Each closure charges the runtime cost
// cel-go's CostObserver would record for the corresponding Interpretable (interpreter/runtimecost.go
// with PresenceTestHasCost(false)), so a Program's cost matches kube-apiserver's.

import type { Overload } from './decls.js';
import { BINARY_IMPLS, UNARY_IMPLS } from './interpreter-nodes.js';
import type { Attr, Fold, PNode, Qual, Root, Slot } from './interpreter-nodes.js';
import { JsonObject } from './json-values.js';
import type { FieldInfo, ObjectInfo } from './json-values.js';
import {
  BINARY_COSTS,
  equalityCost,
  firstArgTraversal,
  inequalityCost,
  LIST_CREATE_COST,
  MAP_CREATE_COST,
  OVERLOAD_ID_COSTS,
} from './runtime-cost.js';
import {
  ABSENT,
  bigintOf,
  celEquals,
  isAssignableRuntime,
  isContainer,
  LiteralMap,
  markMutable,
  missingKeyError,
  noSuchOverload,
  noSuchOverloadFor,
  qualifyValue,
  runtimeTypeName,
  unmarkMutable,
  mutableListMark,
  releaseMutableLists,
  formatKey,
  isMutable,
} from './value-ops.js';
import { add } from './stdlib-ops.js';
import { CelError, CelMap, CelObject, Optional, Uint } from './values.js';
import type { CelList, Val } from './values.js';

/** One evaluation: variables, comprehension slots, and the cost so far. */
export class Frame {
  cost = 0;
  constructor(
    readonly vars: Readonly<Record<string, Val>>,
    readonly limit: number,
    readonly slots: Val[],
  ) {}
}

export type Eval = (f: Frame) => Val;

/** Thrown through the evaluation when the cost limit is passed (cel-go panics likewise). */
export class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

function charge(f: Frame, n: number): void {
  f.cost += n;
  if (f.cost > f.limit) throw new CostLimitExceeded();
}

/** Marks a slot whose accumulator has not been initialized yet. */
const UNINIT: Val = Object.freeze(new CelError('uninitialized accumulator'));

export interface CompileOptions {
  errorOnBadPresenceTest: boolean;
  presenceTestHasCost: boolean;
}

export function compile(n: PNode, opts: CompileOptions): Eval {
  switch (n.k) {
    case 'const': {
      const v = n.value;
      return () => v;
    }
    case 'attr': return compileAttrNode(n.attr, n.testOnly, opts);
    case 'call': return compileCall(n, opts);
    case 'and': return compileLogic(n.terms.map((t) => compile(t, opts)), false);
    case 'or': return compileLogic(n.terms.map((t) => compile(t, opts)), true);
    case 'eq':
    case 'ne':
      if (n.rhs.k === 'const') return compileEqualityToConst(compile(n.lhs, opts), n.rhs.value, n.k === 'ne');
      return compileEquality(compile(n.lhs, opts), compile(n.rhs, opts), n.k === 'ne');
    case 'list': return compileList(n.elems.map((e) => compile(e, opts)), n.optional);
    case 'map': return compileMap(n.keys.map((e) => compile(e, opts)), n.values.map((e) => compile(e, opts)), n.optional);
    case 'fold': return compileFold(n.fold, opts);
    case 'optOr':
    case 'optOrValue': {
      const l = compile(n.lhs, opts);
      const r = compile(n.rhs, opts);
      const orValue = n.k === 'optOrValue';
      return (f) => {
        const a = l(f);
        if (!(a instanceof Optional)) return a;
        if (a.value !== undefined) return orValue ? a.value : a;
        return r(f);
      };
    }
    case 'setIn': {
      const arg = compile(n.arg, opts);
      const set = n.set;
      return (f) => {
        const v = arg(f);
        if (v instanceof CelError) return v;
        return set.has(setKey(v));
      };
    }
  }
}

/** The key a primitive value has in a constant-list membership set (evalSetMembership). */
export function setKey(v: Val): unknown {
  if (v instanceof Uint) return `u${v.value}`;
  if (typeof v === 'number') return Number.isNaN(v) ? undefined : `d${v}`;
  if (typeof v === 'bigint') return `i${v}`;
  if (typeof v === 'string') return `s${v}`;
  if (typeof v === 'boolean') return v;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Logic.

function compileLogic(terms: Eval[], isOr: boolean): Eval {
  const stop = isOr; // the value that decides the result
  if (terms.length === 2) {
    const t0 = terms[0]!;
    const t1 = terms[1]!;
    return (f) => {
      const a = t0(f);
      if (a === stop) return stop;
      const b = t1(f);
      if (b === stop) return stop;
      if (typeof a !== 'boolean') return a instanceof CelError ? a : noSuchOverload();
      if (typeof b !== 'boolean') return b instanceof CelError ? b : noSuchOverload();
      return !stop;
    };
  }
  return (f) => {
    let err: CelError | undefined;
    for (let i = 0; i < terms.length; i++) {
      const v = terms[i]!(f);
      if (v === stop) return stop;
      if (typeof v !== 'boolean' && err === undefined) err = v instanceof CelError ? v : noSuchOverload();
    }
    return err ?? !stop;
  };
}

/** `==` and `!=`: errors propagate (the left one first), and `!=` is true unless equal. */
function compileEquality(l: Eval, r: Eval, negate: boolean): Eval {
  if (negate) {
    return (f) => {
      const a = l(f);
      const b = r(f);
      charge(f, inequalityCost(a, b));
      if (a instanceof CelError) return a;
      if (b instanceof CelError) return b;
      return celEquals(a, b) !== true;
    };
  }
  return (f) => {
    const a = l(f);
    const b = r(f);
    charge(f, equalityCost(a, b));
    if (a instanceof CelError) return a;
    if (b instanceof CelError) return b;
    return celEquals(a, b);
  };
}

/** compileEquality with a constant right operand (`x == 'a'`), which then needs no evaluation. */
function compileEqualityToConst(l: Eval, b: Val, negate: boolean): Eval {
  const cost = negate ? inequalityCost : equalityCost;
  return (f) => {
    const a = l(f);
    charge(f, cost(a, b));
    if (a instanceof CelError) return a;
    if (b instanceof CelError) return b;
    const eq = celEquals(a, b);
    return negate ? eq !== true : eq;
  };
}

// ---------------------------------------------------------------------------------------------
// Calls.

function safeCost(cost: (args: Val[], result: Val) => number, args: Val[], result: Val): number {
  try {
    const c = cost(args, result);
    return Number.isFinite(c) ? c : 1;
  } catch {
    return 1;
  }
}

function invoke(o: Overload, args: Val[]): Val {
  try {
    return o.impl(args);
  } catch (e) {
    return new CelError(e instanceof Error ? e.message : String(e));
  }
}

/** The element of a one-element list literal (without `?`), else undefined. */
function singleElementList(n: PNode): PNode | undefined {
  return n.k === 'list' && n.elems.length === 1 && !n.optional[0] ? n.elems[0] : undefined;
}

/** `list + [elem]`, the step of map and filter: the same evaluation order, results and costs as
 * building the one-element list (10) and adding it (1), but a comprehension's private
 * accumulator takes the element in place without the temporary list. */
function compileAppend(list: Eval, elem: Eval): Eval {
  return (f) => {
    const a = list(f);
    const e = elem(f);
    charge(f, LIST_CREATE_COST);
    let r: Val;
    if (a instanceof CelError) r = a;
    else if (e instanceof CelError) r = e;
    else if (isMutable(a)) {
      (a as Val[]).push(e);
      r = a;
    } else r = add(a, [e]);
    charge(f, 1);
    return r;
  };
}

const thrown = (e: unknown): CelError => new CelError(e instanceof Error ? e.message : String(e));

type BinaryCost = (a: Val, b: Val, result: Val) => number;

/** A one-argument call of a registered implementation, without an argument array; a strict one
 * passes an error argument on without calling. */
function unaryDirect(a0: Eval, fn: (a: Val) => Val, cost: BinaryCost | undefined, nonStrict: boolean): Eval {
  return (f) => {
    const a = a0(f);
    let r: Val;
    if (!nonStrict && a instanceof CelError) r = a;
    else {
      try {
        r = fn(a);
      } catch (e) {
        r = thrown(e);
      }
    }
    charge(f, cost === undefined ? 1 : cost(a, null, r));
    return r;
  };
}

/** A two-argument call of a registered implementation, without an argument array; a strict one
 * passes the first error argument on without calling. */
function binaryDirect(a0: Eval, a1: Eval, fn: (a: Val, b: Val) => Val, cost: BinaryCost | undefined, nonStrict: boolean): Eval {
  return (f) => {
    const a = a0(f);
    const b = a1(f);
    let r: Val;
    if (!nonStrict && a instanceof CelError) r = a;
    else if (!nonStrict && b instanceof CelError) r = b;
    else {
      try {
        r = fn(a, b);
      } catch (e) {
        r = thrown(e);
      }
    }
    charge(f, cost === undefined ? 1 : cost(a, b, r));
    return r;
  };
}

/** binaryDirect with a constant second argument (`x < 10`, `s.matches('^a')`). */
function binaryDirectToConst(a0: Eval, b: Val, fn: (a: Val, b: Val) => Val, cost: BinaryCost | undefined, nonStrict: boolean): Eval {
  return (f) => {
    const a = a0(f);
    let r: Val;
    if (!nonStrict && a instanceof CelError) r = a;
    else if (!nonStrict && b instanceof CelError) r = b;
    else {
      try {
        r = fn(a, b);
      } catch (e) {
        r = thrown(e);
      }
    }
    charge(f, cost === undefined ? 1 : cost(a, b, r));
    return r;
  };
}

function matches(o: Overload, args: Val[]): boolean {
  if (o.params.length !== args.length) return false;
  for (let i = 0; i < args.length; i++) if (!isAssignableRuntime(o.params[i]!, args[i]!)) return false;
  return true;
}

function compileCall(n: Extract<PNode, { k: 'call' }>, opts: CompileOptions): Eval {
  const appended = n.overload?.id === 'add_list' && !n.guard ? singleElementList(n.args[1]!) : undefined;
  if (appended) return compileAppend(compile(n.args[0]!, opts), compile(appended, opts));
  const args = n.args.map((a) => compile(a, opts));
  const argc = args.length;
  const fn = n.fn;
  const resolved = n.overload;
  const candidates = n.candidates;
  const nonStrict = resolved ? resolved.nonStrict === true : candidates.length > 0 && candidates.every((c) => c.nonStrict === true);
  /** The cost function of a call; cel-go keys most standard costs by overload id, so they apply
   * only to a statically resolved call. */
  const costFnOf = (o: Overload | undefined): ((args: Val[], result: Val) => number) | undefined => {
    const cost = o?.cost;
    if (!cost || (!n.idCost && OVERLOAD_ID_COSTS.has(cost))) return undefined;
    return cost;
  };

  // Fast paths: a resolved overload of one or two arguments needs no dispatch.
  if (resolved && !n.guard && (argc === 1 || argc === 2)) {
    const costFn = costFnOf(resolved);
    const a0 = args[0]!;
    if (argc === 1) {
      const direct = UNARY_IMPLS.get(resolved.impl);
      if (direct && (costFn === undefined || costFn === firstArgTraversal)) {
        return unaryDirect(a0, direct, costFn === undefined ? undefined : BINARY_COSTS.get(costFn)!, nonStrict);
      }
      return (f) => {
        const a = a0(f);
        const vals = [a];
        const r = !nonStrict && a instanceof CelError ? a : invoke(resolved, vals);
        charge(f, costFn ? safeCost(costFn, vals, r) : 1);
        return r;
      };
    }
    const a1 = args[1]!;
    const direct = BINARY_IMPLS.get(resolved.impl);
    const cost2 = costFn === undefined ? undefined : BINARY_COSTS.get(costFn);
    if (direct && (costFn === undefined || cost2 !== undefined)) {
      const second = n.args[1]!;
      if (second.k === 'const') return binaryDirectToConst(a0, second.value, direct, cost2, nonStrict);
      return binaryDirect(a0, a1, direct, cost2, nonStrict);
    }
    return (f) => {
      const a = a0(f);
      const b = a1(f);
      const vals = [a, b];
      const r = nonStrict ? invoke(resolved, vals) : a instanceof CelError ? a : b instanceof CelError ? b : invoke(resolved, vals);
      charge(f, costFn ? safeCost(costFn, vals, r) : 1);
      return r;
    };
  }

  // cel-go evaluates all arguments of unary and binary calls before checking for errors, but stops
  // at the first error of a call with more arguments (and then records no call cost).
  const stopEarly = argc > 2 && !nonStrict;
  const select = (vals: Val[]): Overload | CelError => {
    if (resolved) return n.guard && !matches(resolved, vals) ? noSuchOverloadFor(fn, vals) : resolved;
    for (const c of candidates) if (matches(c, vals)) return c;
    return candidates.length === 0 ? new CelError(`no such overload: ${fn}`) : noSuchOverloadFor(fn, vals);
  };
  return (f) => {
    const vals = new Array<Val>(argc);
    let firstErr: CelError | undefined;
    for (let i = 0; i < argc; i++) {
      const v = args[i]!(f);
      vals[i] = v;
      if (v instanceof CelError && firstErr === undefined && !nonStrict) {
        firstErr = v;
        if (stopEarly) return v;
      }
    }
    if (firstErr !== undefined) {
      const costFn = costFnOf(resolved);
      charge(f, costFn ? safeCost(costFn, vals, firstErr) : 1);
      return firstErr;
    }
    const o = select(vals);
    const result = o instanceof CelError ? o : invoke(o, vals);
    const costFn = costFnOf(o instanceof CelError ? resolved : o);
    charge(f, costFn ? safeCost(costFn, vals, result) : 1);
    return result;
  };
}

// ---------------------------------------------------------------------------------------------
// Aggregates.

function compileList(elems: Eval[], optional: boolean[]): Eval {
  const hasOptional = optional.some(Boolean);
  return (f) => {
    const out: Val[] = [];
    let result: Val = out;
    for (let i = 0; i < elems.length; i++) {
      let v = elems[i]!(f);
      if (v instanceof CelError) {
        result = v;
        break;
      }
      if (hasOptional && optional[i]) {
        if (!(v instanceof Optional)) {
          result = new CelError(`cannot initialize optional list element from non-optional value ${formatKey(v)}`);
          break;
        }
        if (v.value === undefined) continue;
        v = v.value;
      }
      out.push(v);
    }
    charge(f, LIST_CREATE_COST);
    return result;
  };
}

function compileMap(keys: Eval[], values: Eval[], optional: boolean[]): Eval {
  return (f) => {
    const m = new LiteralMap();
    let result: Val = m;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!(f);
      if (k instanceof CelError) {
        result = k;
        break;
      }
      let v = values[i]!(f);
      if (v instanceof CelError) {
        result = v;
        break;
      }
      if (optional[i]) {
        if (!(v instanceof Optional)) {
          result = new CelError(`cannot initialize optional entry '${formatKey(k)}' from non-optional value ${formatKey(v)}`);
          break;
        }
        if (v.value === undefined) {
          m.delete(k);
          continue;
        }
        v = v.value;
      }
      m.set(k, v);
    }
    charge(f, MAP_CREATE_COST);
    return result;
  };
}

// ---------------------------------------------------------------------------------------------
// Comprehensions.

function compileFold(fold: Fold, opts: CompileOptions): Eval {
  const it1 = fold.iterVar.index;
  const it2 = fold.iterVar2?.index;
  const range = compile(fold.range, opts);
  const cond = compile(fold.cond, opts);
  // Each node compiles once: a quantifier's step reuses its compiled predicate (compiling the
  // predicate again for the step would double the work at every nesting level).
  const quantifier = it2 === undefined ? quantifierOf(fold, opts) : undefined;
  const step = quantifier !== undefined && (fold.step.k === 'and' || fold.step.k === 'or')
    ? compileLogic([compile(fold.step.terms[0]!, opts), quantifier.pred], fold.step.k === 'or')
    : compile(fold.step, opts);
  const result = compile(fold.result, opts);
  const accu = fold.accu.index;
  const alwaysTrue = fold.cond.k === 'const' && fold.cond.value === true;

  const finish = (f: Frame, mark: number): Val => {
    const res = result(f);
    const acc = f.slots[accu];
    if (acc !== undefined) unmarkMutable(acc);
    releaseMutableLists(mark);
    return res;
  };
  /** One iteration; false when the loop condition stops the fold. */
  const iterate = (f: Frame): boolean => {
    const c = cond(f);
    if (c === false) return false;
    f.slots[accu] = step(f);
    return true;
  };

  return (f) => {
    const r = range(f);
    if (r instanceof CelError) return r;
    const slots = f.slots;
    slots[accu] = UNINIT;
    const mark = mutableListMark();
    if (Array.isArray(r)) {
      const list = r as CelList;
      const n = list.length;
      if (quantifier !== undefined) {
        slots[accu] = runQuantifier(f, quantifier, list, it1);
      } else if (it2 === undefined && alwaysTrue) {
        // map and filter: the loop condition is the constant true.
        for (let i = 0; i < n; i++) {
          slots[it1] = list[i]!;
          slots[accu] = step(f);
        }
      } else if (it2 === undefined) {
        for (let i = 0; i < n; i++) {
          slots[it1] = list[i]!;
          if (cond(f) === false) break;
          slots[accu] = step(f);
        }
      } else {
        for (let i = 0; i < n; i++) {
          slots[it1] = bigintOf(i);
          slots[it2] = list[i]!;
          if (cond(f) === false) break;
          slots[accu] = step(f);
        }
      }
      return finish(f, mark);
    }
    if (r instanceof CelMap || r instanceof CelObject) {
      const keys = r instanceof CelMap ? r.keys() : objectKeys(r);
      for (const k of keys) {
        slots[it1] = k;
        if (it2 !== undefined) {
          const v = r instanceof CelMap ? r.get(k) : r.field(k as string);
          slots[it2] = v === undefined ? null : v;
        }
        if (!iterate(f)) break;
      }
      return finish(f, mark);
    }
    if (it2 !== undefined) return new CelError(`unsupported comprehension range type: ${runtimeTypeName(r)}`);
    return new CelError(`got '${runtimeTypeName(r)}', expected iterable type`);
  };
}

/** `all` and `exists` over a list (cel-go's expansions: accumulator `init`, loop condition
 * `@not_strictly_false(accu)` or `@not_strictly_false(!accu)`, step `accu && pred` or
 * `accu || pred`), run without evaluating the accumulator, condition and step as expressions:
 * the same results, and the same costs charged in the same order. */
interface Quantifier {
  init: boolean;
  /** `!_` and `@not_strictly_false` as the checker resolved them. */
  not: ((a: Val) => Val) | undefined;
  notStrictlyFalse: (a: Val) => Val;
  /** The value that decides `accu || pred` (true) or `accu && pred` (false). */
  stop: boolean;
  pred: Eval;
}

function quantifierOf(fold: Fold, opts: CompileOptions): Quantifier | undefined {
  const isAccu = (n: PNode | undefined): boolean =>
    n !== undefined && n.k === 'attr' && !n.testOnly && n.attr.root.k === 'var' && n.attr.root.slot === fold.accu && n.attr.quals.length === 0;
  const directUnary = (n: PNode | undefined, id: string): ((a: Val) => Val) | undefined =>
    n !== undefined && n.k === 'call' && n.overload?.id === id && !n.guard && n.args.length === 1 && n.overload.cost === undefined
      ? UNARY_IMPLS.get(n.overload.impl)
      : undefined;
  const { cond, step } = fold;
  const init = fold.accu.init;
  if (init.k !== 'const' || typeof init.value !== 'boolean') return undefined;
  if (cond.k !== 'call') return undefined;
  const notStrictlyFalse = directUnary(cond, 'not_strictly_false');
  if (notStrictlyFalse === undefined) return undefined;
  const arg = cond.args[0];
  let not: ((a: Val) => Val) | undefined;
  if (!isAccu(arg)) {
    not = directUnary(arg, 'logical_not');
    if (not === undefined || arg!.k !== 'call' || !isAccu(arg.args[0])) return undefined;
  }
  if ((step.k !== 'and' && step.k !== 'or') || step.terms.length !== 2 || !isAccu(step.terms[0])) return undefined;
  return { init: init.value, not, notStrictlyFalse, stop: step.k === 'or', pred: compile(step.terms[1]!, opts) };
}

/** The accumulator after looping over a list; each reference to the accumulator costs 1, each
 * call 1. */
function runQuantifier(f: Frame, q: Quantifier, list: CelList, it: number): Val {
  const { stop, pred, not, notStrictlyFalse } = q;
  let acc: Val = q.init;
  for (let i = 0; i < list.length; i++) {
    f.slots[it] = list[i]!;
    // The loop condition.
    charge(f, 1);
    let c: Val = acc;
    if (not !== undefined) {
      c = c instanceof CelError ? c : not(c);
      charge(f, 1);
    }
    c = notStrictlyFalse(c);
    charge(f, 1);
    if (c === false) break;
    // The step: `accu && pred` / `accu || pred` as compileLogic evaluates it.
    charge(f, 1);
    if (acc === stop) continue;
    const b = pred(f);
    if (b === stop) acc = stop;
    else if (typeof acc !== 'boolean') acc = acc instanceof CelError ? acc : noSuchOverload();
    else if (typeof b !== 'boolean') acc = b instanceof CelError ? b : noSuchOverload();
    else acc = !stop;
  }
  return acc;
}

function objectKeys(o: CelObject): Iterable<Val> {
  const keys = (o as { keys?: () => Iterable<Val> }).keys;
  return typeof keys === 'function' ? keys.call(o) : [];
}

/** Reads an accumulator, initializing it on first use; an empty list or map becomes a private
 * mutable one so that `@result + [x]` appends in place (cel-go's folder does the same). */
function readAccumulator(slot: Slot, init: Eval): Eval {
  const index = slot.index;
  return (f) => {
    const v: Val = f.slots[index] as Val;
    return v === UNINIT ? initAccumulator(f, index, init) : v;
  };
}

function initAccumulator(f: Frame, index: number, init: Eval): Val {
  let v = init(f);
  if (Array.isArray(v) && v.length === 0) v = markMutable([]);
  else if (v instanceof CelMap && v.size === 0) v = markMutable(new LiteralMap());
  f.slots[index] = v;
  return v;
}

// ---------------------------------------------------------------------------------------------
// Attributes.

const hasOwn = Object.prototype.hasOwnProperty;

function compileRoot(root: Root, opts: CompileOptions): Eval {
  switch (root.k) {
    case 'rel': return compile(root.operand, opts);
    case 'cond': {
      const c = compile(root.cond, opts);
      const t = compileResolver(root.t, opts);
      const fl = compileResolver(root.f, opts);
      return (f) => {
        const v = c(f);
        if (v === true) return t(f);
        if (v === false) return fl(f);
        return v instanceof CelError ? v : noSuchOverload();
      };
    }
    case 'var': {
      if (root.slot) {
        const slot = root.slot;
        if (slot.init) return readAccumulator(slot, compile(slot.init, opts));
        const index = slot.index;
        return (f) => f.slots[index] as Val;
      }
      const name = root.name;
      const missing = new CelError(`no such attribute(s): ${(root.candidates ?? [name]).join(', ')}`);
      const fallback = root.typeIdent ?? missing;
      if (!(name in Object.prototype)) {
        // No inherited member has this name, so a defined value is the caller's own.
        return (f) => {
          const v = f.vars[name];
          return v !== undefined ? v : fallback;
        };
      }
      return (f) => {
        const v = f.vars[name];
        if (v !== undefined && hasOwn.call(f.vars, name)) return v;
        return fallback;
      };
    }
  }
}

type QualFn = (f: Frame, obj: Val, isOpt: boolean) => Val | typeof ABSENT;

const VALID_KEY = (k: Val): boolean =>
  typeof k === 'string' || typeof k === 'bigint' || typeof k === 'boolean' || typeof k === 'number' || k instanceof Uint;

/** Qualify `obj` by `key` as cel-go's qualifiers do: in an optional chain a missing key yields
 * ABSENT (and costs nothing); otherwise it is an error. Each observed step costs 1. */
function qualifyBy(f: Frame, obj: Val, key: Val, isOpt: boolean, testOnly: boolean, opts: CompileOptions): Val | typeof ABSENT {
  const v = qualifyValue(obj, key);
  if (testOnly) {
    if (v === ABSENT && !isContainer(obj) && opts.errorOnBadPresenceTest && !(obj instanceof CelError)) {
      if (!isOpt) charge(f, 1);
      return missingKeyError(obj, key);
    }
    const present = v !== ABSENT && !(v instanceof CelError);
    if (isOpt) {
      if (!present) return v instanceof CelError ? v : ABSENT;
      charge(f, 1);
      return true;
    }
    charge(f, 1);
    return v instanceof CelError ? v : present;
  }
  if (isOpt) {
    if (v === ABSENT) {
      if (!isContainer(obj) && opts.errorOnBadPresenceTest && !(obj instanceof CelError)) return missingKeyError(obj, key);
      return ABSENT;
    }
    if (v instanceof CelError) return v;
    charge(f, 1);
    return v;
  }
  charge(f, 1);
  return v === ABSENT ? missingKeyError(obj, key) : v;
}

interface CQual {
  fn: QualFn;
  optional: boolean;
}

function compileQual(q: Qual, opts: CompileOptions): CQual {
  if (q.k === 'const') {
    const key = q.key;
    const testOnly = q.testOnly;
    return { optional: q.optional, fn: (f, obj, isOpt) => qualifyBy(f, obj, key, isOpt, testOnly, opts) };
  }
  const resolve = compileResolver(q.attr, opts);
  const fn: QualFn = (f, obj, isOpt) => {
    const key = resolve(f);
    if (key instanceof CelError) {
      if (!isOpt) charge(f, 1);
      return key;
    }
    if (!VALID_KEY(key)) {
      if (!isOpt) charge(f, 1);
      return new CelError(`invalid qualifier type: ${runtimeTypeName(key)}`);
    }
    return qualifyBy(f, obj, key, isOpt, false, opts);
  };
  return { optional: q.optional, fn };
}

const endsInPresenceTest = (attr: Attr): boolean => {
  const last = attr.quals[attr.quals.length - 1];
  return last !== undefined && last.k === 'const' && last.testOnly;
};

/** Attribute.Resolve: the root's value qualified in turn, optional chains yielding optionals;
 * `own` is charged after resolving (the attribute's own cost when it is evaluated as an
 * expression). */
function compileResolver(attr: Attr, opts: CompileOptions, own = 0): Eval {
  const resolver = compileResolverOnly(attr, opts, own);
  if (resolver.chargesOwn || own === 0) return resolver.eval;
  const resolve = resolver.eval;
  return (f) => {
    const v = resolve(f);
    charge(f, own);
    return v;
  };
}

function compileResolverOnly(attr: Attr, opts: CompileOptions, own: number): { eval: Eval; chargesOwn: boolean } {
  if (attr.root.k === 'var' && attr.path && attr.path.length > 1) return { eval: compileMaybeRoot(attr, opts), chargesOwn: false };
  const direct = attr.root.k === 'var' ? directRoot(attr.root) : undefined;
  if (attr.quals.length === 0) {
    if (direct?.k === 'slot' && own !== 0) return { eval: slotRead(direct.index, direct.init, own, opts), chargesOwn: true };
    return { eval: compileRoot(attr.root, opts), chargesOwn: false };
  }
  const rootEval = compileRoot(attr.root, opts);
  const quals = attr.quals.map((q) => compileQual(q, opts));
  const testOnly = endsInPresenceTest(attr);
  // The common `self.a.b` shape: constant names, no optionals, no presence test.
  const keys = attr.quals.map((q) => (q.k === 'const' && !q.optional && !q.testOnly && typeof q.key === 'string' ? q.key : undefined));
  if (keys.every((k) => k !== undefined)) {
    return { eval: compileNameChain(rootEval, direct, keys as string[], quals, own), chargesOwn: true };
  }
  return { eval: (f) => applyQualifiers(f, rootEval(f), quals, testOnly), chargesOwn: false };
}

/** Roots read straight from the frame: a comprehension slot (without an accumulator to
 * initialize) or a variable whose name no inherited member shares. */
type DirectRoot =
  | { k: 'slot'; index: number; init?: PNode }
  | { k: 'var'; name: string; fallback: Val };

function directRoot(root: Extract<Root, { k: 'var' }>): DirectRoot | undefined {
  if (root.slot) return { k: 'slot', index: root.slot.index, init: root.slot.init };
  if (root.name in Object.prototype) return undefined;
  return { k: 'var', name: root.name, fallback: root.typeIdent ?? new CelError(`no such attribute(s): ${(root.candidates ?? [root.name]).join(', ')}`) };
}

/** A comprehension variable or accumulator evaluated as an expression, with its cost. */
function slotRead(index: number, initNode: PNode | undefined, own: number, opts: CompileOptions): Eval {
  if (initNode === undefined) {
    return (f) => {
      const v = f.slots[index] as Val;
      charge(f, own);
      return v;
    };
  }
  const init = compile(initNode, opts);
  return (f) => {
    let v = f.slots[index] as Val;
    if (v === UNINIT) v = initAccumulator(f, index, init);
    charge(f, own);
    return v;
  };
}

/** An inline cache of the field one select step reads from JSON-backed objects of one type. */
interface FieldCache {
  info: ObjectInfo | undefined;
  field: FieldInfo | undefined;
}

/** One constant-name select step (qualifyBy without optionals or presence tests), charging 1
 * when it reaches a container; errors pass through uncharged. */
function selectName(f: Frame, obj: Val, key: string, ic: FieldCache): Val {
  if (obj instanceof JsonObject) {
    const info = obj.info;
    if (info !== ic.info) {
      ic.info = info;
      ic.field = info.byName.get(key);
    }
    const x = ic.field === undefined ? undefined : obj.read(ic.field);
    charge(f, 1);
    return x === undefined ? missingKeyError(obj, key) : x;
  }
  if (obj instanceof CelError) return obj;
  const x = qualifyValue(obj, key);
  charge(f, 1);
  return x === ABSENT ? missingKeyError(obj, key) : x;
}

/** `root.a.b...` with constant field names: the same steps and costs as applyQualifiers with
 * qualifyBy, without per-step closures, with JSON-backed objects read through a field looked up
 * once per object type at each step, and the root read in place when it is a slot or variable. */
function compileNameChain(rootEval: Eval, direct: DirectRoot | undefined, names: readonly string[], quals: readonly CQual[], own: number): Eval {
  if (names.length === 1) {
    const key = names[0]!;
    const ic: FieldCache = { info: undefined, field: undefined };
    const finish = (f: Frame, obj: Val): Val => {
      const v = obj instanceof Optional ? applyQualifiers(f, obj, quals, false) : selectName(f, obj, key, ic);
      if (own !== 0) charge(f, own);
      return v;
    };
    if (direct?.k === 'slot' && direct.init === undefined) {
      const index = direct.index;
      return (f) => finish(f, f.slots[index] as Val);
    }
    if (direct?.k === 'var') {
      const { name, fallback } = direct;
      return (f) => {
        const v = f.vars[name];
        return finish(f, v !== undefined ? v : fallback);
      };
    }
    return (f) => finish(f, rootEval(f));
  }
  const caches: FieldCache[] = names.map(() => ({ info: undefined, field: undefined }));
  const n = names.length;
  return (f) => {
    let obj = rootEval(f);
    if (obj instanceof Optional) obj = applyQualifiers(f, obj, quals, false);
    else {
      for (let i = 0; i < n && !(obj instanceof CelError); i++) obj = selectName(f, obj, names[i]!, caches[i]!);
    }
    if (own !== 0) charge(f, own);
    return obj;
  };
}

function applyQualifiers(f: Frame, start: Val, quals: readonly CQual[], testOnly: boolean): Val {
  let obj = start;
  if (obj instanceof CelError) return obj;
  let isOpt = false;
  if (obj instanceof Optional) {
    if (obj.value === undefined) return obj;
    obj = obj.value;
    isOpt = true;
  }
  for (let i = 0; i < quals.length; i++) {
    const q = quals[i]!;
    isOpt = isOpt || q.optional;
    const r = q.fn(f, obj, isOpt);
    if (r === ABSENT) return testOnly && i === quals.length - 1 ? false : Optional.NONE;
    if (r instanceof CelError) return r;
    obj = r;
  }
  if (isOpt && !testOnly) return new Optional(obj);
  return obj;
}

/** For unchecked expressions, `a.b.c` may name a variable `a.b.c`, `a.b` or `a` (cel-go's
 * maybeAttribute): the longest declared name wins. */
function compileMaybeRoot(attr: Attr, opts: CompileOptions): Eval {
  const path = attr.path!;
  const quals = attr.quals.map((q) => compileQual(q, opts));
  const root = attr.root as Extract<Root, { k: 'var' }>;
  const names = path.map((_, i) => path.slice(0, i + 1).join('.'));
  const rest = names.map((_, i) => quals.slice(i));
  const missing = new CelError(`no such attribute(s): ${names.slice().reverse().join(', ')}`);
  const testOnly = endsInPresenceTest(attr);
  return (f) => {
    for (let i = names.length - 1; i >= 0; i--) {
      const name = names[i]!;
      const v = f.vars[name];
      if (v !== undefined && hasOwn.call(f.vars, name)) return applyQualifiers(f, v, rest[i]!, testOnly);
    }
    // A type name spelled out in full (`google.protobuf.Timestamp`).
    if (root.typeIdent !== undefined && quals.length === names.length - 1) return root.typeIdent;
    return missing;
  };
}

/** An attribute evaluated as an expression: its resolution plus 1 (0 for a conditional), less 1
 * for a presence test (PresenceTestHasCost(false)). */
function compileAttrNode(attr: Attr, testOnly: boolean, opts: CompileOptions): Eval {
  const own = (attr.root.k === 'cond' ? 0 : 1) - (testOnly && !opts.presenceTestHasCost ? 1 : 0);
  if (testOnly) {
    const resolve = compileResolver(attr, opts);
    return (f) => {
      const v = resolve(f);
      if (own !== 0) charge(f, own);
      return v instanceof Optional ? v.hasValue() : v;
    };
  }
  return compileResolver(attr, opts, own);
}
