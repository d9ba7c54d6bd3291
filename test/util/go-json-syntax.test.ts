// goUnmarshal runs Go's syntax scanner (goJsonSyntaxError, for its messages) only where JSON.parse refuses the
// decoded text or the bytes start with a byte order mark: so whatever JSON.parse takes there must be valid to the
// scanner too. Checked over valid documents and byte-level mutations of them (invalid UTF-8, control characters,
// BOMs, stray punctuation); and goUnmarshal's errors and values are those of the scanner-first order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GoJsonError, goAny, goJsonSyntaxError, goUnmarshal, parsesAsJson } from '../../src/util/go-json.js';
import { prng } from '../prng.js';

const SAMPLES = [
  '{"a":1,"b":[true,false,null],"c":{"d":"e\\u00e9\\n","f":-0.5e+3}}',
  '[1, 2 ,3]',
  ' "x" ',
  '{"spec":{"replicas":3,"image":"nginx:1.2","labels":{"app":"web"}},"metadata":{"name":"n","annotations":{"k":"v\\/w"}}}',
  '{"k":"\\ud800"}',
  '{"n":12345678901234567890,"m":1E400,"o":-0}',
  '{"deep":[[[[{"x":[{}]}]]]]}',
  '{"s":"ünïcödé ✓ 𝄞"}',
  'null',
];
const NOISE = [0x00, 0x09, 0x0a, 0x0d, 0x20, 0x22, 0x2c, 0x2d, 0x2e, 0x30, 0x31, 0x3a, 0x5b, 0x5c, 0x5d, 0x65, 0x7b, 0x7d, 0x7f, 0x80, 0xbf, 0xc3, 0xe2, 0xef, 0xbb, 0xf0, 0xff];

function mutate(bytes: Buffer, rand: () => number): Buffer {
  const out = [...bytes];
  const n = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(rand() * (out.length + 1));
    const b = NOISE[Math.floor(rand() * NOISE.length)]!;
    const op = rand();
    if (op < 0.4) out.splice(at, 0, b);
    else if (op < 0.7) out.splice(at, 1);
    else out[Math.min(at, out.length - 1)] = b;
  }
  if (rand() < 0.05) out.unshift(0xef, 0xbb, 0xbf);
  return Buffer.from(out);
}

/** goUnmarshal's outcome: its value or its error message and kind. */
function outcome(input: Uint8Array): string {
  try {
    return JSON.stringify(goUnmarshal(input, goAny).value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  } catch (e) {
    return e instanceof GoJsonError ? `error ${e.message}` : `thrown ${String(e)}`;
  }
}

test('whatever JSON.parse takes (without a BOM) Go\'s scanner takes: samples and 20,000 mutations', () => {
  const rand = prng(19);
  const decoder = new TextDecoder('utf-8');
  let valid = 0;
  let refused = 0;
  for (let i = 0; i < 20_000; i++) {
    const base = Buffer.from(SAMPLES[i % SAMPLES.length]!, 'utf8');
    const bytes = i < SAMPLES.length ? base : mutate(base, rand);
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    const scanner = goJsonSyntaxError(bytes);
    if (!bom && parsesAsJson(decoder.decode(bytes))) {
      assert.equal(scanner, undefined, `JSON.parse took ${JSON.stringify(bytes.toString('latin1'))}; Go says ${scanner}`);
      valid++;
    } else if (scanner !== undefined) refused++;
  }
  assert.ok(valid > 2_000 && refused > 5_000, `${valid} valid, ${refused} refused`);
});

test('goUnmarshal: a BOM and syntax errors still get the scanner\'s message; valid input its value', () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('{}')]);
  assert.equal(outcome(bom), `error ${goJsonSyntaxError(bom)}`);
  assert.match(outcome(bom), /invalid character 'ï' looking for beginning of value/);
  assert.equal(outcome(Buffer.from('{"a":1,}')), "error invalid character '}' looking for beginning of object key string");
  assert.equal(outcome(Buffer.from('{"a":"\xff"}', 'latin1')), '{"a":"\ufffd"}');
  assert.equal(outcome(Buffer.from('[1, 2]')), '[1,2]');
});
