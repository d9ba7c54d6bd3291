// The CEL environment of webhook matchConditions (k8s.io/apiserver pkg/admission/plugin/webhook/matchconditions
// and plugin/cel): `object`, `oldObject` and `request`, each dynamically typed here, and `authorizer` with
// `authorizer.requestResource` (the authorization library, as ValidatingAdmissionPolicy has it). Expressions
// must evaluate to bool.
import type { Env } from '../../../cel/env.js';
import { compile } from '../../../cel/compile.js';
import { formatIssues } from '../../../cel/issues.js';
import { plan, type Program } from '../../../cel/program.js';
import { DYN } from '../../../cel/types.js';
import { AUTHORIZER_TYPE, RESOURCE_CHECK_TYPE } from '../../../cel/lib/authz.js';
import { admissionEnv } from './vap-cel.js';

export const MATCH_CONDITION_VARIABLES = [
  { name: 'object', type: DYN },
  { name: 'oldObject', type: DYN },
  { name: 'request', type: DYN },
  { name: 'authorizer', type: AUTHORIZER_TYPE },
  { name: 'authorizer.requestResource', type: RESOURCE_CHECK_TYPE },
];

let envs: { stored: Env; fresh: Env } | undefined;
const envOf = (stored: boolean): Env => {
  // The admission base environments (with the authorization library), this plugin's variables on top.
  const base = (mode: 'stored' | 'new'): Env => admissionEnv(mode, { hasParams: false, hasAuthorizer: false });
  envs ??= { stored: base('stored').withVariables(MATCH_CONDITION_VARIABLES), fresh: base('new').withVariables(MATCH_CONDITION_VARIABLES) };
  return stored ? envs.stored : envs.fresh;
};

/** CompileCELExpression for a match condition: the program, or kube's error detail (an Invalid field error). */
export function compileMatchCondition(expression: string, stored = false): { program: Program } | { error: string } {
  const env = envOf(stored);
  const out = compile(env, expression);
  if ('issues' in out) return { error: `compilation failed: ${formatIssues(out.issues)}` };
  const t = out.type;
  if (!(t.kind === 'dyn' || (t.kind === 'primitive' && t.name === 'bool'))) return { error: 'must evaluate to bool' };
  try {
    return { program: plan(out.ast, env) };
  } catch (e) {
    return { error: `program instantiation failed: ${(e as Error).message}` };
  }
}
