// matchConditions at request time (k8s.io/apiserver pkg/admission/plugin/webhook/matchconditions): every
// condition is evaluated; the first false one skips the webhook; errors fail closed with a Forbidden
// (failurePolicy Fail) or skip the webhook (Ignore).
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { jsonToVal } from '../cel/json-values.js';
import { CelError } from '../cel/values.js';
import { DYN } from '../cel/types.js';
import type { Program } from '../cel/program.js';
import { compileMatchCondition } from '../apis/admissionregistration/v1/webhook-cel.js';
import type { AuthorizerValue, ResourceCheckValue } from '../cel/lib/authz.js';

/** kube's per-evaluation budget of match conditions (celconfig.RuntimeCELCostBudgetMatchConditions). */
const COST_BUDGET = 7_000_000;

// Configurations are few and stable: programs are kept by expression text.
const compiled = new Map<string, { program: Program } | { error: string }>();
function programFor(expression: string): { program: Program } | { error: string } {
  let c = compiled.get(expression);
  if (!c) {
    // Stored configurations compile in the stored-expressions environment.
    c = compileMatchCondition(expression, true);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(expression, c);
  }
  return c;
}

export type MatchResult = { matches: true } | { matches: false } | { error: string };

export interface MatchConditionInput {
  object?: JSONObject;
  oldObject?: JSONObject;
  request: JSONObject;
  /** The requester's authorizer and its check of the request's own resource. */
  authorizer: AuthorizerValue;
  requestResource: ResourceCheckValue;
}

export function evaluateMatchConditions(hook: JSONObject, vars: MatchConditionInput): MatchResult {
  const conditions = Array.isArray(hook['matchConditions']) ? hook['matchConditions'].filter(isObject) : [];
  if (conditions.length === 0) return { matches: true };
  const activation = {
    object: jsonToVal(vars.object ?? null, DYN),
    oldObject: jsonToVal(vars.oldObject ?? null, DYN),
    request: jsonToVal(vars.request, DYN),
    authorizer: vars.authorizer,
    'authorizer.requestResource': vars.requestResource,
  };
  const errors: string[] = [];
  let budget = COST_BUDGET;
  for (const c of conditions) {
    const expression = String(c['expression'] ?? '');
    const p = programFor(expression);
    if ('error' in p) {
      errors.push(p.error);
      continue;
    }
    const { value, cost } = p.program.eval(activation, { costLimit: budget });
    budget -= cost;
    if (value instanceof CelError) errors.push(`expression '${expression}' resulted in error: ${value.message}`);
    else if (value === false) return { matches: false };
    else if (value !== true) errors.push(`expression '${expression}' resulted in error: no such overload`);
  }
  if (errors.length === 0) return { matches: true };
  const failOpen = hook['failurePolicy'] === 'Ignore';
  if (failOpen) return { matches: false };
  // utilerrors.NewAggregate's text: one error alone, several in brackets.
  return { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}
