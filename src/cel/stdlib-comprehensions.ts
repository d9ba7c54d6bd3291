// Two-variable comprehensions (cel-go ext/comprehensions.go, enabled by Kubernetes 1.32+): the
// macros live in the parser; their expansion of transformMap and transformMapEntry calls
// `cel.@mapInsert`, declared and implemented here. Environments that accept these macros (Kubernetes
// 1.32+) need COMPREHENSIONS_LIBRARY next to the standard library.

import type { FunctionDecl, Library } from './decls.js';
import { selfChecking } from './interpreter-nodes.js';
import { mapOf, typeParam } from './types.js';
import { insertMapKeyValue, maybeNoSuchOverload } from './value-ops.js';
import { CelError, CelMap, CelObject } from './values.js';
import type { Val } from './values.js';

const K = typeParam('K');
const V = typeParam('V');
const MAP_KV = mapOf(K, V);

const isMap = (v: Val): v is CelMap | CelObject => v instanceof CelMap || v instanceof CelObject;

const MAP_INSERT_FUNCTION: FunctionDecl = {
  name: 'cel.@mapInsert',
  overloads: [
    {
      id: '@mapInsert_map_key_value',
      params: [MAP_KV, K, V],
      result: MAP_KV,
      impl: ([m, k, v]) => (isMap(m!) ? insertMapKeyValue(m, k!, v!) : maybeNoSuchOverload(m!)),
    },
    {
      id: '@mapInsert_map_map',
      params: [MAP_KV, MAP_KV],
      result: MAP_KV,
      impl: ([target, update]) => {
        if (!isMap(target!)) return maybeNoSuchOverload(target!);
        if (!(update instanceof CelMap)) return maybeNoSuchOverload(update!);
        let acc: Val = target;
        for (const k of update.keys()) {
          acc = insertMapKeyValue(acc as CelMap, k, update.get(k)!);
          if (acc instanceof CelError) return acc;
        }
        return acc;
      },
    },
  ],
};

export const COMPREHENSIONS_LIBRARY: Library = selfChecking({ name: 'cel.lib.ext.comprev2', functions: [MAP_INSERT_FUNCTION] });
