// The OpenAPI keyword and x-kubernetes-* restrictions on CRD schemas, with kube's exact texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCRD } from '../../src/crd/defaults.js';
import { validateCRD } from '../../src/crd/validation.js';
import type { JSONSchemaProps } from '../../src/crd/types.js';
import { createCRDSchemaValidator } from '../../src/crd/crd-schema-validate.js';
import type { ValidationRulesContext } from '../../src/crd/crd-schema-validate.js';
import { crdWith, strings, testDeps } from './helpers.js';

const hook = createCRDSchemaValidator(testDeps);
const errorsOf = (schema: JSONSchemaProps): string[] => strings(validateCRD(defaultCRD(crdWith(schema)), { validateSchemaStructure: hook }));
const P = 'spec.validation.openAPIV3Schema';
const A = `${P}.properties[a]`;
const withA = (a: Record<string, unknown>): JSONSchemaProps => ({ type: 'object', properties: { a } });

test('unsupported keywords are forbidden', () => {
  assert.deepEqual(errorsOf(withA({ type: 'object', id: 'x' })), [`${A}.id: Forbidden: id is not supported`]);
  assert.deepEqual(errorsOf(withA({ type: 'object', patternProperties: { '^x': { type: 'string' } } })), [
    `${A}.patternProperties: Forbidden: patternProperties is not supported`,
  ]);
  assert.deepEqual(errorsOf(withA({ type: 'object', definitions: { d: { type: 'string' } } })), [`${A}.definitions: Forbidden: definitions is not supported`]);
  assert.deepEqual(errorsOf(withA({ type: 'object', dependencies: { b: ['c'] } })), [`${A}.dependencies: Forbidden: dependencies is not supported`]);
  assert.deepEqual(errorsOf(withA({ type: 'object', $ref: '#/definitions/d' })), [`${A}.$ref: Forbidden: $ref is not supported`]);
  assert.deepEqual(errorsOf(withA({ type: 'array', items: { type: 'string' }, additionalItems: false })), [
    `${A}.additionalItems: Forbidden: additionalItems is not supported`,
  ]);
  // Definitions are still walked.
  assert.deepEqual(errorsOf(withA({ type: 'object', definitions: { d: { type: 'string', uniqueItems: true } } })), [
    `${A}.definitions: Forbidden: definitions is not supported`,
    `${A}.definitions[d].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
  ]);
});

test('types must be OpenAPI v3 types, and never null', () => {
  const types = 'supported values: "array", "boolean", "integer", "number", "object", "string"';
  assert.deepEqual(errorsOf(withA({ type: 'null' })), [
    `${A}.type: Unsupported value: "null": ${types}`,
    `${A}.type: Forbidden: type cannot be set to null, use nullable as an alternative`,
  ]);
  assert.deepEqual(errorsOf(withA({ type: 'int' })), [`${A}.type: Unsupported value: "int": ${types}`]);
});

test('uniqueItems: true is forbidden', () => {
  assert.deepEqual(errorsOf(withA({ type: 'array', items: { type: 'string' }, uniqueItems: true })), [
    `${A}.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
  ]);
  assert.deepEqual(errorsOf(withA({ type: 'array', items: { type: 'string' }, uniqueItems: false })), []);
});

test('additionalProperties and properties are mutually exclusive; additionalProperties alone is a map', () => {
  const mutual = [`${A}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`];
  assert.deepEqual(errorsOf(withA({ type: 'object', properties: { b: { type: 'string' } }, additionalProperties: { type: 'string' } })), mutual);
  assert.deepEqual(errorsOf(withA({ type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false })), mutual);
  // kube 1.33 accepts these two (the docs' "cannot be false" predates it).
  assert.deepEqual(errorsOf(withA({ type: 'object', properties: { b: { type: 'string' } }, additionalProperties: true })), []);
  assert.deepEqual(errorsOf(withA({ type: 'object', additionalProperties: false })), []);
  assert.deepEqual(errorsOf(withA({ type: 'object', additionalProperties: { type: 'string' } })), []);
});

test('x-kubernetes-preserve-unknown-fields must be true if set', () => {
  assert.deepEqual(errorsOf(withA({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false })), [
    `${A}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
  ]);
});

test('defaults are forbidden in top-level TypeMeta/ObjectMeta and in metadata maps', () => {
  assert.deepEqual(errorsOf({ type: 'object', properties: { apiVersion: { type: 'string', default: 'v1' } } }), [
    `${P}.properties[apiVersion].default: Forbidden: must not be set in top-level apiVersion`,
  ]);
  assert.deepEqual(errorsOf({ type: 'object', properties: { metadata: { type: 'object', default: {} } } }), [
    `${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
  ]);
  const embedded = {
    type: 'object',
    'x-kubernetes-embedded-resource': true,
    'x-kubernetes-preserve-unknown-fields': true,
    properties: { metadata: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string', default: 'x' } } } } },
  };
  assert.deepEqual(errorsOf(withA(embedded)), [
    `${A}.properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata`,
  ]);
});

test('x-kubernetes-embedded-resource is not allowed inside resource meta', () => {
  const e = {
    type: 'object',
    'x-kubernetes-embedded-resource': true,
    'x-kubernetes-preserve-unknown-fields': true,
    properties: { metadata: { type: 'object', properties: { x: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } } },
  };
  assert.deepEqual(errorsOf(withA(e)), [`${A}.properties[metadata].properties[x].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta`]);
});

test('x-kubernetes-map-type: objects only, atomic or granular', () => {
  assert.deepEqual(errorsOf(withA({ type: 'string', 'x-kubernetes-map-type': 'atomic' })), [
    `${A}.type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
  ]);
  assert.deepEqual(errorsOf(withA({ 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-map-type': 'atomic' })), [
    `${A}.type: Required value: must be object if x-kubernetes-map-type is specified`,
  ]);
  assert.deepEqual(errorsOf(withA({ type: 'object', 'x-kubernetes-map-type': 'foo' })), [
    `${A}.x-kubernetes-map-type: Unsupported value: "foo": supported values: "atomic", "granular"`,
  ]);
  assert.deepEqual(errorsOf(withA({ type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'granular' })), []);
});

test('x-kubernetes-list-type: arrays only, atomic, set or map', () => {
  assert.deepEqual(errorsOf(withA({ type: 'object', 'x-kubernetes-list-type': 'set' })), [
    `${A}.type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
  ]);
  assert.deepEqual(errorsOf(withA({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' })), [
    `${A}.x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
  ]);
  assert.deepEqual(errorsOf(withA({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' })), []);
});

test('set items must be atomic and not nullable', () => {
  const set = (items: Record<string, unknown>) => errorsOf(withA({ type: 'array', 'x-kubernetes-list-type': 'set', items }));
  // kube renders the item's (unset) list type here.
  assert.deepEqual(set({ type: 'object', properties: { b: { type: 'string' } } }), [
    `${A}.items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`,
  ]);
  assert.deepEqual(set({ type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { b: { type: 'string' } } }), []);
  assert.deepEqual(set({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' }), [
    `${A}.items.x-kubernetes-list-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set`,
  ]);
  assert.deepEqual(set({ type: 'array', items: { type: 'string' } }), []);
  assert.deepEqual(set({ type: 'string', nullable: true }), [`${A}.items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set`]);
});

test('map lists: keys, item type, key types, required or defaulted keys', () => {
  const item = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
  const mapList = (keys: string[] | undefined, items: unknown) =>
    errorsOf(withA({ type: 'array', 'x-kubernetes-list-type': 'map', ...(keys ? { 'x-kubernetes-list-map-keys': keys } : {}), ...(items ? { items } : {}) }));

  assert.deepEqual(mapList(['name'], item({ name: { type: 'string' } }, { required: ['name'] })), []);
  assert.deepEqual(mapList(['name'], item({ name: { type: 'string', default: 'x' } })), []);
  assert.deepEqual(mapList(undefined, item({ name: { type: 'string' } })), [
    `${A}.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
  ]);
  assert.deepEqual(mapList(['name'], { type: 'string' }), [`${A}.items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`]);
  assert.deepEqual(mapList(['name', 'nope'], item({ name: { type: 'string' } }, { required: ['name'] })), [
    `${A}.x-kubernetes-list-map-keys: Invalid value: []string{"name", "nope"}: entries must all be names of item properties`,
  ]);
  assert.deepEqual(mapList(['name', 'name'], item({ name: { type: 'string' } }, { required: ['name'] })), [
    `${A}.x-kubernetes-list-map-keys: Invalid value: []string{"name", "name"}: must not contain duplicate entries`,
  ]);
  assert.deepEqual(mapList(['o'], item({ o: { type: 'object' } }, { required: ['o'] })), [
    `${A}.items.properties[o].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
  ]);
  assert.deepEqual(mapList(['name'], item({ name: { type: 'string' } })), [
    `${A}.items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
  ]);
  assert.deepEqual(mapList(['name'], item({ name: { type: 'string', nullable: true } }, { required: ['name'], nullable: true })), [
    `${A}.items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map`,
    `${A}.items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
  ]);
  // Missing items: the structural rule and the map-list rule both speak.
  assert.deepEqual(mapList(['name'], undefined), [
    `${A}.items: Required value: must be specified`,
    `${A}.items: Required value: must have a schema if x-kubernetes-list-type is map`,
  ]);
  assert.deepEqual(errorsOf(withA({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['a'] })), [
    `${A}.x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
  ]);
  assert.deepEqual(errorsOf(withA({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-list-map-keys': ['a'] })), [
    `${A}.x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`,
  ]);
});

test('x-kubernetes-validations: the static rule checks', () => {
  const rules = (list: unknown[]) =>
    errorsOf(withA({ type: 'object', properties: { b: { type: 'string' }, m: { type: 'object', additionalProperties: { type: 'string' } } }, 'x-kubernetes-validations': list }));
  const V = `${A}.x-kubernetes-validations`;
  assert.deepEqual(rules([{ rule: 'self.b == "x"', message: 'b must be x', reason: 'FieldValueForbidden', fieldPath: '.b' }]), []);
  assert.deepEqual(rules([{ rule: '  ' }]), [`${V}[0].rule: Required value: rule is not specified`]);
  assert.deepEqual(rules([{ rule: 'true', message: ' ' }]), [`${V}[0].message: Invalid value: " ": message must be non-empty if specified`]);
  assert.deepEqual(rules([{ rule: 'true', message: 'a\nb' }]), [`${V}[0].message: Invalid value: "a\\nb": message must not contain line breaks`]);
  assert.deepEqual(rules([{ rule: 'true &&\ntrue' }]), [`${V}[0].message: Required value: message must be specified if rule contains line breaks`]);
  assert.deepEqual(rules([{ rule: 'true', messageExpression: ' ' }]), [`${V}[0].messageExpression: Required value: messageExpression must be non-empty if specified`]);
  assert.deepEqual(rules([{ rule: 'true', reason: 'Bad' }]), [
    `${V}[0].reason: Unsupported value: "Bad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
  ]);
  assert.deepEqual(rules([{ rule: 'true', fieldPath: ' ' }]), [
    `${V}[0].fieldPath: Invalid value: " ": fieldPath must be non-empty if specified`,
    `${V}[0].fieldPath: Invalid value: " ": fieldPath must be a valid path`,
  ]);
  assert.deepEqual(rules([{ rule: 'true', fieldPath: '.nope' }, { rule: 'true', fieldPath: "['b']" }, { rule: 'true', fieldPath: ".m['any.key']" }]), [
    `${V}[0].fieldPath: Invalid value: ".nope": fieldPath must be a valid path`,
  ]);
  assert.deepEqual(rules([{ rule: 'true', fieldPath: 'b' }, { rule: 'true', fieldPath: ".b\n" }]), [
    `${V}[0].fieldPath: Invalid value: "b": fieldPath must be a valid path`,
    `${V}[1].fieldPath: Invalid value: ".b\\n": fieldPath must not contain line breaks`,
    `${V}[1].fieldPath: Invalid value: ".b\\n": fieldPath must be a valid path`,
  ]);
});

test('rule compilation is delegated, only where the schema is sound, with correlation info', () => {
  const seen: ValidationRulesContext[] = [];
  const checking = createCRDSchemaValidator({
    ...testDeps,
    checkRules: (ctx) => {
      seen.push(ctx);
      return JSON.stringify(ctx.schema['x-kubernetes-validations']).includes('bad') ? [{ type: 'FieldValueInvalid', field: `${ctx.path}.x-kubernetes-validations[0].rule`, badValue: 'bad', detail: 'compile error' }] : [];
    },
  });
  const run = (schema: JSONSchemaProps) => strings(validateCRD(defaultCRD(crdWith(schema)), { validateSchemaStructure: checking }));
  const schema = {
    type: 'object',
    'x-kubernetes-validations': [{ rule: 'has(self.spec)' }],
    properties: {
      spec: {
        type: 'object',
        properties: { l: { type: 'array', items: { type: 'object', properties: { x: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'bad' }] } } },
      },
    },
  };
  assert.deepEqual(run(schema), [`${P}.properties[spec].properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "bad": compile error`]);
  assert.deepEqual(
    seen.map((c) => [c.path, c.uncorrelatablePath, c.ancestors.map((a) => a.via + (a.name ? `:${a.name}` : ''))]),
    [
      [`${P}.properties[spec].properties[l].items`, `${P}.properties[spec].properties[l]`, ['properties:spec', 'properties:l', 'items']],
      [P, undefined, []],
    ],
  );
  // Not compiled when the schema is not structural.
  seen.length = 0;
  run({ ...schema, properties: { ...schema.properties, bad: {} } });
  assert.deepEqual(seen, []);
});
