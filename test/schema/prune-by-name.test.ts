// Pruning reads the properties of small nodes by name (prune.ts) instead of dispatching on every key
// of the object. Both ways must leave the same object behind and report the same unknown fields,
// coerced metadata fields and error: checked here on random schemas and objects (nulls, unknown
// fields, wrong types, embedded resources with bad metadata, property names from Object.prototype)
// and on the shared corpus's objects, each run through both generated pruners.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { type StructuralNode, toStructural } from '../../src/schema/compile-structural.js';
import { PruneState, compilePrune } from '../../src/schema/prune.js';
import type { JSONSchemaProps } from '../../src/schema/value-validate.js';
import { CORPUS, projectKinds, projects, readObjects } from './corpus-harness.js';
import { prng as rng } from '../prng.js';

type JSONObject = Record<string, unknown>;


type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** Sets an own property, "__proto__" included. */
function put(o: JSONObject, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

const NAMES = ['a', 'b', 'c', 'd', 'spec', 'items', 'apiVersion', 'kind', 'metadata', '__proto__', 'constructor', 'toString'];
const EXTRA = ['x', 'y', 'unknown', 'apiVersion', 'kind', 'metadata', '__proto__', 'hasOwnProperty'];

function randomSchema(r: Rand, depth: number): JSONSchemaProps {
  const s: JSONSchemaProps = {};
  if (r() < 0.3) s.nullable = true;
  const shape = depth <= 0 ? 'leaf' : pick(r, ['object', 'object', 'object', 'map', 'array', 'leaf', 'preserve']);
  switch (shape) {
    case 'leaf':
      s.type = pick(r, ['string', 'integer', 'boolean']);
      if (r() < 0.2) s.default = s.type === 'string' ? 'x' : s.type === 'integer' ? 1 : true;
      return s;
    case 'map':
      s.type = 'object';
      s.additionalProperties = r() < 0.2 ? true : randomSchema(r, depth - 1);
      break;
    case 'array':
      s.type = 'array';
      s.items = randomSchema(r, depth - 1);
      return s;
    default: {
      s.type = 'object';
      if (shape === 'preserve' || r() < 0.1) s['x-kubernetes-preserve-unknown-fields'] = true;
      if (r() < 0.15) s['x-kubernetes-embedded-resource'] = true;
      // Up to 12 properties: beyond 8 a node dispatches on its keys (a table) whatever the mode.
      const n = Math.floor(r() * (r() < 0.2 ? 13 : 5));
      const props: JSONObject = {};
      for (let i = 0; i < n; i++) put(props, r() < 0.7 ? pick(r, NAMES) : `p${i}`, randomSchema(r, depth - 1));
      if (n > 0) s.properties = props;
      if (r() < 0.1) s.additionalProperties = randomSchema(r, depth - 1);
    }
  }
  if (r() < 0.15) s.default = { a: 1, unknown: { b: null } };
  return s;
}

function shuffle<T>(r: Rand, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

function randomScalar(r: Rand): unknown {
  return pick(r, ['s', '', 7, 1.5, true, false]);
}

function randomMetadata(r: Rand): unknown {
  switch (Math.floor(r() * 5)) {
    case 0:
      return { name: 'n', namespace: 'ns' };
    case 1:
      return { name: 'n', bogus: 1, labels: { a: 'b' } };
    case 2:
      return { name: 5 };
    case 3:
      return 'not an object';
    default:
      return { generateName: 'g', creationTimestamp: null, annotations: { x: 'y' } };
  }
}

function randomValue(r: Rand, s: JSONSchemaProps | undefined, depth: number): unknown {
  const roll = r();
  if (roll < 0.1) return null;
  if (roll < 0.17) return randomScalar(r);
  if (roll < 0.22 && depth > 0) return { stray: randomValue(r, undefined, depth - 1), n: null };
  if (roll < 0.25 && depth > 0) return [randomValue(r, undefined, depth - 1), null];
  if (s === undefined || depth <= 0) return randomScalar(r);
  if (s.type === 'array') return Array.from({ length: Math.floor(r() * 3) }, () => randomValue(r, s.items as JSONSchemaProps, depth - 1));
  if (s.type !== 'object') return randomScalar(r);
  const o: JSONObject = {};
  // In random order: where properties are visited by name, schema order must not show.
  for (const [k, p] of shuffle(r, Object.entries((s.properties ?? {}) as Record<string, JSONSchemaProps>))) {
    if (r() < 0.6) put(o, k, randomValue(r, p, depth - 1));
  }
  const ap = s.additionalProperties;
  if (ap !== undefined) for (let i = 0; i < Math.floor(r() * 3); i++) put(o, `m${i}`, randomValue(r, typeof ap === 'object' ? (ap as JSONSchemaProps) : undefined, depth - 1));
  if (r() < 0.4) put(o, pick(r, EXTRA), randomValue(r, undefined, depth - 1));
  if (r() < 0.3) {
    put(o, 'apiVersion', r() < 0.7 ? 'v1' : 3);
    put(o, 'kind', r() < 0.7 ? 'Thing' : null);
    put(o, 'metadata', randomMetadata(r));
  }
  return o;
}

interface Outcome {
  json: string;
  pruned: string[];
  coerced: string[];
  error: unknown;
}

/** Prunes a copy of value; JSON text keeps "__proto__" keys and key order. */
function run(prune: ReturnType<typeof compilePrune>, value: unknown, opts: [boolean, boolean, boolean]): Outcome {
  const v = value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
  const st = new PruneState();
  st.reset(true, ...opts);
  prune(v, st);
  return { json: JSON.stringify(v), pruned: [...st.pruned!].sort(), coerced: [...st.coerced!].sort(), error: st.error };
}

type Pair = [byName: ReturnType<typeof compilePrune>, byKey: ReturnType<typeof compilePrune>];
const pair = (s: StructuralNode, root: boolean): Pair => [compilePrune(s, root, true), compilePrune(s, root, false)];

function assertSame([byName, byKey]: Pair, value: unknown, opts: [boolean, boolean, boolean], label: string): void {
  assert.deepStrictEqual(run(byName, value, opts), run(byKey, value, opts), label);
}

const OPTIONS: Array<[dropInvalidMetadata: boolean, nulls: boolean, coerceMetadata: boolean]> = [
  [false, true, true],
  [true, true, true],
  [false, false, false],
];

test('pruning by name and by key agree on random schemas and objects', () => {
  let compared = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const r = rng(seed);
    const schema = randomSchema(r, 4);
    schema.type = 'object';
    const s = toStructural(schema);
    const pairs = [pair(s, true), pair(s, false)];
    for (let i = 0; i < 10; i++) {
      const value = randomValue(r, schema, 5);
      for (const [j, root] of [true, false].entries()) {
        for (const opts of OPTIONS) {
          assertSame(pairs[j]!, value, opts, `seed ${seed}, object ${i}, root ${root}, options ${JSON.stringify(opts)}`);
          compared++;
        }
      }
    }
  }
  assert.ok(compared >= 20000);
});

test('pruning by name and by key agree on the corpus objects, with unknown fields and nulls added', () => {
  let compared = 0;
  const r = rng(42);
  for (const p of projects()) {
    const kinds = projectKinds(p);
    const pruners = new Map<string, Pair>();
    for (const dir of ['valid', 'invalid']) {
      let files: string[] = [];
      try {
        files = readdirSync(`${CORPUS}/${p}/${dir}`).filter((f) => f.endsWith('.yaml'));
      } catch {
        continue;
      }
      for (const f of files) {
        for (const obj of readObjects(`${CORPUS}/${p}/${dir}/${f}`)) {
          const key = `${String(obj.apiVersion)}/${String(obj.kind)}`;
          const k = kinds.get(key);
          if (k === undefined) continue;
          let fns = pruners.get(key);
          if (fns === undefined) pruners.set(key, (fns = pair(toStructural(k.schema), true)));
          assertSame(fns, obj, OPTIONS[0]!, `${p}/${dir}/${f}`);
          assertSame(fns, withNoise(r, obj), OPTIONS[0]!, `${p}/${dir}/${f} with noise`);
          compared++;
        }
      }
    }
  }
  assert.ok(compared > 1000, `only ${compared} corpus objects compared`);
});

/** A copy of obj with, in some of its objects, an unknown field added and a field set to null. */
function withNoise(r: Rand, v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => withNoise(r, x));
  if (v === null || typeof v !== 'object') return v;
  const o: JSONObject = {};
  for (const [k, x] of Object.entries(v)) put(o, k, r() < 0.1 ? null : withNoise(r, x));
  if (r() < 0.3) put(o, pick(r, EXTRA), { z: 1 });
  return o;
}
