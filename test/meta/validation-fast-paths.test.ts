// The quick acceptances of metadata validation give what the checks one by one give: a qualified name taken by
// one match is one they find nothing wrong with, and a printable ASCII field manager is one whose every
// character unicode.IsPrint takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isQualifiedName, qualifiedNameErrors } from '../../src/schema/names.js';
import { validateFieldManager } from '../../src/schema/objectmeta.js';
import { prng as rng } from '../storage/helpers.js';


test('isQualifiedName is the checks one by one, valid or not', () => {
  const next = rng(7);
  const alphabets = ['abz09', 'abz09-.', 'aZ09-_.', 'ab-./', 'a.b/c', 'aA0-_./é\u{1F600} '];
  const sizes = [1, 2, 5, 62, 63, 64, 65, 252, 253, 254, 260];
  const cases = ['', '/', 'a/', '/a', 'a/b/c', 'example.com/MyName', 'x'.repeat(63), 'x'.repeat(64), `${'a'.repeat(253)}/b`, `${'a'.repeat(254)}/b`, 'A.b/c', '-a', 'a-', 'a_b', 'a..b/c', 'é'];
  for (let i = 0; i < 20_000; i++) {
    const alphabet = [...alphabets[i % alphabets.length]!];
    const n = next() < 0.3 ? sizes[Math.floor(next() * sizes.length)]! : Math.floor(next() * 12);
    let s = '';
    for (let j = 0; j < n; j++) s += alphabet[Math.floor(next() * alphabet.length)];
    // Some with a prefix of a given length, to reach the prefix's limit.
    if (next() < 0.2) s = `${'a.b'.repeat(Math.floor(next() * 90))}/${s}`;
    cases.push(s);
  }
  let valid = 0;
  for (const s of cases) {
    const want = qualifiedNameErrors(s);
    assert.deepEqual(isQualifiedName(s), want, s);
    if (want.length === 0) valid++;
  }
  assert.ok(valid > 1000, `${valid} valid names among the cases`);
});

test('printable ASCII is printable to unicode.IsPrint, so such managers are accepted as they were', () => {
  const isPrint = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
  for (let c = 0x20; c <= 0x7e; c++) assert.ok(isPrint.test(String.fromCharCode(c)), `U+${c.toString(16)}`);
  for (let c = 0; c < 0x20; c++) assert.ok(!isPrint.test(String.fromCharCode(c)));
  assert.ok(!isPrint.test('\x7f'));
  assert.deepEqual(validateFieldManager('kubectl-client-side-apply', 'f'), []);
  assert.deepEqual(validateFieldManager('x'.repeat(128), 'f'), []);
  assert.equal(validateFieldManager('x'.repeat(129), 'f').length, 1);
  assert.equal(validateFieldManager('a\tb', 'f').length, 1);
  assert.equal(validateFieldManager('a\x7fb', 'f').length, 1);
  assert.deepEqual(validateFieldManager('héllo wörld', 'f'), []);
});
