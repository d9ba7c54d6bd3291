// The AST validators Kubernetes enables (k8s.io/apiserver pkg/cel/environment
// base.go, from 1.29): cel-go's homogeneous aggregate literals, duration and
// timestamp literal evaluation, and regex literal compilation (cel/validator.go).

import type { CheckedAst, Expr, Literal } from './ast.js';
import type { Env } from './env.js';
import type { Issue } from './issues.js';
import type { CelType } from './types.js';
import { CelError, Uint, type Val } from './values.js';
import { formatCelType, isEquivalentType, params } from './checker-types.js';
import { stringFormatValidator } from './lib/string-format.js';
import { compileRegex } from './stdlib-ops.js';

export type { AstValidator } from './ast-validator.js';
import type { AstValidator } from './ast-validator.js';

/** Calls whose list and map literal arguments may mix types (ext strings' format). */
const HOMOGENEOUS_EXEMPT_FUNCTIONS: readonly string[] = ['format'];

/** Every node of the tree, each with the names of the calls enclosing it. */
function walk(e: Expr, visit: (e: Expr, enclosingCalls: readonly string[]) => void, calls: string[] = []): void {
  visit(e, calls);
  switch (e.kind) {
    case 'select': walk(e.operand, visit, calls); break;
    case 'call':
      calls.push(e.fn);
      if (e.target) walk(e.target, visit, calls);
      for (const a of e.args) walk(a, visit, calls);
      calls.pop();
      break;
    case 'list': for (const x of e.elements) walk(x, visit, calls); break;
    case 'map': for (const en of e.entries) { walk(en.key, visit, calls); walk(en.value, visit, calls); } break;
    case 'struct': for (const f of e.fields) walk(f.value, visit, calls); break;
    case 'comprehension':
      walk(e.iterRange, visit, calls);
      walk(e.accuInit, visit, calls);
      walk(e.loopCondition, visit, calls);
      walk(e.loopStep, visit, calls);
      walk(e.result, visit, calls);
      break;
    default: break;
  }
}

/** List and map literals must not mix element (key, value) types. */
function homogeneousAggregateLiterals(exempt: readonly string[] = HOMOGENEOUS_EXEMPT_FUNCTIONS): AstValidator {
  return (ast, _env, report) => {
    const typeOf = (e: Expr): CelType => ast.types.get(e.id)!;
    const mismatch = (id: number, expected: CelType, actual: CelType): void =>
      report(id, `expected type '${formatCelType(expected)}' but found '${formatCelType(actual)}'`);
    const lists: Extract<Expr, { kind: 'list' }>[] = [];
    const maps: Extract<Expr, { kind: 'map' }>[] = [];
    walk(ast.expr, (e, calls) => {
      if (e.kind !== 'list' && e.kind !== 'map') return;
      if (calls.some((c) => exempt.includes(c))) return;
      if (e.kind === 'list') lists.push(e); else maps.push(e);
    });
    for (const l of lists) {
      let elemType: CelType | undefined;
      for (let i = 0; i < l.elements.length; i++) {
        const el = l.elements[i]!;
        let t = typeOf(el);
        if (l.optionalIndices.includes(i)) t = params(t)[0] ?? t;
        if (!elemType) { elemType = t; continue; }
        if (!isEquivalentType(elemType, t)) { mismatch(el.id, elemType, t); break; }
      }
    }
    for (const m of maps) {
      let keyType: CelType | undefined;
      let valType: CelType | undefined;
      for (const en of m.entries) {
        const kt = typeOf(en.key);
        let vt = typeOf(en.value);
        if (en.optional) vt = params(vt)[0] ?? vt;
        if (!keyType || !valType) { keyType = kt; valType = vt; continue; }
        if (!isEquivalentType(keyType, kt)) mismatch(en.key.id, keyType, kt);
        if (!isEquivalentType(valType, vt)) mismatch(en.value.id, valType, vt);
      }
    }
  };
}

function literalVal(l: Literal): Val {
  switch (l.kind) {
    case 'null': return null;
    case 'bool': case 'string': case 'double': case 'bytes': case 'int': return l.value;
    case 'uint': return new Uint(l.value);
  }
}

/** Calls of `fn` whose first argument is a literal. */
function literalCalls(ast: CheckedAst, fn: string): { call: Extract<Expr, { kind: 'call' }>; arg: Extract<Expr, { kind: 'literal' }> }[] {
  const out: { call: Extract<Expr, { kind: 'call' }>; arg: Extract<Expr, { kind: 'literal' }> }[] = [];
  walk(ast.expr, (e) => {
    if (e.kind === 'call' && e.fn === fn && e.args[0]?.kind === 'literal') out.push({ call: e, arg: e.args[0] });
  });
  return out;
}

/** `duration('…')` and `timestamp('…')` with literal arguments must evaluate. */
function literalConversion(fn: 'duration' | 'timestamp'): AstValidator {
  return (ast, env, report) => {
    for (const { call, arg } of literalCalls(ast, fn)) {
      const ids = ast.references.get(call.id)?.overloadIds ?? [];
      const overloads = ids.map((id) => env.overloads.get(id)).filter((o) => o !== undefined);
      const value = literalVal(arg.value);
      const argKind = arg.value.kind;
      const o = overloads.find((x) => x.params.length === 1 && !x.member && matchesLiteral(x.params[0]!, argKind))
        ?? overloads.find((x) => !x.member);
      if (!o) continue;
      let result: Val;
      try { result = o.impl([value]); } catch { result = new CelError('evaluation failed'); }
      if (result instanceof CelError) report(arg.id, `invalid ${fn} argument`);
    }
  };
}

function matchesLiteral(t: CelType, kind: Literal['kind']): boolean {
  switch (t.kind) {
    case 'primitive': return t.name === (kind === 'bool' ? 'bool' : kind);
    case 'null': return kind === 'null';
    case 'timestamp': case 'duration': return false;
    default: return true;
  }
}

/** Literal patterns of `matches` must compile (RE2 syntax). */
const regexLiterals: AstValidator = (ast, _env, report) => {
  for (const { arg } of literalCalls(ast, 'matches')) {
    if (arg.value.kind !== 'string') continue;
    // Through the shared cache: planning compiles the same pattern again (OptimizeRegex).
    if (compileRegex(arg.value.value) instanceof CelError) report(arg.id, 'invalid matches argument');
  }
};

/** Kubernetes' validators, in the order its environment registers them. */
export const KUBERNETES_VALIDATORS: readonly AstValidator[] = [
  homogeneousAggregateLiterals(),
  literalConversion('duration'),
  literalConversion('timestamp'),
  regexLiterals,
];

const WITH_STRING_FORMAT: readonly AstValidator[] = [...KUBERNETES_VALIDATORS, stringFormatValidator];

/** The validators an environment brings: Kubernetes' set, plus ext.Strings'
 * format-string check when the environment declares `string.format`. */
function defaultValidators(env: Env): readonly AstValidator[] {
  return env.overloads.has('string_format') ? WITH_STRING_FORMAT : KUBERNETES_VALIDATORS;
}

export function runValidators(ast: CheckedAst, env: Env, validators: readonly AstValidator[] = defaultValidators(env)): Issue[] {
  const issues: Issue[] = [];
  const report = (id: number, message: string): void => {
    issues.push({ message, offset: ast.sourceInfo.positions.get(id) });
  };
  for (const v of validators) v(ast, env, report);
  return issues;
}
