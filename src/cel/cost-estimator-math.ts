// Saturating range arithmetic of cel-go's checker/cost.go (SizeEstimate and
// CostEstimate). Go works in uint64 and saturates at math.MaxUint64; we use JS
// numbers capped at MAX_COST, which is exact below 2^53 (far beyond any limit
// Kubernetes compares against) and only approximate near the cap.

import { MAX_COST, type Range } from './decls.js';

export { MAX_COST };
export type { Range };

/** StringTraversalCostFactor: cost of traversing one string or bytes unit. */
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
/** RegexStringLengthCostFactor: cost per regex pattern character. */
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
export const SELECT_AND_IDENT_COST = 1;
export const CONST_COST = 0;
export const LIST_CREATE_BASE_COST = 10;
export const MAP_CREATE_BASE_COST = 30;
export const STRUCT_CREATE_BASE_COST = 40;

const TWO_TO_64 = 2 ** 64;

/** UnknownSizeEstimate / UnknownCostEstimate: anything from 0 to the cap. */
export const UNKNOWN: Range = Object.freeze({ min: 0, max: MAX_COST });

export const fixed = (n: number): Range => ({ min: n, max: n });

/** addUint64NoOverflow. */
export function addSat(x: number, y: number): number {
  const r = x + y;
  return r >= MAX_COST ? MAX_COST : r;
}

/** multiplyUint64NoOverflow. */
function mulSat(x: number, y: number): number {
  if (y !== 0 && x > MAX_COST / y) return MAX_COST;
  const r = x * y;
  return r >= MAX_COST ? MAX_COST : r;
}

/** multiplyByCostFactor: x × factor rounded up, with Go's float64 arithmetic. */
function mulFactor(x: number, factor: number): number {
  if (x > 0 && factor > 0 && x > MAX_COST / factor) return MAX_COST;
  const c = Math.ceil(x * factor);
  return c >= TWO_TO_64 ? MAX_COST : c;
}

export const addRange = (a: Range, b: Range): Range => ({ min: addSat(a.min, b.min), max: addSat(a.max, b.max) });
export const mulRange = (a: Range, b: Range): Range => ({ min: mulSat(a.min, b.min), max: mulSat(a.max, b.max) });
export const mulRangeFactor = (a: Range, factor: number): Range => ({ min: mulFactor(a.min, factor), max: mulFactor(a.max, factor) });
/** Union: the smallest range covering both. */
export const unionRange = (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });

/** Go's uint64 conversion of a float64 that may be out of range (amd64 yields 2^63 then). */
export function floatToUint64(f: number): number {
  if (!(f >= 0)) return 0;
  if (f >= TWO_TO_64) return 2 ** 63;
  return Math.trunc(f);
}

/** Unchecked uint64 arithmetic (wrapping), for the few places cel-go does not saturate. */
export function wrapUint64(n: bigint): number {
  const w = BigInt.asUintN(64, n);
  const r = Number(w);
  return r >= MAX_COST ? MAX_COST : r;
}

/** The uint64 value of a (possibly saturated) cost, for wrapping arithmetic. */
export const toUint64 = (n: number): bigint => (n >= MAX_COST ? (1n << 64n) - 1n : BigInt(Math.trunc(n)));
