// Runtime cost of calls, as interpreter/runtimecost.go computes it. Most calls cost 1; string,
// bytes and list operations cost in proportion to the sizes of their actual arguments.

import { sizeOf } from './value-ops.js';
import { Optional } from './values.js';
import type { Val } from './values.js';

/** common.StringTraversalCostFactor and RegexStringLengthCostFactor. */
export const STRING_TRAVERSAL_FACTOR = 0.1;
export const REGEX_LENGTH_FACTOR = 0.25;
export const LIST_CREATE_COST = 10;
export const MAP_CREATE_COST = 30;
export const STRUCT_CREATE_COST = 40;
export const SELECT_AND_IDENT_COST = 1;

/** actualSize: the size of sized values (strings in code points, bytes, lists, maps, JSON objects),
 * the size of an optional's value, and 1 for everything else. */
export function actualSize(v: Val): number {
  const s = sizeOf(v);
  if (s !== undefined) return s;
  if (v instanceof Optional && v.value !== undefined) return actualSize(v.value);
  return 1;
}

/** ceil(size * 0.1): one traversal of a string or byte sequence. */
export const traversalCost = (v: Val): number => Math.ceil(actualSize(v) * STRING_TRAVERSAL_FACTOR);

type CostFn = (args: Val[], result: Val) => number;

/** cel-go keys these costs by overload id, so they apply only when the checker resolved the call to
 * exactly that overload; an unresolved (dynamic) call costs 1. Library costs keyed by function name
 * (Kubernetes' CostEstimator) are not in this set and always apply. */
export const OVERLOAD_ID_COSTS = new WeakSet<CostFn>();

function idKeyed(fn: CostFn): CostFn {
  OVERLOAD_ID_COSTS.add(fn);
  return fn;
}

/** O(n) in the first argument (startsWith, endsWith, bytes(string), string(bytes)). */
export const firstArgTraversal: CostFn = idKeyed((args) => traversalCost(args[0]!));

/** O(min(m, n)): equality and ordering of strings and bytes. */
export const minSizeTraversal: CostFn = idKeyed((args) =>
  Math.ceil(Math.min(actualSize(args[0]!), actualSize(args[1]!)) * STRING_TRAVERSAL_FACTOR),
);

/** O(m + n): string and bytes concatenation. */
export const sumSizeTraversal: CostFn = idKeyed((args) =>
  Math.ceil((actualSize(args[0]!) + actualSize(args[1]!)) * STRING_TRAVERSAL_FACTOR),
);

/** `in` on a list: one comparison per element. */
export const listMembership: CostFn = idKeyed((args) => actualSize(args[1]!));

/** `s.matches(re)`: string length times an estimate of the regex's size. */
export const regexMatch: CostFn = idKeyed((args) => {
  const strCost = Math.ceil((1 + actualSize(args[0]!)) * STRING_TRAVERSAL_FACTOR);
  const regexCost = Math.ceil(actualSize(args[1]!) * REGEX_LENGTH_FACTOR);
  return strCost * regexCost;
});

/** `s.contains(sub)`. */
export const substringSearch: CostFn = idKeyed(
  (args) => traversalCost(args[0]!) * traversalCost(args[1]!),
);

/** The cost of equality (`_==_`, `_!=_`), which cel-go always attributes to the equals overload. */
export const equalityCost = (lhs: Val, rhs: Val): number =>
  Math.ceil(Math.min(actualSize(lhs), actualSize(rhs)) * STRING_TRAVERSAL_FACTOR);
