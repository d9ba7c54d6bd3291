// checkValidationRules remembers a create's compiled rules by the rules and the node's CEL declaration; it must
// answer as checkValidationRulesUnremembered (every node compiled) wherever the node sits: over every corpus schema
// (checked twice, the second time from what was remembered) and over nodes placed where the cardinality, the
// correlation with oldSelf or the declaration differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCRDSchemaValidator } from '../../src/crd/crd-schema-validate.js';
import { checkValidationRules, checkValidationRulesUnremembered, withRuleCostTotal } from '../../src/crd/cel-crd-checks.js';
import { declText, schemaDeclType } from '../../src/crd/cel-types.js';
import { newStructural } from '../../src/schema/structural-model.js';
import type { ValidationRulesCheck } from '../../src/crd/crd-schema-validate.js';
import type { SchemaCheckContext } from '../../src/crd/validation.js';
import type { JSONSchemaProps } from '../../src/crd/types.js';
import { corpusSchemas } from '../corpus-schemas.js';

const CTX: SchemaCheckContext = { statusEnabled: true, requireStructuralSchema: true, allowDefaults: true };
const PATH = 'spec.versions[0].schema.openAPIV3Schema';
const validator = (checkRules: ValidationRulesCheck) =>
  withRuleCostTotal(createCRDSchemaValidator({ validateValue: () => [], pruneValue: (_s, v) => v, checkRules }));
const remembered = validator(checkValidationRules);
const general = validator(checkValidationRulesUnremembered);

/** The errors of both paths, the remembered one run twice (the second from memory where it remembers). */
function bothWays(schema: JSONSchemaProps): string {
  const want = JSON.stringify(general(structuredClone(schema), PATH, CTX));
  assert.equal(JSON.stringify(remembered(structuredClone(schema), PATH, CTX)), want);
  assert.equal(JSON.stringify(remembered(structuredClone(schema), PATH, CTX)), want);
  return want;
}

test('remembered rule checks answer as compiling every node, over every corpus schema', () => {
  const schemas = corpusSchemas();
  assert.ok(schemas.length > 200, `${schemas.length} schemas`);
  for (const s of schemas) assert.equal(bothWays(s), '[]');
});

const root = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });
const obj = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties, ...extra });

test('the same node where the cardinality, oldSelf correlation or cost total differ: the errors of each place', () => {
  const costly: JSONSchemaProps = { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.matches('^a+$'))" }] };
  const transition: JSONSchemaProps = obj({ x: { type: 'string', maxLength: 10 } }, { 'x-kubernetes-validations': [{ rule: 'self.x == oldSelf.x' }] });
  const optionalNoOldSelf: JSONSchemaProps = obj({ x: { type: 'string' } }, { 'x-kubernetes-validations': [{ rule: "self.x != ''", optionalOldSelf: true }] });
  const cases: JSONSchemaProps[] = [
    root(obj({ a: costly })),
    root(obj({ list: { type: 'array', items: obj({ a: costly }) } })),
    root(obj({ list: { type: 'array', maxItems: 2, items: obj({ a: costly }) } })),
    root(obj({ a: transition })),
    root(obj({ list: { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'atomic', items: transition } })),
    root(obj({ list: { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['x'], items: { ...transition, required: ['x'] } } })),
    root(obj({ m: { type: 'object', 'x-kubernetes-map-type': 'strange', properties: { a: transition } } })),
    root(obj({ a: optionalNoOldSelf, b: optionalNoOldSelf })),
    root(obj(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, { type: 'array', items: obj({ a: costly }) }])))),
  ];
  const answers = cases.map(bothWays);
  assert.equal(answers[0], '[]');
  assert.match(answers[1]!, /estimated rule cost exceeds budget/);
  assert.match(answers[4]!, /oldSelf cannot be used on the uncorrelatable portion/);
  assert.equal(answers[5], '[]');
  assert.match(answers[7]!, /may not be set if oldSelf is not used in rule/);
  assert.match(answers[8]!, /exceeds budget/);
});

test('nodes whose declarations differ are not taken for one another; failures are not remembered', () => {
  const ts = (x: JSONSchemaProps): JSONSchemaProps => obj({ x }, { 'x-kubernetes-validations': [{ rule: "self.x < timestamp('2020-01-01T00:00:00Z')" }] });
  const msg = (x: JSONSchemaProps, messageExpression: string): JSONSchemaProps => obj({ x }, { 'x-kubernetes-validations': [{ rule: 'true', messageExpression }] });
  const answers = [
    root(obj({ a: ts({ type: 'string', format: 'date-time' }) })),
    root(obj({ a: ts({ type: 'string' }) })),
    root(obj({ a: msg({ type: 'string' }, 'self.x') })),
    root(obj({ a: msg({ type: 'integer' }, 'self.x') })),
    root(obj({ a: obj({ y: { type: 'string' } }, { 'x-kubernetes-validations': [{ rule: 'self.nope == 1' }] }) })),
    root(obj({ a: obj({ nope: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.nope == 1' }] }) })),
    root(obj({ a: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: "self.matches('^a+$')" }] } })),
  ].map(bothWays);
  assert.equal(answers[0], '[]');
  assert.match(answers[1]!, /found no matching overload/);
  assert.equal(answers[2], '[]');
  assert.match(answers[3]!, /messageExpression must evaluate to a string/);
  assert.match(answers[4]!, /undefined field 'nope'/);
  assert.equal(answers[5], '[]');
  assert.equal(answers[6], '[]');
});

test('declText tells declarations apart by every part the compiled rules depend on', () => {
  const text = (s: JSONSchemaProps): string => {
    const r = newStructural(s);
    assert.ok(!('error' in r));
    return declText(schemaDeclType(r.structural, false)!);
  };
  const base: JSONSchemaProps = obj({ x: { type: 'string' } });
  const variants: JSONSchemaProps[] = [
    base,
    obj({ y: { type: 'string' } }),
    obj({ x: { type: 'string', maxLength: 3 } }),
    obj({ x: { type: 'string', format: 'date-time' } }),
    obj({ x: { type: 'string', format: 'byte' } }),
    obj({ x: { type: 'integer' } }),
    obj({ x: { type: 'string' } }, { required: ['x'] }),
    obj({ x: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 2 } }),
    obj({ 'x-y': { type: 'string' } }),
    obj({ x: { type: 'array', items: { type: 'string' } } }),
    obj({ x: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } }),
    obj({ x: { type: 'array', items: obj({ k: { type: 'string' } }, { required: ['k'] }), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] } }),
    obj({ x: { type: 'object', additionalProperties: { type: 'string' } } }),
    obj({ x: { 'x-kubernetes-int-or-string': true } }),
  ];
  const texts = variants.map(text);
  assert.equal(new Set(texts).size, texts.length, texts.join('\n'));
  assert.equal(text(structuredClone(base)), texts[0]);
});
