// Compiling the x-kubernetes-validations of one schema node (apiextensions pkg/apiserver/schema/cel
// compilation.go): `self` (and `oldSelf`, optional for optionalOldSelf rules) typed by the node's
// CEL declaration, rules that must be bool, messageExpressions that must be string, transition
// rules detected by their references to oldSelf, and the static costs kube limits.
import { compileParsed } from '../cel/compile.js';
import { parse } from '../cel/parser.js';
import type { Env } from '../cel/env.js';
import { type Issues, formatIssues, isIssues } from '../cel/issues.js';
import { CelPlanError, type Program } from '../cel/program.js';
import type { CheckedAst, ParsedAst } from '../cel/ast.js';
import { estimateCost } from '../cel/cost-estimator.js';
import { type CelType, optionalOf } from '../cel/types.js';
import { type DeclType, celTypeOf, maxCardinality } from './cel-types.js';
import { normalizeRuleFieldPath } from './cel-field-path.js';
import type { Structural } from '../schema/structural-model.js';
import { newExpressionsEnv, storedExpressionsEnv } from './cel-env.js';
import { KUBERNETES_MACROS } from '../cel/macros.js';

// Kubernetes' parser options: standard, optional and two-variable comprehension macros (no cel.bind).
const K8S_PARSE = { macros: KUBERNETES_MACROS };

/** Successful parses by source text, oldest out first: CRD sets repeat their rules (the corpus: 1,327 in 373 texts). */
const PARSES_REMEMBERED = 4096;
/** Longer texts are parsed each time: the memory stays bounded (rules are a line or a few). */
const PARSE_REMEMBERED_LENGTH = 4096;
const parsed = new Map<string, ParsedAst>();

/**
 * parse(source) with Kubernetes' options, a success remembered: a parse depends on the text alone, and nothing
 * after it changes the AST (the checker copies the nodes it rewrites; test/crd/cel-parse-cache.test.ts).
 * Failures are not remembered (rare; their issues are the caller's).
 */
export function parseRule(source: string): ParsedAst | Issues {
  const known = parsed.get(source);
  if (known) return known;
  const r = parse(source, K8S_PARSE);
  if (!isIssues(r) && source.length <= PARSE_REMEMBERED_LENGTH) {
    if (parsed.size >= PARSES_REMEMBERED) parsed.delete(parsed.keys().next().value!);
    parsed.set(source, r);
  }
  return r;
}

/** cel.Env.Compile of a rule or messageExpression: parse (remembered), then check in env. */
function compileExpression(env: Env, source: string): ReturnType<typeof compileParsed> {
  return compileParsed(env, parseRule(source));
}

/** One x-kubernetes-validations entry as stored (read defensively: the schema is plain JSON). */
export interface ValidationRule {
  rule: string;
  message: string;
  messageExpression: string;
  reason?: string;
  fieldPath: string;
  optionalOldSelf?: boolean;
}

export function readRule(raw: unknown): ValidationRule {
  const r = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const str = (k: string): string => (typeof r[k] === 'string' ? (r[k] as string) : '');
  const out: ValidationRule = { rule: str('rule'), message: str('message'), messageExpression: str('messageExpression'), fieldPath: str('fieldPath') };
  if (typeof r['reason'] === 'string') out.reason = r['reason'];
  if (typeof r['optionalOldSelf'] === 'boolean') out.optionalOldSelf = r['optionalOldSelf'];
  return out;
}

/** apiservercel.Error: Invalid errors are the rule author's, Internal ones ours. */
interface RuleError {
  type: 'Invalid' | 'Internal';
  detail: string;
}

export interface CompiledRule {
  rule: ValidationRule;
  /** Absent for an empty rule and for one that failed to compile. */
  program?: Program;
  error?: RuleError;
  /** A transition rule: it refers to oldSelf. */
  usesOldSelf: boolean;
  /** Worst-case cost of one evaluation. */
  maxCost: number;
  /** How often the rule could run per request if its node repeats under unbounded lists and maps. */
  maxCardinality: number;
  messageProgram?: Program;
  messageError?: RuleError;
  messageMaxCost: number;
  /** The messageExpression compiled (its cost counts). */
  messageCompiled: boolean;
  /** The rule's fieldPath as a field path relative to the node ('' when unset). */
  fieldPath: string;
}

/** Which environment an expression compiles in: stored expressions may use everything this release has. */
export type EnvLoader = (expression: string, kind: 'rule' | 'messageExpression') => 'stored' | 'new';
export const STORED_EXPRESSIONS: EnvLoader = () => 'stored';

export interface CompileOptions {
  /** Builds programs (the runtime's planner); CRD validation only needs the checks and costs. */
  plan?: (ast: CheckedAst, env: Env) => Program;
  envLoader: EnvLoader;
}

let lastName = -1;

/**
 * generateUniqueSelfTypeName: a name rule authors cannot depend on (kube takes the clock's
 * nanoseconds; two compilations in one nanosecond get distinct names here too).
 */
function uniqueSelfTypeName(): string {
  let n = Number(process.hrtime.bigint() % 1_000_000_000n);
  if (n === lastName) n = (n + 1) % 1_000_000_000;
  lastName = n;
  return `selfType${n}`;
}

const BOOL_RESULT = (t: CelType): boolean => t.kind === 'primitive' && t.name === 'bool';
const STRING_RESULT = (t: CelType): boolean => t.kind === 'primitive' && t.name === 'string';

function usesOldSelf(ast: { references: Map<number, { name?: string }> }): boolean {
  for (const r of ast.references.values()) if (r.name === 'oldSelf') return true;
  return false;
}

/**
 * Compile: one result per rule, in order, and the type `self` has. `node` is the structural schema the rules sit on (for
 * fieldPath), `decl` its CEL declaration.
 */
export function compileRules(rules: readonly ValidationRule[], node: Structural, decl: DeclType, opts: CompileOptions): { compiled: CompiledRule[]; selfType: CelType } {
  const selfType = celTypeOf(decl, uniqueSelfTypeName());
  const vars = [
    { name: 'self', type: selfType },
    { name: 'oldSelf', type: selfType },
  ];
  const optionalVars = [
    { name: 'self', type: selfType },
    { name: 'oldSelf', type: optionalOf(selfType) },
  ];
  const envs = new Map<string, Env>();
  const envFor = (which: 'stored' | 'new', optional: boolean): Env => {
    const k = which + (optional ? '?' : '');
    let e = envs.get(k);
    if (!e) envs.set(k, (e = (which === 'stored' ? storedExpressionsEnv() : newExpressionsEnv()).withVariables(optional ? optionalVars : vars)));
    return e;
  };
  const cardinality = maxCardinality(decl.minSerializedSize);
  const compiled = rules.map((rule) => {
    try {
      return compileRule(rule, node, cardinality, opts, (kind, expr) => envFor(opts.envLoader(expr, kind), rule.optionalOldSelf === true));
    } catch (e) {
      // An engine failure is ours, not the rule author's: report it without taking the server down.
      const out = emptyResult(rule);
      out.error = { type: 'Internal', detail: `unexpected compilation error: ${(e as Error).message}` };
      return out;
    }
  });
  return { compiled, selfType };
}

/** cel.Env.Program: fails for what only planning finds (a constant conversion, an invalid constant regex). */
function instantiate(plan: NonNullable<CompileOptions['plan']>, ast: CheckedAst, env: Env): { program: Program } | { error: string } {
  try {
    return { program: plan(ast, env) };
  } catch (e) {
    if (e instanceof CelPlanError) return { error: e.message };
    throw e;
  }
}

const emptyResult = (rule: ValidationRule): CompiledRule => ({
  rule,
  usesOldSelf: false,
  maxCost: 0,
  maxCardinality: 0,
  messageMaxCost: 0,
  messageCompiled: false,
  fieldPath: '',
});

function compileRule(
  rule: ValidationRule,
  node: Structural,
  cardinality: number,
  opts: CompileOptions,
  envOf: (kind: 'rule' | 'messageExpression', expr: string) => Env,
): CompiledRule {
  const out = emptyResult(rule);
  if (rule.rule.trim().length === 0) return out;
  const env = envOf('rule', rule.rule);
  const r = compileExpression(env, rule.rule);
  if ('issues' in r) {
    out.error = { type: 'Invalid', detail: 'compilation failed: ' + formatIssues(r.issues) };
    return out;
  }
  if (!BOOL_RESULT(r.type)) {
    out.error = { type: 'Invalid', detail: 'cel expression must evaluate to a bool' };
    return out;
  }
  out.usesOldSelf = usesOldSelf(r.ast);
  if (opts.plan) {
    const p = instantiate(opts.plan, r.ast, env);
    if ('error' in p) {
      out.error = { type: 'Invalid', detail: `program instantiation failed: ${p.error}` };
      return out;
    }
    out.program = p.program;
  }
  out.maxCost = estimateCost(r.ast, env).max;
  out.maxCardinality = cardinality;
  if (rule.messageExpression !== '') {
    const menv = envOf('messageExpression', rule.messageExpression);
    const m = compileExpression(menv, rule.messageExpression);
    if ('issues' in m) {
      out.messageError = { type: 'Invalid', detail: 'messageExpression compilation failed: ' + formatIssues(m.issues) };
      return out;
    }
    if (!STRING_RESULT(m.type)) {
      out.messageError = { type: 'Invalid', detail: 'messageExpression must evaluate to a string' };
      return out;
    }
    if (opts.plan) {
      const p = instantiate(opts.plan, m.ast, menv);
      if ('error' in p) {
        out.messageError = { type: 'Invalid', detail: `messageExpression instantiation failed: ${p.error}` };
        return out;
      }
      out.messageProgram = p.program;
    }
    out.messageMaxCost = estimateCost(m.ast, menv).max;
    out.messageCompiled = true;
  }
  if (rule.fieldPath !== '') out.fieldPath = normalizeRuleFieldPath(rule.fieldPath, node) ?? '';
  return out;
}
