// The CEL standard library (cel-go common/stdlib/standard.go at v0.23.2): every operator and
// function overload with cel-go's overload ids and signatures, its implementation, and the runtime
// cost interpreter/runtimecost.go gives it. Type names (`int`, `list`, `google.protobuf.Timestamp`,
// ...) are identifiers whose values are type values.

import { binaryImpl, selfChecking, unaryImpl } from './interpreter-nodes.js';
import type { FunctionDecl, Library, Overload } from './decls.js';
import {
  firstArgTraversal,
  listMembership,
  minSizeTraversal,
  regexMatch,
  substringSearch,
  sumSizeTraversal,
} from './runtime-cost.js';
import * as ops from './stdlib-ops.js';
import { DURATION_UNITS, durationField, TIMESTAMP_FIELDS, timestampField, timestampFieldInZone } from './stdlib-time.js';
import {
  BOOL,
  BYTES,
  DOUBLE,
  DURATION,
  DYN,
  INT,
  listOf,
  mapOf,
  NULL,
  STRING,
  TIMESTAMP,
  TYPE,
  typeOf,
  typeParam,
  UINT,
} from './types.js';
import type { CelType } from './types.js';
import { ABSENT, celEquals, celIn, missingKeyError, noSuchOverload, qualifyValue, TYPE_VALUES } from './value-ops.js';
import { CelError } from './values.js';
import type { Val } from './values.js';

const A = typeParam('A');
const B = typeParam('B');
const LIST_A = listOf(A);
const MAP_AB = mapOf(A, B);

type Impl = (args: Val[]) => Val;
type Extra = Pick<Overload, 'member' | 'nonStrict' | 'cost'>;

const o = (id: string, params: CelType[], result: CelType, impl: Impl, extra: Extra = {}): Overload => ({
  id,
  params,
  result,
  impl,
  ...extra,
});
const m = (id: string, params: CelType[], result: CelType, impl: Impl, extra: Extra = {}): Overload =>
  o(id, params, result, impl, { ...extra, member: true });
const fn = (name: string, ...overloads: Overload[]): FunctionDecl => ({ name, overloads });

const unary = unaryImpl;
const binary = binaryImpl;

/** Special-cased by the interpreter; this binding only serves callers outside it. */
const conditional: Impl = (args) => {
  const c = args[0]!;
  if (c === true) return args[1]!;
  if (c === false) return args[2]!;
  return c instanceof CelError ? c : noSuchOverload();
};

const logicalAnd: Impl = (args) => {
  const [a, b] = args as [Val, Val];
  if (a === false || b === false) return false;
  if (a === true && b === true) return true;
  return a instanceof CelError ? a : b instanceof CelError ? b : noSuchOverload();
};

const logicalOr: Impl = (args) => {
  const [a, b] = args as [Val, Val];
  if (a === true || b === true) return true;
  if (a === false && b === false) return false;
  return a instanceof CelError ? a : b instanceof CelError ? b : noSuchOverload();
};

const equals: Impl = (args) => celEquals(args[0]!, args[1]!);
const notEquals: Impl = (args) => {
  const eq = celEquals(args[0]!, args[1]!);
  return eq instanceof CelError ? eq : !eq;
};

/** The twelve-plus-two orderings of one relation (`_<_`, `_<=_`, ...), with CEL's cross-type numeric
 * comparisons. `name` is cel-go's overload id prefix (`less`, `less_equals`, ...). */
function relation(op: string, name: string, impl: (a: Val, b: Val) => Val): FunctionDecl {
  const sig: [string, CelType, CelType][] = [
    ['bool', BOOL, BOOL],
    ['int64', INT, INT],
    ['int64_double', INT, DOUBLE],
    ['int64_uint64', INT, UINT],
    ['uint64', UINT, UINT],
    ['uint64_double', UINT, DOUBLE],
    ['uint64_int64', UINT, INT],
    ['double', DOUBLE, DOUBLE],
    ['double_int64', DOUBLE, INT],
    ['double_uint64', DOUBLE, UINT],
    ['string', STRING, STRING],
    ['bytes', BYTES, BYTES],
    ['timestamp', TIMESTAMP, TIMESTAMP],
    ['duration', DURATION, DURATION],
  ];
  const b = binary(impl);
  return fn(
    op,
    ...sig.map(([suffix, l, r]) =>
      o(`${name}_${suffix}`, [l, r], BOOL, b, suffix === 'string' || suffix === 'bytes' ? { cost: minSizeTraversal } : {}),
    ),
  );
}

const identity: Impl = unary((a) => a);

const index = (obj: Val, key: Val): Val => {
  const v = qualifyValue(obj, key);
  return v === ABSENT ? missingKeyError(obj, key) : v;
};

const tsGetter = (name: keyof typeof TIMESTAMP_FIELDS, id: string, tzId: string): Overload[] => [
  m(id, [TIMESTAMP], INT, timestampField(TIMESTAMP_FIELDS[name])),
  m(tzId, [TIMESTAMP, STRING], INT, timestampFieldInZone(TIMESTAMP_FIELDS[name])),
];
const durGetter = (name: keyof typeof DURATION_UNITS, id: string): Overload =>
  m(id, [DURATION], INT, durationField(DURATION_UNITS[name]));

const FUNCTIONS: FunctionDecl[] = [
  // Logical operators: special-cased by the interpreter, non-strict.
  fn('_?_:_', o('conditional', [BOOL, A, A], A, conditional, { nonStrict: true })),
  fn('_&&_', o('logical_and', [BOOL, BOOL], BOOL, logicalAnd, { nonStrict: true })),
  fn('_||_', o('logical_or', [BOOL, BOOL], BOOL, logicalOr, { nonStrict: true })),
  fn('!_', o('logical_not', [BOOL], BOOL, unary(ops.logicalNot))),
  fn('@not_strictly_false', o('not_strictly_false', [BOOL], BOOL, unary(ops.notStrictlyFalse), { nonStrict: true })),

  // Equality: special-cased by the interpreter.
  fn('_==_', o('equals', [A, A], BOOL, equals, { cost: minSizeTraversal })),
  fn('_!=_', o('not_equals', [A, A], BOOL, notEquals, { cost: minSizeTraversal })),

  // Arithmetic.
  fn(
    '_+_',
    o('add_bytes', [BYTES, BYTES], BYTES, binary(ops.add), { cost: sumSizeTraversal }),
    o('add_double', [DOUBLE, DOUBLE], DOUBLE, binary(ops.add)),
    o('add_duration_duration', [DURATION, DURATION], DURATION, binary(ops.add)),
    o('add_duration_timestamp', [DURATION, TIMESTAMP], TIMESTAMP, binary(ops.add)),
    o('add_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP, binary(ops.add)),
    o('add_int64', [INT, INT], INT, binary(ops.add)),
    o('add_list', [LIST_A, LIST_A], LIST_A, binary(ops.add)),
    o('add_string', [STRING, STRING], STRING, binary(ops.add), { cost: sumSizeTraversal }),
    o('add_uint64', [UINT, UINT], UINT, binary(ops.add)),
  ),
  fn(
    '_/_',
    o('divide_double', [DOUBLE, DOUBLE], DOUBLE, binary(ops.divide)),
    o('divide_int64', [INT, INT], INT, binary(ops.divide)),
    o('divide_uint64', [UINT, UINT], UINT, binary(ops.divide)),
  ),
  fn(
    '_%_',
    o('modulo_int64', [INT, INT], INT, binary(ops.modulo)),
    o('modulo_uint64', [UINT, UINT], UINT, binary(ops.modulo)),
  ),
  fn(
    '_*_',
    o('multiply_double', [DOUBLE, DOUBLE], DOUBLE, binary(ops.multiply)),
    o('multiply_int64', [INT, INT], INT, binary(ops.multiply)),
    o('multiply_uint64', [UINT, UINT], UINT, binary(ops.multiply)),
  ),
  fn(
    '-_',
    o('negate_double', [DOUBLE], DOUBLE, unary(ops.negate)),
    o('negate_int64', [INT], INT, unary(ops.negate)),
  ),
  fn(
    '_-_',
    o('subtract_double', [DOUBLE, DOUBLE], DOUBLE, binary(ops.subtract)),
    o('subtract_duration_duration', [DURATION, DURATION], DURATION, binary(ops.subtract)),
    o('subtract_int64', [INT, INT], INT, binary(ops.subtract)),
    o('subtract_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP, binary(ops.subtract)),
    o('subtract_timestamp_timestamp', [TIMESTAMP, TIMESTAMP], DURATION, binary(ops.subtract)),
    o('subtract_uint64', [UINT, UINT], UINT, binary(ops.subtract)),
  ),

  // Relations.
  relation('_<_', 'less', ops.less),
  relation('_<=_', 'less_equals', ops.lessEquals),
  relation('_>_', 'greater', ops.greater),
  relation('_>=_', 'greater_equals', ops.greaterEquals),

  // Indexing and membership (indexing is planned as attribute qualification).
  fn(
    '_[_]',
    o('index_list', [LIST_A, INT], A, binary(index)),
    o('index_map', [MAP_AB, A], B, binary(index)),
  ),
  fn(
    '@in',
    o('in_list', [A, LIST_A], BOOL, binary(celIn), { cost: listMembership }),
    o('in_map', [A, MAP_AB], BOOL, binary(celIn)),
  ),
  fn(
    'size',
    o('size_bytes', [BYTES], INT, unary(ops.size)),
    m('bytes_size', [BYTES], INT, unary(ops.size)),
    o('size_list', [LIST_A], INT, unary(ops.size)),
    m('list_size', [LIST_A], INT, unary(ops.size)),
    o('size_map', [MAP_AB], INT, unary(ops.size)),
    m('map_size', [MAP_AB], INT, unary(ops.size)),
    o('size_string', [STRING], INT, unary(ops.size)),
    m('string_size', [STRING], INT, unary(ops.size)),
  ),

  // Conversions.
  fn('type', o('type', [A], typeOf(A), unary(ops.toType))),
  fn('bool', o('bool_to_bool', [BOOL], BOOL, identity), o('string_to_bool', [STRING], BOOL, unary(ops.toBool))),
  fn(
    'bytes',
    o('bytes_to_bytes', [BYTES], BYTES, identity),
    o('string_to_bytes', [STRING], BYTES, unary(ops.toBytes), { cost: firstArgTraversal }),
  ),
  fn(
    'double',
    o('double_to_double', [DOUBLE], DOUBLE, identity),
    o('int64_to_double', [INT], DOUBLE, unary(ops.toDouble)),
    o('string_to_double', [STRING], DOUBLE, unary(ops.toDouble)),
    o('uint64_to_double', [UINT], DOUBLE, unary(ops.toDouble)),
  ),
  fn(
    'duration',
    o('duration_to_duration', [DURATION], DURATION, identity),
    o('int64_to_duration', [INT], DURATION, unary(ops.toDuration)),
    o('string_to_duration', [STRING], DURATION, unary(ops.toDuration)),
  ),
  fn('dyn', o('to_dyn', [A], DYN, identity)),
  fn(
    'int',
    o('int64_to_int64', [INT], INT, identity),
    o('double_to_int64', [DOUBLE], INT, unary(ops.toInt)),
    o('duration_to_int64', [DURATION], INT, unary(ops.toInt)),
    o('string_to_int64', [STRING], INT, unary(ops.toInt)),
    o('timestamp_to_int64', [TIMESTAMP], INT, unary(ops.toInt)),
    o('uint64_to_int64', [UINT], INT, unary(ops.toInt)),
  ),
  fn(
    'string',
    o('string_to_string', [STRING], STRING, identity),
    o('bool_to_string', [BOOL], STRING, unary(ops.toString)),
    o('bytes_to_string', [BYTES], STRING, unary(ops.toString), { cost: firstArgTraversal }),
    o('double_to_string', [DOUBLE], STRING, unary(ops.toString)),
    o('duration_to_string', [DURATION], STRING, unary(ops.toString)),
    o('int64_to_string', [INT], STRING, unary(ops.toString)),
    o('timestamp_to_string', [TIMESTAMP], STRING, unary(ops.toString)),
    o('uint64_to_string', [UINT], STRING, unary(ops.toString)),
  ),
  fn(
    'timestamp',
    o('timestamp_to_timestamp', [TIMESTAMP], TIMESTAMP, identity),
    o('int64_to_timestamp', [INT], TIMESTAMP, unary(ops.toTimestamp)),
    o('string_to_timestamp', [STRING], TIMESTAMP, unary(ops.toTimestamp)),
  ),
  fn(
    'uint',
    o('uint64_to_uint64', [UINT], UINT, identity),
    o('double_to_uint64', [DOUBLE], UINT, unary(ops.toUint)),
    o('int64_to_uint64', [INT], UINT, unary(ops.toUint)),
    o('string_to_uint64', [STRING], UINT, unary(ops.toUint)),
  ),

  // Strings.
  fn('contains', m('contains_string', [STRING, STRING], BOOL, binary(ops.stringContains), { cost: substringSearch })),
  fn('endsWith', m('ends_with_string', [STRING, STRING], BOOL, binary(ops.stringEndsWith), { cost: firstArgTraversal })),
  fn('startsWith', m('starts_with_string', [STRING, STRING], BOOL, binary(ops.stringStartsWith), { cost: firstArgTraversal })),
  fn(
    'matches',
    o('matches', [STRING, STRING], BOOL, binary(ops.matches)),
    m('matches_string', [STRING, STRING], BOOL, binary(ops.matches), { cost: regexMatch }),
  ),

  // Timestamps and durations.
  fn('getFullYear', ...tsGetter('getFullYear', 'timestamp_to_year', 'timestamp_to_year_with_tz')),
  fn('getMonth', ...tsGetter('getMonth', 'timestamp_to_month', 'timestamp_to_month_with_tz')),
  fn('getDayOfYear', ...tsGetter('getDayOfYear', 'timestamp_to_day_of_year', 'timestamp_to_day_of_year_with_tz')),
  fn('getDayOfMonth', ...tsGetter('getDayOfMonth', 'timestamp_to_day_of_month', 'timestamp_to_day_of_month_with_tz')),
  fn('getDate', ...tsGetter('getDate', 'timestamp_to_day_of_month_1_based', 'timestamp_to_day_of_month_1_based_with_tz')),
  fn('getDayOfWeek', ...tsGetter('getDayOfWeek', 'timestamp_to_day_of_week', 'timestamp_to_day_of_week_with_tz')),
  fn(
    'getHours',
    ...tsGetter('getHours', 'timestamp_to_hours', 'timestamp_to_hours_with_tz'),
    durGetter('getHours', 'duration_to_hours'),
  ),
  fn(
    'getMinutes',
    ...tsGetter('getMinutes', 'timestamp_to_minutes', 'timestamp_to_minutes_with_tz'),
    durGetter('getMinutes', 'duration_to_minutes'),
  ),
  fn(
    'getSeconds',
    ...tsGetter('getSeconds', 'timestamp_to_seconds', 'timestamp_to_seconds_tz'),
    durGetter('getSeconds', 'duration_to_seconds'),
  ),
  fn(
    'getMilliseconds',
    ...tsGetter('getMilliseconds', 'timestamp_to_milliseconds', 'timestamp_to_milliseconds_with_tz'),
    durGetter('getMilliseconds', 'duration_to_milliseconds'),
  ),
];

/** Type identifiers: `int` has type `type(int)` and evaluates to the int type value. */
const IDENTS: NonNullable<Library['idents']> = [
  { name: 'bool', type: typeOf(BOOL), value: TYPE_VALUES.bool },
  { name: 'bytes', type: typeOf(BYTES), value: TYPE_VALUES.bytes },
  { name: 'double', type: typeOf(DOUBLE), value: TYPE_VALUES.double },
  { name: 'google.protobuf.Duration', type: typeOf(DURATION), value: TYPE_VALUES.duration },
  { name: 'int', type: typeOf(INT), value: TYPE_VALUES.int },
  { name: 'list', type: typeOf(LIST_A), value: TYPE_VALUES.list },
  { name: 'map', type: typeOf(MAP_AB), value: TYPE_VALUES.map },
  { name: 'null_type', type: typeOf(NULL), value: TYPE_VALUES.null },
  { name: 'string', type: typeOf(STRING), value: TYPE_VALUES.string },
  { name: 'google.protobuf.Timestamp', type: typeOf(TIMESTAMP), value: TYPE_VALUES.timestamp },
  { name: 'type', type: typeOf(TYPE), value: TYPE_VALUES.type },
  { name: 'uint', type: typeOf(UINT), value: TYPE_VALUES.uint },
];

export const STANDARD_LIBRARY: Library = selfChecking({ name: 'cel.lib.std', functions: FUNCTIONS, idents: IDENTS });

/** Function names of the type conversions, which the planner folds when their argument is constant. */
export const TYPE_CONVERSION_FUNCTIONS = new Set([
  'bool', 'bytes', 'double', 'duration', 'dyn', 'int', 'string', 'timestamp', 'type', 'uint',
]);

/** Functions cel-go binds with one implementation for all overloads (SingletonBinaryBinding and
 * friends): an unresolved (dyn) call dispatches on the operand values rather than on signatures. */
export const SINGLETON_FUNCTIONS = new Set([
  '!_', '-_', '_+_', '_-_', '_*_', '_/_', '_%_', '_<_', '_<=_', '_>_', '_>=_', '_[_]', '@in', 'size', 'type', 'dyn', 'matches',
]);
