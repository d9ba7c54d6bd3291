// Issue 15: nested comprehensions must compile in time and memory linear in their size. Each
// nesting level used to compile its predicate twice (once for the loop step, once for the all/
// exists fast path), so 22 levels of `[1].all(x, ...)` ran the server out of memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../../src/cel/compile.js';
import { estimateCost } from '../../src/cel/cost-estimator.js';
import { plan } from '../../src/cel/program.js';
import { KUBERNETES_MACROS } from '../../src/cel/macros.js';
import { newExpressionsEnv } from '../../src/crd/cel-env.js';
import { compileWork, nested, SHAPES } from './cel-work.js';

const env = newExpressionsEnv();
const PHASES = ['check', 'cost', 'plan', 'compile'] as const;

for (const [name, shape] of Object.entries(SHAPES)) {
  test(`nested ${name}: every phase visits each node a bounded number of times`, () => {
    // Small depths first: an exponential phase fails here instead of hanging at 40 levels.
    const w4 = compileWork(env, nested(4, shape));
    const w8 = compileWork(env, nested(8, shape));
    const w16 = compileWork(env, nested(16, shape));
    const step = (p: (typeof PHASES)[number]): number => (w8[p] - w4[p]) / 4; // the work one level adds
    for (const p of PHASES) {
      assert.ok(step(p) > 0, `${p}: no work counted`);
      assert.ok(w16[p] - w8[p] <= 8 * step(p) * 1.5, `${p}: ${w4[p]}, ${w8[p]}, ${w16[p]} is not linear`);
    }
    const w40 = compileWork(env, nested(40, shape));
    for (const p of PHASES) assert.ok(w40[p] <= w4[p] + 36 * step(p) * 1.5, `${p}: ${w40[p]} at 40 levels`);
  });
}

test('nested all() and exists() at 20, 30, 40 and 249 levels compile, plan and run quickly', () => {
  const start = Date.now();
  for (const levels of [20, 30, 40, 249]) {
    for (const macro of ['all', 'exists'] as const) {
      const r = compile(env, nested(levels, SHAPES[macro]!), { parse: { macros: KUBERNETES_MACROS } });
      assert.ok(!('issues' in r), `${macro} ${levels}`);
      estimateCost(r.ast, env);
      assert.equal(plan(r.ast, env).eval({}).value, true);
    }
  }
  // Generous: the whole loop takes tens of milliseconds; the exponential compile took hours.
  assert.ok(Date.now() - start < 2000, `${Date.now() - start} ms`);
});

const parseIssue = (source: string): string | undefined => {
  const r = compile(env, source, { parse: { macros: KUBERNETES_MACROS } });
  return 'issues' in r ? r.issues.issues.map((i) => i.message).join('; ') : undefined;
};

test("cel-go's parser limits as Kubernetes leaves them: recursion 250, 100000 code points", () => {
  // Each comprehension level is one nesting of the grammar's expr rule.
  assert.equal(parseIssue(nested(249)), undefined);
  assert.equal(parseIssue(nested(250)), 'expression recursion limit exceeded: 250');
  assert.equal(parseIssue('('.repeat(251) + 'true' + ')'.repeat(251)), 'expression recursion limit exceeded: 250');
  assert.equal(parseIssue('['.repeat(300) + ']'.repeat(300) + ' == []'), 'expression recursion limit exceeded: 250');
  // Left-recursive operators loop in the grammar; the AST visitor bounds their nesting.
  assert.equal(parseIssue(Array(300).fill('1').join(' + ') + ' > 0'), 'max recursion depth exceeded');
  const big = `'${'é'.repeat(99_990)}' != ''`; // code points, not UTF-16 units or bytes
  assert.equal(parseIssue(big), undefined);
  const tooBig = `'${'é'.repeat(99_996)}' != ''`;
  assert.equal(parseIssue(tooBig), 'expression code point size exceeds limit: size: 100004, limit 100000');
});
