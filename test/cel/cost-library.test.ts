// Estimated costs with Kubernetes' library estimates: k8s.io/apiserver v0.33.0
// pkg/cel/library/cost_test.go (its test size estimator: strings and bytes of size 0..12).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../../src/cel/compile.js';
import { estimateCost, type SizeEstimator } from '../../src/cel/cost-estimator.js';
import { kubernetesCallEstimator } from '../../src/cel/cost-estimator-calls.js';
import { STANDARD_LIBRARY } from '../../src/cel/stdlib.js';
import { OPTIONAL_LIBRARY } from '../../src/cel/optional-lib.js';
import { KUBERNETES_EXTENSION_LIBRARIES } from '../../src/cel/lib/index.js';
import { COMPREHENSIONS_LIBRARY } from '../../src/cel/stdlib-comprehensions.js';
import { formatIssues } from '../../src/cel/issues.js';
import { Env } from '../../src/cel/env.js';
import type { Range } from '../../src/cel/decls.js';

const env = new Env([STANDARD_LIBRARY, OPTIONAL_LIBRARY, COMPREHENSIONS_LIBRARY, ...KUBERNETES_EXTENSION_LIBRARIES]);

const stringsOf12: SizeEstimator = (node) =>
  node.type.kind === 'primitive' && (node.type.name === 'string' || node.type.name === 'bytes') ? { min: 0, max: 12 } : undefined;

function estimate(expr: string): Range {
  // The library tests' environment has no AST validators (mixed-type literals are fine there).
  const r = compile(env, expr, { check: { validators: [] } });
  if ('issues' in r) throw new Error(formatIssues(r.issues));
  return estimateCost(r.ast, env, { sizeEstimator: stringsOf12 });
}

const check = (expr: string, min: number, max = min): void => {
  it(expr, () => assert.deepEqual(estimate(expr), { min, max }));
};

const intList = '[1, 2, 3, 4, 5]';
const uintList = '[uint(1), uint(2), uint(3), uint(4), uint(5)]';
const doubleList = '[1.0, 2.0, 3.0, 4.0, 5.0]';
const boolList = '[false, true, false, true, false]';
const stringList = "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']";
const bytesList = "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]";
const durationList = "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]";
const timestampList =
  "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), " +
  "timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), " +
  "timestamp('2011-01-05T00:00:00.000+01:00')]";
const longString = "'01234567890123456789012345678901234567890123456789'";

describe('lists library (TestListsCost, TestIndexOfCost)', () => {
  check(intList + '.sum()', 15);
  check(uintList + '.sum()', 20);
  check(doubleList + '.sum()', 15);
  check(durationList + '.sum()', 20);
  for (const op of ['.isSorted()', '.max()', '.min()']) {
    check(intList + op, 15);
    check(uintList + op, 20);
    check(doubleList + op, 15);
    check(boolList + op, 15);
    check(stringList + op, 15, 25);
    check(bytesList + op, 25, 35);
    check(durationList + op, 20);
    check(timestampList + op, 20);
  }
  for (const op of ['indexOf', 'lastIndexOf']) {
    check(`${intList}.${op}(3)`, 15);
    check(`${uintList}.${op}(uint(3))`, 21);
    check(`${doubleList}.${op}(3.0)`, 15);
    check(`${boolList}.${op}(true)`, 15);
    check(`${stringList}.${op}('x')`, 15, 25);
    check(`${bytesList}.${op}(bytes('x'))`, 26, 36);
    check(`${durationList}.${op}(duration('3s'))`, 21);
    check(`${timestampList}.${op}(timestamp('2011-01-03T00:00:00.000+01:00'))`, 21);
    // Also defined on strings.
    check(`${longString}.${op}('123')`, 5);
  }
});

describe('urls library (TestURLsCost)', () => {
  for (const op of ['.getScheme()', '.getHostname()', '.getHost()', '.getPort()', '.getEscapedPath()', '.getQuery()']) {
    check(`url('https:://kubernetes.io/')${op}`, 4);
  }
  check("url('https:://kubernetes.io/') == url('https:://kubernetes.io/')", 7, 9);
  check("url('https:://kubernetes.io/') == url('http://x.b')", 5);
});

describe('ip library (TestIPCost, TestIPIsCanonicalCost)', () => {
  const v4 = "ip('192.168.0.1')";
  const v6 = "ip('2001:db8:3333:4444:5555:6666:7777:8888')";
  for (const [ip, base] of [[v4, 2], [v6, 4]] as const) {
    check(ip, base);
    for (const op of ['.family()', '.isUnspecified()', '.isLoopback()', '.isLinkLocalMulticast()', '.isLinkLocalUnicast()', '.isGlobalUnicast()']) {
      check(ip + op, base + 1);
    }
    check(`${ip} == ip('192.168.0.1')`, base + 2 + 1);
  }
  check("ip.isCanonical('192.168.0.1')", 3);
  check("ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')", 8);
  check("ip.isCanonical('2001:db8::abcd')", 3);
});

describe('cidr library (TestCIDRCost)', () => {
  const v4 = "cidr('192.168.0.0/16')";
  const v6 = "cidr('2001:db8::/32')";
  for (const c of [v4, v6]) {
    check(c, 2);
    for (const op of ['.ip()', '.prefixLength()', '.masked()']) check(c + op, 3);
    check(`${c} == cidr('2001:db8::/32')`, 5);
  }
  // [operation, extra min, extra max] over the base cost of 2.
  const v4ops: [string, number, number][] = [
    [".containsCIDR(cidr('192.0.0.0/30'))", 5, 9],
    [".containsCIDR(cidr('192.168.0.0/16'))", 5, 9],
    [".containsCIDR('192.0.0.0/30')", 5, 9],
    [".containsCIDR('192.168.0.0/16')", 5, 9],
    [".containsIP(ip('192.0.0.1'))", 2, 5],
    [".containsIP(ip('192.169.0.1'))", 3, 6],
    [".containsIP(ip('192.169.169.250'))", 3, 6],
    [".containsIP('192.0.0.1')", 2, 5],
    [".containsIP('192.169.0.1')", 3, 6],
  ];
  const v6ops: [string, number, number][] = [
    [".containsCIDR(cidr('2001:db8::/126'))", 5, 9],
    [".containsCIDR(cidr('2001:db8::/32'))", 5, 9],
    [".containsCIDR('2001:db8::/126')", 5, 9],
    [".containsCIDR('2001:db8::/32')", 5, 9],
    [".containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))", 5, 8],
    [".containsIP(ip('2001:db8::1'))", 3, 6],
    [".containsIP('2001:db8:3333:4444:5555:6666:7777:8888')", 5, 8],
    [".containsIP('2001:db8::1')", 3, 6],
  ];
  for (const [op, min, max] of v4ops) check(v4 + op, 2 + min, 2 + max);
  for (const [op, min, max] of v6ops) check(v6 + op, 2 + min, 2 + max);
});

describe('format library (TestNameFormatCost)', () => {
  check('format.named("dns1123subdomain")', 1);
  // The estimate assumes the longest format regex.
  check('format.named("dns1123Subdomain").value().validate("my-name")', 34);
  check('format.named("dns1123Label").value().validate("my-name")', 34);
  check('format.named("dns1123Label").value() == format.named("dns1123Label").value()', 5, 11);
});

describe('quantity library (TestQuantityCost)', () => {
  check('quantity("12Mi")', 1);
  check('isQuantity("20")', 1);
  check('isQuantity("20M")', 1);
  check('quantity("200M") == quantity("200M")', 3);
  check('quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', 3, 6);
  check('quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")', 3, 9);
  check('quantity("50M").isLessThan(quantity("50Mi"))', 3);
  check('quantity("50Mi").isGreaterThan(quantity("50M"))', 3);
  check('quantity("200M").compareTo(quantity("0.2G")) > 0', 4);
  check('quantity("50k").add(quantity("20")) == quantity("50.02k")', 5);
  check('quantity("50k").sub(quantity("20")) == quantity("49.98k")', 5);
  check('quantity("50k").sub(20) == quantity("49980")', 4);
  check('quantity("50k").add(20).sub(quantity("100k")).asInteger() > 0', 6);
  check('quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() > 0', 7);
  check('quantity("50k").asInteger() > 0', 3);
  check('quantity("50").isInteger()', 2);
  check('quantity("50.703k").asApproximateFloat() > 0.0', 3);
});

describe('semver library (TestSemverCost)', () => {
  check('semver("1.0.0")', 1);
  check('semver("1234.56789012345.67890123456789")', 4);
  check('isSemver("1.0.0")', 1);
  check('isSemver("1234.56789012345.67890123456789")', 4);
  check('semver("1.2.3").major()', 2);
  check('semver("1.2.3").minor()', 2);
  check('semver("1.2.3").patch()', 2);
  check('semver("1.0.0").isLessThan(semver("1.1.0"))', 3);
  check('semver("1.1.0").isGreaterThan(semver("1.0.0"))', 3);
  check('semver("1.0.0").compareTo(semver("1.2.3"))', 3);
  check('semver("1.0.0") == semver("1.0.0")', 3);
});

describe('strings library (TestStringLibrary)', () => {
  check("'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3);
  check("'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", 7, 9);
  check("'ABCDEFGHIJ abcdefghij'.upperAscii()", 3);
  check("'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", 7, 9);
  check("strings.quote('ABCDEFGHIJ abcdefghij')", 3);
  check("strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')", 7, 11);
  check("'abc 123 def 123'.replace('123', '456')", 3);
  check("'abc 123 def 123'.replace('', 'x')", 3);
  check("'abc 123 def 123'.replace('123', '')", 3);
  check("'abc 123 def 123'.replace('123', '456', 1)", 3);
  check("'abc 123 def 123'.split(' ')", 3);
  check("'abc 123 def 123'.split(' ', 1)", 3);
  check("'abc 123 def 123'.substring(5)", 2);
  check("'abc 123 def 123'.substring(5, 8)", 2);
  check("'  abc 123 def 123  '.trim()", 2);
  check("['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')", 11, 23);
  check("['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", 10, 22);
  check("'abc 123 def 123'.find('123')", 2);
  check("'abc 123 def 123'.findAll('123')", 2);
  check("'abc 123 def 123'.findAll('123', 1)", 2);
});

describe('sets library (TestSetsCost)', () => {
  const cases: [string, number][] = [
    ['sets.contains([], [])', 21],
    ['sets.contains([1], [])', 21],
    ['sets.contains([1], [1])', 22],
    ['sets.contains([1], [1, 1])', 23],
    ['sets.contains([1, 1], [1])', 23],
    ['sets.contains([2, 1], [1])', 23],
    ['sets.contains([1, 2, 3, 4], [2, 3])', 29],
    ['sets.contains([1], [1.0, 1])', 23],
    ['sets.contains([1, 2], [2u, 2.0])', 25],
    ['sets.contains([1, 2u], [2, 2.0])', 25],
    ['sets.contains([1, 2.0, 3u], [1.0, 2u, 3])', 30],
    ['sets.contains([[1], [2, 3]], [[2, 3.0]])', 53],
    ['!sets.contains([1], [2])', 23],
    ['!sets.contains([1], [1, 2])', 24],
    ['!sets.contains([1], ["1", 1])', 24],
    ['!sets.contains([1], [1.1, 1u])', 24],
    ['sets.equivalent([], [])', 21],
    ['sets.equivalent([1], [1])', 23],
    ['sets.equivalent([1], [1, 1])', 25],
    ['sets.equivalent([1, 1], [1])', 25],
    ['sets.equivalent([1], [1u, 1.0])', 25],
    ['sets.equivalent([1, 2, 3], [3u, 2.0, 1])', 39],
    ['sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])', 69],
    ['!sets.equivalent([2, 1], [1])', 26],
    ['!sets.equivalent([1], [1, 2])', 26],
    ['!sets.equivalent([1, 2], [2u, 2, 2.0])', 34],
    ['!sets.equivalent([1, 2], [1u, 2, 2.3])', 34],
    ['sets.intersects([1], [1])', 22],
    ['sets.intersects([1], [1, 1])', 23],
    ['sets.intersects([1, 1], [1])', 23],
    ['sets.intersects([2, 1], [1])', 23],
    ['sets.intersects([1], [1, 2])', 23],
    ['sets.intersects([1], [1.0, 2])', 23],
    ['sets.intersects([1, 2], [2u, 2, 2.0])', 27],
    ['sets.intersects([1, 2], [1u, 2, 2.3])', 27],
    ['sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])', 65],
    ['!sets.intersects([], [])', 22],
    ['!sets.intersects([1], [])', 22],
    ['!sets.intersects([1], [2])', 23],
    ['!sets.intersects([1], ["1", 2])', 24],
    ['!sets.intersects([1], [1.1, 2u])', 24],
  ];
  for (const [expr, cost] of cases) check(expr, cost);
});

describe('two-variable comprehensions (TestTwoVariableComprehensionCost)', () => {
  check(`{'a': 1, 'b': 2}.all(k, v, v > 0)`, 37, 41);
  check(`{'a': 1, 'b': 2}.exists(k, v, v > 0)`, 39, 43);
  check(`{'a': 1, 'b': 2}.existsOne(k, v, v > 0)`, 38, 40);
  check(`{'a': 1, 'b': 2}.transformMap(k, v, v + 1)`, 71);
  check(`{'a': 1, 'b': 2}.transformMap(k, v, v < 5, v + 1)`, 67, 75);
  check(`{'a': 1, 'b': 2}.transformMapEntry(k, v, {k: v + 1})`, 131);
  check(`{'a': 1, 'b': 2}.transformMapEntry(k, v, v < 5, {k: v + 1})`, 67, 135);
  check(`[1, 2].all(i, v, v > 0)`, 17, 21);
  check(`[1, 2].exists(i, v, v > 0)`, 19, 23);
  check(`[1, 2].existsOne(i, v, v > 0)`, 18, 20);
  check(`[1, 2].transformList(i, v, v + 1)`, 49);
  check(`[1, 2].transformList(i, v, v < 5, v + 1)`, 27, 53);
});

describe('replace result sizes (TestSize)', () => {
  const node = (size: Range) => ({ path: undefined, type: { kind: 'primitive', name: 'string' } as const, expr: undefined, computedSize: size });
  const exact = (n: number): Range => ({ min: n, max: n });
  const unknownSize = (): Range => ({ min: 0, max: 0 });
  const cases: [string, Range, Range[], Range][] = [
    ['replace empty with char', exact(3), [exact(0), exact(1)], exact(7)],
    ['maybe replace char with empty', exact(3), [exact(1), exact(0)], { min: 0, max: 3 }],
    ['maybe replace repeated', exact(4), [exact(2), exact(4)], { min: 4, max: 8 }],
    ['maybe replace empty', exact(4), [{ min: 0, max: 1 }, { min: 0, max: 2 }], { min: 0, max: 14 }],
    ['replace non-empty size range, maybe larger', exact(4), [{ min: 1, max: 1 }, { min: 1, max: 2 }], { min: 4, max: 8 }],
    ['replace non-empty size range, maybe smaller', exact(4), [{ min: 1, max: 2 }, { min: 1, max: 1 }], { min: 2, max: 4 }],
  ];
  for (const [name, target, args, want] of cases) {
    it(name, () => {
      const sizeOf = (n: { computedSize: Range | undefined }): Range => n.computedSize ?? unknownSize();
      const est = kubernetesCallEstimator('replace', '', node(target), args.map(node), sizeOf);
      assert.deepEqual(est?.resultSize, want);
    });
  }
});
