import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as der from '../../src/auth/der.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

test('INTEGER is minimal and non-negative', () => {
  assert.equal(hex(der.integer(0)), '020100');
  assert.equal(hex(der.integer(2)), '020102');
  assert.equal(hex(der.integer(127)), '02017f');
  assert.equal(hex(der.integer(128)), '02020080');
  assert.equal(hex(der.integer(256)), '02020100');
  assert.equal(hex(der.integer(65537n)), '0203010001');
  assert.equal(hex(der.integer(Buffer.from('0000ff', 'hex'))), '020200ff');
  assert.equal(hex(der.integer(Buffer.from('00007f', 'hex'))), '02017f');
  assert.equal(hex(der.integer(Buffer.alloc(3))), '020100');
  assert.throws(() => der.integer(-1), RangeError);
});

test('lengths switch to the long form at 128 bytes', () => {
  assert.equal(hex(der.octetString(Buffer.alloc(127))).slice(0, 4), '047f');
  assert.equal(hex(der.octetString(Buffer.alloc(128))).slice(0, 6), '048180');
  assert.equal(hex(der.octetString(Buffer.alloc(256))).slice(0, 8), '04820100');
  assert.equal(der.octetString(Buffer.alloc(70000)).length, 70000 + 5);
});

test('OBJECT IDENTIFIER, BOOLEAN, NULL, strings', () => {
  assert.equal(hex(der.oid('1.2.840.113549.1.1.11')), '06092a864886f70d01010b');
  assert.equal(hex(der.oid('1.2.840.10045.4.3.2')), '06082a8648ce3d040302');
  assert.equal(hex(der.oid('2.5.29.17')), '0603551d11');
  assert.equal(hex(der.oid('2.999.3')), '0603883703');
  assert.throws(() => der.oid('1.40'));
  assert.throws(() => der.oid('1.2.x'));
  assert.equal(hex(der.boolean(true)), '0101ff');
  assert.equal(hex(der.boolean(false)), '010100');
  assert.equal(hex(der.nullValue()), '0500');
  assert.equal(hex(der.directoryString('system:masters')), '130e' + hex(Buffer.from('system:masters')));
  assert.equal(hex(der.directoryString('a_b')), '0c03615f62'); // '_' is not printable: UTF8String
  assert.equal(hex(der.utf8String('ü')), '0c02c3bc');
  assert.throws(() => der.printableString('a_b'));
  assert.throws(() => der.ia5String('ü'));
});

test('BIT STRING: unused-bit count, and named bits without trailing zeros', () => {
  assert.equal(hex(der.bitString(Buffer.from('abcd', 'hex'))), '030300abcd');
  assert.equal(hex(der.namedBits([0])), '03020780');
  assert.equal(hex(der.namedBits([0, 2])), '030205a0');
  assert.equal(hex(der.namedBits([0, 5, 6])), '03020186');
  assert.equal(hex(der.namedBits([8])), '0303070080');
  assert.equal(hex(der.namedBits([])), '030100');
});

test('Time: UTCTime through 2049, GeneralizedTime from 2050, whole seconds', () => {
  const ascii = (b: Buffer): string => b.subarray(2).toString('latin1');
  const utc = der.time(new Date('2036-11-19T07:15:15.999Z'));
  assert.equal(utc[0], der.TAG.UTC_TIME);
  assert.equal(ascii(utc), '361119071515Z');
  assert.equal(ascii(der.time(new Date('1950-01-01T00:00:00Z'))), '500101000000Z');
  assert.equal(ascii(der.time(new Date('2049-12-31T23:59:59Z'))), '491231235959Z');
  const gen = der.time(new Date('2050-01-01T00:00:00Z'));
  assert.equal(gen[0], der.TAG.GENERALIZED_TIME);
  assert.equal(ascii(gen), '20500101000000Z');
  assert.equal(ascii(der.time(new Date('1949-12-31T23:59:59Z'))), '19491231235959Z');
});

test('SEQUENCE keeps order, SET OF sorts its encodings, context tags', () => {
  const a = der.integer(2);
  const b = der.integer(1);
  assert.equal(hex(der.sequence(a, b)), '3006020102020101');
  assert.equal(hex(der.set(a, b)), '3106020101020102');
  assert.equal(hex(der.sequence()), '3000');
  assert.equal(hex(der.explicit(0, der.integer(2))), 'a003020102');
  assert.equal(hex(der.explicit(3, der.sequence())), 'a3023000');
  assert.equal(hex(der.implicit(2, Buffer.from('a'))), '820161');
  assert.equal(hex(der.implicit(7, Buffer.of(127, 0, 0, 1))), '87047f000001');
  assert.throws(() => der.implicit(31, Buffer.alloc(0)), RangeError);
});

test('reading walks what writing produced', () => {
  const doc = der.sequence(der.oid('1.2.840.10045.4.3.2'), der.octetString(Buffer.alloc(200, 7)), der.explicit(3, der.boolean(true)));
  const root = der.read(doc);
  assert.equal(root.tag, der.TAG.SEQUENCE);
  assert.equal(root.end, doc.length);
  const [id, octets, tagged] = der.children(doc, root);
  assert.equal(der.readOid(der.content(doc, id!)), '1.2.840.10045.4.3.2');
  assert.deepEqual(der.content(doc, octets!), Buffer.alloc(200, 7));
  assert.equal(tagged!.tag, der.contextTag(3, true));
  assert.deepEqual(der.encoding(doc, der.children(doc, tagged!)[0]!), der.boolean(true));
  assert.equal(der.readOid(der.content(der.oid('2.999.3'), der.read(der.oid('2.999.3')))), '2.999.3');
  assert.throws(() => der.expect(id, der.TAG.SEQUENCE, 'x'), /expected x/);
});

test('reading rejects malformed input', () => {
  assert.throws(() => der.read(Buffer.from('30', 'hex')), /truncated header/);
  assert.throws(() => der.read(Buffer.from('3004020101', 'hex')), /runs past/);
  assert.throws(() => der.read(Buffer.from('3080', 'hex')), /indefinite/);
  assert.throws(() => der.read(Buffer.from('04810100', 'hex')), /non-minimal/);
  assert.throws(() => der.read(Buffer.from('1f0100', 'hex')), /multi-byte tags/);
  // A child longer than its parent.
  assert.throws(() => der.children(Buffer.from('30030205010203', 'hex'), der.read(Buffer.from('30030205010203', 'hex'))), /runs past/);
  assert.throws(() => der.readOid(Buffer.from('2a86', 'hex')), /truncated arc/);
});
