// The non-integer and beyond-int64 number literals of a JSON body by path, as Go's decoder names them in its
// errors: strings (escaped quotes and backslashes, digits followed by a point in descriptions) are skipped,
// escaped keys are read as keys, and paths are made only for the literals found.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { nonIntegerNumberLiterals, numberLiteralsByPath } from '../../src/util/json-number-literals.js';

const found = (text: string) => Object.fromEntries(nonIntegerNumberLiterals(text) ?? []);

it('names each literal by its path; integers within int64 and text in strings are not literals', () => {
  const body = JSON.stringify({
    metadata: { name: 'v1.2', annotations: { 'a.b/c': 'version 3.5 of "x\\" 4.5' } },
    spec: { versions: [{ name: 'v1', maxLength: 5 }, { name: 'v2', maxLength: 1.5, items: [1, 2.25, [3e3, 3.5]] }], replicas: 7 },
  });
  assert.deepEqual(found(body), { 'spec.versions[1].maxLength': '1.5', 'spec.versions[1].items[1]': '2.25', 'spec.versions[1].items[2][1]': '3.5' });
  assert.deepEqual(found('{"a":{"b":[0,1e5,-2E-3]},"c":9223372036854775808,"d":9223372036854775807}'), { 'a.b[1]': '1e5', 'a.b[2]': '-2E-3', c: '9223372036854775808' });
  assert.deepEqual(found('[1.0,{"x":[{"y":2.0}]}]'), { '[0]': '1.0', '[1].x[0].y': '2.0' });
});

it('reads escaped keys as keys, and strings ending in backslashes as strings', () => {
  assert.deepEqual(found('{"k\\"q":1.5,"x\\\\":{"z":2.5},"s":"\\\\","t":3.5}'), { 'k"q': '1.5', 'x\\.z': '2.5', t: '3.5' });
  assert.deepEqual(found('{"\\u0041b":4.5}'), { Ab: '4.5' });
});

it('none: undefined, also when a description has a digit before a point', () => {
  assert.equal(nonIntegerNumberLiterals('{"description":"RFC 3339. See v1.2 and 2e5.","n":1}'), undefined);
  assert.equal(nonIntegerNumberLiterals('{"n":12}'), undefined);
});

it('the quick checks answer as the scan with paths: on every corpus CRD, and with literals put into them', async () => {
  const { readdirSync, readFileSync, existsSync } = await import('node:fs');
  const { parseAllDocuments } = await import('yaml');
  const { CORPUS } = await import('../shared-paths.js');
  const texts: string[] = [];
  for (const p of readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const dir = `${CORPUS}/${p.name}/crds`;
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))) {
      for (const doc of parseAllDocuments(readFileSync(`${dir}/${f}`, 'utf8'))) texts.push(JSON.stringify(doc.toJS()));
    }
  }
  assert.ok(texts.length > 100);
  const variants = (t: string): string[] => [
    t,
    t.replace('"type":"object"', '"type":"object","maxLength":2.5'),
    t.replace('"type":"object"', '"type":"object","maxLength":9223372036854775808'),
    t.replace('"type":"object"', '"type":"object","maxLength":9223372036854775807'),
    t.replace('"type":"object"', '"type":"object","x":[1,-2E3]'),
    t.replace('"type":"object"', '"type":"object","x":"1.5\\"","y":7'),
  ];
  for (const t of texts.flatMap(variants)) assert.deepEqual(nonIntegerNumberLiterals(t), numberLiteralsByPath(t));
  assert.ok(texts.some((t) => /[0-9][.eE]/.test(t) && nonIntegerNumberLiterals(t) === undefined), 'descriptions with "1.2" need no scan with paths');
});
