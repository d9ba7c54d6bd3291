// Operations on CEL runtime values with cel-go's semantics (common/types): heterogeneous
// equality, ordering, membership, type-of, list concatenation, and a hash map for map
// literals. Kubernetes list types (set/map lists) and JSON-backed values follow
// k8s.io/apiserver pkg/cel/common/values.go, where the left-hand operand decides the semantics.

import { DOUBLE, DURATION, DYN, INT, NULL, STRING, BOOL, BYTES, TIMESTAMP, TYPE, UINT, listOf, mapOf, opaque } from './types.js';
import type { CelType, ListType } from './types.js';
import { formatGoG } from './stdlib-numbers.js';
import {
  CelError,
  CelMap,
  CelObject,
  Duration,
  OpaqueValue,
  Optional,
  Timestamp,
  TypeValue,
  Uint,
  listSemantics,
  withListType,
} from './values.js';
import type { CelList, Val } from './values.js';
import { runeCount } from '../schema/value-go.js';

export const MAX_INT64 = 9223372036854775807n;
export const MIN_INT64 = -9223372036854775808n;
export const MAX_UINT64 = 18446744073709551615n;
/** 2^63 and 2^64 as doubles: the bounds cel-go uses when converting doubles to integers. */
const TWO_POW_63 = 9223372036854775808;
const TWO_POW_64 = 18446744073709551616;

const NO_SUCH_OVERLOAD = 'no such overload';
export const noSuchOverload = (): CelError => new CelError(NO_SUCH_OVERLOAD);

/** types.MaybeNoSuchOverloadErr: propagate an error argument, else "no such overload". */
export function maybeNoSuchOverload(v: Val): CelError {
  return v instanceof CelError ? v : new CelError(NO_SUCH_OVERLOAD);
}

/** decls.MaybeNoSuchOverload: the error of a guarded overload called with the wrong types. */
export function noSuchOverloadFor(fn: string, args: readonly Val[]): CelError {
  for (const a of args) if (a instanceof CelError) return a;
  return new CelError(`no such overload: ${fn}(${args.map(runtimeTypeName).join(', ')})`);
}

// ---------------------------------------------------------------------------------------------
// JSON-backed values (json-values.ts) expose their raw JSON through this interface so that
// equality and concatenation can follow Kubernetes' unstructured semantics without an import cycle.

/** Marks a list converted from JSON (k8s unstructuredList): its `==` propagates element errors. */
const UNSTRUCTURED_LIST: unique symbol = Symbol('cel.unstructuredList');

/** A JSON object (or additionalProperties map) as Kubernetes wraps it. */
export interface JsonBacked {
  /** The JSON object. */
  readonly raw: Record<string, unknown>;
  /** Converts the value under a raw JSON key (JSON null becomes null), or undefined when the key
   * has no declared schema. */
  rawField(jsonName: string): Val | undefined;
  /** Whether another value is JSON of the same declared type, so equal raw scalars convert to
   * equal CEL values. */
  sameShape(other: unknown): boolean;
  /** The number of JSON keys (null-valued ones too). */
  count(): number;
}

// BigInt() allocates; most integers in custom resources and list indexes are small. Each is made when first asked
// for: making all 4,352 when the module loads was 2 ms of every start.
const SMALL_INT_MIN = -256;
const SMALL_INT_MAX = 4096;
const SMALL_INTS: Array<bigint | undefined> = new Array<bigint | undefined>(SMALL_INT_MAX - SMALL_INT_MIN).fill(undefined);

/** BigInt(n) for an integral number, shared for small values. */
export const bigintOf = (n: number): bigint => {
  if (n < SMALL_INT_MIN || n >= SMALL_INT_MAX) return BigInt(n);
  const i = n - SMALL_INT_MIN;
  return (SMALL_INTS[i] ??= BigInt(n));
};

export function isJsonBacked(v: unknown): v is JsonBacked & (CelMap | CelObject) {
  return (v instanceof CelMap || v instanceof CelObject) && typeof (v as Partial<JsonBacked>).rawField === 'function';
}

function isUnstructuredList(v: CelList): boolean {
  return (v as { [UNSTRUCTURED_LIST]?: boolean })[UNSTRUCTURED_LIST] === true || listSemantics(v) !== undefined;
}

export function markUnstructured<T extends Val[]>(list: T, type?: ListType): T {
  // A set or map list type marks the list by itself (one property less to add to the array).
  if (type !== undefined && (type.listType === 'set' || type.listType === 'map')) return withListType(list, type);
  (list as unknown as { [UNSTRUCTURED_LIST]?: boolean })[UNSTRUCTURED_LIST] = true;
  return list;
}

// ---------------------------------------------------------------------------------------------
// Types of values.

export const TYPE_VALUES = {
  bool: new TypeValue(BOOL),
  int: new TypeValue(INT),
  uint: new TypeValue(UINT),
  double: new TypeValue(DOUBLE),
  string: new TypeValue(STRING),
  bytes: new TypeValue(BYTES),
  null: new TypeValue(NULL),
  list: new TypeValue(listOf(DYN)),
  map: new TypeValue(mapOf(DYN, DYN)),
  type: new TypeValue(TYPE),
  timestamp: new TypeValue(TIMESTAMP),
  duration: new TypeValue(DURATION),
  optional: new TypeValue(opaque('optional_type')),
  error: new TypeValue({ kind: 'error' }),
};

/** The runtime name cel-go compares type values by (`Type.TypeName()`): `list`, not `list(int)`. */
export function typeName(t: CelType): string {
  switch (t.kind) {
    case 'primitive': return t.name;
    case 'null': return 'null_type';
    case 'dyn': return 'dyn';
    case 'error': return 'error';
    case 'timestamp': return 'google.protobuf.Timestamp';
    case 'duration': return 'google.protobuf.Duration';
    case 'list': return 'list';
    case 'map': return 'map';
    case 'type': return 'type';
    case 'opaque': return t.name;
    case 'object': return t.name;
    case 'typeParam': return t.name;
  }
}

/** `type(v)`. Kubernetes objects are maps at runtime, so `type(self) == map`. */
export function typeOfValue(v: Val): TypeValue | CelError {
  switch (typeof v) {
    case 'boolean': return TYPE_VALUES.bool;
    case 'bigint': return TYPE_VALUES.int;
    case 'number': return TYPE_VALUES.double;
    case 'string': return TYPE_VALUES.string;
  }
  if (v === null) return TYPE_VALUES.null;
  if (v instanceof CelError) return v;
  if (v instanceof Uint) return TYPE_VALUES.uint;
  if (v instanceof Uint8Array) return TYPE_VALUES.bytes;
  if (Array.isArray(v)) return TYPE_VALUES.list;
  if (v instanceof CelMap) return TYPE_VALUES.map;
  if (v instanceof Timestamp) return TYPE_VALUES.timestamp;
  if (v instanceof Duration) return TYPE_VALUES.duration;
  if (v instanceof TypeValue) return TYPE_VALUES.type;
  if (v instanceof Optional) return TYPE_VALUES.optional;
  if (v instanceof CelObject) return isJsonBacked(v) ? TYPE_VALUES.map : new TypeValue(v.type);
  if (v instanceof OpaqueValue) return new TypeValue(v.type);
  return TYPE_VALUES.error;
}

/** The runtime type name of a value, as cel-go prints it in overload errors. */
export function runtimeTypeName(v: Val): string {
  const t = typeOfValue(v);
  return t instanceof CelError ? 'error' : typeName(t.type);
}

/** Type.IsAssignableRuntimeType: does a value fit an overload parameter at runtime? Lists and
 * maps are checked by kind and their first element, as cel-go does. */
export function isAssignableRuntime(t: CelType, v: Val): boolean {
  switch (t.kind) {
    case 'dyn':
    case 'typeParam':
      return !(v instanceof CelError);
    case 'primitive':
      switch (t.name) {
        case 'int': return typeof v === 'bigint';
        case 'double': return typeof v === 'number';
        case 'string': return typeof v === 'string';
        case 'bool': return typeof v === 'boolean';
        case 'uint': return v instanceof Uint;
        case 'bytes': return v instanceof Uint8Array;
      }
      return false;
    case 'null': return v === null;
    case 'timestamp': return v instanceof Timestamp;
    case 'duration': return v instanceof Duration;
    case 'type': return v instanceof TypeValue;
    case 'list': {
      if (!Array.isArray(v)) return false;
      const l = v as CelList;
      return l.length === 0 || isAssignableRuntime(t.elem, l[0]!);
    }
    case 'map': {
      if (v instanceof CelObject && isJsonBacked(v)) return true;
      if (!(v instanceof CelMap)) return false;
      for (const k of v.keys()) {
        const val = v.get(k);
        return isAssignableRuntime(t.key, k) && (val === undefined || isAssignableRuntime(t.value, val));
      }
      return true;
    }
    case 'opaque':
      if (t.name === 'optional_type') return v instanceof Optional;
      return v instanceof OpaqueValue && typeName(v.type) === t.name;
    case 'object': return v instanceof CelObject || v instanceof CelMap;
    case 'error': return v instanceof CelError;
  }
}

// ---------------------------------------------------------------------------------------------
// Numbers.

/** compareDoubleInt: doubles beyond the int64 range order outside it; otherwise the int is
 * rounded to a double, exactly as Go's conversion does. */
function cmpDoubleInt(d: number, i: bigint): -1 | 0 | 1 {
  if (d < -TWO_POW_63) return -1;
  if (d > TWO_POW_63 - 1) return 1;
  const id = Number(i);
  return d < id ? -1 : d > id ? 1 : 0;
}

function cmpDoubleUint(d: number, u: bigint): -1 | 0 | 1 {
  if (d < 0) return -1;
  if (d > TWO_POW_64 - 1) return 1;
  const ud = Number(u);
  return d < ud ? -1 : d > ud ? 1 : 0;
}

function cmpIntUint(i: bigint, u: bigint): -1 | 0 | 1 {
  if (i < 0n || u > MAX_INT64) return -1;
  return i < u ? -1 : i > u ? 1 : 0;
}

const cmpBig = (a: bigint, b: bigint): -1 | 0 | 1 => (a < b ? -1 : a > b ? 1 : 0);

/** Go's strings.Compare on UTF-8 bytes, i.e. code point order (JavaScript compares UTF-16 units,
 * which differs only when a surrogate pair meets a character in U+E000..U+FFFF). */
function compareStrings(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && cb >= 0xd800) {
        const pa = a.codePointAt(i)!;
        const pb = b.codePointAt(i)!;
        return pa < pb ? -1 : 1;
      }
      return ca < cb ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): -1 | 0 | 1 {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const NAN_ORDER = 'NaN values cannot be ordered';

/** traits.Comparer: -1, 0 or 1, or an error for unordered operands. */
export function celCompare(a: Val, b: Val): -1 | 0 | 1 | CelError {
  switch (typeof a) {
    case 'bigint':
      if (typeof b === 'bigint') return cmpBig(a, b);
      if (typeof b === 'number') return Number.isNaN(b) ? new CelError(NAN_ORDER) : (-cmpDoubleInt(b, a) as -1 | 0 | 1);
      if (b instanceof Uint) return cmpIntUint(a, b.value);
      return maybeNoSuchOverload(b);
    case 'number':
      if (Number.isNaN(a)) return new CelError(NAN_ORDER);
      if (typeof b === 'number') return Number.isNaN(b) ? new CelError(NAN_ORDER) : a < b ? -1 : a > b ? 1 : 0;
      if (typeof b === 'bigint') return cmpDoubleInt(a, b);
      if (b instanceof Uint) return cmpDoubleUint(a, b.value);
      return maybeNoSuchOverload(b);
    case 'string':
      return typeof b === 'string' ? compareStrings(a, b) : maybeNoSuchOverload(b);
    case 'boolean':
      return typeof b === 'boolean' ? (a === b ? 0 : a ? 1 : -1) : maybeNoSuchOverload(b);
  }
  if (a instanceof Uint) {
    if (b instanceof Uint) return cmpBig(a.value, b.value);
    if (typeof b === 'bigint') return (-cmpIntUint(b, a.value)) as -1 | 0 | 1;
    if (typeof b === 'number') return Number.isNaN(b) ? new CelError(NAN_ORDER) : (-cmpDoubleUint(b, a.value) as -1 | 0 | 1);
    return maybeNoSuchOverload(b);
  }
  if (a instanceof Uint8Array) return b instanceof Uint8Array ? compareBytes(a, b) : maybeNoSuchOverload(b);
  if (a instanceof Timestamp) return b instanceof Timestamp ? cmpBig(a.nanos, b.nanos) : maybeNoSuchOverload(b);
  if (a instanceof Duration) return b instanceof Duration ? cmpBig(a.nanos, b.nanos) : maybeNoSuchOverload(b);
  if (a instanceof CelError) return a;
  return maybeNoSuchOverload(b instanceof CelError ? b : a);
}

// ---------------------------------------------------------------------------------------------
// Equality.

/** types.Equal: null equals only null; otherwise the left operand's Equal decides. The result is
 * an error only where cel-go's is (an error operand, or a JSON-backed value compared with a value
 * of another kind, as k8s.io/apiserver's unstructured values report). */
export function celEquals(a: Val, b: Val): boolean | CelError {
  if (a === null || b === null) return a === b;
  return valueEquals(a, b);
}

/** ref.Val.Equal of the left operand (no null special case: Null.Equal compares types). */
function valueEquals(a: Val, b: Val): boolean | CelError {
  switch (typeof a) {
    case 'string': return a === b;
    case 'bigint':
      if (typeof b === 'bigint') return a === b;
      if (typeof b === 'number') return !Number.isNaN(b) && cmpDoubleInt(b, a) === 0;
      if (b instanceof Uint) return cmpIntUint(a, b.value) === 0;
      return false;
    case 'boolean': return a === b;
    case 'number':
      if (Number.isNaN(a)) return false;
      if (typeof b === 'number') return a === b;
      if (typeof b === 'bigint') return cmpDoubleInt(a, b) === 0;
      if (b instanceof Uint) return cmpDoubleUint(a, b.value) === 0;
      return false;
  }
  if (a === null) return b === null;
  if (a instanceof Uint) {
    if (b instanceof Uint) return a.value === b.value;
    if (typeof b === 'bigint') return cmpIntUint(b, a.value) === 0;
    if (typeof b === 'number') return !Number.isNaN(b) && cmpDoubleUint(b, a.value) === 0;
    return false;
  }
  if (Array.isArray(a)) return listEquals(a as CelList, b);
  if (a instanceof CelObject || a instanceof CelMap) return mapEquals(a, b);
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b);
  if (a instanceof Timestamp) return b instanceof Timestamp && a.nanos === b.nanos;
  if (a instanceof Duration) return b instanceof Duration && a.nanos === b.nanos;
  if (a instanceof TypeValue) return b instanceof TypeValue && typeName(a.type) === typeName(b.type);
  if (a instanceof Optional) {
    if (!(b instanceof Optional)) return false;
    if (a.value === undefined || b.value === undefined) return a.value === b.value;
    return valueEquals(a.value, b.value);
  }
  if (a instanceof CelError) return a;
  if (a instanceof OpaqueValue) {
    return b instanceof OpaqueValue && Object.getPrototypeOf(a) === Object.getPrototypeOf(b) && a.equals(b);
  }
  return false;
}

function listEquals(a: CelList, b: Val): boolean | CelError {
  const semantics = listSemantics(a);
  const unstructured = isUnstructuredList(a);
  if (!Array.isArray(b)) return unstructured ? noSuchOverload() : false;
  const other = b as CelList;
  if (a.length !== other.length) return false;
  if (semantics?.listType === 'set') {
    // unstructuredSetList.Equal: every element of the other list is in this set.
    for (const e of other) if (!listHas(a, e)) return false;
    return true;
  }
  if (semantics?.listType === 'map') return mapListEquals(a, semantics.mapKeys ?? [], other);
  for (let i = 0; i < a.length; i++) {
    const eq = celEquals(a[i]!, other[i]!);
    if (unstructured) {
      if (eq !== true) return eq;
    } else if (eq === false) {
      // baseList.Equal stops only on false: an element error counts as equal.
      return false;
    }
  }
  return true;
}

function listHas(list: CelList, e: Val): boolean {
  for (const x of list) if (celEquals(x, e) === true) return true;
  return false;
}

/** The key of a map-list element: the raw JSON values of its key fields. Elements that are not
 * JSON objects have no key and never match (k8s turns them into unique error keys). */
function mapListKey(e: Val, keys: readonly string[]): string | undefined {
  if (!isJsonBacked(e)) return undefined;
  if (keys.length === 1) {
    const k = e.raw[keys[0]!];
    if (typeof k === 'string') return 's' + k;
    if (typeof k === 'number' || typeof k === 'bigint' || typeof k === 'boolean') return typeof k + String(k);
  }
  return JSON.stringify(keys.map((k) => e.raw[k] ?? null), (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

function mapListEquals(a: CelList, keys: readonly string[], other: CelList): boolean | CelError {
  const byKey = new Map<string, Val>();
  for (const e of a) {
    const k = mapListKey(e, keys);
    if (k !== undefined) byKey.set(k, e);
  }
  for (const e of other) {
    const k = mapListKey(e, keys);
    const mine = k === undefined ? undefined : byKey.get(k);
    if (mine === undefined) return false;
    const eq = celEquals(mine, e);
    if (eq !== true) return eq;
  }
  return true;
}

function mapEquals(a: CelMap | CelObject, b: Val): boolean | CelError {
  if (isJsonBacked(a)) return jsonMapEquals(a, b);
  if (!(b instanceof CelMap || b instanceof CelObject)) return false;
  if (!(a instanceof CelMap)) return a === b;
  if (a.size !== mapSize(b)) return false;
  for (const k of a.keys()) {
    const mine = a.get(k)!;
    const theirs = mapFind(b, k);
    if (theirs === undefined) return false;
    if (celEquals(mine, theirs) === false) return false;
  }
  return true;
}

/** unstructuredMap.Equal: sizes count every JSON key (null-valued ones too); declared keys compare
 * as CEL values, undeclared ones by raw deep equality. */
function jsonMapEquals(a: JsonBacked & (CelMap | CelObject), b: Val): boolean | CelError {
  if (!(b instanceof CelMap || b instanceof CelObject)) return noSuchOverload();
  if (mapSize(a) !== mapSize(b)) return false;
  const same = a.sameShape(b);
  for (const key of Object.keys(a.raw)) {
    if (same) {
      // Identical JSON scalars under the same declared type are equal CEL values.
      const ra = a.raw[key];
      if (ra !== null && typeof ra !== 'object' && ra === (b as unknown as JsonBacked).raw[key]) continue;
    }
    const mine = a.rawField(key);
    if (mine !== undefined) {
      const theirs = mapFind(b, key);
      if (theirs === undefined) return false;
      const eq = valueEquals(mine, theirs);
      if (eq !== true) return eq;
    } else {
      if (!isJsonBacked(b)) return noSuchOverload();
      if (Object.prototype.hasOwnProperty.call(b.raw, key) && !rawDeepEqual(a.raw[key], b.raw[key])) return false;
    }
  }
  return true;
}

function rawDeepEqual(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x === 'bigint' || typeof y === 'bigint') return typeof x !== 'object' && typeof y !== 'object' && String(x) === String(y);
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x)) {
    const ya = y as unknown[];
    return x.length === ya.length && x.every((e, i) => rawDeepEqual(e, ya[i]));
  }
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  const xk = Object.keys(xo);
  if (xk.length !== Object.keys(yo).length) return false;
  return xk.every((k) => Object.prototype.hasOwnProperty.call(yo, k) && rawDeepEqual(xo[k], yo[k]));
}

// ---------------------------------------------------------------------------------------------
// Maps.

/** Size of a map or object value (for objects: the JSON keys, as k8s counts them). */
function mapSize(m: CelMap | CelObject): number {
  if (m instanceof CelMap) return m.size;
  if (isJsonBacked(m)) return m.count();
  return 0;
}

/** Find a key: the value, an error (for a key type the map cannot hold), or undefined. */
function mapFind(m: CelMap | CelObject, key: Val): Val | undefined {
  if (m instanceof CelMap) return m.get(key);
  if (typeof key !== 'string') return noSuchOverload();
  return m.field(key);
}

/** A map literal's storage: one JavaScript Map keyed by a normalized key, so that lookups hash
 * instead of scanning. Int and uint keys are distinct entries, but lookups cross numeric types
 * when the conversion is lossless, as cel-go's refValMapAccessor does. */
export class LiteralMap extends CelMap {
  private readonly entries = new Map<unknown, [Val, Val]>();
  /** Set while the map is a comprehension's private accumulator. */
  mutable = false;

  get size(): number {
    return this.entries.size;
  }

  /** Later entries with the same key replace earlier ones (cel-go keeps the last). */
  set(key: Val, value: Val): void {
    const nk = normalizeKey(key);
    const existing = this.entries.get(nk);
    if (existing) existing[1] = value;
    else this.entries.set(nk, [key, value]);
  }

  delete(key: Val): void {
    this.entries.delete(normalizeKey(key));
  }

  get(key: Val): Val | undefined {
    const hit = this.entries.get(normalizeKey(key));
    if (hit) return hit[1];
    if (typeof key === 'number') {
      const i = doubleToIntLossless(key);
      if (i !== undefined) {
        const h = this.entries.get(i);
        if (h) return h[1];
      }
      const u = doubleToUintLossless(key);
      if (u !== undefined) return this.entries.get(uintKey(u))?.[1];
    } else if (typeof key === 'bigint') {
      if (key >= 0n) return this.entries.get(uintKey(key))?.[1];
    } else if (key instanceof Uint) {
      if (key.value <= MAX_INT64) return this.entries.get(key.value)?.[1];
    }
    return undefined;
  }

  has(key: Val): boolean {
    return this.get(key) !== undefined;
  }

  *keys(): Iterable<Val> {
    for (const e of this.entries.values()) yield e[0];
  }

  /** Entries in insertion order. */
  *pairs(): Iterable<[Val, Val]> {
    yield* this.entries.values();
  }
}

const uintKey = (v: bigint): symbol => Symbol.for(`cel.uint:${v}`);

function normalizeKey(key: Val): unknown {
  if (key instanceof Uint) return uintKey(key.value);
  return key;
}

function doubleToIntLossless(d: number): bigint | undefined {
  if (!Number.isFinite(d) || d <= -TWO_POW_63 || d >= TWO_POW_63 || !Number.isInteger(d)) return undefined;
  return BigInt(d);
}

function doubleToUintLossless(d: number): bigint | undefined {
  if (!Number.isFinite(d) || d < 0 || d >= TWO_POW_64 || !Number.isInteger(d)) return undefined;
  return BigInt(d);
}

// ---------------------------------------------------------------------------------------------
// Comprehension accumulators: an empty list or map accumulator is replaced by a private mutable
// one, so that `@result + [x]` and `cel.@mapInsert` do not copy on every iteration.

/** The lists that are a comprehension's private accumulator right now, innermost last. Marking
 * the list itself would change its shape (or show in it), and a WeakSet costs more; folds nest
 * and evaluation is synchronous, so a stack serves. */
const mutableLists: CelList[] = [];

export function markMutable<T extends Val[] | LiteralMap>(v: T): T {
  if (v instanceof LiteralMap) v.mutable = true;
  else mutableLists.push(v);
  return v;
}

export function isMutable(v: Val): boolean {
  if (v instanceof LiteralMap) return v.mutable;
  return mutableLists.length !== 0 && Array.isArray(v) && mutableLists.lastIndexOf(v as CelList) >= 0;
}

/** The accumulator map leaves the comprehension: freeze it again (lists: releaseMutableLists). */
export function unmarkMutable(v: Val): void {
  if (v instanceof LiteralMap) v.mutable = false;
}

/** How many lists are mutable now: a comprehension notes this when it starts ... */
export const mutableListMark = (): number => mutableLists.length;

/** ... and freezes the lists marked since when it ends, whatever its accumulator became (an
 * error, another list). An abandoned evaluation (cost limit) releases everything with mark 0. */
export function releaseMutableLists(mark: number): void {
  if (mutableLists.length > mark) mutableLists.length = mark;
}

/** types.InsertMapKeyValue: a new map with one more entry (in place for a mutable accumulator),
 * or an error when the key is already present. */
export function insertMapKeyValue(m: CelMap | CelObject, k: Val, v: Val): Val {
  if (mapFind(m, k) !== undefined) return new CelError(`insert failed: key ${formatKey(k)} already exists`);
  if (m instanceof LiteralMap && m.mutable) {
    m.set(k, v);
    return m;
  }
  const out = new LiteralMap();
  if (m instanceof CelMap) for (const key of m.keys()) out.set(key, m.get(key)!);
  out.set(k, v);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Membership and concatenation.

/** `elem in container` (inAggregate): list membership by equality, map membership by key. */
export function celIn(elem: Val, container: Val): Val {
  if (Array.isArray(container)) return listContains(container as CelList, elem);
  // A string key is present or not, never an error: has() answers without converting the entry.
  if (typeof elem === 'string' && container instanceof CelMap) return container.has(elem);
  if (container instanceof CelMap || container instanceof CelObject) {
    const v = mapFind(container, elem);
    return v instanceof CelError ? v : v !== undefined;
  }
  return maybeNoSuchOverload(container);
}

/** List Contains: literal lists ignore element errors (baseList); JSON lists compare each
 * element against the value and report the first error when nothing matched (unstructuredList). */
export function listContains(list: CelList, elem: Val): Val {
  if (elem instanceof CelError) return elem;
  if (!isUnstructuredList(list)) {
    for (const e of list) if (celEquals(elem, e) === true) return true;
    return false;
  }
  let err: CelError | undefined;
  for (const e of list) {
    const eq = celEquals(e, elem);
    if (eq === true) return true;
    if (eq instanceof CelError && !err) err = eq;
  }
  return err ?? false;
}

/** `a + b` on lists. A Kubernetes set list unions (keeping a's order, appending b's new elements),
 * a map list merges by its keys (a's positions, b's values win, new keys appended), other JSON
 * lists append; a literal list returns the other operand unchanged when it is empty. */
export function concatLists(a: CelList, b: CelList): CelList {
  if (isMutable(a)) {
    // A comprehension's private accumulator grows in place (cel-go's mutableList).
    (a as Val[]).push(...b);
    return a;
  }
  const semantics = listSemantics(a);
  if (semantics?.listType === 'set') {
    const out: Val[] = a.slice();
    for (const e of b) if (!listHas(out, e)) out.push(e);
    return markUnstructured(out, semantics);
  }
  if (semantics?.listType === 'map') {
    const keys = semantics.mapKeys ?? [];
    const out: Val[] = a.slice();
    const index = new Map<string, number>();
    a.forEach((e, i) => {
      const k = mapListKey(e, keys);
      if (k !== undefined) index.set(k, i);
    });
    for (const e of b) {
      const k = mapListKey(e, keys);
      const at = k === undefined ? undefined : index.get(k);
      if (at !== undefined) out[at] = e;
      else out.push(e);
    }
    return markUnstructured(out, semantics);
  }
  if (isUnstructuredList(a)) return markUnstructured([...a, ...b]);
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  return [...a, ...b];
}

// ---------------------------------------------------------------------------------------------
// Sizes, zero values.

/** Number of code points: what CEL's size(string) counts (the same count as Go's utf8.RuneCountInString). */
export const codePointLength: (s: string) => number = runeCount;

/** traits.Sizer for sized values; undefined for the rest. */
export function sizeOf(v: Val): number | undefined {
  if (typeof v === 'string') return codePointLength(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof CelMap) return v.size;
  if (v instanceof CelObject && isJsonBacked(v)) return v.count();
  return undefined;
}

/** traits.Zeroer.IsZeroValue, for optional.ofNonZeroValue. */
export function isZeroValue(v: Val): boolean {
  switch (typeof v) {
    case 'boolean': return v === false;
    case 'bigint': return v === 0n;
    case 'number': return v === 0;
    case 'string': return v.length === 0;
  }
  if (v === null) return true;
  if (v instanceof Uint) return v.value === 0n;
  if (v instanceof Uint8Array) return v.length === 0;
  if (Array.isArray(v)) return !isUnstructuredList(v) && v.length === 0;
  if (v instanceof LiteralMap) return v.size === 0;
  if (v instanceof Duration) return v.nanos === 0n;
  // Go's zero time.Time is 0001-01-01T00:00:00Z.
  if (v instanceof Timestamp) return v.nanos === -62135596800000000000n;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Qualification: `obj.field`, `obj[key]` (interpreter/attributes.go refQualify).

/** A missing key, index or field. */
export const ABSENT: unique symbol = Symbol('cel.absent');

/** The value of `obj[key]`, ABSENT when the key (or index) is missing or `obj` is not a container,
 * or an error (a key type the container cannot hold, an error operand). */
export function qualifyValue(obj: Val, key: Val): Val | typeof ABSENT {
  if (obj instanceof CelMap) {
    const v = obj.get(key);
    return v === undefined ? ABSENT : v;
  }
  if (Array.isArray(obj)) {
    const list = obj as CelList;
    let i: number;
    if (typeof key === 'bigint') {
      if (key < 0n || key >= BigInt(list.length)) return ABSENT;
      i = Number(key);
    } else if (key instanceof Uint) {
      if (key.value > MAX_INT64) return new CelError(`unsupported index value ${formatKey(key)} in list`);
      if (key.value >= BigInt(list.length)) return ABSENT;
      i = Number(key.value);
    } else if (typeof key === 'number') {
      const k = doubleToIntLossless(key);
      if (k === undefined) return new CelError(`unsupported index value ${formatKey(key)} in list`);
      if (k < 0n || k >= BigInt(list.length)) return ABSENT;
      i = Number(k);
    } else {
      return key instanceof CelError ? key : new CelError(`unsupported index type '${runtimeTypeName(key)}' in list`);
    }
    return list[i]!;
  }
  if (obj instanceof CelObject) {
    if (typeof key !== 'string') return maybeNoSuchOverload(key);
    const v = obj.field(key);
    return v === undefined ? ABSENT : v;
  }
  if (obj instanceof CelError) return obj;
  return ABSENT;
}

/** Whether a value supports qualification at all (maps, objects, lists). */
export const isContainer = (v: Val): boolean => v instanceof CelMap || v instanceof CelObject || Array.isArray(v);

/** The error for a missing key or index, worded as cel-go's resolution errors. */
export function missingKeyError(obj: Val, key: Val): CelError {
  return new CelError(Array.isArray(obj) ? `index out of bounds: ${formatKey(key)}` : `no such key: ${formatKey(key)}`);
}

/** Go's %v of a CEL key. */
export function formatKey(key: Val): string {
  switch (typeof key) {
    case 'string': return key;
    case 'bigint': return key.toString();
    case 'boolean': return String(key);
    case 'number': return formatGoG(key);
  }
  if (key instanceof Uint) return key.value.toString();
  if (key === null) return 'NULL_VALUE';
  if (key instanceof Uint8Array) return `[${Array.from(key).join(' ')}]`;
  if (key instanceof CelError) return key.message;
  return String(key);
}
