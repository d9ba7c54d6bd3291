// One evaluation of a compiled policy for one (binding, param) (k8s.io/apiserver
// pkg/admission/plugin/policy/validating/validator.go, plugin/cel/{activation,composition,condition}.go):
// match conditions, then validations with their messages, then audit annotations, against the activation
// `object`, `oldObject`, `request`, `params`, `namespaceObject` and lazily evaluated `variables`, each
// expression within the per-call cost limit and all of them within the evaluation's budget.
import type { JSONObject } from '../../util/json.js';
import { jsonToVal } from '../../cel/json-values.js';
import { CelError, CelObject, type Val } from '../../cel/values.js';
import { DYN, type ObjectType } from '../../cel/types.js';
import { PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET } from '../../cel/cost-estimator-k8s.js';
import type { CompiledExpression } from '../../apis/admissionregistration/v1/vap-cel.js';
import { NAMESPACE_TYPE, REQUEST_TYPE } from '../../apis/admissionregistration/v1/vap-cel.js';
import { goQuote } from '../../api/field-error.js';
import type { AuthorizerValue, ResourceCheckValue } from '../../cel/lib/authz.js';
import type { CompiledPolicy } from './compile.js';

/** celconfig.RuntimeCELCostBudgetMatchConditions. */
const MATCH_CONDITIONS_BUDGET = 2_500_000;
/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;
const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

export interface PolicyDecision {
  action: 'admit' | 'deny';
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  reason?: string;
}

export interface AuditAnnotationResult {
  key: string;
  action: 'publish' | 'exclude' | 'error';
  value?: string;
  error?: string;
}

export interface ValidateResult {
  decisions: PolicyDecision[];
  auditAnnotations: AuditAnnotationResult[];
}

/** The activation's plain inputs. */
export interface EvaluationInput {
  object?: JSONObject;
  oldObject?: JSONObject;
  request: JSONObject;
  params?: JSONObject | null;
  namespaceObject?: JSONObject;
  /** `authorizer` and `authorizer.requestResource`, when the server has an authorizer. */
  authorizer?: AuthorizerValue;
  requestResource?: ResourceCheckValue;
}

class OutOfBudget extends Error {}

/** `variables`: each compiled once per policy, evaluated at most once per activation, on first use. */
class LazyVariables extends CelObject {
  private readonly values = new Map<string, Val>();
  /** Cost of variables evaluated since the last take (compositionContext.GetAndResetCost). */
  cost = 0;
  constructor(
    readonly type: ObjectType,
    private readonly compiled: Map<string, CompiledExpression>,
    private readonly activation: () => Record<string, Val>,
  ) {
    super();
  }
  field(name: string): Val | undefined {
    if (this.values.has(name)) return this.values.get(name);
    const c = this.compiled.get(name);
    if (!c) return undefined;
    let v: Val;
    if (c.error || !c.program) v = new CelError(`composited variable ${goQuote(name)} fails to compile: ${c.error?.detail ?? 'unexpected internal error compiling expression'}`);
    else {
      const r = c.program.eval(this.activation(), { costLimit: PER_CALL_LIMIT });
      this.cost += r.cost;
      v = r.value instanceof CelError ? new CelError(`composited variable ${goQuote(name)} fails to evaluate: ${r.value.message}`) : r.value;
    }
    this.values.set(name, v);
    return v;
  }
  hasField(name: string): boolean {
    return this.compiled.has(name);
  }
  takeCost(): number {
    const c = this.cost;
    this.cost = 0;
    return c;
  }
}

interface Evaluation {
  value?: Val;
  error?: string;
}

/** An activation over one request: values converted once, shared by every expression. */
class Activation {
  private vars?: Record<string, Val>;
  readonly variables: LazyVariables;
  constructor(
    private readonly input: EvaluationInput,
    policy: CompiledPolicy,
    private readonly withNamespace: boolean,
  ) {
    this.variables = new LazyVariables(policy.variablesType, policy.variables, () => this.values());
  }
  values(): Record<string, Val> {
    return (this.vars ??= {
      object: jsonToVal(this.input.object, DYN),
      oldObject: jsonToVal(this.input.oldObject, DYN),
      request: jsonToVal(this.input.request, REQUEST_TYPE),
      params: jsonToVal(this.input.params ?? null, DYN),
      namespaceObject: this.withNamespace ? jsonToVal(this.input.namespaceObject, NAMESPACE_TYPE) : null,
      variables: this.variables,
      ...(this.input.authorizer ? { authorizer: this.input.authorizer, 'authorizer.requestResource': this.input.requestResource ?? null } : {}),
    });
  }

  /** activation.Evaluate: the result or its error, the budget charged; OutOfBudget stops everything. */
  evaluate(c: CompiledExpression, budget: { remaining: number }): Evaluation {
    if (c.error) return { error: `compilation error: ${c.error.detail}` };
    if (!c.program) return { error: 'unexpected internal error compiling expression' };
    const r = c.program.eval(this.values(), { costLimit: PER_CALL_LIMIT });
    const composition = this.variables.takeCost();
    if (composition > budget.remaining) throw new OutOfBudget(OUT_OF_BUDGET);
    budget.remaining -= composition;
    if (r.cost > budget.remaining) throw new OutOfBudget(OUT_OF_BUDGET);
    budget.remaining -= r.cost;
    if (r.value instanceof CelError) return { error: `expression '${c.expression}' resulted in error: ${r.value.message}` };
    return { value: r.value };
  }
}

const errorDecision = (failurePolicy: string, message: string): PolicyDecision => ({ action: failurePolicy === 'Ignore' ? 'admit' : 'deny', evaluation: 'error', message });

/** The match conditions: false ends matching, errors follow the failure policy. */
function matchConditions(policy: CompiledPolicy, input: EvaluationInput): { matches: boolean; error?: string } {
  if (policy.matchConditions.length === 0) return { matches: true };
  // kube's matcher passes no namespace to match conditions: namespaceObject is null there.
  const act = new Activation(input, policy, false);
  const budget = { remaining: MATCH_CONDITIONS_BUDGET };
  const errors: string[] = [];
  try {
    for (const mc of policy.matchConditions) {
      const r = act.evaluate(mc.compiled, budget);
      if (r.error !== undefined) errors.push(r.error);
      else if (r.value === false) return { matches: false };
    }
  } catch (e) {
    if (e instanceof OutOfBudget) return policy.failurePolicy === 'Ignore' ? { matches: false } : { matches: false, error: e.message };
    throw e;
  }
  if (errors.length === 0) return { matches: true };
  if (policy.failurePolicy === 'Ignore') return { matches: false };
  // utilerrors.NewAggregate: one error as is, several as a bracketed list.
  return { matches: false, error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}

function messageOf(result: Val | undefined): string {
  if (typeof result !== 'string') return '';
  const m = result.trim();
  return Buffer.byteLength(m) > MAX_MESSAGE_BYTES || m.includes('\n') ? '' : m;
}

/** validator.Validate. */
export function validate(policy: CompiledPolicy, input: EvaluationInput): ValidateResult {
  const fp = policy.failurePolicy;
  const mc = matchConditions(policy, input);
  if (mc.error !== undefined) return { decisions: [errorDecision(fp, mc.error)], auditAnnotations: [] };
  if (!mc.matches) return { decisions: [], auditAnnotations: [] };
  const act = new Activation(input, policy, true);
  const budget = { remaining: RUNTIME_CEL_COST_BUDGET };
  const decisions: PolicyDecision[] = [];
  try {
    const results = policy.validations.map((v) => act.evaluate(v.expression, budget));
    policy.validations.forEach((v, i) => {
      const r = results[i]!;
      if (r.error !== undefined) return void decisions.push(errorDecision(fp, r.error));
      if (r.value === true) return void decisions.push({ action: 'admit', evaluation: 'admit', message: '' });
      let message = '';
      if (v.messageExpression) {
        const m = act.evaluate(v.messageExpression, budget);
        if (m.error === undefined) message = messageOf(m.value);
      }
      if (message === '' && v.message !== '') message = v.message.trim();
      if (message === '') message = `failed expression: ${v.expression.expression.trim()}`;
      decisions.push({ action: 'deny', evaluation: 'deny', message, reason: v.reason ?? 'Invalid' });
    });
  } catch (e) {
    if (e instanceof OutOfBudget) return { decisions: [errorDecision(fp, e.message)], auditAnnotations: [] };
    throw e;
  }
  const auditAnnotations: AuditAnnotationResult[] = [];
  try {
    const abudget = { remaining: RUNTIME_CEL_COST_BUDGET };
    for (const a of policy.auditAnnotations) {
      const r = act.evaluate(a.compiled, abudget);
      if (r.error !== undefined) auditAnnotations.push({ key: a.key, action: fp === 'Ignore' ? 'exclude' : 'error', error: r.error });
      else if (typeof r.value === 'string') {
        const value = r.value.trim();
        auditAnnotations.push(value === '' ? { key: a.key, action: 'exclude' } : { key: a.key, action: 'publish', value });
      } else if (r.value === null) auditAnnotations.push({ key: a.key, action: 'exclude' });
      else {
        auditAnnotations.push({
          key: a.key,
          action: 'error',
          error: `valueExpression '${a.compiled.expression}' resulted in unsupported return type: ${typeof r.value}. Return type must be either string or null.`,
        });
      }
    }
  } catch (e) {
    if (e instanceof OutOfBudget) return { decisions: [errorDecision(fp, e.message)], auditAnnotations: [] };
    throw e;
  }
  return { decisions, auditAnnotations };
}
