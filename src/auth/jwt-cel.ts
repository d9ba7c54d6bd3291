// The CEL of JWT authenticators (k8s.io/apiserver pkg/authentication/cel): claim mappings and claim validation
// rules see `claims` (map(string, dyn), the token's payload), user validation rules see `user`
// (kubernetes.UserInfo), over the base environment for stored expressions. Compiled once when the configuration
// is loaded, with kube's error details; evaluated per token.
import type { CheckedAst, Expr } from '../cel/ast.js';
import { compile } from '../cel/compile.js';
import { Env } from '../cel/env.js';
import { formatIssues } from '../cel/issues.js';
import { jsonToVal } from '../cel/json-values.js';
import { KUBERNETES_MACROS } from '../cel/macros.js';
import { CelPlanError, plan, type Program } from '../cel/program.js';
import { PER_CALL_LIMIT } from '../cel/cost-estimator-k8s.js';
import { DYN, STRING, listOf, mapOf, type CelType, type ObjectType } from '../cel/types.js';
import { CelError, type Val } from '../cel/values.js';
import { AUTHZ_LIBRARY } from '../cel/lib/authz.js';
import { storedExpressionsEnv } from '../crd/cel-env.js';
import type { UserInfo } from '../api/user.js';

const CLAIMS_TYPE = mapOf(STRING, DYN);
const USER_TYPE: ObjectType = {
  kind: 'object',
  name: 'kubernetes.UserInfo',
  fields: new Map<string, { type: CelType; jsonName: string }>([
    ['username', { type: STRING, jsonName: 'username' }],
    ['uid', { type: STRING, jsonName: 'uid' }],
    ['groups', { type: listOf(STRING), jsonName: 'groups' }],
    ['extra', { type: mapOf(STRING, listOf(STRING)), jsonName: 'extra' }],
  ]),
};

export type JwtCelVariable = 'claims' | 'user';

const envs: Partial<Record<JwtCelVariable, Env>> = {};
const envFor = (v: JwtCelVariable): Env =>
  (envs[v] ??= new Env([...storedExpressionsEnv().libraries, AUTHZ_LIBRARY], [{ name: v, type: v === 'claims' ? CLAIMS_TYPE : USER_TYPE }]));

/** apiservercel.Error: Invalid is the author's mistake (field.Invalid), Internal ours (field.InternalError). */
export interface JwtCelError {
  type: 'Invalid' | 'Internal';
  detail: string;
}

export interface CompiledJwtExpression {
  expression: string;
  program: Program;
  ast: CheckedAst;
}

/**
 * compiler.compile: parse and check against the variable's environment; validation rules must have type bool
 * exactly (a dyn claim is not enough: kube's docs compare with `== true`), mappings may have any type.
 */
export function compileJwtExpression(expression: string, variable: JwtCelVariable, returns: 'bool' | 'any'): CompiledJwtExpression | { error: JwtCelError } {
  const env = envFor(variable);
  const r = compile(env, expression, { parse: { macros: KUBERNETES_MACROS } });
  if ('issues' in r) return { error: { type: 'Invalid', detail: 'compilation failed: ' + formatIssues(r.issues) } };
  if (returns === 'bool' && !(r.type.kind === 'primitive' && r.type.name === 'bool')) return { error: { type: 'Invalid', detail: 'must evaluate to bool' } };
  try {
    return { expression, program: plan(r.ast, env), ast: r.ast };
  } catch (e) {
    if (e instanceof CelPlanError) return { error: { type: 'Internal', detail: 'program instantiation failed: ' + e.message } };
    throw e;
  }
}

/** The mapper's eval: the value, or kube's "expression '...' resulted in error: ..." */
function run(c: CompiledJwtExpression, vars: Record<string, Val>): { value: Val } | { error: string } {
  const r = c.program.eval(vars, { costLimit: PER_CALL_LIMIT });
  if (r.value instanceof CelError) return { error: `expression '${c.expression}' resulted in error: ${r.value.message}` };
  return { value: r.value };
}

export const evalClaims = (c: CompiledJwtExpression, claims: Record<string, unknown>): { value: Val } | { error: string } =>
  run(c, { claims: jsonToVal(claims, CLAIMS_TYPE) });

/** convertUserInfoToUnstructured: every field present, empty when unset. */
export const evalUser = (c: CompiledJwtExpression, user: UserInfo): { value: Val } | { error: string } =>
  run(c, { user: jsonToVal({ username: user.name, uid: user.uid ?? '', groups: user.groups, extra: user.extra ?? {} }, USER_TYPE) });

/**
 * convertCELValueToStringList: a string (none when empty) or a list of strings (empty ones dropped); null is
 * none; anything else an error.
 */
export function celStringList(v: Val): string[] | { error: string } {
  const err = { error: 'expression must return a string or a list of strings' };
  if (v === null) return [];
  if (typeof v === 'string') return v === '' ? [] : [v];
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const x of v as readonly Val[]) {
      if (typeof x !== 'string') return err;
      if (x !== '') out.push(x);
    }
    return out;
  }
  return err;
}

/** hasSelectExp: whether the expression reads `claims.<field>` (or `claims.?<field>`) anywhere. */
export function selectsClaim(ast: CheckedAst, field: string): boolean {
  const isClaims = (e: Expr | undefined): boolean => e?.kind === 'ident' && e.name === 'claims';
  const walk = (e: Expr | undefined): boolean => {
    if (!e) return false;
    switch (e.kind) {
      case 'select':
        return (isClaims(e.operand) && e.field === field) || walk(e.operand);
      case 'call': {
        const [a0, a1] = e.args;
        if (!e.target && e.fn === '_?._' && e.args.length === 2 && isClaims(a0) && a1?.kind === 'literal' && a1.value.kind === 'string' && a1.value.value === field) return true;
        return e.args.some(walk) || walk(e.target);
      }
      case 'list':
        return e.elements.some(walk);
      case 'map':
        return e.entries.some((en) => walk(en.key) || walk(en.value));
      case 'struct':
        return e.fields.some((f) => walk(f.value));
      case 'comprehension':
        return walk(e.iterRange) || walk(e.accuInit) || walk(e.loopCondition) || walk(e.loopStep) || walk(e.result);
      default:
        return false;
    }
  };
  return walk(ast.expr);
}
