// Compiles an openAPIV3Schema into a JavaScript validator (as ajv does): one generated function per
// schema node, with property names, bounds and type decisions written in as constants, built
// with a single `new Function` per schema. Generated code only tests; everything on the error
// path (messages, paths, field errors) and the junctors are helpers from value-validate.ts.
// Every string put into the source goes through JSON.stringify; every number is a JSON number.
import { effectiveFormat, formatChecker } from './formats.js';
import { goFloat, goJSON } from './value-go.js';
import { type Check, type JSONSchemaProps, SEG_INDEX, SEG_KEY, SEG_RAW, type ValidationState, compilePattern, helpers } from './value-validate.js';

const isSchema = (v: unknown): v is JSONSchemaProps => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const lit = (s: string): string => JSON.stringify(s);
const numLit = (n: number): string => (Object.is(n, -0) ? '0' : String(n));

/** Property names that exist on Object.prototype need an own-property check. */
const PROTO_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype).concat(['__proto__']));

/** `Number.isInteger(v)` within int64 range: what kube would have decoded as an int64 (see value-go.ts). */
const IS_INT = 'Number.isInteger(v) && v < 9223372036854775808 && v >= -9223372036854775808';

class Generator {
  readonly fns: string[] = [];
  readonly prologue: string[] = [];
  readonly consts: unknown[] = [];
  private n = 0;

  constant(value: unknown): string {
    this.consts.push(value);
    return `K[${this.consts.length - 1}]`;
  }

  name(): string {
    return `v${this.n++}`;
  }
}

/**
 * Generates the validator of one node; returns its function name. `atRoot`: the node validates at
 * path "" (the root and its junctor branches). `counted`: MatchCount matters (inside anyOf/oneOf).
 */
function node(g: Generator, s: JSONSchemaProps, atRoot: boolean, counted: boolean, full = false): string {
  const fn = g.name();
  const types: string[] =
    s['x-kubernetes-int-or-string'] === true ? ['integer', 'string'] : typeof s.type === 'string' && s.type !== '' ? [s.type] : [];
  const has = (t: string): boolean => types.includes(t);
  const nullable = s.nullable === true;
  const format = effectiveFormat(typeof s.format === 'string' ? s.format : undefined);
  const fmtCheck = format ? formatChecker(format) : undefined;
  const typeApplies = types.length > 0 || format !== '';
  const typeName = types.join(',');
  const numeric = has('number') || has('integer');
  const mc = (n: number): string => (counted && n > 0 ? `st.mc += ${n};` : '');
  const B = (typeApplies ? 1 : 0) + 4;

  // typeValidator.Validate, decided at compile time for every kind but floats: [typeName, found] or null.
  const stringLike = (kind: string): [string, string] | null => (!typeApplies || (format !== '' && !numeric) || has(kind) ? null : [typeName, kind]);
  const plain = (kind: string, goFormat: string, alsoOk = false): [string, string] | null => {
    if (!typeApplies) return null;
    if (format !== '' && !(has(kind) || alsoOk)) return [format, goFormat];
    return has(kind) || alsoOk ? null : [typeName, kind];
  };
  const typeCheck = (fail: [string, string] | null): string => (fail ? `H.typeFail(st, ${lit(fail[0])}, ${lit(fail[1])});` : '');
  const typePass = (fail: [string, string] | null): number => (typeApplies && !fail ? 1 : 0);
  const tString = stringLike('string');
  const tArray = stringLike('array');
  const tBool = plain('boolean', '');
  const tObject = plain('object', '');
  const tInt = plain('integer', 'int64', has('number'));

  // Junctors (schemaPropsValidator).
  const branches = (v: unknown, countedBranch: boolean): string | null =>
    Array.isArray(v) && v.length > 0 ? `[${v.filter(isSchema).map((x) => node(g, x, atRoot, countedBranch)).join(', ')}]` : null;
  const anyOf = branches(s.anyOf, true);
  const oneOf = branches(s.oneOf, true);
  const allOf = branches(s.allOf, counted);
  const not = isSchema(s.not) ? node(g, s.not, atRoot, false) : null;
  let junctors = '';
  if (anyOf || oneOf || allOf || not) {
    const j = `J${fn}`;
    g.prologue.push(`const ${j} = { anyOf: ${anyOf ?? 'null'}, oneOf: ${oneOf ?? 'null'}, allOf: ${allOf ?? 'null'}, not: ${not ?? 'null'} };`);
    junctors = `H.junctors(v, st, ${j});`;
    const fastAnyOf = !oneOf && !allOf && !not ? pureTypeAnyOf(s.anyOf, counted) : null;
    if (fastAnyOf) junctors = `if (${fastAnyOf.test}) { ${fastAnyOf.mc} } else ${junctors}`;
  }

  // Enum (basicCommonValidator): strings are looked up in a set of the string entries.
  let enumGeneric = '';
  let enumString = '';
  let enumNull = '';
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const values = s.enum as unknown[];
    const vals = g.constant(values);
    const strs = g.constant(values.map((e) => (typeof e === 'string' ? e : goJSON(e))));
    const set = g.constant(new Set(values.filter((e) => typeof e === 'string')));
    const fail = `H.enumFail(st, v, ${vals}, ${strs});`;
    enumGeneric = `if (!H.enumAny(v, ${vals})) ${fail}`;
    enumString = `if (!${set}.has(v)) ${fail}`;
    enumNull = fail; // null matches no enum entry
  }

  // null
  const nullFails = types.length > 0 && !nullable;
  const nullBody = [nullFails ? `H.typeFail(st, ${lit(typeName)}, "null");` : mc(1), enumNull];

  // strings
  const stringBody = (): string[] => {
  const stringBody = [mc(B + 1 + (fmtCheck ? 1 : 0) + typePass(tString)), typeCheck(tString), junctors];
  {
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
    // stringValidator stops at its first error.
    stringBody.push(chain.join(' else '));
  }
  if (fmtCheck) stringBody.push(`if (!${g.constant(fmtCheck)}(v)) H.formatFail(st, ${lit(format)}, v);`);
  stringBody.push(enumString);
  return stringBody;
  };

  // numbers
  const numberBody = (): string[] => {
  const numberBody = [mc(B + 2)];
  {
    const i = `const i = ${IS_INT};`;
    numberBody.push(i);
    let floatType: string;
    const floatFail = format !== '' ? `H.typeFail(st, ${lit(format)}, "float64");` : `H.typeFail(st, ${lit(typeName)}, "number");`;
    if (!typeApplies) floatType = '';
    else if (has('number')) floatType = mc(1);
    else if (has('integer')) floatType = `if (H.isFloat64AJSONInteger(v)) { ${mc(1)} } else ${floatFail}`;
    else floatType = floatFail;
    const intType = tInt ? typeCheck(tInt) : mc(typePass(tInt));
    if (intType || floatType) numberBody.push(`if (i) { ${intType} } else { ${floatType} }`);
    numberBody.push(junctors);
    const multipleOf = num(s.multipleOf);
    if (multipleOf !== undefined) {
      const f = Math.trunc(multipleOf);
      const intCheck = f <= 0 ? `H.multipleOfNotPositive(st, ${numLit(f)}, true);` : `if (v % ${numLit(f)} !== 0) H.notMultipleOf(st, v, ${lit(String(f))});`;
      const floatCheck =
        multipleOf <= 0
          ? `H.multipleOfNotPositive(st, ${numLit(multipleOf)}, false);`
          : `if (!H.isFloat64AJSONInteger(${multipleOf < 1 ? `(1 / ${numLit(multipleOf)}) * v` : `v / ${numLit(multipleOf)}`})) H.notMultipleOf(st, v, ${lit(goFloat(multipleOf))});`;
      numberBody.push(`if (i) { ${intCheck} } else { ${floatCheck} }`);
    }
    // Integers compare against int64(bound): the bound truncated toward zero.
    const bound = (b: number | undefined, max: boolean, exclusive: boolean): void => {
      if (b === undefined) return;
      const t = Math.trunc(b);
      const op = max ? (exclusive ? '>=' : '>') : exclusive ? '<=' : '<';
      numberBody.push(
        t === b
          ? `if (v ${op} ${numLit(b)}) H.boundFail(st, v, i, ${numLit(b)}, ${max}, ${exclusive});`
          : `if (i ? v ${op} ${numLit(t)} : v ${op} ${numLit(b)}) H.boundFail(st, v, i, i ? ${numLit(t)} : ${numLit(b)}, ${max}, ${exclusive});`,
      );
    };
    bound(num(s.minimum), false, s.exclusiveMinimum === true);
    bound(num(s.maximum), true, s.exclusiveMaximum === true);
    numberBody.push(enumGeneric);
  }
  return numberBody;
  };

  // booleans
  const boolBody = (): string[] => [mc(B + typePass(tBool)), typeCheck(tBool), junctors, enumGeneric];

  // arrays
  const arrayBody = (): string[] => {
  const arrayBody = [mc(B + 2 + typePass(tArray)), typeCheck(tArray), junctors];
  if (isSchema(s.items)) {
    const items = node(g, s.items, false, counted);
    arrayBody.push(
      `{ const d = st.depth; st.kinds[d] = ${SEG_INDEX}; for (let j = 0; j < v.length; j++) { st.segs[d] = j; st.depth = d + 1; ${items}(v[j], st); } st.depth = d; }`,
    );
  }
  {
    const minItems = num(s.minItems);
    const maxItems = num(s.maxItems);
    if (minItems !== undefined) arrayBody.push(`if (v.length < ${minItems}) H.minItems(st, v.length, ${minItems});`);
    if (maxItems !== undefined) arrayBody.push(`if (v.length > ${maxItems}) H.maxItems(st, v.length, ${maxItems});`);
    if (s.uniqueItems === true) arrayBody.push('if (H.hasDuplicates(v)) H.uniqueItems(st);');
  }
  arrayBody.push(enumGeneric);
  return arrayBody;
  };

  // objects
  const objectBody = (): string[] => {
  const objectBody = [mc(B + 1 + typePass(tObject)), typeCheck(tObject), junctors, enumGeneric];
  {
    const minProperties = num(s.minProperties);
    const maxProperties = num(s.maxProperties);
    if (minProperties !== undefined || maxProperties !== undefined) {
      const checks: string[] = [];
      if (minProperties !== undefined) checks.push(`if (n < ${minProperties}) H.minProperties(st, n, ${minProperties});`);
      if (maxProperties !== undefined) checks.push(`if (n > ${maxProperties}) H.maxProperties(st, n, ${maxProperties});`);
      objectBody.push(`{ let n = 0; for (const _ in v) n++; ${checks.join(' ')} }`);
    }
    const props = isSchema(s.properties) ? Object.entries(s.properties).filter(([, p]) => isSchema(p)) : [];
    const propSet = props.length > 0 ? g.constant(new Set(props.map(([k]) => k))) : null;
    const ap = s.additionalProperties;
    if (ap === false) {
      objectBody.push(`for (const k in v) ${propSet ? `if (!${propSet}.has(k)) ` : ''}H.forbiddenProperty(st, k);`);
    } else if (isSchema(ap)) {
      const apFn = node(g, ap, false, counted);
      objectBody.push(
        `{ const d = st.depth; st.kinds[d] = ${SEG_KEY}; for (const k in v) { ${propSet ? `if (${propSet}.has(k)) continue; ` : ''}st.segs[d] = k; st.depth = d + 1; ${apFn}(v[k], st); } st.depth = d; }`,
      );
    }
    if (props.length > 0) {
      const lines = ['{ const d = st.depth; let x;'];
      for (const [k, p] of props) {
        const child = node(g, p as JSONSchemaProps, false, counted);
        const read = PROTO_NAMES.has(k) ? `x = Object.hasOwn(v, ${lit(k)}) ? v[${lit(k)}] : undefined;` : `x = v[${lit(k)}];`;
        lines.push(`${read} if (x !== undefined) { st.segs[d] = ${lit(atRoot ? k : '.' + k)}; st.kinds[d] = ${SEG_RAW}; st.depth = d + 1; ${child}(x, st); }`);
      }
      lines.push('st.depth = d; }');
      objectBody.push(lines.join('\n'));
    }
    if (Array.isArray(s.required)) {
      for (const k of s.required) {
        if (typeof k !== 'string') continue;
        const missing = PROTO_NAMES.has(k) ? `!Object.hasOwn(v, ${lit(k)})` : `v[${lit(k)}] === undefined`;
        objectBody.push(`if (${missing}) H.required(st, ${lit(k)});`);
      }
    }
  }

  return objectBody;
  };

  const join = (parts: string[]): string => parts.filter((p) => p !== '').join('\n');
  const expected = full || types.length === 0 ? null : new Set(types.map((t) => (t === 'integer' ? 'number' : t)));
  if (expected === null) {
    g.fns.push(`function ${fn}(v, st) {
if (v === null) { ${join(nullBody)} return; }
switch (typeof v) {
case "string": { ${join(stringBody())} return; }
case "number": { ${join(numberBody())} return; }
case "boolean": { ${join(boolBody())} return; }
default:
if (Array.isArray(v)) { ${join(arrayBody())} } else { ${join(objectBody())} }
}
}`);
    return fn;
  }
  // The declared type(s) get generated code; any other kind of value takes the slow path, a
  // complete validator of this node generated on first use.
  const fast: string[] = [];
  if (expected.has('string')) fast.push(`if (typeof v === "string") { ${join(stringBody())} return; }`);
  if (expected.has('number')) fast.push(`if (typeof v === "number") { ${join(numberBody())} return; }`);
  if (expected.has('boolean')) fast.push(`if (typeof v === "boolean") { ${join(boolBody())} return; }`);
  if (expected.has('object')) fast.push(`if (typeof v === "object" && v !== null && !Array.isArray(v)) { ${join(objectBody())} return; }`);
  if (expected.has('array')) fast.push(`if (Array.isArray(v)) { ${join(arrayBody())} return; }`);
  const slot = g.constant({ schema: s, atRoot, counted, fn: null });
  g.fns.push(`function ${fn}(v, st) {
${fast.join('\n')}
if (v === null) { ${join(nullBody)} return; }
H.slow(${slot}, v, st);
}`);
  return fn;
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
  // MatchCount of a passing {type: T}: 5 for type and schemaProps/common/final, plus the kind's validators.
  const tests: Array<[string, number]> = [];
  if (types.has('string')) tests.push(['typeof v === "string"', 7]);
  if (types.has('integer') && types.has('number')) tests.push(['typeof v === "number"', 8]);
  else if (types.has('integer')) tests.push([`typeof v === "number" && ${IS_INT}`, 8]);
  else if (types.has('number')) tests.push(['typeof v === "number"', 8]);
  if (types.has('boolean')) tests.push(['typeof v === "boolean"', 6]);
  if (tests.length === 0) return null;
  if (!counted) return { test: tests.map(([t]) => `(${t})`).join(' || '), mc: '' };
  // Counted: pick the count of the kind that matched.
  return {
    test: tests.map(([t]) => `(${t})`).join(' || '),
    mc: tests.map(([t, n]) => `if (${t}) st.mc += ${n};`).join(' else '),
  };
}

interface SlowSlot {
  schema: JSONSchemaProps;
  atRoot: boolean;
  counted: boolean;
  fn: Check | null;
}

/** Values of an undeclared kind: validated by the node's complete validator, compiled once. */
function slow(slot: SlowSlot, v: unknown, st: ValidationState): void {
  slot.fn ??= generate((g) => node(g, slot.schema, slot.atRoot, slot.counted, true));
  slot.fn(v, st);
}

const codegenHelpers = { ...helpers, slow };

function generate(top: (g: Generator) => string): Check & { source: string } {
  const g = new Generator();
  const root = top(g);
  const source = `"use strict";\n${g.fns.join('\n')}\n${g.prologue.join('\n')}\nreturn ${root};`;
  const check = new Function('H', 'K', source)(codegenHelpers, g.consts) as Check;
  return Object.assign(check, { source });
}

/** Compiles a schema's value validator. The generated source is kept for inspection in `source`. */
export function compileValueValidator(schema: JSONSchemaProps): Check & { source: string } {
  return generate((g) => node(g, schema, true, false));
}
