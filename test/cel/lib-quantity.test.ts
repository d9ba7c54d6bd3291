// Kubernetes' quantity library (pkg/cel/library/quantity.go and quantity_test.go) over
// resource.Quantity's parsing and canonical form (apimachinery pkg/api/resource).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { QUANTITY_LIBRARY as Q, QuantityValue } from '../../src/cel/lib/quantity.js';
import { Dec, Quantity, parseQuantity, type QuantityFormat } from '../../src/cel/lib/resource-quantity.js';
import type { Val } from '../../src/cel/values.js';
import { assertError, call, cost, overload } from './lib-support.js';

const q = (s: string): Val => call(Q, 'string_to_quantity', s);
const canonical = (s: string): string => {
  const v = parseQuantity(s);
  assert.ok(typeof v !== 'string', `${s}: ${String(v)}`);
  return v.toString();
};
const eq = (a: Val, b: Val): boolean => (a as QuantityValue).equals(b as QuantityValue);

describe('parsing', () => {
  it('accepts resource quantities and rejects the rest with apimachinery errors', () => {
    assert.ok(q('12Mi') instanceof QuantityValue);
    assertError(q('10Mo'), /^quantities must match the regular expression/);
    assertError(q('10Mm'), "unable to parse quantity's suffix");
    assertError(q(''), /^quantities must match the regular expression '\^\(\[\+-\]\?\[0-9\.\]\+\)/);
    assertError(q('1.2.3'), /^quantities must match/);
    assertError(q('1e'), "unable to parse quantity's suffix");
    assert.equal(call(Q, 'is_quantity_string', '20'), true);
    assert.equal(call(Q, 'is_quantity_string', '20M'), true);
    assert.equal(call(Q, 'is_quantity_string', '20Mi'), true);
    assert.equal(call(Q, 'is_quantity_string', '20Mo'), false);
    assert.equal(call(Q, 'is_quantity_string', '10Mm'), false);
  });

  it('canonicalizes as Quantity.String()', () => {
    const cases: [string, string][] = [
      ['0', '0'], ['-0', '0'], ['.', '0'], ['12Mi', '12Mi'], ['1.5Ki', '1536'], ['1024Ki', '1Mi'], ['1000m', '1'], ['1.5', '1500m'],
      ['0.2G', '200M'], ['50.703k', '50.703k'], ['1e3', '1e3'], ['1E3', '1E3'], ['100e3', '100e3'], ['-0.5', '-500m'],
      ['1n', '1n'], ['0.0000000001', '1n'], ['1.0000000001', '1000000001n'], ['16Ei', '9223372036854775807'], ['0.5Ki', '512'],
      ['1Ki', '1Ki'], ['1023', '1023'], ['5e-3', '5e-3'], ['7000000000', '7G'], ['123456789012345678901', '123456789012345678901'],
    ];
    for (const [input, want] of cases) assert.equal(canonical(input), want, input);
  });
});

describe('comparison and equality (quantity_test.go)', () => {
  it('compares values exactly across suffixes', () => {
    assert.ok(eq(q('200M'), q('200M')));
    assert.ok(eq(q('200M'), q('0.2G')) && eq(q('0.2G'), q('200M')));
    assert.ok(eq(q('2M'), q('0.002G')) && eq(q('2000k'), q('2M')) && eq(q('0.002G'), q('2000k')));
    assert.ok(!eq(q('200M'), q('0.3G')));
    assert.equal(call(Q, 'quantity_is_less_than', q('50M'), q('50Mi')), true);
    assert.equal(call(Q, 'quantity_is_less_than', q('50M'), q('100M')), true);
    assert.equal(call(Q, 'quantity_is_less_than', q('100M'), q('50M')), false);
    assert.equal(call(Q, 'quantity_is_greater_than', q('50Mi'), q('50M')), true);
    assert.equal(call(Q, 'quantity_is_greater_than', q('150Mi'), q('100Mi')), true);
    assert.equal(call(Q, 'quantity_is_greater_than', q('50M'), q('100M')), false);
    assert.equal(call(Q, 'quantity_compare_to', q('200M'), q('0.2G')), 0n);
    assert.equal(call(Q, 'quantity_compare_to', q('50M'), q('50Mi')), -1n);
    assert.equal(call(Q, 'quantity_compare_to', q('50Mi'), q('50M')), 1n);
    assert.equal(call(Q, 'quantity_compare_to', q('9999999999999999999999999999999999999G'), q('1')), 1n);
  });
});

describe('arithmetic and conversions (quantity_test.go)', () => {
  it('adds and subtracts quantities and ints', () => {
    assert.ok(eq(call(Q, 'quantity_add', q('50k'), q('20')), q('50.02k')));
    assert.equal(call(Q, 'quantity_is_less_than', call(Q, 'quantity_add_int', q('50k'), 20n), q('50020')), false);
    assert.ok(eq(call(Q, 'quantity_sub', q('50k'), q('20')), q('49.98k')));
    assert.ok(eq(call(Q, 'quantity_sub_int', q('50k'), 20n), q('49980')));
    const chain = call(Q, 'quantity_sub', call(Q, 'quantity_add_int', q('50k'), 20n), q('100k'));
    assert.equal(call(Q, 'quantity_get_int', chain), -49980n);
    assert.equal(call(Q, 'quantity_get_int', call(Q, 'quantity_sub_int', chain, -50000n)), 20n);
  });

  it('asInteger, isInteger, asApproximateFloat, sign', () => {
    assert.equal(call(Q, 'quantity_get_int', q('50k')), 50000n);
    assertError(call(Q, 'quantity_get_int', q('9999999999999999999999999999999999999G')), 'cannot convert value to integer');
    assert.equal(call(Q, 'quantity_is_integer', q('9999999999999999999999999999999999999G')), false);
    assert.equal(call(Q, 'quantity_is_integer', q('50')), true);
    assert.equal(call(Q, 'quantity_get_float', q('50.703k')), 50703);
    assert.equal(call(Q, 'quantity_get_float', q('1.5Ki')), 1536);
    assert.equal(call(Q, 'quantity_get_float', q('100m')), 0.1);
    assert.equal(call(Q, 'quantity_sign', q('-1')), -1n);
    assert.equal(call(Q, 'quantity_sign', q('0')), 0n);
    assert.equal(call(Q, 'quantity_sign', q('2Gi')), 1n);
    assert.ok(!overload(Q, 'quantity_sign').member);
  });

  it('keeps resource.Quantity representation quirks', () => {
    // A fractional scale never converts to int64, even when the value is whole.
    assert.equal(call(Q, 'quantity_is_integer', q('1000m')), false);
    assert.equal(call(Q, 'quantity_is_integer', call(Q, 'quantity_add', q('1.5'), q('0.5'))), false);
    // Binary suffixes with fractions parse into inf.Dec.
    assert.equal(call(Q, 'quantity_is_integer', q('1.5Ki')), false);
    assert.equal(call(Q, 'quantity_is_integer', q('1e3')), true);
    assert.equal(call(Q, 'quantity_get_int', q('1e3')), 1000n);
    assertError(call(Q, 'quantity_get_int', q('1e19')), 'cannot convert value to integer');
    // Adding past int64 switches to inf.Dec.
    const big = call(Q, 'quantity_add', q('9223372036854775807'), q('1'));
    assert.equal(call(Q, 'quantity_is_integer', big), false);
    assert.equal((big as QuantityValue).toString(), '9223372036854775808');
    // The copy shares its inf.Dec with the receiver, as Kubernetes' `copy := *q` does.
    const dec = q('1.5Ki');
    const sum = call(Q, 'quantity_add', dec, q('1'));
    assert.equal(call(Q, 'quantity_compare_to', sum, dec), 0n);
  });

  it('reports wrong argument types', () => {
    assertError(call(Q, 'quantity_add_int', q('1'), 'x'), 'no such overload');
    assertError(call(Q, 'string_to_quantity', 1n), 'no such overload');
  });

  it('costs a traversal to parse and 1 per operation', () => {
    assert.equal(cost(Q, 'string_to_quantity', '123456789012Mi'), 2);
    assert.equal(cost(Q, 'is_quantity_string', '1'), 1);
    assert.equal(cost(Q, 'quantity_add', q('1'), q('2')), 1);
  });
});

// apimachinery pkg/api/resource/quantity_test.go: TestQuantityParse, TestQuantityString,
// TestQuantityParseEmit.
const decQuantity = (i: bigint, exponent: number, format: QuantityFormat): Quantity =>
  new Quantity({ value: 0n, scale: 0 }, new Dec(i, -exponent), format);
const parsed = (s: string): Quantity => {
  const v = parseQuantity(s);
  assert.ok(typeof v !== 'string', `${s}: ${String(v)}`);
  return v;
};

describe('resource.Quantity (apimachinery quantity_test.go)', () => {
  const MI = 1024n * 1024n;
  const table: [string, Quantity][] = [
    ['0', decQuantity(0n, 0, 'DecimalSI')], ['0n', decQuantity(0n, 0, 'DecimalSI')], ['0u', decQuantity(0n, 0, 'DecimalSI')],
    ['0m', decQuantity(0n, 0, 'DecimalSI')], ['0Ki', decQuantity(0n, 0, 'BinarySI')], ['0k', decQuantity(0n, 0, 'DecimalSI')],
    ['0Mi', decQuantity(0n, 0, 'BinarySI')], ['0M', decQuantity(0n, 0, 'DecimalSI')], ['0Gi', decQuantity(0n, 0, 'BinarySI')],
    ['0G', decQuantity(0n, 0, 'DecimalSI')], ['0Ti', decQuantity(0n, 0, 'BinarySI')], ['0T', decQuantity(0n, 0, 'DecimalSI')],
    ['1', decQuantity(1n, 0, 'DecimalSI')],
    ['1Ki', decQuantity(1024n, 0, 'BinarySI')], ['8Ki', decQuantity(8n * 1024n, 0, 'BinarySI')], ['7Mi', decQuantity(7n * MI, 0, 'BinarySI')],
    ['6Gi', decQuantity(6n * MI * 1024n, 0, 'BinarySI')], ['5Ti', decQuantity(5n * MI * MI, 0, 'BinarySI')],
    ['4Pi', decQuantity(4n * MI * MI * 1024n, 0, 'BinarySI')], ['3Ei', decQuantity(3n * MI * MI * MI, 0, 'BinarySI')],
    ['10Ti', decQuantity(10n * MI * MI, 0, 'BinarySI')], ['100Ti', decQuantity(100n * MI * MI, 0, 'BinarySI')],
    ['5n', decQuantity(5n, -9, 'DecimalSI')], ['4u', decQuantity(4n, -6, 'DecimalSI')], ['3m', decQuantity(3n, -3, 'DecimalSI')],
    ['9', decQuantity(9n, 0, 'DecimalSI')], ['8k', decQuantity(8n, 3, 'DecimalSI')], ['50k', decQuantity(5n, 4, 'DecimalSI')],
    ['7M', decQuantity(7n, 6, 'DecimalSI')], ['6G', decQuantity(6n, 9, 'DecimalSI')], ['5T', decQuantity(5n, 12, 'DecimalSI')],
    ['40T', decQuantity(4n, 13, 'DecimalSI')], ['300T', decQuantity(3n, 14, 'DecimalSI')], ['2P', decQuantity(2n, 15, 'DecimalSI')],
    ['1E', decQuantity(1n, 18, 'DecimalSI')],
    ['1E-3', decQuantity(1n, -3, 'DecimalExponent')], ['1e3', decQuantity(1n, 3, 'DecimalExponent')], ['1E6', decQuantity(1n, 6, 'DecimalExponent')],
    ['1e9', decQuantity(1n, 9, 'DecimalExponent')], ['1E12', decQuantity(1n, 12, 'DecimalExponent')], ['1e15', decQuantity(1n, 15, 'DecimalExponent')],
    ['1E18', decQuantity(1n, 18, 'DecimalExponent')], ['1e14', decQuantity(1n, 14, 'DecimalExponent')], ['1e13', decQuantity(1n, 13, 'DecimalExponent')],
    ['100.035k', decQuantity(100035n, 0, 'DecimalSI')],
    ['0.001', decQuantity(1n, -3, 'DecimalSI')], ['0.0005k', decQuantity(5n, -1, 'DecimalSI')], ['0.005', decQuantity(5n, -3, 'DecimalSI')],
    ['0.05', decQuantity(5n, -2, 'DecimalSI')], ['0.5', decQuantity(5n, -1, 'DecimalSI')], ['0.00050k', decQuantity(5n, -1, 'DecimalSI')],
    ['0.00500', decQuantity(5n, -3, 'DecimalSI')], ['0.05000', decQuantity(5n, -2, 'DecimalSI')], ['0.50000', decQuantity(5n, -1, 'DecimalSI')],
    ['0.5e0', decQuantity(5n, -1, 'DecimalExponent')], ['0.5e-1', decQuantity(5n, -2, 'DecimalExponent')],
    ['0.5e-2', decQuantity(5n, -3, 'DecimalExponent')], ['10.035M', decQuantity(10035n, 3, 'DecimalSI')],
    ['1.2e3', decQuantity(12n, 2, 'DecimalExponent')], ['1.3E+6', decQuantity(13n, 5, 'DecimalExponent')],
    ['1.40e9', decQuantity(14n, 8, 'DecimalExponent')], ['1.53E12', decQuantity(153n, 10, 'DecimalExponent')],
    ['1.6e15', decQuantity(16n, 14, 'DecimalExponent')], ['1.7E18', decQuantity(17n, 17, 'DecimalExponent')],
    ['9.01', decQuantity(901n, -2, 'DecimalSI')], ['8.1k', decQuantity(81n, 2, 'DecimalSI')], ['7.123456M', decQuantity(7123456n, 0, 'DecimalSI')],
    ['6.987654321G', decQuantity(6987654321n, 0, 'DecimalSI')], ['5.444T', decQuantity(5444n, 9, 'DecimalSI')],
    ['40.1T', decQuantity(401n, 11, 'DecimalSI')], ['300.2T', decQuantity(3002n, 11, 'DecimalSI')], ['2.5P', decQuantity(25n, 14, 'DecimalSI')],
    ['1.01E', decQuantity(101n, 16, 'DecimalSI')],
    ['3.001n', decQuantity(4n, -9, 'DecimalSI')], ['1.1E-9', decQuantity(2n, -9, 'DecimalExponent')],
    ['0.0000000001', decQuantity(1n, -9, 'DecimalSI')], ['0.0000000005', decQuantity(1n, -9, 'DecimalSI')],
    ['0.00000000050', decQuantity(1n, -9, 'DecimalSI')], ['0.5e-9', decQuantity(1n, -9, 'DecimalExponent')],
    ['0.9n', decQuantity(1n, -9, 'DecimalSI')], ['0.00000012345', decQuantity(124n, -9, 'DecimalSI')],
    ['0.00000012354', decQuantity(124n, -9, 'DecimalSI')],
    ['9Ei', decQuantity(9223372036854775807n, 0, 'BinarySI')], ['9223372036854775807Ki', decQuantity(9223372036854775807n, 0, 'BinarySI')],
    ['12E', decQuantity(12n, 18, 'DecimalSI')],
    ['100.035Ki', decQuantity(10243584n, -2, 'BinarySI')], ['0.5Mi', decQuantity(524288n, 0, 'BinarySI')],
    ['0.05Gi', decQuantity(536870912n, -1, 'BinarySI')], ['0.025Ti', decQuantity(274877906944n, -1, 'BinarySI')],
    ['0.000000000001Ki', decQuantity(2n, -9, 'DecimalSI')], ['.001', decQuantity(1n, -3, 'DecimalSI')],
    ['.0001k', decQuantity(100n, -3, 'DecimalSI')], ['1.', decQuantity(1n, 0, 'DecimalSI')], ['1.G', decQuantity(1n, 9, 'DecimalSI')],
  ];

  it('parses to the expected value and format, with either sign', () => {
    for (const [input, want] of table) {
      for (const [prefix, sign] of [['', 1n], ['-', -1n], ['+', 1n]] as const) {
        const got = parsed(prefix + input);
        const expected = decQuantity(want.d!.unscaled * sign, -want.d!.scale, want.format);
        assert.equal(got.cmp(expected), 0, `${prefix}${input}: ${got.toString()}`);
        assert.equal(got.format, want.format, `${prefix}${input}`);
      }
    }
  });

  it('rejects invalid strings', () => {
    for (const s of ['1.1.M', '1+1.0M', '0.1mi', '0.1am', 'aoeu', '.5i', '1i', '-3.01i', '-3.01e-', ' 1', '1 ', '']) {
      assert.equal(typeof parseQuantity(s), 'string', s);
    }
  });

  it('prints canonical strings', () => {
    const table: [Quantity, string, string][] = [
      [decQuantity(1024n * 1024n * 1024n, 0, 'BinarySI'), '1Gi', '1024Mi'],
      [decQuantity(300n * MI, 0, 'BinarySI'), '300Mi', '307200Ki'],
      [decQuantity(6n * 1024n, 0, 'BinarySI'), '6Ki', ''],
      [decQuantity(1001n * MI * 1024n, 0, 'BinarySI'), '1001Gi', '1025024Mi'],
      [decQuantity(MI * MI, 0, 'BinarySI'), '1Ti', '1024Gi'],
      [decQuantity(5n, 0, 'BinarySI'), '5', '5000m'],
      [decQuantity(500n, -3, 'BinarySI'), '500m', '0.5'],
      [decQuantity(1n, 9, 'DecimalSI'), '1G', '1000M'],
      [decQuantity(1000n, 6, 'DecimalSI'), '1G', '0.001T'],
      [decQuantity(1000000n, 3, 'DecimalSI'), '1G', ''],
      [decQuantity(1000000000n, 0, 'DecimalSI'), '1G', ''],
      [decQuantity(1n, -3, 'DecimalSI'), '1m', '1000u'],
      [decQuantity(80n, -3, 'DecimalSI'), '80m', ''],
      [decQuantity(1080n, -3, 'DecimalSI'), '1080m', '1.08'],
      [decQuantity(108n, -2, 'DecimalSI'), '1080m', '1080000000n'],
      [decQuantity(10800n, -4, 'DecimalSI'), '1080m', ''],
      [decQuantity(300n, 6, 'DecimalSI'), '300M', ''],
      [decQuantity(1n, 12, 'DecimalSI'), '1T', ''],
      [decQuantity(1234567n, 6, 'DecimalSI'), '1234567M', ''],
      [decQuantity(1234567n, -3, 'BinarySI'), '1234567m', ''],
      [decQuantity(3n, 3, 'DecimalSI'), '3k', ''],
      [decQuantity(1025n, 0, 'BinarySI'), '1025', ''],
      [decQuantity(0n, 0, 'DecimalSI'), '0', ''],
      [decQuantity(0n, 0, 'BinarySI'), '0', ''],
      [decQuantity(1n, 9, 'DecimalExponent'), '1e9', '.001e12'],
      [decQuantity(1n, -3, 'DecimalExponent'), '1e-3', '0.001e0'],
      [decQuantity(1n, -9, 'DecimalExponent'), '1e-9', '1000e-12'],
      [decQuantity(80n, -3, 'DecimalExponent'), '80e-3', ''],
      [decQuantity(300n, 6, 'DecimalExponent'), '300e6', ''],
      [decQuantity(1n, 12, 'DecimalExponent'), '1e12', ''],
      [decQuantity(1n, 3, 'DecimalExponent'), '1e3', ''],
      [decQuantity(3n, 3, 'DecimalExponent'), '3e3', ''],
      [decQuantity(0n, 0, 'DecimalExponent'), '0', '00'],
      [decQuantity(1n, -9, 'DecimalSI'), '1n', ''],
      [decQuantity(80n, -9, 'DecimalSI'), '80n', ''],
      [decQuantity(1080n, -9, 'DecimalSI'), '1080n', ''],
      [decQuantity(108n, -8, 'DecimalSI'), '1080n', ''],
      [decQuantity(10800n, -10, 'DecimalSI'), '1080n', ''],
      [decQuantity(1n, -6, 'DecimalSI'), '1u', ''],
      [decQuantity(80n, -6, 'DecimalSI'), '80u', ''],
      [decQuantity(1080n, -6, 'DecimalSI'), '1080u', ''],
    ];
    for (const [q, want, alternate] of table) {
      assert.equal(q.toString(), want);
      assert.equal(parsed(want).toString(), want);
      if (alternate) assert.equal(parsed(alternate).toString(), want, alternate);
      if (!q.isZero()) assert.equal(decQuantity(-q.d!.unscaled, -q.d!.scale, q.format).toString(), '-' + want);
    }
    for (const [input, want] of [
      ['1Ki', '1Ki'], ['1Mi', '1Mi'], ['1Gi', '1Gi'], ['1024Mi', '1Gi'], ['1000M', '1G'], ['.001Ki', '1024m'],
      ['.000001Ki', '1024u'], ['.000000001Ki', '1024n'], ['.000000000001Ki', '2n'],
    ]) {
      assert.equal(parsed(input!).toString(), want);
      assert.equal(parsed('-' + input).toString(), '-' + want);
    }
  });
});
