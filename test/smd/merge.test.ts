// Merge over structured-merge-diff's own cases (typed/merge_test.go): the right-hand side applied onto the
// left-hand side, lists merged in its order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { MergeSchema } from '../../src/smd/schema.js';
import { merge } from '../../src/smd/merge.js';
import { valuesEqual } from '../../src/smd/value-order.js';
import { MERGE_CASES } from './merge-cases.js';

for (const c of MERGE_CASES) {
  test(`Merge: ${c.name}`, () => {
    const schema = MergeSchema.fromObject(parse(c.schema));
    for (const [lhs, rhs, out] of c.triplets) {
      const got = merge(schema, { namedType: c.root }, parse(lhs), parse(rhs)) ?? null;
      assert.ok(valuesEqual(got, parse(out)), `${lhs} + ${rhs}\nwant: ${out}\ngot:  ${JSON.stringify(got)}`);
    }
  });
}

test('Merge: every case of merge_test.go is here', () => {
  assert.equal(MERGE_CASES.reduce((n, c) => n + c.triplets.length, 0), 57);
});
