// cel-go ext.Sets (ext/sets.go at v0.23.2): sets.contains, sets.equivalent and
// sets.intersects over lists, comparing elements with CEL equality. Runtime cost is the
// extension's own tracker: 1 + |a|·|b| comparisons (twice that for equivalence).

import type { Library, Overload } from '../decls.js';
import { BOOL, listOf, typeParam } from '../types.js';
import type { CelList, Val } from '../values.js';
import { listContains } from '../value-ops.js';
import { actualSize, global, maybeNoSuchOverload } from './support.js';

// Lister.Contains: a literal list ignores comparison errors; a list from JSON reports the
// first one when nothing matched (k8s unstructuredList).

/** Every element of `sub` is in `list`; the first failed membership (false or error) otherwise. */
function setsContains(list: CelList, sub: CelList): Val {
  for (const e of sub) {
    const has = listContains(list, e);
    if (has !== true) return has;
  }
  return true;
}

function setsEquivalent(a: CelList, b: CelList): Val {
  const ab = setsContains(a, b);
  return ab !== true ? ab : setsContains(b, a);
}

/** Some element of `a` is in `b`; membership errors are skipped. */
function setsIntersects(a: CelList, b: CelList): boolean {
  for (const e of a) if (listContains(b, e) === true) return true;
  return false;
}

const LIST_T = listOf(typeParam('T'));

function setsOverload(id: string, f: (a: CelList, b: CelList) => Val, factor: number): Overload {
  return global(
    id,
    [LIST_T, LIST_T],
    BOOL,
    (args) => {
      const [a, b] = args as [Val, Val];
      if (!Array.isArray(a)) return maybeNoSuchOverload(a);
      if (!Array.isArray(b)) return maybeNoSuchOverload(b);
      return f(a as CelList, b as CelList);
    },
    (args) => 1 + Math.trunc(actualSize(args[0]!) * actualSize(args[1]!) * factor),
  );
}

export const SETS_LIBRARY: Library = {
  name: 'cel.lib.ext.sets',
  functions: [
    { name: 'sets.contains', overloads: [setsOverload('list_sets_contains_list', setsContains, 1)] },
    // Equivalence may need both containment checks.
    { name: 'sets.equivalent', overloads: [setsOverload('list_sets_equivalent_list', setsEquivalent, 2)] },
    { name: 'sets.intersects', overloads: [setsOverload('list_sets_intersects_list', setsIntersects, 1)] },
  ],
};
