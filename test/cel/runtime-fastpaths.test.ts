// The evaluator's fast paths give the same results and costs as the general ones: native RegExp
// for `matches`, hand-written timestamp and duration parsing, JSON field reads through per-type
// inline caches, direct calls, comprehension accumulators, and the size shortcuts of equality
// costs. Also the costs of `==`/`!=` on Kubernetes library values.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RE2JS } from 're2js';
import { compile } from '../../src/cel/compile.js';
import { Env } from '../../src/cel/env.js';
import { formatIssues } from '../../src/cel/issues.js';
import { jsonToVal } from '../../src/cel/json-values.js';
import { KUBERNETES_EXTENSION_LIBRARIES } from '../../src/cel/lib/index.js';
import { CelPlanError, COST_LIMIT_EXCEEDED, plan } from '../../src/cel/program.js';
import { nativeRegex } from '../../src/cel/stdlib-regex.js';
import { matches } from '../../src/cel/stdlib-ops.js';
import { parseGoDuration, parseK8sDuration, parseRfc3339 } from '../../src/cel/time.js';
import { DYN, INT, STRING, listOf, mapOf } from '../../src/cel/types.js';
import { mutableListMark } from '../../src/cel/value-ops.js';
import type { CelType, ObjectType } from '../../src/cel/types.js';
import { CelError, Timestamp } from '../../src/cel/values.js';
import type { Val } from '../../src/cel/values.js';
import { BASE_LIBRARIES, cost, run, value } from './runtime-harness.js';

const K8S_ENV = new Env([...BASE_LIBRARIES, ...KUBERNETES_EXTENSION_LIBRARIES]);

function k8s(expr: string, vars: Record<string, Val> = {}, env = K8S_ENV): { value: Val; cost: number } {
  const c = compile(env, expr);
  if ('issues' in c) throw new Error(formatIssues(c.issues));
  return plan(c.ast, env).eval(vars);
}

/** A small deterministic generator, so failures reproduce. */
function lcg(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

describe('matches through a native RegExp', () => {
  test('simple anchored and loop-free patterns are translated', () => {
    for (const p of ['^[a-zA-Z]*$', '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', '^\\d+$', 'abc', '[0-9]{3}', '^(http|https)://.*$', '^$', '', '^[^/]+$', '^a{2,5}$', '^[a-z]{0,253}$',
      '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$']) {
      assert.ok(nativeRegex(p), p);
    }
  });

  test('patterns that could backtrack badly, or whose meaning differs, stay with RE2', () => {
    for (const p of [
      '[a-z]+x', // a loop without a leading ^ is tried at every position
      '^[a-z]+\\.[a-z]+$', // two loops
      '^(a*)*$', // nested loops
      '^(a|b)*$', // a loop over a choice
      '^(a?){20}$', // too many choices
      '[a-z]{0,100}', // ... tried at every position
      '(?i)^abc$', // flags
      '^\\pL+$', // Unicode classes
      '^[[:alpha:]]+$', // POSIX classes
      '^\\x41$', // hex escapes
      '\\Aabc\\z',
      '^a|b*$', // the second branch is unanchored
    ]) {
      assert.equal(nativeRegex(p), undefined, p);
    }
  });

  test('RE2 meanings are kept where JavaScript differs: \\s, ., $', () => {
    assert.equal(matches('\u000b', '^\\s$'), false); // RE2's \s has no vertical tab
    assert.equal(matches('\u00a0', '^\\s$'), false);
    assert.equal(matches('\r', '^.$'), true); // RE2's . excludes only \n
    assert.equal(matches('\u2028', '^.$'), true);
    assert.equal(matches('\n', '^.$'), false);
    assert.equal(matches('a\n', '^a$'), false); // $ is the end of the text
    assert.equal(matches('😀', '^.$'), true); // code points, not UTF-16 units
    assert.equal(matches('😀', '^..$'), false);
    assert.equal(matches('x', '^[^a]$'), true);
  });

  test('agrees with re2js on generated patterns and strings', () => {
    const rnd = lcg(20240601);
    const atoms = ['a', 'b', '.', '[ab]', '[^a]', '[a-c]', '\\d', '\\w', '\\s', '\\S', '\\W', '\\D', '\\.', '-', '[-a]', '[a-]',
      '[]a]', '[^]a]', '\\b', '\\B', 'é', '😀', '[\\s]', '[\\d-]', ' ', '\\n', '[\\-x]', '$', '^', '(?:a|b)', '(a)', '(?P<n>b)', '\\\\', ']', '}'];
    const quants = ['', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?', '??', '{2,}'];
    const gen = (depth: number): string => {
      let s = '';
      for (let i = 0, n = 1 + rnd(4); i < n; i++) {
        s += (depth > 0 && rnd(5) === 0 ? `(${gen(depth - 1)})` : atoms[rnd(atoms.length)]!) + quants[rnd(quants.length)]!;
      }
      return rnd(6) === 0 ? `${s}|${gen(depth - 1)}` : s;
    };
    const alphabet = ['a', 'b', 'c', '.', '-', ' ', '\n', '1', 'é', '😀', '_', ']', '\t', '\ud800', 'A', '\u000b'];
    let translated = 0;
    for (let i = 0; i < 4000; i++) {
      const p = (rnd(2) ? '^' : '') + gen(2) + (rnd(2) ? '$' : '');
      let re: RE2JS;
      try {
        re = RE2JS.compile(p);
      } catch {
        continue;
      }
      const js = nativeRegex(p);
      if (!js) continue;
      translated++;
      for (let k = 0; k < 15; k++) {
        let s = '';
        for (let j = 0, len = rnd(8); j < len; j++) s += alphabet[rnd(alphabet.length)]!;
        assert.equal(js.test(s), re.test(s), `${JSON.stringify(p)} on ${JSON.stringify(s)}`);
      }
    }
    assert.ok(translated > 1000, `only ${translated} patterns translated`);
  });

  test('long inputs stay fast', () => {
    const long = 'a'.repeat(200_000);
    const start = performance.now();
    assert.equal(matches(`${long}!`, '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'), false);
    assert.equal(matches(`${long}!`, '[a-z]+x'), false); // RE2 (linear) for the unanchored loop
    assert.ok(performance.now() - start < 2000);
  });
});

describe('timestamp and duration parsing fast paths', () => {
  const ts = (iso: string): bigint => BigInt(Date.parse(iso)) * 1_000_000n;

  test('RFC 3339 in the common spelling', () => {
    assert.equal(parseRfc3339('2024-01-01T00:00:00Z')?.nanos, ts('2024-01-01T00:00:00Z'));
    assert.equal(parseRfc3339('2024-02-29T23:59:59.123456789Z')?.nanos, ts('2024-02-29T23:59:59Z') + 123_456_789n);
    assert.equal(parseRfc3339('2024-01-01T00:00:00,5Z')?.nanos, ts('2024-01-01T00:00:00Z') + 500_000_000n);
    assert.equal(parseRfc3339('2024-01-01T00:00:00+02:30')?.nanos, ts('2024-01-01T00:00:00+02:30'));
    assert.equal(parseRfc3339('2024-01-01T00:00:00-00:00')?.nanos, ts('2024-01-01T00:00:00Z'));
    assert.equal(parseRfc3339('0001-01-01T00:00:00Z')?.nanos, -62135596800n * 1_000_000_000n);
    assert.equal(parseRfc3339('9999-12-31T23:59:59Z')?.nanos, 253402300799n * 1_000_000_000n);
  });

  test('other spellings and invalid values as the general parser reads them', () => {
    assert.equal(parseRfc3339('2024-01-01T1:00:00Z')?.nanos, ts('2024-01-01T01:00:00Z')); // one-digit hour
    assert.equal(parseRfc3339('2024-01-01T00:00:00.1234567891Z')?.nanos, ts('2024-01-01T00:00:00Z') + 123_456_789n);
    for (const bad of ['2023-02-29T00:00:00Z', '2024-13-01T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:60:00Z',
      '2024-01-01T00:00:00+25:00', '2024-01-01t00:00:00Z', '2024-01-01T00:00:00z', '2024-01-01T00:00:00', '2024-01-01T00:00:00.Z',
      '2024-01-01T00:00:00Zx', '2024-01-01T00:00:00+0200', '２０２４-01-01T00:00:00Z', '']) {
      assert.equal(parseRfc3339(bad), undefined, bad);
    }
    assert.ok(value(`timestamp('2024-01-01T00:00:00+01:00') == timestamp('2023-12-31T23:00:00Z')`) === true);
    assert.equal(value(`string(timestamp('2024-01-01T10:00:00+01:00'))`), '2024-01-01T10:00:00+01:00');
  });

  test('Go durations: whole units in doubles, the rest exactly', () => {
    const cases: [string, bigint | undefined][] = [
      ['1h', 3_600_000_000_000n], ['90m', 5_400_000_000_000n], ['1h30m', 5_400_000_000_000n], ['-1h', -3_600_000_000_000n],
      ['+5s', 5_000_000_000n], ['0', 0n], ['-0', 0n], ['1ns', 1n], ['3us', 3000n], ['3µs', 3000n], ['3μs', 3000n], ['7ms', 7_000_000n],
      ['1.5h', 5_400_000_000_000n], ['1h.5m', 3_630_000_000_000n], ['', undefined], ['-', undefined], ['h', undefined],
      ['1', undefined], ['00', undefined], ['1x', undefined], ['1h ', undefined], ['2562047h', 9_223_369_200_000_000_000n],
      ['2562048h', undefined], ['9223372036854775807ns', 9223372036854775807n], ['9223372036854775808ns', undefined],
      ['-9223372036854775808ns', -9223372036854775808n], ['1000000000000000000000ns', undefined],
    ];
    for (const [s, want] of cases) assert.equal(parseGoDuration(s), want, s);
    assert.equal(parseK8sDuration('3 days'), 259_200_000_000_000n);
  });
});

const obj = (name: string, fields: Record<string, CelType | { type: CelType; jsonName: string }>): ObjectType => ({
  kind: 'object',
  name,
  fields: new Map(Object.entries(fields).map(([k, t]) => [k, 'jsonName' in t ? t : { type: t, jsonName: k }])),
});

describe('JSON field reads', () => {
  const A = obj('a', { name: STRING, n: INT });
  const B = obj('b', { other: INT, name: { type: STRING, jsonName: 'nm' } });
  const SPEC = obj('spec', {
    a: A,
    b: B,
    items: listOf(A),
    constructor: STRING,
    toString: INT,
    ['__proto__']: STRING,
    labels: mapOf(STRING, STRING),
  });
  const env = new Env(BASE_LIBRARIES, [{ name: 'self', type: SPEC }]);
  const evalOn = (expr: string, json: unknown): Val => k8s(expr, { self: jsonToVal(json, SPEC) }, env).value;

  test('one select site reading objects of different types', () => {
    const json = { a: { name: 'x', n: 1 }, b: { nm: 'y', other: 2 } };
    assert.deepEqual(evalOn('[dyn(self.a), dyn(self.b)].map(o, o.name)', json), ['x', 'y']);
    assert.deepEqual(evalOn('[dyn(self.b), dyn(self.a), dyn(self.b)].map(o, o.name)', json), ['y', 'x', 'y']);
    assert.deepEqual(evalOn("self.items.map(i, i.name + string(i.n))", { items: [{ name: 'p', n: 1 }, { name: 'q', n: 2 }] }), ['p1', 'q2']);
  });

  test('fields named like Object.prototype members are read from the JSON only', () => {
    assert.equal(evalOn('has(self.constructor) || has(self.toString) || has(self.__proto__)', {}), false);
    assert.deepEqual(evalOn('self.constructor', {}), new CelError('no such key: constructor'));
    assert.deepEqual(evalOn('self.toString', {}), new CelError('no such key: toString'));
    const withProto = JSON.parse('{"constructor": "c", "toString": 7, "__proto__": "p"}') as unknown;
    assert.deepEqual(evalOn('[self.constructor, string(self.toString), self.__proto__]', withProto), ['c', '7', 'p']);
    assert.equal(evalOn("'constructor' in self.labels", { labels: {} }), false);
    assert.equal(evalOn("'toString' in self.labels", { labels: { toString: 'x' } }), true);
  });

  test('variables named like Object.prototype members', () => {
    const e = new Env(BASE_LIBRARIES, [{ name: 'constructor', type: INT }, { name: 'x', type: INT }]);
    assert.deepEqual(k8s('constructor + 1', {}, e).value, new CelError('no such attribute(s): constructor'));
    assert.equal(k8s('constructor + x', { constructor: 1n, x: 2n }, e).value, 3n);
    assert.deepEqual(k8s('x', {}, e).value, new CelError('no such attribute(s): x'));
  });

  test('select chains cost one per step and report the first missing key', () => {
    const json = { a: { name: 'x', n: 1 } };
    assert.equal(k8s('self.a.name', { self: jsonToVal(json, SPEC) }, env).cost, 3);
    assert.deepEqual(evalOn('self.b.name', json), new CelError('no such key: b'));
    assert.equal(k8s('self.b.name', { self: jsonToVal(json, SPEC) }, env).cost, 2);
  });
});

describe('comprehension accumulators', () => {
  test('results of one program do not share lists across evaluations', () => {
    const env = new Env(BASE_LIBRARIES, [{ name: 'xs', type: listOf(INT) }]);
    const c = compile(env, 'xs.filter(x, x > 1).map(x, [x].map(y, y * 2))');
    assert.ok(!('issues' in c));
    const p = plan(c.ast, env);
    const first = p.eval({ xs: [1n, 2n, 3n] }).value;
    const second = p.eval({ xs: [3n] }).value;
    assert.deepEqual(first, [[4n], [6n]]);
    assert.deepEqual(second, [[6n]]);
  });

  test('an evaluation cancelled inside a comprehension leaves the next one intact', () => {
    const env = new Env(BASE_LIBRARIES, [{ name: 'xs', type: listOf(INT) }]);
    const c = compile(env, 'xs.map(x, x + 1) + xs.map(x, x)');
    assert.ok(!('issues' in c));
    const p = plan(c.ast, env);
    const xs = [1n, 2n, 3n];
    const cancelled = p.eval({ xs }, { costLimit: 12 }).value;
    assert.deepEqual(cancelled, new CelError(COST_LIMIT_EXCEEDED));
    const ok = p.eval({ xs });
    assert.deepEqual(ok.value, [2n, 3n, 4n, 1n, 2n, 3n]);
    assert.deepEqual(value('[1, 2].map(x, x) + [3]'), [1n, 2n, 3n]);
  });

  test('accumulators are released however the comprehension ends', () => {
    assert.deepEqual(value('[1, 0].map(x, 2 / x)'), new CelError('division by zero'));
    assert.deepEqual(value('[[1], [2]].map(l, l.map(x, x / 0))'), new CelError('division by zero'));
    assert.deepEqual(value('[1, 2].filter(x, x > 1).map(y, y)'), [2n]);
    assert.equal(mutableListMark(), 0);
  });

  test('all and exists over lists: the same values and costs as the general fold', () => {
    // A parse-only program resolves no overloads, so it runs the general fold.
    const types = { l: listOf(DYN), n: INT };
    const vars = { l: [1n, 'a', 0n, 2n, true], n: 3n };
    for (const expr of [
      '[1, 2, 3].all(x, x > 0)', '[1, 2, 3].exists(x, x == 2)', '[1, 2, 3].exists(x, x == 4)', '[].all(x, x)', '[].exists(x, x)',
      '[0, 2].exists(x, 1 / x == 1)', '[0, 1].exists(x, 1 / x == 1)', '[0, 1].all(x, 1 / x > 5)', '[1, 0].all(x, 1 / x > 0)',
      'l.all(x, x == 1)', 'l.exists(x, x == 2)', 'l.exists(x, x > 1)', 'l.all(x, x)', 'l.exists(x, x)',
      '[1, 2].all(x, [3, 4].exists(y, x + y == n + 2))', '[[1], [2, 3]].exists(a, a.all(b, b > 1))',
    ]) {
      const specialised = run(expr, { types, vars });
      const general = run(expr, { types, vars, unchecked: true });
      assert.deepEqual(specialised, general, expr);
      for (const costLimit of [3, 8, 15]) {
        assert.deepEqual(run(expr, { types, vars, costLimit }).value, run(expr, { types, vars, costLimit, unchecked: true }).value, `${expr} limit ${costLimit}`);
      }
    }
  });

  test('two-variable comprehensions number list elements', () => {
    assert.deepEqual(value("['a', 'b'].transformList(i, v, string(i) + v)"), ['0a', '1b']);
  });
});

describe('equality costs', () => {
  test('strings cost ceil(min(code points) / 10), empty strings nothing', () => {
    const c = (a: string, b: string): number => cost('a == b', { types: { a: STRING, b: STRING }, vars: { a, b } }) - 2;
    assert.equal(c('', 'abc'), 0);
    assert.equal(c('abcdefghij', 'abcdefghijklmnopq'), 1);
    assert.equal(c('abcdefghijk', 'abcdefghijklmnopq'), 2);
    assert.equal(c('😀😀😀😀😀😀😀😀😀😀😀', '😀😀😀😀😀😀😀😀😀😀😀'), 2); // 22 units, 11 code points
    assert.equal(c('😀😀😀😀😀😀', '😀😀😀😀😀😀😀😀😀😀😀'), 1); // 12 units, 6 code points
    assert.equal(c('x'.repeat(101), 'x'.repeat(100)), 10);
    assert.equal(cost('a != b', { types: { a: STRING, b: STRING }, vars: { a: 'x'.repeat(25), b: 'y'.repeat(30) } }) - 2, 3);
  });

  test('net.IP and net.CIDR: == costs 1 (Kubernetes), != counts bytes (cel-go)', () => {
    const diff = (l: string, r: string): number => k8s(`${l} != ${r}`).cost - k8s(`${l} == ${r}`).cost;
    assert.equal(k8s("ip('2001:db8::68') == ip('2001:db8::68')").value, true);
    assert.equal(diff("ip('2001:db8::68')", "ip('2001:db8::69')"), 1); // 16 bytes: ceil(1.6) = 2
    assert.equal(diff("ip('192.168.0.1')", "ip('192.168.0.2')"), 0); // 4 bytes: 1
    assert.equal(diff("cidr('2001:db8::/96')", "cidr('2001:db8::/96')"), 1); // 12 bytes
    assert.equal(diff("cidr('192.168.0.0/24')", "cidr('192.168.0.0/24')"), 0);
    assert.equal(diff("cidr('::/0')", "cidr('::/0')"), -1); // a /0 prefix has size 0
    assert.equal(k8s("ip('2001:db8::68') != ip('2001:db8::69')").value, true);
    // Other library values are not sized: both cost 1.
    assert.equal(diff("quantity('1Gi')", "quantity('1G')"), 0);
  });
});

describe('plan-time regex compilation', () => {
  test("find and findAll with a bad constant pattern fail planning with Go's message", () => {
    for (const [expr, msg] of [
      ["'abc'.find('[')", 'error parsing regexp: missing closing ]: `[`'],
      ["'abc'.findAll('(a')", 'error parsing regexp: missing closing ): `(a`'],
      ["'abc'.findAll('a**', 2)", 'error parsing regexp: invalid nested repetition operator: `**`'],
    ]) {
      const c = compile(K8S_ENV, expr!);
      assert.ok(!('issues' in c), expr);
      assert.throws(() => plan(c.ast, K8S_ENV), (e: unknown) => e instanceof CelPlanError && e.message === msg, expr);
    }
  });

  test('a pattern from data fails at evaluation instead', () => {
    const r = run("'abc'.find(p)", { types: { p: STRING }, vars: { p: '[' }, libraries: [...BASE_LIBRARIES, ...KUBERNETES_EXTENSION_LIBRARIES] });
    assert.deepEqual(r.value, new CelError('Illegal regex: error parsing regexp: missing closing ]: `[`'));
  });
});

test('timestamps from JSON compare and add as the general path does', () => {
  const T = obj('t', { a: { kind: 'timestamp' }, d: { kind: 'duration' } });
  const env = new Env(BASE_LIBRARIES, [{ name: 'self', type: T }]);
  const r = k8s('self.a + self.d', { self: jsonToVal({ a: '2024-01-01T00:00:00.5+01:00', d: '1h30m' }, T) }, env).value;
  assert.ok(r instanceof Timestamp);
  assert.equal(r.nanos, BigInt(Date.parse('2024-01-01T00:30:00Z')) * 1_000_000n + 500_000_000n);
});
