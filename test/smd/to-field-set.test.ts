// ToFieldSet over structured-merge-diff's own cases (typed/toset_test.go), their schemas loaded from the
// same YAML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { MergeSchema } from '../../src/smd/schema.js';
import { toFieldSet } from '../../src/smd/to-field-set.js';
import { P, S } from './helpers.js';
import { TOSET_CASES } from './toset-cases.js';

for (const c of TOSET_CASES) {
  test(`ToFieldSet: ${c.name}`, () => {
    const schema = MergeSchema.fromObject(parse(c.schema));
    for (const [object, paths] of c.pairs) {
      const want = S(...paths.map((parts) => P(...parts)));
      const got = toFieldSet(schema, { namedType: c.root }, JSON.parse(object));
      assert.ok(got.equals(want), `${object}\nwant:\n${want}\ngot:\n${got}`);
    }
  });
}

test('ToFieldSet: the cases are all there', () => {
  assert.deepEqual(
    TOSET_CASES.map((c) => [c.name, c.pairs.length]),
    [
      ['simple pair', 5],
      ['struct grab bag', 19],
      ['associative list', 5],
    ],
  );
});
