// The checks behind Secret and ConfigMap validation that are not HTTP-shaped: IsConfigMapKey's messages and
// crypto/tls X509KeyPair's errors (the warning a kubernetes.io/tls Secret gets), on keys made by openssl.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { isConfigMapKey } from '../../src/schema/names.js';
import { tlsKeyPairError } from '../../src/apis/core/v1/tls-key-pair.js';

const REGEX_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

test('IsConfigMapKey: the regex, the length, and the directory-climbing names', () => {
  assert.deepEqual(isConfigMapKey('a.b-c_D9'), []);
  assert.deepEqual(isConfigMapKey('.hidden'), []);
  assert.deepEqual(isConfigMapKey('a/b'), [REGEX_MSG]);
  assert.deepEqual(isConfigMapKey(''), [REGEX_MSG]);
  assert.deepEqual(isConfigMapKey('.'), ["must not be '.'"]);
  assert.deepEqual(isConfigMapKey('..'), ["must not be '..'"]);
  assert.deepEqual(isConfigMapKey('..a'), ["must not start with '..'"]);
  assert.deepEqual(isConfigMapKey('../a'), [REGEX_MSG, "must not start with '..'"]);
  assert.deepEqual(isConfigMapKey('k'.repeat(254)), ['must be no more than 253 characters']);
});

test('tls.X509KeyPair: PEM blocks looked for, then the certificate\'s key against the private key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tls-pair-'));
  try {
    const keyPath = join(dir, 'k.pem');
    const crtPath = join(dir, 'c.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', crtPath, '-subj', '/CN=x', '-days', '1'], { stdio: 'pipe' });
    const crt = readFileSync(crtPath);
    const key = readFileSync(keyPath);
    const pem = (type: string, body: string): Buffer => Buffer.from(`-----BEGIN ${type}-----\n${body}\n-----END ${type}-----\n`);
    const otherRsa = Buffer.from(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
    const ec = Buffer.from(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string);

    assert.equal(tlsKeyPairError(crt, key), undefined);
    assert.equal(tlsKeyPairError(Buffer.from(''), key), 'tls: failed to find any PEM data in certificate input');
    assert.equal(
      tlsKeyPairError(key, crt),
      'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
    );
    assert.equal(
      tlsKeyPairError(Buffer.concat([pem('FOO', 'AA=='), pem('BAR', 'AA==')]), key),
      'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [FOO BAR]',
    );
    assert.equal(tlsKeyPairError(crt, Buffer.from('not pem')), 'tls: failed to find any PEM data in key input');
    assert.equal(tlsKeyPairError(crt, crt), 'tls: found a certificate rather than a key in the PEM for the private key');
    assert.equal(
      tlsKeyPairError(crt, Buffer.concat([crt, pem('FOO', 'AA==')])),
      'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [CERTIFICATE FOO]',
    );
    assert.equal(tlsKeyPairError(crt, pem('PRIVATE KEY', 'AAAA')), 'tls: failed to parse private key');
    assert.equal(tlsKeyPairError(crt, otherRsa), 'tls: private key does not match public key');
    assert.equal(tlsKeyPairError(crt, ec), 'tls: private key type does not match public key type');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
