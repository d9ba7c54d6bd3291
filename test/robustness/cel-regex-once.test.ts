// A constant pattern compiles once per process: the checker's regex validator, the planner's
// OptimizeRegex and the runtime share one cache (a pattern near RE2's size limit takes seconds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RE2JS } from 're2js';
import { compile } from '../../src/cel/compile.js';
import { plan } from '../../src/cel/program.js';
import { KUBERNETES_MACROS } from '../../src/cel/macros.js';
import { newExpressionsEnv } from '../../src/crd/cel-env.js';
import { STRING } from '../../src/cel/types.js';

test('matches, find and findAll compile a constant pattern once for checking, planning and evaluation', (t) => {
  const env = newExpressionsEnv().withVariables([{ name: 's', type: STRING }]);
  const patterns: string[] = [];
  const original = RE2JS.compile.bind(RE2JS);
  t.mock.method(RE2JS, 'compile', (p: string, ...rest: unknown[]) => {
    patterns.push(p);
    return (original as (...a: unknown[]) => RE2JS)(p, ...rest);
  });
  const unique = `^x${process.hrtime.bigint()}[a-z]+$`;
  const source = `s.matches('${unique}') && s.find('${unique}') == s && s.findAll('${unique}').size() == 1`;
  const r = compile(env, source, { parse: { macros: KUBERNETES_MACROS } });
  assert.ok(!('issues' in r));
  const p = plan(r.ast, env);
  assert.equal(p.eval({ s: unique.slice(1, -7) + 'abc' }).value, true);
  assert.deepEqual(patterns.filter((x) => x === unique), [unique]);
});
