// Function declarations shared by the checker, the interpreter and the cost
// estimator. A library is a list of FunctionDecls; each overload carries its
// signature (for the checker), its implementation (for the interpreter) and,
// where it differs from cel-go's default of 1, its cost.

import type { CelType } from './types.js';
import type { Val } from './values.js';

/** An inclusive range, as cel-go's SizeEstimate and CostEstimate. Costs
 * saturate at {@link MAX_COST} instead of wrapping like uint64. */
export interface Range { min: number; max: number }
export const MAX_COST = 18446744073709551615; // math.MaxUint64 as cel-go saturates

/** What the static estimator knows about one argument of a call. */
export interface EstimateArg {
  type: CelType;
  /** Size of the value (length of a string, elements of a list or map), if known. */
  size: Range;
}

/** A call's estimated cost, and the size of its result when that is known. */
export interface CallEstimate { cost: Range; resultSize?: Range }

export interface Overload {
  /** cel-go's overload id (`add_int64`, `string_contains`, `list_sets_intersects`, ...). */
  id: string;
  /** Receiver-style: `target.fn(args)`; params[0] is then the receiver's type. */
  member?: boolean;
  params: CelType[];
  result: CelType;
  /** Implementation over already-evaluated arguments. Argument errors never reach
   * it: the interpreter returns the first error argument instead, unless
   * `nonStrict` is set. Return a CelError for a runtime failure. */
  impl: (args: Val[]) => Val;
  /** Receives error (and unknown) arguments too. */
  nonStrict?: boolean;
  /** Runtime cost of one call, given its arguments and result; 1 when absent.
   * Mirrors the CallCost functions of cel-go and k8s.io/apiserver/pkg/cel/library. */
  cost?: (args: Val[], result: Val) => number;
  /** Static cost of one call; cel-go's default (cost 1, size unknown) when absent.
   * `args` includes the receiver first for member calls. */
  estimate?: (args: EstimateArg[]) => CallEstimate;
}

export interface FunctionDecl {
  name: string;
  overloads: Overload[];
}

/** A library: its functions, plus any named types and constants it brings into scope. */
export interface Library {
  name: string;
  functions: FunctionDecl[];
  /** Identifiers such as `google.protobuf.Timestamp` type names or `net.IP` type values. */
  idents?: { name: string; type: CelType; value: Val }[];
}
