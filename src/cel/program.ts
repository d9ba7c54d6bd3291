// plan(): compile a checked expression once into closures; Program.eval() runs it against an
// activation, tracking cel-go's runtime cost and enforcing an optional cost limit.

import type { CheckedAst, ParsedAst } from './ast.js';
import type { Env } from './env.js';
import { compile, CostLimitExceeded, Frame } from './interpreter-eval.js';
import type { Eval } from './interpreter-eval.js';
import { Planner } from './interpreter.js';
import type { PlanOptions } from './interpreter.js';
import { releaseMutableLists } from './value-ops.js';
import { CelError } from './values.js';
import type { Val } from './values.js';

export { CelPlanError } from './interpreter.js';
export type { PlanOptions } from './interpreter.js';

export const COST_LIMIT_EXCEEDED = 'operation cancelled: actual cost limit exceeded';

interface EvalOptions {
  /** cel.CostLimit: evaluation stops with an error once the actual cost exceeds this. */
  costLimit?: number;
}

export interface EvalResult {
  /** The result, or a CelError. */
  value: Val;
  /** The actual cost (interpreter/runtimecost.go with PresenceTestHasCost(false)). */
  cost: number;
}

export class Program {
  constructor(
    private readonly root: Eval,
    private readonly slotCount: number,
  ) {}

  eval(vars: Readonly<Record<string, Val>>, opts: EvalOptions = {}): EvalResult {
    const frame = new Frame(vars, opts.costLimit ?? Infinity, new Array<Val>(this.slotCount));
    let value: Val;
    try {
      value = this.root(frame);
    } catch (e) {
      releaseMutableLists(0);
      if (e instanceof CostLimitExceeded) value = new CelError(COST_LIMIT_EXCEEDED);
      else value = new CelError(`internal error: ${e instanceof Error ? e.message : String(e)}`);
    }
    return { value, cost: frame.cost };
  }
}

/** Compile an expression for evaluation. Throws CelPlanError where cel-go's Program() fails (with
 * Kubernetes' optimizations: a constant conversion that fails, an invalid constant regex). Parse-only
 * ASTs are accepted too; their identifiers and functions are then resolved by name. */
export function plan(ast: CheckedAst | ParsedAst, env: Env, options: PlanOptions = {}): Program {
  const planner = new Planner(ast, env, options);
  const node = planner.plan(ast.expr);
  return new Program(compile(node, planner.options), planner.slots);
}
