// structured-merge-diff's merge tests (merge/*_test.go, v4.6.0) run over our merge engine: one test per Go
// file, one subtest per case. Known failures are todos (they run, and do not fail the suite).
import { test } from 'node:test';
import { casesOf } from './conformance/fixture.js';
import { FILES } from './conformance/index.js';

for (const f of FILES) {
  test(f.file, async (t) => {
    for (const c of casesOf(f)) await t.test(c.name, c.todo ? { todo: c.todo } : {}, c.run);
    for (const s of f.skipped ?? []) await t.test(s.name, { skip: s.reason }, () => {});
  });
}
