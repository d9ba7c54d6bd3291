// Rule compilation on CRD writes, through the schema validator hook directly: compile errors at
// their paths, costs per expression and per schema (suppressed for unchanged schemas on update),
// oldSelf where it cannot correlate, and the environments of new and stored expressions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorString } from '../../src/api/field-error.js';
import { createCRDSchemaValidator, NO_VALUE_CHECKS } from '../../src/crd/crd-schema-validate.js';
import { checkValidationRules, withRuleCostTotal } from '../../src/crd/cel-crd-checks.js';
import { toInternalSpec } from '../../src/crd/internal.js';
import type { SchemaCheckContext } from '../../src/crd/validation.js';

const validate = withRuleCostTotal(createCRDSchemaValidator({ ...NO_VALUE_CHECKS, checkRules: checkValidationRules }));
const CTX: SchemaCheckContext = { statusEnabled: false, requireStructuralSchema: true, allowDefaults: true };
const PATH = 'spec.validation.openAPIV3Schema';

const errors = (schema: Record<string, unknown>, ctx: SchemaCheckContext = CTX): string[] => validate(structuredClone(schema), PATH, ctx).map(fieldErrorString);
const root = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties: { spec }, ...extra });
const rules = (...rs: Array<string | Record<string, unknown>>) => rs.map((r) => (typeof r === 'string' ? { rule: r } : r));

test('valid rules compile without errors, at every kind of node', () => {
  assert.deepEqual(
    errors(
      root(
        {
          type: 'object',
          'x-kubernetes-validations': rules('self.a.size() < 10', "self.m.all(k, k != '')", 'self.l.exists(x, x > 0)'),
          properties: {
            a: { type: 'string', 'x-kubernetes-validations': rules("self != 'x'") },
            m: { type: 'object', additionalProperties: { type: 'integer', 'x-kubernetes-validations': rules('self >= 0') } },
            l: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': rules('self < 100') } },
          },
        },
        { 'x-kubernetes-validations': rules("self.metadata.name != '' && self.kind == 'Widget' && self.apiVersion != ''") },
      ),
    ),
    [],
  );
});

test('the root exposes only metadata.name and metadata.generateName', () => {
  const errs = errors(root({ type: 'object' }, { 'x-kubernetes-validations': rules("self.metadata.namespace == 'x'") }));
  assert.equal(errs.length, 1);
  assert.match(errs[0]!, /^spec\.validation\.openAPIV3Schema\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed: ERROR: <input>:1:14: undefined field 'namespace'/);
});

test('type names are selfType<n>, nested as kube names them', () => {
  const errs = errors(root({ type: 'object', 'x-kubernetes-validations': rules('self.inner == 1'), properties: { inner: { type: 'object', properties: { x: { type: 'integer' } } } } }));
  assert.equal(errs.length, 1);
  assert.match(errs[0]!, /found no matching overload for '_==_' applied to '\(selfType\d+\.inner, int\)'/);
});

test('compile errors of several rules, messageExpression errors, optionalOldSelf', () => {
  const errs = errors(
    root({
      type: 'object',
      'x-kubernetes-validations': rules(
        'self.x',
        { rule: 'self.x > 0', messageExpression: '1' },
        { rule: 'self.x > 0', optionalOldSelf: false },
        { rule: 'oldSelf.hasValue()', optionalOldSelf: true },
        { rule: 'self.nope', optionalOldSelf: true },
      ),
      properties: { x: { type: 'integer' } },
    }),
  );
  const at = `${PATH}.properties[spec].x-kubernetes-validations`;
  assert.equal(errs.length, 5, errs.join('\n'));
  assert.match(errs[0]!, new RegExp(`^${esc(at)}\\[0\\]\\.rule: Invalid value: apiextensions\\.ValidationRule\\{Rule:"self\\.x", .*\\}: cel expression must evaluate to a bool$`));
  assert.match(errs[1]!, new RegExp(`^${esc(at)}\\[1\\]\\.messageExpression: .*MessageExpression:"1".*: messageExpression must evaluate to a string$`));
  assert.equal(errs[2], `${at}[2].optionalOldSelf: Invalid value: false: may not be set if oldSelf is not used in rule`);
  // A rule that does not compile does not use oldSelf either.
  assert.match(errs[3]!, new RegExp(`^${esc(at)}\\[4\\]\\.rule: .*OptionalOldSelf:\\(\\*bool\\)\\(0x[0-9a-f]+\\)\\}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'`));
  assert.equal(errs[4], `${at}[4].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`);
});

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('oldSelf on uncorrelatable nodes: under atomic and set lists, not under map lists', () => {
  const at = `${PATH}.properties[spec]`;
  const item = { type: 'object', required: ['k'], properties: { k: { type: 'string', maxLength: 10 } }, 'x-kubernetes-validations': rules('self.k == oldSelf.k') };
  assert.deepEqual(errors(root({ type: 'object', properties: { l: { type: 'array', items: item } } })), [
    `${at}.properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self.k == oldSelf.k": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[l]`,
  ]);
  // The highest uncorrelatable ancestor is named.
  assert.deepEqual(
    errors(root({ type: 'object', properties: { outer: { type: 'array', items: { type: 'object', properties: { l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: item } } } } } })),
    [
      `${at}.properties[outer].items.properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self.k == oldSelf.k": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[outer]`,
    ],
  );
  assert.deepEqual(errors(root({ type: 'object', properties: { l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: item } } })), []);
});

test('unknown types: a rule on a schema CEL cannot see is an internal error', () => {
  assert.deepEqual(errors(root({ type: 'object', properties: { any: { 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': rules('true') } } })), [
    `${PATH}.properties[spec].properties[any].x-kubernetes-validations: Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations`,
  ]);
});

test('cost: per expression (times cardinality), per schema, suppressed for unchanged schemas', () => {
  const quadratic = root({ type: 'object', properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': rules('self.all(x, self.all(y, x == y))') } } });
  const at = `${PATH}.properties[spec].properties[l].x-kubernetes-validations[0].rule`;
  const budget = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
  assert.deepEqual(errors(quadratic), [
    `${at}: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${budget}`,
    `${at}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${PATH}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${budget}`,
  ]);
  // Bounded, it fits.
  const bounded = structuredClone(quadratic) as any;
  bounded.properties.spec.properties.l.maxItems = 10;
  bounded.properties.spec.properties.l.items.maxLength = 10;
  assert.deepEqual(errors(bounded), []);
  // A cheap rule repeated under unbounded lists: its cardinality makes it too expensive.
  const nested = root({
    type: 'object',
    properties: { l: { type: 'array', items: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': rules("self.contains('x')") } } } },
  });
  const nestedErrs = errors(nested);
  assert.match(nestedErrs[0]!, /items\.items\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of/);
  // Unchanged on update: the per-expression limit is not enforced, the total still is.
  const spec = toInternalSpec({ group: 'g', names: {}, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: quadratic } }] } as any);
  const updated = errors(quadratic, { ...CTX, update: { oldSpec: spec, schemaUnchanged: true } });
  assert.deepEqual(updated, [
    `${at}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${PATH}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${budget}`,
  ]);
});

test('cost: the total over the schema names its four most expensive rules; the factor as Go prints it', () => {
  // 13 rules, each 20 × 400,002 (contains over strings of up to 4,000,000 bytes): each under the
  // per-expression limit, together 104,000,520.
  const many = Array.from({ length: 13 }, (_, i) => ({ rule: `self.s${i}.contains('x')` }));
  const props = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`s${i}`, { type: 'string', maxLength: 1000000 }]));
  const at = `${PATH}.properties[spec].properties[l].items.x-kubernetes-validations`;
  assert.deepEqual(errors(root({ type: 'object', properties: { l: { type: 'array', maxItems: 20, items: { type: 'object', properties: props, 'x-kubernetes-validations': many } } } })), [
    ...[0, 1, 2, 3].map((i) => `${at}[${i}].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`),
    `${PATH}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.040005x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
  ]);
});

test('environments: semver (new in 1.33) only for expressions already stored in the CRD', () => {
  const schema = root({ type: 'object', properties: { v: { type: 'string', 'x-kubernetes-validations': rules('isSemver(self)') } } });
  const created = errors(schema);
  assert.equal(created.length, 1);
  assert.match(created[0]!, /x-kubernetes-validations\[0\]\.rule: .*compilation failed: ERROR: <input>:1:9: undeclared reference to 'isSemver' \(in container ''\)/);
  // On update, a rule the old CRD already had compiles with every library of this release.
  const oldSpec = toInternalSpec({ group: 'g', names: {}, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }] } as any);
  assert.deepEqual(errors(schema, { ...CTX, update: { oldSpec, schemaUnchanged: false } }), []);
  const other = toInternalSpec({ group: 'g', names: {}, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: root({ type: 'object' }) } }] } as any);
  assert.equal(errors(schema, { ...CTX, update: { oldSpec: other, schemaUnchanged: false } }).length, 1);
});

test("Kubernetes' macros: two-variable comprehensions compile, cel.bind does not (no bindings library in 1.33)", () => {
  const m = { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 10 } };
  assert.deepEqual(errors(root({ type: 'object', properties: { m }, 'x-kubernetes-validations': rules("self.m.transformMap(k, v, v + '!').all(k, v, v.endsWith('!'))", 'self.m.exists(k, v, k == v)') })), []);
  const errs = errors(root({ type: 'object', properties: { m }, 'x-kubernetes-validations': rules('cel.bind(x, self.m, size(x) > 0)') }));
  assert.equal(errs.length, 1);
  assert.match(errs[0]!, /compilation failed: ERROR: <input>:1:1: undeclared reference to 'cel' \(in container ''\)[^]*ERROR: <input>:1:9: undeclared reference to 'bind'/);
});
