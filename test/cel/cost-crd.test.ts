// Estimated costs of CRD validation rules, sized from their schemas as Kubernetes does:
// apiextensions-apiserver v0.33.0 pkg/apiserver/schema/cel/compilation_test.go TestCostEstimation,
// the "Resource use by validation functions" examples of the CRD documentation, and the total
// budget case of validation_test.go.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../../src/cel/compile.js';
import { estimateCost } from '../../src/cel/cost-estimator.js';
import {
  CrdCostTotal,
  maxCardinality,
  ruleCost,
  ruleCostError,
  schemaSizeInfo,
  type CostSchema,
} from '../../src/cel/cost-estimator-k8s.js';
import { STANDARD_LIBRARY } from '../../src/cel/stdlib.js';
import { OPTIONAL_LIBRARY } from '../../src/cel/optional-lib.js';
import { KUBERNETES_EXTENSION_LIBRARIES } from '../../src/cel/lib/index.js';
import { COMPREHENSIONS_LIBRARY } from '../../src/cel/stdlib-comprehensions.js';
import { formatIssues } from '../../src/cel/issues.js';
import { Env } from '../../src/cel/env.js';
import { BOOL, BYTES, DOUBLE, DURATION, DYN, INT, STRING, TIMESTAMP, type CelType, type FieldDecl } from '../../src/cel/types.js';

const BASE = new Env([STANDARD_LIBRARY, OPTIONAL_LIBRARY, COMPREHENSIONS_LIBRARY, ...KUBERNETES_EXTENSION_LIBRARIES]);

const sized = (t: CelType, maxElements: number): CelType => (maxElements > 0 ? ({ ...t, maxElements } as CelType) : t);

/** The declared type of a schema node with its size bounds (a test stand-in for the server's conversion). */
function declType(s: CostSchema, name = 'object'): CelType {
  const info = schemaSizeInfo(s, false);
  if (!info) throw new Error('schema not exposed to CEL');
  if (s['x-kubernetes-int-or-string']) return sized(DYN, info.maxElements);
  switch (s.type) {
    case 'array':
      return { kind: 'list', elem: declType(s.items as CostSchema, `${name}.@idx`), maxElements: info.maxElements };
    case 'object': {
      if (typeof s.additionalProperties === 'object') {
        return { kind: 'map', key: STRING, value: declType(s.additionalProperties, `${name}.@elem`), maxElements: info.maxElements };
      }
      const fields = new Map<string, FieldDecl>();
      for (const [k, v] of Object.entries(s.properties ?? {})) fields.set(k, { type: declType(v, `${name}.${k}`), jsonName: k });
      return { kind: 'object', name, fields, maxElements: info.maxElements };
    }
    case 'string':
      switch (s.format) {
        case 'byte':
          return sized(BYTES, info.maxElements);
        case 'duration':
          return sized(DURATION, info.maxElements);
        case 'date':
        case 'date-time':
          return sized(TIMESTAMP, info.maxElements);
      }
      return sized(STRING, info.maxElements);
    case 'boolean':
      return BOOL;
    case 'number':
      return DOUBLE;
    case 'integer':
      return INT;
  }
  throw new Error(`unsupported schema type ${s.type}`);
}

/** A rule's estimate.max on a schema node, as compileRule records it (MaxCost). */
function maxCost(schema: CostSchema, rule: string): number {
  const self = declType(schema);
  const env = BASE.withVariables([
    { name: 'self', type: self },
    { name: 'oldSelf', type: self },
  ]);
  const r = compile(env, rule);
  if ('issues' in r) throw new Error(formatIssues(r.issues));
  return estimateCost(r.ast, env).max;
}

// Schema generators of compilation_test.go; `max` is the bound under test or absent.
type Gen = (max?: number) => CostSchema;
const opt = (key: string, max?: number): Record<string, number> => (max === undefined ? {} : { [key]: max });

function typed(type: string): CostSchema {
  if (type === 'duration' || type === 'date' || type === 'date-time') return { type: 'string', format: type };
  if (type === 'int-or-string') return { 'x-kubernetes-int-or-string': true };
  return { type };
}
const arrayOf = (type: string): Gen => (max) => ({ type: 'array', items: typed(type), ...opt('maxItems', max) });
const arrayOfArrays = (type: string): Gen => (max) => ({ type: 'array', items: { type: 'array', items: { type } }, ...opt('maxItems', max) });
const objectForMap: CostSchema = { type: 'object', properties: { required: { type: 'string' }, optional: { type: 'string' } }, required: ['required'] };
const objectArray: Gen = (max) => ({ type: 'array', items: objectForMap, ...opt('maxItems', max) });
const mapArray = (type: string): Gen => (max) => ({ type: 'array', items: { type: 'object', additionalProperties: { type } }, ...opt('maxItems', max) });
const mapOfType = (type: string): Gen => (max) => ({ type: 'object', additionalProperties: typed(type), ...opt('maxProperties', max) });
const mapOfItem = (item: CostSchema): Gen => (max) => ({ type: 'object', additionalProperties: item, ...opt('maxProperties', max) });
const str: Gen = (max) => ({ type: 'string', ...opt('maxLength', max) });
const enumStr = (...values: string[]): Gen => (max) => ({ type: 'string', enum: values, ...opt('maxLength', max) });
const bytes: Gen = (max) => ({ type: 'string', format: 'byte', ...opt('maxLength', max) });
const nestedSpec: Gen = (max) => ({
  type: 'object',
  additionalProperties: { type: 'string', ...opt('maxLength', max) },
  ...opt('maxProperties', max),
});
const allMaxNested: Gen = (max) => ({
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: { ...objectForMap, ...opt('maxProperties', max) },
    ...opt('maxProperties', max),
  },
  ...opt('maxItems', max),
});
const oneMaxNested: Gen = (max) => ({
  type: 'array',
  items: { type: 'object', additionalProperties: objectForMap, ...opt('maxProperties', max) },
});
const strList: Gen = (max) => ({ type: 'array', items: { type: 'string', ...opt('maxLength', max) }, ...opt('maxItems', max) });
const replaceObj: Gen = (max) => ({
  type: 'object',
  properties: { str: { type: 'string', ...opt('maxLength', max) }, before: { type: 'string', maxLength: 2 }, after: { type: 'string', maxLength: 4 } },
});
const splitObj: Gen = (max) => ({
  type: 'object',
  properties: { str: { type: 'string', ...opt('maxLength', max) }, separator: { type: 'string', ...opt('maxLength', max) } },
});

const COST_LIMIT = 100000000;

// compilation_test.go writes 0 for has() rules, which its checker skips: the cost is the `self`
// ident alone (presence tests are free in Kubernetes).
interface Case {
  name: string;
  gen: Gen;
  rule: string;
  setMax: number;
  /** Without bounds: the exact cost, or `exceeds` the CRD limit. */
  calc: number | 'exceeds';
  /** With every bound set to setMax. */
  set: number;
}

const cases: Case[] = [
  { name: 'number array with all', gen: arrayOf('number'), rule: 'self.all(x, true)', calc: 4718591, setMax: 10, set: 32 },
  { name: 'string array with all', gen: arrayOf('string'), rule: 'self.all(x, true)', calc: 3145727, setMax: 20, set: 62 },
  { name: 'boolean array with all', gen: arrayOf('boolean'), rule: 'self.all(x, true)', calc: 1887437, setMax: 5, set: 17 },
  { name: 'array of number arrays with all', gen: arrayOfArrays('number'), rule: 'self.all(x, true)', calc: 3145727, setMax: 100, set: 302 },
  { name: 'array of objects with all', gen: objectArray, rule: 'self.all(x, true)', calc: 555128, setMax: 50, set: 152 },
  { name: 'map of numbers with all', gen: mapOfType('number'), rule: 'self.all(x, true)', calc: 1348169, setMax: 10, set: 32 },
  { name: 'map of numbers with has', gen: mapOfType('number'), rule: 'has(self.x)', calc: 1, setMax: 100, set: 1 },
  { name: 'map of strings with all', gen: mapOfType('string'), rule: 'self.all(x, true)', calc: 1179647, setMax: 3, set: 11 },
  { name: 'map of strings with has', gen: mapOfType('string'), rule: 'has(self.x)', calc: 1, setMax: 550, set: 1 },
  { name: 'map of booleans with all', gen: mapOfType('boolean'), rule: 'self.all(x, true)', calc: 943718, setMax: 100, set: 302 },
  { name: 'map of booleans with has', gen: mapOfType('boolean'), rule: 'has(self.x)', calc: 1, setMax: 1024, set: 1 },
  { name: 'string with contains', gen: str, rule: "self.contains('test')", calc: 314574, setMax: 10, set: 5 },
  { name: 'string with startsWith', gen: str, rule: "self.startsWith('test')", calc: 2, setMax: 15, set: 2 },
  { name: 'string with endsWith', gen: str, rule: "self.endsWith('test')", calc: 2, setMax: 30, set: 2 },
  { name: 'concat string', gen: str, rule: 'size(self + "hello") > size("hello")', calc: 314578, setMax: 4, set: 7 },
  { name: 'index of array with numbers', gen: arrayOf('number'), rule: 'self[1] == 0.0', calc: 2, setMax: 5000, set: 2 },
  { name: 'index of array with strings', gen: arrayOf('string'), rule: 'self[1] == self[1]', calc: 314577, setMax: 8, set: 314577 },
  { name: 'O(n^2) loop with numbers', gen: arrayOf('number'), rule: 'self.all(x, self.all(y, true))', calc: 'exceeds', setMax: 10, set: 352 },
  { name: 'O(n^3) loop with numbers', gen: arrayOf('number'), rule: 'self.all(x, self.all(y, self.all(z, true)))', calc: 'exceeds', setMax: 10, set: 3552 },
  { name: 'regex matches simple', gen: str, rule: 'self.matches("x")', calc: 314574, setMax: 50, set: 22 },
  { name: 'regex matches empty string', gen: str, rule: '"".matches("(((((((((())))))))))[0-9]")', calc: 7, setMax: 10, set: 7 },
  { name: 'regex matches empty regex', gen: str, rule: 'self.matches("")', calc: 1, setMax: 100, set: 1 },
  { name: 'map of strings with value length', gen: nestedSpec, rule: 'self.all(x, x.contains(self[x]))', calc: 2752507, setMax: 10, set: 72 },
  { name: 'set array maxLength to zero', gen: arrayOf('number'), rule: 'self[3] == 0.0', calc: 2, setMax: 0, set: 2 },
  { name: 'set map maxLength to zero', gen: mapOfType('number'), rule: 'self["x"] == 0.0', calc: 2, setMax: 0, set: 2 },
  { name: 'set string maxLength to zero', gen: str, rule: 'self == "x"', calc: 2, setMax: 0, set: 1 },
  { name: 'set bytes maxLength to zero', gen: bytes, rule: 'self == b"x"', calc: 2, setMax: 0, set: 1 },
  { name: 'set maxLength greater than estimated maxLength', gen: arrayOf('number'), rule: 'self.all(x, x == 0.0)', calc: 6291454, setMax: 3 * 1024 * 2048, set: 25165826 },
  { name: 'nested types with root rule with all supporting maxLength', gen: allMaxNested, rule: 'self.all(x, x["y"].required == "z")', calc: 7340027, setMax: 10, set: 72 },
  { name: 'nested types with root rule with one supporting maxLength', gen: oneMaxNested, rule: 'self.all(x, x["y"].required == "z")', calc: 7340027, setMax: 10, set: 7340027 },
  { name: 'int-or-string array with all', gen: arrayOf('int-or-string'), rule: 'self.all(x, true)', calc: 4718591, setMax: 10, set: 32 },
  { name: 'index of array with int-or-strings', gen: arrayOf('int-or-string'), rule: 'self[0] == 5', calc: 3, setMax: 10, set: 3 },
  { name: 'index of array with booleans', gen: arrayOf('boolean'), rule: 'self[0] == false', calc: 2, setMax: 25, set: 2 },
  { name: 'index of array of objects', gen: objectArray, rule: 'self[0] == null', calc: 2, setMax: 422, set: 2 },
  { name: 'index of array of array of numbers', gen: arrayOfArrays('number'), rule: 'self[0][0] == -1.0', calc: 3, setMax: 51, set: 3 },
  { name: 'array of number maps with all', gen: mapArray('number'), rule: 'self.all(x, x.y == 25.2)', calc: 6291452, setMax: 12, set: 74 },
  { name: 'index of array of number maps', gen: mapArray('number'), rule: 'self[0].x > 2.0', calc: 4, setMax: 3000, set: 4 },
  { name: 'duration array with all', gen: arrayOf('duration'), rule: 'self.all(x, true)', calc: 2359295, setMax: 5, set: 17 },
  { name: 'index of duration array', gen: arrayOf('duration'), rule: 'self[0].getHours() == 2', calc: 4, setMax: 525, set: 4 },
  { name: 'date array with all', gen: arrayOf('date'), rule: 'self.all(x, true)', calc: 725936, setMax: 15, set: 47 },
  { name: 'index of date array', gen: arrayOf('date'), rule: 'self[2].getDayOfMonth() == 13', calc: 4, setMax: 42, set: 4 },
  { name: 'date-time array with all', gen: arrayOf('date-time'), rule: 'self.all(x, true)', calc: 428963, setMax: 25, set: 77 },
  { name: 'index of date-time array', gen: arrayOf('date-time'), rule: 'self[2].getMinutes() == 45', calc: 4, setMax: 99, set: 4 },
  { name: 'map of int-or-strings with all', gen: mapOfType('int-or-string'), rule: 'self.all(x, true)', calc: 1348169, setMax: 15, set: 47 },
  { name: 'map of int-or-strings with has', gen: mapOfType('int-or-string'), rule: 'has(self.x)', calc: 1, setMax: 5000, set: 1 },
  { name: 'map of objects with all', gen: mapOfItem(objectForMap), rule: 'self.all(x, true)', calc: 428963, setMax: 20, set: 62 },
  { name: 'map of objects with has', gen: mapOfItem(objectForMap), rule: 'has(self.x)', calc: 1, setMax: 9001, set: 1 },
  { name: 'map of number maps with all', gen: mapOfItem({ type: 'object', additionalProperties: { type: 'number' } }), rule: 'self.all(x, true)', calc: 1179647, setMax: 10, set: 32 },
  { name: 'map of number maps with has', gen: mapOfItem({ type: 'object', additionalProperties: { type: 'number' } }), rule: 'has(self.x)', calc: 1, setMax: 101, set: 1 },
  { name: 'map of number arrays with all', gen: mapOfItem({ type: 'array', items: { type: 'number' } }), rule: 'self.all(x, true)', calc: 1179647, setMax: 25, set: 77 },
  { name: 'map of number arrays with has', gen: mapOfItem({ type: 'array', items: { type: 'number' } }), rule: 'has(self.x)', calc: 1, setMax: 40000, set: 1 },
  { name: 'map of durations with all', gen: mapOfType('duration'), rule: 'self.all(x, true)', calc: 1048577, setMax: 5, set: 17 },
  { name: 'map of durations with has', gen: mapOfType('duration'), rule: 'has(self.x)', calc: 1, setMax: 256, set: 1 },
  { name: 'map of dates with all', gen: mapOfType('date'), rule: 'self.all(x, true)', calc: 524288, setMax: 10, set: 32 },
  { name: 'map of dates with has', gen: mapOfType('date'), rule: 'has(self.x)', calc: 1, setMax: 65536, set: 1 },
  { name: 'map of date-times with all', gen: mapOfType('date-time'), rule: 'self.all(x, true)', calc: 349526, setMax: 25, set: 77 },
  { name: 'map of date-times with has', gen: mapOfType('date-time'), rule: 'has(self.x)', calc: 1, setMax: 490, set: 1 },
  { name: 'extended library regex find', gen: str, rule: "self.find('[0-9]+') == ''", calc: 629147, setMax: 10, set: 11 },
  { name: 'extended library join', gen: strList, rule: "self.join(' ') == 'aa bb'", calc: 329853068905, setMax: 10, set: 43 },
  { name: 'extended library isSorted', gen: strList, rule: 'self.isSorted() == true', calc: 329854432052, setMax: 10, set: 52 },
  { name: 'extended library replace', gen: replaceObj, rule: "self.str.replace(self.before, self.after) == 'does not matter'", calc: 629154, setMax: 4, set: 12 },
  { name: 'extended library split', gen: splitObj, rule: 'self.str.split(self.separator) == []', calc: 629160, setMax: 10, set: 22 },
  { name: 'extended library lowerAscii', gen: str, rule: "self.lowerAscii() == 'lower!'", calc: 314575, setMax: 10, set: 6 },
  { name: 'check cost of size call', gen: mapOfType('integer'), rule: 'oldSelf.size() == self.size()', calc: 5, setMax: 10, set: 5 },
  { name: 'check cost of timestamp comparison', gen: mapOfType('date-time'), rule: 'self["a"] == self["b"]', calc: 8, setMax: 7, set: 8 },
  { name: 'check cost of duration comparison', gen: mapOfType('duration'), rule: 'self["c"] == self["d"]', calc: 8, setMax: 42, set: 8 },
  { name: 'enums with maxLength equals to the longest possible value', gen: enumStr('A', 'B', 'C', 'LongValue'), rule: "self.contains('A')", calc: 2, setMax: 1000, set: 401 },
];

describe('estimateCost: compilation_test.go TestCostEstimation', () => {
  for (const c of cases) {
    it(c.name, () => {
      const calc = maxCost(c.gen(), c.rule);
      if (c.calc === 'exceeds') assert.ok(calc >= COST_LIMIT, `${calc} should exceed ${COST_LIMIT}`);
      else assert.equal(calc, c.calc);
      assert.equal(maxCost(c.gen(c.setMax), c.rule), c.set);
    });
  }
});

describe('Resource use by validation functions (CRD documentation)', () => {
  // Rules on `foo` (a property of the root object, so run once) or on its items.
  const verdict = (root: CostSchema, path: CostSchema[], node: CostSchema, rule: string) => {
    const cost = ruleCost(maxCost(node, rule), maxCardinality([root, ...path], node)!);
    return ruleCostError('spec.validation.openAPIV3Schema.properties[foo].x-kubernetes-validations[0].rule', cost);
  };

  it('refuses contains() on every string of an unbounded list', () => {
    const foo: CostSchema = { type: 'array', items: { type: 'string' } };
    const root: CostSchema = { type: 'object', properties: { foo } };
    const err = verdict(root, [], foo, "self.all(x, x.contains('a string'))");
    assert.deepEqual(err, {
      type: 'FieldValueForbidden',
      field: 'spec.validation.openAPIV3Schema.properties[foo].x-kubernetes-validations[0].rule',
      detail:
        'estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    });
  });

  it('accepts it with maxItems 25 and maxLength 10', () => {
    const foo: CostSchema = { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10 } };
    const root: CostSchema = { type: 'object', properties: { foo } };
    assert.equal(maxCost(foo, "self.all(x, x.contains('a string'))"), 202);
    assert.equal(verdict(root, [], foo, "self.all(x, x.contains('a string'))"), undefined);
  });

  it('costs the same rule on the items the same way, times their cardinality', () => {
    const item: CostSchema = { type: 'string', maxLength: 10 };
    const foo: CostSchema = { type: 'array', maxItems: 25, items: item };
    const root: CostSchema = { type: 'object', properties: { foo } };
    assert.equal(maxCardinality([root, foo], item), 25);
    assert.equal(ruleCost(maxCost(item, "self.contains('a string')"), 25), 125);
  });

  it('accepts all(x, x == 5) on an unbounded list of integers', () => {
    const foo: CostSchema = { type: 'array', items: { type: 'integer' } };
    const root: CostSchema = { type: 'object', properties: { foo } };
    assert.equal(maxCost(foo, 'self.all(x, x == 5)'), 6291454);
    assert.equal(verdict(root, [], foo, 'self.all(x, x == 5)'), undefined);
  });

  it('refuses it on the inner lists of a nested unbounded list', () => {
    const inner: CostSchema = { type: 'array', items: { type: 'integer' } };
    const foo: CostSchema = { type: 'array', items: inner };
    const root: CostSchema = { type: 'object', properties: { foo } };
    assert.equal(maxCardinality([root, foo], inner), 1048576);
    assert.match(verdict(root, [foo], inner, 'self.all(x, x == 5)')!.detail, /^estimated rule cost exceeds budget by factor of more than 100x/);
  });
});

describe('per-CRD total (validation_test.go "forbid validation rules where cost total exceeds total limit")', () => {
  it('reports the rule over its limit, the contributors and the schema', () => {
    const listItem: CostSchema = { type: 'string', maxLength: 5000 };
    const list: CostSchema = { type: 'array', maxItems: 100000, items: listItem };
    const mapValue: CostSchema = { type: 'string', maxLength: 5000 };
    const map: CostSchema = { type: 'object', maxProperties: 1000, additionalProperties: mapValue };
    const field: CostSchema = { type: 'integer' };
    const root: CostSchema = { type: 'object', properties: { list, map, field } };
    const base = 'spec.validation.openAPIV3Schema';
    const rules: [string, CostSchema[], CostSchema, string][] = [
      [`${base}.properties[field].x-kubernetes-validations[0].rule`, [root], field, 'self > 50 && self < 100'],
      [`${base}.properties[list].items.x-kubernetes-validations[0].rule`, [root, list], listItem, "self.contains('keyword')"],
      [`${base}.properties[map].additionalProperties.x-kubernetes-validations[0].rule`, [root, map], mapValue, "self.contains('keyword')"],
    ];
    const total = new CrdCostTotal();
    const errors = [];
    for (const [path, ancestors, node, rule] of rules) {
      const cost = ruleCost(maxCost(node, rule), maxCardinality(ancestors, node)!);
      const err = ruleCostError(path, cost);
      if (err) errors.push(err);
      total.observe(path, cost);
    }
    errors.push(...total.errors(base));
    assert.deepEqual(
      errors.map((e) => [e.type, e.field, e.detail.replace(/ \(try simplifying.*$/, '')]),
      [
        ['FieldValueForbidden', `${base}.properties[list].items.x-kubernetes-validations[0].rule`, 'estimated rule cost exceeds budget by factor of 20.0x'],
        ['FieldValueForbidden', `${base}.properties[list].items.x-kubernetes-validations[0].rule`, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'],
        ['FieldValueForbidden', `${base}.properties[map].additionalProperties.x-kubernetes-validations[0].rule`, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'],
        ['FieldValueForbidden', base, 'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 2.0x'],
      ],
    );
  });
});
