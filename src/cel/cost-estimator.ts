// Static cost estimation of a checked expression: cel-go v0.23.2 checker/cost.go
// with the options and estimator Kubernetes 1.33 uses for CRD validation rules
// (PresenceTestHasCost(false); k8s.io/apiserver pkg/cel/library CostEstimator
// whose sizes come from the declared schema types, as apiextensions' sizeEstimator).
//
// Field paths reproduce cel-go's exactly, including how Go's append shares the
// backing array of a path slice with spare capacity: several appends to one
// base path overwrite each other, and later lookups see the overwritten path.
// Kubernetes' size estimator walks those paths, so this is observable in costs.

import type { ComprehensionExpr, Expr, CallExpr, CheckedAst, ListExpr, MapExpr, SelectExpr, StructExpr, IdentExpr } from './ast.js';
import type { CallEstimate, EstimateArg, Range } from './decls.js';
import type { Env } from './env.js';
import { DYN, type CelType } from './types.js';
import {
  CONST_COST,
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  MAX_COST,
  REGEX_STRING_LENGTH_COST_FACTOR,
  SELECT_AND_IDENT_COST,
  STRING_TRAVERSAL_COST_FACTOR,
  STRUCT_CREATE_BASE_COST,
  UNKNOWN,
  addRange,
  addSat,
  fixed,
  mulRange,
  mulRangeFactor,
  toUint64,
  unionRange,
  wrapUint64,
} from './cost-estimator-math.js';
import { declaredTypeSizeEstimator, kubernetesCallEstimator, setsOverloadEstimators } from './cost-estimator-calls.js';

export type { CostNode, SizeEstimator, CallEstimator } from './cost-estimator-types.js';
import type { CostNode, SizeEstimator, CallEstimator } from './cost-estimator-types.js';

export interface CostOptions {
  /** Sizes of values reachable from variables. Default: Kubernetes' schema size estimator, which
   * walks the path from the declared type of `self` and returns `{0, maxElements}` (0 when the
   * type carries none). */
  sizeEstimator?: SizeEstimator;
  /** The estimator's EstimateCallCost. Default: Kubernetes' library estimates (by function name). */
  callEstimator?: CallEstimator;
  /** checker.OverloadCostEstimate options by overload id. Default: those of cel-go's ext.Sets. */
  overloadEstimators?: ReadonlyMap<string, CallEstimator>;
  /** checker.PresenceTestHasCost; Kubernetes sets false. */
  presenceTestHasCost?: boolean;
}

/**
 * The estimated cost range of evaluating a checked expression once (cel.Env.EstimateCost).
 * Kubernetes keeps `max` as the rule's MaxCost. Costs saturate at {@link MAX_COST}.
 *
 * For a CRD rule, declare `self` (and `oldSelf`) in `env` with the rule scope's declared type,
 * carrying `maxElements` on its lists, maps, strings and bytes (see maxElementsForSchema in
 * cost-estimator-k8s.ts); sizes are looked up along field paths from that type.
 *
 * Per call, in cel-go's order: an overload estimator (ext sets), Kubernetes' EstimateCallCost,
 * cel-go's built-in estimates for standard overloads, then the overload's own `estimate` from
 * decls.ts if it has one, else 1; argument and receiver costs are always added on top.
 */
export function estimateCost(ast: CheckedAst, env: Env, options: CostOptions = {}): Range {
  return new Coster(ast, env, options).cost(ast.expr);
}

// --- Go slices of path elements -------------------------------------------------

/** A Go []string header: a shared backing array, a length and a capacity. */
interface PathSlice {
  readonly arr: string[];
  readonly len: number;
  readonly cap: number;
}

const NIL_PATH: PathSlice = { arr: [], len: 0, cap: 0 };

/** Go's append of one element, writing in place when there is spare capacity. */
function appendPath(s: PathSlice, elem: string): PathSlice {
  if (s.len < s.cap) {
    s.arr[s.len] = elem;
    return { arr: s.arr, len: s.len + 1, cap: s.cap };
  }
  // growslice: double small slices (16-byte strings land exactly on size classes).
  const cap = s.cap === 0 ? 1 : s.cap < 256 ? s.cap * 2 : s.cap + Math.floor((s.cap + 768) / 4);
  const arr = s.arr.slice(0, s.len);
  arr.push(elem);
  return { arr, len: s.len + 1, cap };
}

const pathOf = (s: PathSlice | undefined): string[] | undefined => (s && s.len > 0 ? s.arr.slice(0, s.len) : undefined);

const isAccumulatorVar = (name: string | undefined): boolean => name === '__result__' || name === '@result';

/** A node handed to estimators; its path reads the live backing array, as in Go. */
class ExprNode implements CostNode {
  constructor(
    private readonly slice: PathSlice | undefined,
    readonly type: CelType,
    readonly expr: Expr | undefined,
    readonly computedSize: Range | undefined,
  ) {}
  get path(): readonly string[] | undefined {
    return pathOf(this.slice);
  }
}

// --- the estimator --------------------------------------------------------------

type ContainerKind = 'list' | 'map';

/** Sizes of a container's keys (or indices) and values, when both are known. */
interface EntrySize {
  container: ContainerKind;
  key: Range;
  val: Range;
}

interface LocalVar {
  path: PathSlice;
  size: Range | undefined;
  entrySize: EntrySize | undefined;
}

function unionEntry(a: EntrySize | undefined, b: EntrySize | undefined): EntrySize | undefined {
  if (!a || !b) return undefined;
  return { container: a.container, key: unionRange(a.key, b.key), val: unionRange(a.val, b.val) };
}

/** A size fixed by the expression itself: literals and literal lists and maps. */
function exprSize(e: Expr): Range | undefined {
  switch (e.kind) {
    case 'literal':
      switch (e.value.kind) {
        case 'string': {
          let n = 0;
          for (const _ of e.value.value) n++; // code points, as len([]rune(s))
          return fixed(n);
        }
        case 'bytes':
          return fixed(e.value.value.length);
        default:
          return fixed(1);
      }
    case 'list':
      return fixed(e.elements.length);
    case 'map':
      return fixed(e.entries.length);
    default:
      return undefined;
  }
}

/** Types whose values have a constant size (size 1). Strings and bytes do not. */
function isScalar(t: CelType): boolean {
  switch (t.kind) {
    case 'primitive':
      return t.name !== 'string' && t.name !== 'bytes';
    case 'timestamp':
    case 'duration':
      return true;
    case 'opaque':
      return t.name === 'optional_type' && t.params[0] !== undefined && isScalar(t.params[0]);
    default:
      return false;
  }
}

const ZERO: Range = { min: 0, max: 0 };

const COMPARISON_OVERLOADS = new Set([
  'less_string',
  'greater_string',
  'less_equals_string',
  'greater_equals_string',
  'less_bytes',
  'greater_bytes',
  'less_equals_bytes',
  'greater_equals_bytes',
  'equals',
  'not_equals',
]);

class Coster {
  private readonly exprPaths = new Map<number, PathSlice>();
  private readonly localVars = new Map<string, LocalVar[]>();
  private readonly computedSizes = new Map<number, Range>();
  private readonly computedEntrySizes = new Map<number, EntrySize>();
  private readonly sizeEstimator: SizeEstimator;
  private readonly callEstimator: CallEstimator;
  private readonly overloadEstimators: ReadonlyMap<string, CallEstimator>;
  private readonly presenceTestCost: Range;
  private readonly sizeOf = (node: CostNode): Range => node.computedSize ?? this.sizeEstimator(node) ?? UNKNOWN;

  constructor(
    private readonly ast: CheckedAst,
    private readonly env: Env,
    options: CostOptions,
  ) {
    this.sizeEstimator = options.sizeEstimator ?? declaredTypeSizeEstimator(env.variables.get('self'));
    this.callEstimator = options.callEstimator ?? kubernetesCallEstimator;
    this.overloadEstimators = options.overloadEstimators ?? setsOverloadEstimators;
    this.presenceTestCost = options.presenceTestHasCost ? fixed(SELECT_AND_IDENT_COST) : ZERO;
  }

  cost(e: Expr): Range {
    switch (e.kind) {
      case 'literal':
        return fixed(CONST_COST);
      case 'ident':
        return this.costIdent(e);
      case 'select':
        return this.costSelect(e);
      case 'call':
        return this.costCall(e);
      case 'list':
        return this.costCreateList(e);
      case 'map':
        return this.costCreateMap(e);
      case 'struct':
        return this.costCreateStruct(e);
      case 'comprehension':
        return this.isBind(e) ? this.costBind(e) : this.costComprehension(e);
    }
  }

  // --- scopes and paths

  private push(name: string, v: LocalVar): void {
    const stack = this.localVars.get(name);
    if (stack) stack.push(v);
    else this.localVars.set(name, [v]);
  }

  private pop(name: string): void {
    this.localVars.get(name)?.pop();
  }

  private peek(name: string): LocalVar | undefined {
    const stack = this.localVars.get(name);
    return stack && stack.length > 0 ? stack[stack.length - 1] : undefined;
  }

  private getType(e: Expr): CelType {
    return this.ast.types.get(e.id) ?? DYN;
  }

  private getPath(e: Expr): PathSlice {
    if (e.kind === 'ident') {
      const v = this.peek(e.name);
      if (v) return v.path;
    }
    return this.exprPaths.get(e.id) ?? NIL_PATH;
  }

  private containerOf(entry: EntrySize | undefined, range: Expr): string {
    return entry ? entry.container : this.getType(range).kind;
  }

  private pushIterKey(name: string, range: Expr): void {
    const entry = this.computeEntrySize(range);
    const path = this.getPath(range);
    const sub = this.containerOf(entry, range) === 'list' ? '@indices' : '@keys';
    this.push(name, { path: appendPath(path, sub), size: entry?.key, entrySize: undefined });
  }

  private pushIterValue(name: string, range: Expr): void {
    const entry = this.computeEntrySize(range);
    const path = this.getPath(range);
    const sub = this.containerOf(entry, range) === 'list' ? '@items' : '@values';
    this.push(name, { path: appendPath(path, sub), size: entry?.val, entrySize: undefined });
  }

  private pushIterSingle(name: string, range: Expr): void {
    const entry = this.computeEntrySize(range);
    const isList = this.containerOf(entry, range) === 'list';
    const size = isList ? entry?.val : entry?.key;
    const path = this.getPath(range);
    this.push(name, { path: appendPath(path, isList ? '@items' : '@keys'), size, entrySize: undefined });
  }

  private pushLocalVar(name: string, e: Expr): void {
    const path = this.getPath(e);
    const entrySize = this.computeEntrySize(e);
    this.push(name, { path, size: this.computeSize(e), entrySize });
  }

  // --- sizes

  private newNode(e: Expr): ExprNode {
    let path: PathSlice | undefined = this.getPath(e);
    // Estimators only get paths rooted at real variables, not at accumulators.
    if (path.len > 0 && isAccumulatorVar(path.arr[0])) path = undefined;
    return new ExprNode(path, this.getType(e), e, this.computeSize(e));
  }

  private setSize(e: Expr, size: Range | undefined): void {
    if (size) this.computedSizes.set(e.id, size);
  }

  private computeSize(e: Expr): Range | undefined {
    const known = this.computedSizes.get(e.id);
    if (known) return known;
    const fromExpr = exprSize(e);
    if (fromExpr) return fromExpr;
    // Estimator sizes come before type sizes: declared sizes override what CEL would assume.
    const type = this.getType(e);
    const estimated = this.sizeEstimator(new ExprNode(this.getPath(e), type, e, undefined));
    if (estimated) {
      this.computedSizes.set(e.id, estimated);
      return estimated;
    }
    if (isScalar(type)) return fixed(1);
    if (e.kind === 'ident') {
      const v = this.peek(e.name);
      if (v?.size) return v.size;
    }
    return undefined;
  }

  private sizeOrUnknown(e: Expr): Range {
    return this.computeSize(e) ?? UNKNOWN;
  }

  private setEntrySize(e: Expr, size: EntrySize | undefined): void {
    if (size) this.computedEntrySizes.set(e.id, size);
  }

  private computeEntrySize(e: Expr): EntrySize | undefined {
    const known = this.computedEntrySizes.get(e.id);
    if (known) return known;
    if (e.kind === 'ident') return this.peek(e.name)?.entrySize;
    return undefined;
  }

  private copySizeEstimates(dst: Expr, src: Expr): void {
    this.setSize(dst, this.computeSize(src));
    this.setEntrySize(dst, this.computeEntrySize(src));
  }

  // --- expressions

  private costIdent(e: IdentExpr): Range {
    const v = this.peek(e.name);
    this.exprPaths.set(e.id, v ? v.path : { arr: [e.name], len: 1, cap: 1 });
    return fixed(SELECT_AND_IDENT_COST);
  }

  private costSelect(e: SelectExpr): Range {
    if (e.testOnly) {
      // has(): the operand's cost only (with PresenceTestHasCost(false)).
      return addRange(this.presenceTestCost, this.cost(e.operand));
    }
    let sum = this.cost(e.operand);
    const kind = this.getType(e.operand).kind;
    if (kind === 'map' || kind === 'object' || kind === 'typeParam') sum = addRange(sum, fixed(SELECT_AND_IDENT_COST));
    this.exprPaths.set(e.id, appendPath(this.getPath(e.operand), e.field));
    return sum;
  }

  private costCall(e: CallExpr): Range {
    if (e.fn === 'dyn' && e.args.length > 0) {
      // dyn() only disables type checking: 1 plus its argument, keeping the argument's sizes.
      const arg = e.args[0]!;
      const argCost = this.cost(arg);
      this.copySizeEstimates(e, arg);
      return addRange(fixed(1), argCost);
    }
    const argCosts: Range[] = [];
    const argNodes: ExprNode[] = [];
    for (const arg of e.args) {
      argCosts.push(this.cost(arg));
      argNodes.push(this.newNode(arg));
    }
    const overloadIds = this.ast.references.get(e.id)?.overloadIds ?? [];
    if (overloadIds.length === 0) return { min: 0, max: 0 };
    let sum: Range = { min: 0, max: 0 };
    let target: ExprNode | undefined;
    if (e.target) {
      sum = addRange(sum, this.cost(e.target));
      target = this.newNode(e.target);
    }
    // A range covering every candidate overload.
    let fnCost: Range = { min: MAX_COST, max: 0 };
    let resultSize: Range | undefined;
    for (const id of overloadIds) {
      const oc = this.functionCost(e, id, target, argNodes, argCosts);
      fnCost = unionRange(fnCost, oc.cost);
      if (oc.resultSize) resultSize = resultSize ? unionRange(resultSize, oc.resultSize) : oc.resultSize;
      if ((id === 'index_list' || id === 'index_map') && e.args.length > 0) {
        const operand = e.args[0]!;
        resultSize = this.computeEntrySize(operand)?.val;
        this.exprPaths.set(e.id, appendPath(this.getPath(operand), id === 'index_list' ? '@items' : '@values'));
      }
      if (!resultSize) resultSize = this.computeSize(e);
    }
    this.setSize(e, resultSize);
    return addRange(sum, fnCost);
  }

  private functionCost(e: CallExpr, id: string, target: ExprNode | undefined, args: ExprNode[], argCosts: Range[]): CallEstimate {
    const argSum = (): Range => argCosts.reduce(addRange, { min: 0, max: 0 });
    const withArgs = (est: CallEstimate): CallEstimate => ({ cost: addRange(est.cost, argSum()), resultSize: est.resultSize });

    const overloadEstimator = this.overloadEstimators.get(id);
    if (overloadEstimator) {
      const est = overloadEstimator(e.fn, id, target, args, this.sizeOf);
      if (est) return withArgs(est);
    }
    const est = this.callEstimator(e.fn, id, target, args, this.sizeOf);
    if (est) return withArgs(est);

    const builtin = this.builtinCost(e, id, target, args, argCosts);
    if (builtin) return builtin;

    const declared = this.env.overloads.get(id)?.estimate;
    if (declared) {
      const estArgs: EstimateArg[] = [];
      for (const n of target ? [target, ...args] : args) estArgs.push({ type: n.type, size: this.sizeOf(n) });
      return withArgs(declared(estArgs));
    }
    // O(1) functions: one base cost unit.
    return { cost: addRange(fixed(1), argSum()) };
  }

  /** cel-go's own estimates for standard overloads (functionCost's switch). */
  private builtinCost(e: CallExpr, id: string, target: ExprNode | undefined, args: ExprNode[], argCosts: Range[]): CallEstimate | undefined {
    const argSum = (): Range => argCosts.reduce(addRange, { min: 0, max: 0 });
    const sizeOf = (n: CostNode | undefined): Range => n?.computedSize ?? UNKNOWN;
    const traverse = (r: Range): Range => mulRangeFactor(r, STRING_TRAVERSAL_COST_FACTOR);
    switch (id) {
      // O(n) functions
      case 'string_format':
        // Receiver-style; the result size cannot be bounded.
        return { cost: addRange(traverse(sizeOf(target)), argSum()) };
      case 'string_to_bytes':
        if (args.length === 1) {
          const sz = sizeOf(args[0]);
          // Each character converts to at most 4 bytes (unchecked uint64 multiply, as in Go).
          return { cost: addRange(traverse(sz), argSum()), resultSize: { min: sz.min, max: wrapUint64(toUint64(sz.max) * 4n) } };
        }
        break;
      case 'bytes_to_string':
        if (args.length === 1) {
          const sz = sizeOf(args[0]);
          return { cost: addRange(traverse(sz), argSum()), resultSize: { min: Math.floor(sz.min / 4), max: sz.max } };
        }
        break;
      case 'strings_quote':
        if (args.length === 1) {
          const sz = sizeOf(args[0]);
          // Every character escaped, plus the two quotes (unchecked uint64 arithmetic).
          const resultSize = { min: wrapUint64(toUint64(sz.min) + 2n), max: wrapUint64(toUint64(sz.max) * 2n + 2n) };
          return { cost: addRange(traverse(sz), argSum()), resultSize };
        }
        break;
      case 'starts_with_string':
      case 'ends_with_string':
        if (args.length === 1) return { cost: addRange(traverse(sizeOf(args[0])), argSum()) };
        break;
      case 'in_list':
        // Assumed O(n) even for constant lists.
        if (args.length === 2) return { cost: addRange(mulRangeFactor(sizeOf(args[1]), 1), argSum()) };
        break;
      // O(nm) functions
      case 'matches_string':
        if (args.length === 1) {
          // One more than the string length so that an empty string still costs the regex.
          const strCost = traverse(addRange(sizeOf(target), fixed(1)));
          // A guess: each regex term is about 4 characters long.
          const regexCost = mulRangeFactor(sizeOf(args[0]), REGEX_STRING_LENGTH_COST_FACTOR);
          return { cost: addRange(mulRange(strCost, regexCost), argSum()) };
        }
        break;
      case 'contains_string':
        if (args.length === 1) {
          return { cost: addRange(mulRange(traverse(sizeOf(target)), traverse(sizeOf(args[0]))), argSum()) };
        }
        break;
      case 'logical_or':
      case 'logical_and': {
        // Short-circuiting: at least the left side, at most both.
        const lhs = argCosts[0] ?? ZERO;
        const rhs = argCosts[1] ?? ZERO;
        return { cost: { min: lhs.min, max: addSat(lhs.max, rhs.max) } };
      }
      case 'conditional': {
        const size = unionRange(sizeOf(args[1]), sizeOf(args[2]));
        this.setEntrySize(e, unionEntry(this.computeEntrySize(e.args[1]!), this.computeEntrySize(e.args[2]!)));
        const cost = addRange(argCosts[0]!, unionRange(argCosts[1]!, argCosts[2]!));
        return { cost, resultSize: size };
      }
      case 'add_string':
      case 'add_bytes':
      case 'add_list':
        if (args.length === 2) {
          const resultSize = addRange(sizeOf(args[0]), sizeOf(args[1]));
          this.setEntrySize(e, unionEntry(this.computeEntrySize(e.args[0]!), this.computeEntrySize(e.args[1]!)));
          // List concatenation is O(1); it is here to track the size.
          if (id === 'add_list') return { cost: addRange(fixed(1), argSum()), resultSize };
          return { cost: addRange(traverse(resultSize), argSum()), resultSize };
        }
        break;
      default:
        if (COMPARISON_OVERLOADS.has(id)) {
          const lhs = sizeOf(args[0]);
          const rhs = sizeOf(args[1]);
          const smallestMax = Math.min(lhs.max, rhs.max);
          // Equality of two scalars costs 1.
          const cmp = { min: smallestMax > 0 ? 1 : 0, max: smallestMax };
          return { cost: addRange(traverse(cmp), argSum()) };
        }
    }
    return undefined;
  }

  private costCreateList(e: ListExpr): Range {
    let sum: Range = { min: 0, max: 0 };
    let itemSize: Range = { min: e.elements.length === 0 ? 0 : MAX_COST, max: 0 };
    for (const el of e.elements) {
      sum = addRange(sum, this.cost(el));
      itemSize = unionRange(itemSize, this.sizeOrUnknown(el));
    }
    this.setEntrySize(e, { container: 'list', key: fixed(1), val: itemSize });
    return addRange(sum, fixed(LIST_CREATE_BASE_COST));
  }

  private costCreateMap(e: MapExpr): Range {
    let sum: Range = { min: 0, max: 0 };
    const empty = e.entries.length === 0;
    let keySize: Range = { min: empty ? 0 : MAX_COST, max: 0 };
    let valSize: Range = { min: empty ? 0 : MAX_COST, max: 0 };
    for (const entry of e.entries) {
      sum = addRange(sum, this.cost(entry.key));
      sum = addRange(sum, this.cost(entry.value));
      keySize = unionRange(keySize, this.sizeOrUnknown(entry.key));
      valSize = unionRange(valSize, this.sizeOrUnknown(entry.value));
    }
    this.setEntrySize(e, { container: 'map', key: keySize, val: valSize });
    return addRange(sum, fixed(MAP_CREATE_BASE_COST));
  }

  private costCreateStruct(e: StructExpr): Range {
    let sum: Range = { min: 0, max: 0 };
    for (const f of e.fields) sum = addRange(sum, this.cost(f.value));
    return addRange(sum, fixed(STRUCT_CREATE_BASE_COST));
  }

  private costComprehension(e: ComprehensionExpr): Range {
    let sum = this.cost(e.iterRange);
    sum = addRange(sum, this.cost(e.accuInit));
    this.pushLocalVar(e.accuVar, e.accuInit);
    // Iteration variables get the paths and sizes of the range's entries.
    if (e.iterVar2 !== undefined) {
      this.pushIterKey(e.iterVar, e.iterRange);
      this.pushIterValue(e.iterVar2, e.iterRange);
    } else {
      this.pushIterSingle(e.iterVar, e.iterRange);
    }
    // The loop body is costed once and multiplied by the range size.
    const loopCost = this.cost(e.loopCondition);
    const stepCost = this.cost(e.loopStep);
    this.pop(e.iterVar);
    if (e.iterVar2 !== undefined) this.pop(e.iterVar2);
    sum = addRange(sum, this.cost(e.result));
    this.pop(e.accuVar);

    const rangeCnt = this.sizeOrUnknown(e.iterRange);
    sum = addRange(sum, mulRange(rangeCnt, addRange(stepCost, loopCost)));

    switch (e.accuInit.kind) {
      case 'literal':
        this.setSize(e, this.computeSize(e.accuInit));
        break;
      case 'list':
      case 'map':
        this.setSize(e, rangeCnt);
        // A step building a container has entry sizes of its own.
        this.setEntrySize(e, this.computeEntrySize(e.loopStep));
        break;
    }
    return sum;
  }

  /** cel.bind (and optMap): a comprehension over `[]` whose loop never runs. */
  private isBind(e: ComprehensionExpr): boolean {
    const r = e.iterRange;
    const c = e.loopCondition;
    return (
      r.kind === 'list' &&
      r.elements.length === 0 &&
      c.kind === 'literal' &&
      c.value.kind === 'bool' &&
      c.value.value === false &&
      e.accuVar !== '__result__'
    );
  }

  private costBind(e: ComprehensionExpr): Range {
    // Binds are lazily initialized, but the init cost is retained.
    let sum = this.cost(e.iterRange);
    sum = addRange(sum, this.cost(e.accuInit));
    this.pushLocalVar(e.accuVar, e.accuInit);
    sum = addRange(sum, this.cost(e.result));
    this.pop(e.accuVar);
    this.copySizeEstimates(e, e.result);
    return sum;
  }
}
