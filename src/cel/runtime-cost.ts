// Runtime cost of calls, as interpreter/runtimecost.go computes it. Most calls cost 1; string,
// bytes and list operations cost in proportion to the sizes of their actual arguments.

import { codePointLength, sizeOf } from './value-ops.js';
import { OpaqueValue, Optional } from './values.js';
import type { Val } from './values.js';

/** common.StringTraversalCostFactor and RegexStringLengthCostFactor. */
const STRING_TRAVERSAL_FACTOR = 0.1;
const REGEX_LENGTH_FACTOR = 0.25;
export const LIST_CREATE_COST = 10;
export const MAP_CREATE_COST = 30;
export const SELECT_AND_IDENT_COST = 1;

/** actualSize: the size of traits.Sizer values (strings in code points, bytes, lists, maps, JSON
 * objects, and the byte length Kubernetes gives net.IP and net.CIDR values), the size of an
 * optional's value, and 1 for everything else. */
export function actualSize(v: Val): number {
  switch (typeof v) {
    case 'string': return codePointLength(v);
    case 'boolean':
    case 'bigint':
    case 'number':
      return 1;
  }
  if (v === null) return 1;
  const s = sizeOf(v);
  if (s !== undefined) return s;
  if (v instanceof OpaqueValue) {
    const size = (v as { readonly celSize?: unknown }).celSize;
    return typeof size === 'number' ? size : 1;
  }
  if (v instanceof Optional && v.value !== undefined) return actualSize(v.value);
  return 1;
}

/** ceil(size * 0.1): one traversal of a string or byte sequence. */
export const traversalCost = (v: Val): number => Math.ceil(actualSize(v) * STRING_TRAVERSAL_FACTOR);

type CostFn = (args: Val[], result: Val) => number;
type BinaryCostFn = (a: Val, b: Val, result: Val) => number;

/** cel-go keys these costs by overload id, so they apply only when the checker resolved the call to
 * exactly that overload; an unresolved (dynamic) call costs 1. Library costs keyed by function name
 * (Kubernetes' CostEstimator) are not in this set and always apply. */
export const OVERLOAD_ID_COSTS = new WeakSet<CostFn>();

/** The same costs over two separate arguments, for calls the interpreter makes without an
 * argument array. These never throw and are always finite. */
export const BINARY_COSTS = new WeakMap<CostFn, BinaryCostFn>();

function idKeyed(fn: CostFn): CostFn {
  OVERLOAD_ID_COSTS.add(fn);
  return fn;
}

function binaryIdKeyed(fn: BinaryCostFn): CostFn {
  const cost = idKeyed((args, result) => fn(args[0]!, args[1]!, result));
  BINARY_COSTS.set(cost, fn);
  return cost;
}

/** O(n) in the first argument (startsWith, endsWith, bytes(string), string(bytes)). */
export const firstArgTraversal: CostFn = binaryIdKeyed((a) => traversalCost(a));

/** An argument's size as the O(min(m, n)) costs see it: a string of at most ten UTF-16 units has
 * between one and ten code points (or none), and ceil(min(x, y) × 0.1) is the same for any such
 * x, so its length stands in for counting. */
function minSizeOperand(v: Val): number {
  if (typeof v === 'string' && v.length <= 10) return v.length;
  return actualSize(v);
}

function minSizeCost(a: Val, b: Val): number {
  const m = Math.min(minSizeOperand(a), minSizeOperand(b));
  return m <= 10 ? (m > 0 ? 1 : 0) : Math.ceil(m * STRING_TRAVERSAL_FACTOR);
}

/** O(min(m, n)): equality and ordering of strings and bytes. */
export const minSizeTraversal: CostFn = binaryIdKeyed(minSizeCost);

/** O(m + n): string and bytes concatenation. */
export const sumSizeTraversal: CostFn = binaryIdKeyed((a, b) =>
  Math.ceil((actualSize(a) + actualSize(b)) * STRING_TRAVERSAL_FACTOR),
);

/** `in` on a list: one comparison per element. */
export const listMembership: CostFn = binaryIdKeyed((_, list) => actualSize(list));

/** `s.matches(re)`: string length times an estimate of the regex's size. */
export const regexMatch: CostFn = binaryIdKeyed((s, re) => {
  const strCost = Math.ceil((1 + actualSize(s)) * STRING_TRAVERSAL_FACTOR);
  const regexCost = Math.ceil(actualSize(re) * REGEX_LENGTH_FACTOR);
  return strCost * regexCost;
});

/** `s.contains(sub)`. */
export const substringSearch: CostFn = binaryIdKeyed((s, sub) => traversalCost(s) * traversalCost(sub));

/** The cost of `_==_`, which cel-go always attributes to the equals overload. Kubernetes'
 * CostEstimator answers first: equality with one of its library values (IP, CIDR, quantity, URL,
 * semver, format) on the left costs 1. */
export const equalityCost = (lhs: Val, rhs: Val): number => (lhs instanceof OpaqueValue ? 1 : minSizeCost(lhs, rhs));

/** The cost of `_!=_`: always cel-go's O(min(m, n)), so a net.IP or net.CIDR operand counts its
 * bytes (an IPv6 address costs 2). */
export const inequalityCost = (lhs: Val, rhs: Val): number => minSizeCost(lhs, rhs);
