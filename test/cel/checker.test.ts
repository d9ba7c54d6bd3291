import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../../src/cel/compile.js';
import { check } from '../../src/cel/checker.js';
import { parse } from '../../src/cel/parser.js';
import { formatIssues, type Issues } from '../../src/cel/issues.js';
import { Env } from '../../src/cel/env.js';
import type { Library } from '../../src/cel/decls.js';
import { checkedAdorner, debugString } from '../../src/cel/debug-string.js';
import { formatCelType } from '../../src/cel/checker-types.js';
import type { CheckedAst } from '../../src/cel/ast.js';
import {
  BOOL, DURATION, DYN, INT, STRING, TIMESTAMP, listOf, mapOf, typeParam, type CelType, type ObjectType,
} from '../../src/cel/types.js';
import { CelError } from '../../src/cel/values.js';
import { STANDARD_LIBRARY } from '../../src/cel/stdlib.js';
import { OPTIONAL_LIBRARY } from '../../src/cel/optional-lib.js';

const K = typeParam('K');
const V = typeParam('V');
const impl = (): CelError => new CelError('declaration only');
const EXTRAS: Library = {
  name: 'test extras',
  functions: [
    { name: 'cel.@mapInsert', overloads: [
      { id: '@mapInsert_map_key_value', params: [mapOf(K, V), K, V], result: mapOf(K, V), impl },
      { id: '@mapInsert_map_map', params: [mapOf(K, V), mapOf(K, V)], result: mapOf(K, V), impl },
    ] },
    { name: 'format', overloads: [{ id: 'string_format', member: true, params: [STRING, listOf(DYN)], result: STRING, impl }] },
    { name: 'sets.contains', overloads: [{ id: 'list_sets_contains_list', params: [listOf(typeParam('T')), listOf(typeParam('T'))], result: BOOL, impl }] },
  ],
};

const object = (name: string, fields: Record<string, CelType>): ObjectType => ({
  kind: 'object', name, fields: new Map(Object.entries(fields).map(([k, type]) => [k, { type, jsonName: k }])),
});
const SPEC = object('Object.spec', { replicas: INT, name: STRING, labels: mapOf(STRING, STRING), items: listOf(INT), when: TIMESTAMP });
const SELF = object('Object', { spec: SPEC, status: object('Object.status', { ready: BOOL }) });

const env = new Env([STANDARD_LIBRARY, OPTIONAL_LIBRARY, EXTRAS], [
  { name: 'self', type: SELF }, { name: 'i', type: INT }, { name: 'm', type: mapOf(STRING, INT) }, { name: 'd', type: DYN },
]);

function ok(src: string, e = env): { ast: CheckedAst; type: string } {
  const r = compile(e, src);
  if ('issues' in r) assert.fail(formatIssues(r.issues));
  return { ast: r.ast, type: formatCelType(r.type) };
}

function err(src: string, e = env): string {
  const r = compile(e, src);
  assert.ok('issues' in r, `expected errors for ${src}`);
  return formatIssues((r as { issues: Issues }).issues);
}

describe('checker: errors as cel-go reports them', () => {
  it('no matching overload, at the operator', () => {
    assert.equal(err('i == true'), "ERROR: <input>:1:3: found no matching overload for '_==_' applied to '(int, bool)'\n | i == true\n | ..^");
    assert.equal(err('self.spec.name.startsWith(1)'),
      "ERROR: <input>:1:26: found no matching overload for 'startsWith' applied to 'string.(int)'\n | self.spec.name.startsWith(1)\n | .........................^");
  });
  it('undeclared references', () => {
    assert.equal(err('x + 1'), "ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x + 1\n | ^");
    assert.equal(err('i.nope()'), "ERROR: <input>:1:7: undeclared reference to 'nope' (in container '')\n | i.nope()\n | ......^");
  });
  it('field selection on objects, maps and scalars', () => {
    assert.equal(ok('self.spec.replicas').type, 'int');
    assert.equal(ok('self.spec.labels.app').type, 'string');
    assert.equal(ok('has(self.spec.labels.app) && has(self.status)').type, 'bool');
    assert.equal(err('self.spec.nonExistingField'),
      "ERROR: <input>:1:10: undefined field 'nonExistingField'\n | self.spec.nonExistingField\n | .........^");
    assert.equal(err('self.spec.replicas.x'),
      "ERROR: <input>:1:19: type 'int' does not support field selection\n | self.spec.replicas.x\n | ..................^");
    assert.equal(ok('d.anything.goes').type, 'dyn');
  });
  it('several errors, sorted by position', () => {
    assert.equal(err('a + b'), [
      "ERROR: <input>:1:1: undeclared reference to 'a' (in container '')\n | a + b\n | ^",
      "ERROR: <input>:1:5: undeclared reference to 'b' (in container '')\n | a + b\n | ....^",
    ].join('\n'));
  });
  it('comprehension range and step types', () => {
    assert.match(err('i.all(x, x)'), /1:1: expression of type 'int' cannot be range of a comprehension \(must be list, map, or dynamic\)/);
    assert.match(err('self.spec.items.all(x, x)'), /1:24: expected type 'bool' but found 'int'/);
  });
  it('mixed logical operands', () => {
    assert.equal(err('i && true'), "ERROR: <input>:1:1: expected type 'bool' but found 'int'\n | i && true\n | ^");
  });
});

describe('checker: types', () => {
  const typeOf = (src: string): string => ok(src).type;
  it('literals and arithmetic', () => {
    assert.equal(typeOf('1 + 2'), 'int');
    assert.equal(typeOf('1u * 2u'), 'uint');
    assert.equal(typeOf("'a' + 'b'"), 'string');
    assert.equal(typeOf('[1, 2] + [3]'), 'list(int)');
    assert.equal(typeOf('{"a": 1}'), 'map(string, int)');
    assert.equal(typeOf('[]'), 'list(dyn)');
    assert.equal(typeOf('{}'), 'map(dyn, dyn)');
    assert.equal(typeOf('self.spec.when + duration("1s")'), 'timestamp');
  });
  it('cross-type numeric comparisons are on', () => {
    assert.equal(typeOf('i < 2.5 && 1u <= i'), 'bool');
  });
  it('macros', () => {
    assert.equal(typeOf('self.spec.items.all(x, x > 0)'), 'bool');
    assert.equal(typeOf('self.spec.items.map(x, x * 2)'), 'list(int)');
    assert.equal(typeOf('self.spec.items.map(x, x > 1, string(x))'), 'list(string)');
    assert.equal(typeOf('self.spec.items.filter(x, x > 1)'), 'list(int)');
    assert.equal(typeOf('self.spec.items.exists_one(x, x > 1)'), 'bool');
    assert.equal(typeOf('self.spec.labels.exists(k, k == "a")'), 'bool');
    assert.equal(typeOf('m.all(k, v, v > 0 && k != "")'), 'bool');
    assert.equal(typeOf('self.spec.items.all(i, v, i < v)'), 'bool');
    assert.equal(typeOf('self.spec.items.transformList(i, v, v * i)'), 'list(int)');
    assert.equal(typeOf('m.transformMap(k, v, string(v))'), 'map(string, string)');
    assert.equal(typeOf('m.transformMapEntry(k, v, {v: k})'), 'map(int, string)');
    assert.equal(typeOf('cel.bind(x, self.spec.replicas, x * x)'), 'int');
  });
  it('optional syntax', () => {
    assert.equal(typeOf('self.?spec'), 'optional_type(Object.spec)');
    assert.equal(typeOf('self.?spec.replicas'), 'optional_type(int)');
    assert.equal(typeOf('self.spec.labels[?"a"]'), 'optional_type(string)');
    assert.equal(typeOf('self.spec.labels[?"a"].orValue("x")'), 'string');
    assert.equal(typeOf('[?self.spec.labels[?"a"], "b"]'), 'list(string)');
    assert.equal(typeOf('{?"k": optional.of(1)}'), 'map(string, int)');
    assert.equal(typeOf('self.?spec.optMap(s, s.replicas)'), 'optional_type(int)');
    assert.equal(err('[?1]'), "ERROR: <input>:1:3: expected type 'optional_type(int)' but found 'int'\n | [?1]\n | ..^");
  });
  it('namespaced functions resolve before receiver calls', () => {
    const r = ok('sets.contains([1], [1])');
    assert.equal(debugString(r.ast.expr, checkedAdorner(r.ast, formatCelType)),
      'sets.contains(\n  [\n    1~int\n  ]~list(int),\n  [\n    1~int\n  ]~list(int)\n)~bool^list_sets_contains_list');
    assert.equal(debugString(ok('optional.of(1)').ast.expr), 'optional.of(\n  1\n)');
  });
  it('records references and rewrites identifiers', () => {
    const r = ok('.self.spec.replicas + i');
    assert.equal(debugString(r.ast.expr, checkedAdorner(r.ast, formatCelType)),
      '_+_(\n  self~Object^self.spec~Object.spec.replicas~int,\n  i~int^i\n)~int^add_int64');
  });
  it('keeps declared list details on the resulting types', () => {
    const tagged: CelType = { kind: 'list', elem: STRING, listType: 'set', maxElements: 10 };
    const e = new Env([STANDARD_LIBRARY], [{ name: 'tags', type: tagged }]);
    const r = ok('tags', e);
    assert.equal(r.ast.types.get(r.ast.expr.id), tagged);
  });
  it('a parsed AST can be checked twice', () => {
    const p = parse('self.spec.replicas');
    assert.ok(!('issues' in p));
    const a = check(p, env);
    const b = check(p, env);
    assert.ok(!('issues' in a) && !('issues' in b));
  });
});

describe('checker: Kubernetes AST validators', () => {
  it('homogeneous list and map literals', () => {
    assert.equal(err("[1, 'a']"), "ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a']\n | ....^");
    assert.equal(err("{'a': 1, 'b': 'x'}"), "ERROR: <input>:1:15: expected type 'int' but found 'string'\n | {'a': 1, 'b': 'x'}\n | ..............^");
    assert.equal(err("{'a': 1, 2: 1}"), "ERROR: <input>:1:10: expected type 'string' but found 'int'\n | {'a': 1, 2: 1}\n | .........^");
    assert.match(err('[1, d]'), /expected type 'int' but found 'dyn'/);
    assert.equal(ok("[[1], [2, 3]]").type, 'list(list(int))');
    assert.equal(ok("'%s %d'.format(['a', 1])").type, 'string', 'format arguments are exempt');
  });
  it('duration and timestamp literals must parse', () => {
    assert.equal(err("duration('1x')"), "ERROR: <input>:1:10: invalid duration argument\n | duration('1x')\n | .........^");
    assert.equal(ok("duration('5m')").type, 'duration');
    assert.match(err("timestamp('yesterday') < self.spec.when"), /1:11: invalid timestamp argument/);
    assert.equal(ok("timestamp('2024-01-01T00:00:00Z')").type, 'timestamp');
  });
  it('regex literals must compile', () => {
    assert.equal(err("self.spec.name.matches('[')"),
      "ERROR: <input>:1:24: invalid matches argument\n | self.spec.name.matches('[')\n | .......................^");
    assert.equal(ok("self.spec.name.matches('^[a-z]+$')").type, 'bool');
  });
  it('validators can be replaced', () => {
    const p = parse("[1, 'a']");
    assert.ok(!('issues' in p));
    const r = check(p, env, { validators: [] });
    assert.ok(!('issues' in r));
    assert.equal(formatCelType(r.types.get(r.expr.id)!), 'list(dyn)');
  });
});

describe('compile', () => {
  it('returns the checked AST and its type', () => {
    const r = compile(env, 'self.spec.replicas > 1');
    assert.ok('ast' in r);
    assert.deepEqual(r.type, BOOL);
  });
  it('stops at parse errors', () => {
    const r = compile(env, 'self.spec.replicas >');
    assert.ok('issues' in r);
    assert.match(formatIssues(r.issues), /Syntax error: mismatched input '<EOF>'/);
  });
  it('handles durations in checked types', () => {
    assert.deepEqual(compile(env, "duration('1s')"), compile(env, "duration('1s')"));
    assert.equal(formatCelType(DURATION), 'duration');
  });
});
