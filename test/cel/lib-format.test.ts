// Kubernetes' format library (pkg/cel/library/format.go and format_test.go) through the
// declared overloads: named formats and their validation messages.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FORMAT_LIBRARY as F, CONSTANT_FORMATS, NamedFormat } from '../../src/cel/lib/format.js';
import { Optional, type Val } from '../../src/cel/values.js';
import { celEquals } from '../../src/cel/value-ops.js';
import { call, cost, overload } from './lib-support.js';

const named = (n: string): Val => call(F, `format.${n}`);
const validate = (n: string, s: string): Val => call(F, 'format-validate', named(n), s);
const none = (v: Val) => assert.ok(v instanceof Optional && !v.hasValue(), `expected optional.none(), got ${JSON.stringify(v)}`);
const errors = (v: Val): readonly Val[] => {
  assert.ok(v instanceof Optional && v.hasValue());
  return v.value as readonly Val[];
};

describe('format library', () => {
  it('declares format.named, validate and one zero-argument function per format', () => {
    assert.deepEqual([...CONSTANT_FORMATS.keys()].sort(), [
      'byte', 'date', 'datetime', 'dns1035Label', 'dns1035LabelPrefix', 'dns1123Label', 'dns1123LabelPrefix', 'dns1123Subdomain',
      'dns1123SubdomainPrefix', 'labelValue', 'qualifiedName', 'uri', 'uuid',
    ]);
    for (const name of CONSTANT_FORMATS.keys()) {
      const o = overload(F, `format.${name}`);
      assert.equal(o.params.length, 0);
      assert.ok(name.length <= 64);
    }
    assert.ok(overload(F, 'format-validate').member);
    assert.ok(!overload(F, 'format-named').member);
  });

  it('accepts the documented examples', () => {
    none(validate('dns1123Label', 'my-label-name'));
    none(validate('dns1123Subdomain', 'apiextensions.k8s.io'));
    none(validate('qualifiedName', 'apiextensions.k8s.io/v1beta1'));
    none(validate('dns1123LabelPrefix', 'my-label-prefix-'));
    none(validate('dns1123SubdomainPrefix', 'mysubdomain.prefix.-'));
    none(validate('dns1035LabelPrefix', 'my-label-prefix-'));
    none(validate('uri', 'http://example.com'));
    none(validate('uuid', '123e4567-e89b-12d3-a456-426614174000'));
    none(validate('byte', 'aGVsbG8='));
    none(validate('date', '2021-01-01'));
    none(validate('datetime', '2021-01-01T00:00:00Z'));
    none(validate('dns1123Subdomain', 'example.com'));
    none(validate('dns1035Label', 'my-label-name'));
    none(validate('qualifiedName', 'my.name'));
    none(validate('labelValue', 'my-cool-label-Value'));
  });

  it("reports apimachinery's messages", () => {
    assert.deepEqual(errors(validate('dns1123Label', 'contains a space')), [
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    assert.deepEqual(errors(validate('dns1123Subdomain', 'contains a space')), [
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    assert.deepEqual(errors(validate('dns1035Label', 'contains a space')), [
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
    assert.deepEqual(errors(validate('qualifiedName', 'contains a space')), [
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    assert.deepEqual(errors(validate('dns1123LabelPrefix', 'contains a space-')), errors(validate('dns1123Label', 'contains a space')));
    assert.deepEqual(errors(validate('dns1035LabelPrefix', 'contains a space-')), errors(validate('dns1035Label', 'contains a space')));
    assert.deepEqual(errors(validate('byte', 'aGVsbG8')), ['invalid base64']);
    assert.deepEqual(errors(validate('date', '2020-01-32')), ['invalid date']);
    assert.deepEqual(errors(validate('datetime', '2020-01-32T00:00:00Z')), ['invalid datetime']);
    assert.deepEqual(errors(validate('uuid', 'not-a-uuid')), ['does not match the UUID format']);
    assert.deepEqual(errors(validate('uri', 'example.com')), ['parse "example.com": invalid URI for request']);
    assert.deepEqual(errors(validate('labelValue', 'my-cool-label-Value!!\n\n!!!')), [
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
    assert.deepEqual(errors(validate('dns1123Label', 'a.b')), ['must not contain dots']);
    assert.deepEqual(errors(validate('dns1123Label', 'a'.repeat(64))), ['must be no more than 63 characters']);
  });

  it('format.named finds every constant format, and only those', () => {
    const unknown = call(F, 'format-named', 'unknown');
    assert.ok(unknown instanceof Optional && !unknown.hasValue());
    for (const name of CONSTANT_FORMATS.keys()) {
      const found = call(F, 'format-named', name);
      assert.ok(found instanceof Optional && found.value instanceof NamedFormat);
      assert.equal(celEquals(found.value, named(name)), true);
      for (const other of CONSTANT_FORMATS.keys()) {
        if (other !== name) assert.equal(celEquals(named(name), named(other)), false, `${name} == ${other}`);
      }
    }
  });

  it('costs a regex match sized by the format', () => {
    // ceil((1 + 13) × 0.1) × ceil(30 × 0.25)
    assert.equal(cost(F, 'format-validate', named('dns1123Label'), 'my-label-name'), 2 * 8);
    assert.equal(cost(F, 'format-validate', named('uri'), 'http://a'), 1 * 276);
    assert.equal(cost(F, 'format-named', 'uri'), 1);
  });
});
