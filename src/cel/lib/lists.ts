// Kubernetes' list library (k8s.io/apiserver pkg/cel/library/lists.go, "kubernetes.lists"):
// isSorted, sum, min, max over lists of comparable (summable) element types, and indexOf /
// lastIndexOf by CEL equality. Each O(n) function costs one traversal of the list's data
// (library/cost.go traversalCost).

import type { FunctionDecl, Library, Overload } from '../decls.js';
import { BOOL, BYTES, DOUBLE, DURATION, INT, STRING, TIMESTAMP, UINT, listOf, typeParam, type CelType } from '../types.js';
import { CelError, Duration, Timestamp, Uint, type CelList, type Val } from '../values.js';
import { MAX_INT64, MIN_INT64, MAX_UINT64, celCompare, celEquals, maybeNoSuchOverload } from '../value-ops.js';
import { member, traversalCost } from './support.js';

/** traits.Comparer values. */
function isComparable(v: Val): boolean {
  switch (typeof v) {
    case 'bigint': case 'number': case 'string': case 'boolean': return true;
  }
  return v instanceof Uint || v instanceof Uint8Array || v instanceof Duration || v instanceof Timestamp;
}

export function isSorted(list: CelList): Val {
  let prev: Val | undefined;
  for (const next of list) {
    if (!isComparable(next)) return maybeNoSuchOverload(next);
    // Only a definite "greater" breaks the order; comparison errors (NaN, mixed types) do not.
    if (prev !== undefined && celCompare(prev, next) === 1) return false;
    prev = next;
  }
  return true;
}

/** min (prefer = 1: replace when the current result is greater) and max (prefer = -1). */
function extreme(name: 'min' | 'max', prefer: 1 | -1): (list: CelList) => Val {
  return (list) => {
    let result: Val | undefined;
    for (const next of list) {
      if (!isComparable(next)) return maybeNoSuchOverload(next);
      if (result === undefined || celCompare(result, next) === prefer) result = next;
    }
    return result ?? new CelError(`${name} called on empty list`);
  };
}

const listMin = extreme('min', 1);
const listMax = extreme('max', -1);

/** traits.Adder for the summable kinds, with cel-go's overflow checks. */
function add(acc: Val, v: Val): Val {
  if (typeof acc === 'bigint') {
    if (typeof v !== 'bigint') return maybeNoSuchOverload(v);
    const r = acc + v;
    return r > MAX_INT64 || r < MIN_INT64 ? new CelError('integer overflow') : r;
  }
  if (acc instanceof Uint) {
    if (!(v instanceof Uint)) return maybeNoSuchOverload(v);
    const r = acc.value + v.value;
    return r > MAX_UINT64 ? new CelError('unsigned integer overflow') : new Uint(r);
  }
  if (typeof acc === 'number') return typeof v === 'number' ? acc + v : maybeNoSuchOverload(v);
  if (acc instanceof Duration) {
    if (!(v instanceof Duration)) return maybeNoSuchOverload(v);
    const r = acc.nanos + v.nanos;
    return r > MAX_INT64 || r < MIN_INT64 ? new CelError('integer overflow') : new Duration(r);
  }
  return maybeNoSuchOverload(acc);
}

function sum(zero: Val): (list: CelList) => Val {
  return (list) => {
    let acc = zero;
    for (const next of list) {
      acc = add(acc, next);
      if (acc instanceof CelError) return acc;
    }
    return acc;
  };
}

function listIndexOf(list: CelList, item: Val): bigint {
  for (let i = 0; i < list.length; i++) if (celEquals(list[i]!, item) === true) return BigInt(i);
  return -1n;
}

function listLastIndexOf(list: CelList, item: Val): bigint {
  for (let i = list.length - 1; i >= 0; i--) if (celEquals(list[i]!, item) === true) return BigInt(i);
  return -1n;
}

// --- declarations ------------------------------------------------------------------------

const SUMMABLE: [string, CelType, Val][] = [
  ['int', INT, 0n],
  ['uint', UINT, new Uint(0n)],
  ['double', DOUBLE, 0],
  ['duration', DURATION, new Duration(0n)],
];

const COMPARABLE: [string, CelType][] = [
  ['int', INT],
  ['uint', UINT],
  ['double', DOUBLE],
  ['bool', BOOL],
  ['duration', DURATION],
  ['timestamp', TIMESTAMP],
  ['string', STRING],
  ['bytes', BYTES],
];

/** The receiver's data-tree traversal, the cost Kubernetes charges all six functions. */
const listCost = (args: readonly Val[]): number => traversalCost(args[0]!);

function unary(id: string, param: CelType, result: CelType, f: (list: CelList) => Val): Overload {
  return member(id, [listOf(param)], result, (args) => (Array.isArray(args[0]) ? f(args[0] as CelList) : maybeNoSuchOverload(args[0]!)), listCost);
}

const A = typeParam('A');

const functions: FunctionDecl[] = [
  { name: 'isSorted', overloads: COMPARABLE.map(([n, t]) => unary(`list_${n}_is_sorted_bool`, t, BOOL, isSorted)) },
  { name: 'sum', overloads: SUMMABLE.map(([n, t, zero]) => unary(`list_${n}_sum_${n}`, t, t, sum(zero))) },
  { name: 'max', overloads: COMPARABLE.map(([n, t]) => unary(`list_${n}_max_${n}`, t, t, listMax)) },
  { name: 'min', overloads: COMPARABLE.map(([n, t]) => unary(`list_${n}_min_${n}`, t, t, listMin)) },
  {
    name: 'indexOf',
    overloads: [member('list_a_index_of_int', [listOf(A), A], INT, (args) => (Array.isArray(args[0]) ? listIndexOf(args[0] as CelList, args[1]!) : maybeNoSuchOverload(args[0]!)), listCost)],
  },
  {
    name: 'lastIndexOf',
    overloads: [member('list_a_last_index_of_int', [listOf(A), A], INT, (args) => (Array.isArray(args[0]) ? listLastIndexOf(args[0] as CelList, args[1]!) : maybeNoSuchOverload(args[0]!)), listCost)],
  },
];

export const K8S_LISTS_LIBRARY: Library = { name: 'kubernetes.lists', functions };
