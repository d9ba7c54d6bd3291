// The string formats kube validates on custom resources (apiextensions' supported set, checked by
// kube-openapi's strfmt registry), and the ones it strips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveFormat, formatChecker } from '../../src/schema/formats.js';

const check = (format: string, good: string[], bad: string[]): void => {
  const fn = formatChecker(format)!;
  assert.ok(fn, format);
  for (const g of good) assert.equal(fn(g), true, `${format} should accept ${JSON.stringify(g)}`);
  for (const b of bad) assert.equal(fn(b), false, `${format} should reject ${JSON.stringify(b)}`);
};

test('only the Kubernetes format set is enforced', () => {
  for (const f of ['int32', 'int64', 'float', 'double', 'k8s-short-name', 'whatever']) assert.equal(effectiveFormat(f), '', f);
  for (const f of ['date-time', 'datetime', 'uuid', 'byte', 'password', 'ipv4', 'cidr', 'duration']) assert.equal(effectiveFormat(f), f);
});

test('ip addresses and CIDRs', () => {
  check('ipv4', ['1.2.3.4', '010.001.2.3', '::ffff:1.2.3.4'], ['1.2.3.4:8080', '256.1.1.1', '1.2.3', 'fe80::1', '']);
  check('ipv6', ['::1', 'fe80::1', '2001:db8::8a2e:370:7334', '::ffff:1.2.3.4', '001:db8::'], ['1.2.3.4', 'fe80::1%eth0', '1::2::3', '12345::', '::ffff:01.2.3.4']);
  check('cidr', ['10.0.0.0/8', '010.0.0.0/8', 'fd00::/64'], ['10.0.0.0', '10.0.0.0/33', 'x/8', '10.0.0.0/+8']);
});

test('mac, uuid, hostname, bsonobjectid', () => {
  check('mac', ['00:00:5e:00:53:01', '00-00-5E-00-53-01', '0000.5e00.5301', '00:00:00:00:fe:80:00:00:00:00:00:00:02:00:5e:10:00:00:00:01'], ['00:00:5e:00:53', '00:00:5e:00:53:0g', '00:00-5e:00:53:01']);
  check('uuid', ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'], ['123e4567-e89b-12d3-a456', 'not-a-uuid']);
  check('uuid4', ['123e4567-e89b-42d3-a456-426614174000'], ['123e4567-e89b-12d3-a456-426614174000']);
  check('uuid3', ['123e4567-e89b-32d3-a456-426614174000'], ['123e4567-e89b-42d3-a456-426614174000']);
  check('uuid5', ['123e4567-e89b-52d3-9456-426614174000'], ['123e4567-e89b-52d3-7456-426614174000']);
  check('hostname', ['example.com', 'a', 'my-host.example.org'], ['-bad.example.com', 'a..b', 'exa mple.com', `${'a'.repeat(64)}.com`]);
  check('bsonobjectid', ['507f1f77bcf86cd799439011'], ['507f1f77bcf86cd79943901', 'zz7f1f77bcf86cd799439011']);
});

test('dates, times and durations', () => {
  check('date', ['2024-02-29', '2023-12-31'], ['2023-02-29', '2023-13-01', '2023-1-01', '2023-01-01T00:00:00Z']);
  check('date-time', ['2017-05-31T12:56:35Z', '2017-05-31t12:56:35.123+02:00', '2017-05-31T12:56:35z'], ['2017-05-31 12:56:35Z', '2017-05-31T24:00:00Z', '2017-05-31T12:56:35', 'yesterday']);
  check('duration', ['1h30m', '-5s', '0', '1.5h', '300ms', '2 days', '3 weeks', '10 minutes'], ['', '5', 'h', '1 year', 'forever']);
});

test('uri, email', () => {
  check('uri', ['https://example.com/path?q=1', 'mailto:a@b.c', '/absolute/path', 'urn:isbn:0451450523', 'http://[::1]:8080/'], ['relative/path', '', 'http://exa mple.com/', ':nope', 'http://host:port/']);
  check('email', ['a@example.com', 'John Doe <john@example.com>', '"quoted name"@example.com', 'a.b+c@d.e'], ['plainaddress', '@example.com', 'a@', 'a..b@example.com', 'a@b@c']);
});

test('colors, numbers and the rest', () => {
  check('hexcolor', ['#fff', 'FFFFFF', '#a1b2c3'], ['#ffff', 'ggg']);
  check('rgbcolor', ['rgb(255,255,255)', 'rgb( 0 , 10 , 200 )'], ['rgb(256,0,0)', 'rgb(1,2)']);
  check('isbn10', ['0321751043', '0-321-75104-3'], ['0321751044']);
  check('isbn13', ['978-0321751041', '9780321751041'], ['9780321751042']);
  check('isbn', ['0321751043', '9780321751041'], ['123']);
  check('creditcard', ['4111111111111111', '4111-1111-1111-1111'], ['4111111111111112', '1234']);
  check('ssn', ['123-45-6789', '123 45 6789'], ['123456789', '12-345-6789']);
  check('byte', ['aGVsbG8=', 'aGVsbG8h'], ['', 'aGVsbG8', 'not base64!']);
  check('password', ['', 'anything'], []);
});
