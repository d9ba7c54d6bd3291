// Macro expansion as cel-go performs it: the standard macros (parser/macro.go),
// the optional library's optMap/optFlatMap (cel/library.go), cel.bind
// (ext/bindings.go) and the two-variable comprehensions (ext/comprehensions.go).
// The order of the helper calls fixes the ids, so it follows cel-go's exactly.

import type { Expr } from './ast.js';
import type { MacroError, MacroHelper } from './parser-ast.js';

/** Expands a call into an expression, declines (undefined: an ordinary call),
 * or reports malformed arguments. */
type MacroExpander = (h: MacroHelper, target: Expr | undefined, args: Expr[]) => Expr | undefined | MacroError;

export interface Macro {
  name: string;
  /** Argument count; -1 accepts any count. */
  argCount: number;
  receiver: boolean;
  expand: MacroExpander;
}

/** cel-go's legacy accumulator name, refused as an iteration variable too. */
const LEGACY_ACCU = '__result__';
const UNUSED_ITER_VAR = '#unused';

const err = (id: number, message: string): MacroError => ({ macroError: message, id });
const identName = (e: Expr): string | undefined => (e.kind === 'ident' ? e.name : undefined);

function iterVarError(h: MacroHelper, arg: Expr, v: string): MacroError | undefined {
  if (v === h.accuName || v === LEGACY_ACCU) return err(arg.id, 'iteration variable overwrites accumulator variable');
  return undefined;
}

const has: MacroExpander = (h, _t, args) => {
  const a = args[0]!;
  if (a.kind === 'select') return h.presenceTest(a.operand, a.field);
  return err(a.id, 'invalid argument to has() macro');
};

type Quantifier = 'all' | 'exists' | 'existsOne';

function quantifier(kind: Quantifier): MacroExpander {
  return (h, target, args) => {
    const v = identName(args[0]!);
    if (v === undefined) return err(args[0]!.id, 'argument must be a simple name');
    const bad = iterVarError(h, args[0]!, v);
    if (bad) return bad;
    return quantifierBody(h, kind, target!, v, undefined, args[1]!);
  };
}

function quantifierBody(h: MacroHelper, kind: Quantifier, target: Expr, v1: string, v2: string | undefined, pred: Expr): Expr {
  const accu = h.accuName;
  switch (kind) {
    case 'all': {
      const init = h.bool(true);
      const cond = h.call('@not_strictly_false', h.accu());
      const step = h.call('_&&_', h.accu(), pred);
      return h.comprehension(target, v1, v2, accu, init, cond, step, h.accu());
    }
    case 'exists': {
      const init = h.bool(false);
      const cond = h.call('@not_strictly_false', h.call('!_', h.accu()));
      const step = h.call('_||_', h.accu(), pred);
      return h.comprehension(target, v1, v2, accu, init, cond, step, h.accu());
    }
    case 'existsOne': {
      const init = h.int(0);
      const cond = h.bool(true);
      const step = h.call('_?_:_', pred, h.call('_+_', h.accu(), h.int(1)), h.accu());
      const result = h.call('_==_', h.accu(), h.int(1));
      return h.comprehension(target, v1, v2, accu, init, cond, step, result);
    }
  }
}

const map: MacroExpander = (h, target, args) => {
  const v = identName(args[0]!);
  if (v === undefined) return err(args[0]!.id, 'argument is not an identifier');
  const bad = iterVarError(h, args[0]!, v);
  if (bad) return bad;
  const filter = args.length === 3 ? args[1] : undefined;
  const fn = args.length === 3 ? args[2]! : args[1]!;
  const init = h.list();
  const cond = h.bool(true);
  let step = h.call('_+_', h.accu(), h.list(fn));
  if (filter) step = h.call('_?_:_', filter, step, h.accu());
  return h.comprehension(target!, v, undefined, h.accuName, init, cond, step, h.accu());
};

const filter: MacroExpander = (h, target, args) => {
  const v = identName(args[0]!);
  if (v === undefined) return err(args[0]!.id, 'argument is not an identifier');
  const bad = iterVarError(h, args[0]!, v);
  if (bad) return bad;
  const init = h.list();
  const cond = h.bool(true);
  let step = h.call('_+_', h.accu(), h.list(args[0]!));
  step = h.call('_?_:_', args[1]!, step, h.accu());
  return h.comprehension(target!, v, undefined, h.accuName, init, cond, step, h.accu());
};

function optMapLike(flat: boolean): MacroExpander {
  const name = flat ? 'optFlatMap' : 'optMap';
  return (h, target, args) => {
    const v = identName(args[0]!);
    if (v === undefined) return err(args[0]!.id, `${name}() variable name must be a simple identifier`);
    const hasValue = h.memberCall('hasValue', target!);
    const range = h.list();
    const init = h.memberCall('value', h.copy(target!));
    const cond = h.bool(false);
    const step = h.ident(v);
    const fold = h.comprehension(range, UNUSED_ITER_VAR, undefined, v, init, cond, step, args[1]!);
    const then = flat ? fold : h.call('optional.of', fold);
    return h.call('_?_:_', hasValue, then, h.call('optional.none'));
  };
}

const bind: MacroExpander = (h, target, args) => {
  if (!target || identName(target) !== 'cel') return undefined;
  const v = identName(args[0]!);
  if (v === undefined) return err(args[0]!.id, 'cel.bind() variable names must be simple identifiers');
  const range = h.list();
  const cond = h.bool(false);
  const step = h.ident(v);
  return h.comprehension(range, UNUSED_ITER_VAR, undefined, v, args[1]!, cond, step, args[2]!);
};

function twoVarIterVars(h: MacroHelper, a0: Expr, a1: Expr): [string, string] | MacroError {
  const v1 = identName(a0);
  if (v1 === undefined) return err(a0.id, 'argument must be a simple name');
  const v2 = identName(a1);
  if (v2 === undefined) return err(a1.id, 'argument must be a simple name');
  if (v1 === v2) return err(a1.id, `duplicate variable name: ${v1}`);
  if (v1 === h.accuName || v1 === LEGACY_ACCU) return err(a0.id, 'iteration variable overwrites accumulator variable');
  if (v2 === h.accuName || v2 === LEGACY_ACCU) return err(a1.id, 'iteration variable overwrites accumulator variable');
  return [v1, v2];
}

function twoVarQuantifier(kind: Quantifier): MacroExpander {
  return (h, target, args) => {
    const vars = twoVarIterVars(h, args[0]!, args[1]!);
    if (!Array.isArray(vars)) return vars;
    return quantifierBody(h, kind, target!, vars[0], vars[1], args[2]!);
  };
}

type Transform = 'list' | 'map' | 'mapEntry';

function transform(kind: Transform): MacroExpander {
  return (h, target, args) => {
    const vars = twoVarIterVars(h, args[0]!, args[1]!);
    if (!Array.isArray(vars)) return vars;
    const filter = args.length === 4 ? args[2] : undefined;
    const fn = args.length === 4 ? args[3]! : args[2]!;
    let step: Expr;
    if (kind === 'list') step = h.call('_+_', h.accu(), h.list(fn));
    else if (kind === 'map') step = h.call('cel.@mapInsert', h.accu(), h.ident(vars[0]), fn);
    else step = h.call('cel.@mapInsert', h.accu(), fn);
    if (filter) step = h.call('_?_:_', filter, step, h.accu());
    const init = kind === 'list' ? h.list() : h.map();
    const cond = h.bool(true);
    return h.comprehension(target!, vars[0], vars[1], h.accuName, init, cond, step, h.accu());
  };
}

const recv = (name: string, argCount: number, expand: MacroExpander): Macro => ({ name, argCount, receiver: true, expand });

/** cel-go's StandardMacros (what cel.StdLib enables). */
const STANDARD_MACROS: readonly Macro[] = [
  { name: 'has', argCount: 1, receiver: false, expand: has },
  recv('all', 2, quantifier('all')),
  recv('exists', 2, quantifier('exists')),
  recv('exists_one', 2, quantifier('existsOne')),
  recv('map', 2, map),
  recv('map', 3, map),
  recv('filter', 2, filter),
];

/** parser.AllMacros: the standard set plus the newer `existsOne` spelling. */
export const ALL_PARSER_MACROS: readonly Macro[] = [...STANDARD_MACROS, recv('existsOne', 2, quantifier('existsOne'))];

export const OPTIONAL_MACROS: readonly Macro[] = [recv('optMap', 2, optMapLike(false)), recv('optFlatMap', 2, optMapLike(true))];

export const BINDINGS_MACROS: readonly Macro[] = [recv('bind', 3, bind)];

export const TWO_VAR_COMPREHENSION_MACROS: readonly Macro[] = [
  recv('all', 3, twoVarQuantifier('all')),
  recv('exists', 3, twoVarQuantifier('exists')),
  recv('existsOne', 3, twoVarQuantifier('existsOne')),
  recv('exists_one', 3, twoVarQuantifier('existsOne')),
  recv('transformList', 3, transform('list')),
  recv('transformList', 4, transform('list')),
  recv('transformMap', 3, transform('map')),
  recv('transformMap', 4, transform('map')),
  recv('transformMapEntry', 3, transform('mapEntry')),
  recv('transformMapEntry', 4, transform('mapEntry')),
];

/** Exactly what Kubernetes 1.33's base environment parses with: it enables no
 * ext.Bindings, so `cel.bind(...)` is an ordinary (undeclared) call there. */
export const KUBERNETES_MACROS: readonly Macro[] = [...STANDARD_MACROS, ...OPTIONAL_MACROS, ...TWO_VAR_COMPREHENSION_MACROS];

/** parse()'s default: the Kubernetes set plus cel.bind, as the engine contract asks. */
export const DEFAULT_MACROS: readonly Macro[] = [
  ...STANDARD_MACROS, ...OPTIONAL_MACROS, ...BINDINGS_MACROS, ...TWO_VAR_COMPREHENSION_MACROS,
];

/** Macros by `name:argCount:receiver`, plus the set of names for a quick miss. */
export type MacroTable = Map<string, Macro> & { names?: Set<string> };

function macroKey(name: string, argCount: number, receiver: boolean): string {
  return `${name}:${argCount}:${receiver}`;
}

export function macroTable(macros: readonly Macro[]): MacroTable {
  const t: MacroTable = new Map();
  t.names = new Set(macros.map((m) => m.name));
  for (const m of macros) t.set(macroKey(m.name, m.argCount < 0 ? -1 : m.argCount, m.receiver), m);
  return t;
}

export function findMacro(t: MacroTable, name: string, argCount: number, receiver: boolean): Macro | undefined {
  if (t.names && !t.names.has(name)) return undefined;
  return t.get(macroKey(name, argCount, receiver)) ?? t.get(macroKey(name, -1, receiver));
}
