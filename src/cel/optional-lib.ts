// CEL optional values (cel-go cel/library.go optionalLib, all versions): optional.of,
// optional.ofNonZeroValue, optional.none, hasValue, value, or, orValue, first, last,
// optional.unwrap / unwrapOpt, and the declarations of `_?._`, `_[?_]` and indexing through an
// optional. The interpreter special-cases or/orValue (short-circuit) and the optional selections
// (attribute qualification); their bindings here serve other callers.

import { selfChecking } from './interpreter-nodes.js';
import type { FunctionDecl, Library, Overload } from './decls.js';
import { BOOL, DYN, INT, listOf, mapOf, opaque, optionalOf, STRING, typeOf, typeParam } from './types.js';
import type { CelType } from './types.js';
import { ABSENT, isZeroValue, noSuchOverloadFor, qualifyValue, TYPE_VALUES } from './value-ops.js';
import { CelError, Optional } from './values.js';
import type { CelList, Val } from './values.js';

const K = typeParam('K');
const V = typeParam('V');
const OPT_V = optionalOf(V);
const LIST_V = listOf(V);
const MAP_KV = mapOf(K, V);

type Impl = (args: Val[]) => Val;

const o = (id: string, params: CelType[], result: CelType, impl: Impl, member = false): Overload => ({
  id,
  params,
  result,
  impl,
  ...(member ? { member } : {}),
});
const fn = (name: string, ...overloads: Overload[]): FunctionDecl => ({ name, overloads });

/** A binding guarded by its runtime signature, as cel-go's per-overload bindings are. */
const guarded = (name: string, check: (args: Val[]) => boolean, impl: Impl): Impl => (args) =>
  check(args) ? impl(args) : noSuchOverloadFor(name, args);
const isOpt = (args: Val[]): boolean => args[0] instanceof Optional;
const isList = (args: Val[]): boolean => Array.isArray(args[0]);

const NONE_DEREFERENCE = 'optional.none() dereference';


/** Qualify through an optional: `o[?k]` / `o.?f` with `o` an optional or a container. */
function optionalQualify(obj: Val, key: Val): Val {
  let target = obj;
  if (obj instanceof Optional) {
    if (obj.value === undefined) return obj;
    target = obj.value;
  }
  const v = qualifyValue(target, key);
  if (v === ABSENT) return Optional.NONE;
  return v instanceof CelError ? v : new Optional(v);
}

function unwrapAll(args: Val[]): Val {
  const out: Val[] = [];
  for (const e of args[0] as CelList) {
    if (!(e instanceof Optional)) return new CelError(`value ${String(e)} is not optional`);
    if (e.value !== undefined) out.push(e.value);
  }
  return out;
}

const FUNCTIONS: FunctionDecl[] = [
  fn('optional.of', o('optional_of', [V], OPT_V, (args) => new Optional(args[0]!))),
  fn(
    'optional.ofNonZeroValue',
    o('optional_ofNonZeroValue', [V], OPT_V, (args) => (isZeroValue(args[0]!) ? Optional.NONE : new Optional(args[0]!))),
  ),
  fn('optional.none', o('optional_none', [], OPT_V, () => Optional.NONE)),
  fn(
    'value',
    o('optional_value', [OPT_V], V, guarded('value', isOpt, (args) => (args[0] as Optional).value ?? new CelError(NONE_DEREFERENCE)), true),
  ),
  fn('hasValue', o('optional_hasValue', [OPT_V], BOOL, guarded('hasValue', isOpt, (args) => (args[0] as Optional).hasValue()), true)),
  fn(
    'or',
    o('optional_or_optional', [OPT_V, OPT_V], OPT_V, (args) => {
      const a = args[0]!;
      if (!(a instanceof Optional)) return a;
      return a.hasValue() ? a : args[1]!;
    }, true),
  ),
  fn(
    'orValue',
    o('optional_orValue_value', [OPT_V, V], V, (args) => {
      const a = args[0]!;
      if (!(a instanceof Optional)) return a;
      return a.value !== undefined ? a.value : args[1]!;
    }, true),
  ),
  fn('_?._', o('select_optional_field', [DYN, STRING], OPT_V, (args) => optionalQualify(args[0]!, args[1]!))),
  fn(
    '_[?_]',
    o('list_optindex_optional_int', [LIST_V, INT], OPT_V, (args) => optionalQualify(args[0]!, args[1]!)),
    o('optional_list_optindex_optional_int', [optionalOf(LIST_V), INT], OPT_V, (args) => optionalQualify(args[0]!, args[1]!)),
    o('map_optindex_optional_value', [MAP_KV, K], OPT_V, (args) => optionalQualify(args[0]!, args[1]!)),
    o('optional_map_optindex_optional_value', [optionalOf(MAP_KV), K], OPT_V, (args) => optionalQualify(args[0]!, args[1]!)),
  ),
  fn(
    '_[_]',
    o('optional_list_index_int', [optionalOf(LIST_V), INT], OPT_V, (args) => optionalQualify(args[0]!, args[1]!)),
    o('optional_map_index_value', [optionalOf(MAP_KV), K], OPT_V, (args) => optionalQualify(args[0]!, args[1]!)),
  ),
  fn(
    'last',
    o('list_last', [LIST_V], OPT_V, guarded('last', isList, (args) => {
      const l = args[0] as CelList;
      return l.length === 0 ? Optional.NONE : new Optional(l[l.length - 1]!);
    }), true),
  ),
  fn(
    'first',
    o('list_first', [LIST_V], OPT_V, guarded('first', isList, (args) => {
      const l = args[0] as CelList;
      return l.length === 0 ? Optional.NONE : new Optional(l[0]!);
    }), true),
  ),
  fn('optional.unwrap', o('optional_unwrap', [listOf(OPT_V)], LIST_V, guarded('optional.unwrap', isList, unwrapAll))),
  fn('unwrapOpt', o('optional_unwrapOpt', [listOf(OPT_V)], LIST_V, guarded('unwrapOpt', isList, unwrapAll), true)),
];

export const OPTIONAL_LIBRARY: Library = selfChecking({
  name: 'cel.lib.optional',
  functions: FUNCTIONS,
  idents: [{ name: 'optional_type', type: typeOf(opaque('optional_type')), value: TYPE_VALUES.optional }],
});
