// Defaults in CRD schemas: pruned, valid against their schema, and valid metadata where they feed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCRD } from '../../src/crd/defaults.js';
import { validateCRD } from '../../src/crd/validation.js';
import type { JSONSchemaProps } from '../../src/crd/types.js';
import type { FieldError } from '../../src/api/field-error.js';
import { createCRDSchemaValidator, validateCRDSchema } from '../../src/crd/crd-schema-validate.js';
import { readFileSync } from 'node:fs';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { crdSchemaValidator } from '../../src/crd/schema-checks.js';
import { crdWith, refPrune, strings, testDeps } from './helpers.js';

const hook = createCRDSchemaValidator(testDeps);
const errorsOfCRD = (crd: CustomResourceDefinition): string[] => strings(validateCRD(defaultCRD(crd), { validateSchemaStructure: hook }));
const errorsOf = (schema: JSONSchemaProps): string[] => errorsOfCRD(crdWith(schema));
const P = 'spec.validation.openAPIV3Schema';
const withSpec = (spec: Record<string, unknown>): JSONSchemaProps => ({ type: 'object', properties: { spec } });

test('defaults must not carry fields the schema would prune', () => {
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 1 } })), [
    `${P}.properties[spec].default: Invalid value: map[string]interface {}{"a":"x", "b":1}: must not have unknown fields`,
  ]);
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x' } })), []);
  assert.deepEqual(errorsOf(withSpec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { anything: [1, 2] } })), []);
  // A default below another default is checked on its own.
  assert.deepEqual(
    errorsOf(withSpec({ type: 'object', default: {}, properties: { l: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } }, default: { z: 1 } } } } })),
    [`${P}.properties[spec].properties[l].items.default: Invalid value: map[string]interface {}{"z":1}: must not have unknown fields`],
  );
});

test('defaults must validate against the schema they sit in (value engine, under <path>.default)', () => {
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { replicas: { type: 'integer', default: 'x' } } })), [
    `${P}.properties[spec].properties[replicas].default: Invalid value: "x": must be of type integer`,
  ]);
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { mode: { type: 'string', enum: ['A', 'B'], default: 'C' } } })), [
    `${P}.properties[spec].properties[mode].default: Unsupported value: "C": supported values: "A", "B"`,
  ]);
  // The seed's "Defaulting and Nullable" schema is fine.
  assert.deepEqual(
    errorsOf(withSpec({ type: 'object', properties: { foo: { type: 'string', nullable: false, default: 'default' }, bar: { type: 'string', nullable: true }, baz: { type: 'string' } } })),
    [],
  );
});

test('the value engine gets the schema node, the default and the path', () => {
  const calls: Array<[unknown, unknown, string]> = [];
  const errs = validateCRDSchema(
    withSpec({ type: 'object', properties: { n: { type: 'integer', minimum: 3, default: 5 } } }),
    'spec.versions[0].schema.openAPIV3Schema',
    { statusEnabled: false, requireStructuralSchema: true, allowDefaults: true },
    {
      validateValue: (schema, value, path): FieldError[] => {
        calls.push([schema, value, path]);
        return [];
      },
      pruneValue: refPrune,
    },
  );
  assert.deepEqual(errs, []);
  assert.deepEqual(calls, [[{ type: 'integer', minimum: 3, default: 5 }, 5, 'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[n].default']]);
});

test('defaults of embedded resources need apiVersion and kind', () => {
  const e = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { e: { ...e, default: { kind: 'Pod' } } } })), [
    `${P}.properties[spec].properties[e].default.apiVersion: Required value: must not be empty`,
  ]);
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { e: { ...e, default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } } } })), []);
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { e: { ...e, default: { apiVersion: 'a/b/c', kind: 'Pod_x' } } } })), [
    `${P}.properties[spec].properties[e].default.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
    `${P}.properties[spec].properties[e].default.kind: Invalid value: "Pod_x": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
  ]);
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { e: { ...e, default: { apiVersion: 1, kind: 'Pod' } } } })), [
    `${P}.properties[spec].properties[e].default.apiVersion: Invalid value: 1: must be a string`,
  ]);
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { e: { ...e, default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 5 } } } } })), [
    `${P}.properties[spec].properties[e].default.metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`,
  ]);
});

test('unknown metadata fields in an embedded resource\'s default are not unknown fields (the real engine)', () => {
  const real = (schema: JSONSchemaProps): string[] => strings(validateCRD(defaultCRD(crdWith(schema)), { validateSchemaStructure: crdSchemaValidator }));
  const e = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', unknownField: 1, labels: { a: 'b' } } };
  assert.deepEqual(real(withSpec({ type: 'object', properties: { e: { ...e, default: pod } } })), []);
  // The same below the default's node: an embedded resource inside an object's default.
  assert.deepEqual(real(withSpec({ type: 'object', properties: { o: { type: 'object', properties: { e }, default: { e: pod } } } })), []);
  // Unknown fields elsewhere are still refused, and malformed metadata still is.
  assert.deepEqual(real(withSpec({ type: 'object', properties: { o: { type: 'object', properties: { e }, default: { e: pod, z: 1 } } } })), [
    `${P}.properties[spec].properties[o].default: Invalid value: map[string]interface {}{"e":map[string]interface {}{"apiVersion":"v1", "kind":"Pod", "metadata":map[string]interface {}{"labels":map[string]interface {}{"a":"b"}, "name":"p", "unknownField":1}}, "z":1}: must not have unknown fields`,
  ]);
  assert.deepEqual(real(withSpec({ type: 'object', properties: { e: { ...e, default: { ...pod, metadata: { name: 5 } } } } })), [
    `${P}.properties[spec].properties[e].default.metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`,
  ]);
});

test('defaults of metadata fields in embedded resources must make valid metadata', () => {
  const e = (properties: Record<string, unknown>) => ({
    type: 'object',
    'x-kubernetes-embedded-resource': true,
    'x-kubernetes-preserve-unknown-fields': true,
    properties,
  });
  const E = `${P}.properties[spec].properties[e]`;
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { e: e({ metadata: { type: 'object', properties: { name: { type: 'string', default: 'a/b' } } } }) } })), [
    `${E}.properties[metadata].properties[name].default: Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'`,
  ]);
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { e: e({ kind: { type: 'string', default: 5 } }) } })), [
    `${E}.properties[kind].default: Invalid value: 5: must result in valid metadata: kind: Invalid value: 5: must be a string`,
  ]);
  assert.deepEqual(
    errorsOf(withSpec({ type: 'object', properties: { e: e({ metadata: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' }, default: { 'a b': 'c' } } } } }) } })),
    [
      `${E}.properties[metadata].properties[labels].default: Invalid value: map[string]interface {}{"a b":"c"}: must result in valid metadata: metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
  );
  assert.deepEqual(errorsOf(withSpec({ type: 'object', properties: { e: e({ metadata: { type: 'object', properties: { name: { type: 'string', default: 'ok' } } } }) } })), []);
});

test("kube's own case: defaults in top-level and embedded metadata (v1.15 era)", () => {
  const version = (name: string, schema: JSONSchemaProps) => ({ name, served: true, storage: name === 'v1', schema: { openAPIV3Schema: schema } });
  const embedded = (properties: Record<string, unknown>) => ({ type: 'object', 'x-kubernetes-embedded-resource': true, properties });
  const crd = crdWith({ type: 'object' });
  crd.spec.versions = [
    version('v1', { type: 'object', properties: { metadata: { type: 'object', default: { name: 'foo' } }, embedded: embedded({ metadata: { type: 'object', default: { name: 'foo', unknown: 42 } } }) } }),
    version('v2', {
      type: 'object',
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string', default: 'foo' } } },
        embedded: embedded({ apiVersion: { type: 'string', default: 'v1' }, kind: { type: 'string', default: 'Pod' }, metadata: { type: 'object', properties: { name: { type: 'string', default: 'foo' } } } }),
      },
    }),
    version('v3', {
      type: 'object',
      properties: { embedded: embedded({ apiVersion: { type: 'string', default: 'v1' }, kind: { type: 'string', default: '%' }, metadata: { type: 'object', default: { labels: { bar: 'x y' } } } }) },
    }),
    version('v4', {
      type: 'object',
      properties: { embedded: embedded({ metadata: { type: 'object', properties: { name: { type: 'string', default: 42 }, labels: { type: 'object', properties: { bar: { type: 'string', default: 42 } } } } } }) },
    }),
  ];
  const V = (i: number) => `spec.versions[${i}].schema.openAPIV3Schema`;
  assert.deepEqual(errorsOfCRD(crd), [
    `${V(0)}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
    `${V(1)}.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata`,
    `${V(2)}.properties[embedded].properties[kind].default: Invalid value: "%": must result in valid metadata: kind: Invalid value: "%": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    `${V(2)}.properties[embedded].properties[metadata].default: Invalid value: map[string]interface {}{"labels":map[string]interface {}{"bar":"x y"}}: must result in valid metadata: metadata.labels: Invalid value: "x y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    `${V(3)}.properties[embedded].properties[metadata].properties[labels].properties[bar].default: Invalid value: 42: must result in valid metadata: metadata: Invalid value: map[string]interface {}{"labels":map[string]interface {}{"bar":42}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`,
    `${V(3)}.properties[embedded].properties[metadata].properties[name].default: Invalid value: 42: must result in valid metadata: metadata: Invalid value: map[string]interface {}{"name":42}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`,
  ]);
});

test("kube's own case: embedded metadata defaults (46 properties, same error fields and types)", () => {
  const fixture = JSON.parse(readFileSync(new URL('./fixtures/embedded-metadata-defaults.json', import.meta.url), 'utf8')) as {
    schema: JSONSchemaProps;
    errors: Array<{ type: string; field: string }>;
  };
  const errs = validateCRD(defaultCRD(crdWith(fixture.schema)), { validateSchemaStructure: hook });
  const key = (e: { type: string; field: string }) => `${e.field} ${e.type}`;
  assert.deepEqual(errs.map(key).sort(), fixture.errors.map(key).sort());
});
