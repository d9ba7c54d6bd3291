// Prints how many of structured-merge-diff's merge test cases pass, per Go file, as a Markdown table (the
// README's): `node --import tsx test/smd/conformance-summary.ts [--failures]`.
import { casesOf } from './conformance/fixture.js';
import { FILES } from './conformance/index.js';

const showFailures = process.argv.includes('--failures');
const rows: string[] = ['| file | passed / total | known failures | skipped |', '| --- | --- | --- | --- |'];
let passed = 0;
let total = 0;
for (const f of FILES) {
  let p = 0;
  let n = 0;
  const todos: string[] = [];
  for (const c of casesOf(f)) {
    n++;
    try {
      c.run();
      p++;
    } catch (e) {
      if (c.todo) todos.push(c.name);
      if (showFailures) console.error(`FAIL ${f.file} ${c.name}${c.todo ? ` (todo: ${c.todo})` : ''}\n${(e as Error).message}\n`);
    }
  }
  passed += p;
  total += n;
  const skipped = (f.skipped ?? []).map((s) => `${s.name}: ${s.reason}`).join('; ');
  rows.push(`| ${f.file} | ${p} / ${n} | ${todos.length} | ${skipped || '–'} |`);
}
rows.push(`| **all** | **${passed} / ${total}** | | |`);
console.log(rows.join('\n'));
