// isPrintChar is Go's unicode.IsPrint: letters, marks, numbers, punctuation and symbols, and of the spaces only U+0020.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPrintChar } from '../../src/util/unicode-print.js';

test('isPrintChar answers as Go unicode.IsPrint', () => {
  for (let cp = 0; cp < 0x80; cp++) assert.equal(isPrintChar(String.fromCodePoint(cp)), cp >= 0x20 && cp <= 0x7e, `U+${cp.toString(16)}`);
  // Printable: Latin-1 letters and symbols, a combining mark, CJK, an emoji (outside the BMP), a currency sign.
  for (const ch of ['é', '\u00a9', '\u0301', '\u4e2d', '\u{1f600}', '\u20ac']) assert.equal(isPrintChar(ch), true, ch);
  // Not: no-break and other spaces (Zs other than U+0020), soft hyphen (Cf), line separator, a private-use and an unassigned code point.
  for (const ch of ['\u00a0', '\u2003', '\u00ad', '\u2028', '\ue000', '\u0378']) assert.equal(isPrintChar(ch), false, `U+${ch.codePointAt(0)!.toString(16)}`);
});
