// kube's computeConcurrencyAllocation (k8s.io/apiserver pkg/util/flowcontrol/conc_alloc.go): share `required`
// seats among priority levels in proportion to their targets, each held within its bounds. The answer is the
// one proportion p for which Σ clamp(target·p, lower, upper) = required; the sum is monotone in p, so
// bisection finds it (kube walks the sorted bound breakpoints; both give the same allocation).

export interface AllocationItem {
  target: number;
  lower: number;
  upper: number;
}

/** kube's MinTarget: a zero target still gets a (tiny) share. */
const MIN_TARGET = 0.001;
const EPSILON = 1e-7;

/** The allocations, or why the problem has none (kube's error texts). */
export function allocateConcurrency(required: number, items: readonly AllocationItem[]): number[] | string {
  if (required < 0) return 'negative sums are not supported';
  let lowSum = 0;
  let highSum = 0;
  for (const [i, it] of items.entries()) {
    if (it.lower < 0) return `lower bound ${i} is ${it.lower} but negative lower bounds are not allowed`;
    if (it.target < it.lower) return `target ${i} is ${it.target}, which is below its lower bound of ${it.lower}`;
    if (it.upper < it.lower) return `upper bound ${i} is ${it.upper} but should not be less than the lower bound ${it.lower}`;
    lowSum += it.lower;
    highSum += it.upper;
  }
  if (lowSum - required > EPSILON) return `lower bounds sum to ${lowSum}, which is higher than the required sum of ${required}`;
  if (required - highSum > EPSILON) return `upper bounds sum to ${highSum}, which is lower than the required sum of ${required}`;
  if (required === 0) return items.map(() => 0);
  if (lowSum - required > -EPSILON) return items.map((it) => it.lower);
  if (required - highSum > -EPSILON) return items.map((it) => it.upper);
  const targets = items.map((it) => Math.max(it.target, MIN_TARGET));
  const at = (p: number): number[] => items.map((it, i) => Math.min(it.upper, Math.max(it.lower, targets[i]! * p)));
  const sum = (p: number): number => at(p).reduce((a, b) => a + b, 0);
  let lo = 0;
  let hi = 1;
  while (sum(hi) < required) hi *= 2;
  for (let k = 0; k < 100 && hi - lo > 1e-12 * hi; k++) {
    const mid = (lo + hi) / 2;
    if (sum(mid) < required) lo = mid;
    else hi = mid;
  }
  return at(hi);
}
