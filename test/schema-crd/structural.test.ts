// The structural schema rules (ValidateStructural) through CRD validation, with kube's exact texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCRD } from '../../src/crd/defaults.js';
import { validateCRD } from '../../src/crd/validation.js';
import type { CustomResourceDefinition, JSONSchemaProps } from '../../src/crd/types.js';
import { createCRDSchemaValidator } from '../../src/crd/crd-schema-validate.js';
import { nonStructuralSchemaCondition, structuralViolations } from '../../src/crd/structural-validate.js';
import { crdWith, crdWithTwoVersions, strings, testDeps } from './helpers.js';

const hook = createCRDSchemaValidator(testDeps);
const check = (crd: CustomResourceDefinition): string[] => strings(validateCRD(defaultCRD(crd), { validateSchemaStructure: hook }));
const errorsOf = (schema: JSONSchemaProps): string[] => check(crdWith(schema));
const P = 'spec.validation.openAPIV3Schema';
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): JSONSchemaProps => ({ type: 'object', properties, ...extra });

/** The seed's "Non-structural example 3". */
const seedExample3: JSONSchemaProps = {
  properties: {
    foo: { pattern: 'abc' },
    metadata: {
      type: 'object',
      properties: {
        name: { type: 'string', pattern: '^a' },
        finalizers: { type: 'array', items: { type: 'string', pattern: 'my-finalizer' } },
      },
    },
  },
  anyOf: [{ properties: { bar: { type: 'integer', minimum: 42 } }, required: ['bar'], description: 'foo bar object' }],
};

const seedExample3Violations = [
  `${P}.anyOf[0].description: Forbidden: must be empty to be structural`,
  `${P}.anyOf[0].properties[bar].type: Forbidden: must be empty to be structural`,
  `${P}.properties[bar]: Required value: because it is defined in ${P}.anyOf[0].properties[bar]`,
  `${P}.properties[foo].type: Required value: must not be empty for specified object fields`,
  `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
  `${P}.type: Required value: must not be empty at the root`,
];

test("the seed's non-structural example 3 lists exactly its violations, sorted", () => {
  assert.deepEqual(errorsOf(seedExample3), seedExample3Violations);
});

test("the seed's corrected, structural form of example 3 is accepted", () => {
  const schema = {
    type: 'object',
    description: 'foo bar object',
    properties: {
      foo: { type: 'string', pattern: 'abc' },
      bar: { type: 'integer' },
      metadata: { type: 'object', properties: { name: { type: 'string', pattern: '^a' } } },
    },
    anyOf: [{ properties: { bar: { minimum: 42 } }, required: ['bar'] }],
  };
  assert.deepEqual(errorsOf(schema), []);
});

test("the seed's examples 1 and 2: fields and items inside junctors must also be specified outside", () => {
  assert.deepEqual(errorsOf({ type: 'object', allOf: [{ properties: { foo: { type: 'string' } } }] }), [
    `${P}.allOf[0].properties[foo].type: Forbidden: must be empty to be structural`,
    `${P}.properties[foo]: Required value: because it is defined in ${P}.allOf[0].properties[foo]`,
  ]);
  assert.deepEqual(errorsOf(obj({ foo: { type: 'object' } }, { allOf: [{ properties: { foo: { minLength: 1 } } }] })), []);
  assert.deepEqual(errorsOf({ type: 'array', items: { type: 'object' }, allOf: [{ items: { properties: { foo: { minimum: 1 } } } }] }), [
    `${P}.items.properties[foo]: Required value: because it is defined in ${P}.allOf[0].items.properties[foo]`,
    `${P}.type: Invalid value: "array": must be object at the root`,
  ]);
  // kube checks this completeness only for the junctors at the root.
  assert.deepEqual(errorsOf(obj({ l: { type: 'array', items: { type: 'object' }, allOf: [{ items: { properties: { foo: { minimum: 1 } } } }] } })), []);
  assert.deepEqual(errorsOf(obj({ s: { type: 'string' } }, { anyOf: [{ items: { minimum: 1 } }] })), [
    `${P}.items: Required value: because it is defined in ${P}.anyOf[0].items`,
  ]);
});

test('completeness holds under items inside every junctor, nested junctors included', () => {
  const list = obj({ l: { type: 'array', items: obj({ x: { type: 'string' } }) } });
  const only = (junctor: Record<string, unknown>): string[] => errorsOf({ ...list, ...junctor });
  const y = { properties: { y: { minLength: 1 } } };
  const want = (vPath: string): string[] => [`${P}.properties[l].items.properties[y]: Required value: because it is defined in ${P}.${vPath}`];
  assert.deepEqual(only({ allOf: [{ properties: { l: { items: y } } }] }), want('allOf[0].properties[l].items.properties[y]'));
  assert.deepEqual(only({ anyOf: [{ properties: { l: { items: y } } }] }), want('anyOf[0].properties[l].items.properties[y]'));
  assert.deepEqual(only({ oneOf: [{ properties: { l: { items: y } } }] }), want('oneOf[0].properties[l].items.properties[y]'));
  assert.deepEqual(only({ not: { properties: { l: { items: y } } } }), want('not.properties[l].items.properties[y]'));
  // A junctor inside the junctor's items, and items inside a junctor inside the junctor.
  assert.deepEqual(only({ allOf: [{ properties: { l: { items: { not: y } } } }] }), want('allOf[0].properties[l].items.not.properties[y]'));
  assert.deepEqual(only({ not: { properties: { l: { oneOf: [{ items: y }] } } } }), want('not.properties[l].oneOf[0].items.properties[y]'));
  // Items of items: the structural items have none.
  assert.deepEqual(only({ anyOf: [{ properties: { l: { items: { items: {} } } } }] }), [
    `${P}.properties[l].items.items: Required value: because it is defined in ${P}.anyOf[0].properties[l].items.items`,
  ]);
  // A property the structural items do specify is complete.
  assert.deepEqual(only({ allOf: [{ properties: { l: { items: { properties: { x: { minLength: 1 } } } } } }] }), []);
});

test('multi-version CRDs report under spec.versions[i].schema.openAPIV3Schema', () => {
  assert.deepEqual(check(crdWithTwoVersions(obj({ foo: {} }))), [
    'spec.versions[1].schema.openAPIV3Schema.properties[foo].type: Required value: must not be empty for specified object fields',
  ]);
});

test('rule 1: types everywhere, except int-or-string and preserve-unknown-fields nodes', () => {
  assert.deepEqual(errorsOf(obj({ a: { type: 'array' } })), [`${P}.properties[a].items: Required value: must be specified`]);
  assert.deepEqual(errorsOf(obj({ a: { type: 'array', items: { description: 'x' } } })), [
    `${P}.properties[a].items.type: Required value: must not be empty for specified array items`,
  ]);
  assert.deepEqual(errorsOf(obj({ m: { type: 'object', additionalProperties: {} } })), [
    `${P}.properties[m].additionalProperties.type: Required value: must not be empty for specified object fields`,
  ]);
  assert.deepEqual(errorsOf(obj({ a: { 'x-kubernetes-int-or-string': true }, b: { 'x-kubernetes-preserve-unknown-fields': true } })), []);
  assert.deepEqual(errorsOf({ type: 'string' }), [`${P}.type: Invalid value: "string": must be object at the root`]);
  assert.deepEqual(errorsOf({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }), []);
});

test('additionalProperties is not allowed at the root', () => {
  assert.deepEqual(errorsOf({ type: 'object', additionalProperties: { type: 'string' } }), [
    `${P}.additionalProperties: Forbidden: must not be used at the root`,
  ]);
});

test('rule 3: nothing but value validations inside junctors', () => {
  const junk = {
    type: 'string',
    description: 'd',
    title: 't',
    default: 'x',
    nullable: true,
    additionalProperties: { type: 'string' },
    'x-kubernetes-preserve-unknown-fields': true,
    'x-kubernetes-embedded-resource': true,
    'x-kubernetes-int-or-string': true,
    'x-kubernetes-list-type': 'atomic',
    'x-kubernetes-list-map-keys': ['a'],
    'x-kubernetes-map-type': 'atomic',
    'x-kubernetes-validations': [{ rule: 'true' }],
  };
  const nested = `${P}.properties[a].oneOf[0]`;
  const schema = obj({ a: { type: 'string', oneOf: [junk] } });
  assert.deepEqual(structuralViolations(schema, P), [
    `${nested}.additionalProperties: Forbidden: must be undefined to be structural`,
    `${nested}.default: Forbidden: must be undefined to be structural`,
    `${nested}.description: Forbidden: must be empty to be structural`,
    `${nested}.nullable: Forbidden: must be false to be structural`,
    `${nested}.title: Forbidden: must be empty to be structural`,
    `${nested}.type: Forbidden: must be empty to be structural`,
    `${nested}.x-kubernetes-embedded-resource: Forbidden: must be false to be structural`,
    `${nested}.x-kubernetes-int-or-string: Forbidden: must be false to be structural`,
    `${nested}.x-kubernetes-list-map-keys: Forbidden: must be empty to be structural`,
    `${nested}.x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
    `${nested}.x-kubernetes-map-type: Forbidden: must be undefined to be structural`,
    `${nested}.x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
    `${nested}.x-kubernetes-validations: Forbidden: must be empty to be structural`,
  ]);
  // The CRD check adds the keyword rules, which also apply inside junctors.
  assert.deepEqual(errorsOf(schema), [
    ...structuralViolations(schema, P),
    `${nested}.type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
    `${nested}.type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
    `${nested}.x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`,
  ]);
  assert.deepEqual(errorsOf({ type: 'object', not: { properties: { metadata: { minProperties: 1 } } } }), [
    `${P}.not.properties[metadata]: Forbidden: must not be specified in a nested context`,
    `${P}.properties[metadata]: Required value: because it is defined in ${P}.not.properties[metadata]`,
  ]);
  assert.deepEqual(errorsOf(obj({ a: { type: 'object', not: { properties: { metadata: { minProperties: 1 } } } } })), [
    `${P}.properties[a].not.properties[metadata]: Forbidden: must not be specified in a nested context`,
  ]);
});

test('the two int-or-string patterns are allowed, exactly as written', () => {
  const anyOf = [{ type: 'integer' }, { type: 'string' }];
  assert.deepEqual(errorsOf(obj({ a: { 'x-kubernetes-int-or-string': true, anyOf } })), []);
  assert.deepEqual(errorsOf(obj({ a: { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf }, { pattern: '^[0-9]+%?$' }] } })), []);
  // Order matters, and so does anything next to the type.
  assert.deepEqual(errorsOf(obj({ a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'string' }, { type: 'integer' }] } })), [
    `${P}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
    `${P}.properties[a].anyOf[1].type: Forbidden: must be empty to be structural`,
  ]);
  assert.deepEqual(errorsOf(obj({ a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string' }] } })), [
    `${P}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
    `${P}.properties[a].anyOf[1].type: Forbidden: must be empty to be structural`,
  ]);
  // Only the first allOf entry may carry the pattern.
  assert.deepEqual(errorsOf(obj({ a: { 'x-kubernetes-int-or-string': true, allOf: [{ pattern: 'x' }, { anyOf }] } })), [
    `${P}.properties[a].allOf[1].anyOf[0].type: Forbidden: must be empty to be structural`,
    `${P}.properties[a].allOf[1].anyOf[1].type: Forbidden: must be empty to be structural`,
  ]);
});

test('int-or-string excludes preserve-unknown-fields and embedded-resource', () => {
  assert.deepEqual(
    errorsOf(obj({ a: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true } })),
    [`${P}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`],
  );
  assert.deepEqual(errorsOf(obj({ a: { type: 'object', 'x-kubernetes-int-or-string': true, 'x-kubernetes-embedded-resource': true, properties: { x: { type: 'string' } } } })), [
    `${P}.properties[a].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
  ]);
});

test('x-kubernetes-embedded-resource needs type object, and properties unless unknown fields are preserved', () => {
  assert.deepEqual(errorsOf(obj({ e: { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } })), [
    `${P}.properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
  ]);
  assert.deepEqual(errorsOf(obj({ e: { type: 'string', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } })), [
    `${P}.properties[e].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
  ]);
  assert.deepEqual(errorsOf(obj({ e: { type: 'object', 'x-kubernetes-embedded-resource': true } })), [
    `${P}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
  ]);
  assert.deepEqual(errorsOf(obj({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, additionalProperties: { type: 'string' } } })), [
    `${P}.properties[e].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`,
    `${P}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
  ]);
  const e = {
    type: 'object',
    'x-kubernetes-embedded-resource': true,
    properties: { kind: { type: 'integer' }, apiVersion: { type: 'string' }, metadata: { type: 'string' }, spec: { type: 'object' } },
  };
  assert.deepEqual(errorsOf(obj({ e })), [
    `${P}.properties[e].properties[kind].type: Invalid value: "integer": must be string`,
    `${P}.properties[e].properties[metadata].type: Invalid value: "string": must be object`,
  ]);
  // The seed's RawExtension example.
  assert.deepEqual(errorsOf(obj({ foo: { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, type: 'object' } })), []);
});

test('rule 4: root metadata may only restrict name and generateName', () => {
  const meta = (metadata: Record<string, unknown>) => errorsOf(obj({ metadata }));
  assert.deepEqual(meta({ type: 'object' }), []);
  assert.deepEqual(meta({ type: 'object', properties: { name: { type: 'string', maxLength: 10 }, generateName: { type: 'string' } } }), []);
  const forbiddenMeta = `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`;
  assert.deepEqual(meta({ type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object' } } }), [forbiddenMeta]);
  assert.deepEqual(meta({ type: 'object', description: 'standard object metadata' }), [forbiddenMeta]);
  assert.deepEqual(meta({ type: 'object', required: [] }), [forbiddenMeta]);
  assert.deepEqual(meta({ type: 'string' }), [`${P}.properties[metadata].type: Invalid value: "string": must be object`]);
  assert.deepEqual(errorsOf(obj({ kind: { type: 'integer' }, apiVersion: {} })), [
    `${P}.properties[apiVersion].type: Invalid value: "": must be string`,
    `${P}.properties[apiVersion].type: Required value: must not be empty for specified object fields`,
    `${P}.properties[kind].type: Invalid value: "integer": must be string`,
  ]);
});

test('patterns must compile as RE2', () => {
  assert.deepEqual(errorsOf(obj({ a: { type: 'string', pattern: '(abc' } })), [
    `${P}.properties[a].pattern: Invalid value: "(abc": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`(abc\``,
  ]);
  // Perl lookahead is not RE2; inside junctors too.
  assert.deepEqual(errorsOf(obj({ a: { type: 'string', anyOf: [{ pattern: '(?=x)' }] } })), [
    `${P}.properties[a].anyOf[0].pattern: Invalid value: "(?=x)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
  ]);
  assert.deepEqual(errorsOf(obj({ a: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' } })), []);
});

test('conversion failures show only when nothing else is reported', () => {
  assert.deepEqual(errorsOf({ type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' }), [
    `${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`,
  ]);
  // The status-subresource root check (done by src/crd/validation.ts) hides it.
  const errs = check(crdWith({ type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' }, { status: true }));
  assert.equal(errs.length, 1);
  assert.match(errs[0]!, /^spec\.validation\.openAPIV3Schema: Invalid value: apiextensions\.JSONSchemaProps\{.*only \[Description Type .* XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/);
  // items as an array: the keyword check speaks instead of the converter.
  assert.deepEqual(errorsOf(obj({ a: { type: 'array', items: [{ type: 'string' }] } })), [`${P}.properties[a].items: Forbidden: items must be a schema object and not an array`]);
});

test('structuralViolations and the NonStructuralSchema condition', () => {
  assert.deepEqual(structuralViolations(seedExample3, P), seedExample3Violations);
  assert.deepEqual(structuralViolations({ type: 'object', properties: { a: { type: 'string' } } }), []);
  assert.deepEqual(structuralViolations({ type: 'object', properties: { a: {} } }), ['properties[a].type: Required value: must not be empty for specified object fields']);

  const crd = crdWithTwoVersions(seedExample3);
  const cond = nonStructuralSchemaCondition(crd);
  const v1 = 'spec.versions[1].schema.openAPIV3Schema';
  assert.deepEqual(cond, {
    type: 'NonStructuralSchema',
    status: 'True',
    reason: 'Violations',
    message: `[${seedExample3Violations.map((e) => e.replaceAll(P, v1)).join(', ')}]`,
  });
  assert.equal(nonStructuralSchemaCondition(crdWith({ type: 'object' })), undefined);
  const single = nonStructuralSchemaCondition(crdWith({ type: 'object', properties: { a: {} } }));
  assert.equal(single?.message, 'spec.versions[0].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields');
  const withPUF = crdWith({ type: 'object' });
  withPUF.spec.preserveUnknownFields = true;
  assert.equal(nonStructuralSchemaCondition(withPUF)?.message, 'spec.preserveUnknownFields: Invalid value: true: must be false');
  assert.deepEqual(nonStructuralSchemaCondition(crdWith({ type: 'object', items: [{ type: 'string' }] })), {
    type: 'NonStructuralSchema',
    status: 'Unknown',
    reason: 'StructuralError',
    message: "failed to check validation schema for version v1: OpenAPIV3Schema 'items' must be a schema, but is an array",
  });
});
