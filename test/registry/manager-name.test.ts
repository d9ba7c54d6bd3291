// The field manager named after the User-Agent: the printable ASCII shortcut and the remembered last agent
// answer what the character-by-character rule does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prefixFromUserAgent, printablePrefix } from '../../src/registry/field-manager/manager-name.js';
import { prng } from '../prng.js';

const rule = (ua: string): string => printablePrefix(ua.split('/')[0]!);

test('prefixFromUserAgent: up to the first slash, printable characters only, at most 128 bytes', () => {
  assert.equal(prefixFromUserAgent('kubectl-client-side-apply/v1.32.0 (linux/amd64) kubernetes/abc'), 'kubectl-client-side-apply');
  assert.equal(prefixFromUserAgent('kubectl-client-side-apply/v1.32.0 (linux/amd64) kubernetes/abc'), 'kubectl-client-side-apply');
  assert.equal(prefixFromUserAgent('no slash at all'), 'no slash at all');
  assert.equal(prefixFromUserAgent(''), '');
  assert.equal(prefixFromUserAgent('a\tb\u0000c/d'), 'abc');
  assert.equal(prefixFromUserAgent('x'.repeat(200)), 'x'.repeat(128));
  // Two-byte characters count as two: 64 fit.
  assert.equal(prefixFromUserAgent('é'.repeat(100)), 'é'.repeat(64));
  assert.equal(prefixFromUserAgent('x'.repeat(127) + 'é'), 'x'.repeat(127));
});

test('prefixFromUserAgent answers as the character rule over random agents, asked once and again', () => {
  const rand = prng(11);
  const alphabet = ['a', 'Z', '0', ' ', '/', '-', '.', '~', '\t', '\u007f', '\u0085', 'é', '€', '😀', '\u200b', '\ud800'];
  for (let i = 0; i < 3000; i++) {
    let ua = '';
    const n = Math.floor(rand() * 160);
    for (let j = 0; j < n; j++) ua += rand() < 0.8 ? String.fromCharCode(0x20 + Math.floor(rand() * 95)) : alphabet[Math.floor(rand() * alphabet.length)]!;
    assert.equal(prefixFromUserAgent(ua), rule(ua), JSON.stringify(ua));
    assert.equal(prefixFromUserAgent(ua), rule(ua), JSON.stringify(ua));
  }
});
