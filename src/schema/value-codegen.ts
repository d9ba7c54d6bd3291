// Compiles an openAPIV3Schema into a JavaScript validator (as ajv does): one generated function per
// schema node, with property names, bounds and type decisions written in as constants, built
// with a single `new Function` per schema. Generated code only tests; everything on the error
// path (messages, paths, field errors) and the logical junctors are helpers from
// value-validate.ts. Every string put into the source goes through JSON.stringify; every number
// is a finite JSON number.
//
// A node's declared type gets inline code; a value of another kind takes a slow path: the node's
// complete validator, generated the first time it is needed.
//
// Sibling properties are checked in schema order (in data order for objects with many
// properties). kube's own order is Go map iteration order, i.e. random.
import { effectiveFormat, formatChecker } from './formats.js';
import { goFloat, goJSON } from './value-go.js';
import { type Check, type JSONSchemaProps, SEG_INDEX, SEG_KEY, SEG_RAW, type ValidationState, compilePattern, helpers } from './value-validate.js';
import { CodeGenerator, nameSwitchCode } from './codegen.js';

const isSchema = (v: unknown): v is JSONSchemaProps => typeof v === 'object' && v !== null && !Array.isArray(v);
// A schema's numbers are float64s in Go (JSONSchemaProps): an int64 literal there (a bigint) rounds.
const num = (v: unknown): number | undefined => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const lit = (s: string): string => JSON.stringify(s);
const numLit = (n: number): string => (Object.is(n, -0) ? '0' : String(n));
const join = (parts: string[]): string => parts.filter((p) => p !== '').join('\n');

/** Property names that exist on Object.prototype need an own-property check. */
const PROTO_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype).concat(['__proto__']));

/** Above this many properties, an object's keys drive the walk (a switch on each name). */
const INLINE_PROPERTIES_MAX = 16;

/**
 * What kube would have decoded as an int64 (see value-go.ts): a safe integer number; beyond, integer
 * literals within int64 are bigints (always int64s, validated by bigintBody), integral numbers float64s.
 */
const IS_INT = 'Number.isSafeInteger(v)';

const INT64_MIN = -(2n ** 63n);

/** Go's int64(f) on amd64: truncation toward zero; out of range, the "integer indefinite" value MinInt64. */
const goInt64 = (f: number): bigint => (Math.abs(f) < 2 ** 63 ? BigInt(Math.trunc(f)) : INT64_MIN);

/** One node being generated: the schema and what the generated code needs to know about it. */
class Node {
  readonly fn: string;
  readonly types: string[];
  readonly format: string;
  readonly fmtCheck: ((s: string) => boolean) | undefined;
  readonly typeApplies: boolean;
  readonly typeName: string;
  /** MatchCount contributed by the type, schemaProps and common validators and the final Inc. */
  readonly base: number;
  junctors = '';
  enumGeneric = '';
  enumString = '';
  enumNull = '';

  constructor(
    readonly g: CodeGenerator,
    readonly s: JSONSchemaProps,
    readonly atRoot: boolean,
    readonly counted: boolean,
  ) {
    this.fn = g.name();
    this.types =
      s['x-kubernetes-int-or-string'] === true ? ['integer', 'string'] : typeof s.type === 'string' && s.type !== '' ? [s.type] : [];
    this.format = effectiveFormat(typeof s.format === 'string' ? s.format : undefined);
    this.fmtCheck = this.format ? formatChecker(this.format) : undefined;
    this.typeApplies = this.types.length > 0 || this.format !== '';
    this.typeName = this.types.join(',');
    this.base = (this.typeApplies ? 1 : 0) + 4;
  }

  has(t: string): boolean {
    return this.types.includes(t);
  }

  /** MatchCount bookkeeping, only inside anyOf/oneOf branches where it decides which errors show. */
  mc(n: number): string {
    return this.counted && n > 0 ? `st.mc += ${n};` : '';
  }

  /** typeValidator's verdict for strings and arrays: [typeName, found] when it fails, else null. */
  stringLike(kind: string): [string, string] | null {
    const numeric = this.has('number') || this.has('integer');
    return !this.typeApplies || (this.format !== '' && !numeric) || this.has(kind) ? null : [this.typeName, kind];
  }

  /** typeValidator's verdict for booleans, objects and int64s (a format reports the Go format found). */
  plain(kind: string, goFormat: string, alsoOk = false): [string, string] | null {
    if (!this.typeApplies) return null;
    if (this.format !== '' && !(this.has(kind) || alsoOk)) return [this.format, goFormat];
    return this.has(kind) || alsoOk ? null : [this.typeName, kind];
  }

  typeCheck(fail: [string, string] | null): string {
    return fail ? `H.typeFail(st, ${lit(fail[0])}, ${lit(fail[1])});` : '';
  }

  typePass(fail: [string, string] | null): number {
    return this.typeApplies && !fail ? 1 : 0;
  }
}

function genJunctors(n: Node): void {
  const { g, s } = n;
  const branches = (v: unknown, counted: boolean): string | null =>
    Array.isArray(v) && v.length > 0 ? `[${v.filter(isSchema).map((x) => node(g, x, n.atRoot, counted)).join(', ')}]` : null;
  // Only anyOf/oneOf branches need MatchCount; allOf branches add to their parent's.
  const anyOf = branches(s.anyOf, true);
  const oneOf = branches(s.oneOf, true);
  const allOf = branches(s.allOf, n.counted);
  const not = isSchema(s.not) ? node(g, s.not, n.atRoot, false) : null;
  if (!anyOf && !oneOf && !allOf && !not) return;
  const j = `J${n.fn}`;
  g.prologue.push(`const ${j} = { anyOf: ${anyOf ?? 'null'}, oneOf: ${oneOf ?? 'null'}, allOf: ${allOf ?? 'null'}, not: ${not ?? 'null'} };`);
  n.junctors = `H.junctors(v, st, ${j});`;
  const fast = !oneOf && !allOf && !not ? pureTypeAnyOf(s.anyOf, n.counted) : null;
  if (fast) n.junctors = `if (${fast.test}) { ${fast.mc} } else ${n.junctors}`;
}

/**
 * anyOf whose branches only name a type (int-or-string's `anyOf: [{type: integer}, {type: string}]`):
 * a value of one of those types passes without running the branches. A passing branch {type: T}
 * has the same MatchCount for every T matching the value, so the count is known too.
 */
function pureTypeAnyOf(branches: unknown, counted: boolean): { test: string; mc: string } | null {
  if (!Array.isArray(branches) || branches.length === 0) return null;
  const types = new Set<string>();
  for (const b of branches) {
    if (!isSchema(b) || Object.keys(b).length !== 1 || typeof b.type !== 'string' || b.type === '') return null;
    types.add(b.type);
  }
  // MatchCount of a passing {type: T}: 5 for the type, schemaProps, common and final counts, plus the kind's.
  const tests: Array<[string, number]> = [];
  if (types.has('string')) tests.push(['typeof v === "string"', 7]);
  if (types.has('number')) tests.push(['typeof v === "number"', 8]);
  else if (types.has('integer')) tests.push([`typeof v === "number" && ${IS_INT}`, 8]);
  if (types.has('number') || types.has('integer')) tests.push(['typeof v === "bigint"', 8]);
  if (types.has('boolean')) tests.push(['typeof v === "boolean"', 6]);
  if (tests.length === 0) return null;
  const test = tests.map(([t]) => `(${t})`).join(' || ');
  return { test, mc: counted ? tests.map(([t, c]) => `if (${t}) st.mc += ${c};`).join(' else ') : '' };
}

/** basicCommonValidator: strings are looked up among the string entries (a switch), null matches nothing. */
function genEnum(n: Node): void {
  if (!Array.isArray(n.s.enum) || n.s.enum.length === 0) return;
  const values = n.s.enum as unknown[];
  const vals = n.g.constant(values);
  const strs = n.g.constant(values.map((e) => (typeof e === 'string' ? e : goJSON(e))));
  const strings = [...new Set(values.filter((e): e is string => typeof e === 'string'))];
  const fail = `H.enumFail(st, v, ${vals}, ${strs});`;
  n.enumGeneric = `if (!H.enumAny(v, ${vals})) ${fail}`;
  n.enumString = `{ let ok = false; ${nameSwitchCode(strings, 'v', () => 'ok = true;')} if (!ok) ${fail} }`;
  n.enumNull = fail;
}

function nullBody(n: Node): string[] {
  const fails = n.types.length > 0 && n.s.nullable !== true;
  return [fails ? `H.typeFail(st, ${lit(n.typeName)}, "null");` : n.mc(1), n.enumNull];
}

function stringBody(n: Node): string[] {
  const { s, g } = n;
  const t = n.stringLike('string');
  const body = [n.mc(n.base + 1 + (n.fmtCheck ? 1 : 0) + n.typePass(t)), n.typeCheck(t), n.junctors];
  // stringValidator stops at its first failure.
  const chain: string[] = [];
  const maxLength = num(s.maxLength);
  const minLength = num(s.minLength);
  if (maxLength !== undefined) chain.push(`if (v.length > ${maxLength} && H.runeCount(v) > ${maxLength}) H.tooLong(st, ${maxLength});`);
  if (minLength !== undefined) chain.push(`if (v.length < ${2 * minLength} && H.runeCount(v) < ${minLength}) H.tooShort(st, ${minLength}, v);`);
  if (typeof s.pattern === 'string' && s.pattern !== '') {
    const re = compilePattern(s.pattern);
    if (re instanceof Error) chain.push(`H.patternInvalid(st, v, ${lit(s.pattern)}, ${g.constant(re)});`);
    else chain.push(`if (!${g.constant(re)}(v)) H.patternFail(st, v, ${lit(s.pattern)});`);
  }
  body.push(chain.join(' else '));
  if (n.fmtCheck) body.push(`if (!${g.constant(n.fmtCheck)}(v)) H.formatFail(st, ${lit(n.format)}, v);`);
  body.push(n.enumString);
  return body;
}

function numberBody(n: Node): string[] {
  const { s } = n;
  const body = [n.mc(n.base + 2), `const i = ${IS_INT};`];
  // Types: int64s are decided at compile time, floats pass `integer` when they are JSON integers.
  const tInt = n.plain('integer', 'int64', n.has('number'));
  const intType = tInt ? n.typeCheck(tInt) : n.mc(n.typePass(tInt));
  const floatFail = n.format !== '' ? `H.typeFail(st, ${lit(n.format)}, "float64");` : `H.typeFail(st, ${lit(n.typeName)}, "number");`;
  let floatType = '';
  if (n.typeApplies) {
    if (n.has('number')) floatType = n.mc(1);
    else if (n.has('integer')) floatType = `if (H.isFloat64AJSONInteger(v)) { ${n.mc(1)} } else ${floatFail}`;
    else floatType = floatFail;
  }
  if (intType || floatType) body.push(`if (i) { ${intType} } else { ${floatType} }`);
  body.push(n.junctors);
  const multipleOf = num(s.multipleOf);
  if (multipleOf !== undefined) {
    // int64s use int64(multipleOf); floats a relative comparison.
    const f = Math.trunc(multipleOf);
    const intCheck = f <= 0 ? `H.multipleOfNotPositive(st, ${numLit(f)}, true);` : `if (v % ${numLit(f)} !== 0) H.notMultipleOf(st, v, ${lit(String(f))});`;
    const ratio = multipleOf < 1 ? `(1 / ${numLit(multipleOf)}) * v` : `v / ${numLit(multipleOf)}`;
    const floatCheck =
      multipleOf <= 0
        ? `H.multipleOfNotPositive(st, ${numLit(multipleOf)}, false);`
        : `if (!H.isFloat64AJSONInteger(${ratio})) H.notMultipleOf(st, v, ${lit(goFloat(multipleOf))});`;
    body.push(`if (i) { ${intCheck} } else { ${floatCheck} }`);
  }
  // int64s compare against int64(bound): the bound truncated toward zero.
  const bound = (b: number | undefined, max: boolean, exclusive: boolean): void => {
    if (b === undefined) return;
    const t = Math.trunc(b);
    const op = max ? (exclusive ? '>=' : '>') : exclusive ? '<=' : '<';
    body.push(
      t === b
        ? `if (v ${op} ${numLit(b)}) H.boundFail(st, v, i, ${numLit(b)}, ${max}, ${exclusive});`
        : `if (i ? v ${op} ${numLit(t)} : v ${op} ${numLit(b)}) H.boundFail(st, v, i, i ? ${numLit(t)} : ${numLit(b)}, ${max}, ${exclusive});`,
    );
  };
  bound(num(s.minimum), false, s.exclusiveMinimum === true);
  bound(num(s.maximum), true, s.exclusiveMaximum === true);
  body.push(n.enumGeneric);
  return body;
}

/** numberBody for an int64 beyond the safe integers (a bigint): integer checks only, in bigint arithmetic. */
function bigintBody(n: Node): string[] {
  const { s } = n;
  const body = [n.mc(n.base + 2)];
  const tInt = n.plain('integer', 'int64', n.has('number'));
  body.push(tInt ? n.typeCheck(tInt) : n.mc(n.typePass(tInt)));
  body.push(n.junctors);
  const multipleOf = num(s.multipleOf);
  if (multipleOf !== undefined) {
    const f = goInt64(multipleOf);
    body.push(f <= 0n ? `H.multipleOfNotPositive(st, ${numLit(Number(f))}, true);` : `if (v % ${f}n !== 0n) H.notMultipleOf(st, v, ${lit(String(f))});`);
  }
  const bound = (b: number | undefined, max: boolean, exclusive: boolean): void => {
    if (b === undefined) return;
    const t = goInt64(b);
    const op = max ? (exclusive ? '>=' : '>') : exclusive ? '<=' : '<';
    body.push(`if (v ${op} ${t}n) H.boundFail(st, v, true, ${t}n, ${max}, ${exclusive});`);
  };
  bound(num(s.minimum), false, s.exclusiveMinimum === true);
  bound(num(s.maximum), true, s.exclusiveMaximum === true);
  body.push(n.enumGeneric);
  return body;
}

function boolBody(n: Node): string[] {
  const t = n.plain('boolean', '');
  return [n.mc(n.base + n.typePass(t)), n.typeCheck(t), n.junctors, n.enumGeneric];
}

function arrayBody(n: Node): string[] {
  const { s, g } = n;
  const t = n.stringLike('array');
  const body = [n.mc(n.base + 2 + n.typePass(t)), n.typeCheck(t), n.junctors];
  if (isSchema(s.items)) {
    const items = node(g, s.items, false, n.counted);
    body.push(`{ const d = st.depth; st.kinds[d] = ${SEG_INDEX}; for (let j = 0; j < v.length; j++) { st.segs[d] = j; st.depth = d + 1; ${items}(v[j], st); } st.depth = d; }`);
  }
  const minItems = num(s.minItems);
  const maxItems = num(s.maxItems);
  if (minItems !== undefined) body.push(`if (v.length < ${minItems}) H.minItems(st, v.length, ${minItems});`);
  if (maxItems !== undefined) body.push(`if (v.length > ${maxItems}) H.maxItems(st, v.length, ${maxItems});`);
  if (s.uniqueItems === true) body.push('if (H.hasDuplicates(v)) H.uniqueItems(st);');
  body.push(n.enumGeneric);
  return body;
}

function objectBody(n: Node): string[] {
  const { s, g } = n;
  const t = n.plain('object', '');
  const body = [n.mc(n.base + 1 + n.typePass(t)), n.typeCheck(t), n.junctors, n.enumGeneric];
  const minProperties = num(s.minProperties);
  const maxProperties = num(s.maxProperties);
  if (minProperties !== undefined || maxProperties !== undefined) {
    const checks: string[] = [];
    if (minProperties !== undefined) checks.push(`if (n < ${minProperties}) H.minProperties(st, n, ${minProperties});`);
    if (maxProperties !== undefined) checks.push(`if (n > ${maxProperties}) H.maxProperties(st, n, ${maxProperties});`);
    body.push(`{ let n = 0; for (const _ in v) n++; ${checks.join(' ')} }`);
  }
  const props = isSchema(s.properties) ? Object.entries(s.properties).filter(([, p]) => isSchema(p)) : [];
  const propSet = props.length > 0 ? g.constant(new Set(props.map(([k]) => k))) : null;
  const ap = s.additionalProperties;
  if (ap === false) {
    body.push(`for (const k in v) ${propSet ? `if (!${propSet}.has(k)) ` : ''}H.forbiddenProperty(st, k);`);
  } else if (isSchema(ap)) {
    const apFn = node(g, ap, false, n.counted);
    const skip = propSet ? `if (${propSet}.has(k)) continue; ` : '';
    body.push(`{ const d = st.depth; st.kinds[d] = ${SEG_KEY}; for (const k in v) { ${skip}st.segs[d] = k; st.depth = d + 1; ${apFn}(v[k], st); } st.depth = d; }`);
  }
  const suffix = (k: string): string => lit(n.atRoot ? k : '.' + k);
  if (props.length > INLINE_PROPERTIES_MAX) {
    // Few of many properties are usually set: walk the object's keys, each found by a switch on the name.
    const fns = props.map(([, p]) => node(g, p as JSONSchemaProps, false, n.counted));
    const found = (i: number): string => `st.segs[d] = ${suffix(props[i]![0])}; ${fns[i]}(x, st);`;
    body.push(
      `{ const d = st.depth; st.kinds[d] = ${SEG_RAW}; st.depth = d + 1; for (const k in v) { const x = v[k]; ${nameSwitchCode(props.map(([k]) => k), 'k', found)} } st.depth = d; }`,
    );
  } else if (props.length > 0) {
    // The segment's kind and the depth are set once: children restore the depth they were called
    // with and write only deeper segments, and nothing here reads the path until depth is reset.
    const lines = [`{ const d = st.depth; st.kinds[d] = ${SEG_RAW}; st.depth = d + 1; let x;`];
    for (const [k, p] of props) {
      const child = node(g, p as JSONSchemaProps, false, n.counted);
      const read = PROTO_NAMES.has(k) ? `x = Object.hasOwn(v, ${lit(k)}) ? v[${lit(k)}] : undefined;` : `x = v[${lit(k)}];`;
      lines.push(`${read} if (x !== undefined) { st.segs[d] = ${suffix(k)}; ${child}(x, st); }`);
    }
    lines.push('st.depth = d; }');
    body.push(lines.join('\n'));
  }
  if (Array.isArray(s.required)) {
    for (const k of s.required) {
      if (typeof k !== 'string') continue;
      const missing = PROTO_NAMES.has(k) ? `!Object.hasOwn(v, ${lit(k)})` : `v[${lit(k)}] === undefined`;
      body.push(`if (${missing}) H.required(st, ${lit(k)});`);
    }
  }
  return body;
}

/**
 * Generates the validator of one node; returns its function name. `atRoot`: the node validates at
 * path "" (the root and its junctor branches). `counted`: MatchCount matters (inside anyOf/oneOf).
 * `full`: code for every kind of value, not only the declared type's.
 */
function node(g: CodeGenerator, s: JSONSchemaProps, atRoot: boolean, counted: boolean, full = false): string {
  const n = new Node(g, s, atRoot, counted);
  genJunctors(n);
  genEnum(n);
  const expected = full || n.types.length === 0 ? null : new Set(n.types.map((t) => (t === 'integer' ? 'number' : t)));
  if (expected === null) {
    g.fns.push(`function ${n.fn}(v, st) {
if (v === null) { ${join(nullBody(n))} return; }
switch (typeof v) {
case "string": { ${join(stringBody(n))} return; }
case "number": { ${join(numberBody(n))} return; }
case "bigint": { ${join(bigintBody(n))} return; }
case "boolean": { ${join(boolBody(n))} return; }
default:
if (Array.isArray(v)) { ${join(arrayBody(n))} } else { ${join(objectBody(n))} }
}
}`);
    return n.fn;
  }
  const fast: string[] = [];
  if (expected.has('string')) fast.push(`if (typeof v === "string") { ${join(stringBody(n))} return; }`);
  if (expected.has('number')) fast.push(`if (typeof v === "number") { ${join(numberBody(n))} return; }`);
  if (expected.has('number')) fast.push(`if (typeof v === "bigint") { ${join(bigintBody(n))} return; }`);
  if (expected.has('boolean')) fast.push(`if (typeof v === "boolean") { ${join(boolBody(n))} return; }`);
  if (expected.has('object')) fast.push(`if (typeof v === "object" && v !== null && !Array.isArray(v)) { ${join(objectBody(n))} return; }`);
  if (expected.has('array')) fast.push(`if (Array.isArray(v)) { ${join(arrayBody(n))} return; }`);
  const slot: SlowSlot = { schema: s, atRoot, counted, fn: null };
  g.fns.push(`function ${n.fn}(v, st) {
${fast.join('\n')}
if (v === null) { ${join(nullBody(n))} return; }
H.slow(${g.constant(slot)}, v, st);
}`);
  return n.fn;
}

interface SlowSlot {
  schema: JSONSchemaProps;
  atRoot: boolean;
  counted: boolean;
  fn: Check | null;
}

/** A value of an undeclared kind: validated by the node's complete validator, generated once. */
function slow(slot: SlowSlot, v: unknown, st: ValidationState): void {
  slot.fn ??= generate((g) => node(g, slot.schema, slot.atRoot, slot.counted, true));
  slot.fn(v, st);
}

const codegenHelpers = { ...helpers, slow };

function generate(top: (g: CodeGenerator) => string): Check & { source: string } {
  const g = new CodeGenerator('v');
  const root = top(g);
  const source = `"use strict";\n${g.fns.join('\n')}\n${g.prologue.join('\n')}\nreturn ${root};`;
  const check = new Function('H', 'K', source)(codegenHelpers, g.consts) as Check;
  return Object.assign(check, { source });
}

/** Compiles a schema's value validator. The generated source is kept for inspection in `source`. */
export function compileValueValidator(schema: JSONSchemaProps): Check & { source: string } {
  return generate((g) => node(g, schema, true, false));
}
