// Compare over structured-merge-diff's own cases (typed/symdiff_test.go), checked both ways as it checks
// them: removed and added swap, modified stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { MergeSchema } from '../../src/smd/schema.js';
import { compare, excludeFields } from '../../src/smd/compare.js';
import type { FieldSet } from '../../src/smd/set.js';
import { P, S, type Part } from './helpers.js';
import { SYMDIFF_CASES } from './symdiff-cases.js';
import { deepEqual, isObject } from '../../src/util/json.js';

/**
 * The cases' objects, read as go-yaml reads them: a few of them have one closing brace too many or too few,
 * which go-yaml tolerates at the end of a flow mapping; balance them before parsing.
 */
function load(text: string): unknown {
  const open = [...text].filter((c) => c === '{').length;
  const close = [...text].filter((c) => c === '}').length;
  const fixed = close > open ? text.slice(0, text.length - (close - open)) : text + '}'.repeat(open - close);
  return parse(fixed);
}

const set = (paths: Part[][]): FieldSet => S(...paths.map((parts) => P(...parts)));
const check = (what: string, got: FieldSet, want: FieldSet): void => assert.ok(got.equals(want), `${what}\nwant:\n${want}\ngot:\n${got}`);

for (const c of SYMDIFF_CASES) {
  test(`Compare: ${c.name}`, () => {
    const schema = MergeSchema.fromObject(parse(c.schema));
    const root = { namedType: c.root };
    for (const [lhs, rhs, removed, modified, added] of c.quints) {
      const l = load(lhs);
      const r = load(rhs);
      const got = compare(schema, root, l, r);
      const at = `${lhs} -> ${rhs}`;
      check(`${at}: added`, got.added, set(added));
      check(`${at}: modified`, got.modified, set(modified));
      check(`${at}: removed`, got.removed, set(removed));
      const back = compare(schema, root, r, l);
      check(`${at} (reverse): modified`, back.modified, got.modified);
      check(`${at} (reverse): removed`, back.removed, got.added);
      check(`${at} (reverse): added`, back.added, got.removed);
    }
  });
}

test('Compare: every case of symdiff_test.go is here', () => {
  assert.equal(SYMDIFF_CASES.reduce((n, c) => n + c.quints.length, 0), 84);
});

test('ExcludeFields removes whole subtrees (TestComparisonExcludeFields)', () => {
  const c = { added: S(P('a', 'aa')), modified: S(P('b', 'ba')), removed: S(P('c', 'ca')) };
  assert.equal(excludeFields(c, undefined), c);
  assert.equal(excludeFields(c, S()), c);
  const out = excludeFields(c, S(P('a'), P('b'), P('c')));
  assert.ok(out.added.empty() && out.modified.empty() && out.removed.empty());
});

/** r with every subtree deep-equal to l's at the same place replaced by l's own (the same reference). */
function sharing(l: unknown, r: unknown): unknown {
  if (deepEqual(l, r)) return l;
  if (Array.isArray(l) && Array.isArray(r)) return r.map((v, i) => (i < l.length ? sharing(l[i], v) : v));
  if (isObject(l) && isObject(r)) return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k in l ? sharing(l[k], v) : v]));
  return r;
}

test('Compare: a value shared by both sides compares as its deep copy does (one reference: no differences)', () => {
  for (const c of SYMDIFF_CASES) {
    const schema = MergeSchema.fromObject(parse(c.schema));
    const root = { namedType: c.root };
    for (const [lhs, rhs] of c.quints) {
      const l = load(lhs);
      for (const r of [load(rhs), structuredClone(l)]) {
        const want = compare(schema, root, l, r);
        const got = compare(schema, root, l, sharing(l, r));
        const at = `${c.name}: ${lhs} -> ${JSON.stringify(r)}`;
        check(`${at}: added`, got.added, want.added);
        check(`${at}: modified`, got.modified, want.modified);
        check(`${at}: removed`, got.removed, want.removed);
      }
    }
  }
});
