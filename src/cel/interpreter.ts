// The planner: turns a (checked or parse-only) AST into plan nodes, once per expression, as
// cel-go's interpreter/planner.go does: calls dispatch by the checker's overload ids, idents and
// selections become attributes, `&&`/`||`/`?:`/`==`/indexing/optional `or` are special-cased, and
// with Kubernetes' OptOptimize constant lists, maps and type conversions fold at plan time and `in`
// over a constant list becomes a set lookup.

import type { CallExpr, CheckedAst, ComprehensionExpr, Expr, ParsedAst, Reference } from './ast.js';
import type { Overload } from './decls.js';
import type { Env } from './env.js';
import { compile, Frame, setKey } from './interpreter-eval.js';
import type { CompileOptions } from './interpreter-eval.js';
import { addQualifier, SELF_CHECKING_OVERLOADS } from './interpreter-nodes.js';
import type { Attr, PNode, Slot } from './interpreter-nodes.js';
import { compileRegex } from './stdlib-ops.js';
import { REGEX_OPTIMIZED_FUNCTIONS } from './lib/regex.js';
import { SINGLETON_FUNCTIONS, TYPE_CONVERSION_FUNCTIONS } from './stdlib.js';
import type { CelType } from './types.js';
import { CelError, Uint } from './values.js';
import type { CelList, Val } from './values.js';

export interface PlanOptions {
  /** cel.OptOptimize (on in Kubernetes): fold constant literals and conversions, precompile
   * constant regexes, turn `x in [constants]` into a set lookup. Default true. */
  optimize?: boolean;
  /** EnableErrorOnBadPresenceTest: `has()` on a non-container is an error instead of false. */
  errorOnBadPresenceTest?: boolean;
  /** interpreter.PresenceTestHasCost; Kubernetes sets false (the default here). */
  presenceTestHasCost?: boolean;
}

/** The expression cannot become a program (cel-go's Program() error, which Kubernetes reports as
 * "program instantiation failed: ..."). */
export class CelPlanError extends Error {}

const isDynLike = (t: CelType | undefined): boolean =>
  t === undefined || t.kind === 'dyn' || t.kind === 'typeParam' || t.kind === 'error';

const isOpenParam = (t: CelType): boolean => t.kind === 'dyn' || t.kind === 'typeParam';

export class Planner {
  private readonly scopes: Map<string, Slot>[] = [];
  private slotCount = 0;
  private readonly references: Map<number, Reference> | undefined;
  private readonly types: Map<number, CelType> | undefined;
  private readonly optimize: boolean;
  private readonly compileOptions: CompileOptions;

  constructor(
    ast: ParsedAst | CheckedAst,
    private readonly env: Env,
    options: PlanOptions = {},
  ) {
    this.references = (ast as Partial<CheckedAst>).references;
    this.types = (ast as Partial<CheckedAst>).types;
    this.optimize = options.optimize ?? true;
    this.compileOptions = {
      errorOnBadPresenceTest: options.errorOnBadPresenceTest ?? false,
      presenceTestHasCost: options.presenceTestHasCost ?? false,
    };
  }

  get slots(): number {
    return this.slotCount;
  }

  get options(): CompileOptions {
    return this.compileOptions;
  }

  private get checked(): boolean {
    return this.references !== undefined;
  }

  plan(e: Expr): PNode {
    switch (e.kind) {
      case 'literal': return { k: 'const', value: literalValue(e.value) };
      case 'ident': return this.planIdent(e.id, e.name);
      case 'select': return this.planSelect(e);
      case 'call': return this.planCall(e);
      case 'list': return this.planList(e.elements, e.optionalIndices);
      case 'map': return this.planMap(e);
      case 'struct': throw new CelPlanError(`unknown type: ${e.typeName}`);
      case 'comprehension': return this.planComprehension(e);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Identifiers and selection.

  private lookupScope(name: string): Slot | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i]!.get(name);
      if (s) return s;
    }
    return undefined;
  }

  private planIdent(id: number, name: string): PNode {
    const slot = this.lookupScope(name);
    if (slot) return attrNode({ root: { k: 'var', name, slot }, quals: [] });
    if (this.checked) {
      const refName = this.references!.get(id)?.name ?? name;
      return this.planCheckedIdent(refName);
    }
    const typeIdent = this.env.idents.get(name)?.value;
    return attrNode({ root: { k: 'var', name, candidates: [name], typeIdent }, quals: [], path: [name] });
  }

  private planCheckedIdent(name: string): PNode {
    const ident = this.env.idents.get(name);
    if (ident && !this.env.variables.has(name)) return { k: 'const', value: ident.value };
    return attrNode({ root: { k: 'var', name }, quals: [] });
  }

  private planSelect(e: Extract<Expr, { kind: 'select' }>): PNode {
    if (this.checked) {
      const ref = this.references!.get(e.id);
      if (ref?.name !== undefined && !this.lookupScope(rootName(e))) return this.planCheckedIdent(ref.name);
    }
    const op = this.plan(e.operand);
    const attr = this.attrOf(op);
    if (!e.testOnly) extendPath(attr, e.field);
    else attr.path = undefined;
    if (attr.path && attr.root.k === 'var') attr.root.typeIdent = this.env.idents.get(attr.path.join('.'))?.value;
    addQualifier(attr, { k: 'const', key: e.field, optional: false, testOnly: e.testOnly });
    return { k: 'attr', attr, testOnly: e.testOnly };
  }

  /** The attribute an operand extends: its own, or a new one relative to its value. */
  private attrOf(op: PNode): Attr {
    if (op.k === 'attr' && !op.testOnly) return op.attr;
    return { root: { k: 'rel', operand: op }, quals: [] };
  }

  private planIndex(args: Expr[], optional: boolean): PNode {
    const op = this.plan(args[0]!);
    const ind = this.plan(args[1]!);
    const attr = this.attrOf(op);
    if (ind.k === 'const') {
      const key = ind.value;
      if (!(typeof key === 'string' || typeof key === 'bigint' || typeof key === 'boolean' || typeof key === 'number' || key instanceof Uint)) {
        throw new CelPlanError(`invalid qualifier type: ${describe(key)}`);
      }
      if (typeof key === 'string') extendPath(attr, key);
      else attr.path = undefined;
      addQualifier(attr, { k: 'const', key, optional, testOnly: false });
    } else {
      attr.path = undefined;
      const indexAttr = ind.k === 'attr' ? ind.attr : { root: { k: 'rel' as const, operand: ind }, quals: [] };
      addQualifier(attr, { k: 'attr', attr: indexAttr, optional });
    }
    return attrNode(attr);
  }

  // -------------------------------------------------------------------------------------------
  // Calls.

  private planCall(e: CallExpr): PNode {
    let target = e.target;
    let fn = e.fn;
    const ref = this.references?.get(e.id);
    const resolved = (ref?.overloadIds ?? []).map((id) => this.env.overloads.get(id)).filter((o): o is Overload => !!o);

    // A target that spells a namespace names a global function (`optional.none()`).
    if (target) {
      const qualified = qualifiedName(target);
      if (qualified !== undefined && !this.lookupScope(qualified.split('.')[0]!)) {
        const global = `${qualified}.${fn}`;
        const isGlobal = resolved.length > 0
          ? resolved.every((o) => !o.member) && this.env.functions.has(global)
          : this.env.functions.has(global) && !this.isVariableSpelling(target);
        if (isGlobal) {
          fn = global;
          target = undefined;
        }
      }
    }
    const argExprs = target ? [target, ...e.args] : e.args;

    switch (fn) {
      case '_&&_': return { k: 'and', terms: argExprs.map((a) => this.plan(a)) };
      case '_||_': return { k: 'or', terms: argExprs.map((a) => this.plan(a)) };
      case '_?_:_': return this.planConditional(argExprs);
      case '_==_': return { k: 'eq', lhs: this.plan(argExprs[0]!), rhs: this.plan(argExprs[1]!) };
      case '_!=_': return { k: 'ne', lhs: this.plan(argExprs[0]!), rhs: this.plan(argExprs[1]!) };
      case '_[_]': return this.planIndex(argExprs, false);
      case '_?._':
      case '_[?_]': return this.planIndex(argExprs, true);
    }
    const ids = ref?.overloadIds ?? [];
    if (argExprs.length === 2 && (fn === 'or' || fn === 'orValue')) {
      const special = fn === 'or' ? 'optional_or_optional' : 'optional_orValue_value';
      if (ids.length !== 1 || ids[0] === special) {
        return { k: fn === 'or' ? 'optOr' : 'optOrValue', lhs: this.plan(argExprs[0]!), rhs: this.plan(argExprs[1]!) };
      }
    }

    const args = argExprs.map((a) => this.plan(a));
    const candidates = resolved.length > 0 ? resolved : this.overloadsByName(fn, args.length, target !== undefined);
    let overload = resolved.length === 1 ? resolved[0] : undefined;
    if (!overload && SINGLETON_FUNCTIONS.has(fn) && candidates.length > 0 && candidates.every((c) => SELF_CHECKING_OVERLOADS.has(c))) {
      // One implementation serves every overload; it dispatches on the operands itself.
      overload = candidates[0];
    }
    const guard = overload !== undefined && !SELF_CHECKING_OVERLOADS.has(overload) &&
      argExprs.some((a, i) => !isOpenParam(overload.params[i] ?? { kind: 'dyn' }) && isDynLike(this.types?.get(a.id)));
    const node: PNode = { k: 'call', fn, args, overload, candidates, guard, idCost: resolved.length === 1 };
    this.precompileRegex(fn, args);
    return this.optimize ? this.optimizeCall(node, argExprs, resolved.length === 1 ? resolved[0]!.id : undefined) : node;
  }

  /** Whether a target like `a.b` is (the start of) a declared variable rather than a namespace. */
  private isVariableSpelling(target: Expr): boolean {
    const q = qualifiedName(target);
    if (q === undefined) return true;
    const parts = q.split('.');
    for (let i = parts.length; i > 0; i--) if (this.env.variables.has(parts.slice(0, i).join('.'))) return true;
    return false;
  }

  private overloadsByName(fn: string, argc: number, member: boolean): Overload[] {
    const decl = this.env.functions.get(fn);
    if (!decl) return [];
    const byArity = decl.overloads.filter((o) => o.params.length === argc);
    const sameStyle = byArity.filter((o) => (o.member === true) === member);
    return sameStyle.length > 0 ? sameStyle : byArity;
  }

  /**
   * Plan-time rewrites of cel-go's OptOptimize. The constant-list membership shortcut (decorators.go
   * maybeOptimizeSetMembership) applies only when the checker resolved the one overload in_list: with a
   * `dyn` right operand it records in_list and in_map, so `1/0 in dyn([])` evaluates (division by zero).
   */
  private optimizeCall(node: Extract<PNode, { k: 'call' }>, argExprs: Expr[], checkedOverloadId: string | undefined): PNode {
    const { fn, args } = node;
    if (checkedOverloadId === 'in_list' && args[1]!.k === 'const') {
      const list = args[1].value;
      if (Array.isArray(list)) {
        if ((list as CelList).length === 0) return { k: 'const', value: false };
        const set = membershipSet(list as CelList);
        if (set) return { k: 'setIn', arg: args[0]!, set };
      }
    }
    if (TYPE_CONVERSION_FUNCTIONS.has(fn) && args.length === 1 && args[0]!.k === 'const' && argExprs.length === 1) {
      const v = this.evaluateNow(node);
      if (v instanceof CelError) throw new CelPlanError(v.message);
      return { k: 'const', value: v };
    }
    if (fn === 'matches' && args.length === 2) checkPattern(args[1]!);
    return node;
  }

  /** The Kubernetes regex library compiles constant patterns of find/findAll when the program is
   * planned (cel.OptimizeRegex, with or without OptOptimize); a bad pattern fails planning. */
  private precompileRegex(fn: string, args: PNode[]): void {
    const opt = REGEX_OPTIMIZED_FUNCTIONS.get(fn);
    if (opt && args.length > opt.regexIndex && this.env.functions.has(fn)) checkPattern(args[opt.regexIndex]!);
  }

  /** Evaluate a constant subexpression at plan time. */
  private evaluateNow(node: PNode): Val {
    return compile(node, this.compileOptions)(new Frame({}, Infinity, []));
  }

  private planConditional(args: Expr[]): PNode {
    const cond = this.plan(args[0]!);
    const t = this.plan(args[1]!);
    const f = this.plan(args[2]!);
    const branch = (n: PNode): Attr => (n.k === 'attr' ? n.attr : { root: { k: 'rel', operand: n }, quals: [] });
    return attrNode({ root: { k: 'cond', cond, t: branch(t), f: branch(f) }, quals: [] });
  }

  // -------------------------------------------------------------------------------------------
  // Aggregates and comprehensions.

  private planList(elements: Expr[], optionalIndices: number[]): PNode {
    const elems = elements.map((e) => this.plan(e));
    const optional = elements.map((_, i) => optionalIndices.includes(i));
    const node: PNode = { k: 'list', elems, optional };
    if (this.optimize && elems.every((e) => e.k === 'const')) return { k: 'const', value: this.evaluateNow(node) };
    return node;
  }

  private planMap(e: Extract<Expr, { kind: 'map' }>): PNode {
    const keys = e.entries.map((en) => this.plan(en.key));
    const values = e.entries.map((en) => this.plan(en.value));
    const node: PNode = { k: 'map', keys, values, optional: e.entries.map((en) => en.optional) };
    if (this.optimize && keys.every((k) => k.k === 'const') && values.every((v) => v.k === 'const')) {
      return { k: 'const', value: this.evaluateNow(node) };
    }
    return node;
  }

  private planComprehension(e: ComprehensionExpr): PNode {
    const range = this.plan(e.iterRange);
    const init = this.plan(e.accuInit);
    const accu = { index: this.slotCount++, init };
    const iterVar: Slot = { index: this.slotCount++ };
    const iterVar2: Slot | undefined = e.iterVar2 !== undefined ? { index: this.slotCount++ } : undefined;
    const loopScope = new Map<string, Slot>([[e.iterVar, iterVar]]);
    if (e.iterVar2 !== undefined) loopScope.set(e.iterVar2, iterVar2!);
    loopScope.set(e.accuVar, accu);
    this.scopes.push(loopScope);
    const cond = this.plan(e.loopCondition);
    const step = this.plan(e.loopStep);
    this.scopes.pop();
    // The result sees the accumulator but no longer the iteration variables.
    this.scopes.push(new Map([[e.accuVar, accu]]));
    const result = this.plan(e.result);
    this.scopes.pop();
    return { k: 'fold', fold: { range, iterVar, iterVar2, accu, cond, step, result } };
  }
}

function checkPattern(arg: PNode): void {
  if (arg.k !== 'const' || typeof arg.value !== 'string') return;
  const re = compileRegex(arg.value);
  if (re instanceof CelError) throw new CelPlanError(re.message);
}

const attrNode = (attr: Attr): PNode => ({ k: 'attr', attr, testOnly: false });

/** Grow the dotted-name prefix of an unchecked variable attribute while it is only selections. */
function extendPath(attr: Attr, field: string): void {
  if (attr.path && attr.path.length === attr.quals.length + 1) attr.path = [...attr.path, field];
  else attr.path = undefined;
}

function rootName(e: Expr): string {
  while (e.kind === 'select') e = e.operand;
  return e.kind === 'ident' ? e.name : '';
}

/** `a.b.c` for a chain of identifiers and selections, else undefined. */
function qualifiedName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const q = qualifiedName(e.operand);
    return q === undefined ? undefined : `${q}.${e.field}`;
  }
  return undefined;
}

function literalValue(l: Extract<Expr, { kind: 'literal' }>['value']): Val {
  switch (l.kind) {
    case 'null': return null;
    case 'bool': return l.value;
    case 'int': return l.value;
    case 'uint': return new Uint(l.value);
    case 'double': return l.value;
    case 'string': return l.value;
    case 'bytes': return l.value;
  }
}

/** evalSetMembership's value set: primitive elements (not bytes), with their lossless numeric
 * equivalents; undefined when some element is not primitive. */
function membershipSet(list: CelList): Set<unknown> | undefined {
  const set = new Set<unknown>();
  for (const v of list) {
    if (typeof v === 'number' && Number.isNaN(v)) continue; // a NaN key never matches
    const k = setKey(v);
    if (k === undefined) return undefined;
    set.add(k);
    if (typeof v === 'number') {
      if (Number.isInteger(v) && Math.abs(v) < 9223372036854775808) {
        set.add(setKey(BigInt(v)));
        if (v >= 0) set.add(setKey(new Uint(BigInt(v))));
      }
    } else if (typeof v === 'bigint') {
      set.add(setKey(Number(v)));
      if (v >= 0n) set.add(setKey(new Uint(v)));
    } else if (v instanceof Uint) {
      set.add(setKey(Number(v.value)));
      if (v.value <= 9223372036854775807n) set.add(setKey(v.value));
    }
  }
  return set;
}

function describe(v: Val): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? (v as object).constructor.name : typeof v;
}
