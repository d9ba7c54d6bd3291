// What cost estimators see and give (cel-go's checker.AstNode, SizeEstimator and CallEstimator), apart
// from the estimator so that the Kubernetes call estimators can be written against them.
import type { Expr } from './ast.js';
import type { CallEstimate, Range } from './decls.js';
import type { CelType } from './types.js';

/** What an estimator sees of one expression (cel-go's checker.AstNode). */
export interface CostNode {
  /** Field path through the declared types: a variable name, then field names, `@items`, `@keys`,
   * `@values` or `@indices`. Undefined when the value is not reachable from a variable. */
  readonly path: readonly string[] | undefined;
  /** The checked type of the expression. */
  readonly type: CelType;
  /** The expression, when the node stands for one. */
  readonly expr: Expr | undefined;
  /** The size derived from the expression itself (literals, concatenations, declared sizes). */
  readonly computedSize: Range | undefined;
}

/** EstimateSize: the size of a value the expression does not fix, or undefined if not known. */
export type SizeEstimator = (node: CostNode) => Range | undefined;

/**
 * EstimateCallCost: the cost of one call (without its arguments' costs, which the estimator
 * adds) and the size of its result, or undefined to fall back to CEL's own estimate.
 * `target` is the receiver of a member call. `sizeOf` gives a node's computed size, else its
 * estimated size, else unknown.
 */
export type CallEstimator = (
  fn: string,
  overloadId: string,
  target: CostNode | undefined,
  args: readonly CostNode[],
  sizeOf: (node: CostNode) => Range,
) => CallEstimate | undefined;

