// addedFields, the one-pass walk a create's managed fields are made by, against what it stands for:
// compare(schema, root, undefined, value).added, over the objects of structured-merge-diff's cases (valid,
// invalid, with duplicates) and random values of their schemas and of deduced ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { addedFields, compare } from '../../src/smd/compare.js';
import { COMMON_TYPES, MergeSchema, UNTYPED_DEDUCED, type TypeRef } from '../../src/smd/schema.js';
import { SYMDIFF_CASES } from './symdiff-cases.js';
import { TOSET_CASES } from './toset-cases.js';
import { VALIDATE_CASES } from './validate-cases.js';
import { prng as rng } from '../storage/helpers.js';

function same(schema: MergeSchema, root: TypeRef, value: unknown, what: string): void {
  const want = compare(schema, root, undefined, value).added;
  const got = addedFields(schema, root, value);
  assert.ok(got.equals(want), `${what}\nwant:\n${want}\ngot:\n${got}`);
}

/** YAML flow text as the cases hold it (a few have a brace too many or too few, which go-yaml tolerates). */
function load(text: string): unknown {
  const open = [...text].filter((c) => c === '{').length;
  const close = [...text].filter((c) => c === '}').length;
  const fixed = close > open ? text.slice(0, text.length - (close - open)) : text + '}'.repeat(open - close);
  return parse(fixed, { version: '1.1' });
}

const cases = [
  ...SYMDIFF_CASES.map((c) => ({ name: c.name, root: c.root, schema: c.schema, objects: c.quints.flatMap(([l, r]) => [l, r]) })),
  ...TOSET_CASES.map((c) => ({ name: c.name, root: c.root, schema: c.schema, objects: c.pairs.map(([o]) => o) })),
  ...VALIDATE_CASES.map((c) => ({ name: c.name, root: c.root, schema: c.schema, objects: [...c.valid, ...c.invalid, ...c.duplicates] })),
];


/** Random JSON with keys drawn from `names` (the schema's field and key names, so that typed paths are hit). */
function randomValue(next: () => number, names: readonly string[], depth: number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const r = next();
  if (depth <= 0 || r < 0.35) return pick<unknown>([null, true, false, 0, 1, 2.5, -3, 'a', 'b', '', 'x']);
  if (r < 0.6) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, names, depth - 1));
  const o: Record<string, unknown> = {};
  const n = Math.floor(next() * 5);
  for (let i = 0; i < n; i++) o[next() < 0.8 ? pick(names) : `k${Math.floor(next() * 3)}`] = randomValue(next, names, depth - 1);
  return o;
}

/** Every `name:` and list `keys` entry of a schema's YAML text. */
function namesOf(schemaText: string): string[] {
  const names = new Set<string>(['name', 'key', 'value', 'a', 'b']);
  for (const m of schemaText.matchAll(/name: (\S+)/g)) names.add(m[1]!);
  for (const m of schemaText.matchAll(/- (\w+)\n/g)) names.add(m[1]!);
  return [...names];
}

for (const c of cases) {
  test(`addedFields is compare's added: ${c.name}`, () => {
    const schema = MergeSchema.fromObject(parse(c.schema));
    const root = { namedType: c.root };
    for (const o of c.objects) same(schema, root, load(o), o);
    const next = rng(c.name.length * 7919 + c.objects.length);
    const names = namesOf(c.schema);
    for (let i = 0; i < 300; i++) {
      const v = randomValue(next, names, 5);
      same(schema, root, v, JSON.stringify(v));
    }
  });
}

test('addedFields is compare added: deduced schema, random values', () => {
  const schema = new MergeSchema(COMMON_TYPES);
  const root = { namedType: UNTYPED_DEDUCED };
  const next = rng(42);
  for (let i = 0; i < 2000; i++) {
    const v = randomValue(next, ['a', 'b', 'c', 'metadata', 'spec'], 6);
    same(schema, root, v, JSON.stringify(v));
  }
  same(schema, root, undefined, 'undefined');
  same(schema, { namedType: 'no-such-type' }, { a: 1 }, 'unresolved root');
});
