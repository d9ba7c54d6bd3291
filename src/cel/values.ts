// CEL runtime values. JavaScript primitives where CEL and JavaScript agree
// (bool, string, double, null), bigint for int64 so arithmetic is exact, and
// small classes for the rest. Errors are values, not exceptions, so that
// `false && <error>` is false as CEL requires.

import type { CelType, ListType, ObjectType } from './types.js';

/** uint64: a bigint in [0, 2^64). */
export class Uint {
  constructor(readonly value: bigint) {}
}

/** A point in time: nanoseconds since the Unix epoch, within years 0001–9999. */
export class Timestamp {
  constructor(readonly nanos: bigint) {}
}

/** A signed span of nanoseconds, within ±(2^63-1) ns as cel-go limits it. */
export class Duration {
  constructor(readonly nanos: bigint) {}
}

/** A type as a value: what `type(x)` returns and `int` names. */
export class TypeValue {
  constructor(readonly type: CelType) {}
}

/** optional_type(T): an optional value, empty when `value` is undefined. */
export class Optional {
  constructor(readonly value: Val | undefined) {}
  static readonly NONE = new Optional(undefined);
  hasValue(): boolean { return this.value !== undefined; }
}

/** An evaluation error travelling as a value. `message` is cel-go's wording
 * (`no such key: foo`, `division by zero`, `int overflow`). */
export class CelError {
  constructor(readonly message: string) {}
}

/** Library values without CEL structure (Quantity, IP, CIDR, URL, Semver, ...).
 * Each library subclasses this; the runtime uses only these members. */
export abstract class OpaqueValue {
  abstract readonly type: CelType;
  /** CEL `==` between two values of this library's type. */
  abstract equals(other: OpaqueValue): boolean;
}

/** A list. Kubernetes set and map lists carry their schema type so that `==`
 * ignores order and `+` unions or merges (see {@link listSemantics}). */
export type CelList = readonly Val[];
const LIST_TYPE: unique symbol = Symbol('cel.listType');
type TaggedList = CelList & { [LIST_TYPE]?: ListType };
export function listSemantics(list: CelList): ListType | undefined {
  return (list as TaggedList)[LIST_TYPE];
}
export function withListType<T extends Val[]>(list: T, type: ListType): T {
  if (type.listType === 'set' || type.listType === 'map') (list as TaggedList)[LIST_TYPE] = type;
  return list;
}

/** A map. Keys are int, uint, bool or string; numerically equal int and uint
 * (and whole doubles, when looking up) find the same entry. */
export abstract class CelMap {
  abstract get size(): number;
  /** The value under key, or undefined when absent. */
  abstract get(key: Val): Val | undefined;
  abstract has(key: Val): boolean;
  /** Keys in insertion (or JSON) order. */
  abstract keys(): Iterable<Val>;
  readonly maxElements?: number;
}

/** A message: a schema object with declared fields, backed by its JSON. */
export abstract class CelObject {
  abstract readonly type: ObjectType;
  /** The field's value, or undefined when absent (or null in JSON, which CEL treats as absent). */
  abstract field(name: string): Val | undefined;
  abstract hasField(name: string): boolean;
}

export type Val =
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | null
  | Uint
  | Timestamp
  | Duration
  | TypeValue
  | Optional
  | CelList
  | CelMap
  | CelObject
  | OpaqueValue
  | CelError;

export const isError = (v: Val | undefined): v is CelError => v instanceof CelError;
