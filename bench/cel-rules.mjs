// Per-rule breakdown of the CEL figure (ours vs @marcbachmann/cel-js), for profiling: `npm run build && node bench/cel-rules.mjs`.
// The rule and object definitions are those of bench/cel.mjs.
import { Environment } from '@marcbachmann/cel-js';
import { compile } from '../dist/cel/compile.js';
import { plan } from '../dist/cel/program.js';
import { jsonToVal } from '../dist/cel/json-values.js';
import { storedExpressionsEnv } from '../dist/crd/cel-env.js';
import { RULES, SPEC, SPEC_TYPE } from './cel-fixtures.mjs';
const env = storedExpressionsEnv().withVariables([{ name: 'self', type: SPEC_TYPE }]);
const cenv = new Environment({ unlistedVariablesAreDyn: true });
function rate(f){ for(let i=0;i<20000;i++) f(); const t=performance.now(); let n=0; while(performance.now()-t<300){ for(let i=0;i<500;i++) f(); n+=500;} return n/((performance.now()-t)/1000); }
for (const [rule, alt] of RULES) {
  const r = compile(env, rule); const p = plan(r.ast, env);
  const c = cenv.parse(alt ?? rule);
  const o = rate(() => p.eval({ self: jsonToVal(SPEC, SPEC_TYPE) }, { costLimit: 1e6 }));
  const cj = rate(() => c({ self: SPEC }));
  console.log((o/cj).toFixed(2), Math.round(o), Math.round(cj), rule);
}
