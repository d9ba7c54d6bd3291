// The extension libraries end to end (compile → plan → eval): the expression tests of
// k8s.io/apiserver v0.33.0 pkg/cel/library/*_test.go and the runtime costs of its cost_test.go.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../../src/cel/compile.js';
import { plan } from '../../src/cel/program.js';
import { Env } from '../../src/cel/env.js';
import { formatIssues } from '../../src/cel/issues.js';
import { STANDARD_LIBRARY } from '../../src/cel/stdlib.js';
import { OPTIONAL_LIBRARY } from '../../src/cel/optional-lib.js';
import { COMPREHENSIONS_LIBRARY } from '../../src/cel/stdlib-comprehensions.js';
import { KUBERNETES_EXTENSION_LIBRARIES, stringFormatValidator } from '../../src/cel/lib/index.js';
import { KUBERNETES_VALIDATORS } from '../../src/cel/checker-validators.js';
import { CelError, Optional, type Val } from '../../src/cel/values.js';
import { celEquals } from '../../src/cel/value-ops.js';

const env = new Env([STANDARD_LIBRARY, OPTIONAL_LIBRARY, COMPREHENSIONS_LIBRARY, ...KUBERNETES_EXTENSION_LIBRARIES]);

/** The library tests build their environments without Kubernetes' AST validators. */
function run(expr: string, opts: { validators?: typeof KUBERNETES_VALIDATORS; optimize?: boolean } = {}): { value: Val; cost: number } {
  const c = compile(env, expr, { check: { validators: opts.validators ?? [stringFormatValidator] } });
  if ('issues' in c) throw new Error(formatIssues(c.issues));
  return plan(c.ast, env, { optimize: opts.optimize ?? false }).eval({});
}

const evaluate = (expr: string): Val => run(expr).value;

function compileError(expr: string): string {
  const c = compile(env, expr, { check: { validators: [stringFormatValidator] } });
  assert.ok('issues' in c, `${expr} compiled`);
  return formatIssues(c.issues);
}

/** `expr` evaluates to `want` (compared with CEL equality) or to an error matching it. */
function expect(expr: string, want: Val | RegExp): void {
  it(expr, () => {
    const got = evaluate(expr);
    if (want instanceof RegExp) {
      assert.ok(got instanceof CelError, `${expr}: expected an error, got ${String(got)}`);
      assert.match(got.message, want);
    } else {
      assert.ok(!(got instanceof CelError), `${expr}: ${got instanceof CelError ? got.message : ''}`);
      assert.equal(celEquals(got, want), true, `${expr}: got ${String(got)}`);
    }
  });
}

describe('quantity_test.go', () => {
  expect('quantity("12Mi") == quantity("12582912")', true);
  expect('quantity("10Mo")', /^quantities must match the regular expression/);
  expect('quantity("10Mm")', /^unable to parse quantity's suffix/);
  expect('isQuantity("20")', true);
  expect('isQuantity("20M")', true);
  expect('isQuantity("20Mi")', true);
  expect('isQuantity("20Mo")', false);
  expect('isQuantity("10Mm")', false);
  it('isQuantity([1, 2, 3]) does not compile', () => {
    assert.match(compileError('isQuantity([1, 2, 3])'), /found no matching overload for 'isQuantity' applied to/);
  });
  expect('quantity("200M") == quantity("200M")', true);
  expect('quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', true);
  expect('quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")', true);
  expect('quantity("200M") == quantity("0.3G")', false);
  expect('quantity("50M").isLessThan(quantity("50Mi"))', true);
  expect('quantity("50M").isLessThan(quantity("100M"))', true);
  expect('quantity("100M").isLessThan(quantity("50M"))', false);
  expect('quantity("50Mi").isGreaterThan(quantity("50M"))', true);
  expect('quantity("150Mi").isGreaterThan(quantity("100Mi"))', true);
  expect('quantity("50M").isGreaterThan(quantity("100M"))', false);
  expect('quantity("200M").compareTo(quantity("0.2G"))', 0n);
  expect('quantity("50M").compareTo(quantity("50Mi"))', -1n);
  expect('quantity("50Mi").compareTo(quantity("50M"))', 1n);
  expect('quantity("50k").add(quantity("20")) == quantity("50.02k")', true);
  expect('quantity("50k").add(20).isLessThan(quantity("50020"))', false);
  expect('quantity("50k").sub(quantity("20")) == quantity("49.98k")', true);
  expect('quantity("50k").sub(20) == quantity("49980")', true);
  expect('quantity("50k").add(20).sub(quantity("100k")).asInteger()', -49980n);
  expect('quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()', 20n);
  expect('quantity("50k").asInteger()', 50000n);
  expect('quantity("9999999999999999999999999999999999999G").asInteger()', /cannot convert value to integer/);
  expect('quantity("9999999999999999999999999999999999999G").isInteger()', false);
  expect('quantity("50").isInteger()', true);
  expect('quantity("50.703k").asApproximateFloat()', 50703);
  expect('sign(quantity("-5"))', -1n);
});

describe('ip_test.go', () => {
  expect('ip("192.168.0.1") == ip("192.168.0.1")', true);
  expect('ip("192.168.0.1.0")',
    /^IP Address "192\.168\.0\.1\.0" parse error during conversion from string: ParseAddr\("192\.168\.0\.1\.0"\): IPv4 address too long$/);
  expect('isIP("192.168.0.1")', true);
  expect('isIP("192.168.0.1.0")', false);
  expect('ip.isCanonical("127.0.0.1")', true);
  expect('ip.isCanonical("127.0.0.1.0")', /IPv4 address too long$/);
  expect('ip("192.168.0.1").family()', 4n);
  expect('ip("0.0.0.0").isUnspecified()', true);
  expect('ip("127.0.0.1").isUnspecified()', false);
  expect('ip("127.0.0.1").isLoopback()', true);
  expect('ip("1.2.3.4").isLoopback()', false);
  expect('ip("224.0.0.1").isLinkLocalMulticast()', true);
  expect('ip("224.0.1.1").isLinkLocalMulticast()', false);
  expect('ip("169.254.169.254").isLinkLocalUnicast()', true);
  expect('ip("192.168.0.1").isLinkLocalUnicast()', false);
  expect('ip("192.168.0.1").isGlobalUnicast()', true);
  expect('ip("255.255.255.255").isGlobalUnicast()', false);
  expect('ip("2001:db8::68") == ip("2001:db8::68")', true);
  expect('ip("2001:db8:::68")', /each colon-separated field must have at least one digit \(at ":68"\)$/);
  expect('isIP("2001:db8::68")', true);
  expect('isIP("2001:db8:::68")', false);
  expect('ip.isCanonical("2001:db8::68")', true);
  expect('ip.isCanonical("2001:DB8::68")', false);
  expect('ip("2001:db8::68").family()', 6n);
  expect('ip("::").isUnspecified()', true);
  expect('ip("::1").isUnspecified()', false);
  expect('ip("::1").isLoopback()', true);
  expect('ip("2001:db8::abcd").isLoopback()', false);
  expect('ip("ff02::1").isLinkLocalMulticast()', true);
  expect('ip("fd00::1").isLinkLocalMulticast()', false);
  expect('ip("fe80::1").isLinkLocalUnicast()', true);
  expect('ip("fd80::1").isLinkLocalUnicast()', false);
  expect('ip("2001:db8::abcd").isGlobalUnicast()', true);
  expect('ip("ff00::1").isGlobalUnicast()', false);
  it('isIP(cidr(...)) does not compile', () => {
    assert.match(compileError('isIP(cidr("192.168.0.0/24"))'), /found no matching overload for 'isIP' applied to '\(net\.CIDR\)'/);
  });
  expect('string(ip("192.168.0.1"))', '192.168.0.1');
  expect('type(ip("192.168.0.1")) == net.IP', true);
});

describe('cidr_test.go', () => {
  expect('cidr("192.168.0.0/24") == cidr("192.168.0.0/24")', true);
  expect('cidr("192.168.0.0/")',
    /^network address parse error during conversion from string: network address parse error during conversion from string: netip\.ParsePrefix\("192\.168\.0\.0\/"\): bad bits after slash: ""$/);
  expect('cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', true);
  expect('cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))', false);
  expect('cidr("192.168.0.0/24").containsIP("192.168.0.1")', true);
  expect('cidr("192.168.0.0/24").containsIP("192.168.1.1")', false);
  expect('cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))', true);
  expect('cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))', true);
  expect('cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))', false);
  expect('cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))', false);
  expect('cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', true);
  expect('cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")', false);
  expect('cidr("192.168.0.0/24").ip() == ip("192.168.0.0")', true);
  expect('cidr("192.168.0.0/24").masked() == cidr("192.168.0.0/24")', true);
  expect('cidr("192.168.0.1/24").masked() == cidr("192.168.0.0/24")', true);
  expect('cidr("192.168.0.0/24").prefixLength()', 24n);
  expect('cidr("2001:db8::/32") == cidr("2001:db8::/32")', true);
  expect('cidr("2001:db8::/")', /bad bits after slash: ""$/);
  expect('cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', true);
  expect('cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))', false);
  expect('cidr("2001:db8::/32").containsIP("2001:db8::1")', true);
  expect('cidr("2001:db8::/32").containsIP("2001:dc8::1")', false);
  expect('cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))', true);
  expect('cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))', false);
  expect('cidr("2001:db8::/32").containsCIDR("2001:db8::/33")', true);
  expect('cidr("2001:db8::/32").containsCIDR("2001:db8::/31")', false);
  expect('cidr("2001:db8::/32").ip() == ip("2001:db8::")', true);
  expect('cidr("2001:db8::/32").masked() == cidr("2001:db8::/32")', true);
  expect('cidr("2001:db8:1::/32").masked() == cidr("2001:db8::/32")', true);
  expect('cidr("2001:db8::/32").prefixLength()', 32n);
  expect('string(cidr("192.168.0.0/24"))', '192.168.0.0/24');
  expect('type(cidr("192.168.0.0/24")) == net.CIDR', true);
});

describe('semver_test.go', () => {
  expect('semver("1.2.3") == semver("1.2.3")', true);
  expect('semver("v1.0")', /^No Major\.Minor\.Patch elements found$/);
  expect('isSemver("1.2.3-beta.1+build.1")', true);
  for (const s of ['', 'v1.0.0', ' 1.0.0', '1. 0.0', '1.0.0 ', '01.01.01', '1', '1.1']) expect(`isSemver("${s}")`, false);
  for (const s of ['', ' 1.0.0', '1. 0.0', '1.0.0 ']) expect(`isSemver("${s}", true)`, false);
  for (const s of ['v1.0.0', '01.01.01', '1', '1.1']) expect(`isSemver("${s}", true)`, true);
  it('isSemver([1, 2, 3]) does not compile', () => {
    assert.match(compileError('isSemver([1, 2, 3])'), /found no matching overload for 'isSemver' applied to/);
  });
  expect('semver("v01.01", true) == semver("1.1.0")', true);
  expect('semver("1.2.3") == semver("1.0.0")', false);
  expect('semver("1.0.0").isLessThan(semver("1.2.3"))', true);
  expect('semver("1.0.0").isLessThan(semver("1.0.0"))', false);
  expect('semver("1.2.3").isGreaterThan(semver("1.0.0"))', true);
  expect('semver("1.0.0").isGreaterThan(semver("1.0.0"))', false);
  expect('semver("1.2.3").compareTo(semver("1.2.3"))', 0n);
  expect('semver("1.0.0").compareTo(semver("1.2.3"))', -1n);
  expect('semver("1.2.3").compareTo(semver("1.0.0"))', 1n);
  expect('semver("1.2.3").major()', 1n);
  expect('semver("1.2.3").minor()', 2n);
  expect('semver("1.2.3").patch()', 3n);
});

describe('format_test.go', () => {
  const none = (expr: string) => it(expr, () => {
    const v = evaluate(expr);
    assert.ok(v instanceof Optional && !v.hasValue(), `${expr}: ${String(v)}`);
  });
  none('format.dns1123Label().validate("my-label-name")');
  none('format.dns1123Subdomain().validate("apiextensions.k8s.io")');
  none('format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")');
  none('format.dns1123LabelPrefix().validate("my-label-prefix-")');
  none('format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")');
  none('format.dns1035LabelPrefix().validate("my-label-prefix-")');
  none('format.uri().validate("http://example.com")');
  none('format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")');
  none('format.byte().validate("aGVsbG8=")');
  none('format.date().validate("2021-01-01")');
  none('format.datetime().validate("2021-01-01T00:00:00Z")');
  none('format.labelValue().validate("my-cool-label-Value")');
  expect('format.byte().validate("aGVsbG8") == optional.of(["invalid base64"])', true);
  expect('format.date().validate("2020-01-32") == optional.of(["invalid date"])', true);
  expect('format.datetime().validate("2020-01-32T00:00:00Z") == optional.of(["invalid datetime"])', true);
  expect('format.dns1123Label().validate("contains a space").value()[0].startsWith("a lowercase RFC 1123 label")', true);
  expect('format.named("unknown").hasValue()', false);
  const names = ['dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix', 'dns1123SubdomainPrefix',
    'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime'];
  for (const n of names) {
    expect(`format.named("${n}").hasValue()`, true);
    expect(`format.named("${n}").value() == format.${n}()`, true);
  }
  expect('format.dns1123Label() == format.dns1123Subdomain()', false);
});

describe('lists, regex, urls, sets and strings end to end', () => {
  expect('[1, 2, 3].isSorted()', true);
  expect("['a', 'b', 'b', 'c'].isSorted()", true);
  expect('[2.0, 1.0].isSorted()', false);
  expect('[1, 3].sum()', 4n);
  expect("[duration('1m'), duration('1s')].sum() == duration('1m1s')", true);
  expect('[1, 3].min()', 1n);
  expect('[1, 3].max()', 3n);
  expect('[1, 2, 2, 3].indexOf(2)', 1n);
  expect("['a', 'b', 'b', 'c'].lastIndexOf('b')", 2n);
  expect('[1.0].indexOf(1.1)', -1n);
  expect("'abc 123'.find('[0-9]+')", '123');
  expect("'123 abc 456'.findAll('[0-9]+', 1) == ['123']", true);
  expect("url('https://example.com:80/').getPort()", '80');
  expect("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}", true);
  expect("url('https://example.com/path?').getQuery() == {}", true);
  expect("isURL('../relative-path')", false);
  expect('sets.equivalent([1, 2, 3], [3u, 2.0, 1])', true);
  expect('sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])', true);
  expect("'hello mellow'.lastIndexOf('ello', 6)", 1n);
  expect("'TacoCÆt Xii'.lowerAscii()", 'tacocÆt xii');
  expect("['hello', 'mellow'].join(' ')", 'hello mellow');
  expect("'%s and %d'.format(['x', 3])", 'x and 3');
  expect("dyn('%d').format([dyn('x')])", /^error during formatting: decimal clause can only be used on integers, was given string$/);
  it('checks constant format strings at compile time', () => {
    assert.match(compileError("'%d'.format(['x'])"), /error during formatting: decimal clause can only be used on integers, was given string/);
    assert.match(compileError("'%s %s'.format(['a', 'b', 'c'])"), /too many arguments supplied to string\.format \(expected 2, got 3\)/);
    assert.match(compileError("'%s %s'.format(['a'])"), /index 1 out of range/);
    assert.match(compileError("'filler %'.format([])"), /unexpected end of string/);
    assert.match(compileError("'%j'.format([1])"), /could not parse formatting clause: unrecognized formatting clause "j"/);
    assert.match(compileError("'double is %.34'.format([5.0])"), /error while parsing precision: could not find end of precision specifier/);
    assert.match(compileError("'%f'.format([true])"), /fixed-point clause can only be used on doubles, was given bool/);
    assert.match(compileError("'%s'.format([[1, optional.none()]])"), /string clause can only be used on .*was given optional_type/);
  });
  it("exempts format's arguments from Kubernetes' homogeneous literal validation", () => {
    const validators = [...KUBERNETES_VALIDATORS, stringFormatValidator];
    assert.equal(run("'%s is %d'.format(['x', 3])", { validators }).value, 'x is 3');
    const c = compile(env, "['x', 3].size() == 2", { check: { validators } });
    assert.ok('issues' in c && /expected type 'string' but found 'int'/.test(formatIssues(c.issues)));
  });
});

describe('runtime costs (cost_test.go, without OptOptimize)', () => {
  const cost = (expr: string, want: number) => it(`${expr} costs ${want}`, () => {
    const r = run(expr, { validators: [] });
    assert.ok(!(r.value instanceof CelError), r.value instanceof CelError ? r.value.message : '');
    assert.equal(r.cost, want);
  });
  const lists: [string, number, number][] = [
    // [list literal, sum/isSorted/min/max cost, indexOf cost]
    ['[1, 2, 3, 4, 5]', 15, 15],
    ['[uint(1), uint(2), uint(3), uint(4), uint(5)]', 20, 21],
    ['[1.0, 2.0, 3.0, 4.0, 5.0]', 15, 15],
    ['[duration(\'1s\'), duration(\'2s\'), duration(\'3s\'), duration(\'4s\'), duration(\'5s\')]', 20, 21],
  ];
  const params = ['3', 'uint(3)', '3.0', "duration('3s')"];
  lists.forEach(([l, sum, index], i) => {
    cost(`${l}.sum()`, sum);
    for (const op of ['isSorted', 'max', 'min']) cost(`${l}.${op}()`, sum);
    cost(`${l}.indexOf(${params[i]})`, index);
    cost(`${l}.lastIndexOf(${params[i]})`, index);
  });
  const strings = "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']";
  const bytes = "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]";
  const timestamps = "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), " +
    "timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), timestamp('2011-01-05T00:00:00.000+01:00')]";
  for (const op of ['isSorted', 'max', 'min']) {
    cost(`[false, true, false, true, false].${op}()`, 15);
    cost(`${strings}.${op}()`, 15);
    cost(`${bytes}.${op}()`, 25);
    cost(`${timestamps}.${op}()`, 20);
  }
  cost('[false, true, false, true, false].indexOf(true)', 15);
  cost(`${strings}.indexOf('x')`, 15);
  cost(`${bytes}.lastIndexOf(bytes('x'))`, 26);
  cost(`${timestamps}.indexOf(timestamp('2011-01-03T00:00:00.000+01:00'))`, 21);
  cost("'01234567890123456789012345678901234567890123456789'.indexOf('123')", 5);
  cost("'01234567890123456789012345678901234567890123456789'.lastIndexOf('123')", 5);

  for (const op of ['.getScheme()', '.getHostname()', '.getHost()', '.getPort()', '.getEscapedPath()', '.getQuery()']) {
    cost(`url('https:://kubernetes.io/')${op}`, 4);
  }
  cost("url('https:://kubernetes.io/') == url('https:://kubernetes.io/')", 7);
  cost("url('https:://kubernetes.io/') == url('http://x.b')", 5);

  const ipv4 = "ip('192.168.0.1')";
  const ipv6 = "ip('2001:db8:3333:4444:5555:6666:7777:8888')";
  for (const [ip, base] of [[ipv4, 2], [ipv6, 4]] as const) {
    cost(ip, base);
    for (const op of ['.family()', '.isUnspecified()', '.isLoopback()', '.isLinkLocalMulticast()', '.isLinkLocalUnicast()', '.isGlobalUnicast()']) {
      cost(ip + op, base + 1);
    }
    cost(`${ip} == ip('192.168.0.1')`, base + 2 + 1);
  }
  cost("ip.isCanonical('192.168.0.1')", 3);
  cost("ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')", 8);
  cost("ip.isCanonical('2001:db8::abcd')", 3);

  const cidr4 = "cidr('192.168.0.0/16')";
  const cidr6 = "cidr('2001:db8::/32')";
  for (const c of [cidr4, cidr6]) {
    cost(c, 2);
    for (const op of ['.ip()', '.prefixLength()', '.masked()']) cost(c + op, 3);
    cost(`${c} == cidr('2001:db8::/32')`, 5);
  }
  for (const [op, extra] of [
    [".containsCIDR(cidr('192.0.0.0/30'))", 5], [".containsCIDR(cidr('192.168.0.0/16'))", 5], [".containsCIDR('192.0.0.0/30')", 5],
    [".containsCIDR('192.168.0.0/16')", 5], [".containsIP(ip('192.0.0.1'))", 2], [".containsIP(ip('192.169.0.1'))", 3],
    [".containsIP(ip('192.169.169.250'))", 3], [".containsIP('192.0.0.1')", 2], [".containsIP('192.169.0.1')", 3],
  ] as const) cost(cidr4 + op, 2 + extra);
  for (const [op, extra] of [
    [".containsCIDR(cidr('2001:db8::/126'))", 5], [".containsCIDR(cidr('2001:db8::/32'))", 5], [".containsCIDR('2001:db8::/126')", 5],
    [".containsCIDR('2001:db8::/32')", 5], [".containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))", 5], [".containsIP(ip('2001:db8::1'))", 3],
    [".containsIP('2001:db8:3333:4444:5555:6666:7777:8888')", 5], [".containsIP('2001:db8::1')", 3],
  ] as const) cost(cidr6 + op, 2 + extra);

  for (const [expr, c] of [
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3], ["'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", 9],
    ["'ABCDEFGHIJ abcdefghij'.upperAscii()", 3], ["'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", 9],
    ["strings.quote('ABCDEFGHIJ abcdefghij')", 3], ["strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')", 9],
    ["'abc 123 def 123'.replace('123', '456')", 3], ["'abc 123 def 123'.replace('', 'x')", 3], ["'abc 123 def 123'.replace('123', '')", 3],
    ["'abc 123 def 123'.replace('123', '456', 1)", 3], ["'abc 123 def 123'.split(' ')", 3], ["'abc 123 def 123'.split(' ', 1)", 3],
    ["'abc 123 def 123'.substring(5)", 2], ["'abc 123 def 123'.substring(5, 8)", 2], ["'  abc 123 def 123  '.trim()", 2],
    ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')", 15], ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", 13],
    ["'abc 123 def 123'.find('123')", 2], ["'abc 123 def 123'.findAll('123')", 2], ["'abc 123 def 123'.findAll('123', 1)", 2],
  ] as const) cost(expr, c);

  for (const [expr, c] of [
    ['quantity("12Mi")', 1], ['isQuantity("20")', 1], ['isQuantity("20M")', 1], ['quantity("200M") == quantity("200M")', 3],
    ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', 6],
    ['quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")', 9],
    ['quantity("50M").isLessThan(quantity("50Mi"))', 3], ['quantity("50Mi").isGreaterThan(quantity("50M"))', 3],
    ['quantity("200M").compareTo(quantity("0.2G")) > 0', 4], ['quantity("50k").add(quantity("20")) == quantity("50.02k")', 5],
    ['quantity("50k").sub(quantity("20")) == quantity("49.98k")', 5], ['quantity("50k").sub(20) == quantity("49980")', 4],
    ['quantity("50k").add(20).sub(quantity("100k")).asInteger() > 0', 6],
    ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() > 0', 7], ['quantity("50k").asInteger() > 0', 3],
    ['quantity("50").isInteger()', 2], ['quantity("50.703k").asApproximateFloat() > 0.0', 3],
  ] as const) cost(expr, c);

  cost('format.named("dns1123subdomain")', 1);
  cost('format.named("dns1123Subdomain").value().validate("my-name")', 17);
  cost('format.named("dns1123Label").value().validate("my-name")', 10);
  cost('format.named("dns1123Label").value() == format.named("dns1123Label").value()', 5);

  for (const [expr, c] of [
    ['sets.contains([], [])', 21], ['sets.contains([1], [])', 21], ['sets.contains([1], [1])', 22], ['sets.contains([1], [1, 1])', 23],
    ['sets.contains([1, 1], [1])', 23], ['sets.contains([2, 1], [1])', 23], ['sets.contains([1, 2, 3, 4], [2, 3])', 29],
    ['sets.contains([1], [1.0, 1])', 23], ['sets.contains([1, 2], [2u, 2.0])', 25], ['sets.contains([1, 2u], [2, 2.0])', 25],
    ['sets.contains([1, 2.0, 3u], [1.0, 2u, 3])', 30], ['sets.contains([[1], [2, 3]], [[2, 3.0]])', 53], ['!sets.contains([1], [2])', 23],
    ['!sets.contains([1], [1, 2])', 24], ['!sets.contains([1], ["1", 1])', 24], ['!sets.contains([1], [1.1, 1u])', 24],
    ['sets.equivalent([], [])', 21], ['sets.equivalent([1], [1])', 23], ['sets.equivalent([1], [1, 1])', 25], ['sets.equivalent([1, 1], [1])', 25],
    ['sets.equivalent([1], [1u, 1.0])', 25], ['sets.equivalent([1, 2, 3], [3u, 2.0, 1])', 39],
    ['sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])', 69], ['!sets.equivalent([2, 1], [1])', 26], ['!sets.equivalent([1], [1, 2])', 26],
    ['!sets.equivalent([1, 2], [2u, 2, 2.0])', 34], ['!sets.equivalent([1, 2], [1u, 2, 2.3])', 34], ['sets.intersects([1], [1])', 22],
    ['sets.intersects([1], [1, 1])', 23], ['sets.intersects([1, 1], [1])', 23], ['sets.intersects([2, 1], [1])', 23],
    ['sets.intersects([1], [1, 2])', 23], ['sets.intersects([1], [1.0, 2])', 23], ['sets.intersects([1, 2], [2u, 2, 2.0])', 27],
    ['sets.intersects([1, 2], [1u, 2, 2.3])', 27], ['sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])', 65], ['!sets.intersects([], [])', 22],
    ['!sets.intersects([1], [])', 22], ['!sets.intersects([1], [2])', 23], ['!sets.intersects([1], ["1", 2])', 24],
    ['!sets.intersects([1], [1.1, 2u])', 24],
  ] as const) cost(expr, c);

  for (const [expr, c] of [
    ['semver("1.0.0")', 1], ['semver("1234.56789012345.67890123456789")', 4], ['isSemver("1.0.0")', 1],
    ['isSemver("1234.56789012345.67890123456789")', 4], ['semver("1.2.3").major()', 2], ['semver("1.2.3").minor()', 2],
    ['semver("1.2.3").patch()', 2], ['semver("1.0.0").isLessThan(semver("1.1.0"))', 3], ['semver("1.1.0").isGreaterThan(semver("1.0.0"))', 3],
    ['semver("1.0.0").compareTo(semver("1.2.3"))', 3],
  ] as const) cost(expr, c);
});
