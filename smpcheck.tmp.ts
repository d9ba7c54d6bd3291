import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { applyStrategicMergePatch, type PatchMetaType } from './src/registry/strategic-merge-patch.ts';
import { goJsonMarshal } from './src/registry/go-json.ts';
import { StatusError } from './src/api/status.ts';

const src = readFileSync('/tmp/smpcheck/patch_test.go', 'utf8');
const str: PatchMetaType = { kind: 'scalar', name: 'string' };
const int: PatchMetaType = { kind: 'scalar', name: 'int' };
const mergeItem: PatchMetaType = { kind: 'struct', name: 'MergeItem', fields: {} };
const retain: PatchMetaType = { kind: 'struct', name: 'RetainKeysMergeItem', fields: {} };
Object.assign((mergeItem as any).fields, {
  name: { type: str }, value: { type: str }, other: { type: str },
  mergingList: { type: { kind: 'slice', elem: mergeItem }, patchStrategy: 'merge', patchMergeKey: 'name' },
  nonMergingList: { type: { kind: 'slice', elem: mergeItem } },
  mergingIntList: { type: { kind: 'slice', elem: int }, patchStrategy: 'merge' },
  nonMergingIntList: { type: { kind: 'slice', elem: int } },
  mergeItemPtr: { type: { kind: 'pointer', elem: mergeItem }, patchStrategy: 'merge', patchMergeKey: 'name' },
  simpleMap: { type: { kind: 'map', elem: str } },
  replacingItem: { type: { kind: 'struct', name: 'RawExtension', fields: {} }, patchStrategy: 'replace' },
  retainKeysMap: { type: retain, patchStrategy: 'retainKeys' },
  retainKeysMergingList: { type: { kind: 'slice', elem: mergeItem }, patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' },
});
Object.assign((retain as any).fields, {
  name: { type: str }, value: { type: str }, other: { type: str },
  simpleMap: { type: { kind: 'map', elem: str } },
  mergingIntList: { type: { kind: 'slice', elem: int }, patchStrategy: 'merge' },
  mergingList: { type: { kind: 'slice', elem: mergeItem }, patchStrategy: 'merge', patchMergeKey: 'name' },
  nonMergingList: { type: { kind: 'slice', elem: mergeItem } },
});

function cases(varName: string) {
  const start = src.indexOf(`var ${varName} = []StrategicMergePatchRawTestCase{`);
  let depth = 0, i = src.indexOf('{', start), end = i;
  for (; end < src.length; end++) { const c = src[end]; if (c === '`') { end = src.indexOf('`', end + 1); continue; } if (c === '{') depth++; if (c === '}') { depth--; if (depth === 0) break; } }
  const body = src.slice(i + 1, end);
  const out: any[] = [];
  const re = /Description:\s*"((?:[^"\\]|\\.)*)"([\s\S]*?)(?=Description:|$)/g;
  let m;
  while ((m = re.exec(body))) {
    const fields: any = { desc: m[1] };
    for (const f of ['Original', 'TwoWay', 'Modified', 'TwoWayResult']) {
      const fm = new RegExp(`\\b${f}:\\s*\\[\\]byte\\(\`([\\s\\S]*?)\`\\)`).exec(m[2]);
      if (fm) fields[f] = fm[1];
    }
    const em = /ExpectedError:\s*"((?:[^"\\]|\\.)*)"/.exec(m[2]);
    if (em) fields.err = em[1];
    out.push(fields);
  }
  return out;
}
let pass = 0, fail = 0;
for (const v of ['customStrategicMergePatchRawTestCases', 'strategicMergePatchRawTestCases']) {
  for (const c of cases(v)) {
    if (c.Original === undefined || c.TwoWay === undefined) { continue; }
    const orig = parse(c.Original) ?? {};
    const patch = parse(c.TwoWay) ?? {};
    const expectedY = c.TwoWayResult ?? c.Modified;
    const res = applyStrategicMergePatch(orig, patch, mergeItem);
    if (c.err) {
      if (res instanceof StatusError && res.message.includes(c.err)) pass++;
      else { fail++; console.log('FAIL(err)', v, c.desc, res instanceof StatusError ? res.message : JSON.stringify(res)); }
      continue;
    }
    if (expectedY === undefined) continue;
    const expected = parse(expectedY) ?? {};
    if (res instanceof StatusError) { fail++; console.log('FAIL(unexpected err)', c.desc, res.message); continue; }
    if (goJsonMarshal(res) === goJsonMarshal(expected)) pass++;
    else { fail++; console.log('FAIL', v, c.desc, '\n got', goJsonMarshal(res), '\n exp', goJsonMarshal(expected)); }
  }
}
console.log({ pass, fail });
{
  const start = src.indexOf('var createStrategicMergePatchTestCaseData = []byte(`');
  const text = src.slice(start + 'var createStrategicMergePatchTestCaseData = []byte(`'.length, src.indexOf('`)', start));
  const tc = parse(text);
  const canon = (v: any): any => Array.isArray(v) ? v.map(canon).sort((a, b) => goJsonMarshal(a) < goJsonMarshal(b) ? -1 : 1) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, canon(x)])) : v;
  let p = 0, f = 0;
  for (const c of tc.testCases) {
    if (!c.original || !c.twoWay) continue;
    const res = applyStrategicMergePatch(c.original, c.twoWay, mergeItem);
    const exp = c.twoWayResult ?? c.modified;
    if (!(res instanceof StatusError) && goJsonMarshal(canon(res)) === goJsonMarshal(canon(exp))) p++;
    else { f++; console.log('YAMLFAIL', c.description, res instanceof StatusError ? res.message : goJsonMarshal(res), goJsonMarshal(exp)); }
  }
  console.log({ yamlPass: p, yamlFail: f });
}
