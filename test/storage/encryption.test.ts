// Encryption at rest: kube's providers against vectors made by other implementations (openssl's
// AES-CBC, Python cryptography's AES-GCM, the GCM specification's test case 16, NaCl's secretbox box and an
// independent XSalsa20-Poly1305), the configuration's
// validation messages, and the encrypting store between a cache and SQLite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aesCBC, aesGCM, secretbox } from '../../src/storage/encryption/transformers.js';
import * as reference from './xsalsa20poly1305.js';
import { loadEncryptionConfig, transformersFromConfig } from '../../src/storage/encryption/config.js';
import { EncryptingKVStore } from '../../src/storage/encryption/encrypting-store.js';
import { keyTransformerLookup, resourceOfKey } from '../../src/storage/encryption/resource-keys.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { createCachedStore, startCachedStore } from '../../src/storage/cache.js';
import { waitFor } from './helpers.js';

const KEY1 = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='; // bytes 0..31
const KEY2 = Buffer.alloc(32, 7).toString('base64');
const SECRETS = { group: '', resource: 'secrets' };
const SECRET_KEY = '/registry/secrets/default/s1';

function config(resources: string[], providers: unknown[]) {
  return { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration', resources: [{ resources, providers }] };
}
const aescbc = (...keys: [string, string][]) => ({ aescbc: { keys: keys.map(([name, secret]) => ({ name, secret })) } });
const aesgcm = (...keys: [string, string][]) => ({ aesgcm: { keys: keys.map(([name, secret]) => ({ name, secret })) } });

test('aescbc reads a value openssl encrypted, in kube\'s layout (IV, then PKCS#7-padded CBC)', () => {
  // printf '{"kind":"Secret","data":{"a":"Yg=="}}' | openssl enc -aes-256-cbc -K 0001..1f -iv f0e0..00
  const stored = 'k8s:enc:aescbc:v1:key1:8ODQwLCgkIBwYFBAMCAQAChqRrn4F5iR+PsVtwKFTJ99C/pzQ3qY2q8vZQjeyD5z65b2SNVKxtHfOcgnaq//4g==';
  const t = transformersFromConfig(config(['secrets'], [aescbc(['key1', KEY1])]))(SECRETS)!;
  assert.deepEqual(t.fromStorage(stored, SECRET_KEY), { value: '{"kind":"Secret","data":{"a":"Yg=="}}', stale: false });
  // And what it writes decrypts with openssl's layout: IV first, then whole blocks.
  const out = t.toStorage('hello', SECRET_KEY);
  assert.match(out, /^k8s:enc:aescbc:v1:key1:/);
  const raw = Buffer.from(out.slice('k8s:enc:aescbc:v1:key1:'.length), 'base64');
  assert.equal(raw.length, 32);
  assert.equal(aesCBC(Buffer.from(KEY1, 'base64')).decrypt(raw, Buffer.alloc(0)).toString(), 'hello');
});

test('aesgcm: the GCM specification\'s test case 16 (nonce, sealed data with its tag, additional data)', () => {
  const h = (s: string) => Buffer.from(s, 'hex');
  const sealed = Buffer.concat([
    h('cafebabefacedbaddecaf888'),
    h('522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662'),
    h('76fc6ece0f4e1768cddf8853bb2d551b'),
  ]);
  const gcm = aesGCM(h('feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308'));
  const plain = gcm.decrypt(sealed, h('feedfacedeadbeeffeedfacedeadbeefabaddad2'));
  assert.equal(plain.toString('hex'), 'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39');
  assert.throws(() => gcm.decrypt(sealed, h('00')), /cipher: message authentication failed/);
});

// golang.org/x/crypto/nacl/secretbox's TestSecretBox: key 32×0x01, nonce 24×0x02, message 64×0x03, the box
// "generated using the C implementation of NaCl".
const NACL_BOX =
  '8442bc313f4626f1359e3b50122b6ce6fe66ddfe7d39d14e637eb4fd5b45beadab55198df6ab5368439792a23c87db70acb6156dc5ef957ac04f6276cf6093b84be77ff0849cc33e34b7254d5a8f65ad';

test('secretbox: NaCl\'s known box opens, in kube\'s layout (nonce, then tag and ciphertext); the reference implementation agrees', () => {
  const key = Buffer.alloc(32, 1);
  const nonce = Buffer.alloc(24, 2);
  const box = Buffer.from(NACL_BOX, 'hex');
  assert.deepEqual(reference.seal(Buffer.alloc(64, 3), nonce, key), box); // the test's own implementation is right
  assert.deepEqual(secretbox(key).decrypt(Buffer.concat([nonce, box]), Buffer.alloc(0)), Buffer.alloc(64, 3));
  // Through the configured provider: kube's prefix, the key name, the value (base64 here, raw bytes in kube).
  const t = transformersFromConfig(config(['secrets'], [{ secretbox: { keys: [{ name: 'key1', secret: key.toString('base64') }] } }]))(SECRETS)!;
  const stored = `k8s:enc:secretbox:v1:key1:${Buffer.concat([nonce, box]).toString('base64')}`;
  assert.deepEqual(t.fromStorage(stored, SECRET_KEY), { value: '\x03'.repeat(64), stale: false });
});

test('secretbox: what the server writes opens with an independent XSalsa20-Poly1305; a random nonce each time; tampering refused', () => {
  const key = Buffer.from(KEY1, 'base64');
  const t = transformersFromConfig(config(['secrets'], [{ secretbox: { keys: [{ name: 'k1', secret: KEY1 }] } }, { identity: {} }]))(SECRETS)!;
  const plain = '{"kind":"Secret","apiVersion":"v1","data":{"password":"aHVudGVyMg=="}}';
  const out = t.toStorage(plain, SECRET_KEY);
  assert.match(out, /^k8s:enc:secretbox:v1:k1:/);
  const raw = Buffer.from(out.slice('k8s:enc:secretbox:v1:k1:'.length), 'base64');
  assert.equal(raw.length, 24 + 16 + Buffer.byteLength(plain));
  assert.equal(reference.open(raw.subarray(24), raw.subarray(0, 24), key)?.toString(), plain);
  assert.notEqual(t.toStorage(plain, SECRET_KEY), out);
  // Not bound to the storage key (kube's secretbox authenticates no context): it reads back under another.
  assert.equal(t.fromStorage(out, '/registry/secrets/other/x').value, plain);
  // Sealed by the reference with a nonce of its own, read by the server.
  const nonce = Buffer.alloc(24, 9);
  const theirs = `k8s:enc:secretbox:v1:k1:${Buffer.concat([nonce, reference.seal(Buffer.from('from elsewhere'), nonce, key)]).toString('base64')}`;
  assert.deepEqual(t.fromStorage(theirs, SECRET_KEY), { value: 'from elsewhere', stale: false });
  raw[30] = raw[30]! ^ 1;
  assert.throws(() => t.fromStorage(`k8s:enc:secretbox:v1:k1:${raw.toString('base64')}`, SECRET_KEY), { message: 'output array was not large enough for encryption' });
  assert.throws(() => t.fromStorage(`k8s:enc:secretbox:v1:k1:${Buffer.alloc(39).toString('base64')}`, SECRET_KEY), { message: 'the stored data was shorter than the required size' });
  assert.throws(() => t.fromStorage(`k8s:enc:secretbox:v1:k2:${raw.toString('base64')}`, SECRET_KEY), { message: 'no matching key was found for the provided Secretbox transformer' });
});

test('aesgcm authenticates the storage key, as kube does: the value cannot be moved to another key', () => {
  // Python cryptography: AESGCM(bytes(range(32))).encrypt(nonce 00..0b, b'{"kind":"Secret"}', b'/registry/secrets/default/s1')
  const stored = 'k8s:enc:aesgcm:v1:key1:AAECAwQFBgcICQoLPCC9cquB4CGvEvLow4wMT/5bEvQ9QBborEakTP95D9PP';
  const t = transformersFromConfig(config(['secrets'], [aesgcm(['key1', KEY1])]))(SECRETS)!;
  assert.equal(t.fromStorage(stored, SECRET_KEY).value, '{"kind":"Secret"}');
  assert.throws(() => t.fromStorage(stored, '/registry/secrets/default/s2'), { message: 'cipher: message authentication failed' });
  const mine = t.toStorage('{"x":1}', SECRET_KEY);
  assert.equal(t.fromStorage(mine, SECRET_KEY).value, '{"x":1}');
});

test('reading: an unknown key name, no matching provider, identity refusing ciphertext; stale when not the first provider', () => {
  const old = transformersFromConfig(config(['secrets'], [aescbc(['key1', KEY1])]))(SECRETS)!;
  const v1 = old.toStorage('{"a":1}', SECRET_KEY);
  const other = transformersFromConfig(config(['secrets'], [aescbc(['key2', KEY2])]))(SECRETS)!;
  assert.throws(() => other.fromStorage(v1, SECRET_KEY), { message: 'no matching key was found for the provided AES transformer' });
  assert.throws(() => old.fromStorage('{"a":1}', SECRET_KEY), { message: 'no matching prefix found' });
  const identityOnly = transformersFromConfig(config(['secrets'], [{ identity: {} }]))(SECRETS)!;
  assert.throws(() => identityOnly.fromStorage(v1, SECRET_KEY), { message: 'no matching prefix found' });
  // Rotation: the new key first, the old one still reads (stale: an update must rewrite it).
  const rotated = transformersFromConfig(config(['secrets'], [aescbc(['key2', KEY2], ['key1', KEY1])]))(SECRETS)!;
  assert.deepEqual(rotated.fromStorage(v1, SECRET_KEY), { value: '{"a":1}', stale: true });
  assert.match(rotated.toStorage('{"a":1}', SECRET_KEY), /^k8s:enc:aescbc:v1:key2:/);
  const identityFirst = transformersFromConfig(config(['secrets'], [{ identity: {} }, aescbc(['key1', KEY1])]))(SECRETS)!;
  assert.deepEqual(identityFirst.fromStorage(v1, SECRET_KEY), { value: '{"a":1}', stale: true });
  assert.deepEqual(identityFirst.fromStorage('{"a":1}', SECRET_KEY), { value: '{"a":1}', stale: false });
  assert.equal(identityFirst.toStorage('{"a":1}', SECRET_KEY), '{"a":1}');
  // Turning encryption on over existing data: plaintext reads through identity listed last, stale until rewritten.
  const encryptExisting = transformersFromConfig(config(['secrets'], [aescbc(['key1', KEY1]), { identity: {} }]))(SECRETS)!;
  assert.deepEqual(encryptExisting.fromStorage('{"a":1}', SECRET_KEY), { value: '{"a":1}', stale: true });
  assert.deepEqual(encryptExisting.fromStorage(v1, SECRET_KEY), { value: '{"a":1}', stale: false });
  // A wrong key under the same name fails as CBC with the wrong key does: bad padding (or, rarely, garbage).
  const wrong = transformersFromConfig(config(['secrets'], [aescbc(['key1', KEY2])]))(SECRETS)!;
  assert.throws(() => wrong.fromStorage(v1, SECRET_KEY));
});

test('resource rules: exact, *.group, *.*; keys map to resources', () => {
  const lookup = transformersFromConfig({
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'EncryptionConfiguration',
    resources: [
      { resources: ['secrets', 'crontabs.stable.example.com'], providers: [aescbc(['key1', KEY1])] },
      { resources: ['*.apps'], providers: [aesgcm(['g', KEY2])] },
      { resources: ['configmaps'], providers: [{ identity: {} }] },
    ],
  });
  assert.match(lookup(SECRETS)!.toStorage('x', 'k'), /^k8s:enc:aescbc:v1:key1:/);
  assert.match(lookup({ group: 'stable.example.com', resource: 'crontabs' })!.toStorage('x', 'k'), /^k8s:enc:aescbc:v1:key1:/);
  assert.match(lookup({ group: 'apps', resource: 'deployments' })!.toStorage('x', 'k'), /^k8s:enc:aesgcm:v1:g:/);
  assert.equal(lookup({ group: '', resource: 'configmaps' })!.toStorage('x', 'k'), 'x');
  assert.equal(lookup({ group: '', resource: 'pods' }), undefined);

  const builtin = new Map([
    ['/registry/deployments/', { group: 'apps', resource: 'deployments' }],
    ['/registry/apiextensions.k8s.io/customresourcedefinitions/', { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }],
  ]);
  assert.deepEqual(resourceOfKey('/registry/secrets/ns/a', builtin), SECRETS);
  assert.deepEqual(resourceOfKey('/registry/deployments/ns/a', builtin), { group: 'apps', resource: 'deployments' });
  assert.deepEqual(resourceOfKey('/registry/stable.example.com/crontabs/ns/a', builtin), { group: 'stable.example.com', resource: 'crontabs' });
  assert.deepEqual(resourceOfKey('/registry/apiextensions.k8s.io/customresourcedefinitions/x', builtin), { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' });
  const perKey = keyTransformerLookup(lookup, builtin);
  assert.match(perKey('/registry/deployments/ns/a')!.toStorage('x', 'k'), /^k8s:enc:aesgcm:v1:g:/);
  assert.equal(perKey('/registry/pods/ns/a'), undefined);
});

test('configuration errors carry kube\'s messages', () => {
  const bad = (c: unknown) => () => transformersFromConfig(c);
  assert.throws(bad({ apiVersion: 'v1', kind: 'ConfigMap' }), { message: 'got unexpected config type: v1, Kind=ConfigMap' });
  assert.throws(bad(config(['Secrets'], [{ identity: {} }])), { message: 'resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters' });
  assert.throws(bad(config(['*'], [{ identity: {} }])), /use '\*\.' to encrypt all the resources from core API group or \*\.\* to encrypt all resources/);
  assert.throws(bad(config(['secrets', '*.'], [{ identity: {} }])), /using overlapping resources such as 'secrets' and '\*\.' in the same resource list is not allowed as they will be masked/);
  assert.throws(bad(config(['secrets', 'secrets'], [{ identity: {} }])), /the same resource cannot be specified multiple times/);
  assert.throws(bad(config(['events.events.k8s.io'], [{ identity: {} }])), /stored using the 'events' API group in etcd/);
  assert.throws(bad(config(['secrets'], [])), { message: 'resources[0].providers: Required value: at least one resources[0].providers is required' });
  assert.throws(bad(config(['secrets'], [{}])), /resources\[0\]\.providers\[0\]: Invalid value: .*provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity/);
  assert.throws(bad(config(['secrets'], [aescbc(['k', 'c2hvcnQ='])])), {
    message: 'resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 5, expected one of [16 24 32]',
  });
  assert.throws(bad(config(['secrets'], [aescbc(['k', 'not base64!'])])), /secrets must be base64 encoded/);
  assert.throws(bad(config(['secrets'], [aescbc(['', KEY1])])), { message: 'resources[0].providers[0].aescbc.keys[0].name: Required value: name is a mandatory field for a key' });
  assert.throws(bad(config(['secrets'], [{ secretbox: { keys: [{ name: 'k', secret: Buffer.alloc(16).toString('base64') }] } }])), {
    message: 'resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]',
  });
  assert.throws(bad(config(['secrets'], [{ kms: { name: 'k' } }])), /kms provider is not supported by this server/);
  assert.throws(
    bad({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [
        { resources: ['*.'], providers: [{ identity: {} }] },
        { resources: ['secrets'], providers: [aescbc(['k', KEY1])] },
      ],
    }),
    { message: 'resource "secrets" is masked by earlier rule "*."' },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enc-'));
  try {
    writeFileSync(join(dir, 'empty.yaml'), '');
    assert.throws(() => loadEncryptionConfig(join(dir, 'empty.yaml')), /error while parsing file: encryption provider configuration file ".*empty.yaml" is empty/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the encrypting store under the watch cache: ciphertext in SQLite, plaintext above, stale after rotation', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enc-'));
  const path = join(dir, 'state.db');
  const open = async (providers: unknown[]) => {
    const lookup = keyTransformerLookup(transformersFromConfig(config(['secrets'], providers)), new Map());
    const sqlite = openSqliteStore(path, { sync: 'normal' });
    return { sqlite, kv: await createCachedStore(new EncryptingKVStore(sqlite, lookup)) };
  };
  try {
    let { sqlite, kv } = await open([aescbc(['key1', KEY1])]);
    const created = await kv.create(SECRET_KEY, '{"data":"c2VjcmV0"}');
    assert.ok(created.ok);
    await kv.create('/registry/configmaps/default/c', '{"plain":true}');
    assert.equal((await kv.get(SECRET_KEY))!.value, '{"data":"c2VjcmV0"}');
    const raw = (await sqlite.get(SECRET_KEY))!.value;
    assert.match(raw, /^k8s:enc:aescbc:v1:key1:/);
    assert.ok(!raw.includes('c2VjcmV0'));
    assert.equal((await sqlite.get('/registry/configmaps/default/c'))!.value, '{"plain":true}');
    const events: string[] = [];
    const w = kv.watch('/registry/secrets/', { fromRevision: 0, onEvent: (ev) => events.push(ev.kv.value) });
    await new Promise((r) => setTimeout(r, 50));
    w.close();
    assert.deepEqual(events, ['{"data":"c2VjcmV0"}']);
    await kv.close();

    ({ sqlite, kv } = await open([aescbc(['key2', KEY2], ['key1', KEY1])]));
    const got = (await kv.get(SECRET_KEY))!;
    assert.equal(got.value, '{"data":"c2VjcmV0"}');
    assert.equal(got.stale, true);
    const updated = await kv.update(SECRET_KEY, got.value, got.modRevision);
    assert.ok(updated.ok);
    assert.match((await sqlite.get(SECRET_KEY))!.value, /^k8s:enc:aescbc:v1:key2:/);
    assert.equal((await kv.get(SECRET_KEY))!.stale, undefined);
    await kv.close();

    // Without the key that wrote it, the value cannot be read: the cache cannot load, as kube fails the read.
    const lookup = keyTransformerLookup(transformersFromConfig(config(['secrets'], [aescbc(['key1', KEY1])])), new Map());
    await assert.rejects(createCachedStore(new EncryptingKVStore(openSqliteStore(path, { sync: 'normal' }), lookup)), {
      message: 'no matching key was found for the provided AES transformer',
    });
    // Loading in the background as `serve` does, the server is up: that read fails as kube's does, the load is retried.
    const failures: string[] = [];
    const background = startCachedStore(new EncryptingKVStore(openSqliteStore(path, { sync: 'normal' }), lookup), { reloadRetryMs: 1, onLoadError: (err) => failures.push((err as Error).message) });
    await assert.rejects(background.get(SECRET_KEY), { message: 'no matching key was found for the provided AES transformer' });
    await waitFor(() => failures.length >= 2, 'two failed loads');
    assert.equal(failures[0], 'no matching key was found for the provided AES transformer');
    assert.equal(background.serving, false);
    await background.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
