// Kubernetes' semver library (pkg/cel/library/semverlib.go and semver_test.go) at
// SemverVersion(1), through the declared overloads.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SEMVER_LIBRARY as S, SemverValue, semverLibrary } from '../../src/cel/lib/semver.js';
import type { Val } from '../../src/cel/values.js';
import { celEquals } from '../../src/cel/value-ops.js';
import { assertError, call, cost } from './lib-support.js';

const sv = (s: string, normalize?: boolean): Val =>
  normalize === undefined ? call(S, 'string_to_semver', s) : call(S, 'string_bool_to_semver', s, normalize);
const isSv = (s: string, normalize?: boolean): Val =>
  normalize === undefined ? call(S, 'is_semver_string', s) : call(S, 'is_semver_string_bool', s, normalize);

describe('semver', () => {
  it('version 1 adds the normalizing overloads', () => {
    const ids = (lib: typeof S) => lib.functions.flatMap((f) => f.overloads.map((o) => o.id));
    assert.ok(ids(S).includes('string_bool_to_semver') && ids(S).includes('is_semver_string_bool'));
    assert.ok(!ids(semverLibrary(0)).includes('string_bool_to_semver'));
  });

  it('parses strictly by default (semver_test.go)', () => {
    assert.ok(sv('1.2.3') instanceof SemverValue);
    assertError(sv('v1.0'), 'No Major.Minor.Patch elements found');
    assert.equal(isSv('1.2.3-beta.1+build.1'), true);
    for (const s of ['', 'v1.0.0', ' 1.0.0', '1. 0.0', '1.0.0 ', '01.01.01', '1', '1.1']) assert.equal(isSv(s), false, s);
  });

  it('normalizes on request', () => {
    for (const s of ['', ' 1.0.0', '1. 0.0', '1.0.0 ']) assert.equal(isSv(s, true), false, s);
    for (const s of ['v1.0.0', '01.01.01', '1', '1.1']) assert.equal(isSv(s, true), true, s);
    assert.equal(celEquals(sv('v01.01', true), sv('1.1.0')), true);
    assertError(sv('1-beta', true), 'short version cannot contain PreRelease/Build meta data');
  });

  it("reports blang/semver's errors", () => {
    assertError(sv(''), 'Version string empty');
    assertError(sv('a.2.3'), 'Invalid character(s) found in major number "a"');
    assertError(sv('01.2.3'), 'Major number must not contain leading zeroes "01"');
    assertError(sv('1.02.3'), 'Minor number must not contain leading zeroes "02"');
    assertError(sv('1.2.03'), 'Patch number must not contain leading zeroes "03"');
    assertError(sv('1..3'), 'strconv.ParseUint: parsing "": invalid syntax');
    assertError(sv('1.2.3-'), 'Prerelease is empty');
    assertError(sv('1.2.3-01'), 'Numeric PreRelease version must not contain leading zeroes "01"');
    assertError(sv('1.2.3-a_b'), 'Invalid character(s) found in prerelease "a_b"');
    assertError(sv('1.2.3+'), 'Build meta data is empty');
    assertError(sv('1.2.3+a_b'), 'Invalid character(s) found in build meta data "a_b"');
    assertError(sv('99999999999999999999.0.0'), 'strconv.ParseUint: parsing "99999999999999999999": value out of range');
  });

  it('compares by precedence, ignoring build metadata', () => {
    assert.equal(celEquals(sv('1.2.3'), sv('1.2.3')), true);
    assert.equal(celEquals(sv('1.2.3'), sv('1.0.0')), false);
    assert.equal(celEquals(sv('1.2.3+a'), sv('1.2.3+b')), true);
    assert.equal(call(S, 'semver_is_less_than', sv('1.0.0'), sv('1.2.3')), true);
    assert.equal(call(S, 'semver_is_less_than', sv('1.0.0'), sv('1.0.0')), false);
    assert.equal(call(S, 'semver_is_greater_than', sv('1.2.3'), sv('1.0.0')), true);
    assert.equal(call(S, 'semver_is_greater_than', sv('1.0.0'), sv('1.0.0')), false);
    assert.equal(call(S, 'semver_compare_to', sv('1.2.3'), sv('1.2.3')), 0n);
    assert.equal(call(S, 'semver_compare_to', sv('1.0.0'), sv('1.2.3')), -1n);
    assert.equal(call(S, 'semver_compare_to', sv('1.2.3'), sv('1.0.0')), 1n);
    // SemVer 2.0.0 §11 precedence.
    const order = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
    for (let i = 1; i < order.length; i++) assert.equal(call(S, 'semver_compare_to', sv(order[i - 1]!), sv(order[i]!)), -1n, order[i]);
  });

  it('major, minor, patch', () => {
    assert.equal(call(S, 'semver_major', sv('1.2.3')), 1n);
    assert.equal(call(S, 'semver_minor', sv('1.2.3')), 2n);
    assert.equal(call(S, 'semver_patch', sv('1.2.3')), 3n);
    // types.Int(uint64) wraps.
    assert.equal(call(S, 'semver_major', sv('18446744073709551615.0.0')), -1n);
  });

  it('costs a traversal to parse, 1 per operation', () => {
    assert.equal(cost(S, 'string_to_semver', '10.20.30-rc.1'), 2);
    assert.equal(cost(S, 'is_semver_string_bool', 'v1', true), 1);
    assert.equal(cost(S, 'semver_major', sv('1.2.3')), 1);
  });
});
