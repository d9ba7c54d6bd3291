// Kubernetes' quantity library (k8s.io/apiserver pkg/cel/library/quantity.go,
// "kubernetes.quantity"): quantity(), isQuantity() and the operations of
// `kubernetes.Quantity` over resource.Quantity (resource-quantity.ts). `sign` is declared as
// a global function, as Kubernetes does.

import type { Library } from '../decls.js';
import { BOOL, DOUBLE, INT, STRING, opaque } from '../types.js';
import { CelError, OpaqueValue, type Val } from '../values.js';
import { Quantity, parseQuantity, quantityFromInt } from './resource-quantity.js';
import { badArg, global, maybeNoSuchOverload, member, traversal } from './support.js';

export const QUANTITY_TYPE = opaque('kubernetes.Quantity');

export class QuantityValue extends OpaqueValue {
  readonly type = QUANTITY_TYPE;

  constructor(readonly quantity: Quantity) {
    super();
  }

  equals(other: OpaqueValue): boolean {
    return other instanceof QuantityValue && this.quantity.equal(other.quantity);
  }

  override toString(): string {
    return this.quantity.toString();
  }
}

function toQuantity(s: string): QuantityValue | CelError {
  const q = parseQuantity(s);
  return typeof q === 'string' ? new CelError(q) : new QuantityValue(q);
}

export const isQuantity = (s: string): boolean => typeof parseQuantity(s) !== 'string';

/** Receiver and (optionally) argument as quantities, else cel-go's overload error. Kubernetes
 * reports a bad second argument with the first argument (MaybeNoSuchOverloadErr(arg)). */
function q1(args: readonly Val[]): Quantity | CelError {
  return args[0] instanceof QuantityValue ? args[0].quantity : maybeNoSuchOverload(args[0]!);
}

function q2(args: readonly Val[]): [Quantity, Quantity] | CelError {
  if (!(args[0] instanceof QuantityValue)) return maybeNoSuchOverload(args[0]!);
  if (!(args[1] instanceof QuantityValue)) return maybeNoSuchOverload(args[0]);
  return [args[0].quantity, args[1].quantity];
}

function unary(f: (q: Quantity) => Val): (args: readonly Val[]) => Val {
  return (args) => {
    const q = q1(args);
    return q instanceof CelError ? q : f(q);
  };
}

function binary(f: (a: Quantity, b: Quantity) => Val): (args: readonly Val[]) => Val {
  return (args) => {
    const qs = q2(args);
    return qs instanceof CelError ? qs : f(qs[0], qs[1]);
  };
}

/** `copy := *q; copy.Add(y)`: the copy shares an inf.Dec with the receiver, so (as in
 * Kubernetes) adding to a quantity in decimal form also changes the receiver's value. */
function arithmetic(op: 'add' | 'sub', y: (args: readonly Val[]) => Quantity | CelError): (args: readonly Val[]) => Val {
  return (args) => {
    const x = q1(args);
    if (x instanceof CelError) return x;
    const other = y(args);
    if (other instanceof CelError) return other;
    const copy = x.copy();
    copy[op](other);
    return new QuantityValue(copy);
  };
}

const quantityArg = (args: readonly Val[]): Quantity | CelError =>
  args[1] instanceof QuantityValue ? args[1].quantity : maybeNoSuchOverload(args[0]!);
const intArg = (args: readonly Val[]): Quantity | CelError =>
  typeof args[1] === 'bigint' ? quantityFromInt(args[1]) : maybeNoSuchOverload(args[0]!);

/** Parsing is a string traversal. */
const parseCost = (args: readonly Val[]): number => traversal(args[0]!);

export const QUANTITY_LIBRARY: Library = {
  name: 'kubernetes.quantity',
  functions: [
    { name: 'quantity', overloads: [global('string_to_quantity', [STRING], QUANTITY_TYPE, (a) => badArg(a, 'string') ?? toQuantity(a[0] as string), parseCost)] },
    { name: 'isQuantity', overloads: [global('is_quantity_string', [STRING], BOOL, (a) => badArg(a, 'string') ?? isQuantity(a[0] as string), parseCost)] },
    { name: 'sign', overloads: [global('quantity_sign', [QUANTITY_TYPE], INT, unary((q) => BigInt(q.sign())))] },
    { name: 'isGreaterThan', overloads: [member('quantity_is_greater_than', [QUANTITY_TYPE, QUANTITY_TYPE], BOOL, binary((a, b) => a.cmp(b) === 1))] },
    { name: 'isLessThan', overloads: [member('quantity_is_less_than', [QUANTITY_TYPE, QUANTITY_TYPE], BOOL, binary((a, b) => a.cmp(b) === -1))] },
    { name: 'compareTo', overloads: [member('quantity_compare_to', [QUANTITY_TYPE, QUANTITY_TYPE], INT, binary((a, b) => BigInt(a.cmp(b))))] },
    { name: 'asApproximateFloat', overloads: [member('quantity_get_float', [QUANTITY_TYPE], DOUBLE, unary((q) => q.asApproximateFloat64()))] },
    {
      name: 'asInteger',
      overloads: [member('quantity_get_int', [QUANTITY_TYPE], INT, unary((q) => q.asInt64() ?? new CelError('cannot convert value to integer')))],
    },
    { name: 'isInteger', overloads: [member('quantity_is_integer', [QUANTITY_TYPE], BOOL, unary((q) => q.asInt64() !== undefined))] },
    {
      name: 'add',
      overloads: [
        member('quantity_add', [QUANTITY_TYPE, QUANTITY_TYPE], QUANTITY_TYPE, arithmetic('add', quantityArg)),
        member('quantity_add_int', [QUANTITY_TYPE, INT], QUANTITY_TYPE, arithmetic('add', intArg)),
      ],
    },
    {
      name: 'sub',
      overloads: [
        member('quantity_sub', [QUANTITY_TYPE, QUANTITY_TYPE], QUANTITY_TYPE, arithmetic('sub', quantityArg)),
        member('quantity_sub_int', [QUANTITY_TYPE, INT], QUANTITY_TYPE, arithmetic('sub', intArg)),
      ],
    },
  ],
};
