// The CEL figure, in a process of its own: evaluations per second of the seed's validation rules
// ("Validation Rules Examples" table) on one object, ours against @marcbachmann/cel-js (the fastest
// CEL on npm) and against the same checks written as plain JavaScript functions, in the same run.
// Ours runs the way a custom-resource write runs it: the JSON is wrapped by jsonToVal for the rule's
// declared type, then the compiled program is evaluated with cost tracking on. cel-js gets the plain
// JSON (its native input) with explicit timestamp()/duration() where Kubernetes declares those
// types. Receives { seconds, runs }, replies with the figures, then exits on 'close'.
import { Environment } from '@marcbachmann/cel-js';
import { compile } from '../dist/cel/compile.js';
import { plan } from '../dist/cel/program.js';
import { jsonToVal } from '../dist/cel/json-values.js';
import { storedExpressionsEnv } from '../dist/crd/cel-env.js';
import { RULES, SPEC, SPEC_TYPE } from './cel-fixtures.mjs';

process.on('disconnect', () => process.exit(1));


const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Evaluations per second of fn (one evaluation of every rule counts as RULES.length evaluations). */
function rate(fn, seconds) {
  let n = 0;
  const end = performance.now() + seconds * 1000;
  let t0 = performance.now();
  let t1 = t0;
  while (t1 < end) {
    for (let i = 0; i < 200; i++) fn();
    n += 200;
    t1 = performance.now();
  }
  return (n * RULES.length) / ((t1 - t0) / 1000);
}

function ours() {
  const env = storedExpressionsEnv().withVariables([{ name: 'self', type: SPEC_TYPE }]);
  const programs = RULES.map(([rule]) => {
    const r = compile(env, rule);
    if ('issues' in r) throw new Error(`${rule}: ${JSON.stringify(r.issues)}`);
    return plan(r.ast, env);
  });
  const opts = { costLimit: 1_000_000 };
  return () => {
    const self = jsonToVal(SPEC, SPEC_TYPE);
    let ok = true;
    for (const p of programs) ok = p.eval({ self }, opts).value === true && ok;
    return ok;
  };
}

function celJs() {
  const env = new Environment({ unlistedVariablesAreDyn: true });
  const fns = RULES.map(([rule, alt]) => env.parse(alt ?? rule));
  return () => {
    const ctx = { self: SPEC };
    let ok = true;
    for (const f of fns) ok = f(ctx) === true && ok;
    return ok;
  };
}

function plain() {
  const fns = RULES.map(([, , f]) => f);
  return () => {
    let ok = true;
    for (const f of fns) ok = f(SPEC) === true && ok;
    return ok;
  };
}

process.once('message', ({ seconds = 1, runs = 3 }) => {
  try {
    const impls = { ours: ours(), celjs: celJs(), plain: plain() };
    for (const [name, f] of Object.entries(impls)) if (f() !== true) throw new Error(`${name}: a rule did not evaluate to true`);
    for (const f of Object.values(impls)) rate(f, seconds); // warm-up
    const r = { ours: [], celjs: [], plain: [], vsCelJs: [], vsPlain: [], rules: RULES.length };
    for (let i = 0; i < runs; i++) {
      const o = rate(impls.ours, seconds);
      const c = rate(impls.celjs, seconds);
      const p = rate(impls.plain, seconds);
      r.ours.push(o); r.celjs.push(c); r.plain.push(p);
      r.vsCelJs.push(o / c); r.vsPlain.push(o / p);
    }
    process.send({ ...r, oursMedian: median(r.ours), celjsMedian: median(r.celjs), plainMedian: median(r.plain), ratioCelJs: median(r.vsCelJs), ratioPlain: median(r.vsPlain) });
  } catch (err) {
    process.send({ error: String(err?.stack ?? err) });
  }
});
process.on('message', (m) => {
  if (m === 'close') process.exit(0);
});
