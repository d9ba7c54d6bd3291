// Counting the work of each CEL compilation phase without timing it: the AST and plan nodes are
// wrapped in proxies that count reads of their discriminant (`kind` of AST nodes, `k` of plan
// nodes), which every phase reads each time it visits a node.
import { parse } from '../../src/cel/parser.js';
import { check } from '../../src/cel/checker.js';
import { estimateCost } from '../../src/cel/cost-estimator.js';
import { Planner } from '../../src/cel/interpreter.js';
import { compile } from '../../src/cel/interpreter-eval.js';
import type { CheckedAst, ParsedAst } from '../../src/cel/ast.js';
import type { Env } from '../../src/cel/env.js';
import { isIssues } from '../../src/cel/issues.js';
import { KUBERNETES_MACROS } from '../../src/cel/macros.js';

export interface Work { check: number; cost: number; plan: number; compile: number }

/** One nesting level around `inner` (a bool), with its own variable names `x<i>`, `i<i>`. */
export type Shape = (i: number, inner: string) => string;

/** Every comprehension macro of Kubernetes' environment, each wrapped to stay a bool. */
export const SHAPES: Record<string, Shape> = {
  all: (i, e) => `[1].all(x${i}, ${e})`,
  exists: (i, e) => `[1].exists(x${i}, ${e})`,
  exists_one: (i, e) => `[1].exists_one(x${i}, ${e})`,
  filter: (i, e) => `[1].filter(x${i}, ${e}).size() == 1`,
  map: (i, e) => `[1].map(x${i}, ${e})[0]`,
  mapFilter: (i, e) => `[1].map(x${i}, true, ${e})[0]`,
  allMap: (i, e) => `{'a': 1}.all(x${i}, ${e})`,
  all2: (i, e) => `[1].all(i${i}, x${i}, ${e})`,
  exists2: (i, e) => `{'a': 1}.exists(i${i}, x${i}, ${e})`,
  existsOne2: (i, e) => `[1].existsOne(i${i}, x${i}, ${e})`,
  transformList: (i, e) => `[1].transformList(i${i}, x${i}, ${e})[0]`,
  transformMap: (i, e) => `{'a': 1}.transformMap(i${i}, x${i}, ${e})['a']`,
};

/** `[1].all(x1, [1].all(x2, ... inner))`, `levels` deep (or another shape). */
export function nested(levels: number, shape: Shape = SHAPES['all']!, inner = 'true'): string {
  let e = inner;
  for (let i = levels; i >= 1; i--) e = shape(i, e);
  return e;
}

/** Plain objects and arrays only: Maps, class instances and frozen values pass through as they are. */
function counting<T>(value: T, key: string, counter: { n: number }, cache = new WeakMap<object, object>()): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype) return value;
  const hit = cache.get(value);
  if (hit) return hit as T;
  const p = new Proxy(value, {
    get(target, prop, receiver) {
      if (prop === key) counter.n++;
      return counting(Reflect.get(target, prop, receiver), key, counter, cache);
    },
  });
  cache.set(value, p);
  return p as T;
}

/** The node visits of checking, cost estimation, planning and compiling one expression. */
export function compileWork(env: Env, source: string): Work {
  const parsed = parse(source, { macros: KUBERNETES_MACROS });
  if (isIssues(parsed)) throw new Error(parsed.issues[0]!.message);
  const c = { n: 0 };
  const checked = check(counting(parsed as ParsedAst, 'kind', c), env);
  if (isIssues(checked)) throw new Error(checked.issues[0]!.message);
  const work: Work = { check: c.n, cost: 0, plan: 0, compile: 0 };
  const plain = checked as CheckedAst;
  c.n = 0;
  estimateCost({ ...plain, expr: counting(plain.expr, 'kind', c) }, env);
  work.cost = c.n;
  c.n = 0;
  const planner = new Planner(plain, env);
  const node = planner.plan(counting(plain.expr, 'kind', c));
  work.plan = c.n;
  c.n = 0;
  compile(counting(node, 'k', c), planner.options);
  work.compile = c.n;
  return work;
}
