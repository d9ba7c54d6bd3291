import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  generateNameFrom,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  nameValidatorFor,
  regexError,
  validatePathSegmentName,
} from '../../src/schema/names.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

test('regexError formats examples like Go (two spaces before "or")', () => {
  assert.equal(regexError('bad', 're'), "bad (regex used for validation is 're')");
  assert.equal(regexError('bad', 're', 'a', 'b'), "bad (e.g. 'a',  or 'b', regex used for validation is 're')");
});

test('isDNS1123Subdomain', () => {
  assert.deepEqual(isDNS1123Subdomain('example.com'), []);
  assert.deepEqual(isDNS1123Subdomain('a'), []);
  assert.deepEqual(isDNS1123Subdomain('Example.com'), [SUBDOMAIN_MSG]);
  assert.deepEqual(isDNS1123Subdomain(''), [SUBDOMAIN_MSG]);
  assert.deepEqual(isDNS1123Subdomain('a..b'), [SUBDOMAIN_MSG]);
  assert.deepEqual(isDNS1123Subdomain('a'.repeat(253)), []);
  assert.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
  assert.deepEqual(isDNS1123Subdomain('A'.repeat(254)), ['must be no more than 253 characters', SUBDOMAIN_MSG]);
});

test('isDNS1123Label reports dots separately', () => {
  assert.deepEqual(isDNS1123Label('my-name'), []);
  assert.deepEqual(isDNS1123Label('my.name'), ['must not contain dots']);
  assert.deepEqual(isDNS1123Label('My'), [LABEL_MSG]);
  assert.deepEqual(isDNS1123Label('-a'), [LABEL_MSG]);
  assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('isDNS1035Label', () => {
  assert.deepEqual(isDNS1035Label('abc-123'), []);
  assert.deepEqual(isDNS1035Label('1abc'), [DNS1035_MSG]);
  assert.deepEqual(isDNS1035Label('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('isQualifiedName', () => {
  assert.deepEqual(isQualifiedName('MyName'), []);
  assert.deepEqual(isQualifiedName('example.com/my.Name_1'), []);
  assert.deepEqual(isQualifiedName('app:monolith'), [NAME_PART_MSG]);
  assert.deepEqual(isQualifiedName('/name'), ['prefix part must be non-empty']);
  assert.deepEqual(isQualifiedName('example.com/'), ['name part must be non-empty', NAME_PART_MSG]);
  assert.deepEqual(isQualifiedName('Example.com/x'), ['prefix part ' + SUBDOMAIN_MSG]);
  assert.deepEqual(isQualifiedName('a/b/c'), [
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
  assert.deepEqual(isQualifiedName('a'.repeat(64)), ['name part must be no more than 63 characters']);
});

test('isValidLabelValue', () => {
  assert.deepEqual(isValidLabelValue(''), []);
  assert.deepEqual(isValidLabelValue('my_value.1'), []);
  assert.deepEqual(isValidLabelValue('b$'), [LABEL_VALUE_MSG]);
  assert.deepEqual(isValidLabelValue('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('path segment names', () => {
  assert.deepEqual(isValidPathSegmentName('.'), ["may not be '.'"]);
  assert.deepEqual(isValidPathSegmentName('..'), ["may not be '..'"]);
  assert.deepEqual(isValidPathSegmentName('a/b%c'), ["may not contain '/'", "may not contain '%'"]);
  assert.deepEqual(isValidPathSegmentName('Any Thing!'), []);
  assert.deepEqual(validatePathSegmentName('..', true), []);
  assert.deepEqual(validatePathSegmentName('a%', true), ["may not contain '%'"]);
});

test('generateName prefixes may end in a dash (mask drops two characters, as apimachinery does)', () => {
  assert.deepEqual(nameIsDNSSubdomain('foo-', true), []);
  assert.deepEqual(nameIsDNSSubdomain('foo-', false), [SUBDOMAIN_MSG]);
  assert.deepEqual(nameIsDNSLabel('x.-', true), []); // "x.-" masks to "xa"
  assert.deepEqual(nameIsDNSLabel('-', true), [LABEL_MSG]);
});

test('nameValidatorFor', () => {
  assert.equal(nameValidatorFor('dns1123Subdomain'), nameIsDNSSubdomain);
  assert.deepEqual(nameValidatorFor('pathSegment')('a/b', false), ["may not contain '/'"]);
  const custom = (): string[] => ['custom'];
  assert.equal(nameValidatorFor(custom), custom);
});

test('generateNameFrom appends five characters from the apiserver alphabet and caps the base at 58', () => {
  let n = 0;
  const name = generateNameFrom('web-', () => n++ % 27);
  assert.equal(name, 'web-bcdfg');
  const long = generateNameFrom('a'.repeat(70), () => 0);
  assert.equal(long, 'a'.repeat(58) + 'bbbbb');
  assert.match(generateNameFrom('x-'), /^x-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
});
